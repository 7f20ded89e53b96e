//===- HostStatements.cpp - statements and control flow of host code ------===//
//
// Declarations, branches, switches, loops, returns, breaks and continues
// over the path's variables (HostState). A branch whose condition is
// unknown runs both ways from the same state and joins them (what the
// ways set differently is a choice of that branch, HostValue.h), the branch
// where `v == C` holds knowing v; a switch on an unknown value runs every
// case with the switched variable set to the case's value; a loop whose
// condition stays known is unrolled, and one whose condition is unknown
// (or that runs past HostLimits::MaxLoopIterations) runs its body once
// more with every variable it changes unknown. A loop that can launch is
// first followed for HostLimits::UnknownBoundIterations iterations under
// an unknown condition, each of which may be the last.
//
//===----------------------------------------------------------------------===//

#include "HostEvaluator.h"
#include "DeclaredVariables.h"

#include "values/IntegerSemantics.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <algorithm>
#include <functional>
#include <numeric>

using namespace clang;

namespace warpcheck::analysis::host {

const FunctionDecl *HostEvaluator::startRun(const FunctionDecl *Root) {
  const FunctionDecl *Def = nullptr;
  if (!Root || !Root->hasBody(Def) || !Def)
    return nullptr;
  Cur = HostState();
  Frames.clear();
  Context.clear();
  GlobalsTracked = Def->isMain();
  GlobalsLost.clear();
  ArgumentlessRun = false;
  Steps = 0;
  Aborted = false;
  Frames.push_back(Frame{Def, NextFrameId++, {}, {}, std::nullopt, {}});
  return Def;
}

void HostEvaluator::run(const FunctionDecl *Root, const std::string &ParamsWhy) {
  const FunctionDecl *Def = startRun(Root);
  if (!Def)
    return;
  for (const ParmVarDecl *P : Def->parameters())
    Cur.Vars[VarKey{frame().Id, P}] =
        HostValue::unknown("a parameter of " + functionName(Def) + ParamsWhy);
  runFunction(Def);
  Frames.clear();
}

void HostEvaluator::run(const FunctionDecl *Root, const ExternalCall &Call) {
  const FunctionDecl *Def = startRun(Root);
  if (!Def)
    return;
  std::string Name = Def->getNameAsString();
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    auto It = Call.Integers.find(I);
    HostValue V = It != Call.Integers.end() && P->getType()->isIntegralOrEnumerationType()
                      ? toType(HostValue::integer(It->second), P->getType())
                      : HostValue::unknown("a parameter of '" + Name + "' whose caller at " +
                                           Call.Location + " passes a value not known");
    if (auto M = Call.Multiples.find(I); !V.known() && M != Call.Multiples.end())
      V.setCongruence(M->second);
    Cur.Vars[VarKey{frame().Id, P}] = identified(V);
  }
  Context = Call.Context;
  ArgumentlessRun = Call.WithoutArguments;
  Context.push_back("'" + Name + "' called at " + Call.Location);
  // A method: the object the calling unit describes (its constructor run
  // here, its known fields set), when it describes one.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def))
    if (std::optional<VarKey> Object = objectFor(MD, Call))
      frame().This = Object;
  runFunction(Def);
  Frames.clear();
  Context.clear();
}

void HostEvaluator::runWithoutArguments(const FunctionDecl *Main) {
  const FunctionDecl *Def = startRun(Main);
  if (!Def)
    return;
  RecordDecided = true;
  ArgumentlessRun = true;
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    Cur.Vars[VarKey{frame().Id, P}] =
        I == 0 && P->getType()->isIntegralOrEnumerationType()
            ? toType(HostValue::integer(1), P->getType())
            : HostValue::unknown("a parameter of " + functionName(Def) +
                                 " (a run without command-line arguments)");
  }
  runFunction(Def);
  Frames.clear();
}

void HostEvaluator::runFunction(const FunctionDecl *FD) {
  Reached.insert(FD->getCanonicalDecl());
  exec(FD->getBody());
  HostState End = Cur;
  for (const HostState &R : frame().Returns)
    End = join(End, R, "the returns of " + functionName(FD));
  End.Live = true;
  Cur = std::move(End);
}

