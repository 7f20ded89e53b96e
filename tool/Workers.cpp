//===- Workers.cpp - running translation-unit jobs ------------------------===//

#include "Workers.h"
#include "CommandLine.h"
#include "ProgressLine.h"
#include "ReportSupport.h"
#include "ResultsCache.h"

#include "warpcheck/analysis/ContainedRun.h"
#include "warpcheck/toolchain/ProcessRunner.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <mutex>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <new>
#include <optional>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

namespace warpcheck::tool {

namespace {

/// Runs the job contained (ContainedRun.h: its own large stack, a crash or
/// a stack overflow returns here) into Out. The result is handed over whole
/// at the end: a failed run leaves nothing half-built. OnItsStack runs
/// first, on the run's stack (the memory limit, set once that stack is
/// mapped).
std::optional<analysis::RunFailure>
runJobContained(const TranslationUnitJob &Job, std::unique_ptr<JobResult> &Out,
                llvm::function_ref<void()> OnItsStack = [] {}) {
  std::optional<analysis::RunFailure> Failed = analysis::runContained(
      [&] {
        OnItsStack();
        auto Result = std::make_unique<JobResult>();
        runTranslationUnitJob(Job, *Result);
        Out = std::move(Result);
      },
      analysis::UnitStackBytes);
  if (!Failed && !Out)
    Failed = analysis::RunFailure{analysis::RunFailure::Cause::Crash, "no result"};
  return Failed;
}

/// A failed job's cause, as the report gives it for its file.
std::string jobFailureSentence(const analysis::RunFailure &F) {
  if (F.Why != analysis::RunFailure::Cause::Crash)
    return F.What;
  return "the analysis crashed (" + F.What + "); please report it with this file";
}

/// A worker's answer when it runs out of memory under --memory-limit:
/// written by a handler that may not allocate, so prepared beforehand.
struct OutOfMemoryAnswer {
  std::string ResultPath;
  std::string Json;
};
OutOfMemoryAnswer *OutOfMemory = nullptr;

/// Writes the prepared answer and ends the worker, with nvcc if it started
/// one. Async-signal-safe: open, write, close, kill, _exit.
[[noreturn]] void answerOutOfMemory() {
  toolchain::killStartedProcessGroups();
  if (OutOfMemory) {
    int Fd = ::open(OutOfMemory->ResultPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (Fd >= 0) {
      ssize_t Written = ::write(Fd, OutOfMemory->Json.data(), OutOfMemory->Json.size());
      (void)Written;
      ::close(Fd);
    }
  }
  _exit(ExitInputErrors);
}

std::string outOfMemorySentence(unsigned LimitMB) {
  return "the analysis ran out of memory (limit " + std::to_string(LimitMB) +
         " MB, --memory-limit)";
}

/// Puts the worker under its memory limit: its address space (the
/// analysis's stacks included) and that of every program it starts (nvcc
/// and its children inherit the limit). An allocation that fails, in
/// LLVM's allocators or in operator new, ends the worker with the answer
/// "ran out of memory".
void limitMemory(unsigned LimitMB, const std::string &ResultPath) {
  static OutOfMemoryAnswer Answer;
  Answer.ResultPath = ResultPath;
  Answer.Json = llvm::formatv("{0}", llvm::json::Value(llvm::json::Object{
                                         {"failure", outOfMemorySentence(LimitMB)}}))
                    .str();
  OutOfMemory = &Answer;
  std::set_new_handler([] { answerOutOfMemory(); });
  llvm::install_bad_alloc_error_handler(
      [](void *, const char *, bool) { answerOutOfMemory(); });
  // Set on the unit's own stack, once it is mapped, with the stack of the
  // kernels' runs mapped too (ContainedRun.h): those stacks, address space
  // backed by memory only where used, come on top of the limit. Counted in
  // it, the outcome was not monotonic: a limit that just fitted them left
  // the analysis too little, where a smaller one, too small for them (the
  // analysis then ran on the worker's own stack), let the unit through (a
  // 130 MB unit ran under 400 MB and ran out of memory under 600).
  constexpr rlim_t Guard = rlim_t(1) << 20;
  rlim_t Bytes = (static_cast<rlim_t>(LimitMB) << 20) + analysis::UnitStackBytes + Guard;
  if (analysis::reserveStack(analysis::KernelStackBytes))
    Bytes += analysis::KernelStackBytes + Guard;
  struct rlimit Limit = {Bytes, Bytes};
  setrlimit(RLIMIT_AS, &Limit);
}

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
  std::unique_ptr<JobResult> Out;
  if (std::optional<analysis::RunFailure> Failure = runJobContained(Job, Out))
    return {std::nullopt, jobFailureSentence(*Failure)};
  return {std::move(*Out), ""};
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
                     const JobLimits &Limits) {
  unsigned TimeoutSeconds = Limits.TimeoutSeconds;
  llvm::SmallString<128> Dir;
  if (llvm::sys::fs::createUniqueDirectory("warpcheck-worker", Dir))
    return {std::nullopt, "cannot create a temporary folder"};
  auto RemoveDir = llvm::make_scope_exit([&] { llvm::sys::fs::remove_directories(Dir); });
  llvm::SmallString<128> OutPath(Dir);
  llvm::sys::path::append(OutPath, "result.json");
  std::vector<std::string> Args = {Self, "--worker"};
  if (Limits.MemoryLimitMB)
    Args.push_back("--worker-memory-limit=" + std::to_string(Limits.MemoryLimitMB));
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
  // The worker contained a failure of its job and says why.
  if (std::optional<llvm::StringRef> Failure = Parsed->getAsObject()->getString("failure"))
    return {std::nullopt, Failure->str()};
  return {jobResultFromJson(*Parsed->getAsObject()), ""};
}

} // namespace

std::vector<JobOutcome> runJobs(const std::string &Self, const std::vector<TranslationUnitJob> &Jobs,
                                unsigned Parallel, const JobLimits &Limits, bool InProcess,
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
        if (Hooks.Finished)
          Hooks.Finished(I, Outcomes[I]);
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
    if (Hooks.Finished)
      Hooks.Finished(I, Outcomes[I]);
    if (Hooks.Progress)
      Hooks.Progress->finished(Jobs[I].File, /*Reused=*/false);
  };
  // A memory limit is a worker's: this process must live to report.
  if (ToRun.size() == 1 && Jobs.size() == 1 && InProcess && !Limits.MemoryLimitMB) {
    Outcomes[0] = runInProcess(Jobs.front(), Limits.TimeoutSeconds);
    Finished(0);
  } else {
    // Each thread writes only its own slots: the outcomes keep job order,
    // whatever order the workers finish in.
    std::atomic<size_t> Next{0};
    std::vector<std::thread> Threads;
    for (unsigned T = 0; T < std::min<size_t>(std::max(1u, Parallel), ToRun.size()); ++T)
      Threads.emplace_back([&] {
        for (size_t N = Next++; N < ToRun.size(); N = Next++) {
          Outcomes[ToRun[N]] = runWorker(Self, Jobs[ToRun[N]], Limits);
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
  unsigned MemoryLimitMB = 0;
  if (!Args.empty()) {
    llvm::StringRef First = Args.front();
    if (First.consume_front("--worker-memory-limit=")) {
      if (First.getAsInteger(10, MemoryLimitMB)) {
        error("bad worker argument '" + Args.front() + "'");
        return ExitUsage;
      }
      Args.erase(Args.begin());
    }
  }
  TranslationUnitJob Job;
  std::string OutPath, Err;
  if (!jobFromArguments(Args, Job, OutPath, Err)) {
    error(Err);
    return ExitUsage;
  }
#if defined(__GLIBC__)
  // The limit is on address space. glibc gives each thread that allocates
  // an arena of its own (the unit's run is a thread), reserving 64 MiB of
  // address space apiece (HEAP_MAX_SIZE, malloc/arena.c) before the limit
  // is set, in which the analysis then grows unchecked: a small unit ran
  // "under 1 MB". One arena for the process, grown under the limit.
  if (MemoryLimitMB)
    mallopt(M_ARENA_MAX, 1);
#endif
  std::unique_ptr<JobResult> Result;
  std::optional<std::string> Failure;
  if (std::optional<analysis::RunFailure> Failed = runJobContained(Job, Result, [&] {
        if (MemoryLimitMB)
          limitMemory(MemoryLimitMB, OutPath);
      })) {
    // Under a memory limit, a run that crashed may have run out of memory
    // (not every allocation in clang is checked): said so.
    Failure = jobFailureSentence(*Failed);
    if (MemoryLimitMB && Failed->Why == analysis::RunFailure::Cause::Crash)
      *Failure += " (it ran under --memory-limit=" + std::to_string(MemoryLimitMB) +
                  ", and may have run out of memory)";
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(OutPath, EC);
  if (EC) {
    error("cannot write " + OutPath + ": " + EC.message());
    return ExitInputErrors;
  }
  if (Failure) {
    OS << llvm::json::Value(llvm::json::Object{{"failure", *Failure}});
    return ExitInputErrors;
  }
  OS << llvm::json::Value(toJson(*Result));
  return Result->Input && Result->Input->Status == "analysed" ? 0 : ExitInputErrors;
}

} // namespace warpcheck::tool
