//===- WarpcheckMain.cpp - the warpcheck command line ---------------------===//
//
// warpcheck [options] <files or folders...> [-- <compiler args>]
// warpcheck -p <build dir> [options] [files or folders...]
// warpcheck launch [options] [--] <compiler> <arguments...>  (LaunchMode.h)
//
// Collects the inputs (Inputs.h), plans one job per translation unit, runs
// them in worker processes (Workers.h), merges and counts the results
// (RunResult.h) and renders them as text, JSON, SARIF or HTML (Reporters.h).
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "ConfigVerification.h"
#include "CudaEnvironment.h"
#include "ExportCompileCommands.h"
#include "FindingStream.h"
#include "FixApplication.h"
#include "PullRequestGates.h"
#include "Inputs.h"
#include "LaunchMode.h"
#include "PrintToolkit.h"
#include "ProgressLine.h"
#include "ReportSupport.h"
#include "Reporters.h"
#include "ResultsCache.h"
#include "RunRecord.h"
#include "RunReport.h"
#include "RunResult.h"
#include "CrossUnitLaunches.h"
#include "Shards.h"
#include "Workers.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <thread>

#ifndef WARPCHECK_VERSION
#define WARPCHECK_VERSION "0.1.0"
#endif

namespace clang::tidy {
// Defined in checks/CudaTidyModule.cpp; referencing it links the module in.
extern volatile int WarpcheckCudaModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED WarpcheckCudaModuleAnchorDestination =
    WarpcheckCudaModuleAnchorSource;
} // namespace clang::tidy

using namespace warpcheck;
using namespace warpcheck::tool;

namespace {

/// Why a planned input cannot be read, or empty. Only a regular file (or
/// a symbolic link to one) is a source: a device (/dev/zero, which a
/// committed symbolic link may name) would be read without end and a FIFO
/// would block the run, so neither is ever opened. A regular file is opened,
/// not read.
std::string unreadable(const Input &In) {
  llvm::SmallString<256> Path(In.File);
  if (!llvm::sys::path::is_absolute(Path))
    llvm::sys::fs::make_absolute(In.Directory, Path);
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Path, Status)) {
    if (EC == std::errc::no_such_file_or_directory)
      return "no such file";
    return "cannot be read: " + EC.message();
  }
  switch (Status.type()) {
  case llvm::sys::fs::file_type::regular_file:
    break;
  case llvm::sys::fs::file_type::directory_file:
    return "is a directory, not a source file";
  case llvm::sys::fs::file_type::fifo_file:
    return "is a FIFO (named pipe), not a regular file: refused, it could block the run";
  case llvm::sys::fs::file_type::character_file:
  case llvm::sys::fs::file_type::block_file:
    return "is a device, not a regular file: refused, it could be read without end";
  default:
    return "is not a regular file (a socket or another special file): refused";
  }
  llvm::Expected<llvm::sys::fs::file_t> File = llvm::sys::fs::openNativeFileForRead(Path);
  if (!File)
    return "cannot be read: " + llvm::toString(File.takeError());
  llvm::sys::fs::closeFile(*File);
  return "";
}

/// The input (or a file analysed through one, or the compile database)
/// that \p Output (-o, --export-fixes) names, or empty: a report must never
/// replace a source. The same file under another name (a symbolic link,
/// "./a.cu", a hard link) is caught by comparing the files themselves.
std::string outputNamingAnInput(const std::string &Output, const CommandLine &CL,
                                llvm::StringRef Cwd, const InputSet &Set) {
  if (Output.empty() || Output == "-")
    return "";
  auto Absolute = [&](llvm::StringRef File, llvm::StringRef Directory) {
    llvm::SmallString<256> Path(File);
    if (!llvm::sys::path::is_absolute(Path))
      llvm::sys::fs::make_absolute(Directory.empty() ? Cwd : Directory, Path);
    return std::filesystem::path(Path.str().str());
  };
  std::filesystem::path OutputPath = Absolute(Output, Cwd);
  auto Same = [&](const std::filesystem::path &Source) {
    std::error_code EC;
    return std::filesystem::equivalent(OutputPath, Source, EC) && !EC;
  };
  for (const Input &In : Set.Inputs)
    if (Same(Absolute(In.File, In.Directory)))
      return In.File;
  for (const InputMessage &M : Set.Notes)
    if (Same(Absolute(M.File, Cwd)))
      return M.File;
  if (!CL.BuildDir.empty()) {
    llvm::SmallString<256> Database(CL.BuildDir);
    llvm::sys::path::append(Database, "compile_commands.json");
    if (Same(Absolute(Database, Cwd)))
      return Database.str().str();
  }
  return "";
}

