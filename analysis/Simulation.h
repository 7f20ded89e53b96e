//===- Simulation.h - one launch simulated, its accesses totalled ---------===//
//
// Private to analysis/. A launch is simulated warp by warp (the warp
// interpreter records each request), on a plan of blocks and warps that
// stands for the whole launch (SimulationPlan.h) within a budget of
// lane-steps; the Aggregator costs every request with the hardware model
// (model/) and totals them per access site.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_SIMULATION_H
#define WARPCHECK_ANALYSIS_SIMULATION_H

#include "SimulationPlan.h"
#include "UnrolledMerges.h"
#include "interp/WarpInterpreter.h"

#include "warpcheck/analysis/AccessReport.h"
#include "warpcheck/analysis/ArrayLayout.h"
#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/model/GlobalMemory.h"
#include "warpcheck/model/SharedMemory.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace warpcheck::analysis {

/// An access site: its expression and what it does there.
struct SiteKey {
  const clang::Expr *E;
  AccessOp Op;
  bool operator<(const SiteKey &O) const {
    return E != O.E ? E < O.E : static_cast<int>(Op) < static_cast<int>(O.Op);
  }
};

/// Running totals of the requests of one kind of instruction counted with
/// an access site (AccessResult::Instructions).
struct InstructionTotals {
  std::string Opcode;
  unsigned BytesPerLane = 0;
  std::string File;
  unsigned Line = 0;
  std::vector<unsigned> OtherLines;
  bool Merged = false, Split = false, Moved = false, Hoisted = false;
  bool RepeatsRemoved = false;
  std::vector<const clang::Expr *> Serves;
  const clang::Expr *CountedWith = nullptr;
  unsigned Requests = 0, ServedExecutions = 0;
  double Sectors = 0, IdealSectors = 0, Lines = 0, IdealLines = 0;
  double Wavefronts = 0, IdealWavefronts = 0;
};

/// Running totals of the requests an access site made through one call of
/// the function that holds it (SiteTotals::ByCallSite).
struct CallSiteTotals {
  unsigned Requests = 0;
  double Sectors = 0, IdealSectors = 0, Lines = 0, IdealLines = 0;
  double Wavefronts = 0, IdealWavefronts = 0;
};

/// Running totals of one access site over the simulated warps.
struct SiteTotals {
  AccessSite Site;
  unsigned Requests = 0, UnknownRequests = 0;
  /// Of Requests: addresses unknown, but inside a shared variable too small
  /// to conflict (model::isConflictFreeFootprint), costed as the ideal.
  unsigned FootprintRequests = 0;
  /// The largest such variable, for the report.
  std::uint64_t FootprintBytes = 0;
  /// Of Requests: addresses unknown, one lane's each (RecordedRequest::
  /// OneLane), costed as one lane's request.
  unsigned OneLaneRequests = 0;
  /// Global atomics the compiler aggregates (one lane's request), of Requests.
  unsigned AggregatedRequests = 0;
  double Sectors = 0, IdealSectors = 0, Lines = 0, IdealLines = 0;
  double Wavefronts = 0, IdealWavefronts = 0;
  bool Uncertain = false, StructCopy = false;
  /// A StructCopy request of this site that was not memory to memory.
  bool PartialStructCopy = false;
  std::optional<model::WarpAddressSet> Worst;
  model::GlobalRequestCost WorstGlobal;
  model::SharedRequestCost WorstShared;
  double WorstScore = -1;
  /// Every request's lanes and addresses, in order, folded into one
  /// number: two simulations of the same warps give the same digest exactly
  /// when the site saw the same addresses (a test of whether its addresses
  /// depend on a value that differed between them).
  std::uint64_t AddressDigest = 0;
  /// Lanes that made the site's requests (one element each, or one copy
  /// chunk), over the simulated warps.
  double LaneAccesses = 0;
  /// Global loads: in the first simulated block, the number of distinct
  /// threads that read each element, on average (0: no known address),
  /// and the number of distinct elements each thread reads (1 for an
  /// address the loop does not change).
  double FirstBlockReuse = 0, FirstBlockElementsPerThread = 0;
  /// Global loads: in the first simulated block, how many of its warps'
  /// requests fetch each sector the load reads, on average (1: every sector
  /// once, a broadcast or a stream no tile could read less of).
  double FirstBlockSectorFetches = 0;
  /// Costed as the kernel's listing executes it (EmittedInstructions.h):
  /// Requests and the sums are those of its instructions, each kind in
  /// Instructions; Unmatched says what the listing did not explain.
  bool FromListing = false;
  /// Listing: a struct copy each of whose field-sized requests has its
  /// instruction (no field dropped).
  bool CopyComplete = false;
  std::vector<InstructionTotals> Instructions;
  /// An access in a device function run inline: its requests through each
  /// call on the way to it (RecordedRequest::CallSites). nvcc's line table
  /// puts an inlined instruction on the function's line or on the call's,
  /// as it chooses (llm.c's load128(p): the call's; helper-call-sites.cu:
  /// the function's), and Nsight Compute counts it there: each call's
  /// requests are costed apart, for either.
  std::map<const clang::CallExpr *, CallSiteTotals> ByCallSite;
  std::string Unmatched;
  /// Executions another access's instruction served (counted there).
  unsigned ServedByOthers = 0;
  /// Without a listing: executions predicted to be served by the value the
  /// compiler keeps in a register across the loop (RegisterPromotion.h),
  /// which make no request.
  unsigned KeptInRegister = 0;
  /// A load kept so is made once before this loop, its instruction on
  /// HoistedLine (0: not known; KeptAccess::HoistedBefore).
  const clang::Stmt *HoistedBefore = nullptr;
  unsigned HoistedLine = 0;
  /// KeptAccess::ScheduledAfter: the line is ptxas's to choose.
  unsigned ScheduledAfter = 0;
  /// Without a listing: executions predicted to take the value an earlier
  /// access of the same element left in a register (LoadReuse.h), which
  /// make no request; and that access.
  unsigned ReusedEarlier = 0;
  const clang::Expr *ReusedFrom = nullptr;
  /// That access is made for the lanes of both, hoisted before its branch.
  bool ReusedHoisted = false;
  /// Without a listing: this access is hoisted before its branch for the
  /// lanes of this later read of its element too (LoadReuse.h).
  const clang::Expr *HoistedFor = nullptr;
  /// Served by any earlier execution in a nest unrolled completely
  /// (RegisterPromotion.h).
  bool RepeatsRemoved = false;
  /// Without a listing: some executions were predicted to be merged into
  /// wider instructions across an unrolled loop's iterations
  /// (UnrolledMerges.h), listed in Instructions.
  bool PredictedMerge = false;
  /// What that merge joins.
  MergeKind PredictedMergeKind = MergeKind::UnrolledLoop;
  /// Without a listing: an unrolled loop's access whose runs are not
  /// aligned as a merge needs; the compiler may still read them wider.
  bool MayMergeUnaligned = false;
  /// The loops the instruction was hoisted out of: their truncation does
  /// not change its requests.
  std::vector<clang::SourceRange> HoistedOutOf;
};

