#include "Reporters.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

#include <cstdio>
#include <map>
#include <memory>
#include <set>

namespace warpcheck::tool {

/// The objects of A, or none when A is missing: entries that are not
/// objects are skipped here, once for every reporter.
static std::vector<const llvm::json::Object *> objectsIn(const llvm::json::Array *A) {
  std::vector<const llvm::json::Object *> Out;
  if (A)
    for (const llvm::json::Value &V : *A)
      if (const llvm::json::Object *O = V.getAsObject())
        Out.push_back(O);
  return Out;
}

static void renderMessage(const llvm::json::Object &M, llvm::StringRef Severity,
                          llvm::StringRef Check, llvm::raw_ostream &OS, bool Color) {
  auto File = M.getString("file");
  auto Line = M.getInteger("line");
  auto Column = M.getInteger("column");
  if (Color)
    OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
  if (File && Line && Column)
    OS << *File << ":" << *Line << ":" << *Column << ": ";
  if (Color)
    OS.changeColor(Severity == "note" ? llvm::raw_ostream::BLACK
                   : Severity == "error" ? llvm::raw_ostream::RED
                                         : llvm::raw_ostream::MAGENTA,
                   true);
  OS << Severity << ": ";
  if (Color)
    OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
  OS << M.getString("message").value_or("");
  if (!Check.empty())
    OS << " [" << Check << "]";
  if (Color)
    OS.resetColor();
  OS << "\n";
  auto Source = M.getString("source_line");
  if (Source && Line && Column) {
    OS << llvm::format("%5d", static_cast<int>(*Line)) << " | " << *Source << "\n";
    OS << "      | ";
    // Keep tabs so the caret lines up under the source.
    for (int64_t I = 1; I < *Column && I - 1 < static_cast<int64_t>(Source->size()); ++I)
      OS << ((*Source)[I - 1] == '\t' ? '\t' : ' ');
    if (Color)
      OS.changeColor(llvm::raw_ostream::GREEN, true);
    OS << "^";
    if (Color)
      OS.resetColor();
    OS << "\n";
  }
}

void renderText(const RunResult &R, llvm::raw_ostream &OS, bool Color) {
  for (const llvm::json::Object *F : objectsIn(&R.Findings)) {
    renderMessage(*F, F->getString("severity").value_or("warning"),
                  F->getString("check").value_or(""), OS, Color);
    for (const llvm::json::Object *N : objectsIn(F->getArray("notes")))
      renderMessage(*N, "note", "", OS, Color);
  }
}

/// A copy of O without Key. (json::Object::erase leaves a tombstone whose
/// key still owns its string; copying such an object in LLVM 19 revives the
/// key with an uninitialised value, so objects are rebuilt, never erased.)
static llvm::json::Object without(const llvm::json::Object &O, llvm::StringRef Key) {
  llvm::json::Object Out;
  for (const auto &[K, V] : O) {
    if (llvm::StringRef(K) == Key)
      continue;
    if (llvm::StringRef(K) == "notes" && V.getAsArray()) {
      llvm::json::Array Notes;
      for (const llvm::json::Value &N : *V.getAsArray())
        Notes.push_back(N.getAsObject() ? llvm::json::Value(without(*N.getAsObject(), Key))
                                        : N);
      Out[K] = std::move(Notes);
      continue;
    }
    Out[K] = V;
  }
  return Out;
}

void renderJson(const RunResult &R, const ReportContext &Ctx, llvm::raw_ostream &OS) {
  llvm::json::Array Findings;
  for (const llvm::json::Value &V : R.Findings)
    if (const llvm::json::Object *F = V.getAsObject())
      Findings.push_back(without(*F, "source_line"));
  RunCounts C = countRun(R);
  llvm::json::Object Summary{{"inputs", C.Inputs},
                             {"inputs_analysed", C.Analysed},
                             {"inputs_analysed_with_errors", C.AnalysedWithErrors},
                             {"inputs_not_analysed", C.NotAnalysed},
                             {"kernels_analysed", C.KernelsAnalysed},
                             {"kernels_with_errors", C.KernelsWithErrors},
                             {"launch_shapes", C.LaunchShapes},
                             {"findings", C.Findings},
                             {"text", Ctx.Summary}};
  llvm::json::Object Root{{"version", 1},
                          {"kernels", llvm::json::Array(R.Kernels)},
                          {"findings", std::move(Findings)},
                          {"errors", llvm::json::Array(R.Errors)},
                          {"inputs", llvm::json::Array(R.Inputs)},
                          {"summary", std::move(Summary)}};
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Root))) << "\n";
}

