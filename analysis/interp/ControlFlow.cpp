//===- ControlFlow.cpp - branches, loops and switches split the lane mask -===//
//
// SIMT control flow: a condition splits the active lanes into those that
// take a branch, those that do not, and those whose condition is not known
// (data read from memory), which run both sides and leave the variables
// the two sides disagree on unknown. Loops run until their lanes leave or
// are cut at the iteration limit or the step budget; break, continue and
// return remove lanes until the construct they leave ends.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include <functional>

using namespace clang;

namespace warpcheck::analysis {

void WarpInterpreter::Impl::splitByCondition(const Lanes &C, Mask Within,
                                             Mask &T, Mask &F, Mask &U) {
  T = F = U = 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!isBitSet(Within, L))
      continue;
    if (C[L].K == LaneValue::Int)
      (C[L].Bits ? T : F) |= (1u << L);
    else if (C[L].hasRegion())
      T |= (1u << L); // a pointer into a region is non-null
    else
      U |= (1u << L);
  }
}

namespace {
/// Local variables assigned anywhere inside a statement: the targets of
/// assignments and increments, and the variables it declares. This is the
/// set of variables the simulation itself changes, not every mutation
/// clang's ExprMutationAnalyzer finds: a local passed to a function by
/// non-const reference keeps its value here (inlineCall does not write back
/// through such a reference), so it must not become unknown either.
void collectAssigned(const Stmt *S, std::set<const VarDecl *> &Out) {
  if (!S)
    return;
  auto VarOf = [](const Expr *E) -> const VarDecl * {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    return nullptr;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      if (const VarDecl *V = VarOf(BO->getLHS()))
        Out.insert(V);
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp())
      if (const VarDecl *V = VarOf(UO->getSubExpr()))
        Out.insert(V);
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        Out.insert(V);
  }
  for (const Stmt *Child : S->children())
    collectAssigned(Child, Out);
}

/// Whether E computes a value from variables and constants alone: no
/// memory read (a reference, a __shared__ or __device__ variable), call
/// (but a cooperative group's size) or assignment, so that evaluating it
/// again has no effect of its own.
bool isPureArithmetic(const Expr *E) {
  if (!E)
    return false;
  E = E->IgnoreParens();
  if (isa<IntegerLiteral>(E) || isa<CharacterLiteral>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(DRE->getDecl()))
      return true;
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && !VD->getType()->isReferenceType() &&
           (VD->hasLocalStorage() || VD->isConstexpr()) && !VD->hasAttr<CUDASharedAttr>();
  }
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return isPureArithmetic(CE->getSubExpr());
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && !BO->isCommaOp() && isPureArithmetic(BO->getLHS()) &&
           isPureArithmetic(BO->getRHS());
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus ||
            UO->getOpcode() == UO_Not || UO->getOpcode() == UO_LNot) &&
           isPureArithmetic(UO->getSubExpr());
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return isPureArithmetic(CO->getCond()) && isPureArithmetic(CO->getTrueExpr()) &&
           isPureArithmetic(CO->getFalseExpr());
  // blockDim.x and the other built-in variables' fields.
  if (isa<PseudoObjectExpr>(E))
    return true;
  // warp.size(), warp.num_threads() of a cooperative group.
  // (size() is static in some of them: a call through a member expression.)
  if (const auto *MC = dyn_cast<CallExpr>(E)) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(MC->getDirectCallee());
    return MD && MD->getIdentifier() && MC->getNumArgs() == 0 &&
           inCooperativeGroups(MD->getParent()) &&
           (MD->getName() == "size" || MD->getName() == "num_threads");
  }
  return false;
}

/// Whether S holds a statement that leaves the loop it is in, or the
/// function, before its condition fails.
bool leavesEarly(const Stmt *S, bool InNestedBreakable) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    return true;
  if (isa<BreakStmt>(S))
    return !InNestedBreakable;
  bool Nested = InNestedBreakable || isa<ForStmt>(S) || isa<WhileStmt>(S) ||
                isa<DoStmt>(S) || isa<SwitchStmt>(S) || isa<CXXForRangeStmt>(S);
  for (const Stmt *Child : S->children())
    if (leavesEarly(Child, Nested))
      return true;
  return false;
}

