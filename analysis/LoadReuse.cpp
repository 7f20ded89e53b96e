//===- LoadReuse.cpp - loads nvcc serves from an earlier access's register ===//

#include "LoadReuse.h"
#include "CudaBuiltinVariables.h"
#include "SourceMemory.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/FoldingSet.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <vector>

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// One element access of the body, where the walk met it.
struct ElementAccess {
  const ArraySubscriptExpr *E = nullptr;
  /// Pre-order position: an access is evaluated after every access of a
  /// lower position that precedes it (LoadReuse checks the paths).
  unsigned Position = 0;
  /// Where its value is in a register: a load's at its position, a store's
  /// once it is made (after its right-hand side: `a[i] = a[i] + 1` leaves
  /// the stored value, not the loaded one).
  unsigned Ready = 0;
  /// The statements and expressions from the body down to E's parent.
  std::vector<const Stmt *> Chain;
  bool Load = false, Store = false;
  llvm::FoldingSetNodeID Key;
};

/// Something between two accesses that may change what the later one reads.
struct Effect {
  /// Post-order position: the effect happens after its operands are read.
  unsigned Position = 0;
  enum Kind { Clobber, Store, Assign } K = Clobber;
  MemoryRoot Root;               // Store: the memory written
  const VarDecl *Var = nullptr;  // Assign: the local variable given a value
  const Expr *Owner = nullptr;   // Store: the element access that makes it
};

bool isLoop(const Stmt *S) {
  return isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CXXForRangeStmt>(S);
}

const Expr *skipParens(const Expr *E) { return E ? E->IgnoreParens() : nullptr; }

/// The local variable E names (not a reference: writing one writes memory).
const VarDecl *localVariable(const Expr *E) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return V && V->hasLocalStorage() && !V->getType()->isReferenceType() ? V : nullptr;
}

/// Whether a call may read or write memory the code around it reads, or
/// order memory (a barrier, a fence, an atomic).
bool clobbersMemory(const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F)
    return true; // through a pointer: anything
  if (isPureCall(Call))
    return false;
  llvm::StringRef N = F->getIdentifier() ? F->getName() : "";
  // Warp collectives exchange registers; the cache-hinted loads read only.
  if (N.starts_with("__shfl") || N.starts_with("__ballot") || N.starts_with("__any") ||
      N.starts_with("__all") || N.starts_with("__match") || N.starts_with("__reduce_") ||
      N == "__activemask" || N.starts_with("__ld"))
    return false;
  if (N.empty() || N.contains("sync") || N.contains("atomic") || N.contains("fence") ||
      N.contains("barrier") || N.contains("printf") || N.contains("alloc") ||
      N.contains("free") || N.contains("mem") || N.contains("wait") || N.contains("arrive"))
    return true;
  // A function of the CUDA headers or the standard library given values
  // only (expf, fmaxf, min, a group's thread_rank or shfl): no memory.
  const SourceManager &SM = F->getASTContext().getSourceManager();
  if (!SM.isInSystemHeader(F->getLocation()))
    return true;
  for (const Expr *Arg : Call->arguments()) {
    QualType T = Arg->getType();
    if (T->isPointerType() || T->isArrayType())
      return true;
  }
  for (const ParmVarDecl *P : F->parameters()) {
    QualType T = P->getType();
    if (T->isPointerType() ||
        (T->isReferenceType() && !T.getNonReferenceType().isConstQualified()))
      return true;
  }
  return false;
}

/// The walk over the body: every element access with its path, and every
/// effect with its position.
class BodyWalk {
public:
  explicit BodyWalk(ASTContext &Ctx) : Ctx(Ctx) {}

  std::vector<ElementAccess> Accesses;
  std::vector<Effect> Effects;
  /// Local variables assigned after their declaration, and those whose
  /// address is taken or that a reference binds (written through memory).
  std::set<const VarDecl *> Assigned, Escaped;
  /// Each loop's post-order position (the end of its effects).
  std::map<const Stmt *, unsigned> LoopEnd;