void HostEvaluator::declare(const VarDecl *VD) {
  QualType T = VD->getType();
  const Expr *Init = VD->getInit();
  if (T->isReferenceType() && Init) {
    Place P = place(Init);
    if (P.Valid && P.Path.empty()) {
      frame().Refs[VD] = P.Var;
      return;
    }
  }
  HostValue V;
  if (Init) {
    V = eval(Init);
  } else if (const auto *CA = dyn_cast<ConstantArrayType>(T.getCanonicalType().getTypePtr())) {
    V.K = HostValue::Array;
    std::uint64_t N = CA->getSize().getZExtValue();
    if (N <= 4096)
      V.Elements.assign(N, HostValue::unknown("an element that is not set"));
  } else {
    V = HostValue::unknown("a variable that is not initialised");
  }
  Cur.Vars[VarKey{frame().Id, VD}] = identified(toType(V, T.getNonReferenceType()));
}

void HostEvaluator::exec(const Stmt *S) {
  if (!S || !Cur.Live || Aborted || !step())
    return;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : CS->body())
      exec(Child);
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const VarDecl *VD : declaredVariables(DS))
      declare(VD);
    return;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    eval(E);
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S))
    return execIf(If);
  if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    return execSwitch(Sw);
  if (const auto *For = dyn_cast<ForStmt>(S))
    return execLoop(For->getInit(), For->getCond(), For->getConditionVariable(), For->getInc(),
                    For->getBody(), true, For);
  if (const auto *While = dyn_cast<WhileStmt>(S))
    return execLoop(nullptr, While->getCond(), While->getConditionVariable(), nullptr,
                    While->getBody(), true, While);
  if (const auto *Do = dyn_cast<DoStmt>(S))
    return execLoop(nullptr, Do->getCond(), nullptr, nullptr, Do->getBody(), false, Do);
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(S))
    return execRangeFor(RF);
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    HostValue V = RS->getRetValue() ? eval(RS->getRetValue()) : HostValue::unknown("");
    Frame &F = frame();
    F.Returned = F.Returned ? join(*F.Returned, V,
                                   "the returns of " + functionName(F.Function))
                            : V;
    F.Returns.push_back(Cur);
    Cur.Live = false;
    return;
  }
  if (isa<BreakStmt>(S) || isa<ContinueStmt>(S)) {
    bool Continue = isa<ContinueStmt>(S);
    for (auto B = frame().Breakables.rbegin(); B != frame().Breakables.rend(); ++B)
      if (!Continue || B->IsLoop) {
        (Continue ? B->Continues : B->Breaks).push_back(Cur);
        break;
      }
    Cur.Live = false;
    return;
  }
  if (const auto *SC = dyn_cast<SwitchCase>(S))
    return exec(SC->getSubStmt());
  if (const auto *LS = dyn_cast<LabelStmt>(S))
    return exec(LS->getSubStmt());
  if (const auto *AS = dyn_cast<AttributedStmt>(S))
    return exec(AS->getSubStmt());
  if (const auto *Try = dyn_cast<CXXTryStmt>(S))
    return exec(Try->getTryBlock());
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S)) {
    // Jumps are not followed: the path ends here.
    Cur.Live = false;
    return;
  }
  // Anything else (asm, a coroutine) changes what it assigns.
  forgetAssignedIn(S, "a value changed by code the host evaluator does not follow (" +
                          where(S) + ")");
}

void HostEvaluator::refine(const Expr *Cond, bool Holds) {
  refineRemainder(Cond, Holds);
  const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!BO || (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE))
    return;
  if ((BO->getOpcode() == BO_EQ) != Holds)
    return;
  const Expr *Var = BO->getLHS()->IgnoreParenImpCasts(), *Value = BO->getRHS();
  if (!isa<DeclRefExpr>(Var))
    std::swap(Var, Value), Var = Var->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(Var);
  std::optional<std::uint64_t> C = constantInt(Value);
  if (!DRE || !C || !isa<VarDecl>(DRE->getDecl()) ||
      !DRE->getType()->isIntegralOrEnumerationType())
    return;
  Place P = place(DRE);
  if (P.Valid)
    settle(P, toType(HostValue::integer(*C), DRE->getType()), DRE->getType());
}

