//===- ReportWritersFuzzer.cpp - the four report writers on hostile text --===//
//
// Every string of a report comes from the code under review: file names,
// kernel and variable names in the messages, the source lines, fix-it
// replacements, compiler errors. The input is cut at 0xFF bytes into such
// strings (any bytes: invalid UTF-8, control characters, terminal escapes,
// markup), which fill findings with notes and fix-its, compiler errors and
// inputs; the run is written as text, JSON, SARIF and HTML. Besides no
// crash:
//  - the JSON and the SARIF parse back, the JSON with every finding
//    written, the SARIF with one result per check and place (the launches
//    of one place are one alert);
//  - the HTML page holds no markup of the input's: a string with "<wc"
//    never appears unescaped;
//  - the text report, uncoloured, holds no control character but the
//    newline (tabs are printed as such).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "Reporters.h"
#include "RunResult.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace warpcheck;
using namespace warpcheck::tool;

namespace {

/// The input's strings, cycled when there are fewer than asked for.
class Strings {
public:
  explicit Strings(llvm::StringRef Data) {
    llvm::SmallVector<llvm::StringRef, 16> Parts;
    Data.split(Parts, '\xff');
    for (llvm::StringRef P : Parts)
      All.push_back(P.str());
  }
  const std::string &next() { return All[Next++ % All.size()]; }
  std::int64_t number() {
    const std::string &S = next();
    return S.empty() ? 0 : static_cast<unsigned char>(S[0]) % 200;
  }
  bool hasMarkup() const {
    for (const std::string &S : All)
      if (S.find("<wc") != std::string::npos)
        return true;
    return false;
  }

private:
  std::vector<std::string> All;
  size_t Next = 0;
};

void fill(ReportedMessage &M, Strings &S) {
  M.Message = S.next();
  M.File = S.next();
  M.Line = S.number() + 1;
  M.Column = S.number() + 1;
  M.SourceLine = S.next();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data, std::size_t Size) {
  Strings S(llvm::StringRef(reinterpret_cast<const char *>(Data), Size));
  RunResult R;
  unsigned Findings = 1 + static_cast<unsigned>(S.number() % 4);
  for (unsigned I = 0; I < Findings; ++I) {
    Finding F;
    fill(F, S);
    F.Check = S.next();
    F.Fingerprint = S.next();
    ReportedMessage Note;
    fill(Note, S);
    F.Notes.push_back(Note);
    FixIt Fix;
    Fix.File = *F.File;
    Fix.Offset = S.number();
    Fix.Length = S.number() % 8;
    Fix.Line = *F.Line;
    Fix.Column = *F.Column;
    Fix.Replacement = S.next();
    F.Fixes.push_back(Fix);
    R.Findings.push_back(std::move(F));
  }
  ReportedError E;
  fill(E, S);
  E.Check = S.next();
  R.Errors.push_back(E);
  InputOutcome In;
  In.File = S.next();
  In.Status = "analysed_with_errors";
  In.Errors = 1;
  In.KernelsAnalysed = S.number();
  In.KernelsWithErrors = 0;
  In.Notes.push_back(S.next());
  R.Inputs.push_back(In);
  R.addNotAnalysed(S.next(), S.next());

  ReportContext Ctx;
  Ctx.ToolVersion = "fuzz";
  Ctx.BaseDirectory = "/src";
  Ctx.WorkingDirectory = "/src";
  Ctx.Summary = summaryLine(countRun(R));

  std::string Json, Sarif, Html, Text;
  llvm::raw_string_ostream JsonOut(Json), SarifOut(Sarif), HtmlOut(Html), TextOut(Text);
  renderJson(R, Ctx, JsonOut);
  renderSarif(R, Ctx, SarifOut);
  renderHtml(R, Ctx, HtmlOut);
  renderText(R, TextOut, /*Color=*/false);

  llvm::Expected<llvm::json::Value> JsonDoc = llvm::json::parse(Json);
  if (!JsonDoc) {
    llvm::consumeError(JsonDoc.takeError());
    fuzz::invariantBroken("the JSON report does not parse", Json);
  }
  const llvm::json::Array *JsonFindings =
      JsonDoc->getAsObject() ? JsonDoc->getAsObject()->getArray("findings") : nullptr;
  if (!JsonFindings || JsonFindings->size() != R.Findings.size())
    fuzz::invariantBroken("the JSON report's findings are not those written", Json);

  llvm::Expected<llvm::json::Value> SarifDoc = llvm::json::parse(Sarif);
  if (!SarifDoc) {
    llvm::consumeError(SarifDoc.takeError());
    fuzz::invariantBroken("the SARIF report does not parse", Sarif);
  }
  const llvm::json::Array *Runs =
      SarifDoc->getAsObject() ? SarifDoc->getAsObject()->getArray("runs") : nullptr;
  const llvm::json::Object *Run = Runs && !Runs->empty() ? (*Runs)[0].getAsObject() : nullptr;
  const llvm::json::Array *Results = Run ? Run->getArray("results") : nullptr;
  std::set<std::tuple<std::string, std::string, std::int64_t, std::int64_t>> Places;
  for (const Finding &F : R.Findings)
    Places.insert({F.Check, F.File.value_or(""), F.Line.value_or(0), F.Column.value_or(0)});
  if (!Results || Results->size() != Places.size())
    fuzz::invariantBroken("the SARIF report's results are not the findings' places", Sarif);

  if (S.hasMarkup() && Html.find("<wc") != std::string::npos)
    fuzz::invariantBroken("the HTML report holds the input's markup", Html);

  for (char C : Text) {
    unsigned char U = static_cast<unsigned char>(C);
    if ((U < 0x20 && C != '\n' && C != '\t') || U == 0x7f)
      fuzz::invariantBroken("the text report holds a control character", Text);
  }
  return 0;
}
