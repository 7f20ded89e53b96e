//===- RegisterEstimate.cpp - registers per thread from live-value counts -===//
//
// The calibration and the caps of the register estimate; the live-value
// counts it starts from are measured by the analysis
// (analysis/registers/PressureModel.cpp).
//
//===----------------------------------------------------------------------===//
#include "warpcheck/model/RegisterEstimate.h"

#include "warpcheck/model/Occupancy.h"

#include <algorithm>
#include <cmath>

namespace warpcheck::model {

namespace {
/// The calibration of the estimate (see estimateRegisterCount): fitted to
/// ptxas's counts (sm_90, CUDA 13.0) on warpcheck's test inputs and the
/// CUB and Thrust kernels of bench/register_estimator.py; NVIDIA's
/// cuda-samples (the script's --extra-dir) are held out to check it
/// (docs/checks/cuda-occupancy.rst gives both numbers).
constexpr double ScheduledSlope = 1.1;
constexpr double ScheduledIntercept = 3.0;
constexpr double InOrderSlope = 0.8;
constexpr double InOrderIntercept = 0.0;
/// Under __launch_bounds__, ptxas settles on the most registers of a tier
/// of resident blocks; the tier follows its need, which the larger of the
/// in-order count and this share of the scheduled measure stands for
/// (CUB's sweep kernels: 56 registers for 384 threads where the in-order
/// count alone points at the 40-register tier).
constexpr double TierScheduledShare = 0.8;
/// ptxas's count is even for 245 of the 269 kernels of the register bench
/// (123 of 125 test inputs, 30 of 34 CCCL, 92 of 110 cuda-samples; sm_90,
/// CUDA 13.0; 152 of the 158 in test/hw/registers/sass_register_use.csv):
/// it is the highest register index the SASS uses plus 3, and the highest
/// register is nearly always the odd upper half of a 64-bit pair
/// (addresses, wide loads and stores sit in even-aligned pairs R2:R3,
/// R4:R5, ...). So the estimate is rounded up to a multiple of this before
/// the occupancy caps, which are multiples of 8 themselves.
constexpr long ReportedCountStep = 2;
/// Without __launch_bounds__, ptxas lets a kernel that fits in this many
/// registers use up to it for scheduling freedom, and no more.
constexpr unsigned SoftTarget = 32;
/// ptxas never reports fewer (an empty kernel on sm_90).
constexpr long MinimumRegisters = 4;
/// Nor fewer for a kernel that computes anything: a 64-bit address pair,
/// the value, the thread index and R1 (the stack pointer ptxas always
/// reserves) come to 8 for the smallest load or store on sm_90.
constexpr long MinimumWorkingRegisters = 8;
/// The most registers a thread can have (sm_20 and later).
constexpr long MaximumRegisters = 255;
} // namespace

unsigned estimateRegisterCount(unsigned InOrderLiveValues, unsigned ScheduledLiveValues,
                               std::optional<unsigned> MaxThreads) {
  // Two measures of one kernel: in source order (about the fewest registers
  // ptxas could get by with) and with long-latency operations issued early
  // as ptxas schedules them (about what it uses when registers are free).
  // ptxas spends registers on scheduling only while that costs no
  // occupancy: with __launch_bounds__(T) up to the most registers that keep
  // the number of resident blocks of T threads its need allows (the larger
  // of the in-order count and TierScheduledShare of the scheduled measure);
  // without, up to 32 when the kernel fits in 32. The uncapped count is
  // even, as ptxas's nearly always is (ReportedCountStep).
  const long Floor = InOrderLiveValues > 0 || ScheduledLiveValues > 0 ? MinimumWorkingRegisters
                                                                      : MinimumRegisters;
  long InOrder =
      std::max<long>(Floor, std::lround(InOrderSlope * InOrderLiveValues + InOrderIntercept));
  long Scheduled = std::max<long>(
      InOrder, std::lround(ScheduledSlope * ScheduledLiveValues + ScheduledIntercept));
  Scheduled = (Scheduled + ReportedCountStep - 1) / ReportedCountStep * ReportedCountStep;
  long Cap = MaximumRegisters;
  if (MaxThreads && *MaxThreads > 0) {
    const ArchSpec *Arch = findArch("sm_90");
    KernelResources K;
    K.ThreadsPerBlock = *MaxThreads;
    const long Need =
        std::max<long>(InOrder, std::lround(TierScheduledShare * ScheduledLiveValues));
    K.RegistersPerThread = static_cast<unsigned>(std::min<long>(Need, MaximumRegisters));
    unsigned Blocks = computeOccupancy(*Arch, K).ActiveBlocksPerSM;
    if (Blocks > 0)
      if (std::optional<unsigned> Limit = maxRegistersForBlocks(*Arch, K, Blocks))
        Cap = *Limit;
  } else if (InOrder <= static_cast<long>(SoftTarget)) {
    Cap = SoftTarget;
  }
  return static_cast<unsigned>(std::clamp<long>(std::min(Scheduled, Cap), Floor, MaximumRegisters));
}

CappedRegisters capRegisterCount(unsigned Registers, const ArchSpec &Arch,
                                 std::optional<std::uint64_t> LaunchBoundsMaxThreads,
                                 std::optional<std::uint64_t> LaunchBoundsMinBlocks,
                                 std::optional<unsigned> MaxRegisterCount) {
  unsigned Cap = Arch.MaxRegistersPerThread;
  RegisterCapSource CappedBy = RegisterCapSource::None;
  const std::optional<std::uint64_t> &Threads = LaunchBoundsMaxThreads;
  const std::optional<std::uint64_t> &Blocks = LaunchBoundsMinBlocks;
  if (Threads && *Threads > 0 && *Threads <= Arch.MaxThreadsPerBlock) {
    KernelResources K;
    K.ThreadsPerBlock = static_cast<unsigned>(*Threads);
    unsigned Want = Blocks && *Blocks > 0 ? static_cast<unsigned>(*Blocks) : 1;
    std::optional<unsigned> Limit = maxRegistersForBlocks(Arch, K, Want);
    if (!Limit) // ptxas ignores a minimum it cannot reach
      Limit = maxRegistersForBlocks(Arch, K, 1);
    if (Limit && *Limit < Cap) {
      Cap = *Limit;
      CappedBy = RegisterCapSource::LaunchBounds;
    }
  }
  if (MaxRegisterCount && *MaxRegisterCount < Cap) {
    Cap = *MaxRegisterCount;
    CappedBy = RegisterCapSource::MaxRegisterCount;
  }
  if (Registers <= Cap)
    CappedBy = RegisterCapSource::None;
  return {std::min(Registers, Cap), CappedBy};
}

} // namespace warpcheck::model