void HostEvaluator::settle(const Place &P, const HostValue &Value, QualType T) {
  HostValue Was = read(P, T);
  // A choice between integers (the ways of one branch): this path is the
  // ways on which it is Value, and none where no way is (threadFenceReduction's
  // `switch (threads)` with threads 128 or 1 from the caller's branch never
  // reaches `case 32`).
  if (Value.K == HostValue::Int && Was.isChoice() && Was.Arms.size() == 2 &&
      !Was.Arms[0].isChoice() && !Was.Arms[1].isChoice()) {
    std::vector<unsigned> Matching;
    bool AllIntegers = true;
    for (unsigned Arm = 0; Arm < 2; ++Arm) {
      AllIntegers = AllIntegers && Was.Arms[Arm].K == HostValue::Int;
      if (Was.Arms[Arm].K == HostValue::Int && Was.Arms[Arm].Bits == Value.Bits)
        Matching.push_back(Arm);
    }
    if (Matching.empty() && AllIntegers) {
      Cur.Live = false;
      return;
    }
    if (Matching.size() == 1)
      for (auto &[Key, V] : Cur.Vars)
        V = restrictChoice(V, Was.Decision, Matching[0]);
  }
  write(P, Value);
  // Copies of the variable's unknown quantity made before the test are
  // that value too: `dim3 dimBlock(threads, 1, 1); switch (threads) { case
  // 32: reduce4<T, 32><<<dimGrid, dimBlock>>>(...)` launches 32 threads.
  // Only exact copies (same quantity and offset, no remainder) of a small
  // non-negative value, whose bits are the same at every integer width,
  // in the function's own variables (a caller's copy stays as it was: the
  // test is this function's, and ways split in callers multiply).
  if (Value.K != HostValue::Int || Value.Bits >= (std::uint64_t(1) << 31) ||
      Was.K != HostValue::Unknown || Was.isChoice() || !Was.Atom || Was.Modulus)
    return;
  std::function<void(HostValue &)> Visit = [&](HostValue &V) {
    if (V.K == HostValue::Unknown && !V.isChoice() && V.Atom == Was.Atom &&
        V.Offset == Was.Offset && !V.Modulus) {
      V = HostValue::integer(Value.Bits);
      return;
    }
    for (HostField &F : V.Fields)
      Visit(F.Value);
    for (HostValue &E : V.Elements)
      Visit(E);
  };
  for (auto &[Key, V] : Cur.Vars)
    if (Key.first == frame().Id)
      Visit(V);
}

void HostEvaluator::refineRemainder(const Expr *Cond, bool Holds) {
  // Down to the expression whose truth the path decides: `!e` and `e ==
  // 0` hold where e is 0, `e != 0` where it is not.
  const Expr *E = Cond->IgnoreParenImpCasts();
  bool NonZero = Holds;
  for (;;) {
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_LNot) {
      NonZero = !NonZero;
      E = UO->getSubExpr()->IgnoreParenImpCasts();
      continue;
    }
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO || (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE))
      break;
    const Expr *Other = constantInt(BO->getRHS()) == std::optional<std::uint64_t>(0) ? BO->getLHS()
                        : constantInt(BO->getLHS()) == std::optional<std::uint64_t>(0)
                            ? BO->getRHS()
                            : nullptr;
    if (!Other)
      return;
    if (BO->getOpcode() == BO_EQ)
      NonZero = !NonZero;
    E = Other->IgnoreParenImpCasts();
  }
  if (NonZero || !E->getType()->isIntegerType() || E->HasSideEffects(Ctx))
    return;
  HostValue Rem = eval(E);
  if (Rem.K != HostValue::Unknown || !Rem.Modulus || !Rem.Atom)
    return;
  // (n + b) % m is 0: n + a is a - b more than a multiple of m, and a
  // remainder (n + a) % m with a = b is 0 too.
  for (auto &[K, V] : Cur.Vars) {
    if (V.K != HostValue::Unknown || V.isChoice() || V.Atom != Rem.Atom)
      continue;
    std::uint64_t Diff = static_cast<std::uint64_t>(
        V.Offset >= Rem.Offset ? V.Offset - Rem.Offset : Rem.Offset - V.Offset);
    if (V.Modulus) {
      if (V.Modulus == Rem.Modulus && Diff % Rem.Modulus == 0)
        V = HostValue::integer(0);
      continue;
    }
    if (Rem.Modulus <= 1)
      continue;
    std::uint64_t M = Rem.Modulus;
    std::uint64_t R = V.Offset >= Rem.Offset ? Diff % M : (M - Diff % M) % M;
    std::optional<Congruence> Old = V.congruence();
    // Both what V was known to be and this hold: keep the finer where one
    // modulus divides the other, both as their least common multiple
    // where both are multiples, else the larger.
    if (!Old || M % Old->Multiple == 0)
      V.setCongruence({M, R});
    else if (Old->Multiple % M == 0)
      continue;
    else if (R == 0 && Old->Residue == 0 &&
             Old->Multiple / std::gcd(Old->Multiple, M) <= (std::uint64_t(1) << 40) / M)
      V.setCongruence({Old->Multiple / std::gcd(Old->Multiple, M) * M, 0});
    else if (M > Old->Multiple)
      V.setCongruence({M, R});
  }
}

