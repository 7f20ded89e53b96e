//===- RegisterPromotion.cpp - accesses nvcc keeps in a register in a loop ===//

#include "RegisterPromotion.h"
#include "CudaBuiltinVariables.h"
#include "SourceMemory.h"
#include "LoopUnrolling.h"
#include "UnrolledMerges.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Casting.h"

#include <map>
#include <optional>
#include <set>
#include <vector>

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// What an access of a loop goes through.
struct LoopAccess {
  const ArraySubscriptExpr *E = nullptr;
  /// The expression the simulation records: E, or a field of E's element
  /// (`out[i].a`).
  const Expr *Site = nullptr;
  /// The pointer parameter it indexes; null for an array of the function's
  /// own (local or __shared__: no global pointer reaches it).
  const ParmVarDecl *Pointer = nullptr;
  bool Store = false, Load = false;
  /// Under a branch of the loop nest (an if, ?:, && or ||): LICM sinks
  /// only a store that every iteration makes.
  bool Conditional = false;
  /// The innermost loop around it.
  const Stmt *Loop = nullptr;
};

const Stmt *bodyOf(const Stmt *Loop);

/// The accesses of one loop body; false when the loop has something this
/// model does not follow.
class LoopReader {
public:
  std::vector<LoopAccess> Accesses;
  /// A load through a pointer this model does not name (a local pointer
  /// into a parameter's array, say): it may read what any store writes.
  bool UnnamedLoads = false;
  /// Every loop of the nest, outermost first.
  std::vector<const Stmt *> AllLoops;

  bool read(const Stmt *S, bool Written = false) {
    if (!S)
      return true;
    // threadIdx.x and its kin: registers, read through a call of their own.
    if (const auto *E = dyn_cast<Expr>(S); E && builtinRead(E))
      return true;
    // A struct's assignment (float4 = make_float4(...)) through its
    // trivial operator=: an assignment like any other.
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
        Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
      const auto *M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
      if (!M || !M->isTrivial())
        return false;
      if (!lvalue(Op->getArg(0), /*Load=*/false))
        return false;
      return read(Op->getArg(1));
    }
    if (const auto *Call = dyn_cast<CallExpr>(S); Call && !isPureCall(Call))
      return false;
    if (isa<GCCAsmStmt>(S) || isa<MSAsmStmt>(S) || isa<CXXNewExpr>(S) || isa<CXXDeleteExpr>(S))
      return false;
    if (bodyOf(S)) {
      AllLoops.push_back(S);
      Loops.push_back(S);
      bool Followed = readChildren(S);
      Loops.pop_back();
      return Followed;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (!read(If->getInit()) || !read(If->getConditionVariableDeclStmt()) ||
          !read(If->getCond()))
        return false;
      ++Branches;
      bool Followed = read(If->getThen()) && read(If->getElse());
      --Branches;
      return Followed;
    }
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(S)) {
      if (!read(C->getCond()))
        return false;
      ++Branches;
      bool Followed = read(C->getTrueExpr()) && read(C->getFalseExpr());
      --Branches;
      return Followed;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isLogicalOp()) {
      if (!read(B->getLHS()))
        return false;
      ++Branches;
      bool Followed = read(B->getRHS());
      --Branches;
      return Followed;
    }
    if (const auto *D = dyn_cast<DeclStmt>(S)) {
      for (const Decl *X : D->decls())
        if (const auto *V = dyn_cast<VarDecl>(X)) {
          Declared[V] = V->getInit();
          if (!read(V->getInit()))
            return false;
        }
      return true;
    }
    if (isa<SwitchStmt>(S)) {
      ++Branches;
      bool Followed = readChildren(S);
      --Branches;
      return Followed;
    }
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
    if (const auto *F = fieldOfElement(S)) {
      if (F->getType().isVolatileQualified())
        return false;
      const auto *A = cast<ArraySubscriptExpr>(F->getBase()->IgnoreParenImpCasts());
      return note(A, F, Written, /*Load=*/true) && read(A->getIdx());
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(S)) {
      if (A->getType().isVolatileQualified())
        return false;
      if (!note(A, A, Written, /*Load=*/true))
        return false;
      return read(A->getIdx());
    }
    return readChildren(S);
  }

  /// Whether A's address is the same in every iteration of the nest: it
  /// names no variable the nest assigns, nor one it declares from such a
  /// variable. The simulation serves an execution with the addresses of
  /// the previous one only; this keeps it from serving addresses that
  /// coincide but that the compiler cannot prove equal (gen-5.cu line 375:
  /// (a % 65) / 31 of a loop counter, equal in three iterations, loaded in
  /// each on the H200).
  bool invariant(const ArraySubscriptExpr *A) {
    if (!VariantKnown) {
      Variant = Assigned;
      for (bool Grew = true; Grew;) {
        Grew = false;
        for (const auto &[V, Init] : Declared)
          if (!Variant.count(V) && Init && namesAny(Init, Variant))
            Grew = Variant.insert(V).second || Grew;
      }
      VariantKnown = true;
    }
    return !namesAny(A->getBase(), Variant) && !namesAny(A->getIdx(), Variant);
  }

