//===- Calls.cpp - calls: user functions run inline, the rest opaque -----===//
//
// A call to a user __device__ function with a body runs that body in a new
// frame with its parameters bound (methods on an object in memory too); a
// library function, or one without a body, is opaque: only what its
// signature says it does to memory is recorded. CUDA's own functions are in
// CudaBuiltins.cpp.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace warpcheck::analysis {

Lanes WarpInterpreter::Impl::evalCall(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD) {
    // Calls through pointers.
    for (const Expr *A : CE->arguments())
      eval(A);
    return Lanes{};
  }
  bool FromSystemOrBuiltin =
      FD->getBuiltinID() != 0 || SM.isInSystemHeader(FD->getLocation()) ||
      FD->getLocation().isInvalid();
  // A library function is one instruction (fmaf, __hadd2) or a sequence
  // (sqrtf): counted here, as its body is not run. A user function's
  // operations are counted as its body runs.
  if (FromSystemOrBuiltin || !FD->hasBody())
    countFloatOperation(CE);
  if (!FD->getIdentifier()) {
    // Operators and conversions: a user one with a body is run, a library
    // one (__half, __nv_bfloat16) reads or writes its operands.
    if (!FromSystemOrBuiltin && FD->hasBody())
      return inlineCall(FD, CE);
    return opaqueCall(FD, CE);
  }
  if (std::optional<Lanes> R = threadPositionCall(FD))
    return *R;
  if (FromSystemOrBuiltin)
    return libraryCall(FD, CE);
  // A user __device__ function: run it with its parameters bound.
  if (FD->hasBody())
    return inlineCall(FD, CE);
  return opaqueCall(FD, CE);
}

/// The object a method is called on: `obj.f()`, `ptr->f()`, `obj op x`.
/// Sets ArgOffset to the index of the first argument that binds a parameter.
const Expr *WarpInterpreter::Impl::implicitObject(const FunctionDecl *FD,
                                                  const CallExpr *CE, bool &Arrow,
                                                  unsigned &ArgOffset) {
  Arrow = false;
  ArgOffset = 0;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || !MD->isInstance())
    return nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    if (const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()))
      Arrow = ME->isArrow();
    return MC->getImplicitObjectArgument();
  }
  if (isa<CXXOperatorCallExpr>(CE) && CE->getNumArgs() > 0) {
    ArgOffset = 1;
    return CE->getArg(0);
  }
  return nullptr;
}

LValue WarpInterpreter::Impl::objectLValue(const Expr *Obj, bool Arrow) {
  LValue LV;
  if (!Obj)
    return LV;
  if (Arrow) {
    LV.K = LValue::Mem;
    LV.Addr = eval(Obj);
    return LV;
  }
  return evalLValue(Obj);
}

Lanes WarpInterpreter::Impl::opaqueCall(const FunctionDecl *FD, const CallExpr *CE) {
  bool Arrow;
  unsigned ArgOffset;
  const Expr *Obj = implicitObject(FD, CE, Arrow, ArgOffset);
  std::optional<LValue> Object;
  if (Obj)
    Object = objectLValue(Obj, Arrow);
  return opaqueCall(FD, CE, Object, ArgOffset);
}

namespace {
/// What an operator does to its first operand: 0 nothing known, 1 writes
/// it (=), 2 reads and writes it (+=, ++).
int writeEffect(const FunctionDecl *FD) {
  switch (FD->getOverloadedOperator()) {
  case OO_Equal:
    return 1;
  case OO_PlusEqual: case OO_MinusEqual: case OO_StarEqual: case OO_SlashEqual:
  case OO_PercentEqual: case OO_CaretEqual: case OO_AmpEqual: case OO_PipeEqual:
  case OO_LessLessEqual: case OO_GreaterGreaterEqual: case OO_PlusPlus:
  case OO_MinusMinus:
    return 2;
  default:
    return 0;
  }
}
} // namespace

