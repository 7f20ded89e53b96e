//===- SourceMemory.cpp - the memory an access of the source goes through -===//

#include "SourceMemory.h"
#include "CudaBuiltinVariables.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <functional>
#include <map>

using namespace clang;

namespace warpcheck::analysis {

const ParmVarDecl *pointerParameter(const Expr *Base) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
  const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  return P && P->getType()->isPointerType() ? P : nullptr;
}

bool namesMemory(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<ArraySubscriptExpr>(E))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UO_Deref;
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return M->isArrow() || namesMemory(M->getBase());
  return false;
}

namespace {

/// Whether Var is written anywhere in Body after its declaration (assigned,
/// incremented, its address taken or bound to a non-const reference).
struct WrittenVisitor : RecursiveASTVisitor<WrittenVisitor> {
  const VarDecl *Var;
  bool Written = false;
  bool names(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == Var;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp() && names(BO->getLHS()))
      Written = true;
    return !Written;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) && names(UO->getSubExpr()))
      Written = true;
    return !Written;
  }
};

} // namespace

bool writtenAfterDeclaration(const VarDecl *Var) {
  const auto *FD = dyn_cast<FunctionDecl>(Var->getDeclContext());
  if (!FD || !FD->getBody())
    return true;
  WrittenVisitor V;
  V.Var = Var;
  V.TraverseStmt(FD->getBody());
  return V.Written;
}

const ParmVarDecl *pointerParameterThrough(const Expr *Base) {
  if (const ParmVarDecl *P = pointerParameter(Base))
    return P;
  MemoryRoot Root = memoryRootOf(
      Base, [](const VarDecl *V) { return !writtenAfterDeclaration(V); });
  return Root.K == MemoryRoot::Parameter ? dyn_cast<ParmVarDecl>(Root.Decl) : nullptr;
}

namespace {

/// What the statement S itself does to memory: writes the lvalue Written
/// (an assignment, an increment, an operator=), or calls a function that
/// may touch it (Call); neither for anything else.
struct MemoryEffect {
  const Expr *Written = nullptr;
  const CallExpr *Call = nullptr;
};
MemoryEffect memoryEffectOf(const Stmt *S) {
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp() && namesMemory(B->getLHS()))
    return {B->getLHS(), nullptr};
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->isIncrementDecrementOp() && namesMemory(U->getSubExpr()))
    return {U->getSubExpr(), nullptr};
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && Op->isAssignmentOp() && Op->getNumArgs() > 0 && namesMemory(Op->getArg(0)))
    return {Op->getArg(0), nullptr};
  if (const auto *Call = dyn_cast<CallExpr>(S);
      Call && !isa<CXXOperatorCallExpr>(S) && !builtinRead(Call) && !isPureCall(Call))
    return {nullptr, Call};
  return {};
}

} // namespace

KernelMemoryWrites memoryWritesOf(const FunctionDecl *Kernel) {
  KernelMemoryWrites Out;
  if (!Kernel || !Kernel->getBody())
    return Out;
  std::map<const VarDecl *, bool> AssignedOnce;
  auto Unassigned = [&](const VarDecl *V) {
    auto [It, New] = AssignedOnce.try_emplace(V, false);
    if (New)
      It->second = !writtenAfterDeclaration(V);
    return It->second;
  };
  unsigned Writes = 0;
  bool Clean = true;
  // A write through the lvalue E through a pointer that is not a
  // __restrict__ parameter makes every load plain.
  auto Written = [&](const Expr *E) {
    MemoryRoot W = memoryRootOf(E, Unassigned);
    if (W.K == MemoryRoot::Variable && W.Decl && W.Decl->hasLocalStorage())
      return; // the function's own array
    if (W.K == MemoryRoot::Variable && W.Decl && W.Decl->hasAttr<CUDASharedAttr>())
      return;
    if (W.K == MemoryRoot::DynamicShared)
      return;
    const auto *Q = W.K == MemoryRoot::Parameter ? dyn_cast<ParmVarDecl>(W.Decl) : nullptr;
    if (!Q || !isRestrict(Q))
      Clean = false;
    else if (std::find(Out.Written.begin(), Out.Written.end(), Q) == Out.Written.end())
      Out.Written.push_back(Q);
    ++Writes;
  };
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || !Clean)
      return;
    // threadIdx.x and its kin: registers, read through a call of their own.
    if (const auto *E = dyn_cast<Expr>(S); E && builtinRead(E))
      return;
    MemoryEffect Effect = memoryEffectOf(S);
    if (Effect.Written) {
      Written(Effect.Written);
    } else if (const CallExpr *Call = Effect.Call) {
      // An atomic writes what its first argument points to; any other
      // call that may touch memory, anything.
      const FunctionDecl *F = Call->getDirectCallee();
      if (F && F->getName().starts_with("atomic") && Call->getNumArgs() > 0)
        Written(Call->getArg(0));
      else if (!F || !F->getBody() || !touchesNoMemory(F->getBody(), 0))
        Clean = false;
    }
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  Visit(Kernel->getBody());
  Out.OnlyThroughRestrict = Clean && Writes > 0;
  return Out;
}

bool readThroughConstantPath(const Expr *Access, const KernelMemoryWrites &Writes) {
  if (!Access || !Writes.OnlyThroughRestrict)
    return false;
  MemoryRoot Read =
      memoryRootOf(Access, [](const VarDecl *V) { return !writtenAfterDeclaration(V); });
  const auto *P = Read.K == MemoryRoot::Parameter ? dyn_cast<ParmVarDecl>(Read.Decl) : nullptr;
  return P && P->getType()->getPointeeType().isConstQualified() &&
         std::find(Writes.Written.begin(), Writes.Written.end(), P) == Writes.Written.end();
}

