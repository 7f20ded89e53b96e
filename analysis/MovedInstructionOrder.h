//===- MovedInstructionOrder.h - which moved instruction is whose ---------===//
//
// Private to analysis/. With a listing, an access whose line has no
// instruction of its kind was moved by the compiler, and a line with
// instructions no access of its own explains received them. When several
// such accesses could each be several such lines' (all of one kind and
// width), their order says which is which: nvcc moves each load within
// the stretch of code between its neighbours, never past another moved
// load of the same kind.
//
//  hoisted  LICM puts a loop-invariant load in its loop's preheader; the
//           load loses its source location and the line table gives it the
//           line of the instruction before it, which lies after the
//           previous access. test/inputs/generated/gen-3.cu's gen3_10: the
//           load of line 215 (a loop from line 213) measured on line 212,
//           the `__syncthreads()` before the loop; the load of line 222
//           (a loop from line 220) on line 218, the atomicAdd before it.
//           Each lies between the previous unmatched access and its own.
//  sunk     a load moved down to its value's first use lies between its
//           own line and the next unmatched access's.
//
// The pairing is accepted only when the two sets are equally many and
// every pair is consistent one way: each instruction line just before its
// access (after the previous one), or each just after it (before the
// next). Anything else stays unexplained.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_MOVEDINSTRUCTIONORDER_H
#define WARPCHECK_ANALYSIS_MOVEDINSTRUCTIONORDER_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace warpcheck::analysis {

/// AccessLines: the lines of accesses with no instruction of their kind
/// there; InstructionLines: the lines of unexplained instructions; both
/// sorted, without repeats. Fits(A, I): whether access line A could be
/// served by instruction line I (kind, space, width). Returns, for each
/// access line (by index), the index of its instruction line, when one
/// order-consistent pairing exists; none otherwise.
std::optional<std::vector<size_t>>
pairMovedInOrder(const std::vector<unsigned> &AccessLines,
                 const std::vector<unsigned> &InstructionLines,
                 llvm::function_ref<bool(size_t, size_t)> Fits);

} // namespace warpcheck::analysis

#endif
