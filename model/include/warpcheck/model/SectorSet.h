//===- SectorSet.h - the sectors one request touches ----------------------===//
//
// The distinct 32-byte sectors (numbered address / SectorBytes) the active
// lanes of a request touch, a lane straddling a boundary touching both:
// what a load or store request is served in (computeGlobalRequestCost counts
// them), and the unit DRAM moves (AosTraffic unions them over instructions).
// Defined in GlobalMemory.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_MODEL_SECTORSET_H
#define WARPCHECK_MODEL_SECTORSET_H

#include "warpcheck/model/GlobalMemory.h"

#include <cstdint>
#include <set>

namespace warpcheck::model {

std::set<std::uint64_t> touchedSectors(const WarpAddressSet &Request,
                                       const GlobalMemoryGeometry &Geometry = {});

} // namespace warpcheck::model

#endif
