//===- IndexSource.cpp - the memory read an address is computed from ------===//

#include "IndexSource.h"
#include "CudaAtomics.h"
#include "ExprWrappers.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

#include <map>
#include <set>
#include <vector>

namespace warpcheck::analysis {
namespace {

using namespace clang;

/// Variables and parameters followed, one hop each: enough for `int j =
/// col[k]; int c = j * 4; x[c]`, and bounded for long chains.
constexpr unsigned MaxVariableDepth = 4;
/// How deep the calls from the kernel are searched for a device function's
/// call sites.
constexpr unsigned MaxCallDepth = 4;

bool isLoadCall(const CallExpr *C) {
  const FunctionDecl *F = C->getDirectCallee();
  if (!F || !F->getIdentifier())
    return false;
  // The read-only and cache-hinted loads of the CUDA headers.
  llvm::StringRef N = F->getName();
  return N == "__ldg" || N == "__ldcg" || N == "__ldca" || N == "__ldcs" || N == "__ldlu" ||
         N == "__ldcv";
}

/// What a variable may be given in a function: the right-hand sides of its
/// assignments, and the conditions that decide whether each is made (a
/// binary search's `if (data[m] < v) pos = m`: pos depends on data[m]).
struct Assignments {
  std::vector<const Expr *> Values, Conditions;
};

class AssignmentCollector {
public:
  explicit AssignmentCollector(const VarDecl *V) : V(V) {}
  Assignments Out;

  void visit(const Stmt *S) {
    if (!S)
      return;
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      visit(If->getCond());
      Conditions.push_back(If->getCond());
      visit(If->getThen());
      visit(If->getElse());
      Conditions.pop_back();
      return;
    }
    if (const auto *W = dyn_cast<WhileStmt>(S)) {
      Conditions.push_back(W->getCond());
      visit(W->getBody());
      Conditions.pop_back();
      return;
    }
    if (const auto *D = dyn_cast<DoStmt>(S)) {
      Conditions.push_back(D->getCond());
      visit(D->getBody());
      Conditions.pop_back();
      return;
    }
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      visit(F->getInit());
      Conditions.push_back(F->getCond());
      visit(F->getBody());
      visit(F->getInc());
      Conditions.pop_back();
      return;
    }
    if (const auto *C = dyn_cast<ConditionalOperator>(S)) {
      visit(C->getCond());
      Conditions.push_back(C->getCond());
      visit(C->getTrueExpr());
      visit(C->getFalseExpr());
      Conditions.pop_back();
      return;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
      if (assigns(B->getLHS())) {
        Out.Values.push_back(B->getRHS());
        noteConditions();
      }
    // `lptr++` under `while (lval < pivot)`: the count of steps is the
    // data's (a quicksort's partition).
    if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp())
      if (assigns(U->getSubExpr()))
        noteConditions();
    for (const Stmt *Child : S->children())
      visit(Child);
  }

private:
  const VarDecl *V;
  std::vector<const Expr *> Conditions;

  void noteConditions() {
    for (const Expr *C : Conditions)
      if (C)
        Out.Conditions.push_back(C);
  }

  /// V, or a field of V (`rank.x = ...` gives rank a value too).
  bool assigns(const Expr *LHS) const {
    LHS = LHS->IgnoreParenImpCasts();
    while (const auto *M = dyn_cast<MemberExpr>(LHS)) {
      if (M->isArrow())
        return false;
      LHS = M->getBase()->IgnoreParenImpCasts();
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(LHS);
    return Ref && Ref->getDecl() == V;
  }
};

class ReadFinder {
public:
  explicit ReadFinder(const FunctionDecl *Kernel) : Kernel(Kernel) {}

  const Expr *find(const Expr *E, unsigned Depth) {
    if (!E)
      return nullptr;
    E = E->IgnoreParenImpCasts();
    if (const Expr *Inner = wrappedExpression(E))
      return find(Inner, Depth);
    if (isa<ArraySubscriptExpr>(E))
      return E;
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
      return E;
    if (const auto *M = dyn_cast<MemberExpr>(E); M && M->isArrow())
      return E;
    if (const auto *C = dyn_cast<CallExpr>(E); C && (isLoadCall(C) || isAtomicCall(C)))
      return E;
    // A device function's result (a sort's `rank4(...)`): what it returns.
    if (const auto *C = dyn_cast<CallExpr>(E))
      if (const Expr *R = fromResult(C, Depth))
        return R;
    // An address taken (`&hist[data[i]]`, an atomic's argument) reads
    // nothing itself: what it is made of may.
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
      return inAddress(U->getSubExpr(), Depth);
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(D->getDecl());
      // A __shared__, __device__ or __constant__ variable is memory: naming
      // it reads it (a block's count kept in shared memory).
      if (V && !V->hasLocalStorage() && !V->getType().isConstQualified() &&
          (V->hasAttr<CUDASharedAttr>() || V->hasAttr<CUDADeviceAttr>() ||
           V->hasAttr<CUDAConstantAttr>()))
        return E;
      if (!V || !V->hasLocalStorage() || Depth >= MaxVariableDepth || !Seen.insert(V).second)
        return nullptr;
      // A parameter: what its callers pass, or what the function assigns
      // it (a kernel's pointer parameter given a ring buffer's slot).
      if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
        if (const Expr *R = fromCallers(P, Depth + 1))
          return R;
        return fromAssignments(P, Depth + 1);
      }
      if (const Expr *R = find(V->getInit(), Depth + 1))
        return R;
      return fromAssignments(V, Depth + 1);
    }
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        if (const Expr *Found = find(CE, Depth))
          return Found;
    return nullptr;
  }

  /// The reads the address of the lvalue E is made of: its index and base,
  /// a dereferenced pointer, the object of a member.
  const Expr *inAddress(const Expr *E, unsigned Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      if (const Expr *R = find(AS->getIdx(), Depth))
        return R;
      return find(AS->getBase(), Depth);
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
      return find(U->getSubExpr(), Depth);
    if (const auto *M = dyn_cast<MemberExpr>(E))
      return M->isArrow() ? find(M->getBase(), Depth) : inAddress(M->getBase(), Depth);
    return find(E, Depth);
  }

