//===- LaunchLimits.h - whether a launch's shape can run at all -----------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The limits a launch must respect to run at all on an architecture (CUDA
/// C++ Programming Guide, "Technical Specifications per Compute
/// Capability"; cudaDeviceProp's maxThreadsPerBlock, maxThreadsDim,
/// maxGridSize, sharedMemPerBlockOptin): a launch beyond them fails with
/// cudaErrorInvalidConfiguration (or cudaErrorInvalidValue) and runs no
/// thread, so it has no occupancy to report.
///
//===----------------------------------------------------------------------===//

#ifndef WARPCHECK_MODEL_LAUNCHLIMITS_H
#define WARPCHECK_MODEL_LAUNCHLIMITS_H

#include "warpcheck/model/Arch.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace warpcheck::model {

/// A launch's extents as the program asks for them: each extent as the
/// unsigned int of dim3 holds it (-1 is 4294967295), the dynamic shared
/// bytes as the size_t of the launch.
struct LaunchRequest {
  std::array<std::uint64_t, 3> Block{{1, 1, 1}};
  /// Absent when the grid is not known.
  std::optional<std::array<std::uint64_t, 3>> Grid;
  std::uint64_t DynamicSharedBytes = 0;
};

/// Why the launch cannot run on \p A, one sentence without a capital or a
/// full stop ("the block (2048, 1, 1) has 2048 threads, over the 1024 a
/// block may have on sm_90"); empty when it can. The first limit broken is
/// named, in the order: a zero extent, a block extent over its axis's
/// limit, the threads of the block, a grid extent, the dynamic shared
/// memory (over what a block may use even after opting in).
std::string whyLaunchCannotRun(const ArchSpec &A, const LaunchRequest &L);

} // namespace warpcheck::model

#endif // WARPCHECK_MODEL_LAUNCHLIMITS_H
