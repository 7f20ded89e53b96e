//===- WarpcheckMain.cpp - the warpcheck command line ---------------------===//
//
// warpcheck [options] <files or folders...> [-- <compiler args>]
// warpcheck -p <build dir> [options] [files or folders...]
//
// Collects the inputs (Inputs.h), plans one job per translation unit, runs
// them in worker processes (Workers.h), merges and counts the results
// (RunResult.h) and renders them as text, JSON, SARIF or HTML (Reporters.h).
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "CudaEnvironment.h"
#include "FixApplication.h"
#include "PullRequestGates.h"
#include "Inputs.h"
#include "PrintToolkit.h"
#include "ReportSupport.h"
#include "Reporters.h"
#include "RunResult.h"
#include "CrossUnitLaunches.h"
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

/// \p Text with its control characters escaped (printableText), line by
/// line: a worker's log keeps its lines, a file name or a source excerpt
/// cannot forge one or send escape sequences to the terminal.
std::string printableLines(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  Text.split(Lines, '\n');
  std::string Out;
  for (size_t I = 0; I < Lines.size(); ++I)
    Out += (I ? "\n" : "") + printableText(Lines[I]);
  return Out;
}

/// The errors on standard error: each input's compiler errors (the first
/// ten of an input, then how many more) and each input not analysed, by
/// file name and cause; then the notes. File names and messages are
/// escaped as the text report's are.
void printErrorsAndNotes(const RunResult &R) {
  constexpr unsigned PerInput = 10;
  std::map<std::string, unsigned> Printed, Left;
  for (const ReportedError &E : R.Errors) {
    std::string File = E.File.value_or("");
    if (Printed[File] >= PerInput) {
      ++Left[File];
      continue;
    }
    ++Printed[File];
    std::string Where = printableText(File);
    if (E.Line)
      Where += ":" + std::to_string(*E.Line) + ":" + std::to_string(E.Column.value_or(0));
    error(Where + ": " + printableLines(E.Message));
  }
  for (const auto &[File, N] : Left)
    error(printableText(File) + ": " + std::to_string(N) + " more error" + (N == 1 ? "" : "s") +
          " (--format=json lists them all)");
  for (const InputOutcome &I : R.Inputs) {
    std::string File = printableText(I.File);
    if (I.Status == "analysed_with_errors")
      note(File + ": analysed with errors: the kernels that compile were analysed" +
           (I.Cause ? "; " + printableLines(*I.Cause) : std::string()));
    for (const std::string &N : I.Notes)
      note(File + ": " + printableLines(N));
  }
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

} // namespace

int occupancyMain(llvm::ArrayRef<const char *> Argv);

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

  CommandLine CL;
  if (!parseCommandLine(Argv, CL))
    return ExitUsage;
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
  // What gates the report is read before the analysis: a bad baseline or
  // filter is a usage error at once, not after an hour of analysis.
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
  if (std::string Input = outputNamingAnInput(CL.ExportFixes, CL, Cwd, Set); !Input.empty()) {
    error("--export-fixes '" + CL.ExportFixes + "' is the input '" + Input +
          "': refused, the fix-its would overwrite the source");
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
      cudaParseArguments(Toolkit, bundledIncludeRoot(argv[0], (void *)&main));

  // One job per input; an input that cannot become one is a problem of its
  // own, and the others go on.
  RunResult Result;
  for (const InputMessage &P : Set.Problems)
    Result.addNotAnalysed(P.File, P.Message);
  std::vector<TranslationUnitJob> Jobs;
  std::vector<std::vector<std::string>> JobNotes;
  for (const Input &In : Set.Inputs) {
    if (std::string Why = unreadable(In); !Why.empty()) {
      Result.addNotAnalysed(In.File, Why);
      continue;
    }
    PlannedJob P = planJob(In, CL, CudaArgs, Toolkit ? Toolkit->Root : "");
    if (!P.Problem.empty()) {
      Result.addNotAnalysed(In.File, P.Problem);
      continue;
    }
    Jobs.push_back(std::move(P.Job));
    JobNotes.push_back(std::move(P.Notes));
  }

  if (CL.PrintClangArgs) {
    if (!Jobs.empty())
      for (const std::string &A : Jobs.front().ClangArgs)
        llvm::outs() << A << "\n";
    else
      printErrorsAndNotes(Result);
    return Jobs.empty() ? ExitInputErrors : ExitOk;
  }

  std::string Self = llvm::sys::fs::getMainExecutable(argv[0], (void *)&main);
  unsigned Parallel = CL.Jobs ? CL.Jobs : std::max(1u, std::thread::hardware_concurrency());
  JobLimits Limits{CL.TimeoutSeconds, CL.MemoryLimitMB};
  std::vector<JobOutcome> Outcomes =
      runJobs(Self, Jobs, Parallel, Limits, /*InProcess=*/!CL.Isolate);
  // A kernel launched in one unit and defined in another: the defining
  // units run again with those launches.
  bindLaunchesAcrossUnits(Jobs, Outcomes, [&](const std::vector<TranslationUnitJob> &Again) {
    return runJobs(Self, Again, Parallel, Limits, /*InProcess=*/false);
  });
  for (size_t I = 0; I < Jobs.size(); ++I) {
    if (Outcomes[I].Output) {
      Result.UserFiles.insert(canonicalFile(Jobs[I].File, Jobs[I].Directory));
      Result.addJobOutput(std::move(*Outcomes[I].Output), JobNotes[I]);
    } else {
      Result.addNotAnalysed(Jobs[I].File, Outcomes[I].Failure);
    }
  }
  for (const InputMessage &N : Set.Notes)
    Result.addNote(N.File, N.Message);
  if (!applyGates(CL, *Gates, Cwd, Result))
    return ExitUsage;

  // Report.
  std::unique_ptr<llvm::raw_fd_ostream> File;
  llvm::raw_fd_ostream *OS = &llvm::outs();
  if (!CL.Output.empty() && CL.Output != "-") {
    std::error_code EC;
    File = std::make_unique<llvm::raw_fd_ostream>(CL.Output, EC);
    if (EC) {
      error("cannot write the report to '" + CL.Output + "': " + EC.message());
      return ExitReportNotWritten;
    }
    OS = File.get();
  }
  RunCounts Counts = countRun(Result);
  ReportContext Context{WARPCHECK_VERSION, Gates->SourceRoot, summaryLine(Counts),
                        Cwd.str().str()};
  if (CL.Format == "json")
    renderJson(Result, Context, *OS);
  else if (CL.Format == "sarif")
    renderSarif(Result, Context, *OS);
  else if (CL.Format == "html")
    renderHtml(Result, Context, *OS);
  else
    renderText(Result, *OS, File == nullptr && llvm::sys::Process::StandardOutHasColors());
  OS->flush();
  // A failed write (a full disk, /dev/full) is said, and cleared: a stream
  // left in error makes LLVM abort when it is destroyed.
  std::error_code WriteError = OS->error();
  OS->clear_error();

  printErrorsAndNotes(Result);
  llvm::errs() << Context.Summary << "\n";
  if (WriteError) {
    error("cannot write the report to '" +
          (File ? CL.Output : std::string("standard output")) + "': " + WriteError.message());
    return ExitReportNotWritten;
  }
  // After the report, which reads the files as they were analysed (SARIF's
  // columns of the fix-its).
  if ((CL.Fix || !CL.ExportFixes.empty()) &&
      !exportAndApplyFixes(CL, Result, Set, Cwd))
    return ExitReportNotWritten;
  return exitCodeFor(Counts, CL.FailPolicy);
}
