//===- LaunchBounds.h - a kernel's __launch_bounds__, from the AST --------===//
//
// The one reader of CUDALaunchBoundsAttr. Its users: the register cap of
// the estimate (registers/Estimate.cpp: ptxas caps the registers so that
// MinBlocks blocks of MaxThreads threads fit on an SM, CUDA C++ Programming
// Guide, "Launch Bounds"), the block assumed when no launch gives one
// (LaunchShapes.cpp) and the occupancy report (KernelResources.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_LAUNCHBOUNDS_H
#define WARPCHECK_ANALYSIS_LAUNCHBOUNDS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <optional>

namespace warpcheck::analysis {

/// __launch_bounds__(MaxThreads, MinBlocks, MaxBlocksPerCluster).
struct LaunchBounds {
  unsigned MaxThreads = 0;
  std::optional<unsigned> MinBlocks;
  std::optional<unsigned> MaxBlocksPerCluster;
};

/// The kernel's __launch_bounds__ when its first argument is a positive
/// constant (each other argument is there when it is a constant); nullopt
/// when the kernel has none, or its thread count is not a constant (a
/// template parameter not yet bound) or is 0.
std::optional<LaunchBounds> launchBounds(const clang::FunctionDecl *Kernel,
                                         clang::ASTContext &Ctx);

} // namespace warpcheck::analysis

#endif