private:
  std::vector<const Stmt *> Loops;
  unsigned Branches = 0;
  std::set<const VarDecl *> Assigned, Variant;
  std::map<const VarDecl *, const Expr *> Declared;
  bool VariantKnown = false;

  static bool namesAny(const Stmt *S, const std::set<const VarDecl *> &Vars) {
    if (!S)
      return false;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()); V && Vars.count(V))
        return true;
    for (const Stmt *Child : S->children())
      if (namesAny(Child, Vars))
        return true;
    return false;
  }

  bool readChildren(const Stmt *S) {
    for (const Stmt *Child : S->children())
      if (!read(Child))
        return false;
    return true;
  }

  /// `a[i].f` (a field of an element, through `.`), or null.
  static const MemberExpr *fieldOfElement(const Stmt *S) {
    const auto *M = dyn_cast<MemberExpr>(S);
    if (!M || M->isArrow() || !isa<FieldDecl>(M->getMemberDecl()))
      return nullptr;
    return isa<ArraySubscriptExpr>(M->getBase()->IgnoreParenImpCasts()) ? M : nullptr;
  }

  /// An assigned expression: an element or a field of one (its index is
  /// read), or a local.
  bool lvalue(const Expr *E, bool Load) {
    E = E->IgnoreParenImpCasts();
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      if (A->getType().isVolatileQualified())
        return false;
      return note(A, A, /*Store=*/true, Load) && read(A->getIdx());
    }
    if (const auto *F = fieldOfElement(E)) {
      if (F->getType().isVolatileQualified())
        return false;
      const auto *A = cast<ArraySubscriptExpr>(F->getBase()->IgnoreParenImpCasts());
      return note(A, F, /*Store=*/true, Load) && read(A->getIdx());
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl())) {
        Assigned.insert(V);
        return true;
      }
      return false;
    }
    return false;
  }

  bool note(const ArraySubscriptExpr *A, const Expr *Site, bool Store, bool Load) {
    const ParmVarDecl *P = pointerParameterThrough(A->getBase());
    if (!P && !ownArray(A->getBase())) {
      // A load through something else may be kept; a store may alias
      // anything.
      UnnamedLoads = true;
      return !Store;
    }
    for (LoopAccess &X : Accesses)
      if (X.Site == Site) {
        X.Store |= Store;
        X.Load |= Load;
        X.Conditional |= Branches > 0;
        return true;
      }
    Accesses.push_back(
        {A, Site, P, Store, Load, Branches > 0, Loops.empty() ? nullptr : Loops.back()});
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

/// Loops with no loop around them, each read with the loops nested in it
/// as one nest: what may alias is decided over the whole nest, so that a
/// value kept across the inner loop is kept across the outer one too when
/// its addresses do not change there either (the simulation sees whether
/// they do: only an execution with the addresses of the previous one is
/// served). Measured on the H200 (test/inputs/generated/, gen-1.cu line
/// 16: a float4 store at one address in a loop nest of 8 x 2 iterations,
/// nothing else in the nest, is made once per warp).
void outermostLoops(const Stmt *S, std::vector<const Stmt *> &Out) {
  if (!S)
    return;
  if (bodyOf(S)) {
    Out.push_back(S);
    return;
  }
  for (const Stmt *Child : S->children())
    outermostLoops(Child, Out);
}

/// Whether nvcc unrolls every loop of the nest completely, into at most
/// MaxUnrolledIterations iterations of its innermost bodies in all.
bool unrolledCompletely(const std::vector<const Stmt *> &Loops, ASTContext &Ctx) {
  // What the H200 confirmed (RegisterPromotion.h): nests of up to 32
  // iterations in all; NVVM's threshold weighs the unrolled body, and a
  // larger nest may stay a loop.
  constexpr std::int64_t MaxUnrolledIterations = 32;
  std::int64_t Iterations = 1;
  for (const Stmt *L : Loops) {
    const auto *F = dyn_cast<ForStmt>(L);
    std::optional<std::int64_t> Trip = F ? completeUnrollTripCount(F, Ctx) : std::nullopt;
    if (!Trip)
      return false;
    Iterations *= *Trip;
    if (Iterations > MaxUnrolledIterations)
      return false;
  }
  return !Loops.empty();
}

/// Where the line table puts a load hoisted before Loop (KeptAccess::
/// HoistedLine, ScheduledAfter); HoistedLine 0 when this model cannot
/// tell. The load goes with its address's computation
/// (addressComputationLine); an address that names no local variable is
/// computed in the loop's preheader, after the test that enters a loop
/// with a bound known at run time only: the loop's line; so is any address
/// of a loop InLoop, nested in another. A store, atomic
/// or barrier after the address's computation leaves the line to ptxas
/// (Ordering: the kernel's orderingStatements, SourceMemory.h).
void placeHoistedLoad(KeptAccess &K, const std::vector<const Stmt *> &Ordering,
                      const Stmt *Loop, bool InLoop, const ArraySubscriptExpr *Load,
                      ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *F = dyn_cast<ForStmt>(Loop);
  std::optional<std::int64_t> Trip = F ? constantTripCount(F, Ctx) : std::nullopt;
  bool EnteredUntested = isa<DoStmt>(Loop) || (Trip && *Trip >= 1);
  unsigned Address = addressComputationLine(Load, Loop->getBeginLoc(), SM);
  // A loop inside another one, entered after a test: the load is on the
  // loop's line whatever its address names (attention_backward.cu's
  // `att_bth[t3]`, whose pointer is a local of the outer loop's body, on
  // the `t2` loop's line, test/hw/realcode).
  if ((!Address || InLoop) && !EnteredUntested) {
    K.HoistedLine = SM.getExpansionLineNumber(SM.getExpansionLoc(Loop->getBeginLoc()));
    return;
  }
  unsigned OrderedAt = lastOrderingLine(Ordering, Loop->getBeginLoc(), SM);
  if (OrderedAt > Address) {
    K.ScheduledAfter = OrderedAt;
    return;
  }
  K.HoistedLine = Address;
}

} // namespace

