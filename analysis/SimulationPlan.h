//===- SimulationPlan.h - which warps of a launch stand for all of them ---===//
//
// Private to analysis/. A launch of more warps than the simulation budget
// is averaged over a sample of them. Which ones matters: a stencil's edge
// blocks differ from its interior ones, a block's last warp may be partial,
// and an alignment set by blockIdx.x repeats with a period a few evenly
// spaced blocks can miss. Whole blocks of 1024 threads left room for four
// blocks only, and the average of four blocks of a 39-block grid was 21.9%
// off the whole launch's (generated kernels, docs/reliability.md). The plan
// therefore spreads the budget over at least MinimumSampledBlocks blocks,
// each simulating an evenly spaced subset of its warps, and rotates that
// subset from block to block so that every warp index of a block is
// simulated somewhere: each (block, warp) of the plan then stands for the
// same share of the launch, and the numbers stay plain averages over the
// simulated warps. The first block's first warp and the last block's last
// warp (the launch's two edges) are always in the plan.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_SIMULATIONPLAN_H
#define WARPCHECK_ANALYSIS_SIMULATIONPLAN_H

#include <cstdint>
#include <vector>

namespace warpcheck::analysis {

/// Which blocks (linear index) and which warps of each are simulated.
struct SimulationPlan {
  std::vector<std::uint64_t> Blocks;
  /// Warps[I]: the warps simulated in Blocks[I], ascending.
  std::vector<std::vector<unsigned>> Warps;

  /// Warps simulated in all.
  std::size_t warpCount() const;
  /// Whether Blocks[I] is simulated whole.
  bool wholeBlock(std::size_t I, unsigned WarpsPerBlock) const {
    return Warps[I].size() >= WarpsPerBlock;
  }
};

/// Fewest blocks a sampled launch is spread over (when it has that many):
/// below it, warps are taken from fewer of each block.
constexpr unsigned MinimumSampledBlocks = 16;

/// The plan for TotalBlocks blocks of WarpsPerBlock warps within MaxWarps:
/// every warp when the launch fits; else BlockCount blocks evenly spread
/// from the first to the last, each with the same number of warps
/// (rotated, see the file comment), BlockCount x that number <= MaxWarps.
SimulationPlan representativePlan(std::uint64_t TotalBlocks, unsigned WarpsPerBlock,
                                  unsigned MaxWarps);

/// Plan with BlockCount blocks evenly spread from the first to the last,
/// WarpsEach warps of each (rotated).
SimulationPlan spreadPlan(std::uint64_t TotalBlocks, unsigned WarpsPerBlock,
                          std::uint64_t BlockCount, unsigned WarpsEach);

/// The I-th of Count warp subsets of WarpsEach warps of a block of
/// WarpsPerBlock: evenly spaced ones shifted by I (modulo the block), so
/// that consecutive subsets cover the block evenly; the last (I + 1 ==
/// Count) holds the block's last warp. A block alone (Count 1): its first and
/// last warp and evenly spaced ones between.
std::vector<unsigned> rotatedWarps(unsigned WarpsPerBlock, unsigned WarpsEach, std::size_t I,
                                   std::size_t Count);

} // namespace warpcheck::analysis

#endif
