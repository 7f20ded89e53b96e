//===- OccupancySweep.cpp - occupancy for every block size ----------------===//

#include "OccupancySweep.h"

namespace warpcheck::tool {

OccupancySweep sweepBlockSizes(const model::ArchSpec &Arch, model::KernelResources Kernel,
                               std::uint64_t DynamicSharedPerThread) {
  OccupancySweep S;
  // Dynamic shared memory that grows with the block meets the kernel's
  // cudaFuncAttributeMaxDynamicSharedMemorySize; a kernel that does not
  // raise it has the runtime's default, 48 KB less its static size, and
  // cudaOccupancyMaxPotentialBlockSizeVariableSMem skips the sizes above it
  // (test/hw/potential_block_size.json: 100 bytes a thread, 24 registers,
  // chooses 256 threads, not 1024).
  if (DynamicSharedPerThread && !Kernel.MaxDynamicSharedBytes)
    Kernel.MaxDynamicSharedBytes = Arch.SharedMemoryPerBlock > Kernel.StaticSharedBytes
                                       ? Arch.SharedMemoryPerBlock - Kernel.StaticSharedBytes
                                       : 0;
  S.Suggested = model::suggestBlockSize(Arch, Kernel, DynamicSharedPerThread);
  for (unsigned Block = Arch.WarpSize; Block <= Arch.MaxThreadsPerBlock; Block += Arch.WarpSize) {
    Kernel.ThreadsPerBlock = Block;
    if (DynamicSharedPerThread)
      Kernel.DynamicSharedBytes = DynamicSharedPerThread * Block;
    S.Points.push_back({Kernel, model::computeOccupancy(Arch, Kernel)});
  }
  return S;
}

} // namespace warpcheck::tool
