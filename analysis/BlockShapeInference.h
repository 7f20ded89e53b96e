//===- BlockShapeInference.h - the block a kernel's own code expects ------===//
//
// When no launch of a kernel can be evaluated, its own code often says what
// block it was written for: `__shared__ float tile[16][17]` indexed
// `tile[threadIdx.y][threadIdx.x]` fits a (16, 16) block, `assert(blockDim.x
// == 256)` or `if (blockDim.x != 32) return;` name the size outright, and a
// kernel that reads threadIdx.y is two-dimensional whatever else is known.
// The warps' addresses (hence every sector and wavefront count) depend on
// that shape, so a 1-D default for a 2-D kernel is wrong in every number.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_BLOCKSHAPEINFERENCE_H
#define WARPCHECK_ANALYSIS_BLOCKSHAPEINFERENCE_H

#include "warpcheck/analysis/LaunchConfig.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace warpcheck::analysis {

/// What a kernel's body (and the device functions it calls) says about the
/// block, axis by axis (0 = x, 1 = y, 2 = z).
struct BlockShapeEvidence {
  /// threadIdx.<axis> or blockDim.<axis> is read somewhere.
  std::array<bool, 3> ReadsAxis{{false, false, false}};
  /// blockDim.<axis> compared for (in)equality with this constant, and where
  /// ("'blockDim.x == 256' at k.cu:12"); unset when never, or when two
  /// comparisons disagree.
  std::array<std::optional<std::uint32_t>, 3> Compared;
  std::array<std::string, 3> ComparedWhere;
  /// The smallest extent of a __shared__ array dimension indexed by exactly
  /// threadIdx.<axis> (or a local that holds it), and that array's name: the
  /// block cannot be wider than the array it fills.
  std::array<std::optional<std::uint32_t>, 3> SharedExtent;
  std::array<std::string, 3> SharedArray;
};

/// Block extents that launches of the kernel give although their whole
/// block is not known (`dimBlock.x = 32` with dimBlock.y read at run
/// time), and where: the launch site of each.
struct LaunchedExtents {
  std::array<std::optional<std::uint32_t>, 3> Extent;
  std::array<std::string, 3> Where;
};

/// Adds Launched to Evidence: an extent a launch gives is the block's along
/// that axis, unless the kernel's own code compares blockDim with another.
void addLaunchedExtents(BlockShapeEvidence &Evidence, const LaunchedExtents &Launched);

/// Reads Kernel's body and, to a small depth, the bodies of the device
/// functions it calls.
/// MaxThreadsPerBlock is the target architecture's.
BlockShapeEvidence collectBlockShapeEvidence(const clang::FunctionDecl *Kernel,
                                             clang::ASTContext &Ctx,
                                             unsigned MaxThreadsPerBlock);

/// The launch configuration inferred from Evidence, with
/// LaunchSource::Inferred and a description saying what it rests on; or
/// LaunchSource::Default / LaunchBounds with a block split over the axes the
/// kernel reads when nothing but the axes is known. std::nullopt when the
/// kernel is one-dimensional and says nothing about its size: then the
/// caller's __launch_bounds__ or default block stands as before.
/// MaxThreads is __launch_bounds__'s first argument when there is one.
std::optional<LaunchConfig> inferLaunchFromKernel(const BlockShapeEvidence &Evidence,
                                                  std::optional<std::uint32_t> MaxThreads,
                                                  const LaunchDefaults &Defaults,
                                                  std::uint32_t MaxThreadsPerBlock);

} // namespace warpcheck::analysis

#endif
