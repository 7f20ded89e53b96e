//===- MatrixFragment.cpp - the stores of a warp matrix accumulator -------===//
//
// Every case below is one the H200 measured (test/hw/inputs/
// tensor-core-stores.json) and nvcc 13's listing shows (test/hw/sass/
// tensor-core-stores.nvdisasm.txt: the offsets of the stores from the
// tile's start name the rows and columns each one writes).
//
//===----------------------------------------------------------------------===//

#include "warpcheck/model/MatrixFragment.h"
#include "warpcheck/model/SharedMemory.h"

namespace warpcheck::model {

namespace {

/// One store of every lane: BytesPerLane at (Row(g, t), Col(g, t)), with g
/// the lane's group (lane / 4) and t its place in the group (lane % 4).
template <typename RowOf, typename ColOf>
FragmentStoreInstruction store(unsigned BytesPerLane, RowOf Row, ColOf Col) {
  FragmentStoreInstruction I;
  I.BytesPerLane = BytesPerLane;
  for (unsigned Lane = 0; Lane < 32; ++Lane) {
    unsigned G = Lane / 4, T = Lane % 4;
    I.Row[Lane] = Row(G, T);
    I.Col[Lane] = Col(G, T);
  }
  return I;
}

} // namespace

std::optional<std::vector<FragmentStoreInstruction>>
accumulatorStores(const AccumulatorFragment &Fragment, bool RowMajor) {
  const unsigned M = Fragment.M, N = Fragment.N, K = Fragment.K, E = Fragment.ElementBytes;
  if (K != 16)
    return std::nullopt;
  std::vector<FragmentStoreInstruction> Out;
  if (M == 16 && N == 16 && E == 4) {
    // Two m16n8 tiles: rows g and g + 8, columns 2t and 2t + 1 of each.
    // Row-major the pair is one 64-bit store (STS.64 [p + 0, 0x20,
    // 8 * ld * 4, + 0x20]); column-major each element is one (8 STS).
    for (unsigned Tile = 0; Tile < 2; ++Tile)
      for (unsigned Half = 0; Half < 2; ++Half)
        for (unsigned Pair = 0; Pair < (RowMajor ? 1u : 2u); ++Pair)
          Out.push_back(store(
              RowMajor ? 8 : 4, [&](unsigned G, unsigned) { return G + 8 * Half; },
              [&](unsigned, unsigned T) { return 8 * Tile + 2 * T + Pair; }));
    return Out;
  }
  if (M == 16 && N == 16 && E == 2) {
    // Halves in pairs, one 32-bit store a pair (4 STS). Row-major the pair
    // is two columns of a row, as for 32-bit elements; column-major nvcc
    // first transposes each 8x8 block across the lanes, and the pair is two
    // rows of a column (offsets 0, 16 bytes, 8 * ld * 2): lane (g, t) holds
    // rows 2t and 2t + 1 of column g.
    for (unsigned Tile = 0; Tile < 2; ++Tile)
      for (unsigned Half = 0; Half < 2; ++Half) {
        if (RowMajor)
          Out.push_back(store(
              4, [&](unsigned G, unsigned) { return G + 8 * Half; },
              [&](unsigned, unsigned T) { return 8 * Tile + 2 * T; }));
        else
          Out.push_back(store(
              4, [&](unsigned, unsigned T) { return 8 * Half + 2 * T; },
              [&](unsigned G, unsigned) { return 8 * Tile + G; }));
      }
    return Out;
  }
  if (M == 32 && N == 8 && E == 4 && RowMajor) {
    // Two m16n8 tiles one above the other: rows g + 8i, columns 2t, 2t + 1
    // (STS.64 at p + 8i * ld * 4).
    for (unsigned Band = 0; Band < 4; ++Band)
      Out.push_back(store(
          8, [&](unsigned G, unsigned) { return G + 8 * Band; },
          [&](unsigned, unsigned T) { return 2 * T; }));
    return Out;
  }
  if (M == 8 && N == 32 && E == 4 && RowMajor) {
    // The transpose of m32n8: rows 2t and 2t + 1, columns g + 8j, every
    // element a 32-bit store (STS at p + row * ld * 4 + 8j * 4).
    for (unsigned Band = 0; Band < 4; ++Band)
      for (unsigned Row = 0; Row < 2; ++Row)
        Out.push_back(store(
            4, [&](unsigned, unsigned T) { return 2 * T + Row; },
            [&](unsigned G, unsigned) { return G + 8 * Band; }));
    return Out;
  }
  return std::nullopt;
}

std::optional<std::int64_t> conflictFreeLeadingDimension(const AccumulatorFragment &Fragment,
                                                         bool RowMajor, std::int64_t Ld) {
  auto Stores = accumulatorStores(Fragment, RowMajor);
  if (!Stores || Ld <= 0)
    return std::nullopt;
  const std::int64_t Step = 16 / Fragment.ElementBytes;
  for (std::int64_t Candidate = (Ld / Step + 1) * Step;
       Candidate <= Ld + 128 / std::int64_t(Fragment.ElementBytes); Candidate += Step) {
    bool Ideal = true;
    for (const FragmentStoreInstruction &I : *Stores) {
      WarpAddressSet S(I.BytesPerLane);
      for (unsigned L = 0; L < 32; ++L)
        S.setLane(L, static_cast<std::uint64_t>(fragmentElementOffset(
                         I.Row[L], I.Col[L], Candidate, RowMajor, Fragment.ElementBytes)));
      SharedRequestCost C = computeSharedRequestCost(S);
      Ideal = Ideal && C.Wavefronts == C.IdealWavefronts;
    }
    if (Ideal)
      return Candidate;
  }
  return std::nullopt;
}

} // namespace warpcheck::model
