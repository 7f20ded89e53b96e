//===- StructCopy.h - the loads nvcc makes of a copied struct -------------===//
//
// A struct read from memory as a whole (`Body b = bodies[i]`) is not one
// instruction: nvcc copies it in pieces of its alignment, at most 16 bytes
// (an LDG.128 is the widest load). Measured on the H200: float4, 16-byte
// aligned, is one LDG.E.128; a 12-byte struct of floats is three LDG.E
// (compiler-transformations.cu, cuda-aos-layout.cu, aos-soa-refused.cu).
//
// When the copy goes into a local variable of which only some fields are
// read, the fields no one reads are not loaded: NVVM splits the copy into
// its fields (SROA), drops the dead ones, and vectorizes the rest again.
// In each piece (its alignment, at most 16 bytes), from its first byte
// read: one load of the smallest power of two that reaches its last byte
// read, when the position is aligned to it; else the widest load the
// position's alignment allows, and on from the next byte read. Measured on
// the H100 and H200: SHOC's MD kernel reads x, y and z of a
// `double4 ipos = position[idx]` (16-byte aligned): one LDG.E.128 and one
// LDG.E.64 (2.67 sectors per ideal sector); its float4 instance one
// LDG.E.128 (x, y, z: 12 bytes from offset 0, the unread w loaded too);
// test/inputs/struct-copy-fields.cu: w of a double4 one LDG.E.64, x of a
// float4 one LDG.E, y and z of a float4 two LDG.E (no aligned 8-byte load
// starts at 4), fields 0 and 2 of a struct of six floats two LDG.E.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_MODEL_STRUCTCOPY_H
#define WARPCHECK_MODEL_STRUCTCOPY_H

#include "warpcheck/model/SectorFootprint.h"

#include <cstdint>
#include <vector>

namespace warpcheck::model {

/// One load (or store) of a struct copy: Bytes at Offset into the struct.
struct CopyPiece {
  std::uint64_t Offset = 0;
  unsigned Bytes = 0;
  bool operator==(const CopyPiece &O) const { return Offset == O.Offset && Bytes == O.Bytes; }
};

/// The pieces nvcc copies a struct of Size bytes, aligned to Align, in.
/// Read: the bytes of it the code uses (ranges of its fields), or null
/// when all of it may be used; a piece none of whose bytes is read is not
/// loaded. A struct of at most 16 bytes aligned to its size is one piece.
std::vector<CopyPiece> structCopyPieces(std::uint64_t Size, std::uint64_t Align,
                                        const std::vector<ByteRange> *Read = nullptr);

} // namespace warpcheck::model

#endif