const VarDecl *referencedVar(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// The step `++v`, `v--`, `v += s`, `v -= s` makes of v; its size is in
/// Step (null for one), negated when it decrements.
const VarDecl *inductionStep(const Expr *Inc, const Expr *&Step, bool &Down) {
  Step = nullptr;
  Down = false;
  if (!Inc)
    return nullptr;
  Inc = Inc->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
    if (!UO->isIncrementDecrementOp())
      return nullptr;
    Down = UO->isDecrementOp();
    return referencedVar(UO->getSubExpr());
  }
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc)) {
    if (CA->getOpcode() != BO_AddAssign && CA->getOpcode() != BO_SubAssign)
      return nullptr;
    Down = CA->getOpcode() == BO_SubAssign;
    Step = CA->getRHS();
    return referencedVar(CA->getLHS());
  }
  return nullptr;
}
} // namespace

std::optional<std::pair<const VarDecl *, Lanes>>
WarpInterpreter::Impl::inductionExit(const Stmt *Loop, const Expr *Cond, const Expr *Inc,
                                     const Stmt *Body, Mask Cut) {
  // A loop cut at the iteration limit or the step budget leaves its
  // variables unknown, and with them what follows it (llm.c's
  // `for (; t2 < t3; t2 += warp.size())` whose t2 the next statement
  // indexes with). A counted loop's own variable is known all the same:
  // the first value of v + k * step that fails the condition. Only for a
  // loop that leaves by its condition alone, whose bound and step do not
  // change in it.
  const Expr *StepExpr = nullptr;
  bool Down = false;
  const VarDecl *V = inductionStep(Inc, StepExpr, Down);
  const auto *Cmp = Cond ? dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts()) : nullptr;
  if (!Cut || !V || !Cmp || !Cmp->isComparisonOp() || leavesEarly(Body, false) ||
      !V->getType()->isIntegerType())
    return std::nullopt;
  BinaryOperatorKind Op = Cmp->getOpcode();
  const Expr *Bound = Cmp->getRHS();
  if (referencedVar(Cmp->getRHS()) == V) {
    Bound = Cmp->getLHS();
    Op = BinaryOperator::reverseComparisonOp(Op);
  } else if (referencedVar(Cmp->getLHS()) != V) {
    return std::nullopt;
  }
  std::set<const VarDecl *> Changed, InBody;
  collectAssigned(Body, InBody);
  collectAssigned(Loop, Changed);
  if (InBody.count(V) || !isPureArithmetic(Bound) || (StepExpr && !isPureArithmetic(StepExpr)))
    return std::nullopt;
  auto UsesChanged = [&](const Expr *E) {
    std::function<bool(const Stmt *)> Walk = [&](const Stmt *S) -> bool {
      if (!S)
        return false;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (Changed.count(VD))
            return true;
      for (const Stmt *C : S->children())
        if (Walk(C))
          return true;
      return false;
    };
    return Walk(E);
  };
  if (UsesChanged(Bound) || (StepExpr && UsesChanged(StepExpr)))
    return std::nullopt;
  auto It = frame().Vars.find(V);
  if (It == frame().Vars.end())
    return std::nullopt;
  Lanes Exit = It->second.Val;
  Mask Saved = Active;
  Active = Cut;
  Lanes B = eval(Bound);
  Lanes S = StepExpr ? eval(StepExpr) : splat(LaneValue::integer(1));
  Active = Saved;
  QualType VT = V->getType(), BT = Bound->getType();
  QualType ST = StepExpr ? StepExpr->getType() : VT;
  auto Signed = [&](std::uint64_t Bits, QualType T) -> std::int64_t {
    unsigned Width = static_cast<unsigned>(Ctx.getTypeSize(T));
    if (Width >= 64 || !isSigned(T))
      return static_cast<std::int64_t>(Bits);
    std::uint64_t Sign = std::uint64_t(1) << (Width - 1);
    return static_cast<std::int64_t>((Bits ^ Sign) - Sign);
  };
  // Values beyond this are not stepped to (an overflow would wrap).
  constexpr std::int64_t Limit = std::int64_t(1) << 40;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!isBitSet(Cut, L))
      continue;
    const LaneValue Now = Exit[L];
    Exit[L] = LaneValue{};
    if (Now.K != LaneValue::Int || B[L].K != LaneValue::Int || S[L].K != LaneValue::Int)
      continue;
    std::int64_t X = Signed(Now.Bits, VT), Bd = Signed(B[L].Bits, BT),
                 St = Signed(S[L].Bits, ST);
    if (Down)
      St = -St;
    // Compared as unsigned (an operand's type is): a negative value is huge.
    if (!isSigned(Cmp->getLHS()->getType()) && (X < 0 || Bd < 0))
      continue;
    if (St == 0 || X > Limit || X < -Limit || Bd > Limit || Bd < -Limit || St > Limit ||
        St < -Limit)
      continue;
    // The number of steps until the condition fails.
    std::optional<std::int64_t> Steps;
    auto CeilDiv = [](std::int64_t A, std::int64_t D) { return (A + D - 1) / D; };
    if ((Op == BO_LT || Op == BO_LE) && St > 0 && X <= Bd)
      Steps = Op == BO_LT ? CeilDiv(Bd - X, St) : (Bd - X) / St + 1;
    else if ((Op == BO_GT || Op == BO_GE) && St < 0 && X >= Bd)
      Steps = Op == BO_GT ? CeilDiv(X - Bd, -St) : (X - Bd) / -St + 1;
    else if (Op == BO_NE && (Bd - X) % St == 0 && (Bd - X) / St >= 0)
      Steps = (Bd - X) / St;
    if (!Steps)
      continue;
    Exit[L] = LaneValue::integer(
        normalize(static_cast<std::uint64_t>(X + *Steps * St), VT));
  }
  return std::make_pair(V, Exit);
}

