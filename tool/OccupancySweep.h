//===- OccupancySweep.h - occupancy for every block size ------------------===//
//
// The curve CUDA's occupancy calculator draws: the model's computeOccupancy
// for one kernel's registers and shared memory at every block size from one
// warp to the device's limit, in steps of a warp, and the size
// cudaOccupancyMaxPotentialBlockSize would choose. `warpcheck occupancy
// --sweep` prints it; the HTML report draws it for each launch.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_OCCUPANCYSWEEP_H
#define WARPCHECK_TOOL_OCCUPANCYSWEEP_H

#include "warpcheck/model/Arch.h"
#include "warpcheck/model/Occupancy.h"

#include <cstdint>
#include <vector>

namespace warpcheck::tool {

struct OccupancySweep {
  struct Point {
    /// The block size and the resources as computed at it (the dynamic
    /// shared memory grows with the block when given per thread).
    model::KernelResources Resources;
    model::OccupancyResult Result;
  };
  std::vector<Point> Points;
  model::BlockSizeSuggestion Suggested;
};

/// Kernel's ThreadsPerBlock is ignored; with DynamicSharedPerThread not 0,
/// each block size has that many bytes of dynamic shared memory per thread
/// instead of Kernel's DynamicSharedBytes, up to Kernel's
/// MaxDynamicSharedBytes (unset: the runtime's default for a kernel that
/// does not raise it, 48 KB less the static size).
OccupancySweep sweepBlockSizes(const model::ArchSpec &Arch, model::KernelResources Kernel,
                               std::uint64_t DynamicSharedPerThread = 0);

} // namespace warpcheck::tool

#endif