//===----------------------------------------------------------------------===//
// Shared by the SARIF and HTML reports.
//===----------------------------------------------------------------------===//

/// Findings per check, in name order: SARIF's rules, the HTML summary.
static std::map<std::string, unsigned> findingsPerCheck(const RunResult &R) {
  std::map<std::string, unsigned> Counts;
  for (const llvm::json::Object *F : objectsIn(&R.Findings))
    ++Counts[F->getString("check").value_or("").str()];
  return Counts;
}

/// What a check reports, in one line (as README's table says it); empty
/// for a check warpcheck does not know (a compiler warning, a future check).
static llvm::StringRef checkSummary(llvm::StringRef Check) {
  if (Check == "cuda-uncoalesced-global-access")
    return "Global load, store or atomic touching more 32-byte sectors per warp "
           "request than its width requires";
  if (Check == "cuda-shared-bank-conflict")
    return "Shared memory access needing more wavefronts than its width requires "
           "(bank conflicts)";
  if (Check == "cuda-occupancy")
    return "Kernel launch whose theoretical occupancy is below the threshold";
  if (Check.starts_with("clang-diagnostic-"))
    return "Compiler warning";
  return "";
}

/// A file as reports name it: absolute, without "." and "..", and relative
/// to the base directory when it lies under it (shorter for people; for
/// code scanning, a path it can find in the repository).
struct ReportedFile {
  std::string Path;
  bool UnderBase = false;
};

static ReportedFile reportedFile(llvm::StringRef Base, llvm::StringRef File) {
  llvm::SmallString<256> Abs(File);
  if (!llvm::sys::path::is_absolute(Abs) && !Base.empty())
    llvm::sys::fs::make_absolute(Base, Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  std::string Prefix = Base.str();
  if (!Prefix.empty() && Prefix.back() != '/')
    Prefix += '/';
  llvm::StringRef Path = Abs.str();
  if (!Base.empty() && Path.starts_with(Prefix) && Path.size() > Prefix.size())
    return {Path.drop_front(Prefix.size()).str(), true};
  return {Path.str(), false};
}

//===----------------------------------------------------------------------===//
// SARIF 2.1.0
//===----------------------------------------------------------------------===//

static constexpr llvm::StringLiteral SarifSchema =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
    "sarif-schema-2.1.0.json";
static constexpr llvm::StringLiteral SourceRoot = "%SRCROOT%";

/// Path as the path of a URI: every byte but unreserved characters and "/"
/// percent-encoded (spaces, "#", "%", ":" and non-ASCII occur in file names).
static std::string uriPath(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' || C == '/') {
      Out += C;
      continue;
    }
    Out += '%';
    Out += llvm::hexdigit(C >> 4);
    Out += llvm::hexdigit(C & 15);
  }
  return Out;
}

/// UTF-16 code units in Utf8. SARIF counts columns and character offsets in
/// them (columnKind utf16CodeUnits); clang counts bytes. They differ after
/// any non-ASCII character, in a comment above a fix-it for instance.
static int64_t utf16Length(llvm::StringRef Utf8) {
  int64_t Units = 0;
  for (unsigned char C : Utf8)
    Units += (C & 0xC0) == 0x80 ? 0 : C >= 0xF0 ? 2 : 1;
  return Units;
}

static llvm::json::Object sarifMessage(llvm::StringRef Text) {
  return llvm::json::Object{{"text", Text.str()}};
}

namespace {

/// SARIF locations of the report's messages and fix-its.
class SarifLocations {
public:
  explicit SarifLocations(llvm::StringRef Base) : Base(Base.str()) {}

  /// Relative to %SRCROOT% (the base directory) when the file lies under
  /// it, else an absolute file:// URI.
  llvm::json::Object artifact(llvm::StringRef File) const {
    ReportedFile F = reportedFile(Base, File);
    if (F.UnderBase)
      return llvm::json::Object{{"uri", uriPath(F.Path)}, {"uriBaseId", SourceRoot}};
    return llvm::json::Object{{"uri", "file://" + uriPath(F.Path)}};
  }

