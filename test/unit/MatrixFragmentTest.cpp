// The stores of a warp matrix accumulator (model/MatrixFragment.h) against
// the offsets nvcc 13's listing shows and the wavefronts and sectors the
// H200 measured (test/hw/inputs/tensor-core-stores.json).
#include "warpcheck/model/GlobalMemory.h"
#include "warpcheck/model/MatrixFragment.h"
#include "warpcheck/model/SharedMemory.h"

#include <gtest/gtest.h>

#include <set>

using namespace warpcheck::model;

namespace {

/// The requests of one fragment store at byte address Base.
std::vector<WarpAddressSet> requests(const AccumulatorFragment &F, bool RowMajor,
                                     std::int64_t Ld, std::uint64_t Base = 0) {
  std::vector<WarpAddressSet> Out;
  auto Stores = accumulatorStores(F, RowMajor);
  if (!Stores)
    return Out;
  for (const FragmentStoreInstruction &I : *Stores) {
    WarpAddressSet S(I.BytesPerLane);
    for (unsigned L = 0; L < 32; ++L)
      S.setLane(L, Base + fragmentElementOffset(I.Row[L], I.Col[L], Ld, RowMajor,
                                                F.ElementBytes));
    Out.push_back(S);
  }
  return Out;
}

unsigned sharedWavefronts(const std::vector<WarpAddressSet> &Rs, unsigned &Ideal) {
  unsigned W = 0;
  Ideal = 0;
  for (const WarpAddressSet &R : Rs) {
    SharedRequestCost C = computeSharedRequestCost(R);
    W += C.Wavefronts;
    Ideal += C.IdealWavefronts;
  }
  return W;
}

} // namespace

TEST(MatrixFragment, EveryElementIsStoredOnce) {
  // Whatever the shape and layout, the stores write the M x N tile exactly.
  struct Case {
    AccumulatorFragment F;
    bool RowMajor;
  } Cases[] = {{{16, 16, 16, 4}, true}, {{16, 16, 16, 4}, false}, {{16, 16, 16, 2}, true},
               {{16, 16, 16, 2}, false}, {{32, 8, 16, 4}, true},  {{8, 32, 16, 4}, true}};
  for (const Case &C : Cases) {
    auto Stores = accumulatorStores(C.F, C.RowMajor);
    ASSERT_TRUE(Stores);
    std::multiset<std::pair<unsigned, unsigned>> Elements;
    for (const FragmentStoreInstruction &I : *Stores)
      for (unsigned L = 0; L < 32; ++L)
        for (unsigned E = 0; E < I.BytesPerLane / C.F.ElementBytes; ++E)
          // The elements after the first are the next ones in memory.
          Elements.insert(C.RowMajor ? std::make_pair(I.Row[L], I.Col[L] + E)
                                     : std::make_pair(I.Row[L] + E, I.Col[L]));
    EXPECT_EQ(Elements.size(), C.F.M * C.F.N) << C.F.M << "x" << C.F.N;
    std::set<std::pair<unsigned, unsigned>> Distinct(Elements.begin(), Elements.end());
    EXPECT_EQ(Distinct.size(), C.F.M * C.F.N);
    for (const auto &[Row, Col] : Elements) {
      EXPECT_LT(Row, C.F.M);
      EXPECT_LT(Col, C.F.N);
    }
  }
}

TEST(MatrixFragment, RowMajorFloatStoresAreTheListingsFourStsDot64) {
  // storeFloatTileRowMajor<128>: STS.64 at p + 0, 0x20, 0x1000, 0x1020 for
  // lane 0 (rows 0 and 8, columns 0 and 8 of 512-byte rows).
  auto Rs = requests({16, 16, 16, 4}, true, 128);
  ASSERT_EQ(Rs.size(), 4u);
  std::set<std::uint64_t> Lane0;
  for (const WarpAddressSet &R : Rs) {
    EXPECT_EQ(R.bytesPerLane(), 8u);
    Lane0.insert(R.address(0));
  }
  EXPECT_EQ(Lane0, (std::set<std::uint64_t>{0x0, 0x20, 0x1000, 0x1020}));
}