Lanes WarpInterpreter::Impl::opaqueCall(const FunctionDecl *FD, const CallExpr *CE,
                                        const std::optional<LValue> &Object,
                                        unsigned ArgOffset) {
  // A function whose body is not run (a library one, or one without a
  // body): what it does to memory is known only from its signature. An
  // operand in memory bound to a const reference (or a const method's
  // object) is read; the left operand of an assignment operator is written
  // (=) or read and written (+=, ++). Other effects are not guessed.
  auto Touch = [&](const Expr *Site, const LValue &LV, QualType T, bool Const,
                   bool IsFirstOperand) {
    if (LV.K != LValue::Mem || T.isNull() || T->isIncompleteType())
      return;
    int Effect = IsFirstOperand ? writeEffect(FD) : 0;
    if (Effect == 0 && Const)
      recordTypedAccess(Site, AccessOp::Load, LV.Addr, T);
    if (Effect == 2)
      recordTypedAccess(Site, AccessOp::Load, LV.Addr, T);
    if (Effect >= 1)
      recordTypedAccess(Site, AccessOp::Store, LV.Addr, T);
  };
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  // Operands are evaluated first, the object's access happens with the call.
  std::vector<std::pair<unsigned, LValue>> RefArgs;
  for (unsigned I = ArgOffset; I < CE->getNumArgs(); ++I) {
    unsigned P = I - ArgOffset;
    QualType PT = P < FD->getNumParams() ? FD->getParamDecl(P)->getType() : QualType();
    if (!PT.isNull() && PT->isReferenceType()) {
      RefArgs.push_back({I, evalLValue(CE->getArg(I))});
      continue;
    }
    eval(CE->getArg(I));
  }
  for (auto &[I, LV] : RefArgs) {
    QualType PT = FD->getParamDecl(I - ArgOffset)->getType();
    const Expr *Site = CE->getArg(I)->IgnoreParenImpCasts();
    Touch(Site, LV, PT.getNonReferenceType(), PT->getPointeeType().isConstQualified(),
          I == 0 && !MD);
  }
  if (Object && MD && !MD->isStatic()) {
    bool Arrow;
    unsigned Ignored;
    const Expr *Obj = implicitObject(FD, CE, Arrow, Ignored);
    QualType T = Arrow ? Obj->getType()->getPointeeType() : Obj->getType();
    Touch(Obj->IgnoreParenImpCasts(), *Object, T,
          MD->isConst() || isa<CXXConversionDecl>(MD), true);
  }
  return Lanes{};
}

Lanes WarpInterpreter::Impl::inlineCall(const FunctionDecl *FD, const CallExpr *CE) {
  // Where the struct this call returns is to be built, if the caller said.
  std::optional<Lanes> ReturnSlot;
  if (ReturnSlotCall == CE) {
    ReturnSlot = ReturnSlotAddr;
    ReturnSlotCall = nullptr;
  }
  const FunctionDecl *Def = nullptr;
  const Stmt *Body = FD->getBody(Def);
  bool Arrow = false;
  unsigned ArgOffset = 0;
  const Expr *Obj = Def ? implicitObject(Def, CE, Arrow, ArgOffset) : nullptr;
  std::optional<LValue> Object;
  if (Obj)
    Object = objectLValue(Obj, Arrow);
  // A method is run when its object is at a known address (in memory, or
  // a local object: a helper struct, a functor, a lambda); through a
  // pointer read from memory it is treated like a library call.
  bool ObjectKnown = false;
  if (Object && Object->K == LValue::Mem)
    for (unsigned L = 0; L < WarpSize; ++L)
      if (isBitSet(Active, L) && Object->Addr[L].K == LaneValue::Pointer)
        ObjectKnown = true;
  bool IsInstance = isa_and_nonnull<CXXMethodDecl>(Def) &&
                    cast<CXXMethodDecl>(Def)->isInstance();
  if (!Body || !Def || Frames.size() > Limits.MaxCallDepth ||
      (IsInstance && !ObjectKnown))
    return opaqueCall(Def ? Def : FD, CE, Object, ArgOffset);
  Frame Callee;
  if (IsInstance) {
    Callee.This = Object->Addr;
    const CXXRecordDecl *Class = cast<CXXMethodDecl>(Def)->getParent();
    if (Class->isLambda())
      Callee.Closure = Class;
  }
  Callee.ReturnsReference = Def->getReturnType()->isReferenceType();
  Callee.ReturnSlot = ReturnSlot;
  Callee.Call = {CE, ArgOffset};
  FloatContractions.analyse(Def);
  bindParameters(Def, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()), ArgOffset, Callee);
  Mask Saved = Active;
  Frames.push_back(std::move(Callee));
  exec(Body);
  Lanes Ret = frame().Returned;
  Frames.pop_back();
  Active = Saved;
  return Ret;
}

} // namespace warpcheck::analysis
