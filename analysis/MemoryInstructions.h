//===- MemoryInstructions.h - accesses nvcc may emit as one instruction ---===//
//
// Private to analysis/. The simulation costs each access of the source as
// an instruction of its own; nvcc does not always emit it so. Measured on
// the H200 in real programs (test/hw/realcode/): BlackScholes reads
// `d_StockPrice[opt].x` and `.y` of a float2 with one LDG.E.64, and
// fastWalshTransform's `s_data[i0]` and `s_data[i1]` (i1 = i0 + 1, i0 even)
// are one LDS.64 and one STS.64: a stride-2 "conflict" the hardware never
// sees. Such a pair the simulation sees executed together, aligned, is
// predicted merged (UnrolledMerges.h); the accesses left here (struct
// fields, pairs it could not pair) are not called exact: their numbers are
// those of separate instructions.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_MEMORYINSTRUCTIONS_H
#define WARPCHECK_ANALYSIS_MEMORYINSTRUCTIONS_H

#include "warpcheck/analysis/AccessReport.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <vector>

namespace warpcheck::analysis {

/// Per access expression, the values of its sub-expressions the first time
/// it was executed (the warp interpreter's capture).
using CapturedValues =
    std::map<const clang::Expr *, std::map<const clang::Expr *, std::vector<std::int64_t>>>;

/// Next is Index + 1: written so (`a[i + 1]`), or through a local
/// initialised so (`int i1 = i0 + 1;`). A variable offset (`a[i + s]`) is
/// not one.
bool isNextIndex(const clang::Expr *Index, const clang::Expr *Next,
                 const clang::ASTContext &Ctx);

/// Adds an assumption (makes the status assumed, and sets MayMergeWith:
/// the checks then report nothing on it) to every access of
/// Accesses that nvcc may merge with another into one wider instruction:
/// two fields of one aligned vector-like element (float2, int4...) read or
/// written through the same expression, or two adjacent elements `s[i]` and
/// `s[i + 1]` of a __shared__ array whose first element is aligned to their
/// pair in every lane and whose index as written proves it so
/// (IndexAlignment.h), both non-volatile.
void noteMergeableAccesses(std::vector<AccessResult> &Accesses, const CapturedValues &Captured,
                           clang::ASTContext &Ctx);

} // namespace warpcheck::analysis

#endif
