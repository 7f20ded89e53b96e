//===- MatrixFragment.h - the stores of a warp matrix accumulator ---------===//
//
// nvcuda::wmma::store_matrix_sync writes a warp's accumulator fragment to
// memory. The CUDA C++ Programming Guide ("Warp Matrix Functions") leaves
// which lane holds which element unspecified; on sm_80 and sm_90 nvcc
// builds the 16x16x16 shape from two m16n8k16 mma tiles, and the elements a
// lane holds are those of the PTX ISA's m16n8k16 accumulator layout (PTX ISA
// "Matrix Fragments for mma.m16n8k16"): lane l, group g = l / 4, thread in
// group t = l % 4, holds rows g and g + 8 of each 8-column tile, columns
// 2t and 2t + 1. For 32-bit stores the lane a word comes from does not
// change the count (banks and sectors see the set of words); for 64-bit
// ones it does (a half-warp at a time), and the layout above is what the
// listing's offsets show.
//
// The instructions nvcc 13 emits for sm_90 and what the H200 measured are
// in test/hw/inputs/tensor-core-stores.json and the listing in test/hw/sass/:
// row-major, the two adjacent columns of a 32-bit element are one 64-bit
// store (STS.64 or STG.64, four per fragment), a pair of halves one 32-bit
// store (four); column-major, every 32-bit element is a store of its own
// (eight), and halves are transposed across the lanes first so that a pair
// is two rows of a column. A leading dimension of 128 floats puts the eight
// rows a row-major store writes in the same banks (8 wavefronts per
// request, 2 ideal); 136 floats spreads them (2).
//
// Described: m16n16k16 with 32-bit (float, int) or 16-bit (half) elements,
// either layout; m32n8k16 and m8n32k16 with 32-bit elements, row-major.
// Not described (not measured): their column-major and 16-bit forms,
// double and the sub-byte shapes.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_MODEL_MATRIXFRAGMENT_H
#define WARPCHECK_MODEL_MATRIXFRAGMENT_H

#include <cstdint>
#include <optional>
#include <vector>

namespace warpcheck::model {

/// One store instruction of a fragment store: lane l writes BytesPerLane
/// bytes starting at element (Row[l], Col[l]) of the tile.
struct FragmentStoreInstruction {
  unsigned BytesPerLane = 0;
  unsigned Row[32] = {};
  unsigned Col[32] = {};
};

/// The accumulator fragment a store writes: shape M x N and element size.
struct AccumulatorFragment {
  unsigned M = 0, N = 0, K = 0;
  unsigned ElementBytes = 0;
};

/// The store instructions of store_matrix_sync for Fragment, row-major or
/// column-major, one entry per instruction nvcc emits; nullopt for a shape or
/// element size the model does not describe.
std::optional<std::vector<FragmentStoreInstruction>>
accumulatorStores(const AccumulatorFragment &Fragment, bool RowMajor);

/// The smallest leading dimension above Ld (in steps of 16 bytes, the
/// alignment store_matrix_sync requires of it, up to 128 bytes more) with
/// which every store of Fragment costs its ideal wavefronts in shared
/// memory (where the tile starts only rotates the banks); nullopt when none
/// does or the fragment is not described.
std::optional<std::int64_t> conflictFreeLeadingDimension(const AccumulatorFragment &Fragment,
                                                         bool RowMajor, std::int64_t Ld);

/// The byte offset of element (Row, Col) from the tile's start, with a
/// leading dimension of Ld elements.
inline std::int64_t fragmentElementOffset(unsigned Row, unsigned Col, std::int64_t Ld,
                                          bool RowMajor, unsigned ElementBytes) {
  return (RowMajor ? Row * Ld + Col : Col * Ld + Row) * std::int64_t(ElementBytes);
}

} // namespace warpcheck::model

#endif
