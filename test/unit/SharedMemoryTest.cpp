// The shared-memory bank model against the seeds' worked numbers
// (shared/seeds/000, 001, 002 exercise 1.2 and 5.1, 003 for the G80).
#include "warpcheck/model/Arch.h"
#include "warpcheck/model/GlobalMemory.h"
#include "warpcheck/model/SharedMemory.h"

#include <gtest/gtest.h>

using namespace warpcheck::model;

TEST(SharedMemory, ByteAddress260IsBank1) {
  // Exercise 1.2: word 65 = 2 * 32 + 1.
  EXPECT_EQ(bankOf(260), 1u);
}

static WarpAddressSet columnOfTile(unsigned RowWords, unsigned Column) {
  // Lane i reads tile[i][Column] of a float tile[32][RowWords].
  WarpAddressSet S(4);
  for (unsigned L = 0; L < 32; ++L)
    S.setLane(L, 4ull * (L * RowWords + Column));
  return S;
}

TEST(SharedMemory, ColumnOf32x32TileIs32WayConflict) {
  // Exercise 5.1 (a), (b): every lane hits bank col mod 32: 32 cycles.
  for (unsigned Col : {0u, 5u, 31u}) {
    SharedRequestCost C = computeSharedRequestCost(columnOfTile(32, Col));
    EXPECT_EQ(C.ConflictDegree, 32u);
    EXPECT_EQ(C.Wavefronts, 32u);
    EXPECT_EQ(C.IdealWavefronts, 1u);
    EXPECT_EQ(C.WorstBank, Col);
    EXPECT_EQ(C.WorstBankLanes.size(), 32u);
  }
}

TEST(SharedMemory, PaddedTo33IsConflictFree) {
  // Exercise 5.1 (c): gcd(33, 32) = 1: 32 different banks, 1 cycle.
  SharedRequestCost C = computeSharedRequestCost(columnOfTile(33, 0));
  EXPECT_EQ(C.ConflictDegree, 1u);
  EXPECT_EQ(C.Wavefronts, 1u);
  EXPECT_FALSE(C.hasConflict());
}

TEST(SharedMemory, RowReadIsConflictFree) {
  // tile[threadIdx.y][threadIdx.x]: consecutive words, one per bank.
  SharedRequestCost C = computeSharedRequestCost(WarpAddressSet::strided(0, 4, 4));
  EXPECT_EQ(C.Wavefronts, 1u);
}

TEST(SharedMemory, BroadcastIsNoConflict) {
  // Seed 000: all threads reading the same address are served at once.
  SharedRequestCost C = computeSharedRequestCost(WarpAddressSet::strided(128, 0, 4));
  EXPECT_EQ(C.Wavefronts, 1u);
  EXPECT_FALSE(C.hasConflict());
  // Two distinct words in one bank, each read by 16 lanes: 2-way.
  WarpAddressSet Two(4);
  for (unsigned L = 0; L < 32; ++L)
    Two.setLane(L, L < 16 ? 0 : 128);
  EXPECT_EQ(computeSharedRequestCost(Two).Wavefronts, 2u);
}

TEST(SharedMemory, StrideTwoWordsIsTwoWay) {
  SharedRequestCost C = computeSharedRequestCost(WarpAddressSet::strided(0, 8, 4));
  EXPECT_EQ(C.ConflictDegree, 2u);
  EXPECT_EQ(C.Wavefronts, 2u);
}

TEST(SharedMemory, G80HasSixteenBanksServedPerHalfWarp) {
  // Seed 003: 16 banks of 32-bit words, conflicts only within a half-warp.
  const ArchSpec *G80 = findArch("g80");
  ASSERT_NE(G80, nullptr);
  EXPECT_EQ(G80->SharedBanks.Banks, 16u);
  EXPECT_EQ(bankOf(4 * 17, G80->SharedBanks), 1u);
  // Unit stride: each half-warp covers the 16 banks once.
  SharedRequestCost Unit =
      computeSharedRequestCost(WarpAddressSet::strided(0, 4, 4), G80->SharedBanks);
  EXPECT_EQ(Unit.ConflictDegree, 1u);
  // Stride of 16 words: the 16 lanes of a half-warp all hit bank 0.
  SharedRequestCost Col =
      computeSharedRequestCost(WarpAddressSet::strided(0, 64, 4), G80->SharedBanks);
  EXPECT_EQ(Col.ConflictDegree, 16u);
  // Stride 17 (odd): conflict-free on 16 banks.
  SharedRequestCost Odd =
      computeSharedRequestCost(WarpAddressSet::strided(0, 68, 4), G80->SharedBanks);
  EXPECT_EQ(Odd.ConflictDegree, 1u);
}

