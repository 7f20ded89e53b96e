//===- IndexAlignment.cpp - what the compiler can prove of an index -------===//

#include "IndexAlignment.h"
#include "SourceMemory.h"

#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/bit.h"

#include <algorithm>

using namespace clang;

namespace warpcheck::analysis {

namespace {

constexpr unsigned AllZero = 64;
/// Locals followed through their initializers, at most.
constexpr unsigned MaxDepth = 8;


/// Whether Var is the counter a `for` statement declares.
bool isForCounter(const VarDecl *Var, ASTContext &Ctx) {
  for (const DynTypedNode &P : Ctx.getParents(*Var))
    if (const auto *DS = P.get<DeclStmt>())
      for (const DynTypedNode &Q : Ctx.getParents(*DS))
        if (const auto *F = Q.get<ForStmt>(); F && F->getInit() == DS)
          return true;
  return false;
}


unsigned trailingZeros(const Expr *E, const VarDecl *Skipped, ASTContext &Ctx, unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return 0;
  E = E->IgnoreParenCasts();
  if (E->isValueDependent() || E->isTypeDependent())
    return 0;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (DRE->getDecl() == Skipped)
      return AllZero;
  }
  Expr::EvalResult R;
  if (E->getType()->isIntegralOrEnumerationType() && E->EvaluateAsInt(R, Ctx)) {
    llvm::APSInt V = R.Val.getInt();
    return V.isZero() ? AllZero : V.countTrailingZeros();
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    // An enclosing loop's counter: the compiler unrolls such loops too, and
    // knows each copy's counter (sgemm_cuda's padded rows, `s[dot * 133 +
    // ...]`, some LDS.64 in the unrolled `dot` loop): the simulation's
    // addresses decide, run by run.
    if (VD && isForCounter(VD, Ctx))
      return AllZero;
    if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() || !VD->getInit() ||
        VD->getType()->isReferenceType() || writtenAfterDeclaration(VD))
      return 0;
    return trailingZeros(VD->getInit(), Skipped, Ctx, Depth + 1);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus)
      return trailingZeros(UO->getSubExpr(), Skipped, Ctx, Depth);
    return 0;
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return 0;
  auto L = [&] { return trailingZeros(BO->getLHS(), Skipped, Ctx, Depth); };
  auto R2 = [&] { return trailingZeros(BO->getRHS(), Skipped, Ctx, Depth); };
  switch (BO->getOpcode()) {
  case BO_Mul:
    return std::min(AllZero, L() + R2());
  case BO_Add:
  case BO_Sub:
  case BO_Or:
  case BO_Xor:
    return std::min(L(), R2());
  case BO_And:
    return std::max(L(), R2());
  case BO_Shl: {
    Expr::EvalResult K;
    if (BO->getRHS()->EvaluateAsInt(K, Ctx) && K.Val.getInt().isNonNegative() &&
        K.Val.getInt().getZExtValue() < 64)
      return std::min<unsigned>(AllZero, L() + K.Val.getInt().getZExtValue());
    return 0;
  }
  case BO_Comma:
    return R2();
  default:
    return 0;
  }
}

} // namespace

unsigned knownTrailingZeroBits(const Expr *Index, const VarDecl *Skipped, ASTContext &Ctx) {
  return trailingZeros(Index, Skipped, Ctx, 0);
}

bool provesAligned(const Expr *Index, std::uint64_t ElementBytes, std::uint64_t Bytes,
                   ASTContext &Ctx) {
  unsigned Zeros = knownTrailingZeroBits(Index, nullptr, Ctx);
  return Zeros >= 64 ||
         Zeros + static_cast<unsigned>(llvm::countr_zero(ElementBytes)) >=
             static_cast<unsigned>(llvm::countr_zero(Bytes));
}

} // namespace warpcheck::analysis