void WarpInterpreter::Impl::poisonAssigned(const Stmt *S, Mask Lanes,
                                           std::uint64_t LocalWritesBefore) {
  if (!Lanes)
    return;
  poisonLocalWrites(LocalWritesBefore, Lanes);
  std::set<const VarDecl *> Assigned;
  collectAssigned(S, Assigned);
  for (const VarDecl *V : Assigned) {
    auto It = frame().Vars.find(V);
    if (It == frame().Vars.end())
      continue;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (isBitSet(Lanes, L))
        It->second.Val[L] = LaneValue{};
  }
}

void WarpInterpreter::Impl::execIf(const IfStmt *If) {
  if (If->getInit())
    exec(If->getInit());
  if (const DeclStmt *CV = If->getConditionVariableDeclStmt())
    exec(CV);
  Mask Entry = Active;
  if (If->isConsteval()) {
    // `if consteval` is false at run time.
    if (If->getElse())
      exec(If->getElse());
    Active = Entry & ~removedLanes();
    return;
  }
  Lanes C = eval(If->getCond());
  Mask T, F, U;
  splitByCondition(C, Entry, T, F, U);
  // Lanes whose condition is data-dependent run both sides; variables the
  // two sides leave different become unknown for them.
  std::map<const VarDecl *, Slot> Before;
  LocalSnapshot LocalBefore;
  Mask ExitedBefore = frame().Exited;
  LoopState LoopBefore;
  if (!frame().Loops.empty())
    LoopBefore = frame().Loops.back();
  if (U) {
    Before = frame().Vars;
    LocalBefore = LocalMemory;
    ++Uncertain;
  }
  Active = T | U;
  if (Active)
    exec(If->getThen());
  std::map<const VarDecl *, Slot> AfterThen;
  LocalSnapshot LocalAfterThen;
  if (U) {
    AfterThen = frame().Vars;
    LocalAfterThen = LocalMemory;
    keepLocalLanes(LocalBefore, U);
    for (auto &[V, S] : frame().Vars) {
      auto B = Before.find(V);
      if (B == Before.end())
        continue;
      for (unsigned L = 0; L < WarpSize; ++L)
        if (isBitSet(U, L))
          S.Val[L] = B->second.Val[L];
    }
  }
  Active = F | U;
  if (Active && If->getElse())
    exec(If->getElse());
  if (U) {
    --Uncertain;
    mergeLocalLanes(LocalAfterThen, U);
    for (auto &[V, S] : frame().Vars) {
      auto A = AfterThen.find(V);
      if (A == AfterThen.end())
        continue;
      for (unsigned L = 0; L < WarpSize; ++L)
        if (isBitSet(U, L))
          S.Val[L] = join(S.Val[L], A->second.Val[L]);
    }
    keepUncertainExits(U, ExitedBefore, LoopBefore);
  }
  Active = Entry & ~removedLanes();
}

