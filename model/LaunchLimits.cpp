//===- LaunchLimits.cpp - whether a launch's shape can run at all ---------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//

#include "warpcheck/model/LaunchLimits.h"

namespace warpcheck::model {

namespace {

std::string shape(const std::array<std::uint64_t, 3> &D) {
  return "(" + std::to_string(D[0]) + ", " + std::to_string(D[1]) + ", " + std::to_string(D[2]) +
         ")";
}

const char *const AxisNames[3] = {"x", "y", "z"};

} // namespace

std::string whyLaunchCannotRun(const ArchSpec &A, const LaunchRequest &L) {
  for (unsigned I = 0; I < 3; ++I)
    if (L.Block[I] == 0)
      return "the block " + shape(L.Block) + " has a zero extent";
  if (L.Grid)
    for (unsigned I = 0; I < 3; ++I)
      if ((*L.Grid)[I] == 0)
        return "the grid " + shape(*L.Grid) + " has a zero extent";
  for (unsigned I = 0; I < 3; ++I)
    if (L.Block[I] > A.MaxBlockDim[I])
      return "the block " + shape(L.Block) + " has " + std::to_string(L.Block[I]) +
             " threads along " + AxisNames[I] + ", over the " + std::to_string(A.MaxBlockDim[I]) +
             " a block may have along " + AxisNames[I] + " on " + A.Name;
  // Each extent is at most MaxBlockDim here: the product cannot overflow.
  const std::uint64_t Threads = L.Block[0] * L.Block[1] * L.Block[2];
  if (Threads > A.MaxThreadsPerBlock)
    return "the block " + shape(L.Block) + " has " + std::to_string(Threads) +
           " threads, over the " + std::to_string(A.MaxThreadsPerBlock) +
           " a block may have on " + A.Name;
  if (L.Grid)
    for (unsigned I = 0; I < 3; ++I)
      if ((*L.Grid)[I] > A.MaxGridDim[I])
        return "the grid " + shape(*L.Grid) + " has " + std::to_string((*L.Grid)[I]) +
               " blocks along " + AxisNames[I] + ", over the " + std::to_string(A.MaxGridDim[I]) +
               " a grid may have along " + AxisNames[I] + " on " + A.Name;
  if (L.DynamicSharedBytes > A.SharedMemoryPerBlockOptin)
    return std::to_string(L.DynamicSharedBytes) + " bytes of dynamic shared memory are over the " +
           std::to_string(A.SharedMemoryPerBlockOptin) + " a block may use on " + A.Name +
           " (after opting in with cudaFuncSetAttribute)";
  return "";
}

} // namespace warpcheck::model