// Shared-memory atomics, as measured on the H200
// (test/hw/inputs/shared-atomics.json, lines 27 and 51 to 57).
static WarpAddressSet lanesOnWords(unsigned Words, unsigned Active = 32) {
  // Lane i updates word i % Words; lanes >= Active are off.
  WarpAddressSet S(4);
  for (unsigned L = 0; L < Active; ++L)
    S.setLane(L, 4ull * (L % Words));
  return S;
}

static AtomicTraits sharedAtomic(AtomicOperation Op, bool UnitOperand, bool ResultUsed = false) {
  AtomicTraits T;
  T.Operation = Op;
  T.Type = AtomicValueType::Int32;
  T.UnitOperand = UnitOperand;
  T.UniformOperand = UnitOperand;
  T.ResultUsed = ResultUsed;
  return T;
}

TEST(SharedMemory, AtomicsOnOneWordAreServedPerLane) {
  // ATOMS.EXCH of 32 lanes on one word: 32 wavefronts (line 27), where a
  // load of that word is one broadcast.
  AtomicTraits Exch = sharedAtomic(AtomicOperation::Exchange, false);
  EXPECT_EQ(sharedAtomicKind(Exch), SharedAccessKind::AtomicPerLane);
  SharedRequestCost C = computeSharedRequestCost(lanesOnWords(1), {}, sharedAtomicKind(Exch));
  EXPECT_EQ(C.Wavefronts, 32u);
  EXPECT_EQ(C.IdealWavefronts, 1u);
  EXPECT_EQ(computeSharedRequestCost(lanesOnWords(1)).Wavefronts, 1u);
  // Half the lanes: 16.
  EXPECT_EQ(computeSharedRequestCost(lanesOnWords(1, 16), {}, SharedAccessKind::AtomicPerLane)
                .Wavefronts,
            16u);
}

TEST(SharedMemory, FourLanesOnEachOfEightBanksTakeFourUnlessIncrementing) {
  // bins[tid % 8]: ATOMS.ADD of a per-lane value, .EXCH and .MAX take 4
  // (lines 52 to 54); the increment by 1 whose old value is ignored is
  // ATOMS.POPC.INC, one update per word: 1 (line 51).
  for (AtomicOperation Op :
       {AtomicOperation::Add, AtomicOperation::Exchange, AtomicOperation::Max}) {
    AtomicTraits T = sharedAtomic(Op, false);
    EXPECT_EQ(computeSharedRequestCost(lanesOnWords(8), {}, sharedAtomicKind(T)).Wavefronts, 4u);
  }
  AtomicTraits Increment = sharedAtomic(AtomicOperation::Add, true);
  EXPECT_EQ(sharedAtomicKind(Increment), SharedAccessKind::Atomic);
  EXPECT_EQ(computeSharedRequestCost(lanesOnWords(8), {}, sharedAtomicKind(Increment)).Wavefronts,
            1u);
  // Its old value used: served per lane.
  EXPECT_EQ(sharedAtomicKind(sharedAtomic(AtomicOperation::Add, true, true)),
            SharedAccessKind::AtomicPerLane);
  // One word per lane (bins[tid % 32], line 56): 1 either way.
  EXPECT_EQ(computeSharedRequestCost(lanesOnWords(32), {}, SharedAccessKind::AtomicPerLane)
                .Wavefronts,
            1u);
}

