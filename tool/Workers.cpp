//===- Workers.cpp - running translation-unit jobs ------------------------===//

#include "Workers.h"
#include "CommandLine.h"
#include "ProgressLine.h"
#include "ReportSupport.h"
#include "ResultsCache.h"

#include "warpcheck/toolchain/ProcessRunner.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <mutex>
#include <cstdlib>
#include <optional>
#include <csignal>
#include <chrono>
#include <thread>
#include <unistd.h>

namespace warpcheck::tool {

namespace {

/// Runs the only job in this process: a process start is a sizeable part of
/// analysing one small file. A crash is caught and reported by file name; a
/// watchdog ends a run that outlives the time limit.
JobOutcome runInProcess(const TranslationUnitJob &Job, unsigned TimeoutSeconds) {
  // The temporary files of this run (nvcc's folder) go into a folder of
  // its own, removed at the end and also on the time-out, which ends the
  // process before nvcc's folder is cleaned up.
  llvm::SmallString<128> RunDir;
  std::optional<std::string> OldTmpDir;
  if (!llvm::sys::fs::createUniqueDirectory("warpcheck-run", RunDir)) {
    if (const char *Old = std::getenv("TMPDIR"))
      OldTmpDir = Old;
    ::setenv("TMPDIR", RunDir.c_str(), 1);
  }
  auto RemoveRunDir = llvm::make_scope_exit([&] {
    if (RunDir.empty())
      return;
    if (OldTmpDir)
      ::setenv("TMPDIR", OldTmpDir->c_str(), 1);
    else
      ::unsetenv("TMPDIR");
    llvm::sys::fs::remove_directories(RunDir);
  });
  std::thread([TimeoutSeconds, File = Job.File, RunDir = RunDir.str().str()] {
    std::this_thread::sleep_for(std::chrono::seconds(TimeoutSeconds));
    llvm::errs() << "warpcheck: error: " << printableText(File)
                 << ": the analysis timed out after " << TimeoutSeconds << " s\n";
    llvm::errs().flush();
    toolchain::killStartedProcessGroups(); // nvcc, had one started
    if (!RunDir.empty())
      llvm::sys::fs::remove_directories(RunDir);
    std::_Exit(ExitInputErrors);
  }).detach();
  JobResult Out;
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext CRC;
  if (!CRC.RunSafely([&] { runTranslationUnitJob(Job, Out); }))
    return {std::nullopt, "the analysis crashed; please report it with this file"};
  return {std::move(Out), ""};
}

/// Why a worker ended without finishing. Only a signal of the worker's own
/// fault is a crash to report; one sent from outside (the out-of-memory
/// killer's SIGKILL, a SIGTERM or SIGINT of the user's) is not warpcheck's
/// bug, and asking for a report of it would mislead.
std::string whyWorkerEnded(const toolchain::ProcessResult &Run) {
  switch (Run.Signal) {
  case SIGSEGV:
  case SIGBUS:
  case SIGILL:
  case SIGFPE:
  case SIGABRT:
  case SIGTRAP:
  case SIGSYS:
    return "the analysis crashed (" + Run.StartError + "); please report it with this file";
  case SIGKILL:
    return "the analysis was killed (signal 9, SIGKILL: by the system's out-of-memory "
           "killer, or by another process)";
  case SIGTERM:
  case SIGINT:
  case SIGHUP:
  case SIGQUIT:
    return "the analysis was stopped from outside (" + Run.StartError + ")";
  default:
    return "the analysis ended without a result (" + Run.StartError + ")";
  }
}

/// Runs one job in a worker process and reads its result's JSON. The
/// worker runs under its own deadline (toolchain::runProcess: not the
/// process-wide alarm(), so every worker thread has one) and in a process
/// group of its own, killed whole on the deadline.
JobOutcome runWorker(const std::string &Self, const TranslationUnitJob &Job,
                     unsigned TimeoutSeconds) {
  llvm::SmallString<128> Dir;
  if (llvm::sys::fs::createUniqueDirectory("warpcheck-worker", Dir))
    return {std::nullopt, "cannot create a temporary folder"};
  auto RemoveDir = llvm::make_scope_exit([&] { llvm::sys::fs::remove_directories(Dir); });
  llvm::SmallString<128> OutPath(Dir);
  llvm::sys::path::append(OutPath, "result.json");
  std::vector<std::string> Args = {Self, "--worker"};
  std::vector<std::string> JobArgs = jobToArguments(Job, OutPath.str().str());
  Args.insert(Args.end(), JobArgs.begin(), JobArgs.end());
  // The worker's temporary files (nvcc's folder) go into its own folder,
  // which is removed here however the worker ended.
  toolchain::ProcessResult Run =
      toolchain::runProcess(Args, {"TMPDIR=" + Dir.str().str()}, Dir, TimeoutSeconds);
  std::string LogText = llvm::StringRef(Run.Output).trim().str();
  if (Run.StartFailed)
    return {std::nullopt, "no worker could be started: " + Run.StartError};
  if (Run.ExitCode < 0) {
    std::string Why = Run.TimedOut ? "the analysis timed out after " +
                                         std::to_string(TimeoutSeconds) + " s"
                                   : whyWorkerEnded(Run);
    if (!LogText.empty())
      Why += "\n" + LogText.substr(0, 2000);
    return {std::nullopt, Why};
  }
  auto Buffer = llvm::MemoryBuffer::getFile(OutPath);
  if (!Buffer)
    return {std::nullopt, "the analysis produced no result" +
                              (LogText.empty() ? std::string() : ": " + LogText.substr(0, 2000))};
  auto Parsed = llvm::json::parse((*Buffer)->getBuffer());
  if (!Parsed || !Parsed->getAsObject()) {
    if (!Parsed)
      llvm::consumeError(Parsed.takeError());
    return {std::nullopt, "the analysis produced an unreadable result"};
  }
  return {jobResultFromJson(*Parsed->getAsObject()), ""};
}

} // namespace

std::vector<JobOutcome> runJobs(const std::string &Self, const std::vector<TranslationUnitJob> &Jobs,
                                unsigned Parallel, unsigned TimeoutSeconds, bool InProcess,
                                const JobHooks &Hooks) {
  std::vector<JobOutcome> Outcomes(Jobs.size());
  if (Hooks.Progress)
    Hooks.Progress->begin(Jobs.size());
  // The jobs whose stored results are reused are not run.
  std::vector<size_t> ToRun;
  for (size_t I = 0; I < Jobs.size(); ++I) {
    if (Hooks.Cache) {
      std::string Note;
      if (std::optional<JobResult> Stored = Hooks.Cache->lookup(Jobs[I], Note)) {
        Outcomes[I] = {std::move(Stored), ""};
        if (Hooks.Progress)
          Hooks.Progress->finished(Jobs[I].File, /*Reused=*/true);
        continue;
      }
      if (!Note.empty()) {
        if (Hooks.Progress)
          Hooks.Progress->clear();
        note(Note);
      }
    }
    ToRun.push_back(I);
  }
  // Each finished job is stored and said at once, one at a time: a run
  // stopped halfway keeps what it finished.
  std::mutex Finishing;
  std::string StoreProblem;
  auto Finished = [&](size_t I) {
    std::string Problem;
    if (Hooks.Cache && Outcomes[I].Output)
      Hooks.Cache->store(Jobs[I], *Outcomes[I].Output, Problem);
    std::lock_guard<std::mutex> Guard(Finishing);
    if (StoreProblem.empty())
      StoreProblem = Problem;
    if (Hooks.Progress)
      Hooks.Progress->finished(Jobs[I].File, /*Reused=*/false);
  };
  if (ToRun.size() == 1 && Jobs.size() == 1 && InProcess) {
    Outcomes[0] = runInProcess(Jobs.front(), TimeoutSeconds);
    Finished(0);
  } else {
    // Each thread writes only its own slots: the outcomes keep job order,
    // whatever order the workers finish in.
    std::atomic<size_t> Next{0};
    std::vector<std::thread> Threads;
    for (unsigned T = 0; T < std::min<size_t>(std::max(1u, Parallel), ToRun.size()); ++T)
      Threads.emplace_back([&] {
        for (size_t N = Next++; N < ToRun.size(); N = Next++) {
          Outcomes[ToRun[N]] = runWorker(Self, Jobs[ToRun[N]], TimeoutSeconds);
          Finished(ToRun[N]);
        }
      });
    for (std::thread &T : Threads)
      T.join();
  }
  if (Hooks.Progress)
    Hooks.Progress->end();
  if (!StoreProblem.empty())
    warning(StoreProblem + " (the results are reported; they are not stored)");
  return Outcomes;
}

int workerMain(llvm::ArrayRef<const char *> Argv) {
  // Ended on the deadline (runWorker's SIGTERM): the nvcc it started, in a
  // process group of its own, ends with it.
  std::signal(SIGTERM, [](int) {
    toolchain::killStartedProcessGroups();
    _exit(ExitInputErrors);
  });
  std::vector<std::string> Args(Argv.begin() + 2, Argv.end());
  TranslationUnitJob Job;
  std::string OutPath, Err;
  if (!jobFromArguments(Args, Job, OutPath, Err)) {
    error(Err);
    return ExitUsage;
  }
  JobResult Result;
  int RC = runTranslationUnitJob(Job, Result);
  std::error_code EC;
  llvm::raw_fd_ostream OS(OutPath, EC);
  if (EC) {
    error("cannot write " + OutPath + ": " + EC.message());
    return ExitInputErrors;
  }
  OS << llvm::json::Value(toJson(Result));
  return RC;
}

} // namespace warpcheck::tool
