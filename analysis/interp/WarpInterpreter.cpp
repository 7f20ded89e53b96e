//===- WarpInterpreter.cpp - SIMT lockstep evaluation of a kernel ---------===//

#include "InterpreterImpl.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace warpcheck::analysis {

// ===================================================================
// Statements
// ===================================================================

void WarpInterpreter::Impl::splitByCondition(const Lanes &C, Mask Within,
                                             Mask &T, Mask &F, Mask &U) {
  T = F = U = 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!isBitSet(Within, L))
      continue;
    if (C[L].K == LaneValue::Int)
      (C[L].Bits ? T : F) |= (1u << L);
    else if (C[L].K == LaneValue::Pointer)
      T |= (1u << L); // a pointer into a region is non-null
    else
      U |= (1u << L);
  }
}

namespace {
/// Local variables assigned anywhere inside a statement.
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
} // namespace

void WarpInterpreter::Impl::poisonAssigned(const Stmt *S, Mask Lanes) {
  if (!Lanes)
    return;
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

void WarpInterpreter::Impl::declare(const VarDecl *VD) {
  if (VD->hasAttr<CUDASharedAttr>() || VD->isStaticLocal() ||
      VD->hasGlobalStorage())
    return; // shared and static variables are memory regions, not registers
  Slot S;
  if (VD->getType()->isReferenceType()) {
    S.IsReference = true;
    if (VD->getInit())
      S.Ref = evalLValue(VD->getInit());
    if (S.Ref.K == LValue::Var) {
      S.IsReference = false;
      S.Val = readLValue(S.Ref, VD->getInit(), VD->getType().getNonReferenceType());
    }
  } else if (VD->getType()->isArrayType()) {
    // A local array lives in registers or local memory: its contents are
    // not tracked, but its address is a region of its own.
    Frame &F = frame();
    F.Vars.erase(VD);
    if (VD->getInit())
      eval(VD->getInit());
    return;
  } else if (VD->getInit()) {
    S.Val = eval(VD->getInit());
  }
  auto It = frame().Vars.find(VD);
  if (It == frame().Vars.end()) {
    frame().Vars[VD] = S;
    return;
  }
  // Re-declaration in a loop body: only the active lanes take the new value.
  It->second.IsReference = S.IsReference;
  It->second.Ref = S.Ref;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (isBitSet(Active, L))
      It->second.Val[L] = S.Val[L];
}

void WarpInterpreter::Impl::exec(const Stmt *S) {
  NestingGuard Guard(*this);
  if (!S || !Active || !Guard.Ok || !step())
    return;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : CS->body()) {
      exec(Child);
      if (!Active || Aborted)
        break;
    }
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        declare(VD);
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S))
    return execIf(If);
  if (const auto *For = dyn_cast<ForStmt>(S))
    return execLoop(For->getInit(), For->getCond(), For->getConditionVariableDeclStmt(),
                    For->getInc(), For->getBody(), true, For);
  if (const auto *While = dyn_cast<WhileStmt>(S))
    return execLoop(nullptr, While->getCond(), While->getConditionVariableDeclStmt(),
                    nullptr, While->getBody(), true, While);
  if (const auto *Do = dyn_cast<DoStmt>(S))
    return execLoop(nullptr, Do->getCond(), nullptr, nullptr, Do->getBody(), false, Do);
  if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    return execSwitch(Sw);
  if (isa<BreakStmt>(S)) {
    if (!frame().Loops.empty())
      frame().Loops.back().Broken |= Active;
    Active = 0;
    return;
  }
  if (isa<ContinueStmt>(S)) {
    if (!frame().Loops.empty())
      frame().Loops.back().Continued |= Active;
    Active = 0;
    return;
  }
  if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
    if (const Expr *V = Ret->getRetValue()) {
      Lanes R;
      if (frame().ReturnsReference) {
        // A reference is returned: its address, for the caller to use as
        // an lvalue.
        LValue LV = evalLValue(V);
        if (LV.K == LValue::Mem)
          R = LV.Addr;
      } else {
        R = eval(V);
      }
      Frame &F = frame();
      for (unsigned L = 0; L < WarpSize; ++L) {
        if (!isBitSet(Active, L))
          continue;
        // A lane simulated past a data-dependent return returns again:
        // which value it really returns is not known.
        if (isBitSet(F.ReturnSet, L) && F.Returned[L] != R[L])
          F.Returned[L] = LaneValue{};
        else
          F.Returned[L] = R[L];
      }
      F.ReturnSet |= Active;
    }
    frame().Exited |= Active;
    Active = 0;
    return;
  }
  if (const auto *AS = dyn_cast<AttributedStmt>(S))
    return exec(AS->getSubStmt());
  if (const auto *LS = dyn_cast<LabelStmt>(S))
    return exec(LS->getSubStmt());
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S)) {
    Limitations.insert("goto is not followed; the warp stopped there");
    Aborted = true;
    return;
  }
  if (isa<CXXForRangeStmt>(S)) {
    Limitations.insert("range-based for loops are not followed");
    return;
  }
  if (isa<NullStmt>(S) || isa<AsmStmt>(S))
    return;
  if (const auto *E = dyn_cast<Expr>(S)) {
    eval(E);
    return;
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
  Mask ExitedBefore = frame().Exited;
  LoopState LoopBefore;
  if (!frame().Loops.empty())
    LoopBefore = frame().Loops.back();
  if (U) {
    Before = frame().Vars;
    ++Uncertain;
  }
  Active = T | U;
  if (Active)
    exec(If->getThen());
  std::map<const VarDecl *, Slot> AfterThen;
  if (U) {
    AfterThen = frame().Vars;
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
    for (auto &[V, S] : frame().Vars) {
      auto A = AfterThen.find(V);
      if (A == AfterThen.end())
        continue;
      for (unsigned L = 0; L < WarpSize; ++L)
        if (isBitSet(U, L) && S.Val[L] != A->second.Val[L])
          S.Val[L] = LaneValue{};
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
  if (Init)
    exec(Init);
  frame().Loops.push_back(LoopState{});
  Mask Running = Active;
  Mask UncertainExit = 0;
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
    bool OverBudget = Iteration > 0 && Steps > Limits.MaxSteps / 2;
    if (Iteration >= Limits.MaxLoopIterations || OverBudget) {
      // Long loops are sampled: accesses repeat with the same pattern in
      // most kernels; the lanes still inside leave with unknown values.
      if (TruncatedSeen.insert(Loop).second)
        Truncated.push_back(Loop->getSourceRange());
      if (Iteration < Limits.MaxLoopIterations && BudgetCutSeen.insert(Loop).second)
        BudgetCut.push_back(Loop->getSourceRange());
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
  poisonAssigned(Loop, UncertainExit);
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

void WarpInterpreter::Impl::runWarp(const FunctionDecl *Kernel,
                                     const WarpPosition &W) {
  Where = W;
  Steps = 0;
  Aborted = false;
  Uncertain = 0;
  Frames.clear();
  Grid = Launch.GridKnown ? Launch.Grid : Samples.AssumedGrid;
  GridSampled = !Launch.GridKnown;
  // Linear thread id -> (x, y, z): x fastest (CUDA C++ Programming Guide,
  // "Thread Hierarchy"); warp w holds linear ids 32w .. 32w + 31.
  Active = 0;
  std::uint64_t BlockThreads = Launch.Block.count();
  for (unsigned L = 0; L < WarpSize; ++L) {
    std::uint64_t Linear = std::uint64_t(W.WarpInBlock) * WarpSize + L;
    if (Linear >= BlockThreads)
      continue;
    Active |= 1u << L;
    Tx[L] = static_cast<std::uint32_t>(Linear % Launch.Block.X);
    Ty[L] = static_cast<std::uint32_t>((Linear / Launch.Block.X) % Launch.Block.Y);
    Tz[L] = static_cast<std::uint32_t>(Linear / (std::uint64_t(Launch.Block.X) * Launch.Block.Y));
  }
  Frame F;
  for (const ParmVarDecl *P : Kernel->parameters()) {
    Slot S;
    QualType T = P->getType();
    auto Bound = Launch.Arguments.find(P);
    if (T->isPointerType()) {
      std::int64_t Offset = 0;
      if (Bound != Launch.Arguments.end() && Bound->second.PointerOffsetBytes)
        Offset = *Bound->second.PointerOffsetBytes;
      S.Val = splat(LaneValue::pointer(regionFor(P, RegionKind::Global, nullptr),
                                       static_cast<std::uint64_t>(Offset)));
    } else if (T->isIntegerType()) {
      if (Bound != Launch.Arguments.end() && Bound->second.Integer)
        S.Val = splat(LaneValue::integer(normalize(
            static_cast<std::uint64_t>(*Bound->second.Integer), T)));
      else {
        S.Val = splat(LaneValue::integer(normalize(
            static_cast<std::uint64_t>(Samples.UnboundInteger), T)));
        S.IsReference = false;
        SampledParams.insert(P);
      }
    }
    F.Vars[P] = S;
  }
  Frames.push_back(std::move(F));
  exec(Kernel->getBody());
  LastWarpSteps = Steps;
}

WarpInterpreter::WarpInterpreter(ASTContext &Ctx, const LaunchConfig &Launch,
                                 const SampleValues &Samples,
                                 const InterpreterLimits &Limits,
                                 const std::map<const VarDecl *, ArrayLayout> &Layouts,
                                 RequestSink Sink)
    : P(new Impl(Ctx, Launch, Samples, Limits, Layouts, std::move(Sink))) {}
WarpInterpreter::~WarpInterpreter() { delete P; }
void WarpInterpreter::runWarp(const FunctionDecl *Kernel, const WarpPosition &Where) {
  P->runWarp(Kernel, Where);
}
std::uint64_t WarpInterpreter::stepsOfLastWarp() const { return P->LastWarpSteps; }
bool WarpInterpreter::sawUndefinedArithmetic() const {
  return P->UndefinedArithmetic;
}
const std::set<std::string> &WarpInterpreter::sampledSymbolsRead() const {
  return P->SampledRead;
}
const std::vector<SourceRange> &WarpInterpreter::truncatedLoops() const {
  return P->Truncated;
}
const std::vector<SourceRange> &WarpInterpreter::budgetTruncatedLoops() const {
  return P->BudgetCut;
}
const std::set<std::string> &WarpInterpreter::limitations() const {
  return P->Limitations;
}
const std::map<const Expr *, std::map<const Expr *, std::vector<std::int64_t>>> &
WarpInterpreter::capturedSubexpressions() const {
  return P->Captured;
}

} // namespace warpcheck::analysis
