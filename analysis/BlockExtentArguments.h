//===- BlockExtentArguments.h - arguments that pass the block's extent ----===//
//
// Real host code often hands a kernel its own block size as an argument:
// `dwt<<<grid, block, smem>>>(..., block.x)`, `scan<<<1, n>>>(..., n)`. When
// the block itself cannot be evaluated (its size is read at run time) the
// analysis assumes a shape, and such a parameter is then not an unknown to
// sweep over all values: it is that shape's extent. Sweeping it apart from
// the block would pair a block of 256 threads with `bdim` = 65535, a launch
// no program makes.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_BLOCKEXTENTARGUMENTS_H
#define WARPCHECK_ANALYSIS_BLOCKEXTENTARGUMENTS_H

#include "warpcheck/analysis/LaunchConfig.h"

#include "clang/AST/Expr.h"

#include <optional>

namespace warpcheck::analysis {

/// The axis (0 = x, 1 = y, 2 = z) whose block extent Argument reads at a
/// launch whose block is Block, when that is evident from the source alone:
/// `block.x` beside a block `block`, `n` beside a block `n` or `dim3(n, m)`.
/// Both are read at the same launch, so they are the same value whatever it
/// is. Nothing when Argument is anything else (an expression of the extent,
/// `2 * block.x`, is not followed).
std::optional<unsigned> blockExtentAxisOf(const clang::Expr *Argument,
                                          const clang::Expr *Block);

/// Gives every parameter of C bound only as "the block's extent along an
/// axis" the integer of C's block along that axis: the shape C assumes (an
/// inferred, __launch_bounds__ or default block) is then the one the
/// parameter has too.
void bindBlockExtentArguments(LaunchConfig &C);

} // namespace warpcheck::analysis

#endif
