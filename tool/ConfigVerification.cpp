//===- ConfigVerification.cpp - the checks' configuration, verified -------===//

#include "ConfigVerification.h"
#include "JobOptions.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace warpcheck::tool {

using namespace clang::tidy;

namespace {

constexpr llvm::StringLiteral CommandLineSource = "the command line";

/// "; did you mean 'X'" for the known name nearest to Name, if it is
/// within MaxEdits.
std::string didYouMean(llvm::StringRef Name, llvm::ArrayRef<std::string> Known,
                       unsigned MaxEdits, llvm::StringRef Prefix = "") {
  unsigned Best = MaxEdits + 1;
  std::string Nearest;
  for (const std::string &K : Known) {
    unsigned D = Name.edit_distance(K, /*AllowReplacements=*/true, MaxEdits);
    if (D < Best) {
      Best = D;
      Nearest = K;
    }
  }
  return Nearest.empty() ? "" : "; did you mean '" + Prefix.str() + Nearest + "'";
}

/// Typos are a few letters: one in six (two at least) of a name.
unsigned typoEdits(llvm::StringRef Name) { return std::max<unsigned>(2, Name.size() / 6); }

/// A glob of Checks that names a cuda check: "cuda-occupancy", "-cuda-*".
bool namesCudaCheck(llvm::StringRef Glob) {
  Glob = Glob.trim();
  Glob.consume_front("-");
  return Glob.trim().starts_with("cuda");
}

bool globMatches(llvm::StringRef Glob, llvm::StringRef Name) {
  Glob = Glob.trim();
  Glob.consume_front("-");
  Glob = Glob.trim();
  std::string Pattern = "^";
  for (char C : Glob)
    Pattern += C == '*' ? std::string(".*") : llvm::Regex::escape(std::string(1, C));
  return llvm::Regex(Pattern + "$").match(Name);
}

/// The .clang-tidy files clang-tidy would read for File that it cannot
/// parse (it skips them, and goes on to the folder above).
std::vector<ConfigProblem> unreadableConfigs(llvm::StringRef File) {
  std::vector<ConfigProblem> Problems;
  for (llvm::StringRef Dir = llvm::sys::path::parent_path(File); !Dir.empty();
       Dir = llvm::sys::path::parent_path(Dir)) {
    llvm::SmallString<256> Config(Dir);
    llvm::sys::path::append(Config, ".clang-tidy");
    if (llvm::sys::fs::exists(Config)) {
      std::string Why;
      if (!llvm::sys::fs::is_regular_file(Config)) {
        Why = "not a regular file";
      } else if (auto Buffer = llvm::MemoryBuffer::getFile(Config, /*IsText=*/true)) {
        llvm::ErrorOr<ClangTidyOptions> Parsed = parseConfigurationWithDiags(
            **Buffer, [&](const llvm::SMDiagnostic &D) {
              if (Why.empty())
                Why = "line " + std::to_string(D.getLineNo()) + ", column " +
                      std::to_string(D.getColumnNo() + 1) + ": " + D.getMessage().str();
            });
        if (Parsed && !Parsed->InheritParentConfig.value_or(false))
          return Problems;
        if (Parsed)
          Why.clear();
        else if (Why.empty())
          Why = Parsed.getError().message();
      } else {
        Why = Buffer.getError().message();
      }
      if (!Why.empty())
        Problems.push_back({Config.str().str(),
                            "cannot be read as a clang-tidy configuration (" + Why +
                                "): clang-tidy would skip it, and its options would be the "
                                "defaults"});
    }
    if (llvm::sys::path::parent_path(Dir) == Dir)
      break;
  }
  return Problems;
}

/// The source (the last, as the last wins) that sets an option the
/// message names, or whose value the message quotes; else all of them.
std::string sourceOfValue(
    const std::vector<std::pair<std::string, ClangTidyOptions>> &Sources,
    llvm::StringRef Message) {
  for (auto It = Sources.rbegin(); It != Sources.rend(); ++It)
    for (const auto &Option : It->second.CheckOptions)
      if (Message.contains("'" + Option.getKey().str() + "'") ||
          Message.contains("'" + Option.getValue().Value + "'"))
        return It->first;
  std::vector<std::string> Names;
  for (const auto &Source : Sources)
    Names.push_back(Source.first);
  return llvm::join(Names, ", ");
}

/// Lends one provider to a context: the .clang-tidy files are read (and a
/// broken one complained about by clang-tidy's reader) once.
class BorrowedOptions : public ClangTidyOptionsProvider {
public:
  explicit BorrowedOptions(ClangTidyOptionsProvider &Inner) : Inner(Inner) {}
  const ClangTidyGlobalOptions &getGlobalOptions() override { return Inner.getGlobalOptions(); }
  std::vector<OptionsSource> getRawOptions(llvm::StringRef File) override {
    return Inner.getRawOptions(File);
  }

private:
  ClangTidyOptionsProvider &Inner;
};

} // namespace

ConfigVerifier::ConfigVerifier() {
  NamesAndOptions Known = getAllChecksAndOptions();
  for (const auto &N : Known.Names)
    CheckNames.push_back(N.getKey().str());
  for (const auto &O : Known.Options)
    OptionNames.push_back(O.getKey().str());
  llvm::sort(CheckNames);
  llvm::sort(OptionNames);
}

