//===- RunResult.h - the merged results of a run, honestly counted --------===//
//
// Every input ends in one state: analysed (no compiler error), analysed
// with errors (its kernels that compile were analysed and are reported),
// or not analysed (with the cause). The summary counts each state, the
// kernels analysed and those that do not compile, and never counts a
// failed input as analysed. Findings and kernels located in a header that
// several inputs include are kept once: the first input, in input order,
// that reports them.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_RUNRESULT_H
#define WARPCHECK_TOOL_RUNRESULT_H

#include "CommandLine.h"
#include "JobResult.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// Results of all translation units, merged.
struct RunResult {
  /// The kernel entries of the workers, each once.
  std::vector<KernelEntry> Kernels;
  std::vector<Finding> Findings;
  /// Compiler errors and inputs that could not be analysed.
  std::vector<ReportedError> Errors;
  /// One per input, in input order.
  std::vector<InputOutcome> Inputs;
  /// Findings left out because --baseline holds them (Baseline.h), and
  /// because they are not on the lines --diff or --line-filter keep
  /// (LineFilter.h).
  unsigned SuppressedByBaseline = 0, OutsideLineFilter = 0;
  /// The main files and user headers of the analysed units (canonicalFile
  /// in FixApplication.h): the only files --fix writes.
  std::set<std::string> UserFiles;

  /// Adds an input that could not be analysed at all.
  void addNotAnalysed(const std::string &File, const std::string &Cause);
  /// Adds one translation unit's result (TranslationUnitJob.h) and the
  /// notes the planning made about it.
  void addJobOutput(JobResult Output, const std::vector<std::string> &Notes);
  /// A note on an input that is not itself analysed (a file analysed
  /// through another one).
  void addNote(const std::string &File, const std::string &Note);

private:
  /// The JSON text of every kernel entry kept (RunResult.cpp).
  std::set<std::string> SeenKernels;
  /// A finding's identity (RunResult.cpp) -> its index in Findings.
  std::map<std::string, size_t> FindingIndex;
};

/// The launch a finding's message names ("the launch at main.cu:40"), or
/// empty.
std::string launchNamed(llvm::StringRef Message);

/// A finding's identity across translation units: its check, place and
/// words, whichever unit's launch its words name. The run keeps one
/// finding per identity (the others become its notes).
std::string findingIdentity(const Finding &F);

/// The counts of the summary line.
struct RunCounts {
  unsigned Inputs = 0, Analysed = 0, AnalysedWithErrors = 0, NotAnalysed = 0;
  unsigned KernelsAnalysed = 0, KernelsWithErrors = 0, LaunchShapes = 0;
  /// Kernels whose analysis failed inside warpcheck (status failed).
  unsigned KernelsFailed = 0;
  unsigned Findings = 0, FindingsAsErrors = 0;
  unsigned SuppressedByBaseline = 0, OutsideLineFilter = 0;
  /// Launch shapes by their roofline verdict on the target architecture
  /// (the first of each kernel's "roofline"), and those without one.
  unsigned MemoryBound = 0, ComputeBound = 0, RooflineNotKnown = 0;
  /// The target architecture of the verdicts ("sm_90"); empty when none.
  std::string RooflineArch;
};
RunCounts countRun(const RunResult &R);

/// "3 findings; 5 kernels analysed (7 launch shapes), 1 kernel does not
/// compile, 1 kernel could not be analysed; 4 inputs: 2 analysed, 1 analysed
/// with errors, 1 not analysed; roofline on sm_90: 5 launch shapes
/// memory-bound, 1 compute-bound, 1 not known".
std::string summaryLine(const RunCounts &C);

/// 3 when an input was not analysed cleanly, else 1 when a reported finding
/// fails the run by Policy, else 0 (CommandLine.h).
int exitCodeFor(const RunCounts &C, FailOn Policy = FailOn::Error);

} // namespace warpcheck::tool

#endif