TEST(SharedMemory, FloatingPointSharedAtomicsAreRetryLoops) {
  AtomicTraits F = sharedAtomic(AtomicOperation::Add, true);
  F.Type = AtomicValueType::FloatingPoint;
  EXPECT_TRUE(isSharedAtomicRetryLoop(F));
  EXPECT_FALSE(isSharedAtomicRetryLoop(sharedAtomic(AtomicOperation::Add, false)));
  AtomicTraits Long = sharedAtomic(AtomicOperation::Add, true);
  Long.Type = AtomicValueType::Int64;
  EXPECT_TRUE(isSharedAtomicRetryLoop(Long));
  AtomicTraits Exch = sharedAtomic(AtomicOperation::Exchange, false);
  Exch.Type = AtomicValueType::FloatingPoint;
  EXPECT_FALSE(isSharedAtomicRetryLoop(Exch));
}

TEST(SharedMemory, WideLoadIdealCountsTheLanesBytesOnceAPair) {
  // test/inputs/unrolled-shared-loads.cu line 24 (and sgemm_cuda's warp
  // tile): lanes 4r..4r+3 load the 16 bytes at 32 * r. Eight addresses,
  // 128 distinct bytes, but the H200 counts 2 wavefronts with an ideal of
  // 2: the 16 merged lane pairs' 256 bytes over 128.
  WarpAddressSet Tile(16);
  for (unsigned L = 0; L < 32; ++L)
    Tile.setLane(L, 32 * (L / 4));
  SharedRequestCost C = computeSharedRequestCost(Tile);
  EXPECT_EQ(C.Wavefronts, 2u);
  EXPECT_EQ(C.IdealWavefronts, 2u);
  // Each lane its own 16 bytes (line 38): 512 bytes, 4 and 4.
  WarpAddressSet Rows(16);
  for (unsigned L = 0; L < 32; ++L)
    Rows.setLane(L, 16 * L);
  EXPECT_EQ(computeSharedRequestCost(Rows).IdealWavefronts, 4u);
  // A store never merges pairs: the tile's 32 lanes' 512 bytes, 4.
  EXPECT_EQ(computeSharedRequestCost(Tile, {}, SharedAccessKind::Store).IdealWavefronts, 4u);
  // 8-byte loads of one address by every lane (shoc's scan): 16 pairs of
  // 8 bytes, 1.
  WarpAddressSet Same(8);
  for (unsigned L = 0; L < 32; ++L)
    Same.setLane(L, 64);
  EXPECT_EQ(computeSharedRequestCost(Same).IdealWavefronts, 1u);
}

// An array of at most 32 words has each word in a bank of its own (any 32
// consecutive words lie in 32 distinct banks): every request into it, at
// whatever indices, costs its ideal. Checked against the cost of every
// placement of lanes the bound allows that the test enumerates: each lane
// at word (3 L^2 + S) mod 32 of a 128-byte array placed at a base that is
// not 128-byte aligned, for every shift S (many lanes share a word).
TEST(SharedMemory, ArraysOfOneBankRowCannotConflict) {
  EXPECT_TRUE(isConflictFreeFootprint(64, 4));
  EXPECT_TRUE(isConflictFreeFootprint(128, 4));
  EXPECT_TRUE(isConflictFreeFootprint(32, 1));
  EXPECT_FALSE(isConflictFreeFootprint(132, 4));  // word 0 and word 32: one bank
  EXPECT_FALSE(isConflictFreeFootprint(128, 8));  // wider than a bank
  EXPECT_FALSE(isConflictFreeFootprint(0, 4));    // size not known
  SharedMemoryGeometry G80;
  G80.Banks = 16;
  G80.LanesPerPass = 16;
  EXPECT_FALSE(isConflictFreeFootprint(64, 4, G80));  // half-warp passes
  for (unsigned S = 0; S < 32; ++S) {
    WarpAddressSet A(4);
    for (unsigned L = 0; L < 32; ++L)
      A.setLane(L, 96 + 4 * ((3 * L * L + S) % 32));
    SharedRequestCost C = computeSharedRequestCost(A);
    EXPECT_EQ(C.Wavefronts, 1u);
    EXPECT_EQ(C.IdealWavefronts, 1u);
  }
  // Past one row, two words can share a bank: 33 words, lanes 0 and 1 at
  // words 0 and 32.
  WarpAddressSet Past(4);
  Past.setLane(0, 0);
  Past.setLane(1, 128);
  EXPECT_EQ(computeSharedRequestCost(Past).Wavefronts, 2u);
}
