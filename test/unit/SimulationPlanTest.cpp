//===- SimulationPlanTest.cpp - the warps that stand for a launch ---------===//
//
// representativePlan picks the blocks and warps a launch larger than the
// simulation budget is averaged over (SimulationPlan.h): whole blocks while
// at least 16 of them fit, else fewer warps of each of at least 16 blocks,
// the warp subset rotated from block to block so that every warp index is
// simulated somewhere, with the launch's first and last warp always in.
//
//===----------------------------------------------------------------------===//

#include "SimulationPlan.h"

#include <gtest/gtest.h>

#include <set>

using namespace warpcheck::analysis;

namespace {

TEST(SimulationPlan, ASmallLaunchIsSimulatedWhole) {
  SimulationPlan P = representativePlan(4, 8, 128);
  EXPECT_EQ(P.Blocks, (std::vector<std::uint64_t>{0, 1, 2, 3}));
  ASSERT_EQ(P.Warps.size(), 4u);
  for (const auto &W : P.Warps)
    EXPECT_EQ(W, (std::vector<unsigned>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(P.warpCount(), 32u);
}

TEST(SimulationPlan, SmallBlocksStayWhole) {
  // 1000 blocks of 256 threads: 16 whole blocks fit 128 warps, as before.
  SimulationPlan P = representativePlan(1000, 8, 128);
  ASSERT_EQ(P.Blocks.size(), 16u);
  EXPECT_EQ(P.Blocks.front(), 0u);
  EXPECT_EQ(P.Blocks.back(), 999u);
  for (std::size_t I = 0; I < P.Blocks.size(); ++I)
    EXPECT_TRUE(P.wholeBlock(I, 8)) << I;
}

TEST(SimulationPlan, LargeBlocksAreSpreadOverSixteenBlocks) {
  // 39 blocks of 1024 threads: whole blocks would be 4 of the 39; the plan
  // takes 16 blocks of 8 warps each, warps 0, 4, .. 28 shifted by the
  // block's rank modulo 4 (the last block by 3, to hold warp 31).
  SimulationPlan P = representativePlan(39, 32, 128);
  EXPECT_EQ(P.Blocks, (std::vector<std::uint64_t>{0, 3, 5, 8, 10, 13, 15, 18, 20, 23, 25, 28,
                                                  30, 33, 35, 38}));
  EXPECT_EQ(P.warpCount(), 128u);
  EXPECT_EQ(P.Warps[0], (std::vector<unsigned>{0, 4, 8, 12, 16, 20, 24, 28}));
  EXPECT_EQ(P.Warps[1], (std::vector<unsigned>{1, 5, 9, 13, 17, 21, 25, 29}));
  EXPECT_EQ(P.Warps.back(), (std::vector<unsigned>{3, 7, 11, 15, 19, 23, 27, 31}));
  std::multiset<unsigned> Seen;
  for (const auto &W : P.Warps)
    Seen.insert(W.begin(), W.end());
  for (unsigned W = 0; W < 32; ++W)
    EXPECT_EQ(Seen.count(W), 4u) << W;
}

TEST(SimulationPlan, AFewLargeBlocksUseTheWholeBudget) {
  // 5 blocks of 32 warps: every block, 25 warps of each (125 of 128).
  SimulationPlan P = representativePlan(5, 32, 128);
  EXPECT_EQ(P.Blocks, (std::vector<std::uint64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(P.warpCount(), 125u);
  EXPECT_EQ(P.Warps.front().front(), 0u);
  EXPECT_EQ(P.Warps.back().back(), 31u);
}

TEST(SimulationPlan, RotatedSubsetsCoverABlockOfUnevenSpacingEvenly) {
  // 10 warps, 4 of each block: bases 0, 2, 5, 7 shifted by the block's
  // rank modulo 10; the last subset, shifted by 9, holds warp 9.
  EXPECT_EQ(rotatedWarps(10, 4, 0, 5), (std::vector<unsigned>{0, 2, 5, 7}));
  EXPECT_EQ(rotatedWarps(10, 4, 1, 5), (std::vector<unsigned>{1, 3, 6, 8}));
  EXPECT_EQ(rotatedWarps(10, 4, 3, 5), (std::vector<unsigned>{0, 3, 5, 8}));
  EXPECT_EQ(rotatedWarps(10, 4, 4, 5), (std::vector<unsigned>{1, 4, 6, 9}));
  // A block of 100 threads (3 full warps and one of 4 threads), 3 of its
  // 4 warps in each of 13 blocks: every warp in 9 or 10 of them (with
  // shifts modulo the bases' spacing, warps 1 and 2 were in all 13).
  std::vector<unsigned> Times(4);
  for (std::size_t I = 0; I < 13; ++I)
    for (unsigned W : rotatedWarps(4, 3, I, 13))
      ++Times[W];
  for (unsigned W = 0; W < 4; ++W)
    EXPECT_TRUE(Times[W] == 9 || Times[W] == 10) << W << ": " << Times[W];
}

TEST(SimulationPlan, ABlockAloneKeepsItsFirstAndLastWarp) {
  SimulationPlan P = representativePlan(1, 32, 4);
  EXPECT_EQ(P.Blocks, (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(P.Warps.front(), (std::vector<unsigned>{0, 10, 21, 31}));
}

TEST(SimulationPlan, ASmallBudgetTakesOneWarpOfEachBlock) {
  // 16 warps for 1000 blocks of 8: 16 blocks, one warp each, rotating
  // through the block's 8 warps, the last block's the last warp.
  SimulationPlan P = representativePlan(1000, 8, 16);
  ASSERT_EQ(P.Blocks.size(), 16u);
  EXPECT_EQ(P.warpCount(), 16u);
  for (std::size_t I = 0; I + 1 < P.Blocks.size(); ++I)
    EXPECT_EQ(P.Warps[I], std::vector<unsigned>{static_cast<unsigned>(I % 8)}) << I;
  EXPECT_EQ(P.Warps.back(), std::vector<unsigned>{7});
}

} // namespace
