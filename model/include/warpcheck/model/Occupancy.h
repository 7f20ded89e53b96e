//===- Occupancy.h - theoretical occupancy of a kernel launch -------------===//
//
// The number of blocks of one kernel that an SM holds at once, with the
// semantics of cudaOccupancyMaxActiveBlocksPerMultiprocessor as the CUDA
// toolkit's cuda_occupancy.h implements it
// (cudaOccMaxActiveBlocksPerMultiprocessor, CUDA 13.0): the minimum of five
// per-SM limits.
//
//  warps      floor(max warps per SM / ceil(threads / 32)); 0 if the block
//             has more threads than allowed.
//  blocks     the SM's block slots.
//  registers  a warp takes roundUp(regs x 32, 256) registers from the file
//             of one of the 4 warp schedulers (2 on sm_60); warps per SM =
//             4 x floor((regs per SM / 4) / that); blocks = floor(warps per
//             SM / warps per block). 0 if the block exceeds regs per block
//             (after rounding its warps up to a multiple of 4) or a thread
//             uses more than 255.
//  shared     per block: roundUp(static + dynamic + reserved (1 KB from
//             sm_80), allocation unit (256 B, 128 B from sm_80)); per SM: the
//             carveout (the preference rounded up to a supported size, or
//             the largest one by default; raised to the smallest size that
//             holds one block when the preference is too small); blocks =
//             floor(per SM / per block). 0 above the per-block limit.
//  barriers   sm_90 and later: block barriers per SM / barriers per block.
//
// docs/occupancy-model.md has the derivation, the sources and how the seeds'
// textbook rule differs.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_MODEL_OCCUPANCY_H
#define WARPCHECK_MODEL_OCCUPANCY_H

#include "warpcheck/model/Arch.h"

#include <cstdint>
#include <optional>
#include <string>

namespace warpcheck::model {

/// What one kernel launch asks of an SM.
struct KernelResources {
  /// Registers per thread as ptxas reports them (cudaFuncAttributes::numRegs).
  unsigned RegistersPerThread = 0;
  /// Threads per block (blockDim.x * blockDim.y * blockDim.z).
  unsigned ThreadsPerBlock = 0;
  /// __shared__ variables (cudaFuncAttributes::sharedSizeBytes).
  std::uint64_t StaticSharedBytes = 0;
  /// The launch's third <<<>>> argument.
  std::uint64_t DynamicSharedBytes = 0;
  /// cudaFuncAttributePreferredSharedMemoryCarveout, percent of the largest
  /// shared size (0 to 100); unset = no preference (the runtime's -1).
  std::optional<int> CarveoutPercent;
  /// cudaFuncAttributeMaxDynamicSharedMemorySize as set by the program;
  /// unset = assume the program opted in as far as this launch needs (a
  /// launch above 48 KB without the opt-in fails anyway).
  std::optional<std::uint64_t> MaxDynamicSharedBytes;
  /// Block barriers the kernel uses; the runtime counts 1
  /// (cudaOccFuncAttributes built from cudaFuncAttributes).
  unsigned BarriersPerBlock = 1;
};

/// Why the block count is what it is.
enum class OccupancyLimiter {
  /// Not computed (a default-constructed result).
  None,
  /// Warp slots: threads per SM over warps per block.
  Warps,
  /// Block slots per SM.
  Blocks,
  /// The register file.
  Registers,
  /// Shared memory.
  SharedMemory,
  /// Block barriers (sm_90 and later).
  Barriers,
  /// The configuration cannot launch at all; OccupancyResult::Error says
  /// why.
  Invalid,
};

/// "warps", "blocks", "registers", "shared memory", "barriers", "invalid",
/// "none".
std::string limiterName(OccupancyLimiter Limiter);

struct OccupancyResult {
  /// Blocks resident on one SM at once (0 when the launch cannot run).
  unsigned ActiveBlocksPerSM = 0;
  unsigned ActiveWarpsPerSM = 0;
  unsigned ActiveThreadsPerSM = 0;
  /// Theoretical occupancy: active warps / max warps per SM, 0 to 1.
  double Theoretical = 0;

  /// The limit that decides the block count. When several limits tie, the
  /// first of Warps, Blocks, Barriers, Registers, SharedMemory: a launch at
  /// its warp or block ceiling gains nothing from fewer registers.
  OccupancyLimiter Limiter = OccupancyLimiter::None;
  /// Every limit equal to the result (1 << OccupancyLimiter), as
  /// cudaOccResult::limitingFactors reports ties.
  unsigned LimiterMask = 0;
  /// Why the launch cannot run; empty otherwise.
  std::string Error;

