//===- CudaBuiltinVariables.h - threadIdx, blockIdx, ... in the AST -*- C++ -*-===//
//
// clang spells `threadIdx.x` as a pseudo-object over an MSPropertyRefExpr
// whose base is the builtin variable (an extern const of a
// __cuda_builtin_*_t type, __clang_cuda_builtin_vars.h), reached through
// the pseudo-object's opaque operand. Private to analysis/.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_CUDABUILTINVARIABLES_H
#define WARPCHECK_ANALYSIS_CUDABUILTINVARIABLES_H

#include "clang/AST/ExprCXX.h"

#include <optional>

namespace warpcheck::analysis {

/// The builtin variable ("threadIdx", "blockIdx", "blockDim", "gridDim")
/// that E names, looking through a pseudo-object's operand; "" otherwise.
inline llvm::StringRef builtinVariableName(const clang::Expr *E) {
  using namespace clang;
  if (!E)
    return "";
  E = E->IgnoreParenImpCasts();
  if (const auto *OV = dyn_cast<OpaqueValueExpr>(E))
    E = OV->getSourceExpr() ? OV->getSourceExpr()->IgnoreParenImpCasts() : E;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      if (const auto *RD = V->getType()->getAsCXXRecordDecl())
        if (RD->getName().starts_with("__cuda_builtin_"))
          return V->getName();
  return "";
}

/// The axis a field of a dim3 or a builtin variable names: x 0, y 1, z 2.
inline std::optional<unsigned> axisNamed(llvm::StringRef Field) {
  if (Field == "x")
    return 0u;
  if (Field == "y")
    return 1u;
  if (Field == "z")
    return 2u;
  return std::nullopt;
}

/// A read of one field of a builtin variable: `threadIdx.y` is
/// {"threadIdx", 1}.
struct BuiltinRead {
  llvm::StringRef Var;
  unsigned Axis;
};

/// E (casts and parentheses aside) as such a read, or nullopt.
inline std::optional<BuiltinRead> builtinRead(const clang::Expr *E) {
  using namespace clang;
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenCasts();
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    E = PO->getSyntacticForm()->IgnoreParens();
  const auto *MP = dyn_cast<MSPropertyRefExpr>(E);
  if (!MP)
    return std::nullopt;
  llvm::StringRef Var = builtinVariableName(MP->getBaseExpr());
  std::optional<unsigned> Axis = axisNamed(MP->getPropertyDecl()->getName());
  if (Var.empty() || !Axis)
    return std::nullopt;
  return BuiltinRead{Var, *Axis};
}

} // namespace warpcheck::analysis

#endif
