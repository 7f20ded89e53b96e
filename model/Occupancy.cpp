//===- Occupancy.cpp - cudaOccupancyMaxActiveBlocksPerMultiprocessor ------===//
//
// A transcription of cudaOccMaxActiveBlocksPerMultiprocessor from the CUDA
// 13.0 toolkit's cuda_occupancy.h ([OCC]) onto ArchSpec, with partitioned
// global caching off (the runtime's default: cudaOccFuncAttributes built
// from cudaFuncAttributes sets PARTITIONED_GC_OFF). Each step names the
// [OCC] function it follows.
//
//===----------------------------------------------------------------------===//
#include "warpcheck/model/Occupancy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace warpcheck::model {

namespace {

constexpr unsigned Unlimited = OccupancyResult::Unlimited;

std::uint64_t divideRoundUp(std::uint64_t X, std::uint64_t Y) {
  return (X + Y - 1) / Y;
}
std::uint64_t roundUp(std::uint64_t X, std::uint64_t Y) {
  return Y * divideRoundUp(X, Y);
}

std::string bytesText(std::uint64_t Bytes) {
  return std::to_string(Bytes) + " bytes";
}

/// [OCC] cudaOccAlignUpShmemSizeVoltaPlus: the smallest carveout that holds
/// Size bytes; nullopt above the largest.
std::optional<std::uint64_t> alignUpToCarveout(const ArchSpec &Arch,
                                               std::uint64_t Size) {
  for (std::uint64_t Step : Arch.SharedCarveoutSteps)
    if (Size <= Step)
      return Step;
  return std::nullopt;
}

/// [OCC] cudaOccSMemPerMultiprocessor: the shared size the SM is configured
/// with for this kernel's preference, before the kernel's own needs.
std::optional<std::uint64_t> preferredSharedPerSM(const ArchSpec &Arch,
                                                  std::optional<int> Percent) {
  // Before Volta (and on custom arches) shared memory has one fixed size
  // (cudaOccSMemPreference, Maxwell and Pascal: "dedicated shared memory").
  if (!Arch.hasConfigurableCarveout())
    return Arch.SharedMemoryPerSM;
  // cudaOccSMemPreferenceVoltaPlus: SHAREDMEM_CARVEOUT_DEFAULT (-1) means
  // sharedMemPerMultiprocessor; a percentage p means
  // p * sharedMemPerMultiprocessor / 100, in integer arithmetic; either is
  // then rounded up to a supported carveout.
  std::uint64_t Preference = Arch.SharedMemoryPerSM;
  if (Percent && *Percent != -1)
    Preference =
        static_cast<std::uint64_t>(*Percent) * Arch.SharedMemoryPerSM / 100;
  return alignUpToCarveout(Arch, Preference);
}

/// [OCC] cudaOccMaxBlocksPerSMRegsLimit for one sub-partition count.
unsigned perWarpRegisterLimit(const ArchSpec &Arch, unsigned Registers,
                              unsigned WarpsPerBlock, unsigned SubPartitions,
                              unsigned &AllocatedPerBlock) {
  std::uint64_t RegistersPerWarp = std::uint64_t(Registers) * Arch.WarpSize;
  std::uint64_t AllocatedPerWarp =
      roundUp(RegistersPerWarp, Arch.RegisterAllocationUnit);
  std::uint64_t AllocatedPerCTA = AllocatedPerWarp * WarpsPerBlock;
  AllocatedPerBlock = static_cast<unsigned>(
      std::min<std::uint64_t>(AllocatedPerCTA, Unlimited));
  // "Hardware verifies if a launch fits the per-CTA register limit ...
  // assumes register allocations are made to all partitions simultaneously":
  // the block's warps are rounded up to a multiple of the sub-partitions.
  std::uint64_t AssumedPerCTA =
      AllocatedPerWarp * roundUp(WarpsPerBlock, SubPartitions);
  if (Arch.MaxRegistersPerBlock < AssumedPerCTA ||
      Arch.MaxRegistersPerBlock < AllocatedPerCTA ||
      Registers > Arch.MaxRegistersPerThread)
    return 0;
  if (AllocatedPerWarp == 0)
    return Unlimited;
  // Each warp lives in one sub-partition's slice of the register file.
  std::uint64_t RegistersPerSubPartition = Arch.RegistersPerSM / SubPartitions;
  std::uint64_t WarpsPerSubPartition =
      RegistersPerSubPartition / AllocatedPerWarp;
  return static_cast<unsigned>(WarpsPerSubPartition * SubPartitions /
                               WarpsPerBlock);
}

/// [XLS] compute capability 1.x: registers are allocated per block.
unsigned perBlockRegisterLimit(const ArchSpec &Arch, unsigned Registers,
                               unsigned WarpsPerBlock,
                               unsigned &AllocatedPerBlock) {
  std::uint64_t Warps = roundUp(WarpsPerBlock, Arch.WarpAllocationGranularity);
  std::uint64_t Allocated =
      roundUp(Warps * Arch.WarpSize * Registers, Arch.RegisterAllocationUnit);
  AllocatedPerBlock =
      static_cast<unsigned>(std::min<std::uint64_t>(Allocated, Unlimited));
  if (Allocated > Arch.MaxRegistersPerBlock ||
      Registers > Arch.MaxRegistersPerThread)
    return 0;
  if (Allocated == 0)
    return Unlimited;
  return static_cast<unsigned>(Arch.RegistersPerSM / Allocated);
}

unsigned registerLimit(const ArchSpec &Arch, unsigned Registers,
                       unsigned WarpsPerBlock, unsigned &AllocatedPerBlock) {
  if (Arch.RegisterAllocation == RegisterAllocationScope::PerBlock)
    return perBlockRegisterLimit(Arch, Registers, WarpsPerBlock,
                                 AllocatedPerBlock);
  unsigned Limit =
      perWarpRegisterLimit(Arch, Registers, WarpsPerBlock,
                           Arch.WarpAllocationGranularity, AllocatedPerBlock);
  // [OCC] cudaOccMaxActiveBlocksPerMultiprocessor: GP100 (6.0) has 2
  // sub-partitions, GP10x 4; "if a function cannot run on GP10x ... we do
  // not let it run on any Pascal processor", so 6.0 is checked as 6.1 too.
  if (Arch.ComputeMajor == 6 && Arch.ComputeMinor == 0 && Limit != 0) {
    unsigned Ignored = 0;
    if (perWarpRegisterLimit(Arch, Registers, WarpsPerBlock, 4, Ignored) == 0)
      Limit = 0;
  }
  return Limit;
}

/// Why a block cannot hold its registers, with the rounding spelled out.
std::string registerOverflowText(const ArchSpec &Arch,
                                 const KernelResources &Kernel,
                                 unsigned WarpsPerBlock) {
  std::string Text = "a block of " + std::to_string(Kernel.ThreadsPerBlock) +
                     " threads x " + std::to_string(Kernel.RegistersPerThread) +
                     " registers ";
  std::uint64_t RegistersPerWarp =
      std::uint64_t(Kernel.RegistersPerThread) * Arch.WarpSize;
  if (Arch.RegisterAllocation == RegisterAllocationScope::PerBlock) {
    std::uint64_t Allocated =
        roundUp(roundUp(WarpsPerBlock, Arch.WarpAllocationGranularity) *
                    RegistersPerWarp,
                Arch.RegisterAllocationUnit);
    Text += "holds " + std::to_string(Allocated) + " registers";
  } else {
    std::uint64_t PerWarp =
        roundUp(RegistersPerWarp, Arch.RegisterAllocationUnit);
    // sm_60 is checked as GP10x (4 schedulers) as well.
    unsigned Schedulers = Arch.WarpAllocationGranularity;
    if (Arch.ComputeMajor == 6 && Arch.ComputeMinor == 0)
      Schedulers = std::max(Schedulers, 4u);
    std::uint64_t CountedWarps = roundUp(WarpsPerBlock, Schedulers);
    Text += "holds " + std::to_string(WarpsPerBlock) + " warps x " +
            std::to_string(PerWarp) +
            " registers = " + std::to_string(PerWarp * WarpsPerBlock);
    if (CountedWarps != WarpsPerBlock)
      Text += ", counted by the launch check as " +
              std::to_string(CountedWarps) + " warps (a multiple of the " +
              std::to_string(Schedulers) +
              " warp schedulers) = " + std::to_string(PerWarp * CountedWarps);
  }
  return Text + ", more than the " + std::to_string(Arch.MaxRegistersPerBlock) +
         " registers a block may hold on " + Arch.Name;
}

OccupancyResult invalid(OccupancyResult R, std::string Error) {
  R.ActiveBlocksPerSM = 0;
  R.ActiveWarpsPerSM = 0;
  R.ActiveThreadsPerSM = 0;
  R.Theoretical = 0;
  R.Limiter = OccupancyLimiter::Invalid;
  R.Error = std::move(Error);
  return R;
}

unsigned bit(OccupancyLimiter L) { return 1u << static_cast<unsigned>(L); }

} // namespace

