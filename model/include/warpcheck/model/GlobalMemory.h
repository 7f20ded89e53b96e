//===- GlobalMemory.h - sectors and lines of a global-memory request ------===//
//
// Hardware fact (sm_70 and later; CUDA C++ Best Practices Guide, "Coalesced
// Access to Global Memory", and Nsight Compute's l1tex__t_sectors metrics):
// a warp's global load or store is served in 32-byte sectors; a 128-byte
// cache line holds four sectors. The cost of one warp request is the number
// of distinct 32-byte sectors its active lanes touch. The classic model (and
// the seeds in shared/seeds) counts 128-byte transactions (lines); both are
// reported and every number says which one it is.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_MODEL_GLOBALMEMORY_H
#define WARPCHECK_MODEL_GLOBALMEMORY_H

#include "warpcheck/model/WarpAddressSet.h"

#include <cstdint>

namespace warpcheck::model {

struct GlobalMemoryGeometry {
  unsigned SectorBytes = 32;
  unsigned LineBytes = 128;
};

/// What one warp-wide global request costs.
struct GlobalRequestCost {
  /// Distinct 32-byte sectors touched by the active lanes (SectorCount).
  unsigned Sectors = 0;
  /// The fewest sectors that could deliver the bytes requested:
  /// ceil(unique bytes / 32).
  unsigned IdealSectors = 0;
  /// Distinct 128-byte lines touched (the seeds' "transactions").
  unsigned Lines = 0;
  /// ceil(unique bytes / 128).
  unsigned IdealLines = 0;
  /// Bytes the lanes asked for, each counted once.
  std::uint64_t UsefulBytes = 0;

  /// Ideal sectors over sectors moved: bytes used / bytes moved at sector
  /// granularity (a broadcast of one word costs its single sector: 100%).
  double sectorEfficiency() const {
    return Sectors ? double(IdealSectors) / double(Sectors) : 1.0;
  }
  /// The same at 128-byte-line granularity (the seeds' efficiency).
  double lineEfficiency() const {
    return Lines ? double(IdealLines) / double(Lines) : 1.0;
  }
};

GlobalRequestCost computeGlobalRequestCost(const WarpAddressSet &Request,
                                           const GlobalMemoryGeometry &Geometry = {});

} // namespace warpcheck::model

#endif
