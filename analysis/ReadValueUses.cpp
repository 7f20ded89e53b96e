//===- ReadValueUses.cpp - where a value read from memory can go ---------===//

#include "ReadValueUses.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// What becomes of the value of E (parentheses and integer conversions
/// looked through): converted to floating point, the initialiser of a
/// local variable (returned in Var), or anything else.
enum class UseKind { FloatingPoint, InitializesVar, Other };

UseKind useOf(const Expr *E, ASTContext &Ctx, const VarDecl *&Var) {
  for (;;) {
    DynTypedNodeList Parents = Ctx.getParents(*E);
    if (Parents.size() != 1)
      return UseKind::Other;
    if (const auto *VD = Parents[0].get<VarDecl>()) {
      if (VD->getInit() && VD->getInit()->IgnoreParenImpCasts() == E->IgnoreParenImpCasts() &&
          VD->isLocalVarDecl() && !VD->getType()->isReferenceType() &&
          VD->getType()->isIntegralOrEnumerationType()) {
        Var = VD;
        return UseKind::InitializesVar;
      }
      return UseKind::Other;
    }
    const auto *P = Parents[0].get<Expr>();
    if (!P)
      return UseKind::Other;
    if (isa<ParenExpr>(P)) {
      E = P;
      continue;
    }
    const auto *C = dyn_cast<CastExpr>(P);
    if (!C)
      return UseKind::Other;
    if (C->getCastKind() == CK_IntegralToFloating)
      return UseKind::FloatingPoint;
    if (C->getCastKind() == CK_LValueToRValue || C->getCastKind() == CK_NoOp ||
        C->getCastKind() == CK_IntegralCast) {
      E = C;
      continue;
    }
    return UseKind::Other;
  }
}

/// Every reference to a variable in a function body.
class References : public RecursiveASTVisitor<References> {
public:
  explicit References(const VarDecl *Var) : Var(Var) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl() == Var)
      Found.push_back(E);
    return true;
  }
  const VarDecl *Var;
  std::vector<const DeclRefExpr *> Found;
};

} // namespace

bool usedOnlyAsFloatingPoint(const Expr *Read, ASTContext &Ctx) {
  if (!Read)
    return false;
  const VarDecl *Var = nullptr;
  UseKind Use = useOf(Read, Ctx, Var);
  if (Use != UseKind::InitializesVar)
    return Use == UseKind::FloatingPoint;
  const auto *Function = dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
  if (!Function || !Function->getBody())
    return false;
  References Refs(Var);
  Refs.TraverseStmt(Function->getBody());
  for (const DeclRefExpr *Ref : Refs.Found) {
    // A use must read the variable (an lvalue-to-rvalue conversion) and
    // convert what it read to floating point: an assignment, an increment,
    // `&v` or a reference bound to it reads as Other.
    const VarDecl *Again = nullptr;
    if (useOf(Ref, Ctx, Again) != UseKind::FloatingPoint)
      return false;
  }
  return true;
}

} // namespace warpcheck::analysis