bool readThroughConstantPath(const Expr *Access, const FunctionDecl *Kernel) {
  return readThroughConstantPath(Access, memoryWritesOf(Kernel));
}

bool ownArray(const Expr *Base) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return V && !isa<ParmVarDecl>(V) && V->getType()->isArrayType();
}

bool isRestrict(const ParmVarDecl *P) { return P && P->getType().isRestrictQualified(); }

bool isPureCall(const CallExpr *Call, unsigned Depth) {
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F || Depth > 4)
    return false;
  for (const Expr *Arg : Call->arguments()) {
    QualType T = Arg->getType();
    if (T->isPointerType() || T->isReferenceType() || T->isArrayType())
      return false;
  }
  for (const ParmVarDecl *P : F->parameters())
    if (P->getType()->isPointerType() || P->getType()->isReferenceType())
      return false;
  if (F->getName().starts_with("make_") &&
      F->getASTContext().getSourceManager().isInSystemHeader(F->getLocation()))
    return true;
  const FunctionDecl *Def = F->getDefinition();
  if (!Def || !Def->getBody() ||
      Def->getASTContext().getSourceManager().isInSystemHeader(Def->getLocation()))
    return false;
  return touchesNoMemory(Def->getBody(), Depth + 1);
}

std::optional<unsigned> indexEndLine(const Expr *Access, const SourceManager &SM) {
  const auto *Element = dyn_cast<ArraySubscriptExpr>(Access->IgnoreParenImpCasts());
  if (!Element)
    return std::nullopt;
  unsigned Start = SM.getExpansionLineNumber(SM.getExpansionLoc(Element->getBeginLoc()));
  unsigned End = SM.getExpansionLineNumber(SM.getExpansionLoc(Element->getIdx()->getEndLoc()));
  if (End == Start)
    return std::nullopt;
  return End;
}

unsigned addressComputationLine(const Expr *Access, SourceLocation Before,
                                const SourceManager &SM) {
  const VarDecl *Last = nullptr;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
          V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
          SM.isBeforeInTranslationUnit(V->getLocation(), Before) &&
          (!Last || SM.isBeforeInTranslationUnit(Last->getLocation(), V->getLocation())))
        Last = V;
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  Visit(Access);
  return Last ? SM.getExpansionLineNumber(SM.getExpansionLoc(Last->getBeginLoc())) : 0;
}

std::vector<const Stmt *> orderingStatements(const Stmt *Body) {
  std::vector<const Stmt *> Out;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    MemoryEffect Effect = memoryEffectOf(S);
    if (Effect.Written || Effect.Call)
      Out.push_back(S);
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  Visit(Body);
  return Out;
}

unsigned lastOrderingLine(const std::vector<const Stmt *> &Ordering, SourceLocation Before,
                          const SourceManager &SM) {
  SourceLocation Last;
  for (const Stmt *S : Ordering) {
    SourceLocation At = SM.getExpansionLoc(S->getBeginLoc());
    if (SM.isBeforeInTranslationUnit(SM.getExpansionLoc(S->getEndLoc()), Before) &&
        (Last.isInvalid() || SM.isBeforeInTranslationUnit(Last, At)))
      Last = At;
  }
  return Last.isValid() ? SM.getExpansionLineNumber(Last) : 0;
}

unsigned lastOrderingLine(const Stmt *Body, SourceLocation Before, const SourceManager &SM) {
  return lastOrderingLine(orderingStatements(Body), Before, SM);
}

bool touchesNoMemory(const Stmt *S, unsigned Depth) {
  if (!S)
    return true;
  // threadIdx.x and its kin: registers, read through a call of their own.
  if (const auto *E = dyn_cast<Expr>(S); E && builtinRead(E))
    return true;
  if (isa<ArraySubscriptExpr>(S) || isa<GCCAsmStmt>(S) || isa<MSAsmStmt>(S) ||
      isa<CXXNewExpr>(S) || isa<CXXDeleteExpr>(S))
    return false;
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_Deref)
    return false;
  if (const auto *M = dyn_cast<MemberExpr>(S); M && M->isArrow())
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && !isPureCall(Call, Depth))
    return false;
  if (const auto *D = dyn_cast<DeclStmt>(S))
    for (const Decl *X : D->decls())
      if (const auto *V = dyn_cast<VarDecl>(X); V && !V->hasLocalStorage())
        return false; // a static or __shared__ variable is memory
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
        V && !V->hasLocalStorage() && builtinVariableName(Ref).empty())
      return false; // a global, __constant__ or __shared__ variable
  for (const Stmt *Child : S->children())
    if (!touchesNoMemory(Child, Depth))
      return false;
  return true;
}

bool mayAlias(const MemoryRoot &A, const MemoryRoot &B) {
  if (A.K == MemoryRoot::Unknown || B.K == MemoryRoot::Unknown)
    return true;
  if (A.K == MemoryRoot::DynamicShared || B.K == MemoryRoot::DynamicShared)
    return A.K == B.K;
  if (A.Decl == B.Decl)
    return true;
  // A variable (an array of the function's own, a __shared__ or __device__
  // variable) is memory no other declaration names; a kernel's pointer
  // parameters point to global memory, which two of them may share unless
  // one is __restrict__ (LLVM's noalias).
  if (A.K == MemoryRoot::Variable || B.K == MemoryRoot::Variable)
    return false;
  return !isRestrict(cast<ParmVarDecl>(A.Decl)) && !isRestrict(cast<ParmVarDecl>(B.Decl));
}

} // namespace warpcheck::analysis