/// --export-fixes and --fix on the reported findings (FixApplication.h);
/// what is left out, and why, on standard error. False after printing an
/// error: a file could not be written.
bool exportAndApplyFixes(const CommandLine &CL, const RunResult &R, const InputSet &Set,
                         llvm::StringRef Cwd) {
  FixSelection Fixes = chooseFixes(R.Findings, CL.FixNotes, Cwd, R.UserFiles);
  for (const SkippedFix &S : Fixes.Skipped) {
    const Finding &F = *S.From;
    warning(printableText(F.File.value_or("")) + ":" + std::to_string(F.Line.value_or(0)) +
            ":" + std::to_string(F.Column.value_or(0)) + ": fix-it of [" + F.Check +
            "] not applied to '" + printableText(S.File) + "': " + S.Reason);
  }
  bool Written = true;
  if (!CL.ExportFixes.empty()) {
    std::string Main = Set.Inputs.size() == 1
                           ? canonicalFile(Set.Inputs.front().File, Set.Inputs.front().Directory)
                           : "";
    std::string Yaml = exportFixesYaml(Fixes, Main, Cwd);
    std::error_code EC;
    llvm::raw_fd_ostream OS(CL.ExportFixes, EC);
    if (!EC) {
      OS << Yaml;
      OS.close();
      EC = OS.error();
      OS.clear_error();
    }
    if (EC) {
      error("cannot write the fix-its to '" + CL.ExportFixes + "': " + EC.message());
      Written = false;
    }
  }
  if (!CL.Fix)
    return Written;
  if (llvm::Error E = applyFixes(Fixes)) {
    llvm::handleAllErrors(std::move(E), [&](const llvm::ErrorInfoBase &Info) {
      error("fix-its not made: " + printableText(Info.message()));
    });
    return false;
  }
  size_t Made = Fixes.Chosen.size();
  note("applied " + std::to_string(Made) + " of " + std::to_string(Fixes.Offered) +
       " fix-it" + (Fixes.Offered == 1 ? "" : "s") + ", in " +
       std::to_string(Fixes.ByFile.size()) + " file" + (Fixes.ByFile.size() == 1 ? "" : "s"));
  return Written;
}

/// The configuration of each job's checks, verified (ConfigVerification.h):
/// each problem said once, as an error. Returns how many there are.
unsigned verifyConfigurations(const std::vector<TranslationUnitJob> &Jobs) {
  ConfigVerifier Verifier;
  unsigned Problems = 0;
  for (const TranslationUnitJob &J : Jobs)
    for (const ConfigProblem &P : Verifier.verify(J)) {
      error(printableText(P.Source) + ": " + printableText(P.Message));
      ++Problems;
    }
  return Problems;
}

/// --verify-config: clang-tidy's words and exit codes (1: problems).
int verifyConfigOnly(const std::vector<TranslationUnitJob> &Jobs) {
  if (verifyConfigurations(Jobs))
    return ExitFindingsAsErrors;
  llvm::outs() << "No config errors detected.\n";
  return ExitOk;
}