std::string ConfigVerifier::optionSuggestion(llvm::StringRef Key) const {
  // A known check: the nearest of its options (Zzz is no typo of Arch).
  auto [Check, Option] = Key.split('.');
  if (llvm::is_contained(CheckNames, Check)) {
    std::vector<std::string> Own;
    for (const std::string &O : OptionNames)
      if (llvm::StringRef(O).starts_with(Check.str() + "."))
        Own.push_back(O.substr(Check.size() + 1));
    return didYouMean(Option, Own, std::max<unsigned>(1, Option.size() / 3),
                      Check.str() + ".");
  }
  return didYouMean(Key, OptionNames, typoEdits(Key));
}

/// The options every cuda check reads by their bare name too
/// (Options.getLocalOrGlobal in CudaKernelCheck and CudaCheckSupport).
static const std::vector<std::string> &globalOptionNames() {
  static const std::vector<std::string> Names = {"Arch", "DefaultBlock", "DefaultDynamicShared",
                                                 "MaxRegisterCount", "RegisterMode"};
  return Names;
}

std::string ConfigVerifier::misspelledGlobalOption(llvm::StringRef Key) const {
  // A bare name is a global option, which any module may read: only one a
  // few letters from warpcheck's own, and no module's option, is a typo.
  if (Key.contains('.') || llvm::is_contained(globalOptionNames(), Key))
    return "";
  for (const std::string &O : OptionNames)
    if (llvm::StringRef(O).ends_with("." + Key.str()))
      return "";
  return didYouMean(Key, globalOptionNames(), typoEdits(Key));
}

std::vector<ConfigProblem> ConfigVerifier::verify(const TranslationUnitJob &Job) {
  llvm::SmallString<256> File(Job.File);
  if (!llvm::sys::path::is_absolute(File))
    llvm::sys::fs::make_absolute(Job.Directory, File);
  llvm::sys::path::remove_dots(File, /*remove_dot_dot=*/false);

  std::vector<ConfigProblem> Found = unreadableConfigs(File);
  std::unique_ptr<ClangTidyOptionsProvider> Provider = jobOptionsProvider(Job);
  // Each source of options but warpcheck's defaults, in the order they
  // apply (the last wins).
  std::vector<std::pair<std::string, ClangTidyOptions>> Sources;
  for (const auto &[Options, Name] : Provider->getRawOptions(File)) {
    if (Name == ClangTidyOptionsProvider::OptionsSourceTypeDefaultBinary)
      continue;
    bool CommandLine = Name == ClangTidyOptionsProvider::OptionsSourceTypeCheckCommandLineOption;
    std::string Source = CommandLine ? CommandLineSource.str() : Name;
    Sources.emplace_back(Source, Options);
    if (Options.Checks) {
      llvm::SmallVector<llvm::StringRef, 8> Globs;
      llvm::StringRef(*Options.Checks).split(Globs, ',', -1, false);
      for (llvm::StringRef G : Globs)
        if (namesCudaCheck(G) &&
            llvm::none_of(CheckNames, [&](const std::string &N) { return globMatches(G, N); }))
          Found.push_back({Source, "unknown check '" + G.trim().str() + "'" +
                                       didYouMean(G.trim().ltrim('-').trim(), CheckNames,
                                                  typoEdits(G))});
    }
    // In name order: the same problems are said in the same order.
    std::vector<llvm::StringRef> Keys;
    for (const auto &Option : Options.CheckOptions)
      Keys.push_back(Option.getKey());
    llvm::sort(Keys);
    for (llvm::StringRef Key : Keys) {
      if (Key.starts_with("cuda-") && !llvm::is_contained(OptionNames, Key))
        Found.push_back({Source, "unknown check option '" + Key.str() + "'" +
                                     optionSuggestion(Key)});
      if (std::string Near = misspelledGlobalOption(Key); !Near.empty())
        Found.push_back({Source, "unknown option '" + Key.str() + "'" + Near});
    }
  }

  // The values: the checks built with the unit's options say what they
  // refuse. Once per configuration (its sources and the job's options).
  std::string Configuration;
  for (const auto &Source : Sources)
    Configuration += Source.first + "\n";
  for (llvm::StringRef Part : {llvm::StringRef(Job.Checks), llvm::StringRef(Job.WarningsAsErrors),
                               llvm::StringRef(Job.HeaderFilter.value_or("\x1f")),
                               llvm::StringRef(Job.Arch), llvm::StringRef(Job.DefaultBlock),
                               llvm::StringRef(Job.ToolkitRoot)})
    Configuration += Part.str() + "\n";
  Configuration += llvm::join(Job.CheckOptions, "\n");
  std::string Unit = File.str().str();
  if (Verified.insert(Configuration).second) {
    ClangTidyContext Context(std::make_unique<BorrowedOptions>(*Provider));
    ClangTidyDiagnosticConsumer Consumer(Context);
    clang::DiagnosticsEngine Engine(new clang::DiagnosticIDs(), new clang::DiagnosticOptions(),
                                    &Consumer, /*ShouldOwnClient=*/false);
    Context.setDiagnosticsEngine(&Engine);
    Context.setCurrentFile(Unit);
    ClangTidyASTConsumerFactory Factory(Context);
    Factory.getCheckOptions();
    for (const ClangTidyError &E : Consumer.take())
      if (E.DiagnosticName == ConfigurationDiagnostic)
        Found.push_back({sourceOfValue(Sources, E.Message.Message), E.Message.Message});
  }

  std::vector<ConfigProblem> New;
  for (ConfigProblem &P : Found)
    if (Said.insert(P.Source + "\n" + P.Message).second)
      New.push_back(std::move(P));
  return New;
}

} // namespace warpcheck::tool
