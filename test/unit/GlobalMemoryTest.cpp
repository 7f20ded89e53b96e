// The global-memory model against the worked numbers of the seeds
// (shared/seeds/000 "GPU memory bandwidth optimization" and 002, its
// exercises) and against sector arithmetic done by hand.
#include "warpcheck/model/GlobalMemory.h"

#include <gtest/gtest.h>

using namespace warpcheck::model;

TEST(GlobalMemory, CoalescedFloatWarpIsOneTransaction) {
  // Exercise 1.1: 32 lanes read consecutive floats: 128 bytes, 1 line.
  GlobalRequestCost C = computeGlobalRequestCost(WarpAddressSet::strided(0x1000, 4, 4));
  EXPECT_EQ(C.Lines, 1u);
  EXPECT_EQ(C.Sectors, 4u);
  EXPECT_EQ(C.IdealSectors, 4u);
  EXPECT_DOUBLE_EQ(C.lineEfficiency(), 1.0);
  EXPECT_DOUBLE_EQ(C.sectorEfficiency(), 1.0);
}

TEST(GlobalMemory, Stride32FloatsIs32TransactionsAt3Point125Percent) {
  // Exercise 2.1: lane i reads A + 4 * 32 * i: every lane its own line.
  GlobalRequestCost C = computeGlobalRequestCost(WarpAddressSet::strided(0, 128, 4));
  EXPECT_EQ(C.Lines, 32u);
  EXPECT_DOUBLE_EQ(C.lineEfficiency(), 0.03125); // 128 / 4096
  EXPECT_EQ(C.Sectors, 32u);
  EXPECT_DOUBLE_EQ(C.sectorEfficiency(), 0.125); // 4 of 32 sectors
}

TEST(GlobalMemory, AosFieldOf24ByteStructIsSixTransactions) {
  // Exercise 2.2: lane i reads base + 24 i: a 768-byte span, 6 lines, 16.7%.
  GlobalRequestCost C = computeGlobalRequestCost(WarpAddressSet::strided(0, 24, 4));
  EXPECT_EQ(C.Lines, 6u);
  EXPECT_NEAR(C.lineEfficiency(), 1.0 / 6.0, 1e-12);
  // At sector granularity: floor(24 i / 32) takes 24 distinct values.
  EXPECT_EQ(C.Sectors, 24u);
  EXPECT_NEAR(C.sectorEfficiency(), 4.0 / 24.0, 1e-12);
}

TEST(GlobalMemory, AllSixFieldsAosIs36TransactionsAgainst6ForSoa) {
  // Exercise 3.1.
  unsigned Aos = 0, Soa = 0;
  for (unsigned Field = 0; Field < 6; ++Field) {
    Aos += computeGlobalRequestCost(WarpAddressSet::strided(4 * Field, 24, 4)).Lines;
    Soa += computeGlobalRequestCost(
               WarpAddressSet::strided(0x100000 * (Field + 1), 4, 4))
               .Lines;
  }
  EXPECT_EQ(Aos, 36u);
  EXPECT_EQ(Soa, 6u);
}

TEST(GlobalMemory, ArrayStartingAt0x102IsTwoTransactions) {
  // Seed 000: 128 bytes from 0x102 to 0x181 cross the 0x180 line boundary.
  WarpAddressSet S(4);
  for (unsigned L = 0; L < 32; ++L)
    S.setLane(L, 0x102 + 4 * L);
  GlobalRequestCost C = computeGlobalRequestCost(S);
  EXPECT_EQ(C.Lines, 2u);
  // 0x102..0x181 touch the sectors at 0x100, 0x120, 0x140, 0x160, 0x180.
  EXPECT_EQ(C.Sectors, 5u);
}

TEST(GlobalMemory, BroadcastIsOneSectorAndFullyEfficient) {
  GlobalRequestCost C = computeGlobalRequestCost(WarpAddressSet::strided(64, 0, 4));
  EXPECT_EQ(C.Sectors, 1u);
  EXPECT_EQ(C.IdealSectors, 1u);
  EXPECT_DOUBLE_EQ(C.sectorEfficiency(), 1.0);
}

TEST(GlobalMemory, WideAccessesAndPartialWarps) {
  // float4 per lane: 512 bytes, 16 sectors, 4 lines, no waste.
  GlobalRequestCost V = computeGlobalRequestCost(WarpAddressSet::strided(0, 16, 16));
  EXPECT_EQ(V.Sectors, 16u);
  EXPECT_EQ(V.Lines, 4u);
  EXPECT_EQ(V.IdealSectors, 16u);
  // 16 active lanes of 4 bytes: 64 bytes, 2 sectors.
  GlobalRequestCost P = computeGlobalRequestCost(WarpAddressSet::strided(0, 4, 4, 16));
  EXPECT_EQ(P.Sectors, 2u);
  EXPECT_EQ(P.IdealSectors, 2u);
  // A lane straddling a sector boundary touches both sectors.
  WarpAddressSet Straddle(8);
  Straddle.setLane(0, 28);
  EXPECT_EQ(computeGlobalRequestCost(Straddle).Sectors, 2u);
  // No active lane: no request.
  EXPECT_EQ(computeGlobalRequestCost(WarpAddressSet(4)).Sectors, 0u);
}