void HostEvaluator::execIf(const IfStmt *If) {
  exec(If->getInit());
  if (const VarDecl *CV = If->getConditionVariable())
    declare(CV);
  if (If->isConsteval()) {
    exec(If->getElse()); // host code is never constant-evaluated here
    return;
  }
  std::optional<bool> T = truth(eval(If->getCond()));
  if (T) {
    if (RecordDecided)
      Decided["the branch at " + where(If)] |= *T ? 1u : 2u;
    exec(*T ? If->getThen() : If->getElse());
    return;
  }
  HostState Before = Cur;
  refine(If->getCond(), true);
  exec(If->getThen());
  // A launch-free call cut short in this branch's first arm is opaque
  // whatever its second arm does, but the calls it makes of other units'
  // functions are recorded all the same (recordExternalCall): a second arm
  // that makes such calls gets an allowance of its own, so that the first
  // arm's cost does not hide them (reduction.cpp's runTest spent its
  // 20,000 steps in the shmoo arm, and the main arm's `reduce<T>(size,
  // threads, blocks, whichKernel, ...)`, the only call that takes the
  // command line's kernel 8 and 9, went unrecorded: those kernels read as
  // never launched in reduction_kernel.cu).
  bool CutInThen = LocalAborted && !Exhausted && If->getElse() && callsAnotherUnit(If->getElse());
  if (CutInThen) {
    Aborted = LocalAborted = false;
    LocalStepLimit = Steps + Limits.MaxStepsLaunchFreeCall;
  }
  HostState AfterThen = std::move(Cur);
  Cur = std::move(Before);
  refine(If->getCond(), false);
  exec(If->getElse());
  if (CutInThen && !Aborted)
    Aborted = LocalAborted = true;
  Cur = join(AfterThen, Cur, "the branch at " + where(If), NextDecision++, &IfWays);
}

void HostEvaluator::execSwitchBody(const Stmt *S, const SwitchCase *Target, bool &Found) {
  if (!S)
    return;
  if (Found) {
    exec(S);
    return;
  }
  if (S == Target) {
    Found = true;
    exec(Target->getSubStmt());
    return;
  }
  if (const auto *SC = dyn_cast<SwitchCase>(S))
    return execSwitchBody(SC->getSubStmt(), Target, Found);
  if (const auto *LS = dyn_cast<LabelStmt>(S))
    return execSwitchBody(LS->getSubStmt(), Target, Found);
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    for (const Stmt *Child : CS->body())
      execSwitchBody(Child, Target, Found);
  // A case label inside another statement (Duff's device) is not entered.
}

