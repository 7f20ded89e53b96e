// The distinct sectors a launch touches, from one block's byte ranges and
// the translations that give the other blocks (model/SectorFootprint.h),
// against counts done by hand.
#include "warpcheck/model/SectorFootprint.h"

#include <gtest/gtest.h>

using namespace warpcheck::model;

namespace {

std::optional<std::uint64_t> count(std::vector<TranslatedRanges> Parts,
                                   std::uint64_t MaxPlacements = 1 << 24) {
  SectorFootprint F(MaxPlacements, std::uint64_t(1) << 32);
  for (TranslatedRanges &P : Parts)
    F.add(std::move(P));
  return F.distinctSectors();
}

TEST(SectorFootprintTest, MergesRanges) {
  auto M = mergedRanges({{8, 12}, {0, 4}, {4, 8}, {20, 24}, {22, 30}, {40, 40}});
  ASSERT_EQ(M.size(), 2u);
  EXPECT_EQ(M[0], (ByteRange{0, 12}));
  EXPECT_EQ(M[1], (ByteRange{20, 30}));
}

TEST(SectorFootprintTest, StreamingBlocksTileTheArray) {
  // 256 floats per block, 1000 blocks: 1,024,000 bytes, 32,000 sectors.
  EXPECT_EQ(count({{{{0, 1024}}, {{1024, 1000}}}}), 32000u);
}

TEST(SectorFootprintTest, OverlappingHalosAreCountedOnce) {
  // A 1-D stencil block reads its 256 floats and one on each side: blocks
  // overlap by 8 bytes; 4 blocks cover bytes -4 to 4100, sectors -1 to 128.
  EXPECT_EQ(count({{{{-4, 1028}}, {{1024, 4}}}}), 130u);
}

TEST(SectorFootprintTest, MisalignedSteps) {
  // 100-byte blocks, 10 of them: bytes 0 to 999, sectors 0 to 31.
  EXPECT_EQ(count({{{{0, 100}}, {{100, 10}}}}), 32u);
  // 4 bytes every 64 bytes: one sector each.
  EXPECT_EQ(count({{{{0, 4}}, {{64, 100}}}}), 100u);
  // 4 bytes every 16 bytes: two per sector.
  EXPECT_EQ(count({{{{0, 4}}, {{16, 100}}}}), 50u);
}

TEST(SectorFootprintTest, NaiveMatmulReadsEachMatrixOnce) {
  // B is K x N floats; a (32, 8) block reads a 128-byte column strip of
  // every row; blocks along x step 128 bytes, along y read the same strip.
  const std::int64_t K = 64, N = 256, M = 512;
  TranslatedRanges B;
  for (std::int64_t Row = 0; Row < K; ++Row)
    B.Ranges.push_back({Row * N * 4, Row * N * 4 + 128});
  B.Axes = {{128, N / 32}, {0, M / 8}};
  EXPECT_EQ(B.placements(), std::uint64_t(K * N / 32));
  EXPECT_EQ(count({B}), std::uint64_t(K * N * 4 / 32));
  // A is M x K: a block reads 8 whole rows, blocks along y the next 8.
  TranslatedRanges A{{{0, 8 * K * 4}}, {{0, N / 32}, {8 * K * 4, M / 8}}};
  EXPECT_EQ(count({A}), std::uint64_t(M * K * 4 / 32));
  // Both into one count: they are different allocations in practice, but
  // apart in one they add up.
  TranslatedRanges Shifted = A;
  for (ByteRange &R : Shifted.Ranges) {
    R.Begin += 1 << 30;
    R.End += 1 << 30;
  }
  EXPECT_EQ(count({B, Shifted}), std::uint64_t((K * N + M * K) * 4 / 32));
}

TEST(SectorFootprintTest, NegativeStepsAndEmpty) {
  EXPECT_EQ(count({{{{0, 32}}, {{-32, 10}}}}), 10u);
  EXPECT_EQ(count({}), 0u);
}

TEST(SectorFootprintTest, LimitsGiveNoCount) {
  // 1000 placements allowed, 2000 asked.
  EXPECT_EQ(count({{{{0, 4}}, {{64, 2000}}}}, 1000), std::nullopt);
  SectorFootprint Small(1 << 20, 100);
  Small.add({{{0, 32 * 101}}, {}});
  EXPECT_EQ(Small.distinctSectors(), std::nullopt);
}

} // namespace

