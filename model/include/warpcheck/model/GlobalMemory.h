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

/// Loads and stores are served once per distinct sector. Atomics and
/// reductions (ATOMG, REDG) are serialised over lanes that name the same
/// address: measured on the H200 (test/hw/global_patterns.json), 32 lanes
/// adding to one word cost 32 sectors, pairs of lanes sharing addresses over
/// 64 bytes cost 4 (2 rounds of 2 sectors).
enum class GlobalAccessKind { LoadOrStore, Atomic };

GlobalRequestCost computeGlobalRequestCost(const WarpAddressSet &Request,
                                           const GlobalMemoryGeometry &Geometry = {},
                                           GlobalAccessKind Kind = GlobalAccessKind::LoadOrStore);

} // namespace warpcheck::model

#endif
