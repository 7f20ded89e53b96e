//===- IndexSource.cpp - the memory read an address is computed from ------===//

#include "IndexSource.h"
#include "ExprWrappers.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"

#include <set>

namespace warpcheck::analysis {
namespace {

using namespace clang;

/// Local variables followed into their initialisers: enough for
/// `int j = col[k]; int c = j * 4; x[c]`, and bounded for long chains.
constexpr unsigned MaxVariableDepth = 4;

bool isLoadCall(const CallExpr *C) {
  const FunctionDecl *F = C->getDirectCallee();
  if (!F || !F->getIdentifier())
    return false;
  // The read-only and cache-hinted loads of the CUDA headers.
  llvm::StringRef N = F->getName();
  return N == "__ldg" || N == "__ldcg" || N == "__ldca" || N == "__ldcs" || N == "__ldlu" ||
         N == "__ldcv";
}

const Expr *findRead(const Expr *E, unsigned Depth, std::set<const VarDecl *> &Seen) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const Expr *Inner = wrappedExpression(E))
    return findRead(Inner, Depth, Seen);
  if (isa<ArraySubscriptExpr>(E))
    return E;
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
    return E;
  if (const auto *M = dyn_cast<MemberExpr>(E); M && M->isArrow())
    return E;
  if (const auto *C = dyn_cast<CallExpr>(E); C && isLoadCall(C))
    return E;
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() || Depth >= MaxVariableDepth ||
        !Seen.insert(V).second)
      return nullptr;
    return findRead(V->getInit(), Depth + 1, Seen);
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (const Expr *Found = findRead(CE, Depth, Seen))
        return Found;
  return nullptr;
}

} // namespace

const Expr *memoryReadInAddress(const Expr *Access) {
  if (!Access)
    return nullptr;
  std::set<const VarDecl *> Seen;
  const Expr *E = Access->IgnoreParenImpCasts();
  // The access itself reads memory: look at what its address is made of.
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    if (const Expr *R = findRead(AS->getIdx(), 0, Seen))
      return R;
    return findRead(AS->getBase(), 0, Seen);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
    return findRead(U->getSubExpr(), 0, Seen);
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return findRead(M->getBase(), 0, Seen);
  // An atomic's or a load call's address argument.
  if (const auto *C = dyn_cast<CallExpr>(E); C && C->getNumArgs() > 0)
    return findRead(C->getArg(0), 0, Seen);
  return findRead(E, 0, Seen);
}

} // namespace warpcheck::analysis