  /// The location of a finding, note or error ({"file", "line", "column",
  /// "source_line"}); empty when it names no file.
  llvm::json::Object location(const llvm::json::Object &M) const {
    auto File = M.getString("file");
    if (!File || File->empty())
      return {};
    llvm::json::Object Physical{{"artifactLocation", artifact(*File)}};
    auto Line = M.getInteger("line");
    if (Line && *Line >= 1) {
      llvm::json::Object Region{{"startLine", *Line}};
      auto Column = M.getInteger("column");
      if (Column && *Column >= 1) {
        int64_t BytesBefore = *Column - 1;
        llvm::StringRef Before = M.getString("source_line").value_or("").take_front(BytesBefore);
        Region["startColumn"] =
            utf16Length(Before) + (BytesBefore - static_cast<int64_t>(Before.size())) + 1;
      }
      Physical["region"] = std::move(Region);
    }
    return llvm::json::Object{{"physicalLocation", std::move(Physical)}};
  }

  /// The text a fix-it replaces: clang's byte offset and length as UTF-16
  /// character offsets, counted in the file; when the file cannot be read
  /// (any more), the byte region, which is exact.
  llvm::json::Object deletedRegion(const llvm::json::Object &Fix) {
    int64_t Offset = Fix.getInteger("offset").value_or(0);
    int64_t Length = Fix.getInteger("length").value_or(0);
    const llvm::MemoryBuffer *Source = source(Fix.getString("file").value_or(""));
    if (!Source || Offset < 0 || Length < 0 ||
        static_cast<uint64_t>(Offset + Length) > Source->getBufferSize())
      return llvm::json::Object{{"byteOffset", Offset}, {"byteLength", Length}};
    llvm::StringRef Text = Source->getBuffer();
    return llvm::json::Object{{"charOffset", utf16Length(Text.take_front(Offset))},
                              {"charLength", utf16Length(Text.substr(Offset, Length))}};
  }

private:
  const llvm::MemoryBuffer *source(llvm::StringRef File) {
    llvm::SmallString<256> Abs(File);
    if (!Base.empty())
      llvm::sys::fs::make_absolute(Base, Abs);
    auto [It, Inserted] = Sources.try_emplace(Abs.str().str());
    if (Inserted)
      if (auto Buffer = llvm::MemoryBuffer::getFile(Abs, /*IsText=*/false,
                                                    /*RequiresNullTerminator=*/false))
        It->second = std::move(*Buffer);
    return It->second.get();
  }

  std::string Base;
  /// Files read for fix-its, once each (null: unreadable).
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Sources;
};

} // namespace