std::string limiterName(OccupancyLimiter Limiter) {
  switch (Limiter) {
  case OccupancyLimiter::None:
    return "none";
  case OccupancyLimiter::Warps:
    return "warps";
  case OccupancyLimiter::Blocks:
    return "blocks";
  case OccupancyLimiter::Registers:
    return "registers";
  case OccupancyLimiter::SharedMemory:
    return "shared memory";
  case OccupancyLimiter::Barriers:
    return "barriers";
  case OccupancyLimiter::Invalid:
    return "invalid";
  }
  return "none";
}

unsigned registerLimitedBlocks(const ArchSpec &Arch,
                               unsigned RegistersPerThread,
                               unsigned ThreadsPerBlock) {
  if (ThreadsPerBlock == 0 || !validateArch(Arch).empty())
    return 0;
  unsigned WarpsPerBlock =
      static_cast<unsigned>(divideRoundUp(ThreadsPerBlock, Arch.WarpSize));
  unsigned Ignored = 0;
  return registerLimit(Arch, RegistersPerThread, WarpsPerBlock, Ignored);
}

OccupancyResult computeOccupancy(const ArchSpec &Arch,
                                 const KernelResources &Kernel) {
  OccupancyResult R;
  if (std::string Problem = validateArch(Arch); !Problem.empty())
    return invalid(R, "architecture " + Arch.Name + ": " + Problem);
  // [OCC] cudaOccMaxActiveBlocksPerMultiprocessor: blockSize <= 0 is
  // CUDA_OCC_ERROR_INVALID_INPUT.
  if (Kernel.ThreadsPerBlock == 0)
    return invalid(R, "a block of 0 threads");
  // [OCC] cudaOccSMemPreferenceVoltaPlus: a carveout outside -1..100 is
  // CUDA_OCC_ERROR_INVALID_INPUT.
  if (Kernel.CarveoutPercent &&
      (*Kernel.CarveoutPercent < -1 || *Kernel.CarveoutPercent > 100))
    return invalid(R, "shared memory carveout of " +
                          std::to_string(*Kernel.CarveoutPercent) +
                          "% is outside 0..100");
  // [PG] static shared memory is limited to 48 KB per block; ptxas rejects
  // more, so such a kernel never reaches the runtime.
  if (Kernel.StaticSharedBytes > Arch.MaxStaticSharedPerBlock)
    return invalid(
        R, "static shared memory of " + bytesText(Kernel.StaticSharedBytes) +
               " exceeds the " + bytesText(Arch.MaxStaticSharedPerBlock) +
               " static limit of " + Arch.Name +
               " (larger buffers must be dynamic shared memory)");
  if (Kernel.BarriersPerBlock > Arch.MaxBarriersPerBlock)
    return invalid(R, std::to_string(Kernel.BarriersPerBlock) +
                          " barriers per block exceed the " +
                          std::to_string(Arch.MaxBarriersPerBlock) + " of " +
                          Arch.Name);

  R.WarpsPerBlock = static_cast<unsigned>(
      divideRoundUp(Kernel.ThreadsPerBlock, Arch.WarpSize));

  // --- Registers: [OCC] cudaOccMaxBlocksPerSMRegsLimit.
  R.BlockLimitRegisters =
      registerLimit(Arch, Kernel.RegistersPerThread, R.WarpsPerBlock,
                    R.AllocatedRegistersPerBlock);

  // --- Warps: [OCC] cudaOccMaxBlocksPerSMWarpsLimit.
  R.BlockLimitWarps = Kernel.ThreadsPerBlock > Arch.MaxThreadsPerBlock
                          ? 0
                          : Arch.MaxWarpsPerSM / R.WarpsPerBlock;

  // --- Blocks: [OCC] cudaOccMaxBlocksPerMultiprocessor.
  R.BlockLimitBlocks = Arch.MaxBlocksPerSM;

  // --- Shared memory: [OCC] cudaOccMaxBlocksPerSMSmemLimit.
  std::optional<std::uint64_t> Preference =
      preferredSharedPerSM(Arch, Kernel.CarveoutPercent);
  if (!Preference)
    return invalid(R, "no carveout of " + Arch.Name +
                          " holds the preferred shared memory size");
  std::uint64_t StaticWithReservation =
      Kernel.StaticSharedBytes + Arch.ReservedSharedMemoryPerBlock;
  std::uint64_t TotalPerBlock =
      StaticWithReservation + Kernel.DynamicSharedBytes;
  R.AllocatedSharedBytesPerBlock =
      roundUp(TotalPerBlock, Arch.SharedAllocationUnit);
  // The runtime's default cudaFuncAttributeMaxDynamicSharedMemorySize is
  // 48 KB less the static size; absent a value, assume the program raised it
  // as far as this launch needs.
  std::uint64_t DefaultMaxDynamic =
      Arch.SharedMemoryPerBlock > Kernel.StaticSharedBytes
          ? Arch.SharedMemoryPerBlock - Kernel.StaticSharedBytes
          : 0;
  std::uint64_t MaxDynamic = Kernel.MaxDynamicSharedBytes.value_or(
      std::max(DefaultMaxDynamic, Kernel.DynamicSharedBytes));
  // [OCC] cudaOccSMemPerBlock with FUNC_SHMEM_LIMIT_OPTIN: the opt-in limit
  // applies once the kernel may use more than sharedMemPerBlock; from
  // compute capability 8.0 the reservation is added to the limit.
  std::uint64_t MaxUsagePerBlock = StaticWithReservation + MaxDynamic;
  std::uint64_t SharedLimitPerBlock =
      (MaxUsagePerBlock > Arch.SharedMemoryPerBlock
           ? Arch.SharedMemoryPerBlockOptin
           : Arch.SharedMemoryPerBlock) +
      Arch.ReservedSharedMemoryPerBlock;
  std::string SharedError;
  if (Kernel.DynamicSharedBytes > MaxDynamic) {
    SharedError = "dynamic shared memory of " +
                  bytesText(Kernel.DynamicSharedBytes) +
                  " exceeds the kernel's "
                  "cudaFuncAttributeMaxDynamicSharedMemorySize of " +
                  bytesText(MaxDynamic);
  } else if (R.AllocatedSharedBytesPerBlock > SharedLimitPerBlock) {
    SharedError = "a block needs " + bytesText(R.AllocatedSharedBytesPerBlock) +
                  " of shared memory (static " +
                  std::to_string(Kernel.StaticSharedBytes) + " + dynamic " +
                  std::to_string(Kernel.DynamicSharedBytes) + " + reserved " +
                  std::to_string(Arch.ReservedSharedMemoryPerBlock) +
                  ", in units of " + std::to_string(Arch.SharedAllocationUnit) +
                  "), more than the " + bytesText(SharedLimitPerBlock) +
                  " a block may use on " + Arch.Name;
  }
  if (!SharedError.empty()) {
    R.BlockLimitSharedMemory = 0;
    R.SharedBytesPerSM = *Preference;
  } else {
    // "User requested shared memory limit is used as long as it is greater
    // than the total shared memory used per CTA"; otherwise Volta and later
    // take the smallest carveout that holds one block, and older chips
    // their whole shared memory.
    std::uint64_t PerSM = *Preference;
    if (PerSM < R.AllocatedSharedBytesPerBlock) {
      if (Arch.hasConfigurableCarveout()) {
        std::optional<std::uint64_t> Raised =
            alignUpToCarveout(Arch, R.AllocatedSharedBytesPerBlock);
        if (!Raised)
          return invalid(R, "no carveout of " + Arch.Name + " holds " +
                                bytesText(R.AllocatedSharedBytesPerBlock));
        PerSM = *Raised;
      } else {
        PerSM = Arch.SharedMemoryPerSM;
      }
    }
    R.SharedBytesPerSM = PerSM;
    R.BlockLimitSharedMemory =
        R.AllocatedSharedBytesPerBlock > 0
            ? static_cast<unsigned>(std::min<std::uint64_t>(
                  PerSM / R.AllocatedSharedBytesPerBlock, Unlimited))
            : Unlimited;
  }

  // --- Barriers: [OCC] cudaOccMaxBlocksPerSMBlockBarrierLimit, applied from
  // compute capability 9.0 when the kernel uses a barrier.
  if (Arch.BlockBarriersPerSM > 0 && Kernel.BarriersPerBlock > 0)
    R.BlockLimitBarriers = Arch.BlockBarriersPerSM / Kernel.BarriersPerBlock;

  unsigned Blocks =
      std::min({R.BlockLimitRegisters, R.BlockLimitSharedMemory,
                R.BlockLimitWarps, R.BlockLimitBlocks, R.BlockLimitBarriers});
  // [OCC]: every limit equal to the minimum is a limiting factor.
  const std::pair<OccupancyLimiter, unsigned> Limits[] = {
      {OccupancyLimiter::Warps, R.BlockLimitWarps},
      {OccupancyLimiter::Blocks, R.BlockLimitBlocks},
      {OccupancyLimiter::Barriers, R.BlockLimitBarriers},
      {OccupancyLimiter::Registers, R.BlockLimitRegisters},
      {OccupancyLimiter::SharedMemory, R.BlockLimitSharedMemory},
  };
  for (const auto &[Limiter, Limit] : Limits) {
    if (Limit != Blocks)
      continue;
    if (R.LimiterMask == 0)
      R.Limiter = Limiter;
    R.LimiterMask |= bit(Limiter);
  }

  if (Blocks == 0) {
    std::string Error;
    if (R.BlockLimitWarps == 0) {
      Error = "a block of " + std::to_string(Kernel.ThreadsPerBlock) +
              " threads exceeds the " +
              std::to_string(Arch.MaxThreadsPerBlock) + "-thread limit of " +
              Arch.Name;
    } else if (R.BlockLimitRegisters == 0) {
      if (Kernel.RegistersPerThread > Arch.MaxRegistersPerThread)
        Error = std::to_string(Kernel.RegistersPerThread) +
                " registers per thread exceed the " +
                std::to_string(Arch.MaxRegistersPerThread) +
                "-register limit of " + Arch.Name;
      else
        Error = registerOverflowText(Arch, Kernel, R.WarpsPerBlock);
    } else if (R.BlockLimitSharedMemory == 0) {
      Error = SharedError;
    } else {
      Error = std::to_string(Kernel.BarriersPerBlock) +
              " barriers per block exceed the " +
              std::to_string(Arch.BlockBarriersPerSM) + " of an SM of " +
              Arch.Name;
    }
    OccupancyResult Failed = invalid(R, std::move(Error));
    return Failed;
  }

  R.ActiveBlocksPerSM = Blocks;
  R.ActiveWarpsPerSM = Blocks * R.WarpsPerBlock;
  R.ActiveThreadsPerSM = Blocks * Kernel.ThreadsPerBlock;
  R.Theoretical = double(R.ActiveWarpsPerSM) / double(Arch.MaxWarpsPerSM);
  return R;
}

