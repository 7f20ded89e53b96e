//===- ExprWrappers.h - expressions that only wrap another -----*- C++ -*-===//
//
// Clang wraps values in nodes that change nothing about them: cleanups,
// temporaries, default arguments and initializers, substituted template
// arguments, opaque values. The warp interpreter and the host evaluator
// both look through them, with this one list. Private to analysis/.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_EXPRWRAPPERS_H
#define WARPCHECK_ANALYSIS_EXPRWRAPPERS_H

#include "clang/AST/ExprCXX.h"

namespace warpcheck::analysis {

/// The expression E only wraps, or null when E is no such wrapper (an
/// opaque value without its source wraps nothing and is null too).
inline const clang::Expr *wrappedExpression(const clang::Expr *E) {
  using namespace clang;
  if (const auto *ST = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return ST->getReplacement();
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return DA->getExpr();
  if (const auto *DI = dyn_cast<CXXDefaultInitExpr>(E))
    return DI->getExpr();
  if (const auto *EW = dyn_cast<ExprWithCleanups>(E))
    return EW->getSubExpr();
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    return MT->getSubExpr();
  if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
    return BT->getSubExpr();
  if (const auto *OV = dyn_cast<OpaqueValueExpr>(E))
    return OV->getSourceExpr();
  return nullptr;
}

/// Whether E is one of the wrappers wrappedExpression looks through.
inline bool isWrapper(const clang::Expr *E) {
  using namespace clang;
  return isa<SubstNonTypeTemplateParmExpr, CXXDefaultArgExpr, CXXDefaultInitExpr,
             ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
             OpaqueValueExpr>(E);
}

} // namespace warpcheck::analysis

#endif