TEST(MatrixFragment, SharedWavefrontsAsTheH200Measured) {
  unsigned Ideal = 0;
  // Leading dimension 128 floats: the eight rows in the same banks, 8 per
  // request (2 ideal); 136 floats: 2. Measured 256 and 64 over 32 requests.
  EXPECT_EQ(sharedWavefronts(requests({16, 16, 16, 4}, true, 128), Ideal), 32u);
  EXPECT_EQ(Ideal, 8u);
  EXPECT_EQ(sharedWavefronts(requests({16, 16, 16, 4}, true, 136), Ideal), 8u);
  EXPECT_EQ(Ideal, 8u);
  // Column-major, ld 128: eight 32-bit stores of 4 wavefronts (1 ideal).
  EXPECT_EQ(sharedWavefronts(requests({16, 16, 16, 4}, false, 128), Ideal), 32u);
  EXPECT_EQ(Ideal, 8u);
  // Halves, ld 256 row-major and ld 64 column-major: 8 per request (1).
  EXPECT_EQ(sharedWavefronts(requests({16, 16, 16, 2}, true, 256), Ideal), 32u);
  EXPECT_EQ(Ideal, 4u);
  EXPECT_EQ(sharedWavefronts(requests({16, 16, 16, 2}, false, 64), Ideal), 32u);
  EXPECT_EQ(Ideal, 4u);
  // m32n8k16 and m8n32k16 row-major, ld 128: 8 (2 ideal) and 4 (1).
  EXPECT_EQ(sharedWavefronts(requests({32, 8, 16, 4}, true, 128), Ideal), 32u);
  EXPECT_EQ(Ideal, 8u);
  EXPECT_EQ(sharedWavefronts(requests({8, 32, 16, 4}, true, 128), Ideal), 32u);
  EXPECT_EQ(Ideal, 8u);
}

TEST(MatrixFragment, GlobalStoresOfATileAreFullSectors) {
  // storeFloatTileGlobal, n = 64: row-major 8 sectors per STG.64 (ideal 8),
  // column-major 4 per STG (ideal 4).
  for (bool RowMajor : {true, false})
    for (const WarpAddressSet &R : requests({16, 16, 16, 4}, RowMajor, 64, 1u << 20)) {
      GlobalRequestCost C = computeGlobalRequestCost(R);
      EXPECT_EQ(C.Sectors, RowMajor ? 8u : 4u);
      EXPECT_EQ(C.IdealSectors, C.Sectors);
    }
}

TEST(MatrixFragment, ShapesNotMeasuredAreNotDescribed) {
  EXPECT_FALSE(accumulatorStores({32, 8, 16, 4}, false));
  EXPECT_FALSE(accumulatorStores({8, 32, 16, 2}, true));
  EXPECT_FALSE(accumulatorStores({8, 8, 4, 8}, true)); // double, m8n8k4
  EXPECT_FALSE(accumulatorStores({16, 16, 8, 4}, true)); // tf32 k = 8
}

TEST(MatrixFragment, ConflictFreeLeadingDimension) {
  // Row-major floats: 128 -> 136 (eight rows 32 bytes apart in the banks),
  // as measured (136: 2 wavefronts, ideal 2). Above 136, a half-warp's
  // four rows at 12, 16 and 20 words apart overlap in 32 banks; 152 (24
  // words: rows at banks 0, 24, 16, 8) is the next.
  EXPECT_EQ(conflictFreeLeadingDimension({16, 16, 16, 4}, true, 128), 136);
  EXPECT_EQ(conflictFreeLeadingDimension({16, 16, 16, 4}, true, 136), 152);
  // Column-major floats: columns 2t apart, 132 puts them 8 banks apart.
  EXPECT_EQ(conflictFreeLeadingDimension({16, 16, 16, 4}, false, 128), 132);
  // Halves row-major, 256 -> 264.
  EXPECT_EQ(conflictFreeLeadingDimension({16, 16, 16, 2}, true, 256), 264);
  // The suggestion is conflict-free by the same bank model the H200 held.
  unsigned Ideal = 0;
  EXPECT_EQ(sharedWavefronts(requests({16, 16, 16, 4}, false, 132), Ideal), Ideal);
  EXPECT_FALSE(conflictFreeLeadingDimension({8, 8, 4, 8}, true, 64));
}