OccupancyResult occupancyWithRegisters(const ArchSpec &Arch,
                                       KernelResources Kernel,
                                       unsigned RegistersPerThread) {
  Kernel.RegistersPerThread = RegistersPerThread;
  return computeOccupancy(Arch, Kernel);
}

BlockSizeSuggestion suggestBlockSize(const ArchSpec &Arch, KernelResources Kernel,
                                     std::uint64_t DynamicSharedPerThread,
                                     unsigned MaxBlockSize) {
  BlockSizeSuggestion Best;
  unsigned Largest = Arch.MaxThreadsPerBlock;
  if (MaxBlockSize)
    Largest = std::min(Largest, MaxBlockSize);
  const unsigned Step = Arch.WarpSize;
  unsigned MostThreads = 0;
  // The header's loop: aligned sizes from the top, the last one clamped to
  // the limit; it stops early once the SM is full.
  for (unsigned Aligned = (Largest + Step - 1) / Step * Step; Aligned > 0; Aligned -= Step) {
    Kernel.ThreadsPerBlock = std::min(Largest, Aligned);
    if (DynamicSharedPerThread)
      Kernel.DynamicSharedBytes = DynamicSharedPerThread * Kernel.ThreadsPerBlock;
    OccupancyResult R = computeOccupancy(Arch, Kernel);
    unsigned Threads = R.ActiveBlocksPerSM * Kernel.ThreadsPerBlock;
    if (Threads > MostThreads) {
      MostThreads = Threads;
      Best = {Kernel.ThreadsPerBlock, R.ActiveBlocksPerSM, R};
    }
    if (MostThreads == Arch.MaxThreadsPerSM)
      break;
  }
  return Best;
}

