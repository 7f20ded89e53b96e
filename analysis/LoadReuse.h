//===- LoadReuse.h - loads nvcc serves from an earlier access's register --===//
//
// Private to analysis/. Without the compiled kernel's listing
// (EmittedInstructions.h reads it when a toolkit is there), what nvcc's
// optimizer does with straight-line code is predicted from the source, as
// RegisterPromotion.h predicts it for loops: LLVM's GVN replaces a load
// with the value an earlier load or store of the same element left in a
// register when that access is made before it on every path and nothing
// between may write the memory it reads (a store through a pointer that may
// alias it, a barrier, an atomic, a call that is not known to touch no
// memory, inline assembly) nor change its index.
//
// The earlier access may also be made on some paths only (behind `&&`,
// `||` or `?:`, in one arm of an `if`) when the later one is made on every
// path after the construct around it: nvcc then loads the element once, for
// every lane, before that construct: one request, of both reads' lanes,
// which the model counts on the earlier read (Simulation.cpp).
//
// Measured (H100, test/inputs/load-reuse.cu and shared-small-tables.cu,
// records in test/hw/inputs/): a running maximum's `if (row[k] > m) m =
// row[k];` loads once (the idiom of llm.c's attention_softmax_kernel1, whose
// corpus record has no load on the assignment's line either); a store
// between through another pointer makes the element load again unless both
// pointers are __restrict__; a call that stores, a __syncthreads() too; a
// __shared__ store's value is read back without a load; `digits[threadIdx.x]`
// behind `threadIdx.x > 0 &&` serves the same element read by every lane
// after it, for lane 0 too; a read in one arm of a branch and the same
// element after it make one load of 32 lanes; a later read under a branch of
// its own is loaded again (guardedShared). A load hoisted before a branch
// has the two reads' source locations merged away, and the line table gives
// it the line of the instruction before it, its address's computation
// (load-reuse.cu guardedGlobal, readInOneArm: the index's line;
// SourceMemory.h, addressComputationLine); an address naming no local
// variable keeps the earlier access's line (shared-small-tables.cu).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_LOADREUSE_H
#define WARPCHECK_ANALYSIS_LOADREUSE_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <map>

namespace warpcheck::analysis {

/// The access whose value a load reuses.
struct ReusedValue {
  /// The earlier load or store of the same element (an ArraySubscriptExpr).
  const clang::Expr *Earlier = nullptr;
  /// The earlier access is not made on every path to this one, which is
  /// made on every path after it: one load for every lane of this read,
  /// before the earlier's branch, serves both.
  bool Hoisted = false;
};

/// The loads of Kernel's own body (element reads `a[i]`; not those of the
/// functions it calls, nor of its lambdas) that nvcc takes from the
/// register of an earlier access of the same element.
std::map<const clang::Expr *, ReusedValue> loadsReusingEarlierValues(const clang::FunctionDecl *Kernel);

} // namespace warpcheck::analysis

#endif