void HostEvaluator::execSwitch(const SwitchStmt *Sw) {
  exec(Sw->getInit());
  if (const VarDecl *CV = Sw->getConditionVariable())
    declare(CV);
  HostValue C = eval(Sw->getCond());
  values::IntegerType CT = values::integerTypeOf(Sw->getCond()->getType(), Ctx);
  // The cases in source order, with their values.
  std::vector<std::pair<const SwitchCase *, std::optional<std::uint64_t>>> Cases;
  const SwitchCase *Default = nullptr;
  for (const SwitchCase *SC = Sw->getSwitchCaseList(); SC; SC = SC->getNextSwitchCase()) {
    if (isa<DefaultStmt>(SC)) {
      Default = SC;
      continue;
    }
    std::optional<std::uint64_t> V = constantInt(cast<CaseStmt>(SC)->getLHS());
    Cases.insert(Cases.begin(), {SC, V ? std::optional(CT.normalize(*V)) : std::nullopt});
  }
  frame().Breakables.push_back(Breakable{false, {}, {}});
  auto RunFrom = [&](const SwitchCase *Target) {
    bool Found = false;
    execSwitchBody(Sw->getBody(), Target, Found);
    for (const HostState &B : frame().Breakables.back().Breaks)
      Cur = join(Cur, B, "the switch at " + where(Sw));
    frame().Breakables.back().Breaks.clear();
  };
  std::string Where = "the switch at " + where(Sw);
  if (C.K == HostValue::Int) {
    const SwitchCase *Target = Default;
    for (const auto &[SC, V] : Cases)
      if (V && *V == C.Bits && !cast<CaseStmt>(SC)->getRHS())
        Target = SC;
    if (Target)
      RunFrom(Target);
  } else {
    // Every case may run: in each, the switched variable has its value.
    const auto *Var = dyn_cast<DeclRefExpr>(Sw->getCond()->IgnoreParenImpCasts());
    HostState Before = Cur, After;
    After.Live = false;
    for (const auto &[SC, V] : Cases) {
      Cur = Before;
      std::string Case = "the case " + (V ? std::to_string(static_cast<std::int64_t>(*V)) : "") +
                         " of " + Where;
      if (Var && V && isa<VarDecl>(Var->getDecl())) {
        Place P = place(Var);
        if (P.Valid)
          settle(P, toType(HostValue::integer(*V), Var->getType()), Var->getType());
      }
      Context.push_back(Case);
      RunFrom(SC);
      Context.pop_back();
      After = join(After, Cur, Where);
    }
    Cur = Before;
    if (Default) {
      Context.push_back("the default case of " + Where);
      RunFrom(Default);
      Context.pop_back();
    }
    Cur = join(After, Cur, Where);
  }
  frame().Breakables.pop_back();
}

namespace {
/// The variables a for loop's init declares or assigns.
std::vector<const VarDecl *> loopVariables(const Stmt *Init) {
  std::vector<const VarDecl *> Vars;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Init)) {
    for (const VarDecl *VD : declaredVariables(DS))
      Vars.push_back(VD);
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Init)) {
    if (BO->isAssignmentOp())
      if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Vars.push_back(VD);
  }
  return Vars;
}
/// Whether Body reads or writes none of Vars (the loop's counters): then
/// its iterations differ only by the values the others carry.
bool counterUnused(const Stmt *Body, const std::vector<const VarDecl *> &Vars) {
  return !anyStatement(Body, [&](const Stmt *S) {
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    return DRE && std::find(Vars.begin(), Vars.end(), DRE->getDecl()) != Vars.end();
  });
}
} // namespace

bool anyStatement(const Stmt *Root, llvm::function_ref<bool(const Stmt *)> Pred) {
  llvm::SmallVector<const Stmt *, 64> Work{Root};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (Pred(S))
      return true;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return false;
}

std::string HostEvaluator::loopContext(const Stmt *Loop, const std::vector<const VarDecl *> &Vars) {
  std::string Values;
  for (const VarDecl *VD : Vars)
    if (auto K = keyOf(VD)) {
      const HostValue &V = Cur.Vars[*K];
      if (V.K != HostValue::Int)
        continue;
      values::IntegerType T = values::integerTypeOf(VD->getType(), Ctx);
      std::string Text = T.Signed ? std::to_string(static_cast<std::int64_t>(V.Bits))
                                  : std::to_string(V.Bits);
      Values += (Values.empty() ? "" : ", ") + VD->getNameAsString() + " = " + Text;
    }
  return "the loop at " + where(Loop) + (Values.empty() ? "" : " with " + Values);
}

