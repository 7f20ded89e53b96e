//===- IndexSource.h - the memory read an address is computed from -*- C++ -*-===//
//
// Private to analysis/. An access whose address the warp interpreter could
// not compute because part of it was read from memory (`x[col[j]]`, a CSR
// row's `for (j = rowStart[r]; ...)`, `p->next->v`) is a gather or a
// scatter whose cost depends on the data: no static count of its sectors
// is honest. What can be said is where the address comes from, so that a
// user can judge the data (sorted indices coalesce, random ones do not).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_INDEXSOURCE_H
#define WARPCHECK_ANALYSIS_INDEXSOURCE_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace warpcheck::analysis {

/// The first read of memory (a subscript, a dereference, a member through a
/// pointer, an __ldg-style load) that the address of Access is computed
/// from: in its index and base, and, a few hops deep, in what the local
/// variables they name are given (initialisers, assignments, and the
/// conditions an assignment is made under: a binary search's position
/// depends on the elements it compares) and in the arguments the callers of
/// a device function pass for its parameters (the calls made from Kernel
/// and the functions it calls). Null when the source shows none (the
/// address is then unknown for another reason).
const clang::Expr *memoryReadInAddress(const clang::Expr *Access,
                                       const clang::FunctionDecl *Kernel);

} // namespace warpcheck::analysis

#endif