std::optional<unsigned> maxRegistersForBlocks(const ArchSpec &Arch,
                                              const KernelResources &Kernel,
                                              unsigned TargetBlocks) {
  if (TargetBlocks == 0)
    return std::nullopt;
  // Blocks never grow with registers, so the first count from the top that
  // reaches the target is the answer.
  for (unsigned Registers = Arch.MaxRegistersPerThread; Registers > 0;
       --Registers)
    if (occupancyWithRegisters(Arch, Kernel, Registers).ActiveBlocksPerSM >=
        TargetBlocks)
      return Registers;
  return std::nullopt;
}

std::optional<std::uint64_t>
maxDynamicSharedForBlocks(const ArchSpec &Arch, const KernelResources &Kernel,
                          unsigned TargetBlocks) {
  if (TargetBlocks == 0)
    return std::nullopt;
  KernelResources Trial = Kernel;
  // A program's cudaFuncAttributeMaxDynamicSharedMemorySize caps the size;
  // when the cap ends inside an allocation unit, the cap itself holds the
  // same allocation as the unit boundary below it plus up to one unit less
  // one byte, and is the answer whenever it reaches the target (anything
  // above it is refused).
  if (Kernel.MaxDynamicSharedBytes) {
    Trial.DynamicSharedBytes = *Kernel.MaxDynamicSharedBytes;
    if (computeOccupancy(Arch, Trial).ActiveBlocksPerSM >= TargetBlocks)
      return Trial.DynamicSharedBytes;
  }
  // Otherwise only sizes that fill an allocation unit exactly can be the
  // answer: walk the allocated sizes down from the per-block maximum.
  std::uint64_t Fixed =
      Kernel.StaticSharedBytes + Arch.ReservedSharedMemoryPerBlock;
  std::uint64_t Top =
      std::max(Arch.SharedMemoryPerBlockOptin, Arch.SharedMemoryPerBlock) +
      Arch.ReservedSharedMemoryPerBlock;
  Top = Top / Arch.SharedAllocationUnit * Arch.SharedAllocationUnit;
  for (std::uint64_t Allocated = Top; Allocated >= Fixed && Allocated > 0;
       Allocated -= Arch.SharedAllocationUnit) {
    Trial.DynamicSharedBytes = Allocated - Fixed;
    if (computeOccupancy(Arch, Trial).ActiveBlocksPerSM >= TargetBlocks)
      return Trial.DynamicSharedBytes;
  }
  Trial.DynamicSharedBytes = 0;
  if (computeOccupancy(Arch, Trial).ActiveBlocksPerSM >= TargetBlocks)
    return 0;
  return std::nullopt;
}

