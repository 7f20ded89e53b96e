//===- RegisterEstimate.h - registers per thread from live-value counts ---===//
//
// The arithmetic of the register estimate (used when ptxas cannot be run):
// the analysis measures how many 32-bit values a kernel's optimized NVPTX
// IR keeps live at once, twice (in the IR's order, and under a rough model
// of ptxas's scheduling); these functions turn the two counts into the
// count ptxas would report, and apply the caps ptxas honours
// (__launch_bounds__, -maxrregcount).
//
// The slopes and intercepts were fitted to ptxas's counts (sm_90, CUDA
// 13.0) on warpcheck's test inputs and the CUB and Thrust kernels of
// bench/register_estimator.py; NVIDIA's cuda-samples (the script's
// --extra-dir) are held out to check them (docs/checks/cuda-occupancy.rst
// gives both numbers).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_MODEL_REGISTERESTIMATE_H
#define WARPCHECK_MODEL_REGISTERESTIMATE_H

#include "warpcheck/model/Arch.h"

#include <cstdint>
#include <optional>

namespace warpcheck::model {

/// The calibrated register estimate for a kernel whose optimized IR keeps
/// InOrderLiveValues 32-bit values live at most in the IR's order and
/// ScheduledLiveValues under the scheduling model. MaxThreads is the
/// kernel's __launch_bounds__ thread count, if any: ptxas spends spare
/// registers on scheduling only up to the count that keeps as many blocks
/// of that size resident (on sm_90). The count is even below those caps,
/// as ptxas's nearly always is; it lies in [4, 255].
unsigned estimateRegisterCount(unsigned InOrderLiveValues, unsigned ScheduledLiveValues,
                               std::optional<unsigned> MaxThreads = std::nullopt);

/// What capped a register count.
enum class RegisterCapSource {
  /// Nothing: the count is at most every cap.
  None,
  /// __launch_bounds__(MaxThreads[, MinBlocks]).
  LaunchBounds,
  /// -maxrregcount=N.
  MaxRegisterCount,
};

struct CappedRegisters {
  unsigned Registers = 0;
  RegisterCapSource CappedBy = RegisterCapSource::None;
};

/// The caps ptxas applies to a kernel's count on Arch: the architecture's
/// registers per thread; with __launch_bounds__(MaxThreads, MinBlocks) the
/// most registers that keep MinBlocks (default 1) blocks of MaxThreads
/// resident (ptxas ignores a minimum it cannot reach and keeps one block);
/// -maxrregcount. MaxThreads outside (0, Arch.MaxThreadsPerBlock] sets no
/// cap. Where both caps are below the count, -maxrregcount is named only
/// when it is below the launch bounds' cap.
CappedRegisters capRegisterCount(unsigned Registers, const ArchSpec &Arch,
                                 std::optional<std::uint64_t> LaunchBoundsMaxThreads,
                                 std::optional<std::uint64_t> LaunchBoundsMinBlocks,
                                 std::optional<unsigned> MaxRegisterCount);

} // namespace warpcheck::model

#endif
