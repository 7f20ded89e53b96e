//===- FindingStream.h - findings printed as each unit finishes ----------===//
//
// On a terminal, an audit of many units prints each unit's findings as soon
// as the unit is done, in the text report's form, instead of after the last
// one; the report at the end then prints only what was not printed yet.
// Held back until the end are the units whose results can still change:
// those with a kernel launched nowhere in the unit or a function no
// function of the unit calls, which are analysed again when another unit
// launches or calls them (CrossUnitLaunches.h). A finding several units
// report (one in a header they include) is printed once, as the first unit
// to finish has it: the note the run adds for the other units' launches
// ("the same for the launch at ...") is in the JSON and SARIF. Units finish in
// any order: a report that must not depend on -j (a pipe, a file, JSON,
// SARIF) is never streamed.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_FINDINGSTREAM_H
#define WARPCHECK_TOOL_FINDINGSTREAM_H

#include "JobResult.h"
#include "PullRequestGates.h"
#include "RunResult.h"

#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <set>
#include <string>

namespace warpcheck::tool {

class ProgressLine;

class FindingStream {
public:
  /// Prints to OS (colored when Color), clearing Progress's line first
  /// (null: none); the unit's findings are gated as the run's are (the
  /// gates that need no other unit: applyGatesToUnit).
  FindingStream(llvm::raw_ostream &OS, bool Color, ProgressLine *Progress,
                const GateOptions &Gates, std::string WorkingDirectory);

  /// Whether a unit's results are final: no kernel of it waits for a
  /// launch from another unit, no function for a call (see above).
  static bool isFinal(const JobResult &R);

  /// One unit's final results (a RunResult of that unit alone), gated and
  /// printed now; those already printed are left out.
  void unitFinished(RunResult Unit);

  /// Whether F was printed (one of its identity: findingIdentity).
  bool printed(const Finding &F) const;

private:
  mutable std::mutex Lock;
  llvm::raw_ostream &OS;
  bool Color;
  ProgressLine *Progress;
  const GateOptions &Gates;
  std::string WorkingDirectory;
  std::set<std::string> Printed;
};

} // namespace warpcheck::tool

#endif