std::string formatPercent(double Fraction) {
  double Tenths = std::round(Fraction * 1000.0);
  char Buffer[32];
  if (std::fmod(Tenths, 10.0) == 0.0)
    std::snprintf(Buffer, sizeof(Buffer), "%.0f%%", Tenths / 10.0);
  else
    std::snprintf(Buffer, sizeof(Buffer), "%.1f%%", Tenths / 10.0);
  return Buffer;
}

std::optional<RegisterAdvice> adviseRegisters(const ArchSpec &Arch,
                                              const KernelResources &Kernel) {
  RegisterAdvice Advice;
  Advice.Current = computeOccupancy(Arch, Kernel);
  if (!Advice.Current.valid() ||
      Advice.Current.Limiter != OccupancyLimiter::Registers)
    return std::nullopt;
  Advice.TargetBlocks = Advice.Current.ActiveBlocksPerSM + 1;
  std::optional<unsigned> Registers =
      maxRegistersForBlocks(Arch, Kernel, Advice.TargetBlocks);
  if (!Registers)
    return std::nullopt;
  Advice.MaxRegistersPerThread = *Registers;
  Advice.AtTarget = occupancyWithRegisters(Arch, Kernel, *Registers);
  Advice.Message =
      std::to_string(Kernel.RegistersPerThread) +
      " registers per thread limit " + Arch.Name + " to " +
      std::to_string(Advice.Current.ActiveBlocksPerSM) +
      (Advice.Current.ActiveBlocksPerSM == 1 ? " block" : " blocks") + " of " +
      std::to_string(Kernel.ThreadsPerBlock) + " threads (" +
      formatPercent(Advice.Current.Theoretical) + " occupancy); at most " +
      std::to_string(*Registers) + " registers would allow " +
      std::to_string(Advice.AtTarget.ActiveBlocksPerSM) + " blocks (" +
      formatPercent(Advice.AtTarget.Theoretical) + ")";
  return Advice;
}

} // namespace warpcheck::model