  /// First pass: what is assigned anywhere (a pointer never assigned is
  /// read through to its initializer by memoryRootOf).
  void findAssigned(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
      if (const VarDecl *V = localVariable(B->getLHS()))
        Assigned.insert(V);
    if (const auto *U = dyn_cast<UnaryOperator>(S)) {
      if (U->isIncrementDecrementOp())
        if (const VarDecl *V = localVariable(U->getSubExpr()))
          Assigned.insert(V);
      if (U->getOpcode() == UO_AddrOf)
        if (const VarDecl *V = localVariable(U->getSubExpr()))
          Escaped.insert(V);
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S); Op && Op->getNumArgs() > 0)
      if (const VarDecl *V = localVariable(Op->getArg(0)))
        Assigned.insert(V);
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *F = Call->getDirectCallee())
        for (unsigned I = 0; I < Call->getNumArgs() && I < F->getNumParams(); ++I)
          if (F->getParamDecl(I)->getType()->isReferenceType())
            if (const VarDecl *V = localVariable(Call->getArg(I)))
              Escaped.insert(V);
    if (const auto *D = dyn_cast<DeclStmt>(S))
      for (const Decl *X : D->decls())
        if (const auto *V = dyn_cast<VarDecl>(X); V && V->getType()->isReferenceType())
          if (const VarDecl *Bound = localVariable(V->getInit()))
            Escaped.insert(Bound);
    for (const Stmt *Child : S->children())
      findAssigned(Child);
  }

  MemoryRoot rootOf(const Expr *E) const {
    return memoryRootOf(E, [this](const VarDecl *V) {
      return !Assigned.count(V) && !Escaped.count(V);
    });
  }

  void visit(const Stmt *S) {
    // A lambda's body runs where it is called (a call: clobbersMemory).
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *E = dyn_cast<Expr>(S); E && builtinRead(E))
      return;
    unsigned Position = ++Counter;
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(S))
      noteAccess(A, Position);
    Chain.push_back(S);
    for (const Stmt *Child : S->children())
      visit(Child);
    Chain.pop_back();
    unsigned After = ++Counter;
    if (isLoop(S))
      LoopEnd[S] = After;
    noteEffects(S, After);
  }

