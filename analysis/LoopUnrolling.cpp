//===- LoopUnrolling.cpp - which loops NVVM unrolls completely ------------===//

#include "LoopUnrolling.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// NVVM unrolls a small constant-trip-count loop completely on its own
/// (its unroll threshold weighs the unrolled body; a few instructions per
/// iteration stay under it up to about this count); `#pragma unroll` lifts
/// the bound up to the pragma threshold.
constexpr std::int64_t MaxTripWithoutPragma = 32;
constexpr std::int64_t MaxTripWithPragma = 1024;

} // namespace

const VarDecl *loopCounterOf(const Expr *E) {
  const auto *Ref = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

std::optional<std::int64_t> integerConstantOf(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

std::optional<std::int64_t> constantTripCount(const ForStmt *F, const ASTContext &Ctx) {
  const VarDecl *Counter = nullptr;
  std::optional<std::int64_t> Start;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()); DS && DS->isSingleDecl()) {
    Counter = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (Counter)
      Start = integerConstantOf(Counter->getInit(), Ctx);
  } else if (const auto *A = dyn_cast_or_null<BinaryOperator>(F->getInit());
             A && A->getOpcode() == BO_Assign) {
    Counter = loopCounterOf(A->getLHS());
    Start = integerConstantOf(A->getRHS(), Ctx);
  }
  if (!Counter || !Start || !Counter->getType()->isIntegerType())
    return std::nullopt;
  std::optional<std::int64_t> Step;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(F->getInc());
      U && loopCounterOf(U->getSubExpr()) == Counter)
    Step = U->isIncrementOp() ? 1 : U->isDecrementOp() ? -1 : 0;
  else if (const auto *C = dyn_cast_or_null<CompoundAssignOperator>(F->getInc());
           C && loopCounterOf(C->getLHS()) == Counter) {
    std::optional<std::int64_t> By = integerConstantOf(C->getRHS(), Ctx);
    if (By && C->getOpcode() == BO_AddAssign)
      Step = *By;
    else if (By && C->getOpcode() == BO_SubAssign)
      Step = -*By;
  }
  if (!Step || *Step == 0)
    return std::nullopt;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
  if (!Cond || loopCounterOf(Cond->getLHS()) != Counter)
    return std::nullopt;
  std::optional<std::int64_t> Bound = integerConstantOf(Cond->getRHS(), Ctx);
  if (!Bound)
    return std::nullopt;
  std::int64_t S = *Step, From = *Start, To = *Bound;
  switch (Cond->getOpcode()) {
  case BO_LT:
  case BO_NE:
    break;
  case BO_LE:
    To += 1;
    break;
  case BO_GT:
    break;
  case BO_GE:
    To -= 1;
    break;
  default:
    return std::nullopt;
  }
  bool Up = Cond->getOpcode() == BO_LT || Cond->getOpcode() == BO_LE ||
            (Cond->getOpcode() == BO_NE && S > 0);
  if (Up != (S > 0))
    return std::nullopt;
  std::int64_t Span = Up ? To - From : From - To;
  std::int64_t Abs = S > 0 ? S : -S;
  if (Span <= 0)
    return 0;
  // `!=` must land on its bound.
  if (Cond->getOpcode() == BO_NE && Span % Abs != 0)
    return std::nullopt;
  return (Span + Abs - 1) / Abs;
}

std::optional<std::int64_t> pragmaUnroll(const ForStmt *F, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*F);
  const auto *AS = Parents.empty() ? nullptr : Parents[0].get<AttributedStmt>();
  if (!AS)
    return std::nullopt;
  for (const Attr *A : AS->getAttrs()) {
    const auto *Hint = dyn_cast<LoopHintAttr>(A);
    if (!Hint)
      continue;
    if (Hint->getState() == LoopHintAttr::Disable)
      return -1;
    if (Hint->getOption() == LoopHintAttr::Unroll && Hint->getState() != LoopHintAttr::Numeric)
      return 0;
    if (Hint->getOption() == LoopHintAttr::UnrollCount) {
      std::optional<std::int64_t> N = integerConstantOf(Hint->getValue(), Ctx);
      if (!N)
        return std::nullopt;
      return *N <= 1 ? -1 : *N;
    }
  }
  return std::nullopt;
}

std::optional<std::int64_t> completeUnrollTripCount(const ForStmt *F, ASTContext &Ctx) {
  std::optional<std::int64_t> Trip = constantTripCount(F, Ctx);
  if (!Trip || *Trip < 1)
    return std::nullopt;
  std::optional<std::int64_t> Pragma = pragmaUnroll(F, Ctx);
  if (Pragma && (*Pragma < 0 || (*Pragma > 0 && *Pragma < *Trip)))
    return std::nullopt;
  if (*Trip > (Pragma ? MaxTripWithPragma : MaxTripWithoutPragma))
    return std::nullopt;
  return Trip;
}


} // namespace warpcheck::analysis
