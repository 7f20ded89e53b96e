// The array-of-structs model against the seeds' particle (shared/seeds/000,
// "Array-of-Structures vs Structure-of-Arrays") and sector arithmetic done
// by hand. The seeds count 128-byte transactions; the H200 serves 32-byte
// sectors (docs/hardware-model.md): both are checked where the seed says one.
#include "warpcheck/model/AosTraffic.h"

#include <gtest/gtest.h>

using namespace warpcheck::model;

namespace {

/// Lane L accesses element First + L of an array of StructBytes-byte
/// elements starting at a 256-byte boundary.
StructAccessPattern pattern(std::uint64_t StructBytes, std::vector<StructScalar> Scalars,
                            std::uint64_t First = 0) {
  StructAccessPattern P;
  P.StructBytes = StructBytes;
  P.Elements = WarpAddressSet::strided(First * StructBytes, StructBytes, 1);
  P.Scalars = std::move(Scalars);
  return P;
}

std::vector<StructScalar> floats(unsigned Count) {
  std::vector<StructScalar> Out;
  for (unsigned I = 0; I < Count; ++I)
    Out.push_back({4 * I, 4});
  return Out;
}

/// The seed's struct Particle { float x, y, z, vx, vy, vz; }: 24 bytes.
StructAccessPattern particleLoads(unsigned Fields) {
  StructAccessPattern P = pattern(24, floats(6));
  for (unsigned F = 0; F < Fields; ++F)
    P.Instructions.push_back({4 * F, 4, false});
  return P;
}

} // namespace

TEST(AosTraffic, ParticleOneFieldIsSixTransactionsAt16Point7Percent) {
  // Seed: one field spans 768 bytes, 6 lines of 128 bytes, 128 bytes used.
  // In sectors: 24 touched for 4 (floor(24 L / 32) takes 24 values).
  AosTraffic T = computeAosTraffic(particleLoads(1));
  EXPECT_EQ(T.Loads.L1Sectors, 24u);
  EXPECT_EQ(T.Loads.L1Sectors / 4, 6u); // 4 sectors a line: the seed's 6
  EXPECT_EQ(T.Loads.SoaL1Sectors, 4u);
  EXPECT_NEAR(T.l1Efficiency(), 1.0 / 6.0, 1e-12);
  // DRAM: the 24 sectors are fetched for 128 useful bytes: 6x.
  EXPECT_EQ(T.Loads.DramBytes, 768u);
  EXPECT_EQ(T.Loads.SoaDramBytes, 128u);
  EXPECT_EQ(T.Loads.UsefulBytes, 128u);
  EXPECT_NEAR(T.dramEfficiency(), 1.0 / 6.0, 1e-12);
  EXPECT_TRUE(T.Stores.empty());
}

TEST(AosTraffic, ParticleAllSixFieldsIs36TransactionsAgainst6) {
  AosTraffic T = computeAosTraffic(particleLoads(6));
  // Seed: 6 fields x 6 transactions = 36 against 6 x 1 = 6; in sectors
  // 144 against 24.
  EXPECT_EQ(T.l1Sectors(), 144u);
  EXPECT_EQ(T.soaL1Sectors(), 24u);
  EXPECT_EQ(T.l1Sectors() / 4, 36u);
  EXPECT_EQ(T.soaL1Sectors() / 4, 6u);
  // Every byte of the 768 is used: DRAM moves what SoA moves (the waste is
  // at L1 only, as the H200 measured).
  EXPECT_EQ(T.dramBytes(), 768u);
  EXPECT_EQ(T.soaDramBytes(), 768u);
  EXPECT_DOUBLE_EQ(T.dramEfficiency(), 1.0);
  EXPECT_FALSE(T.Vector); // 24 bytes: no single vector instruction
}

TEST(AosTraffic, ThreeFieldsOfTheParticleAsTheIssueSays) {
  // x, y, z: 72 sectors per warp, 12 as SoA (16.7%). Each element's first
  // 12 bytes touch every sector of the 768-byte span: 768 DRAM bytes for
  // 384 that SoA moves.
  AosTraffic T = computeAosTraffic(particleLoads(3));
  EXPECT_EQ(T.l1Sectors(), 72u);
  EXPECT_EQ(T.soaL1Sectors(), 12u);
  EXPECT_EQ(T.dramBytes(), 768u);
  EXPECT_EQ(T.soaDramBytes(), 384u);
  EXPECT_DOUBLE_EQ(T.dramEfficiency(), 0.5);
}

TEST(AosTraffic, LoadsAndStoresAreCountedApart) {
  // Read x, write vz of the particle.
  StructAccessPattern P = pattern(24, floats(6));
  P.Instructions = {{0, 4, false}, {20, 4, true}};
  AosTraffic T = computeAosTraffic(P);
  EXPECT_EQ(T.Loads.L1Sectors, 24u);
  EXPECT_EQ(T.Stores.L1Sectors, 24u);
  EXPECT_EQ(T.Stores.SoaL1Sectors, 4u);
  EXPECT_EQ(T.Stores.DramBytes, 768u);
  EXPECT_EQ(T.Loads.Instructions, 1u);
  EXPECT_EQ(T.Stores.Instructions, 1u);
}

