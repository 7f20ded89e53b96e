//===- SarifReport.cpp - SARIF 2.1.0 --------------------------------------===//

#include "CheckDocs.h"
#include "Fingerprint.h"
#include "JsonFields.h"
#include "Reporters.h"
#include "ReportSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

namespace warpcheck::tool {

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
  return llvm::json::Object{{"text", text(Text)}};
}

namespace {

/// SARIF locations of the report's messages and fix-its.
class SarifLocations {
public:
  SarifLocations(llvm::StringRef Base, llvm::StringRef WorkingDirectory)
      : Base(Base.str()), Cwd(WorkingDirectory.str()) {}

  /// Relative to %SRCROOT% (the base directory) when the file lies under
  /// it, else an absolute file:// URI.
  llvm::json::Object artifact(llvm::StringRef File) const {
    ReportedFile F = reportedFile(Base, absolute(File));
    if (F.UnderBase)
      return llvm::json::Object{{"uri", uriPath(F.Path)}, {"uriBaseId", SourceRoot}};
    return llvm::json::Object{{"uri", "file://" + uriPath(F.Path)}};
  }

  /// The location of a finding, note or error (its file, line, column and
  /// line text); empty when it names no file.
  llvm::json::Object location(const ReportedMessage &M) const {
    if (!M.File || M.File->empty())
      return {};
    llvm::json::Object Physical{{"artifactLocation", artifact(*M.File)}};
    if (M.Line && *M.Line >= 1) {
      llvm::json::Object Region{{"startLine", *M.Line}};
      if (M.Column && *M.Column >= 1) {
        int64_t BytesBefore = *M.Column - 1;
        llvm::StringRef Before =
            M.SourceLine ? llvm::StringRef(*M.SourceLine).take_front(BytesBefore) : "";
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
  llvm::json::Object deletedRegion(const FixIt &Fix) {
    int64_t Offset = Fix.Offset;
    int64_t Length = Fix.Length;
    const llvm::MemoryBuffer *Source = source(Fix.File);
    if (!Source || Offset < 0 || Length < 0 ||
        static_cast<uint64_t>(Offset + Length) > Source->getBufferSize())
      return llvm::json::Object{{"byteOffset", Offset}, {"byteLength", Length}};
    llvm::StringRef Text = Source->getBuffer();
    return llvm::json::Object{{"charOffset", utf16Length(Text.take_front(Offset))},
                              {"charLength", utf16Length(Text.substr(Offset, Length))}};
  }

private:
  /// File, when relative, taken from the working directory.
  std::string absolute(llvm::StringRef File) const {
    llvm::SmallString<256> Abs(File);
    if (!Cwd.empty())
      llvm::sys::fs::make_absolute(Cwd, Abs);
    return Abs.str().str();
  }

  const llvm::MemoryBuffer *source(llvm::StringRef File) {
    std::string Abs = absolute(File);
    auto [It, Inserted] = Sources.try_emplace(Abs);
    if (Inserted)
      if (auto Buffer = llvm::MemoryBuffer::getFile(Abs, /*IsText=*/false,
                                                    /*RequiresNullTerminator=*/false))
        It->second = std::move(*Buffer);
    return It->second.get();
  }

  std::string Base, Cwd;
  /// Files read for fix-its, once each (null: unreadable).
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Sources;
};

} // namespace

/// A rule: the check's one-line summary, and from its documentation page
/// the first paragraph, the whole page as help and where it is published.
static llvm::json::Object sarifRule(const std::string &Check) {
  llvm::StringRef Summary = checkSummary(Check);
  llvm::json::Object Rule{{"id", text(Check)},
                          {"name", text(Check)},
                          {"shortDescription", sarifMessage(Summary.empty() ? Check : Summary)},
                          {"defaultConfiguration", llvm::json::Object{{"level", "warning"}}}};
  llvm::StringRef Page = checkDocPage(Check);
  if (Page.empty())
    return Rule;
  Rule["fullDescription"] = sarifMessage(firstParagraph(Page));
  Rule["help"] = llvm::json::Object{{"text", rstAsText(Page)},
                                    {"markdown", rstToMarkdown(Page)}};
  Rule["helpUri"] = checkDocUri(Check);
  return Rule;
}

/// The findings of one check at one place: one SARIF result, whichever
/// launches gave them (code scanning would show one alert per result).
static std::vector<std::vector<const Finding *>> findingsPerPlace(const RunResult &R) {
  std::vector<std::vector<const Finding *>> Groups;
  std::map<std::tuple<std::string, std::string, int64_t, int64_t>, size_t> Index;
  for (const Finding &F : R.Findings) {
    auto Key = std::make_tuple(F.Check, F.File.value_or(""), F.Line.value_or(0),
                               F.Column.value_or(0));
    auto [It, Inserted] = Index.try_emplace(Key, Groups.size());
    if (Inserted)
      Groups.emplace_back();
    Groups[It->second].push_back(&F);
  }
  return Groups;
}

void renderSarif(const RunResult &R, const ReportContext &Ctx, llvm::raw_ostream &OS) {
  SarifLocations Locations(Ctx.BaseDirectory, Ctx.WorkingDirectory);

  llvm::json::Array Rules;
  std::map<std::string, int64_t> RuleIndex;
  for (const auto &[Check, Count] : findingsPerCheck(R)) {
    RuleIndex[Check] = static_cast<int64_t>(Rules.size());
    Rules.push_back(sarifRule(Check));
  }

  llvm::json::Array Results;
  for (const std::vector<const Finding *> &Place : findingsPerPlace(R)) {
    const Finding &F = *Place.front();
    const std::string &Check = F.Check;
    // The other launches' findings at this place, in the message; every
    // launch named, in the properties.
    std::string Text = F.Message;
    llvm::json::Array Launches;
    bool AnyError = false;
    for (const Finding *Same : Place) {
      AnyError |= Same->Severity == "error";
      if (std::string Launch = launchNamed(Same->Message); !Launch.empty())
        Launches.push_back(text(Launch));
      if (Same != &F)
        Text += "\n\nAlso: " + Same->Message;
    }
    llvm::json::Object Result{{"ruleId", text(Check)},
                              {"ruleIndex", RuleIndex[Check]},
                              {"level", AnyError ? "error" : "warning"},
                              {"message", sarifMessage(Text)}};
    if (F.Fingerprint)
      Result["partialFingerprints"] =
          llvm::json::Object{{FingerprintSarifKey, text(*F.Fingerprint)}};
    if (!Launches.empty())
      Result["properties"] = llvm::json::Object{{"launches", std::move(Launches)}};
    if (llvm::json::Object Where = Locations.location(F); !Where.empty())
      Result["locations"] = llvm::json::Array{std::move(Where)};

    llvm::json::Array Related;
    for (const Finding *Same : Place)
      for (const ReportedMessage &N : Same->Notes) {
        llvm::json::Object Where = Locations.location(N);
        Where["id"] = static_cast<int64_t>(Related.size());
        Where["message"] = sarifMessage(N.Message);
        Related.push_back(std::move(Where));
      }
    if (!Related.empty())
      Result["relatedLocations"] = std::move(Related);

    // A finding's replacements form one fix-it; SARIF groups them by file.
    auto FixOf = [&](const std::vector<FixIt> &Fixes) {
      std::map<std::string, llvm::json::Array> ReplacementsPerFile;
      for (const FixIt &X : Fixes)
        ReplacementsPerFile[X.File].push_back(
            llvm::json::Object{{"deletedRegion", Locations.deletedRegion(X)},
                               {"insertedContent", sarifMessage(X.Replacement)}});
      llvm::json::Array Changes;
      for (auto &[File, Replacements] : ReplacementsPerFile)
        Changes.push_back(llvm::json::Object{{"artifactLocation", Locations.artifact(File)},
                                             {"replacements", std::move(Replacements)}});
      return llvm::json::Object{{"artifactChanges", std::move(Changes)}};
    };
    llvm::json::Array Fixes;
    if (!F.Fixes.empty())
      Fixes.push_back(FixOf(F.Fixes));
    // Then the fix-its of the notes (the structure-of-arrays rewrite), each
    // once, described by its note: clang-tidy makes them only when asked
    // (--fix-notes), so they are offered after the finding's own.
    std::set<std::string> NoteFixes;
    for (const Finding *Same : Place)
      for (const ReportedMessage &N : Same->Notes) {
        if (N.Fixes.empty())
          continue;
        llvm::json::Object Fix = FixOf(N.Fixes);
        std::string Key;
        llvm::raw_string_ostream(Key) << llvm::json::Value(llvm::json::Object(Fix));
        if (!NoteFixes.insert(Key).second)
          continue;
        Fix["description"] = sarifMessage(N.Message + " (made with --fix-notes)");
        Fixes.push_back(std::move(Fix));
      }
    if (!Fixes.empty())
      Result["fixes"] = std::move(Fixes);
    Results.push_back(std::move(Result));
  }

  llvm::json::Array Notifications;
  for (const ReportedError &E : R.Errors) {
    llvm::json::Object Notification{{"level", "error"}, {"message", sarifMessage(E.Message)}};
    if (llvm::json::Object Where = Locations.location(E); !Where.empty())
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

} // namespace warpcheck::tool
