//===- LoopUnrolling.h - which loops NVVM unrolls completely -----*- C++ -*-===//
//
// What both predictions of the compiler's code read from a loop: the merged
// accesses of an unrolled loop (UnrolledMerges.h), the values kept in
// registers across a loop nest (RegisterPromotion.h) and the multiplies
// fused into the adds of a loop that is gone (interp/FloatOperations.h).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_LOOPUNROLLING_H
#define WARPCHECK_ANALYSIS_LOOPUNROLLING_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <cstdint>
#include <optional>

namespace warpcheck::analysis {

/// The variable E names (through parentheses and implicit casts), if any.
const clang::VarDecl *loopCounterOf(const clang::Expr *E);

/// E's value when clang can fold it to an integer constant.
std::optional<std::int64_t> integerConstantOf(const clang::Expr *E,
                                              const clang::ASTContext &Ctx);

/// The trip count of `for (T i = a; i < b; ++i)` (or <=, >, >=, != and a
/// constant step), every bound a constant.
std::optional<std::int64_t> constantTripCount(const clang::ForStmt *F,
                                              const clang::ASTContext &Ctx);

/// The count `#pragma unroll` gives F (0: unroll completely), or none when
/// it has no such pragma; -1 for `#pragma nounroll` / `unroll 1`.
std::optional<std::int64_t> pragmaUnroll(const clang::ForStmt *F, clang::ASTContext &Ctx);

/// The trip count of F when NVVM unrolls it completely: a constant one of
/// at least 1, up to 32 on its own and up to 1024 under `#pragma unroll`
/// (with no smaller count); none otherwise (`#pragma unroll 1` included).
std::optional<std::int64_t> completeUnrollTripCount(const clang::ForStmt *F,
                                                    clang::ASTContext &Ctx);

} // namespace warpcheck::analysis

#endif