void renderSarif(const RunResult &R, const ReportContext &Ctx, llvm::raw_ostream &OS) {
  SarifLocations Locations(Ctx.BaseDirectory);

  llvm::json::Array Rules;
  std::map<std::string, int64_t> RuleIndex;
  for (const auto &[Check, Count] : findingsPerCheck(R)) {
    RuleIndex[Check] = static_cast<int64_t>(Rules.size());
    llvm::StringRef Summary = checkSummary(Check);
    llvm::json::Object Rule{{"id", Check},
                            {"shortDescription", sarifMessage(Summary.empty() ? Check : Summary)},
                            {"defaultConfiguration", llvm::json::Object{{"level", "warning"}}}};
    if (llvm::StringRef(Check).starts_with("cuda-"))
      Rule["help"] = sarifMessage("See docs/checks/" + Check + ".rst in warpcheck's sources.");
    Rules.push_back(std::move(Rule));
  }

  llvm::json::Array Results;
  for (const llvm::json::Object *F : objectsIn(&R.Findings)) {
    std::string Check = F->getString("check").value_or("").str();
    llvm::json::Object Result{
        {"ruleId", Check},
        {"ruleIndex", RuleIndex[Check]},
        {"level", F->getString("severity") == "error" ? "error" : "warning"},
        {"message", sarifMessage(F->getString("message").value_or(""))}};
    if (llvm::json::Object Where = Locations.location(*F); !Where.empty())
      Result["locations"] = llvm::json::Array{std::move(Where)};

    llvm::json::Array Related;
    for (const llvm::json::Object *N : objectsIn(F->getArray("notes"))) {
      llvm::json::Object Where = Locations.location(*N);
      Where["id"] = static_cast<int64_t>(Related.size());
      Where["message"] = sarifMessage(N->getString("message").value_or(""));
      Related.push_back(std::move(Where));
    }
    if (!Related.empty())
      Result["relatedLocations"] = std::move(Related);

    // A finding's replacements form one fix-it; SARIF groups them by file.
    std::map<std::string, llvm::json::Array> ReplacementsPerFile;
    for (const llvm::json::Object *X : objectsIn(F->getArray("fixes")))
      ReplacementsPerFile[X->getString("file").value_or("").str()].push_back(llvm::json::Object{
          {"deletedRegion", Locations.deletedRegion(*X)},
          {"insertedContent", sarifMessage(X->getString("replacement").value_or(""))}});
    if (!ReplacementsPerFile.empty()) {
      llvm::json::Array Changes;
      for (auto &[File, Replacements] : ReplacementsPerFile)
        Changes.push_back(llvm::json::Object{{"artifactLocation", Locations.artifact(File)},
                                             {"replacements", std::move(Replacements)}});
      Result["fixes"] =
          llvm::json::Array{llvm::json::Object{{"artifactChanges", std::move(Changes)}}};
    }
    Results.push_back(std::move(Result));
  }

  llvm::json::Array Notifications;
  for (const llvm::json::Object *E : objectsIn(&R.Errors)) {
    llvm::json::Object Notification{
        {"level", "error"}, {"message", sarifMessage(E->getString("message").value_or(""))}};
    if (llvm::json::Object Where = Locations.location(*E); !Where.empty())
      Notification["locations"] = llvm::json::Array{std::move(Where)};
    Notifications.push_back(std::move(Notification));
  }
  llvm::json::Object Invocation{{"executionSuccessful", Notifications.empty()}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);

  llvm::json::Object Run{
      {"tool", llvm::json::Object{{"driver", llvm::json::Object{{"name", "warpcheck"},
                                                                {"version", Ctx.ToolVersion},
                                                                {"rules", std::move(Rules)}}}}},
      {"columnKind", "utf16CodeUnits"},
      {"invocations", llvm::json::Array{std::move(Invocation)}},
      {"results", std::move(Results)}};
  if (!Ctx.BaseDirectory.empty()) {
    std::string BaseUri = "file://" + uriPath(Ctx.BaseDirectory);
    if (BaseUri.back() != '/')
      BaseUri += '/';
    Run["originalUriBaseIds"] =
        llvm::json::Object{{SourceRoot, llvm::json::Object{{"uri", std::move(BaseUri)}}}};
  }
  llvm::json::Object Log{{"$schema", SarifSchema},
                         {"version", "2.1.0"},
                         {"runs", llvm::json::Array{std::move(Run)}}};
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Log))) << "\n";
}

//===----------------------------------------------------------------------===//
// HTML
//===----------------------------------------------------------------------===//

/// Text for element content and attribute values: file names, messages and
/// expressions come from the analysed code, which may be hostile.
static std::string escapeHtml(llvm::StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (char C : Text)
    switch (C) {
    case '&': Out += "&amp;"; break;
    case '<': Out += "&lt;"; break;
    case '>': Out += "&gt;"; break;
    case '"': Out += "&quot;"; break;
    case '\'': Out += "&#39;"; break;
    default: Out += C;
    }
  return Out;
}

/// "file:line:col" of a finding, note, error or access, the file as
/// reportedFile names it; empty when it names no file.
static std::string positionText(const llvm::json::Object &M, llvm::StringRef Base) {
  auto File = M.getString("file");
  if (!File || File->empty())
    return "";
  std::string Out = reportedFile(Base, *File).Path;
  if (auto Line = M.getInteger("line")) {
    Out += ":" + std::to_string(*Line);
    if (auto Column = M.getInteger("column"))
      Out += ":" + std::to_string(*Column);
  }
  return Out;
}

/// A number of the JSON report for people: "–" where it is null (a global
/// access has no wavefronts, an unknown access no numbers at all).
static std::string numberText(const llvm::json::Value *V) {
  if (!V || !V->getAsNumber())
    return "–";
  if (auto I = V->getAsInteger())
    return std::to_string(*I);
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.4g", *V->getAsNumber());
  return Text;
}