void HostEvaluator::iterate(const Stmt *Body, const Expr *Inc) {
  exec(Body);
  std::vector<HostState> Continues = std::move(frame().Breakables.back().Continues);
  frame().Breakables.back().Continues.clear();
  for (const HostState &C : Continues)
    Cur = join(Cur, C, "the loop's continue");
  if (Cur.Live && Inc)
    eval(Inc);
}

bool HostEvaluator::changesOnlyMemory(const Stmt *Loop) const {
  // Variables declared in the loop (its counter, its body's locals) that
  // are not references to others.
  std::set<const VarDecl *> Own;
  anyStatement(Loop, [&](const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && !VD->getType()->isReferenceType())
          Own.insert(VD);
    return false;
  });
  auto WritesOnlyOwnOrMemory = [&](const Expr *Target) {
    Target = Target->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Target))
      return Own.count(dyn_cast<VarDecl>(DRE->getDecl())) > 0;
    // An element through a pointer: memory, which the evaluation does not
    // follow (place() reads it as "a value in memory").
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Target))
      return !AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType();
    return false;
  };
  bool ChangesMore = anyStatement(Loop, [&](const Stmt *S) {
    // Leaving the function or the program from inside the loop: which
    // iteration does it matters.
    if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<CXXThrowExpr>(S) || isa<LambdaExpr>(S))
      return true;
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      return BO->isAssignmentOp() && !WritesOnlyOwnOrMemory(BO->getLHS());
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      return UO->isIncrementDecrementOp() && !WritesOnlyOwnOrMemory(UO->getSubExpr());
    // A library function changes what it is given the address of the same
    // way (to a value not known) however often it is called; the program's
    // own functions may set values, and one defined in another unit may
    // launch there with the arguments of each iteration.
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      return !Callee || runnable(Callee) || Callee->isNoReturn() ||
             !SM.isInSystemHeader(SM.getFileLoc(Callee->getLocation()));
    }
    if (const auto *CC = dyn_cast<CXXConstructExpr>(S))
      return runnable(CC->getConstructor());
    return false;
  });
  return !ChangesMore;
}