  /// Each resource's own block limit; Unlimited where it sets none.
  static constexpr unsigned Unlimited = ~0u;
  unsigned BlockLimitWarps = Unlimited;
  unsigned BlockLimitBlocks = Unlimited;
  unsigned BlockLimitRegisters = Unlimited;
  unsigned BlockLimitSharedMemory = Unlimited;
  unsigned BlockLimitBarriers = Unlimited;

  /// Warps a block occupies: ceil(threads / 32).
  unsigned WarpsPerBlock = 0;
  /// Registers one block really holds, after rounding.
  unsigned AllocatedRegistersPerBlock = 0;
  /// Shared bytes one block really holds: static + dynamic + reservation,
  /// rounded up to the allocation unit.
  std::uint64_t AllocatedSharedBytesPerBlock = 0;
  /// The shared memory size of the SM this launch runs with (the carveout).
  std::uint64_t SharedBytesPerSM = 0;

  bool valid() const { return Limiter != OccupancyLimiter::Invalid; }
  bool limitedBy(OccupancyLimiter L) const {
    return LimiterMask & (1u << static_cast<unsigned>(L));
  }
};

/// cudaOccupancyMaxActiveBlocksPerMultiprocessor for a kernel on Arch.
OccupancyResult computeOccupancy(const ArchSpec &Arch,
                                 const KernelResources &Kernel);

/// The block limit from registers alone (cudaOccMaxBlocksPerSMRegsLimit):
/// 0 if the block cannot hold that many registers at all.
unsigned registerLimitedBlocks(const ArchSpec &Arch,
                               unsigned RegistersPerThread,
                               unsigned ThreadsPerBlock);

/// "What block count would X registers give": computeOccupancy with the
/// kernel's registers replaced by RegistersPerThread.
OccupancyResult occupancyWithRegisters(const ArchSpec &Arch,
                                       KernelResources Kernel,
                                       unsigned RegistersPerThread);

/// The block size cudaOccupancyMaxPotentialBlockSize chooses for Kernel
/// (cuda_occupancy.h's cudaOccMaxPotentialOccupancyBlockSize): every size
/// from the largest the device allows (and MaxBlockSize, when not 0) down
/// to one warp, in steps of a warp, each with DynamicSharedPerThread bytes
/// of dynamic shared memory per thread (0: Kernel's DynamicSharedBytes for
/// every size); the first with the most active threads per SM wins, so a
/// tie keeps the larger block. The runtime's minimum grid size is
/// ActiveBlocksPerSM times the device's SM count. BlockSize is 0 when no
/// size can run.
struct BlockSizeSuggestion {
  unsigned BlockSize = 0;
  unsigned ActiveBlocksPerSM = 0;
  OccupancyResult Occupancy;
};
BlockSizeSuggestion suggestBlockSize(const ArchSpec &Arch, KernelResources Kernel,
                                     std::uint64_t DynamicSharedPerThread = 0,
                                     unsigned MaxBlockSize = 0);

/// "What is the most registers per thread that still gives N blocks": the
/// largest register count (at most the arch's limit) for which the whole
/// launch reaches TargetBlocks resident blocks, other resources unchanged;
/// nullopt if no register count does (another limit is below TargetBlocks).
std::optional<unsigned> maxRegistersForBlocks(const ArchSpec &Arch,
                                              const KernelResources &Kernel,
                                              unsigned TargetBlocks);

/// The largest dynamic shared memory per block (bytes) that still gives
/// TargetBlocks resident blocks, other resources unchanged; nullopt if even
/// 0 bytes does not.
std::optional<std::uint64_t>
maxDynamicSharedForBlocks(const ArchSpec &Arch, const KernelResources &Kernel,
                          unsigned TargetBlocks);

/// A __launch_bounds__-style fix for a launch whose registers limit it.
struct RegisterAdvice {
  OccupancyResult Current;
  /// One block more than now.
  unsigned TargetBlocks = 0;
  /// The most registers per thread that reach TargetBlocks.
  unsigned MaxRegistersPerThread = 0;
  OccupancyResult AtTarget;
  /// "72 registers per thread limit sm_90 to 3 blocks of 256 threads (37.5%
  /// occupancy); at most 64 registers would allow 4 blocks (50%)".
  std::string Message;
};

/// Advice when registers are what limits the launch (Limiter == Registers)
/// and fewer registers would let one more block in; nullopt otherwise.
std::optional<RegisterAdvice> adviseRegisters(const ArchSpec &Arch,
                                              const KernelResources &Kernel);

/// "37.5%", "50%", "100%": an occupancy fraction as a percentage with at
/// most one decimal.
std::string formatPercent(double Fraction);

} // namespace warpcheck::model

#endif