/// Per-request averages of a site's totals.
AccessCost costOf(const SiteTotals &T);
AccessCost costOf(const InstructionTotals &T);
AccessCost costOf(const CallSiteTotals &T);

/// One simulation of a launch under one set of sampled values.
struct Simulation {
  std::map<SiteKey, SiteTotals> Sites;
  unsigned SimulatedWarps = 0;
  std::uint64_t TotalWarps = 0, TotalBlocks = 0;
  /// Lane-steps the simulation took.
  std::uint64_t Steps = 0;
  /// The blocks and warps simulated (a fixed plan given, or the one chosen).
  SimulationPlan Plan;
  std::vector<std::string> SampledSymbols, Limitations;
  /// Warp-uniform integer reads from memory that took a sampled value.
  std::vector<std::string> SweptReads;
  std::map<const clang::Expr *, std::map<const clang::Expr *, std::vector<std::int64_t>>> Captured;
  std::vector<clang::SourceRange> TruncatedLoops, BudgetTruncatedLoops;
  bool UndefinedArithmetic = false;
  /// An access outside a fixed-size __shared__ array (sawOutOfBoundsShared).
  bool OutOfBoundsShared = false;
  /// Values the program cannot take: undefined arithmetic or an access
  /// outside a __shared__ array.
  bool infeasible() const { return UndefinedArithmetic || OutOfBoundsShared; }
  /// The floating-point instructions of the simulated warps, per lane.
  model::FlopCounts Flops;
  /// FLOPs per lane inside each loop statement, over the simulated warps.
  std::map<const clang::Stmt *, double> LoopFlops;
  /// The budget cuts of the launch as a whole (KernelLaunchAnalysis).
  std::vector<std::string> BudgetCuts;
  bool StepBudgetExhausted = false;
};

/// Simulates Launch of Kernel. With FixedPlan, exactly those blocks and
/// warps (the value sweep compares simulations warp for warp); otherwise a
/// plan within the launch's budget.
Simulation simulateLaunch(const clang::FunctionDecl *Kernel, const LaunchConfig &Launch,
                          const SampleValues &Samples, const InterpreterLimits &Limits,
                          const std::map<const clang::VarDecl *, ArrayLayout> &Layouts,
                          const AnalysisOptions &Options,
                          const SimulationPlan *FixedPlan = nullptr);

} // namespace warpcheck::analysis

#endif