static std::string percentText(const llvm::json::Value *V) {
  if (!V || !V->getAsNumber())
    return "–";
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.1f%%", *V->getAsNumber() * 100);
  return Text;
}

/// "measured (ideal N)" for a per-request metric and its ideal.
static std::string perRequestText(const llvm::json::Object &A, llvm::StringRef Key) {
  const llvm::json::Value *Actual = A.get(Key);
  if (!Actual || !Actual->getAsNumber())
    return "–";
  return numberText(Actual) + " (ideal " + numberText(A.get(("ideal_" + Key).str())) + ")";
}

/// "(x, y, z)" of a launch's block or grid.
static std::string dimText(const llvm::json::Array *Dims) {
  if (!Dims)
    return "–";
  std::string Out = "(";
  for (const llvm::json::Value &D : *Dims)
    Out += (Out.size() > 1 ? ", " : "") + numberText(&D);
  return Out + ")";
}

namespace {

/// Writes the page; every string that reaches it is escaped here.
class HtmlPage {
public:
  HtmlPage(llvm::raw_ostream &OS, llvm::StringRef Base) : OS(OS), Base(Base) {}

  void raw(llvm::StringRef Markup) { OS << Markup; }
  void text(llvm::StringRef Text) { OS << escapeHtml(Text); }
  void element(llvm::StringRef Tag, llvm::StringRef Text) {
    OS << "<" << Tag << ">" << escapeHtml(Text) << "</" << Tag << ">";
  }
  void cell(llvm::StringRef Text) { element("td", Text); }
  void codeCell(llvm::StringRef Text) { OS << "<td><code>" << escapeHtml(Text) << "</code></td>"; }
  void headerRow(llvm::ArrayRef<llvm::StringRef> Names) {
    OS << "<thead><tr>";
    for (llvm::StringRef N : Names)
      element("th", N);
    OS << "</tr></thead>\n";
  }
  std::string position(const llvm::json::Object &M) const { return positionText(M, Base); }

  /// A list of the strings in A (assumptions, limitations); nothing when empty.
  void stringList(const llvm::json::Array *A) {
    if (!A || A->empty())
      return;
    OS << "<ul>";
    for (const llvm::json::Value &V : *A)
      element("li", V.getAsString().value_or(""));
    OS << "</ul>";
  }

private:
  llvm::raw_ostream &OS;
  llvm::StringRef Base;
};

} // namespace

