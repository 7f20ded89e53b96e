//===- AosTraffic.h - an array of structs against structure of arrays ----===//
//
// What one warp's accesses to an array of structs cost, as laid out and as
// structure of arrays (SoA) would lay the same fields out, at the two levels
// the hardware distinguishes:
//
// - L1: sectors per request, summed over the warp's instructions (what
//   computeGlobalRequestCost counts, Nsight Compute's
//   l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}). Lanes 24 bytes apart
//   reading 4 bytes each touch 24 sectors for 4 useful ones (the seeds' "6
//   transactions, 16.7%" in 128-byte lines, shared/seeds/000).
// - DRAM: each sector the warp touches is fetched once; the other fields'
//   loads of the same elements hit in L1 (measured on the H200 for a 24-byte
//   particle, issue #15: all six fields read move the DRAM bytes SoA moves
//   but 6x its L1 sectors; one field moves 6x the DRAM bytes it uses).
//
// Loads and stores are counted apart. Every count goes through
// computeGlobalRequestCost on a WarpAddressSet: nothing here counts
// sectors itself.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_MODEL_AOSTRAFFIC_H
#define WARPCHECK_MODEL_AOSTRAFFIC_H

#include "warpcheck/model/GlobalMemory.h"
#include "warpcheck/model/WarpAddressSet.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace warpcheck::model {

/// A scalar of the struct (a field, a field of a nested struct, an element
/// of an array inside it): what SoA would give an array of its own.
struct StructScalar {
  std::uint64_t Offset = 0;
  unsigned Bytes = 0;
};

/// One memory instruction of the warp on the struct, as emitted: a field
/// read or written, or one piece of a whole-struct copy.
struct StructInstruction {
  std::uint64_t Offset = 0;
  unsigned Bytes = 0;
  bool Store = false;
};

struct StructAccessPattern {
  std::uint64_t StructBytes = 0;
  /// Lane -> byte address of the element it accesses, relative to an
  /// allocation that starts on a 256-byte boundary (as cudaMalloc returns);
  /// bytesPerLane() is ignored.
  WarpAddressSet Elements{1};
  /// The scalars of the struct (all of them, in offset order).
  std::vector<StructScalar> Scalars;
  std::vector<StructInstruction> Instructions;
};

/// One direction's traffic per warp.
struct LayoutTraffic {
  /// Sectors per warp at L1: as laid out, and as SoA.
  unsigned L1Sectors = 0, SoaL1Sectors = 0;
  /// Bytes per warp at DRAM, each sector once: as laid out, and as SoA.
  std::uint64_t DramBytes = 0, SoaDramBytes = 0;
  /// Bytes the lanes use (each scalar once per lane).
  std::uint64_t UsefulBytes = 0;
  unsigned Instructions = 0;
  bool empty() const { return Instructions == 0; }
};

/// The struct moved whole with one vector instruction per element
/// (float2/float4, LDG.64/LDG.128), padded to VectorBytes when smaller.
struct VectorAlternative {
  unsigned VectorBytes = 0;
  /// Bytes of padding per element (16-byte vector for a 12-byte struct: 4).
  unsigned PaddingBytes = 0;
  /// Per warp, loads and stores together.
  unsigned L1Sectors = 0;
  std::uint64_t DramBytes = 0;
};

struct AosTraffic {
  LayoutTraffic Loads, Stores;
  std::optional<VectorAlternative> Vector;

  unsigned l1Sectors() const { return Loads.L1Sectors + Stores.L1Sectors; }
  unsigned soaL1Sectors() const { return Loads.SoaL1Sectors + Stores.SoaL1Sectors; }
  std::uint64_t dramBytes() const { return Loads.DramBytes + Stores.DramBytes; }
  std::uint64_t soaDramBytes() const { return Loads.SoaDramBytes + Stores.SoaDramBytes; }
  /// SoA's sectors over the layout's, at L1 and at DRAM (1 when equal).
  double l1Efficiency() const;
  double dramEfficiency() const;
};

/// The traffic of Pattern both ways, and the vector alternative for a
/// struct of at most 16 bytes that every instruction reads or writes in
/// one direction.
AosTraffic computeAosTraffic(const StructAccessPattern &Pattern,
                             const GlobalMemoryGeometry &Geometry = {});

/// The vector width a struct of StructBytes can be moved with in one
/// instruction per lane: 8 or 16 (padded up to it), none above 16 bytes or
/// for 4 bytes and less (already one scalar).
std::optional<unsigned> vectorBytesFor(std::uint64_t StructBytes);

} // namespace warpcheck::model

#endif
