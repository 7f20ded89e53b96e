//===- LaunchWork.h - the FLOPs and DRAM bytes of one whole launch --------===//
//
// What a launch does in all, for the roofline (model/Roofline.h): the
// floating-point instructions its threads execute, per precision, and the
// bytes it moves to and from DRAM.
//
// Both are counted from what the warp interpreter executes, on a few
// blocks run whole (every warp, every loop iteration). Along each axis of
// the grid a block is the first, an interior one or the last: guards at the
// edges of the data (`x > 0`, `x < n - 1`, a partial last block) make the
// first and the last differ from the others. One block of each class (up to
// 27) is run, and, along each axis with more than one interior block, the
// block after the interior one: every interior block is taken to do what
// the simulated one does, its addresses shifted by the step between those
// two (a site whose addresses are not shifted alike is counted block by
// block, its assumption said). FLOPs are counted per active lane, so loops
// of known trip count are multiplied out and lanes that are predicated off
// are not counted; DRAM bytes follow the cache model of
// model/SectorFootprint.h (each distinct 32-byte sector once for reads,
// once for writes).
//
// Like an access, each count is exact, assumed (with its assumptions) or
// not known (with the reason: an address read from memory, a loop too long
// to run within the simulation budget). A FLOP count that takes unbound
// parameters at a sampled value also comes as a formula in them.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_LAUNCHWORK_H
#define WARPCHECK_ANALYSIS_LAUNCHWORK_H

#include "warpcheck/analysis/AccessKinds.h"
#include "warpcheck/analysis/AccessReport.h"
#include "warpcheck/analysis/CountFormula.h"
#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/model/Roofline.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::analysis {

struct LaunchWork {
  /// nullopt when not counted (FlopsNotCounted says why).
  std::optional<model::FlopCounts> Flops;
  AccessStatus FlopsStatus = AccessStatus::Exact;
  std::vector<Assumption> FlopsAssumptions;
  std::string FlopsNotCounted;
  /// When the count rests on parameters no launch site binds: the FLOPs
  /// per thread as a formula in them (CountFormula.h), where one fits.
  std::optional<FlopFormula> FlopsPerThread;

  /// nullopt when not counted (DramNotCounted says why).
  std::optional<std::uint64_t> DramReadBytes, DramWriteBytes;
  AccessStatus DramStatus = AccessStatus::Exact;
  std::vector<Assumption> DramAssumptions;
  std::string DramNotCounted;

  /// Blocks run whole, of the launch's blocks.
  unsigned SimulatedBlocks = 0;
  std::uint64_t TotalBlocks = 0;
};

/// The work of the launch K describes (one result of analyzeKernel).
LaunchWork analyzeLaunchWork(const KernelLaunchAnalysis &K);

} // namespace warpcheck::analysis

#endif
