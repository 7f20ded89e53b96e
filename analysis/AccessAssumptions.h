//===- AccessAssumptions.h - what an access's numbers rest on -------------===//
//
// Private to analysis/. The assumptions an access's claim states, in the
// order the report lists them: for an address the simulation could not
// compute, why (data read from memory, or a value it could not follow);
// for one it computed, the launch shape's, the data's, the swept values',
// the grid's, the branches', the retry loop's, the compiler's and the
// loops' (an access with none is exact).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_ACCESSASSUMPTIONS_H
#define WARPCHECK_ANALYSIS_ACCESSASSUMPTIONS_H

#include "SiteRunChoice.h"

#include "warpcheck/analysis/KernelAnalysis.h"

#include <string>

namespace warpcheck::analysis {

/// The launch every access of one report belongs to.
struct LaunchClaims {
  const clang::FunctionDecl *Kernel;
  const LaunchConfig &Launch;
  const PrimaryRun &Primary;
  const LaunchRuns &Runs;
  /// AnalysisOptions::MaxLoopIterations.
  unsigned MaxLoopIterations;
};

/// A's status and assumptions when T, reported from Run, has no numbers:
/// its address depends on data read from memory, or on a value the
/// simulation could not follow.
void noteUnknownAddress(AccessResult &A, const SiteTotals &T, const SiteRun &Run,
                        const LaunchClaims &C);

/// A's assumptions when T, the totals of site Key reported from Run, has numbers, and its status:
/// exact when there are none. Predicted says where a prediction of the
/// compiler's instructions comes from.
void noteCostAssumptions(AccessResult &A, const SiteKey &Key, const SiteTotals &T,
                         const SiteRun &Run, const LaunchClaims &C, const std::string &Predicted);

} // namespace warpcheck::analysis

#endif