/// --shard: the part's events to -o (or standard output) for warpcheck
/// merge. 0 once written, whatever the inputs gave (merge decides).
int writeShard(const CommandLine &CL, const InputSet &Set, const RunRecord &Record) {
  std::string Text = shardFileText(WARPCHECK_VERSION,
                                   runIdentity(WARPCHECK_VERSION, Set.Inputs, CL),
                                   {CL.ShardIndex, CL.ShardCount}, Record);
  std::error_code EC;
  std::unique_ptr<llvm::raw_fd_ostream> File;
  if (!CL.Output.empty() && CL.Output != "-")
    File = std::make_unique<llvm::raw_fd_ostream>(CL.Output, EC);
  if (!EC) {
    llvm::raw_fd_ostream &OS = File ? *File : llvm::outs();
    OS << Text;
    OS.flush();
    EC = OS.error();
    // A stream left in error makes LLVM abort when it is destroyed.
    OS.clear_error();
  }
  if (EC) {
    error("cannot write shard " + std::to_string(CL.ShardIndex) + "/" +
          std::to_string(CL.ShardCount) + " to '" +
          (CL.Output.empty() ? std::string("standard output") : CL.Output) + "': " + EC.message());
    return ExitReportNotWritten;
  }
  size_t Units = llvm::count_if(Record.events(), [](const RunEvent &E) {
    return E.Phase == RunPhase::Jobs || E.Phase == RunPhase::Planning;
  });
  note("shard " + std::to_string(CL.ShardIndex) + "/" + std::to_string(CL.ShardCount) + ": " +
       std::to_string(Units) + " of " + std::to_string(Set.Inputs.size()) +
       " inputs; merge the shards with warpcheck merge");
  return ExitOk;
}

} // namespace

int occupancyMain(llvm::ArrayRef<const char *> Argv);
int mergeMain(llvm::ArrayRef<const char *> Argv);
static int analyseAndReport(CommandLine &CL, const char *Argv0);

int main(int argc, const char **argv) {
  // LLVM's crash handler would otherwise start an llvm-symbolizer found on
  // PATH (which the environment chooses) to print the stack of a crash; the
  // workers inherit it.
  ::setenv("LLVM_DISABLE_SYMBOLIZATION", "1", 1);
  llvm::InitLLVM X(argc, argv);
  llvm::ArrayRef<const char *> Argv(argv, argc);
  if (argc > 1 && llvm::StringRef(argv[1]) == "--worker")
    return workerMain(Argv);
  if (argc > 1 && llvm::StringRef(argv[1]) == "occupancy")
    return occupancyMain(Argv.drop_front());
  if (argc > 1 && llvm::StringRef(argv[1]) == "merge")
    return mergeMain(Argv.drop_front());
  if (argc > 1 && llvm::StringRef(argv[1]) == "launch")
    return launchMain(Argv, analyseAndReport);

  CommandLine CL;
  if (!parseCommandLine(Argv, CL))
    return ExitUsage;
  return analyseAndReport(CL, argv[0]);
}

