//===- SelectedLoads.cpp - one load of the address a branch selects ------===//

#include "SelectedLoads.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// E as a load of memory the simulation records: an array element or a
/// dereference, of a non-volatile scalar.
const Expr *memoryOperand(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParens();
  bool Memory = isa<ArraySubscriptExpr>(E);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    Memory = U->getOpcode() == UO_Deref;
  if (!Memory || !E->getType()->isScalarType() || E->getType().isVolatileQualified())
    return nullptr;
  return E;
}

const Stmt *parentOf(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

/// The statement of an arm, without a block of one statement around it.
const Stmt *soleStatement(const Stmt *Arm) {
  if (const auto *C = dyn_cast_or_null<CompoundStmt>(Arm))
    return C->size() == 1 ? C->body_front() : nullptr;
  return Arm;
}

/// `V = load`: the local variable V and the load.
std::pair<const VarDecl *, const Expr *> assignedLoad(const Stmt *S) {
  const auto *B = dyn_cast_or_null<BinaryOperator>(S);
  if (!B || B->getOpcode() != BO_Assign)
    return {};
  const auto *Ref = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType())
    return {};
  return {V, memoryOperand(B->getRHS()->IgnoreParenImpCasts())};
}

bool sameWidth(const Expr *A, const Expr *B, ASTContext &Ctx) {
  return Ctx.getTypeSizeInChars(A->getType()) == Ctx.getTypeSizeInChars(B->getType());
}

unsigned lineOf(const Stmt *S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  return SM.getExpansionLineNumber(SM.getExpansionLoc(S->getBeginLoc()));
}

} // namespace

std::optional<SelectedLoad> selectedLoad(const Expr *Site, ASTContext &Ctx) {
  const Expr *Load = memoryOperand(Site);
  if (!Load)
    return std::nullopt;
  const Stmt *Up = parentOf(Load, Ctx);
  while (isa_and_nonnull<ParenExpr>(Up))
    Up = parentOf(Up, Ctx);
  // `if (c) v = s[a]; else v = s[b];` and a statement after it.
  while (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Up))
    Up = parentOf(Cast, Ctx);
  auto [Var, Mine] = assignedLoad(Up);
  if (!Var || Mine != Load)
    return std::nullopt;
  const Stmt *Arm = Up;
  const Stmt *Above = parentOf(Up, Ctx);
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(Above)) {
    if (Block->size() != 1)
      return std::nullopt;
    Arm = Block;
    Above = parentOf(Block, Ctx);
  }
  const auto *If = dyn_cast_or_null<IfStmt>(Above);
  if (!If || !If->getElse() || If->isConstexpr() || If->getInit() ||
      If->getConditionVariable() || (If->getThen() != Arm && If->getElse() != Arm))
    return std::nullopt;
  auto [OtherVar, Other] =
      assignedLoad(soleStatement(If->getThen() == Arm ? If->getElse() : If->getThen()));
  if (OtherVar != Var || !Other || !sameWidth(Load, Other, Ctx))
    return std::nullopt;
  const auto *Block = dyn_cast_or_null<CompoundStmt>(parentOf(If, Ctx));
  if (!Block)
    return std::nullopt;
  const Stmt *const *At = std::find(Block->body_begin(), Block->body_end(), If);
  if (At == Block->body_end() || At + 1 == Block->body_end())
    return std::nullopt;
  return SelectedLoad{Other, If, lineOf(At[1], Ctx)};
}

} // namespace warpcheck::analysis
