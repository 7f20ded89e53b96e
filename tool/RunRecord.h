//===- RunRecord.h - what a run adds to its results, in order -------------===//
//
// A run's results (RunResult.h) depend on the order their parts are added
// in: findings and kernels of a header several units include are kept for
// the first unit, in input order, that reports them. So a run records what
// it learns as events, each with its place in the order of a whole
// (unsharded) run, and replays them sorted: the run itself, and warpcheck
// merge over the events of every shard (Shards.h), which therefore reports
// exactly what one run over all the inputs reports.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_RUNRECORD_H
#define WARPCHECK_TOOL_RUNRECORD_H

#include "JobResult.h"
#include "RunResult.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// Where an event falls in a whole run: the inputs that could not be
/// collected; then, per input, those that cannot become a job; then each
/// job's result in job order; then the notes on files analysed through
/// another input. Position: the index in its list (the problems, the
/// inputs, the notes).
enum class RunPhase { Problems = 0, Planning = 1, Jobs = 2, Notes = 3 };

struct RunEvent {
  RunPhase Phase = RunPhase::Problems;
  size_t Position = 0;
  /// An input not analysed (Message: why), a note on a file (Message), or
  /// a job's result (Result, with the planning's Notes and the unit's
  /// canonical file for --fix).
  enum class Kind { NotAnalysed, Note, Job } What = Kind::NotAnalysed;
  std::string File;
  std::string Message;
  std::optional<JobResult> Result;
  std::vector<std::string> Notes;
  std::string UserFile;
};

class RunRecord {
public:
  void notAnalysed(RunPhase Phase, size_t Position, std::string File, std::string Why);
  void note(RunPhase Phase, size_t Position, std::string File, std::string Note);
  void job(size_t Position, JobResult Result, std::vector<std::string> Notes,
           std::string UserFile);

  /// Every event, in the order of a whole run, added to a new RunResult.
  RunResult replay() const;

  const std::vector<RunEvent> &events() const { return Events; }
  void add(RunEvent E) { Events.push_back(std::move(E)); }

private:
  std::vector<RunEvent> Events;
};

/// {"phase", "position", "kind": "not_analysed"|"note"|"job", "file",
/// "message", "result", "notes", "user_file"}; the job's dependencies
/// (the results cache's own) are left out.
llvm::json::Object toJson(const RunEvent &E);
/// False when O is not such an event.
bool runEventFromJson(const llvm::json::Object &O, RunEvent &Out);

} // namespace warpcheck::tool

#endif