private:
  ASTContext &Ctx;
  unsigned Counter = 0;
  std::vector<const Stmt *> Chain;

  /// The parent of the access (parentheses aside) and whether it reads or
  /// writes the element.
  void noteAccess(const ArraySubscriptExpr *A, unsigned Position) {
    if (A->getType().isVolatileQualified()) {
      Effects.push_back({Position, Effect::Clobber});
      return;
    }
    if (A->getType()->isArrayType() || A->getType()->isRecordType())
      return; // a row of a 2-D array, or a struct: not one register
    const Stmt *Child = A;
    const Stmt *Parent = nullptr;
    for (size_t I = Chain.size(); I-- > 0;) {
      Parent = Chain[I];
      if (!isa<ParenExpr>(Parent))
        break;
      Child = Parent;
    }
    ElementAccess X;
    X.E = A;
    X.Position = X.Ready = Position;
    X.Chain = Chain;
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent))
      X.Load = Cast->getCastKind() == CK_LValueToRValue;
    if (const auto *B = dyn_cast_or_null<BinaryOperator>(Parent);
        B && B->isAssignmentOp() && B->getLHS() == Child) {
      X.Store = true;
      X.Load = B->isCompoundAssignmentOp();
    }
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Parent);
        U && U->isIncrementDecrementOp())
      X.Load = X.Store = true;
    if (!X.Load && !X.Store)
      return;
    A->Profile(X.Key, Ctx, /*Canonical=*/true);
    Accesses.push_back(std::move(X));
  }

  void noteWrite(const Expr *Target, unsigned Position) {
    if (const VarDecl *V = localVariable(Target)) {
      Effect E;
      E.Position = Position;
      E.K = Effect::Assign;
      E.Var = V;
      Effects.push_back(E);
      return;
    }
    Effect E;
    E.Position = Position;
    E.K = Effect::Store;
    E.Root = rootOf(Target);
    E.Owner = dyn_cast<ArraySubscriptExpr>(skipParens(Target));
    Effects.push_back(E);
    for (size_t I = Accesses.size(); E.Owner && I-- > 0;)
      if (Accesses[I].E == E.Owner) {
        Accesses[I].Ready = Position;
        break;
      }
  }

  void noteEffects(const Stmt *S, unsigned Position) {
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
      return noteWrite(B->getLHS(), Position);
    if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp())
      return noteWrite(U->getSubExpr(), Position);
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
      const auto *M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
      if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 && M && M->isTrivial())
        return noteWrite(Op->getArg(0), Position);
    }
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (clobbersMemory(Call))
        Effects.push_back({Position, Effect::Clobber});
      return;
    }
    if (const auto *C = dyn_cast<CXXConstructExpr>(S)) {
      const CXXConstructorDecl *Ctor = C->getConstructor();
      const FunctionDecl *Def = Ctor ? Ctor->getDefinition() : nullptr;
      if (!Ctor || !(Ctor->isTrivial() ||
                     Ctx.getSourceManager().isInSystemHeader(Ctor->getLocation()) ||
                     (Def && touchesNoMemory(Def->getBody(), 1))))
        Effects.push_back({Position, Effect::Clobber});
      return;
    }
    if (isa<GCCAsmStmt>(S) || isa<MSAsmStmt>(S) || isa<CXXNewExpr>(S) ||
        isa<CXXDeleteExpr>(S))
      Effects.push_back({Position, Effect::Clobber});
    // A volatile read through a pointer or a member is ordered like a
    // barrier (volatile elements: noteAccess).
    if (const auto *E = dyn_cast<Expr>(S);
        E && E->isGLValue() && E->getType().isVolatileQualified() &&
        (isa<UnaryOperator>(E) || isa<MemberExpr>(E)))
      Effects.push_back({Position, Effect::Clobber});
  }
};

/// Whether, at their lowest common ancestor L, the child on the earlier
/// access's side (SA) is evaluated, whenever the one on the later's side
/// (SB) is, before it.
bool precedesAt(const Stmt *L, const Stmt *SA, const Stmt *SB) {
  if (isa<CompoundStmt>(L) || isa<AttributedStmt>(L) || isa<LabelStmt>(L) ||
      isa<CaseStmt>(L) || isa<DefaultStmt>(L) || isa<DeclStmt>(L))
    return true;
  if (const auto *If = dyn_cast<IfStmt>(L))
    return SA == If->getCond() || SA == If->getInit() || SA == If->getConditionVariableDeclStmt();
  if (const auto *For = dyn_cast<ForStmt>(L))
    return SA == For->getInit() ||
           (SA == For->getCond() && (SB == For->getBody() || SB == For->getInc()));
  if (const auto *W = dyn_cast<WhileStmt>(L))
    return SA == W->getCond() && SB == W->getBody();
  if (const auto *D = dyn_cast<DoStmt>(L))
    return SA == D->getBody() && SB == D->getCond();
  if (const auto *Sw = dyn_cast<SwitchStmt>(L))
    return SA == Sw->getCond();
  if (const auto *B = dyn_cast<BinaryOperator>(L))
    // An assignment stores after its right-hand side is read.
    return !B->isAssignmentOp();
  if (const auto *C = dyn_cast<AbstractConditionalOperator>(L))
    return SA == C->getCond();
  return isa<Expr>(L);
}

/// How the child C of P is evaluated when P is: always, on some paths only
/// (an arm of an `if` or of `?:`, the right of `&&` or `||`), or in a way
/// this model does not follow (a loop's body or condition, a switch's case).
enum class Evaluation { Always, OnSomePaths, Unfollowed };

