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
    // From the first byte read: one load of the smallest power of two that
    // reaches the last, when the position is aligned to it (x, y, z of a
    // float4: one 16-byte load); else the widest load the position's
    // alignment allows, and on from the next byte read (y, z of a float4:
    // two 4-byte loads, measured).
    std::uint64_t Pos = Begin;
    while (Pos < End) {
      std::uint64_t Width = 1;
      while (Width < End - Pos)
        Width *= 2;
      if (Pos % Width != 0) {
        std::uint64_t Aligned = Pos & (~Pos + 1); // the largest power of two dividing Pos
        while (Width > Aligned || Width > End - Pos)
          Width /= 2;
      }
      Out.push_back({Pos, static_cast<unsigned>(Width)});
      // The next byte read at or after the load's end.
      std::uint64_t Next = End;
      for (const ByteRange &R : *Read) {
        std::uint64_t B = std::max<std::uint64_t>(R.Begin, Pos + Width);
        if (B < std::min<std::uint64_t>(R.End, Off + Chunk))
          Next = std::min(Next, B);
      }
      Pos = Next;
    }
  }
  return Out;
}

} // namespace warpcheck::model
