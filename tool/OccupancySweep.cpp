//===- OccupancySweep.cpp - occupancy for every block size ----------------===//

#include "OccupancySweep.h"

namespace warpcheck::tool {

OccupancySweep sweepBlockSizes(const model::ArchSpec &Arch, model::KernelResources Kernel,
                               std::uint64_t DynamicSharedPerThread) {
  OccupancySweep S;
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