Evaluation evaluationOf(const Stmt *P, const Stmt *C) {
  if (isa<CompoundStmt>(P) || isa<AttributedStmt>(P) || isa<LabelStmt>(P) ||
      isa<DeclStmt>(P) || isa<ReturnStmt>(P))
    return Evaluation::Always;
  if (const auto *If = dyn_cast<IfStmt>(P))
    return C == If->getCond() || C == If->getInit() || C == If->getConditionVariableDeclStmt()
               ? Evaluation::Always
               : Evaluation::OnSomePaths;
  if (const auto *For = dyn_cast<ForStmt>(P))
    return C == For->getInit() ? Evaluation::Always : Evaluation::Unfollowed;
  if (const auto *Sw = dyn_cast<SwitchStmt>(P))
    return C == Sw->getCond() ? Evaluation::Always : Evaluation::Unfollowed;
  if (isLoop(P))
    return Evaluation::Unfollowed;
  if (const auto *B = dyn_cast<BinaryOperator>(P); B && B->isLogicalOp() && C == B->getRHS())
    return Evaluation::OnSomePaths;
  if (const auto *Cond = dyn_cast<AbstractConditionalOperator>(P); Cond && C != Cond->getCond())
    return Evaluation::OnSomePaths;
  return isa<Expr>(P) ? Evaluation::Always : Evaluation::Unfollowed;
}

/// How the access at the end of Chain is evaluated on the paths through
/// Chain[From] (the child of the common ancestor). AndThen: the later
/// access is in the then-arm of the `if` whose condition Chain[From] is,
/// which runs only when every operand of the condition's `&&` ran.
Evaluation pathEvaluation(const std::vector<const Stmt *> &Chain, size_t From, bool AndThen) {
  Evaluation Out = Evaluation::Always;
  bool InAndChain = AndThen;
  for (size_t I = From; I + 1 < Chain.size(); ++I) {
    const auto *B = dyn_cast<BinaryOperator>(Chain[I]);
    bool And = B && B->getOpcode() == BO_LAnd;
    InAndChain = InAndChain && (And || isa<ParenExpr>(Chain[I]) || isa<ImplicitCastExpr>(Chain[I]));
    Evaluation E = evaluationOf(Chain[I], Chain[I + 1]);
    if (E == Evaluation::OnSomePaths && InAndChain && And)
      E = Evaluation::Always;
    if (E == Evaluation::Unfollowed)
      return E;
    if (E == Evaluation::OnSomePaths)
      Out = E;
  }
  return Out;
}

/// What the address of an access is made of: its local variables and the
/// memory it reads (its own element's and its index's).
struct AddressParts {
  std::set<const VarDecl *> Variables;
  std::vector<MemoryRoot> Memory;
  bool Escapes = false;
};

void collectParts(const Stmt *S, const BodyWalk &W, AddressParts &Out) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<Expr>(S); E && builtinRead(E))
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl())) {
      if (V->hasLocalStorage()) {
        Out.Variables.insert(V);
        Out.Escapes |= W.Escaped.count(V) > 0 || V->getType()->isReferenceType();
      } else if (!V->getType()->isArrayType()) {
        Out.Memory.push_back(W.rootOf(Ref)); // a __shared__ or __device__ scalar
      }
    }
  if (isa<ArraySubscriptExpr>(S) || isa<MemberExpr>(S) ||
      (isa<UnaryOperator>(S) && cast<UnaryOperator>(S)->getOpcode() == UO_Deref))
    Out.Memory.push_back(W.rootOf(cast<Expr>(S)));
  for (const Stmt *Child : S->children())
    collectParts(Child, W, Out);
}

} // namespace

