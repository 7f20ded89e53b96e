//===- CudaAtomics.h - the CUDA atomic functions in the AST -----*- C++ -*-===//
//
// The atomic functions are one family of names (CUDA C++ Programming Guide,
// "Atomic Functions": atomicAdd, atomicCAS_block, atomicExch_system, ...),
// each taking the word's address first and returning its old value. The
// warp interpreter simulates them, the index tracer treats their result as
// a read of memory, and the padding fix-it leaves an array whose element
// address they take alone: one test of the name for the three. Private to
// analysis/.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_CUDAATOMICS_H
#define WARPCHECK_ANALYSIS_CUDAATOMICS_H

#include "clang/AST/Expr.h"

namespace warpcheck::analysis {

/// Whether Name is one of the atomic functions.
inline bool isAtomicFunctionName(llvm::StringRef Name) { return Name.starts_with("atomic"); }

/// Whether C calls one of the atomic functions.
inline bool isAtomicCall(const clang::CallExpr *C) {
  const clang::FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  return F && F->getIdentifier() && isAtomicFunctionName(F->getName());
}

} // namespace warpcheck::analysis

#endif
