//===- BlockExtentArguments.cpp - arguments that pass the block's extent --===//
#include "BlockExtentArguments.h"
#include "CudaBuiltinVariables.h"

#include "clang/AST/ExprCXX.h"

namespace warpcheck::analysis {
namespace {

using namespace clang;

/// The expression a launch's block argument is built from: through the
/// conversions and copies that make a dim3 of it (`dim3(n)` is implicit for
/// `<<<g, n>>>`; a dim3 variable is copied into the launch).
const Expr *peelBlock(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E);
             C && C->getNumArgs() == 1 && C->getConstructor()->isCopyOrMoveConstructor())
      E = C->getArg(0);
    else
      return E;
  }
}

/// Whether A and B name the same object: the same variable, or the same
/// field of the same object (`cfg.threads`), read without side effects.
bool sameObject(const Expr *A, const Expr *B) {
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  if (const auto *DA = dyn_cast<DeclRefExpr>(A)) {
    const auto *DB = dyn_cast<DeclRefExpr>(B);
    return DB && isa<VarDecl>(DA->getDecl()) &&
           DA->getDecl()->getCanonicalDecl() == DB->getDecl()->getCanonicalDecl();
  }
  if (const auto *MA = dyn_cast<MemberExpr>(A)) {
    const auto *MB = dyn_cast<MemberExpr>(B);
    return MB && MA->isArrow() == MB->isArrow() &&
           MA->getMemberDecl()->getCanonicalDecl() == MB->getMemberDecl()->getCanonicalDecl() &&
           sameObject(MA->getBase(), MB->getBase());
  }
  return false;
}

} // namespace

std::optional<unsigned> blockExtentAxisOf(const Expr *Argument, const Expr *Block) {
  if (!Argument || !Block || !Argument->getType()->isIntegerType())
    return std::nullopt;
  const Expr *Shape = peelBlock(Block);
  // dim3(n), dim3(n, m) or the implicit dim3 of an integer block: the
  // constructor's arguments are the extents, axis by axis.
  if (const auto *C = dyn_cast<CXXConstructExpr>(Shape)) {
    for (unsigned Axis = 0; Axis < C->getNumArgs() && Axis < 3; ++Axis)
      if (!isa<CXXDefaultArgExpr>(C->getArg(Axis)) && sameObject(Argument, C->getArg(Axis)))
        return Axis;
    return std::nullopt;
  }
  // An integer block (a C-style cast or a template's dim3 parameter).
  if (Shape->getType()->isIntegerType())
    return sameObject(Argument, Shape) ? std::optional<unsigned>(0u) : std::nullopt;
  // A dim3 object: the argument reads one of its fields.
  const auto *Field = dyn_cast<MemberExpr>(Argument->IgnoreParenImpCasts());
  if (!Field || Field->isArrow() || !Field->getMemberDecl()->getDeclName().isIdentifier())
    return std::nullopt;
  std::optional<unsigned> Axis = axisNamed(Field->getMemberDecl()->getName());
  if (Axis && sameObject(Field->getBase(), Shape))
    return Axis;
  return std::nullopt;
}

void bindBlockExtentArguments(LaunchConfig &C) {
  const std::uint32_t Extents[3] = {C.Block.X, C.Block.Y, C.Block.Z};
  for (auto &[Param, Arg] : C.Arguments)
    if (Arg.BlockExtentAxis && !Arg.Integer)
      Arg.Integer = Extents[*Arg.BlockExtentAxis];
}

} // namespace warpcheck::analysis
