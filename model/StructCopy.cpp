//===- StructCopy.cpp - the loads nvcc makes of a copied struct -----------===//

#include "warpcheck/model/StructCopy.h"

#include <algorithm>

namespace warpcheck::model {

std::vector<CopyPiece> structCopyPieces(std::uint64_t Size, std::uint64_t Align,
                                        const std::vector<ByteRange> *Read) {
  std::vector<CopyPiece> Out;
  if (Size == 0)
    return Out;
  // LDG.128 is the widest load, and a piece is never wider than the
  // struct's alignment; a struct of at most 16 bytes aligned to its size is
  // one piece.
  std::uint64_t Chunk = std::min<std::uint64_t>(std::max<std::uint64_t>(Align, 1), 16);
  if (Size <= 16 && Align >= Size)
    Chunk = Size;
  for (std::uint64_t Off = 0; Off + Chunk <= Size; Off += Chunk) {
    if (!Read) {
      Out.push_back({Off, static_cast<unsigned>(Chunk)});
      continue;
    }
    // The span of the bytes read in this piece.
    std::uint64_t Begin = Off + Chunk, End = Off;
    for (const ByteRange &R : *Read) {
      std::uint64_t B = std::max<std::uint64_t>(R.Begin, Off);
      std::uint64_t E = std::min<std::uint64_t>(R.End, Off + Chunk);
      if (B < E) {
        Begin = std::min(Begin, B);
        End = std::max(End, E);
      }
    }
    if (Begin >= End)
      continue; // nothing of it read: not loaded
    // The smallest aligned power of two that covers the span (within the
    // piece, itself an aligned power of two).
    std::uint64_t Width = 1;
    while (Width < End - Begin)
      Width *= 2;
    std::uint64_t Start = Begin - Begin % Width;
    while (Start + Width < End) {
      Width *= 2;
      Start = Begin - Begin % Width;
    }
    if (Width >= Chunk) {
      Width = Chunk;
      Start = Off;
    }
    Out.push_back({Start, static_cast<unsigned>(Width)});
  }
  return Out;
}

} // namespace warpcheck::model