void WarpInterpreter::Impl::keepUncertainExits(Mask U, Mask ExitedBefore,
                                               const LoopState &LoopBefore) {
  // `if (data) return;` (or break, continue) must not end the simulation of
  // the lanes that may not take it, or a guard on a value read from memory
  // would hide every access after it: those lanes go on, and what they do
  // from here on is marked as under a data-dependent condition.
  Frame &Fr = frame();
  Mask Returned = Fr.Exited & ~ExitedBefore & U;
  Fr.Exited &= ~Returned;
  Fr.UncertainLive |= Returned;
  if (!Fr.Loops.empty()) {
    LoopState &L = Fr.Loops.back();
    Mask Left = ((L.Broken & ~LoopBefore.Broken) |
                 (L.Continued & ~LoopBefore.Continued)) & U;
    L.Broken &= ~(Left & ~LoopBefore.Broken);
    L.Continued &= ~(Left & ~LoopBefore.Continued);
    L.UncertainLive |= Left;
  }
}

void WarpInterpreter::Impl::execLoop(const Stmt *Init, const Expr *Cond,
                                     const Stmt *CondVar, const Expr *Inc,
                                     const Stmt *Body, bool TestFirst,
                                     const Stmt *Loop) {
  Mask Entry = Active;
  std::uint64_t LocalWritesBefore = LocalWrites;
  const std::uint64_t StepsAtEntry = Steps;
  if (Init)
    exec(Init);
  LoopState Fresh;
  Fresh.Loop = Loop;
  frame().Loops.push_back(Fresh);
  Mask Running = Active;
  Mask UncertainExit = 0, CutLanes = 0;
  unsigned Iteration = 0;
  bool First = true;
  while (Running && !Aborted) {
    Active = Running;
    if (TestFirst || !First) {
      if (CondVar)
        exec(CondVar);
      if (Cond) {
        Lanes C = eval(Cond);
        Mask T, F, U;
        splitByCondition(C, Running, T, F, U);
        // Lanes whose condition depends on data may stay: they are
        // simulated as if they did (or the body of every loop bounded by
        // a value read from memory would never be seen), marked as under
        // a data-dependent condition, and their loop variables are
        // unknown after the loop.
        UncertainExit |= U;
        frame().Loops.back().UncertainLive |= U;
        Running = T | U;
      }
    }
    First = false;
    if (!Running)
      break;
    // Past half the warp's step budget, loops stop at their next
    // iteration, so that what follows a deep loop nest is still simulated.
    // A loop entered past that mark (what follows the nest: a scan tree of
    // log2(n) levels after a bisection loop cut short) runs on until
    // MaxLoopIterations or three quarters of the budget, so that the
    // pattern of its levels is seen, not only its first.
    const std::uint64_t Half = Limits.MaxSteps / 2;
    bool EnteredPastHalf = StepsAtEntry > Half;
    bool OverBudget = Iteration > 0 && Steps > Half &&
                      (!EnteredPastHalf || Steps > Half + Half / 2);
    bool UncertainTooLong =
        (UncertainExit & Running) != 0 && Iteration >= Limits.MaxUncertainLoopIterations;
    if (Iteration >= Limits.MaxLoopIterations || OverBudget || UncertainTooLong) {
      // Long loops are sampled: accesses repeat with the same pattern in
      // most kernels; the lanes still inside leave with unknown values.
      if (TruncatedSeen.insert(Loop).second)
        Truncated.push_back(Loop->getSourceRange());
      if (Iteration < Limits.MaxLoopIterations && BudgetCutSeen.insert(Loop).second)
        BudgetCut.push_back(Loop->getSourceRange());
      CutLanes = Running & ~UncertainExit;
      UncertainExit |= Running;
      break;
    }
    Active = Running;
    frame().Loops.back().Continued = 0;
    exec(Body);
    Running &= ~(frame().Loops.back().Broken | frame().Exited);
    Active = Running;
    if (Inc && Running)
      eval(Inc);
    ++Iteration;
  }
  frame().Loops.pop_back();
  Active = UncertainExit;
  // The counter's exit value, worked out before the loop's variables are
  // made unknown.
  auto Exit = inductionExit(Loop, Cond, Inc, Body, CutLanes);
  poisonAssigned(Loop, UncertainExit, LocalWritesBefore);
  if (Exit) {
    auto It = frame().Vars.find(Exit->first);
    for (unsigned L = 0; L < WarpSize; ++L)
      if (isBitSet(CutLanes, L) && Exit->second[L].K == LaneValue::Int)
        It->second.Val[L] = Exit->second[L];
  }
  Active = Entry & ~removedLanes();
}