void HostEvaluator::execLoop(const Stmt *Init, const Expr *Cond, const VarDecl *CondVar,
                             const Expr *Inc, const Stmt *Body, bool TestFirst,
                             const Stmt *Loop) {
  exec(Init);
  std::vector<const VarDecl *> Vars = loopVariables(Init);
  // A loop that cannot launch is unrolled only as far as a value it
  // computes is worth (a power of two grown to a size).
  bool Launches = mayLaunch(Loop);
  unsigned Cap = Launches ? Limits.MaxLoopIterations : 64;
  frame().Breakables.push_back(Breakable{true, {}, {}});
  std::string Widen;
  // A loop that fills or checks host buffers (a benchmark's initialisation
  // and verification, before and after each launch) leaves every value
  // followed as it was: its iterations are not followed one by one, which
  // would spend the step budget the launches after it need (SHOC's
  // MaxFlops: 64 iterations of such loops around each of 36 launches per
  // pass). Its body is still evaluated once, as for a loop widened.
  if (!Launches && changesOnlyMemory(Loop))
    Widen = ", whose iterations change only memory and its own variables";
  // A loop that repeats the same work (a benchmark's timed repetitions:
  // threadFenceReduction's 100 iterations of the same launches, llm.c's
  // benchmark_kernel) whose body does not read its counter: once an
  // iteration leaves every other value as it found it, so would every
  // iteration after it, with the same launches; the loop is left there.
  bool MayRepeat = Launches && isa_and_nonnull<DeclStmt>(Init) && !Vars.empty() &&
                   counterUnused(Body, Vars);
  auto WithoutCounters = [&] {
    std::map<VarKey, HostValue> Rest;
    for (const auto &[K, V] : Cur.Vars)
      if (K.first != frame().Id || !llvm::is_contained(Vars, K.second))
        Rest.emplace(K, V.withoutIdentity()); // a value read afresh is as it was
    return Rest;
  };
  // What the last iteration left (MayRepeat): the state the next one starts
  // from, so that each iteration copies the variables once.
  std::optional<std::map<VarKey, HostValue>> LeftByLast;
  unsigned UnknownBoundIters = 0;
  const unsigned MaxUnknownBoundIters = mayLaunch(Loop) ? Limits.UnknownBoundIterations : 0;
  for (unsigned Iter = 0; Widen.empty(); ++Iter) {
    if (!Cur.Live || Aborted)
      break;
    if (CondVar)
      declare(CondVar);
    if ((TestFirst || Iter > 0) && Cond) {
      std::optional<bool> T = truth(eval(Cond));
      if (!T && UnknownBoundIters < MaxUnknownBoundIters) {
        // It may stop here (that path leaves the loop as a break does) or
        // go on with the variables it has.
        ++UnknownBoundIters;
        frame().Breakables.back().Breaks.push_back(Cur);
        T = true;
      }
      if (!T) {
        Widen = ", which runs a number of times known only at run time";
        break;
      }
      if (!*T)
        break;
    }
    if (Iter >= Cap) {
      Widen = ", which runs more than " + std::to_string(Cap) + " times";
      break;
    }
    Context.push_back(loopContext(Loop, Vars));
    iterate(Body, Inc);
    Context.pop_back();
    if (MayRepeat && Cur.Live && !Aborted) {
      // Compared with what the last iteration left, before this one's
      // condition: a condition that changes a value (not a counter) only
      // makes the two differ, and the loop goes on.
      std::map<VarKey, HostValue> Left = WithoutCounters();
      if (LeftByLast && Left == *LeftByLast)
        break;
      LeftByLast = std::move(Left);
    }
  }
  if (!Widen.empty() && Cur.Live && !Aborted) {
    // The iterations not followed: what the loop changes is unknown in
    // them and after them; their launches are recorded once.
    std::string Why = "a value that changes in the loop at " + where(Loop) + Widen;
    forgetAssignedIn(Loop, Why);
    Context.push_back(loopContext(Loop, Vars));
    ++WidenedDepth;
    iterate(Body, Inc);
    --WidenedDepth;
    Context.pop_back();
    Cur.Live = true;
    forgetAssignedIn(Loop, Why);
  }
  Breakable B = std::move(frame().Breakables.back());
  frame().Breakables.pop_back();
  for (const HostState &Br : B.Breaks)
    Cur = join(Cur, Br, "the loop at " + where(Loop));
  if (!Widen.empty())
    forgetAssignedIn(Loop, "a value that changes in the loop at " + where(Loop) + Widen);
}

void HostEvaluator::execRangeFor(const CXXForRangeStmt *RF) {
  exec(RF->getInit());
  const VarDecl *LoopVar = RF->getLoopVariable();
  HostValue Range = eval(RF->getRangeInit());
  // std::array: its one array member.
  if (Range.K == HostValue::Record && Range.Fields.size() == 1 &&
      Range.Fields[0].Value.K == HostValue::Array)
    Range = HostValue(Range.Fields[0].Value);
  frame().Breakables.push_back(Breakable{true, {}, {}});
  QualType T = LoopVar->getType().getNonReferenceType();
  if (Range.K == HostValue::Array && Range.Elements.size() <= Limits.MaxLoopIterations) {
    for (const HostValue &E : Range.Elements) {
      if (!Cur.Live || Aborted)
        break;
      Cur.Vars[VarKey{frame().Id, LoopVar}] = toType(E, T);
      Context.push_back(loopContext(RF, {LoopVar}));
      iterate(RF->getBody(), nullptr);
      Context.pop_back();
    }
  } else {
    std::string Why = "a value that changes in the loop at " + where(RF) +
                      ", over a range known only at run time";
    forgetAssignedIn(RF->getBody(), Why);
    Cur.Vars[VarKey{frame().Id, LoopVar}] =
        HostValue::unknown("an element of the range of the loop at " + where(RF) +
                           ", known only at run time");
    Context.push_back(loopContext(RF, {}));
    iterate(RF->getBody(), nullptr);
    Context.pop_back();
    Cur.Live = true;
    forgetAssignedIn(RF->getBody(), Why);
  }
  Breakable B = std::move(frame().Breakables.back());
  frame().Breakables.pop_back();
  for (const HostState &Br : B.Breaks)
    Cur = join(Cur, Br, "the loop at " + where(RF));
}

} // namespace warpcheck::analysis::host