TEST(AosTraffic, TwelveByteStructCopyIsThreeTimesTheSectorsAndPadsToFloat4) {
  // A whole 12-byte struct of floats is copied with three 4-byte loads
  // (its alignment is 4): lanes 12 bytes apart span 384 bytes, 12 sectors
  // each load; SoA reads three coalesced arrays of 4 sectors.
  StructAccessPattern P = pattern(12, floats(3));
  P.Instructions = {{0, 4, false}, {4, 4, false}, {8, 4, false}};
  AosTraffic T = computeAosTraffic(P);
  EXPECT_EQ(T.l1Sectors(), 36u);
  EXPECT_EQ(T.soaL1Sectors(), 12u);
  EXPECT_EQ(T.dramBytes(), 384u);
  EXPECT_EQ(T.soaDramBytes(), 384u);
  // Padded to 16 bytes and read with one LDG.128: 512 bytes, 16 sectors.
  ASSERT_TRUE(T.Vector);
  EXPECT_EQ(T.Vector->VectorBytes, 16u);
  EXPECT_EQ(T.Vector->PaddingBytes, 4u);
  EXPECT_EQ(T.Vector->L1Sectors, 16u);
  EXPECT_EQ(T.Vector->DramBytes, 512u);
}

TEST(AosTraffic, EightByteStructAsOneFloat2Load) {
  // struct { float a, b; } read field by field: 2 x 8 sectors; as float2:
  // 8 sectors, what SoA reads.
  StructAccessPattern P = pattern(8, floats(2));
  P.Instructions = {{0, 4, false}, {4, 4, false}};
  AosTraffic T = computeAosTraffic(P);
  EXPECT_EQ(T.l1Sectors(), 16u);
  EXPECT_EQ(T.soaL1Sectors(), 8u);
  ASSERT_TRUE(T.Vector);
  EXPECT_EQ(T.Vector->VectorBytes, 8u);
  EXPECT_EQ(T.Vector->PaddingBytes, 0u);
  EXPECT_EQ(T.Vector->L1Sectors, 8u);
}

TEST(AosTraffic, AlignedSixteenByteCopyCostsWhatSoaCosts) {
  // An __align__(16) struct of four floats copied whole is one LDG.128:
  // 16 sectors, as the four SoA arrays.
  StructAccessPattern P = pattern(16, floats(4));
  P.Instructions = {{0, 16, false}};
  AosTraffic T = computeAosTraffic(P);
  EXPECT_EQ(T.l1Sectors(), 16u);
  EXPECT_EQ(T.soaL1Sectors(), 16u);
  EXPECT_DOUBLE_EQ(T.l1Efficiency(), 1.0);
}

TEST(AosTraffic, FortyEightByteStructOneFieldEveryLaneItsOwnSector) {
  // Lanes 48 bytes apart: 32 sectors for one float; SoA 4. No vector form.
  StructAccessPattern P = pattern(48, floats(12));
  P.Instructions = {{8, 4, false}};
  AosTraffic T = computeAosTraffic(P);
  EXPECT_EQ(T.l1Sectors(), 32u);
  EXPECT_EQ(T.soaL1Sectors(), 4u);
  EXPECT_EQ(T.dramBytes(), 1024u);
  EXPECT_FALSE(T.Vector);
}

TEST(AosTraffic, PartialWarpAndShiftedElements) {
  // 16 active lanes starting at element 1 of a 24-byte struct: bytes
  // 24..383 of x; SoA x[1..16]: bytes 4..67, 3 sectors.
  StructAccessPattern P = pattern(24, floats(6));
  P.Elements = WarpAddressSet::strided(24, 24, 1, 16);
  P.Instructions = {{0, 4, false}};
  AosTraffic T = computeAosTraffic(P);
  EXPECT_EQ(T.Loads.SoaL1Sectors, 3u);
  // floor((24 + 24 L) / 32), L = 0..15: 0, 1, 2, 3, 3, 4, ... 12: 13 values.
  EXPECT_EQ(T.Loads.L1Sectors, 13u);
  EXPECT_EQ(T.Loads.UsefulBytes, 64u);
}

TEST(AosTraffic, VectorWidths) {
  EXPECT_FALSE(vectorBytesFor(4));
  EXPECT_EQ(vectorBytesFor(6), 8u);
  EXPECT_EQ(vectorBytesFor(8), 8u);
  EXPECT_EQ(vectorBytesFor(12), 16u);
  EXPECT_EQ(vectorBytesFor(16), 16u);
  EXPECT_FALSE(vectorBytesFor(24));
}