void WarpInterpreter::Impl::execSwitch(const SwitchStmt *Sw) {
  if (Sw->getInit())
    exec(Sw->getInit());
  if (const DeclStmt *CV = Sw->getConditionVariableDeclStmt())
    exec(CV);
  Mask Entry = Active;
  Lanes C = eval(Sw->getCond());
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Sw->getBody());
  if (!Body) {
    Active = Entry;
    return;
  }
  // Which case each lane enters.
  Mask Matched = 0, Unknown = 0;
  std::map<const SwitchCase *, Mask> Entries;
  const DefaultStmt *Default = nullptr;
  for (const SwitchCase *SC = Sw->getSwitchCaseList(); SC; SC = SC->getNextSwitchCase()) {
    if (const auto *D = dyn_cast<DefaultStmt>(SC)) {
      Default = D;
      continue;
    }
    const auto *Case = cast<CaseStmt>(SC);
    Expr::EvalResult R;
    if (Case->getLHS()->isValueDependent() || !Case->getLHS()->EvaluateAsInt(R, Ctx))
      continue;
    std::uint64_t V = normalize(R.Val.getInt().getZExtValue(), Sw->getCond()->getType());
    Mask M = 0;
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (!isBitSet(Entry, L))
        continue;
      if (C[L].K != LaneValue::Int)
        Unknown |= 1u << L;
      else if (C[L].Bits == V)
        M |= 1u << L;
    }
    Entries[Case] = M;
    Matched |= M;
  }
  if (Default)
    Entries[Default] = Entry & ~Matched & ~Unknown;
  frame().Loops.push_back(LoopState{}); // `break` leaves the switch
  if (Unknown)
    ++Uncertain;
  Active = 0;
  std::function<void(const Stmt *)> Run = [&](const Stmt *S) {
    if (const auto *SC = dyn_cast<SwitchCase>(S)) {
      auto It = Entries.find(SC);
      if (It != Entries.end())
        Active |= It->second & ~frame().Loops.back().Broken & ~frame().Exited;
      if (Unknown)
        Active |= Unknown & ~frame().Loops.back().Broken & ~frame().Exited;
      Run(SC->getSubStmt());
      return;
    }
    exec(S);
  };
  for (const Stmt *S : Body->body()) {
    Run(S);
    if (Aborted)
      break;
  }
  if (Unknown)
    --Uncertain;
  frame().Loops.pop_back();
  Active = Entry & ~removedLanes();
}

} // namespace warpcheck::analysis
