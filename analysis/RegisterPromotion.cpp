//===- RegisterPromotion.cpp - accesses nvcc keeps in a register in a loop ===//

#include "RegisterPromotion.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/Support/Casting.h"

#include <vector>

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// What an access of a loop goes through.
struct LoopAccess {
  const ArraySubscriptExpr *E = nullptr;
  /// The pointer parameter it indexes; null for an array of the function's
  /// own (local or __shared__: no global pointer reaches it).
  const ParmVarDecl *Pointer = nullptr;
  bool Store = false, Load = false;
};

/// The pointer parameter Base names (through casts and parentheses), or
/// null.
const ParmVarDecl *pointerParameter(const Expr *Base) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
  const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  return P && P->getType()->isPointerType() ? P : nullptr;
}

/// An array declared in the function (local or __shared__).
bool ownArray(const Expr *Base) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return V && !isa<ParmVarDecl>(V) && V->getType()->isArrayType();
}

bool isRestrict(const ParmVarDecl *P) { return P && P->getType().isRestrictQualified(); }

/// The accesses of one loop body; false when the loop has something this
/// model does not follow.
class LoopReader {
public:
  std::vector<LoopAccess> Accesses;

  bool read(const Stmt *S, bool Written = false) {
    if (!S)
      return true;
    if (isa<CallExpr>(S) || isa<GCCAsmStmt>(S) || isa<MSAsmStmt>(S) || isa<CXXNewExpr>(S) ||
        isa<CXXDeleteExpr>(S))
      return false;
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp()) {
      if (!lvalue(B->getLHS(), /*Load=*/B->isCompoundAssignmentOp()))
        return false;
      return read(B->getRHS());
    }
    if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp())
      return lvalue(U->getSubExpr(), /*Load=*/true);
    if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_Deref)
      return false; // through a pointer this model does not name
    if (const auto *M = dyn_cast<MemberExpr>(S); M && M->isArrow())
      return false;
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(S)) {
      if (A->getType().isVolatileQualified())
        return false;
      if (!note(A, Written, /*Load=*/true))
        return false;
      return read(A->getIdx());
    }
    for (const Stmt *Child : S->children())
      if (!read(Child))
        return false;
    return true;
  }

private:
  /// An assigned expression: an element (its index is read), or a local.
  bool lvalue(const Expr *E, bool Load) {
    E = E->IgnoreParenImpCasts();
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      if (A->getType().isVolatileQualified())
        return false;
      return note(A, /*Store=*/true, Load) && read(A->getIdx());
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return isa<VarDecl>(Ref->getDecl());
    return false;
  }

  bool note(const ArraySubscriptExpr *A, bool Store, bool Load) {
    const ParmVarDecl *P = pointerParameter(A->getBase());
    if (!P && !ownArray(A->getBase()))
      return !Store; // a load through something else may be kept; a store may alias anything
    for (LoopAccess &X : Accesses)
      if (X.E == A) {
        X.Store |= Store;
        X.Load |= Load;
        return true;
      }
    Accesses.push_back({A, P, Store, Load});
    return true;
  }
};

const Stmt *bodyOf(const Stmt *Loop) {
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return F->getBody();
  if (const auto *W = dyn_cast<WhileStmt>(Loop))
    return W->getBody();
  if (const auto *D = dyn_cast<DoStmt>(Loop))
    return D->getBody();
  return nullptr;
}

/// Loops with no loop inside them nor around them, whose accesses the
/// model reads: a value kept across an inner loop is loaded again in each
/// iteration of the outer one, or not, as LICM finds the outer loop; that
/// is not predicted.
bool containsLoop(const Stmt *S) {
  if (!S)
    return false;
  if (bodyOf(S))
    return true;
  for (const Stmt *Child : S->children())
    if (containsLoop(Child))
      return true;
  return false;
}

void singleLoops(const Stmt *S, std::vector<const Stmt *> &Out) {
  if (!S)
    return;
  if (const Stmt *Body = bodyOf(S)) {
    if (!containsLoop(Body))
      Out.push_back(S);
    return;
  }
  for (const Stmt *Child : S->children())
    singleLoops(Child, Out);
}

} // namespace

std::map<std::pair<const Expr *, AccessOp>, const Stmt *>
accessesKeptInRegisters(const FunctionDecl *Kernel) {
  std::map<std::pair<const Expr *, AccessOp>, const Stmt *> Out;
  const FunctionDecl *Def = Kernel ? Kernel->getDefinition() : nullptr;
  if (!Def || !Def->getBody())
    return Out;
  std::vector<const Stmt *> Loops;
  singleLoops(Def->getBody(), Loops);
  for (const Stmt *Loop : Loops) {
    LoopReader R;
    // The loop's condition and increment run each iteration too.
    bool Followed = R.read(bodyOf(Loop));
    if (const auto *F = dyn_cast<ForStmt>(Loop))
      Followed = Followed && R.read(F->getCond()) && R.read(F->getInc());
    else if (const auto *W = dyn_cast<WhileStmt>(Loop))
      Followed = Followed && R.read(W->getCond());
    else if (const auto *D = dyn_cast<DoStmt>(Loop))
      Followed = Followed && R.read(D->getCond());
    if (!Followed)
      continue;
    for (const LoopAccess &A : R.Accesses) {
      if (!A.Pointer)
        continue; // local and __shared__ arrays: not global memory
      if (A.Load) {
        // Every other store goes where this load cannot read.
        bool Kept = true;
        for (const LoopAccess &B : R.Accesses)
          if (B.E != A.E && B.Store && B.Pointer &&
              (B.Pointer == A.Pointer || !(isRestrict(A.Pointer) || isRestrict(B.Pointer))))
            Kept = false;
        if (Kept)
          Out[{A.E, AccessOp::Load}] = Loop;
      }
      if (A.Store && isRestrict(A.Pointer)) {
        // No other access of the loop reads or writes through its pointer.
        bool Kept = true;
        for (const LoopAccess &B : R.Accesses)
          if (B.E != A.E && B.Pointer == A.Pointer)
            Kept = false;
        if (Kept)
          Out[{A.E, AccessOp::Store}] = Loop;
      }
    }
  }
  return Out;
}

} // namespace warpcheck::analysis
