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

// Warp aggregation of global atomics (test/hw/atomics/sass_census.csv: the
// SASS nvcc 13.0 emits for sm_90; HardwareRecordsTest checks every census
// case).
namespace {
AtomicTraits atomicOn(AtomicValueType Type, AtomicOperation Op, bool ResultUsed,
                      bool UniformOperand, bool UniformAddress = true) {
  AtomicTraits T;
  T.Type = Type;
  T.Operation = Op;
  T.ResultUsed = ResultUsed;
  T.UniformOperand = UniformOperand;
  T.UniformAddress = UniformAddress;
  return T;
}
const WarpAddressSet OneWord = WarpAddressSet::strided(0x1000, 0, 4);
} // namespace

TEST(GlobalMemory, IntegerAddOnOneWordIsOneLanesRequest) {
  // atomicAdd(&count[0], 1): VOTEU, UFLO, POPC, then one REDG: 1 sector,
  // not the 32 rounds of the lanes served one by one.
  AtomicTraits T = atomicOn(AtomicValueType::Int32, AtomicOperation::Add, false, true);
  EXPECT_EQ(atomicAggregation(T), AtomicAggregation::Warp);
  EXPECT_TRUE(isAggregatedRequest(OneWord, T));
  GlobalRequestCost C = computeAtomicRequestCost(OneWord, T);
  EXPECT_EQ(C.Sectors, 1u);
  EXPECT_EQ(C.IdealSectors, 1u);
  EXPECT_DOUBLE_EQ(C.sectorEfficiency(), 1.0);
  EXPECT_EQ(whyNotAggregated(T), nullptr);
  // A per-lane operand (REDUX), a used old value with a uniform operand
  // (SHFL, POPC), min/max/and/or/xor ignored, 64-bit add of a uniform value.
  EXPECT_EQ(atomicAggregation(atomicOn(AtomicValueType::Int32, AtomicOperation::Add, false, false)),
            AtomicAggregation::Warp);
  EXPECT_EQ(atomicAggregation(atomicOn(AtomicValueType::Int32, AtomicOperation::Sub, true, true)),
            AtomicAggregation::Warp);
  EXPECT_EQ(atomicAggregation(atomicOn(AtomicValueType::Int32, AtomicOperation::Max, false, false)),
            AtomicAggregation::Warp);
  EXPECT_EQ(atomicAggregation(atomicOn(AtomicValueType::Int64, AtomicOperation::Add, true, true)),
            AtomicAggregation::Warp);
  // Divergent lanes: the vote finds the active ones; still one request.
  WarpAddressSet Half = WarpAddressSet::strided(0x1000, 0, 4, 16);
  EXPECT_EQ(computeAtomicRequestCost(Half, T).Sectors, 1u);
}

TEST(GlobalMemory, FloatAndOtherAtomicsOnOneWordAreServedLaneByLane) {
  for (AtomicTraits T :
       {atomicOn(AtomicValueType::FloatingPoint, AtomicOperation::Add, false, true),
        atomicOn(AtomicValueType::Int32, AtomicOperation::Exchange, false, true),
        atomicOn(AtomicValueType::Int32, AtomicOperation::CompareAndSwap, true, true),
        atomicOn(AtomicValueType::Int32, AtomicOperation::Increment, false, true),
        atomicOn(AtomicValueType::Int32, AtomicOperation::Min, true, false),
        atomicOn(AtomicValueType::Int64, AtomicOperation::Add, false, false),
        atomicOn(AtomicValueType::Int64, AtomicOperation::Max, false, true),
        // threadIdx.x / 32: one address at run time, not to the compiler
        atomicOn(AtomicValueType::Int32, AtomicOperation::Add, false, true, false)}) {
    EXPECT_EQ(atomicAggregation(T), AtomicAggregation::None);
    EXPECT_NE(whyNotAggregated(T), nullptr);
    GlobalRequestCost C = computeAtomicRequestCost(OneWord, T);
    EXPECT_EQ(C.Sectors, 32u);
    EXPECT_EQ(C.IdealSectors, 1u);
  }
  EXPECT_STREQ(whyNotAggregated(atomicOn(AtomicValueType::FloatingPoint, AtomicOperation::Add,
                                         false, true)),
               "floating-point atomics are never combined");
}

TEST(GlobalMemory, UsedAddOfPerLaneValuesIsAggregatedOnlyForFullWarps) {
  // out[i] = atomicAdd(next, len[i]): an SHFL scan and one ATOMG by lane 31
  // when all 32 lanes are active, else every lane its own ATOMG.
  AtomicTraits T = atomicOn(AtomicValueType::Int32, AtomicOperation::Add, true, false);
  EXPECT_EQ(atomicAggregation(T), AtomicAggregation::FullWarpOnly);
  EXPECT_EQ(computeAtomicRequestCost(OneWord, T).Sectors, 1u);
  WarpAddressSet Half = WarpAddressSet::strided(0x1000, 0, 4, 16);
  EXPECT_FALSE(isAggregatedRequest(Half, T));
  EXPECT_EQ(computeAtomicRequestCost(Half, T).Sectors, 16u);
  EXPECT_NE(whyNotAggregated(T), nullptr);
}

TEST(GlobalMemory, PerLaneAddressesAreNeverAggregated) {
  AtomicTraits T = atomicOn(AtomicValueType::Int32, AtomicOperation::Add, false, true);
  // A proof of uniformity that the addresses contradict is not trusted.
  WarpAddressSet Lanes = WarpAddressSet::strided(0x1000, 4, 4);
  EXPECT_FALSE(isAggregatedRequest(Lanes, T));
  EXPECT_EQ(computeAtomicRequestCost(Lanes, T).Sectors, 4u);
  T.UniformAddress = false;
  WarpAddressSet Groups(4); // 8 words, 4 lanes each: 4 rounds of one sector
  for (unsigned L = 0; L < 32; ++L)
    Groups.setLane(L, 0x1000 + 4 * (L / 4));
  EXPECT_EQ(computeAtomicRequestCost(Groups, T).Sectors, 4u);
}

TEST(GlobalMemory, RequestOfFewerLanesAtTheSameAddressesIsServedByTheEarlierOne) {
  // A load hoisted out of a loop: its register serves the loop's last
  // iterations, which fewer lanes reach, but not a lane it did not load for,
  // another address, or another width.
  WarpAddressSet All = WarpAddressSet::strided(0x1000, 128, 4);
  WarpAddressSet Fewer = WarpAddressSet::strided(0x1000, 128, 4, 20);
  EXPECT_TRUE(Fewer.servedBy(All));
  EXPECT_TRUE(All.servedBy(All));
  EXPECT_FALSE(All.servedBy(Fewer));
  EXPECT_FALSE(WarpAddressSet::strided(0x1004, 128, 4, 20).servedBy(All));
  EXPECT_FALSE(WarpAddressSet::strided(0x1000, 128, 8, 20).servedBy(All));
}