private:
  const FunctionDecl *Kernel;
  std::set<const VarDecl *> Seen;
  std::set<const FunctionDecl *> Called;
  /// The calls made from the kernel and the functions it calls, by callee
  /// (collected once).
  std::map<const FunctionDecl *, std::vector<const CallExpr *>> CallsTo;
  bool CallsCollected = false;

  /// The function a local variable belongs to.
  static const FunctionDecl *functionOf(const VarDecl *V) {
    return dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  }

  const Expr *fromAssignments(const VarDecl *V, unsigned Depth) {
    const FunctionDecl *F = functionOf(V);
    if (!F || !F->getBody())
      return nullptr;
    AssignmentCollector C(V);
    C.visit(F->getBody());
    for (const Expr *Value : C.Out.Values)
      if (const Expr *R = find(Value, Depth))
        return R;
    for (const Expr *Cond : C.Out.Conditions)
      if (const Expr *R = find(Cond, Depth))
        return R;
    return nullptr;
  }

  /// What the function Call calls returns, one hop deeper.
  const Expr *fromResult(const CallExpr *Call, unsigned Depth) {
    const FunctionDecl *F = Call->getDirectCallee();
    const FunctionDecl *Def = F ? F->getDefinition() : nullptr;
    if (!Def || !Def->getBody() || Depth >= MaxVariableDepth ||
        !Called.insert(Def->getCanonicalDecl()).second)
      return nullptr;
    std::vector<const Stmt *> Stack{Def->getBody()};
    while (!Stack.empty()) {
      const Stmt *S = Stack.back();
      Stack.pop_back();
      if (!S || isa<LambdaExpr>(S))
        continue;
      if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
        if (const Expr *R = find(Ret->getRetValue(), Depth + 1))
          return R;
        continue;
      }
      for (const Stmt *Child : S->children())
        Stack.push_back(Child);
    }
    return nullptr;
  }

  /// A device function's parameter: what its callers pass. The kernel's
  /// own parameters come from the host: no read of the kernel's.
  const Expr *fromCallers(const ParmVarDecl *P, unsigned Depth) {
    const FunctionDecl *F = functionOf(P);
    if (!F || !Kernel || F->getCanonicalDecl() == Kernel->getCanonicalDecl())
      return nullptr;
    unsigned Index = P->getFunctionScopeIndex();
    collectCalls();
    auto It = CallsTo.find(F->getCanonicalDecl());
    if (It == CallsTo.end())
      return nullptr;
    for (const CallExpr *Call : It->second) {
      // A member call's object is not among the arguments.
      unsigned Shift = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(F) ? 1 : 0;
      if (Index + Shift < Call->getNumArgs())
        if (const Expr *R = find(Call->getArg(Index + Shift), Depth))
          return R;
    }
    return nullptr;
  }

  void collectCalls() {
    if (CallsCollected)
      return;
    CallsCollected = true;
    std::set<const FunctionDecl *> Visited;
    std::vector<std::pair<const FunctionDecl *, unsigned>> Work{{Kernel, 0}};
    while (!Work.empty()) {
      auto [F, Level] = Work.back();
      Work.pop_back();
      const FunctionDecl *Def = F ? F->getDefinition() : nullptr;
      if (!Def || !Def->getBody() || !Visited.insert(Def->getCanonicalDecl()).second)
        continue;
      std::vector<const Stmt *> Stack{Def->getBody()};
      while (!Stack.empty()) {
        const Stmt *S = Stack.back();
        Stack.pop_back();
        if (!S)
          continue;
        if (const auto *Call = dyn_cast<CallExpr>(S))
          if (const FunctionDecl *Callee = Call->getDirectCallee()) {
            CallsTo[Callee->getCanonicalDecl()].push_back(Call);
            if (Level + 1 < MaxCallDepth)
              Work.push_back({Callee, Level + 1});
          }
        for (const Stmt *Child : S->children())
          Stack.push_back(Child);
      }
    }
  }
};

} // namespace

const Expr *memoryReadInAddress(const Expr *Access, const FunctionDecl *Kernel) {
  if (!Access)
    return nullptr;
  ReadFinder Finder(Kernel);
  const Expr *E = Access->IgnoreParenImpCasts();
  // An atomic's or a load call's address argument.
  if (const auto *C = dyn_cast<CallExpr>(E); C && C->getNumArgs() > 0)
    return Finder.find(C->getArg(0), 0);
  // The access itself reads memory: look at what its address is made of.
  return Finder.inAddress(E, 0);
}

} // namespace warpcheck::analysis
