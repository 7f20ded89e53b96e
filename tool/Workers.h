//===- Workers.h - running translation-unit jobs --------------------------===//
//
// Each translation unit is analysed in a worker process (this executable
// started again with an argument vector, never through a shell), so that a
// crash or a hang in one file never stops the others; a run of a single
// file may stay in this process, under crash recovery and a watchdog.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_WORKERS_H
#define WARPCHECK_TOOL_WORKERS_H

#include "TranslationUnitJob.h"

#include "llvm/ADT/ArrayRef.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// What one job gave, or why there is none.
struct JobOutcome {
  std::optional<JobResult> Output;
  std::string Failure;
};

class ProgressLine;
class ResultsCache;

/// What runJobs does beside running the jobs.
struct JobHooks {
  /// Reuse the stored result of a job whose inputs did not change, and
  /// store the results of the others (--cache-dir).
  ResultsCache *Cache = nullptr;
  /// Say each job as it finishes (--progress).
  ProgressLine *Progress = nullptr;
  /// Called as each job finishes (or its stored result is reused), with
  /// its index and outcome, one call at a time, before Progress hears of
  /// it: the findings printed as units finish (FindingStream.h).
  std::function<void(size_t, const JobOutcome &)> Finished;
};

/// What each job may use.
struct JobLimits {
  /// Wall-clock seconds (--timeout).
  unsigned TimeoutSeconds = 600;
  /// Address space of the job's worker in MB (--memory-limit); 0: none. A
  /// job under a memory limit always runs in a worker.
  unsigned MemoryLimitMB = 0;
};

/// Runs the jobs, at most Parallel at a time, and returns their outcomes in
/// job order. Self is this executable. InProcess: run a single job here
/// (unless it has a memory limit).
std::vector<JobOutcome> runJobs(const std::string &Self, const std::vector<TranslationUnitJob> &Jobs,
                                unsigned Parallel, const JobLimits &Limits, bool InProcess,
                                const JobHooks &Hooks = {});

/// `warpcheck --worker ...`: the worker side (Argv as main got it).
int workerMain(llvm::ArrayRef<const char *> Argv);

} // namespace warpcheck::tool

#endif