std::map<const Expr *, ReusedValue> loadsReusingEarlierValues(const FunctionDecl *Kernel) {
  std::map<const Expr *, ReusedValue> Out;
  const FunctionDecl *Def = Kernel ? Kernel->getDefinition() : nullptr;
  if (!Def || !Def->getBody())
    return Out;
  BodyWalk W(Def->getASTContext());
  W.findAssigned(Def->getBody());
  W.visit(Def->getBody());
  // The accesses of each element, in order: a kernel of thousands of
  // statements compares each read with its own element's only.
  std::unordered_map<unsigned, std::vector<size_t>> OfElement;
  for (size_t IB = 0; IB < W.Accesses.size(); ++IB) {
    const ElementAccess &B = W.Accesses[IB];
    std::vector<size_t> &Same = OfElement[B.Key.ComputeHash()];
    Same.push_back(IB);
    if (!B.Load || B.Store)
      continue; // a read-modify-write's load stays with its store
    // The earlier accesses of the element, the latest value first.
    std::vector<size_t> Candidates;
    for (size_t I : Same)
      if (I != IB && W.Accesses[I].Ready < B.Position && W.Accesses[I].Key == B.Key)
        Candidates.push_back(I);
    std::stable_sort(Candidates.begin(), Candidates.end(), [&](size_t X, size_t Y) {
      return W.Accesses[X].Ready > W.Accesses[Y].Ready;
    });
    for (size_t IA : Candidates) {
      const ElementAccess &A = W.Accesses[IA];
      // The lowest common ancestor of the two, and the children below it.
      size_t K = 0;
      std::vector<const Stmt *> CA = A.Chain, CB = B.Chain;
      CA.push_back(A.E);
      CB.push_back(B.E);
      while (K < CA.size() && K < CB.size() && CA[K] == CB[K])
        ++K;
      if (K == 0 || K >= CA.size() || K >= CB.size() || !precedesAt(CA[K - 1], CA[K], CB[K]))
        continue;
      // A is made before B on every path, or B on every path after A's
      // construct (nvcc hoists one load above that construct for both).
      const auto *If = dyn_cast<IfStmt>(CA[K - 1]);
      bool AndThen = If && CA[K] == If->getCond() && CB[K] == If->getThen();
      Evaluation OfA = pathEvaluation(CA, K, AndThen);
      bool Hoisted = OfA == Evaluation::OnSomePaths;
      if (OfA == Evaluation::Unfollowed ||
          (Hoisted && (!isa<CompoundStmt>(CA[K - 1]) ||
                       pathEvaluation(CB, K, false) != Evaluation::Always)))
        continue;
      // A loop around B that is not around A repeats B after everything
      // in it: its effects are all between.
      unsigned End = B.Position;
      for (size_t I = K; I < CB.size(); ++I)
        if (isLoop(CB[I])) {
          End = std::max(End, W.LoopEnd[CB[I]]);
          break;
        }
      AddressParts Parts;
      collectParts(A.E, W, Parts);
      if (Parts.Escapes)
        break;
      bool Clobbered = false;
      // Effects are noted in the walk's order, their positions increasing.
      auto First = std::upper_bound(
          W.Effects.begin(), W.Effects.end(), A.Ready,
          [](unsigned P, const Effect &E) { return P < E.Position; });
      for (auto It = First; It != W.Effects.end() && It->Position < End; ++It) {
        const Effect &E = *It;
        if (E.K == Effect::Clobber)
          Clobbered = true;
        else if (E.K == Effect::Assign)
          Clobbered |= Parts.Variables.count(E.Var) > 0;
        else if (E.Owner != A.E)
          for (const MemoryRoot &R : Parts.Memory)
            Clobbered |= mayAlias(E.Root, R);
        if (Clobbered)
          break;
      }
      if (!Clobbered) {
        // A read that itself takes an earlier access's value passes it on.
        ReusedValue Value{A.E, Hoisted};
        if (auto Chained = Out.find(A.E); Chained != Out.end())
          Value = {Chained->second.Earlier, Hoisted || Chained->second.Hoisted};
        Out[B.E] = Value;
      }
      // The nearest access of the element decides: a farther one was
      // overwritten by it or reaches B no better.
      break;
    }
  }
  return Out;
}

} // namespace warpcheck::analysis
