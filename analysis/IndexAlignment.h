//===- IndexAlignment.h - what the compiler can prove of an index -*- C++ -*-===//
//
// Private to analysis/. Whether ptxas may merge an unrolled loop's accesses
// into one wider access depends on an alignment the compiler proves once,
// for every run of the kernel, from the index as written (LLVM's
// computeKnownBits over the address: the low bits that are zero whatever
// the values known only at run time are). `tile[threadIdx.x * 32 + c]` is
// a multiple of 32 elements before c; `tile[threadIdx.x * stride + c]`,
// with `stride` a kernel parameter, is a multiple of nothing, however
// aligned the values the program passes happen to be (measured: nvcc 13
// -arch=sm_90 emits 32 scalar STS for test/inputs/rounded-strides.cu's
// rowSums, its stride a multiple of 32 at run time). The simulation sees
// only the values of one run; this is the compiler's side.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_INDEXALIGNMENT_H
#define WARPCHECK_ANALYSIS_INDEXALIGNMENT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <cstdint>

namespace warpcheck::analysis {

/// The number of low bits of Index the compiler knows are zero, whatever
/// the values known only at run time (threadIdx, blockIdx, blockDim, kernel
/// parameters, values read from memory, calls): 64 for an index known to
/// be 0. Constants, template arguments and constexpr values are known; a
/// local variable initialised once and never written again is its
/// initializer; Skipped (an unrolled loop's counter, whose copies the
/// caller places itself) and the counters of enclosing `for` loops (which
/// the compiler unrolls as well, each copy's counter then known: the
/// simulation's addresses decide those) count as 0 bits unknown. Products
/// add, sums take the smaller, shifts by constants add.
unsigned knownTrailingZeroBits(const clang::Expr *Index, const clang::VarDecl *Skipped,
                               clang::ASTContext &Ctx);

/// Whether Index, an index into an array of ElementBytes-byte elements
/// aligned to Bytes (a power of two), proves the element at it aligned to
/// Bytes: where two adjacent elements `s[i0]`, `s[i0 + 1]` can be one
/// access of twice the element (nvcc 13 pairs `s[2 * t]`, `s[2 * t + 1]`
/// into one LDS.64, not `s[t * stride]`, `s[t * stride + 1]`).
bool provesAligned(const clang::Expr *Index, std::uint64_t ElementBytes, std::uint64_t Bytes,
                   clang::ASTContext &Ctx);

} // namespace warpcheck::analysis

#endif