static constexpr llvm::StringLiteral HtmlStyle = R"(
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.5em; text-align: left; vertical-align: top; }
th { background: #eee; }
code { font-family: monospace; white-space: pre-wrap; }
td ul { margin: 0; padding-left: 1.2em; }
tr.finding td:first-child, td.warning { color: #8a4b00; }
td.error { color: #b00020; font-weight: bold; }
tr.poor { background: #fff3e0; }
section { margin-bottom: 2em; }
)";

static void htmlSummary(const RunResult &R, HtmlPage &Page) {
  std::map<std::string, unsigned> PerCheck = findingsPerCheck(R);
  size_t Accesses = 0;
  for (const llvm::json::Object *K : objectsIn(&R.Kernels))
    Accesses += objectsIn(K->getArray("accesses")).size();
  RunCounts C = countRun(R);
  Page.raw("<h2>Summary</h2>\n<table>\n");
  auto Row = [&](llvm::StringRef Name, size_t Value) {
    Page.raw("<tr>");
    Page.element("th", Name);
    Page.cell(std::to_string(Value));
    Page.raw("</tr>\n");
  };
  Row("Inputs analysed", C.Analysed);
  Row("Inputs analysed with errors (kernels that compile still analysed)",
      C.AnalysedWithErrors);
  Row("Inputs not analysed", C.NotAnalysed);
  Row("Kernels analysed", C.KernelsAnalysed);
  Row("Kernels that do not compile", C.KernelsWithErrors);
  Row("Launch shapes", C.LaunchShapes);
  Row("Accesses analysed", Accesses);
  Row("Findings", C.Findings);
  Page.raw("</table>\n");
  if (PerCheck.empty())
    return;
  Page.raw("<table>\n");
  Page.headerRow({"Check", "Findings", "What it reports"});
  for (const auto &[Check, Count] : PerCheck) {
    Page.raw("<tr>");
    Page.codeCell(Check);
    Page.cell(std::to_string(Count));
    Page.cell(checkSummary(Check));
    Page.raw("</tr>\n");
  }
  Page.raw("</table>\n");
}

static void htmlErrors(const RunResult &R, HtmlPage &Page) {
  if (R.Errors.empty())
    return;
  Page.raw("<h2>Errors</h2>\n<table>\n");
  Page.headerRow({"Location", "Message"});
  for (const llvm::json::Object *E : objectsIn(&R.Errors)) {
    Page.raw("<tr>");
    Page.codeCell(Page.position(*E));
    Page.cell(E->getString("message").value_or(""));
    Page.raw("</tr>\n");
  }
  Page.raw("</table>\n");
}

static void htmlFindings(const RunResult &R, HtmlPage &Page) {
  Page.raw("<h2>Findings</h2>\n");
  if (R.Findings.empty()) {
    Page.element("p", "No findings.");
    return;
  }
  Page.raw("<table>\n");
  Page.headerRow({"Location", "Check", "Severity", "Message", "Notes", "Fix-it"});
  for (const llvm::json::Object *F : objectsIn(&R.Findings)) {
    llvm::StringRef Severity = F->getString("severity").value_or("warning");
    Page.raw("<tr class=\"finding\">");
    Page.codeCell(Page.position(*F));
    Page.codeCell(F->getString("check").value_or(""));
    Page.raw(Severity == "error" ? "<td class=\"error\">" : "<td class=\"warning\">");
    Page.text(Severity);
    Page.raw("</td>");
    Page.cell(F->getString("message").value_or(""));
    Page.raw("<td>");
    if (auto Notes = objectsIn(F->getArray("notes")); !Notes.empty()) {
      Page.raw("<ul>");
      for (const llvm::json::Object *N : Notes) {
        Page.raw("<li>");
        if (std::string Where = Page.position(*N); !Where.empty()) {
          Page.element("code", Where);
          Page.raw(": ");
        }
        Page.text(N->getString("message").value_or(""));
        Page.raw("</li>");
      }
      Page.raw("</ul>");
    }
    Page.raw("</td><td>");
    if (auto Fixes = objectsIn(F->getArray("fixes")); !Fixes.empty()) {
      Page.raw("<ul>");
      for (const llvm::json::Object *X : Fixes) {
        Page.raw("<li>");
        Page.element("code", Page.position(*X));
        Page.raw(": replace ");
        Page.text(std::to_string(X->getInteger("length").value_or(0)));
        Page.raw(" bytes with ");
        Page.element("code", X->getString("replacement").value_or(""));
        Page.raw("</li>");
      }
      Page.raw("</ul>");
    }
    Page.raw("</td></tr>\n");
  }
  Page.raw("</table>\n");
}

/// Registers, shared memory and occupancy of a launch, when they could be had.
static void htmlOccupancy(const llvm::json::Object &K, HtmlPage &Page) {
  const llvm::json::Object *Occupancy = K.getObject("occupancy");
  if (!K.getInteger("registers") || !Occupancy) {
    Page.element("p", "Registers and occupancy: not available (no register count).");
    return;
  }
  Page.element("p", "Registers: " + numberText(K.get("registers")) + " per thread (" +
                        K.getString("registers_source").value_or("").str() +
                        "); shared memory: " + numberText(K.get("shared_bytes_static")) +
                        " bytes static, " + numberText(K.get("shared_bytes_dynamic")) +
                        " bytes dynamic.");
  Page.raw("<table>\n");
  Page.headerRow({"Architecture", "Registers", "Occupancy", "Blocks per SM", "Warps per SM",
                  "Limited by"});
  auto Row = [&](const llvm::json::Object &O, const llvm::json::Value *Registers) {
    Page.raw("<tr>");
    Page.cell(O.getString("arch").value_or(""));
    Page.cell(numberText(Registers));
    Page.cell(percentText(O.get("theoretical")));
    Page.cell(numberText(O.get("active_blocks_per_sm")));
    Page.cell(numberText(O.get("active_warps_per_sm")));
    Page.cell(O.getString("limiter").value_or(""));
    Page.raw("</tr>\n");
  };
  // With an --arch list, occupancy_by_arch holds the target first.
  if (auto ByArch = objectsIn(K.getArray("occupancy_by_arch")); !ByArch.empty())
    for (const llvm::json::Object *A : ByArch)
      Row(*A, A->get("registers"));
  else
    Row(*Occupancy, K.get("registers"));
  Page.raw("</table>\n");
}

static void htmlKernel(const llvm::json::Object &K, HtmlPage &Page) {
  Page.raw("<section>\n<h3><code>");
  Page.text(K.getString("name").value_or(""));
  Page.raw("</code> ");
  Page.text(Page.position(K));
  Page.raw("</h3>\n");
  if (K.getString("status") == "error") {
    // A kernel that does not compile: its error, nothing analysed.
    Page.stringList(K.getArray("limitations"));
    Page.raw("</section>\n");
    return;
  }
  if (const llvm::json::Object *L = K.getObject("launch"))
    Page.element("p", "Block " + dimText(L->getArray("block")) + ", grid " +
                          dimText(L->getArray("grid")) + ", from " +
                          L->getString("description").value_or("").str() + " (" +
                          L->getString("source").value_or("").str() + "); " +
                          numberText(K.get("simulated_warps")) + " of " +
                          numberText(K.get("total_warps")) + " warps simulated.");
  if (const llvm::json::Array *Limits = K.getArray("limitations"); Limits && !Limits->empty()) {
    Page.element("p", "Limitations:");
    Page.stringList(Limits);
  }
  if (const llvm::json::Array *Sampled = K.getArray("sampled_symbols");
      Sampled && !Sampled->empty()) {
    Page.element("p", "Sampled symbols:");
    Page.stringList(Sampled);
  }
  htmlOccupancy(K, Page);

  auto Accesses = objectsIn(K.getArray("accesses"));
  if (Accesses.empty()) {
    Page.element("p", "No memory accesses analysed.");
    Page.raw("</section>\n");
    return;
  }
  Page.raw("<table>\n");
  Page.headerRow({"Location", "Expression", "Space", "Op", "Sectors/request",
                  "Wavefronts/request", "Efficiency", "Status"});
  for (const llvm::json::Object *A : Accesses) {
    auto Efficiency = A->getNumber("efficiency");
    // Marked where half the bandwidth or more is wasted (the default
    // MinEfficiency of cuda-uncoalesced-global-access).
    Page.raw(Efficiency && *Efficiency < 0.5 ? "<tr class=\"poor\">" : "<tr>");
    Page.codeCell(Page.position(*A));
    Page.codeCell(A->getString("expression").value_or(""));
    Page.cell(A->getString("space").value_or(""));
    Page.cell(A->getString("op").value_or(""));
    Page.cell(perRequestText(*A, "sectors_per_request"));
    Page.cell(perRequestText(*A, "wavefronts_per_request"));
    Page.cell(percentText(A->get("efficiency")));
    Page.raw("<td>");
    Page.text(A->getString("status").value_or(""));
    Page.stringList(A->getArray("assumptions"));
    Page.raw("</td></tr>\n");
  }
  Page.raw("</table>\n</section>\n");
}

void renderHtml(const RunResult &R, const ReportContext &Ctx, llvm::raw_ostream &OS) {
  HtmlPage Page(OS, Ctx.BaseDirectory);
  Page.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<title>warpcheck report</title>\n<style>");
  Page.raw(HtmlStyle);
  Page.raw("</style>\n</head>\n<body>\n<h1>warpcheck report</h1>\n");
  Page.element("p", "warpcheck " + Ctx.ToolVersion + "; files are named relative to " +
                        Ctx.BaseDirectory + ".");
  htmlSummary(R, Page);
  htmlErrors(R, Page);
  htmlFindings(R, Page);
  Page.raw("<h2>Kernel launches</h2>\n");
  if (R.Kernels.empty())
    Page.element("p", "No kernel launches analysed.");
  for (const llvm::json::Object *K : objectsIn(&R.Kernels))
    htmlKernel(*K, Page);
  Page.raw("</body>\n</html>\n");
}

} // namespace warpcheck::tool
