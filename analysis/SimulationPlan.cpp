//===- SimulationPlan.cpp - which warps of a launch stand for all of them -===//

#include "SimulationPlan.h"

#include <algorithm>

namespace warpcheck::analysis {

std::size_t SimulationPlan::warpCount() const {
  std::size_t N = 0;
  for (const std::vector<unsigned> &W : Warps)
    N += W.size();
  return N;
}

namespace {

/// Count blocks (linear index) evenly spaced from 0 to TotalBlocks - 1,
/// rounded to the nearest; all of them when there are no more.
std::vector<std::uint64_t> spreadBlocks(std::uint64_t TotalBlocks, std::uint64_t Count) {
  std::vector<std::uint64_t> Blocks;
  if (TotalBlocks <= Count) {
    for (std::uint64_t B = 0; B < TotalBlocks; ++B)
      Blocks.push_back(B);
    return Blocks;
  }
  if (Count <= 1)
    return {0};
  for (std::uint64_t K = 0; K < Count; ++K) {
    std::uint64_t B = static_cast<std::uint64_t>(
        (static_cast<unsigned __int128>(K) * (TotalBlocks - 1) + (Count - 1) / 2) / (Count - 1));
    if (Blocks.empty() || Blocks.back() != B)
      Blocks.push_back(B);
  }
  return Blocks;
}

} // namespace

std::vector<unsigned> rotatedWarps(unsigned WarpsPerBlock, unsigned WarpsEach, std::size_t I,
                                   std::size_t Count) {
  WarpsPerBlock = std::max(1u, WarpsPerBlock);
  WarpsEach = std::clamp(WarpsEach, 1u, WarpsPerBlock);
  // Evenly spaced bases floor(J * P / K) are at most Spacing = ceil(P / K)
  // apart, so shifts 0 .. Spacing - 1 reach every warp; the largest base is
  // P - Spacing, so no shift passes the last warp.
  std::vector<unsigned> Warps;
  if (Count == 1) {
    // A block alone: its first and its last warp, evenly spaced ones between.
    for (std::uint64_t B : spreadBlocks(WarpsPerBlock, WarpsEach))
      Warps.push_back(static_cast<unsigned>(B));
    return Warps;
  }
  // Evenly spaced bases floor(J * P / K), all shifted by the block's rank
  // modulo P: over P blocks each warp is simulated exactly K times, however
  // the bases are spaced (a shift modulo their spacing would favour the
  // warps two bases reach: of 4 warps, 3 of each block, warps 1 and 2 in
  // every block, 0 and 3 in every other one). The last subset is shifted
  // by P - 1, which holds the last warp (base 0).
  unsigned Shift = I + 1 == Count ? WarpsPerBlock - 1 : static_cast<unsigned>(I % WarpsPerBlock);
  for (unsigned J = 0; J < WarpsEach; ++J)
    Warps.push_back(
        (static_cast<unsigned>(std::uint64_t(J) * WarpsPerBlock / WarpsEach) + Shift) %
        WarpsPerBlock);
  std::sort(Warps.begin(), Warps.end());
  return Warps;
}

SimulationPlan spreadPlan(std::uint64_t TotalBlocks, unsigned WarpsPerBlock,
                          std::uint64_t BlockCount, unsigned WarpsEach) {
  SimulationPlan Plan;
  Plan.Blocks = spreadBlocks(std::max<std::uint64_t>(1, TotalBlocks), BlockCount);
  for (std::size_t I = 0; I < Plan.Blocks.size(); ++I)
    Plan.Warps.push_back(rotatedWarps(WarpsPerBlock, WarpsEach, I, Plan.Blocks.size()));
  return Plan;
}

SimulationPlan representativePlan(std::uint64_t TotalBlocks, unsigned WarpsPerBlock,
                                  unsigned MaxWarps) {
  TotalBlocks = std::max<std::uint64_t>(1, TotalBlocks);
  WarpsPerBlock = std::max(1u, WarpsPerBlock);
  MaxWarps = std::max(1u, MaxWarps);
  if (static_cast<unsigned __int128>(TotalBlocks) * WarpsPerBlock <= MaxWarps)
    return spreadPlan(TotalBlocks, WarpsPerBlock, TotalBlocks, WarpsPerBlock);
  // Whole blocks while they leave room for MinimumSampledBlocks of them
  // (blocks of up to 256 threads with the default 128 warps); beyond,
  // fewer warps of each block, never fewer blocks.
  std::uint64_t BlockCount =
      std::min<std::uint64_t>(TotalBlocks, std::max<std::uint64_t>(MaxWarps / WarpsPerBlock,
                                                                   std::min(MinimumSampledBlocks,
                                                                            MaxWarps)));
  unsigned WarpsEach = static_cast<unsigned>(
      std::clamp<std::uint64_t>(MaxWarps / BlockCount, 1, WarpsPerBlock));
  return spreadPlan(TotalBlocks, WarpsPerBlock, BlockCount, WarpsEach);
}

} // namespace warpcheck::analysis