namespace {

SectorFootprint::Count countBoth(std::vector<TranslatedRanges> Parts) {
  SectorFootprint F(1 << 24, std::uint64_t(1) << 32);
  for (TranslatedRanges &P : Parts)
    F.add(std::move(P));
  return F.count().value_or(SectorFootprint::Count{});
}

} // namespace

// Sectors whose bytes the ranges do not cover whole: those the L2 reads
// from DRAM before writing back (test/hw/partial_sector_writes.json).
TEST(SectorFootprintTest, SectorsWrittenInPart) {
  // One float per block, blocks adjacent (the sum reduction's partial
  // sums): 8 blocks fill each sector, none is partial.
  SectorFootprint::Count Adjacent = countBoth({{{{0, 4}}, {{4, 1024}}}});
  EXPECT_EQ(Adjacent.Sectors, 128u);
  EXPECT_EQ(Adjacent.PartialSectors, 0u);
  // One float every 256 bytes (partial_sector_writes.cu's strided): every
  // sector touched is partial.
  SectorFootprint::Count Strided = countBoth({{{{0, 4}}, {{256, 1000}}}});
  EXPECT_EQ(Strided.Sectors, 1000u);
  EXPECT_EQ(Strided.PartialSectors, 1000u);
  // One range from byte 2 to 70: whole sector 1, partial sectors 0 and 2.
  SectorFootprint::Count Ragged = countBoth({{{{2, 70}}, {}}});
  EXPECT_EQ(Ragged.Sectors, 3u);
  EXPECT_EQ(Ragged.PartialSectors, 2u);
  // Two blocks' halves of each sector, the second shifted by 16 bytes:
  // together whole.
  SectorFootprint::Count Halves = countBoth({{{{0, 16}}, {{32, 64}}}, {{{16, 32}}, {{32, 64}}}});
  EXPECT_EQ(Halves.Sectors, 64u);
  EXPECT_EQ(Halves.PartialSectors, 0u);
  EXPECT_FALSE(Halves.PartialSectorsCapped);
}

// A naive transpose's stores: each block writes one column of 1,100 rows
// of 8,192 floats, four bytes per row, and the 8 blocks of adjacent columns
// fill each sector between them. More than 2^20 sectors are partly written
// until their last column comes; the union is whole, none written in part.
TEST(SectorFootprintTest, ColumnsFillTheirSectorsTogether) {
  TranslatedRanges Column;
  for (std::int64_t Row = 0; Row < 1100; ++Row)
    Column.Ranges.push_back({Row * 8192 * 4, Row * 8192 * 4 + 4});
  Column.Axes = {{4, 8192}};
  SectorFootprint::Count C = countBoth({Column});
  EXPECT_EQ(C.Sectors, 1100u * 1024);
  EXPECT_EQ(C.PartialSectors, 0u);
  EXPECT_FALSE(C.PartialSectorsCapped);
  // The same columns but the last of every eight: every sector partial.
  Column.Axes = {{32, 1024}};
  Column.Ranges.clear();
  for (std::int64_t Row = 0; Row < 1100; ++Row)
    Column.Ranges.push_back({Row * 8192 * 4, Row * 8192 * 4 + 28});
  SectorFootprint::Count Seven = countBoth({Column});
  EXPECT_EQ(Seven.Sectors, 1100u * 1024);
  EXPECT_EQ(Seven.PartialSectors, 1100u * 1024);
}

// A span beyond the masks per sector (2^24 sectors): the partial sectors
// are followed one by one.
TEST(SectorFootprintTest, PartialSectorsOfAWideSpan) {
  SectorFootprint::Count C =
      countBoth({{{{0, 4}, {std::int64_t(1) << 30, (std::int64_t(1) << 30) + 64}}, {}}});
  EXPECT_EQ(C.Sectors, 3u);
  EXPECT_EQ(C.PartialSectors, 1u);
  EXPECT_EQ(C.PartialSectorNumbers, (std::vector<std::int64_t>{0}));
  EXPECT_FALSE(C.PartialSectorsCapped);
}