std::map<std::pair<const Expr *, AccessOp>, KeptAccess>
accessesKeptInRegisters(const FunctionDecl *Kernel) {
  std::map<std::pair<const Expr *, AccessOp>, KeptAccess> Out;
  const FunctionDecl *Def = Kernel ? Kernel->getDefinition() : nullptr;
  if (!Def || !Def->getBody())
    return Out;
  // The statements that order memory, found on the first hoisted load.
  std::optional<std::vector<const Stmt *>> Ordering;
  // Each nest, then the loops nested in it as nests of their own: LICM
  // works loop by loop, from the innermost out, so an address that changes
  // with an outer loop's counter is still kept across an inner loop that
  // does not change it and writes nothing it may read (llm.c's
  // attention_backward.cu, `att_bth[t3]` in the `t2` loop: made once per
  // `t` iteration, measured on the H200, test/hw/realcode). An access kept
  // across an outer nest is kept there.
  //
  // Within an outer loop, only a value the same in every iteration of the
  // inner one is kept: an unrolled inner loop's repeats of addresses that
  // coincide without being provably equal (gen-5.cu line 375: (a % 65) / 31
  // of both counters, with a block index in a) are loaded in each iteration,
  // measured on the H200.
  std::vector<const Stmt *> Nests;
  outermostLoops(Def->getBody(), Nests);
  const std::size_t Outermost = Nests.size();
  for (std::size_t Next = 0; Next < Nests.size(); ++Next) {
    const Stmt *Nest = Nests[Next];
    outermostLoops(bodyOf(Nest), Nests);
    LoopReader R;
    // The loop's condition and increment run each iteration too.
    if (!R.read(Nest))
      continue;
    bool Unrolled =
        Next < Outermost && unrolledCompletely(R.AllLoops, Def->getASTContext());
    for (const LoopAccess &A : R.Accesses) {
      if (!A.Pointer)
        continue; // local and __shared__ arrays: not global memory
      // Unrolled, a repeat under a branch is not one the compiler sees
      // dominated by the earlier execution.
      bool Repeats = Unrolled && !A.Conditional;
      if (!Repeats && !R.invariant(A.E))
        continue;
      if (A.Load && !Out.count({A.Site, AccessOp::Load})) {
        // Every other store goes where this load cannot read.
        bool Kept = true;
        for (const LoopAccess &B : R.Accesses)
          if (B.Site != A.Site && B.Store && B.Pointer &&
              (B.Pointer == A.Pointer || !(isRestrict(A.Pointer) || isRestrict(B.Pointer))))
            Kept = false;
        if (Kept) {
          KeptAccess &K = Out[{A.Site, AccessOp::Load}] = {A.Loop, Repeats};
          if (!A.Store && !A.Conditional && R.invariant(A.E)) {
            K.HoistedBefore = Nest;
            if (!Ordering)
              Ordering = orderingStatements(Def->getBody());
            placeHoistedLoad(K, *Ordering, Nest, /*InLoop=*/Next >= Outermost, A.E,
                             Def->getASTContext());
          }
        }
      }
      // A store kept across an outer nest is kept there.
      const bool Store = A.Store && !Out.count({A.Site, AccessOp::Store});
      if (Store && isRestrict(A.Pointer)) {
        // No other access of the loop reads or writes through its pointer.
        bool Kept = true;
        for (const LoopAccess &B : R.Accesses)
          if (B.Site != A.Site && B.Pointer == A.Pointer)
            Kept = false;
        if (Kept)
          Out[{A.Site, AccessOp::Store}] = {A.Loop, Repeats};
      } else if (Store && !A.Conditional && !R.UnnamedLoads) {
        // A plain pointer's store, sunk when nothing else of the nest goes
        // through a pointer parameter (any may alias it): only its own
        // array's, a local or a __shared__ array's accesses.
        bool Kept = true;
        for (const LoopAccess &B : R.Accesses)
          if (B.Site != A.Site && B.Pointer)
            Kept = false;
        if (Kept)
          Out[{A.Site, AccessOp::Store}] = {A.Loop, Repeats};
      }
    }
  }
  return Out;
}

} // namespace warpcheck::analysis
