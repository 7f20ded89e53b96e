//===- Statements.cpp - statements and declarations, for 32 lanes ---------===//
//
// The statement dispatcher (blocks, declarations, jumps, returns,
// expressions; if, loops and switch are in ControlFlow.cpp) and the
// declaration of local variables.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"
#include "DeclaredVariables.h"

#include "clang/AST/Attr.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace warpcheck::analysis {

void WarpInterpreter::Impl::declare(const VarDecl *VD) {
  if (VD->hasAttr<CUDASharedAttr>() || VD->isStaticLocal() ||
      VD->hasGlobalStorage())
    return; // shared and static variables are memory regions, not registers
  Slot S;
  if (VD->getType()->isReferenceType()) {
    S.IsReference = true;
    if (VD->getInit())
      S.Ref = evalLValue(VD->getInit());
    // A reference to a local (`unsigned &r = x;`): that variable, so that
    // writes through r reach it.
    if (S.Ref.K == LValue::Var)
      S.Ref.Frame = absoluteFrame(S.Ref);
  } else if (isObjectType(VD->getType()) || addressTaken(VD)) {
    // A local struct, array or lambda lives in registers or local memory:
    // an object of its own, whose contents each lane keeps (Objects.cpp).
    // So does a scalar whose address is taken (dxtc's `ushort start;
    // evalPermutation4(..., &start, ...)`, which writes `*w = ...`): what is
    // stored through the pointer is the variable's, in the lane, and no
    // access of global memory (nvcc keeps it in registers once inlined).
    S.IsReference = true;
    S.Ref.K = LValue::Mem;
    S.Ref.Addr = newObject(VD, Frames.size(), VD->getType());
    initObject(S.Ref.Addr, VD->getType(), VD->getInit());
    noteGroupDeclared(VD);
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

bool WarpInterpreter::Impl::addressTaken(const VarDecl *VD) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  if (!FD || !FD->getBody() || VD->getType()->isReferenceType())
    return false;
  auto [It, New] = AddressTakenIn.try_emplace(FD);
  if (New) {
    llvm::SmallVector<const Stmt *, 64> Work{FD->getBody()};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->getOpcode() == UO_AddrOf)
        if (const auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens()))
          if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && V->isLocalVarDecl())
            It->second.insert(V);
      for (const Stmt *Child : S->children())
        Work.push_back(Child);
    }
  }
  return It->second.count(VD) != 0;
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
    for (const VarDecl *VD : declaredVariables(DS))
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
      if (frame().ReturnSlot) {
        // A struct returned by value: built in the caller's object.
        Lanes Slot = *frame().ReturnSlot;
        initObject(Slot, V->getType(), V);
      } else if (frame().ReturnsReference) {
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
        // which of the two values it really returns is not known (a
        // pointer keeps its region if both are in one).
        F.Returned[L] = isBitSet(F.ReturnSet, L) ? join(F.Returned[L], R[L]) : R[L];
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

} // namespace warpcheck::analysis