/// The run CL asks for: collect the inputs, analyse them, report.
static int analyseAndReport(CommandLine &CL, const char *Argv0) {
  if (CL.Help) {
    llvm::outs() << helpText();
    return ExitOk;
  }
  if (CL.Version) {
    llvm::outs() << "warpcheck " << WARPCHECK_VERSION << " (LLVM/Clang "
                 << LLVM_VERSION_STRING << ")\n";
    return ExitOk;
  }
  if (CL.PrintToolkit)
    return printToolkit(toolchain::CudaSearchInputs::fromEnvironment(CL.CudaPath), CL.NoCuda,
                        llvm::outs());
  std::vector<std::string> Enabled;
  if (!validateCommandLine(CL, Enabled))
    return ExitUsage;
  if (CL.ListChecks) {
    llvm::outs() << "Enabled checks:\n";
    for (const std::string &N : Enabled)
      llvm::outs() << "    " << N << "\n";
    return ExitOk;
  }

  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  // --verify-config without inputs: the configuration of a file here.
  if (CL.VerifyConfig && CL.Files.empty() && CL.BuildDir.empty()) {
    TranslationUnitJob Here;
    llvm::SmallString<256> File(Cwd);
    llvm::sys::path::append(File, "-");
    Here.File = File.str().str();
    Here.Directory = Cwd.str().str();
    Here.Checks = CL.ChecksGiven ? CL.Checks : "";
    Here.WarningsAsErrors = CL.WarningsAsErrors;
    // As planJob gives them (Inputs.h).
    if (!CL.Arch.empty())
      Here.CheckOptions.push_back("Arch=" + CL.Arch);
    if (CL.DefaultBlockGiven)
      Here.CheckOptions.push_back("DefaultBlock=" + CL.DefaultBlock);
    Here.CheckOptions.insert(Here.CheckOptions.end(), CL.CheckOptions.begin(),
                             CL.CheckOptions.end());
    Here.HeaderFilter = CL.HeaderFilter;
    return verifyConfigOnly({Here});
  }
  // What gates the report is read before the analysis: a bad baseline or
  // filter is a usage error at once, not after an hour of analysis.
  // A listing named on the command line: read by every job, so it must
  // be there (a file warpcheck reads, never a program).
  if (!CL.SassListing.empty()) {
    llvm::SmallString<256> Listing(CL.SassListing);
    llvm::sys::fs::make_absolute(Cwd, Listing);
    llvm::sys::path::remove_dots(Listing, /*remove_dot_dot=*/true);
    if (!llvm::sys::fs::is_regular_file(Listing) ||
        llvm::sys::fs::access(Listing, llvm::sys::fs::AccessMode::Exist)) {
      error("--sass-listing '" + CL.SassListing + "' is not a readable file");
      return ExitUsage;
    }
    CL.SassListing = Listing.str().str();
  }
  std::optional<GateOptions> Gates = readGateOptions(CL, Cwd);
  if (!Gates)
    return ExitUsage;
  InputSet Set;
  if (!collectInputs(CL, Cwd, Set))
    return ExitUsage;
  if (std::string Input = outputNamingAnInput(CL.Output, CL, Cwd, Set); !Input.empty()) {
    error("-o '" + CL.Output + "' is the input '" + Input +
          "': refused, the report would overwrite the source");
    return ExitUsage;
  }
  if (std::string Input = outputNamingAnInput(CL.ExportCompileCommands, CL, Cwd, Set);
      !Input.empty()) {
    error("--export-compile-commands '" + CL.ExportCompileCommands + "' is the input '" + Input +
          "': refused, the database would overwrite the source");
    return ExitUsage;
  }
  if (std::string Input = outputNamingAnInput(CL.ExportFixes, CL, Cwd, Set); !Input.empty()) {
    error("--export-fixes '" + CL.ExportFixes + "' is the input '" + Input +
          "': refused, the fix-its would overwrite the source");
    return ExitUsage;
  }

  // The results cache's folder: one that cannot be a folder is a usage
  // error now, not a warning after the analysis.
  std::string CacheDir = CL.CacheDir.empty() && CL.Cache ? defaultResultsCacheDir() : CL.CacheDir;
  if (CL.Cache && CacheDir.empty())
    warning("--cache: neither $XDG_CACHE_HOME nor $HOME is set; no results are stored "
            "(--cache-dir names a folder)");
  if (!CacheDir.empty() && llvm::sys::fs::exists(CacheDir) &&
      !llvm::sys::fs::is_directory(CacheDir)) {
    error("--cache-dir '" + CacheDir + "' is not a folder");
    return ExitUsage;
  }

  // The CUDA headers to parse with.
  std::string EnvDiagnostic;
  std::optional<toolchain::CudaToolkit> Toolkit;
  if (!CL.NoCuda)
    Toolkit = toolchain::findCudaToolkit(CL.CudaPath, EnvDiagnostic);
  if (!Toolkit && !EnvDiagnostic.empty()) {
    error(EnvDiagnostic);
    return ExitUsage;
  }
  std::vector<std::string> CudaArgs =
      cudaParseArguments(Toolkit, bundledIncludeRoot(Argv0, (void *)&main));

  // --shard K/N: this run's part of the inputs (Shards.h); the inputs that
  // could not be collected and the notes belong to part 1.
  std::vector<bool> Mine(Set.Inputs.size(), true);
  if (CL.ShardCount)
    Mine = inputsOfShard(inputSizes(Set.Inputs), {CL.ShardIndex, CL.ShardCount});
  bool OwnsRunNotes = CL.ShardIndex <= 1;

  // One job per input; an input that cannot become one is a problem of its
  // own, and the others go on. What the run learns is recorded in the order
  // of a whole run (RunRecord.h).
  RunRecord Record;
  if (OwnsRunNotes)
    for (size_t I = 0; I < Set.Problems.size(); ++I)
      Record.notAnalysed(RunPhase::Problems, I, Set.Problems[I].File, Set.Problems[I].Message);
  std::vector<TranslationUnitJob> Jobs;
  std::vector<std::vector<std::string>> JobNotes;
  std::vector<size_t> JobInput;
  for (size_t I = 0; I < Set.Inputs.size(); ++I) {
    const Input &In = Set.Inputs[I];
    if (!Mine[I])
      continue;
    if (std::string Why = unreadable(In); !Why.empty()) {
      Record.notAnalysed(RunPhase::Planning, I, In.File, Why);
      continue;
    }
    PlannedJob P = planJob(In, CL, CudaArgs, Toolkit ? Toolkit->Root : "");
    if (!P.Problem.empty()) {
      Record.notAnalysed(RunPhase::Planning, I, In.File, P.Problem);
      continue;
    }
    Jobs.push_back(std::move(P.Job));
    JobNotes.push_back(std::move(P.Notes));
    JobInput.push_back(I);
  }

  if (CL.VerifyConfig)
    return verifyConfigOnly(Jobs);
  // --launches-from=database: the database's other units, after the
  // inputs, parsed for the launches and calls they make of the inputs'
  // kernels and functions; one that cannot be planned is left out.
  const size_t InputJobs = Jobs.size();
  for (const Input &Source : Set.LaunchSources) {
    if (!unreadable(Source).empty())
      continue;
    PlannedJob P = planJob(Source, CL, CudaArgs, Toolkit ? Toolkit->Root : "");
    if (!P.Problem.empty())
      continue;
    P.Job.LaunchesOnly = true;
    Jobs.push_back(std::move(P.Job));
  }
  // A value the checks refuse is replaced by their default: said now, and
  // the run's exit code is 2 (a misspelled option would otherwise be
  // silently the default).
  unsigned ConfigProblems = verifyConfigurations(Jobs);

  if (!CL.ExportCompileCommands.empty())
    return exportCompileCommands(CL.ExportCompileCommands, Jobs, InputJobs, Record);
  if (CL.PrintClangArgs) {
    if (!Jobs.empty())
      for (const std::string &A : Jobs.front().ClangArgs)
        llvm::outs() << A << "\n";
    else
      printErrorsAndNotes(Record.replay());
    return Jobs.empty() ? ExitInputErrors : ExitOk;
  }

  std::string Self = llvm::sys::fs::getMainExecutable(Argv0, (void *)&main);
  unsigned Parallel = CL.Jobs ? CL.Jobs : std::max(1u, std::thread::hardware_concurrency());
  std::unique_ptr<ResultsCache> Cache;
  if (!CacheDir.empty()) {
    Cache = std::make_unique<ResultsCache>(
        CacheDir, warpcheckBuildIdentity(WARPCHECK_VERSION " LLVM " LLVM_VERSION_STRING, Self));
    for (TranslationUnitJob &J : Jobs)
      J.RecordDependencies = true;
  }
  std::unique_ptr<ProgressLine> Progress;
  bool Terminal = llvm::sys::Process::StandardErrIsDisplayed();
  if (CL.Progress.value_or(Terminal && Jobs.size() > 1))
    Progress = std::make_unique<ProgressLine>(llvm::errs(), Terminal,
                                              llvm::sys::Process::StandardErrColumns());
  JobHooks Hooks{Cache.get(), Progress.get()};
  // On a terminal, each unit's findings as it finishes (FindingStream.h):
  // never into a file or a pipe, in another format, for a shard, under
  // --diff (git is asked once, about the whole run) or for one input.
  std::unique_ptr<FindingStream> Stream;
  if (CL.Format == "text" && (CL.Output.empty() || CL.Output == "-") &&
      CL.LaunchCommand.empty() && !CL.ShardCount && CL.DiffRevision.empty() && InputJobs > 1 &&
      llvm::sys::Process::StandardOutIsDisplayed()) {
    Stream = std::make_unique<FindingStream>(llvm::outs(),
                                             llvm::sys::Process::StandardOutHasColors(),
                                             Progress.get(), *Gates, Cwd.str().str());
    Hooks.Finished = [&](size_t I, const JobOutcome &O) {
      if (I >= InputJobs || !O.Output || !FindingStream::isFinal(*O.Output))
        return;
      RunRecord Unit;
      Unit.job(JobInput[I], *O.Output, JobNotes[I], canonicalFile(Jobs[I].File, Jobs[I].Directory));
      Stream->unitFinished(Unit.replay());
    };
  }
  JobLimits Limits{CL.TimeoutSeconds, CL.MemoryLimitMB};
  std::vector<JobOutcome> Outcomes =
      runJobs(Self, Jobs, Parallel, Limits, /*InProcess=*/!CL.Isolate, Hooks);
  // A kernel launched in one unit and defined in another: the defining
  // units run again with those launches (their findings were held back).
  JobHooks AgainHooks = Hooks;
  AgainHooks.Finished = nullptr;
  bindLaunchesAcrossUnits(Jobs, Outcomes, [&](const std::vector<TranslationUnitJob> &Again) {
    return runJobs(Self, Again, Parallel, Limits, /*InProcess=*/false, AgainHooks);
  });
  // The launch sources are no inputs: nothing of them is reported.
  Jobs.resize(InputJobs);
  Outcomes.resize(InputJobs);
  for (size_t I = 0; I < Jobs.size(); ++I) {
    if (Outcomes[I].Output)
      Record.job(JobInput[I], std::move(*Outcomes[I].Output), JobNotes[I],
                 canonicalFile(Jobs[I].File, Jobs[I].Directory));
    else
      Record.notAnalysed(RunPhase::Jobs, JobInput[I], Jobs[I].File, Outcomes[I].Failure);
  }
  if (OwnsRunNotes)
    for (size_t I = 0; I < Set.Notes.size(); ++I)
      Record.note(RunPhase::Notes, I, Set.Notes[I].File, Set.Notes[I].Message);
  auto WithConfig = [&](int RC) {
    if (!ConfigProblems || RC == ExitReportNotWritten)
      return RC;
    error("the configuration has " + std::to_string(ConfigProblems) + " problem" +
          (ConfigProblems == 1 ? "" : "s") + " (said above); exit code 2");
    return ExitUsage;
  };
  if (CL.ShardCount)
    return WithConfig(writeShard(CL, Set, Record));

  RunResult Result = Record.replay();
  std::vector<std::string> RunNotes;
  if (Cache) {
    std::string Trimmed;
    if (Cache->stored()) {
      uint64_t Limit = CL.CacheLimitMB ? uint64_t(CL.CacheLimitMB) << 20
                                       : toolchain::DefaultCacheLimitBytes;
      toolchain::CacheTrimResult T = Cache->trim(Limit);
      if (T.Removed)
        Trimmed = ", " + std::to_string(T.Removed) + " least recently used removed (over " +
                  std::to_string(Limit >> 20) + " MiB)";
    }
    RunNotes.push_back("results cache '" + Cache->directory() + "': " +
                       std::to_string(Cache->reused()) + " result" +
                       (Cache->reused() == 1 ? "" : "s") + " reused, " +
                       std::to_string(Cache->stored()) + " stored" + Trimmed);
  }
  return WithConfig(reportRun(
      CL, *Gates, Cwd, Result, RunNotes,
      [&](const RunResult &Reported) {
        // After the report, which reads the files as they were analysed
        // (SARIF's columns of the fix-its).
        return !(CL.Fix || !CL.ExportFixes.empty()) ||
               exportAndApplyFixes(CL, Reported, Set, Cwd);
      },
      Stream.get()));
}
