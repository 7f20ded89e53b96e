//===- JobOptions.cpp - the options a job's checks run with ---------------===//

#include "JobOptions.h"

#include "warpcheck/analysis/LaunchConfig.h"
#include "warpcheck/model/Arch.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace warpcheck::tool {

using namespace clang::tidy;

namespace {

/// clang-tidy's FileOptionsProvider whose parser prints nothing: a
/// .clang-tidy that cannot be parsed is said once, by name and line, by the
/// verification (ConfigVerification.h), not by the provider of every unit.
class QuietFileOptionsProvider : public FileOptionsProvider {
public:
  QuietFileOptionsProvider(ClangTidyOptions Defaults, ClangTidyOptions Override)
      : FileOptionsProvider(ClangTidyGlobalOptions(), std::move(Defaults), std::move(Override),
                            quietHandlers()) {
    // The constructor with handlers leaves the file system unset (LLVM 19).
    FS = llvm::vfs::getRealFileSystem();
  }

private:
  static ConfigFileHandlers quietHandlers() {
    ConfigFileHandlers Handlers;
    Handlers.emplace_back(".clang-tidy", [](llvm::MemoryBufferRef Config) {
      return parseConfigurationWithDiags(Config, [](const llvm::SMDiagnostic &) {});
    });
    return Handlers;
  }
};

} // namespace

std::unique_ptr<ClangTidyOptionsProvider> jobOptionsProvider(const TranslationUnitJob &Job) {
  ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
  // Merged before the .clang-tidy's Checks, which adds to them or starts
  // again with "-*" (clang-tidy's merge of comma-separated lists).
  Defaults.Checks = "-*,cuda-*";
  // The build's architecture and the default block, unless a .clang-tidy
  // sets the global options (--arch and --default-block are among the
  // job's CheckOptions, below, and win).
  if (!Job.Arch.empty())
    Defaults.CheckOptions["Arch"] = ClangTidyOptions::ClangTidyValue(Job.Arch);
  Defaults.CheckOptions["DefaultBlock"] = ClangTidyOptions::ClangTidyValue(Job.DefaultBlock);
  ClangTidyOptions Override;
  if (!Job.Checks.empty())
    Override.Checks = "-*," + Job.Checks;
  Override.WarningsAsErrors = Job.WarningsAsErrors;
  // Findings in user headers: the same filter as the kernels of the report.
  if (Job.HeaderFilter)
    Override.HeaderFilterRegex = *Job.HeaderFilter;
  for (const std::string &KV : Job.CheckOptions) {
    auto [Key, Value] = llvm::StringRef(KV).split('=');
    Override.CheckOptions[Key] = ClangTidyOptions::ClangTidyValue(Value);
  }
  // No toolkit located (none found, or --no-cuda): no program is started,
  // the registers are estimated, whatever RegisterMode the options or the
  // project's .clang-tidy ask for (with RegisterMode=ptxas the checks would
  // otherwise search $CUDA_PATH, $CUDA_HOME and /usr/local/cuda themselves).
  if (Job.ToolkitRoot.empty())
    for (const char *Key : {"RegisterMode", "cuda-occupancy.RegisterMode",
                            "cuda-shared-bank-conflict.RegisterMode"})
      Override.CheckOptions[Key] = ClangTidyOptions::ClangTidyValue("estimate");
  return std::make_unique<QuietFileOptionsProvider>(Defaults, Override);
}

TranslationUnitJob withConfiguredTarget(const TranslationUnitJob &Job,
                                        ClangTidyContext &Context) {
  llvm::SmallString<256> File(Job.File);
  if (!llvm::sys::path::is_absolute(File))
    llvm::sys::fs::make_absolute(Job.Directory, File);
  ClangTidyOptions Options = Context.getOptionsForFile(File);
  TranslationUnitJob Configured = Job;
  // A value the checks refuse is said by the verification; the report then
  // keeps the job's, as the checks keep their default.
  if (auto Arch = Options.CheckOptions.find("Arch"); Arch != Options.CheckOptions.end())
    if (const model::ArchSpec *Spec = model::findArch(Arch->getValue().Value))
      Configured.Arch = Spec->Name;
  if (auto Block = Options.CheckOptions.find("DefaultBlock");
      Block != Options.CheckOptions.end() && analysis::parseDim3(Block->getValue().Value))
    Configured.DefaultBlock = Block->getValue().Value;
  return Configured;
}

} // namespace warpcheck::tool
