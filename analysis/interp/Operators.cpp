//===- Operators.cpp - operators, casts and integer arithmetic per lane ---===//
//
// Binary, compound-assignment, unary and conditional operators, casts, and
// the arithmetic under them: integers follow the analysis's one integer
// semantics (values/IntegerSemantics.h), pointers move within their region.
// Signed overflow and over-wide shifts are noted as undefined behaviour.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "warpcheck/analysis/KernelAnalysis.h"

using namespace clang;

namespace warpcheck::analysis {

Lanes WarpInterpreter::Impl::pointerOffset(const Lanes &Ptr, const Lanes &Index,
                                           std::uint64_t Scale, bool Subtract,
                                           QualType IndexType) {
  Lanes R;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!Ptr[L].hasRegion())
      continue;
    // An index not known keeps the region: the access's memory (and its
    // address space) is still that of the pointer.
    if (Ptr[L].K == LaneValue::RegionOnly || Index[L].K != LaneValue::Int) {
      R[L] = LaneValue::inRegion(Ptr[L].Region);
      continue;
    }
    // The index is already normalised to its type: signed values are
    // sign-extended, unsigned ones zero-extended, as the compiler does when
    // it widens an index to 64 bits.
    (void)IndexType;
    std::int64_t I = static_cast<std::int64_t>(Index[L].Bits);
    std::int64_t Delta = I * static_cast<std::int64_t>(Scale);
    R[L] = LaneValue::pointer(Ptr[L].Region,
                              Ptr[L].Bits + (Subtract ? -Delta : Delta));
  }
  return R;
}

Lanes WarpInterpreter::Impl::arith(BinaryOperatorKind Op, const Lanes &A,
                                   const Lanes &B, QualType OperandType,
                                   QualType ResultType) {
  Lanes R;
  IntFormat Operand = formatOf(OperandType), Result = formatOf(ResultType);
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (A[L].K != LaneValue::Int || B[L].K != LaneValue::Int) {
      // Pointer comparisons within one region compare offsets.
      if (A[L].K == LaneValue::Pointer && B[L].K == LaneValue::Pointer &&
          A[L].Region == B[L].Region && BinaryOperator::isComparisonOp(Op)) {
        std::int64_t X = A[L].Bits, Y = B[L].Bits;
        bool V = Op == BO_LT ? X < Y : Op == BO_GT ? X > Y : Op == BO_LE ? X <= Y
               : Op == BO_GE ? X >= Y : Op == BO_EQ ? X == Y : X != Y;
        R[L] = LaneValue::integer(V);
      }
      continue;
    }
    values::IntegerResult V = values::binary(Op, A[L].Bits, B[L].Bits, Operand, Result);
    noteUndefined(V.UB);
    if (V.Bits)
      R[L] = LaneValue::integer(*V.Bits);
  }
  return R;
}

void WarpInterpreter::Impl::countFloatOperation(const Expr *E) {
  if (!Active || Aborted)
    return;
  std::optional<FloatOp> Op = floatOperationOf(E);
  if (!Op)
    return;
  const Expr *Node = E->IgnoreParens();
  FloatOpKind Kind = Op->Kind;
  if (Kind == FloatOpKind::Mul && FloatContractions.isFusedMultiply(Node))
    return; // counted as the FMA of the add it feeds
  if (Kind == FloatOpKind::Add && FloatContractions.isFusedAdd(Node))
    Kind = FloatOpKind::Fma;
  if (Kind == FloatOpKind::Uncounted) {
    if (UncountedFloatOps.size() < 8)
      UncountedFloatOps.insert(sourceText(E, Ctx));
    return;
  }
  std::uint64_t Lanes = std::bitset<32>(Active).count();
  model::PrecisionOps &P = WarpFlops[Op->Precision];
  (Kind == FloatOpKind::Add ? P.Add : Kind == FloatOpKind::Mul ? P.Mul : P.Fma) += Lanes;
  std::uint64_t Flops = Lanes * Op->Elements * (Kind == FloatOpKind::Fma ? 2 : 1);
  P.Flops += Flops;
  if (Uncertain > 0 || (Active & uncertainLiveLanes()) != 0)
    FlopsUnderUncertainMask = true;
  for (const Frame &F : Frames)
    for (const LoopState &L : F.Loops)
      if (L.Loop)
        LoopFlops[L.Loop] += static_cast<double>(Flops);
}

void WarpInterpreter::Impl::noteUndefined(values::Undefined UB) {
  // Signed overflow and shifts by the width or more are undefined: a valid
  // program never executes them, so values that produce them (a sampled
  // 4096 multiplied four times into an int) are implausible. A division by
  // zero is not taken as such a sign: its divisor comes from the lanes'
  // own positions as often as from a sample, and the lane's value is
  // simply unknown.
  if (UB == values::Undefined::SignedOverflow || UB == values::Undefined::ShiftCount)
    UndefinedArithmetic = true;
}

Lanes WarpInterpreter::Impl::evalForLanes(const Expr *E, Mask Within,
                                          bool UnderUncertainMask) {
  return forLanes(Within, UnderUncertainMask, [&] { return eval(E); });
}

LValue WarpInterpreter::Impl::evalLValueForLanes(const Expr *E, Mask Within,
                                                bool UnderUncertainMask) {
  return forLanes(Within, UnderUncertainMask, [&] { return evalLValue(E); });
}

Lanes WarpInterpreter::Impl::evalBinary(const BinaryOperator *BO) {
  BinaryOperatorKind Op = BO->getOpcode();
  if (Op == BO_Assign) {
    Lanes V = eval(BO->getRHS());
    LValue LV = evalLValue(BO->getLHS());
    writeLValue(LV, V, BO->getLHS()->IgnoreParenImpCasts(), BO->getLHS()->getType());
    return V;
  }
  if (Op == BO_Comma) {
    eval(BO->getLHS());
    return eval(BO->getRHS());
  }
  if (Op == BO_LAnd || Op == BO_LOr) {
    // Short circuit per lane: the right side runs only for lanes that need it.
    Lanes L = eval(BO->getLHS());
    Mask T, F, U;
    splitByCondition(L, Active, T, F, U);
    Mask Continue = Op == BO_LAnd ? (T | U) : (F | U);
    Lanes R;
    if (Continue)
      R = evalForLanes(BO->getRHS(), Continue, U != 0);
    Lanes Out;
    for (unsigned I = 0; I < WarpSize; ++I) {
      if (isBitSet(T, I) && Op == BO_LOr)
        Out[I] = LaneValue::integer(1);
      else if (isBitSet(F, I) && Op == BO_LAnd)
        Out[I] = LaneValue::integer(0);
      else if (isBitSet(Continue, I) && !isBitSet(U, I) && R[I].K == LaneValue::Int)
        Out[I] = LaneValue::integer(R[I].Bits != 0);
    }
    return Out;
  }
  Lanes L = eval(BO->getLHS());
  Lanes R = eval(BO->getRHS());
  countFloatOperation(BO);
  QualType LT = BO->getLHS()->getType(), RT = BO->getRHS()->getType();
  if ((Op == BO_Add || Op == BO_Sub) && LT->isPointerType() && RT->isIntegerType())
    return pointerOffset(L, R, sizeOf(LT->getPointeeType()), Op == BO_Sub, RT);
  if (Op == BO_Add && RT->isPointerType() && LT->isIntegerType())
    return pointerOffset(R, L, sizeOf(RT->getPointeeType()), false, LT);
  if (Op == BO_Sub && LT->isPointerType() && RT->isPointerType()) {
    Lanes Out;
    std::int64_t Elem = static_cast<std::int64_t>(sizeOf(LT->getPointeeType()));
    for (unsigned I = 0; I < WarpSize; ++I)
      if (L[I].K == LaneValue::Pointer && R[I].K == LaneValue::Pointer &&
          L[I].Region == R[I].Region && Elem > 0)
        Out[I] = LaneValue::integer(normalize(
            static_cast<std::uint64_t>(
                (static_cast<std::int64_t>(L[I].Bits) -
                 static_cast<std::int64_t>(R[I].Bits)) / Elem),
            BO->getType()));
    return Out;
  }
  QualType OperandType = BO->isComparisonOp() ? LT : BO->getType();
  if (BO->isShiftOp())
    OperandType = LT;
  return arith(Op, L, R, OperandType, BO->getType());
}

Lanes WarpInterpreter::Impl::evalCompoundAssign(const CompoundAssignOperator *CA) {
  Lanes R = eval(CA->getRHS());
  LValue LV = evalLValue(CA->getLHS());
  const Expr *Site = CA->getLHS()->IgnoreParenImpCasts();
  QualType T = CA->getLHS()->getType();
  Lanes Old = readLValue(LV, Site, T);
  countFloatOperation(CA);
  BinaryOperatorKind Op = BinaryOperator::getOpForCompoundAssignment(CA->getOpcode());
  Lanes New;
  if ((Op == BO_Add || Op == BO_Sub) && T->isPointerType())
    New = pointerOffset(Old, R, sizeOf(T->getPointeeType()), Op == BO_Sub,
                        CA->getRHS()->getType());
  else {
    // The computation is done in the computation type, then converted back.
    QualType CT = CA->getComputationResultType();
    New = arith(Op, Old, R, CT, CT);
    IntFormat F = formatOf(T);
    for (auto &V : New)
      if (V.K == LaneValue::Int)
        V.Bits = values::convert(V.Bits, F);
  }
  writeLValue(LV, New, Site, T);
  return New;
}

Lanes WarpInterpreter::Impl::evalUnary(const UnaryOperator *UO) {
  switch (UO->getOpcode()) {
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    LValue LV = evalLValue(UO->getSubExpr());
    const Expr *Site = UO->getSubExpr()->IgnoreParenImpCasts();
    QualType T = UO->getSubExpr()->getType();
    Lanes Old = readLValue(LV, Site, T);
    countFloatOperation(UO);
    Lanes New;
    bool Inc = UO->isIncrementOp();
    if (T->isPointerType()) {
      New = pointerOffset(Old, splat(LaneValue::integer(1)),
                          sizeOf(T->getPointeeType()), !Inc, Ctx.IntTy);
    } else {
      IntFormat F = formatOf(T);
      for (unsigned L = 0; L < WarpSize; ++L) {
        if (Old[L].K != LaneValue::Int)
          continue;
        values::IntegerResult V = values::increment(Old[L].Bits, F, Inc);
        noteUndefined(V.UB);
        New[L] = LaneValue::integer(*V.Bits);
      }
    }
    writeLValue(LV, New, Site, T);
    return UO->isPrefix() ? New : Old;
  }
  case UO_AddrOf: {
    if (UO->getType()->isMemberDataPointerType())
      return memberPointerValue(UO);
    LValue LV = evalLValue(UO->getSubExpr());
    if (LV.K == LValue::Mem)
      return LV.Addr;
    return Lanes{}; // address of a register variable: not tracked
  }
  case UO_Deref: {
    LValue LV = evalLValue(UO);
    return readLValue(LV, UO, UO->getType());
  }
  case UO_Plus:
    return eval(UO->getSubExpr());
  case UO_Minus:
  case UO_Not:
  case UO_LNot: {
    Lanes V = eval(UO->getSubExpr());
    Lanes R;
    IntFormat Operand = formatOf(UO->getSubExpr()->getType());
    IntFormat Result = formatOf(UO->getType());
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (V[L].K != LaneValue::Int)
        continue;
      values::IntegerResult Out = values::unary(UO->getOpcode(), V[L].Bits, Operand, Result);
      noteUndefined(Out.UB);
      if (Out.Bits)
        R[L] = LaneValue::integer(*Out.Bits);
    }
    return R;
  }
  default:
    eval(UO->getSubExpr());
    return Lanes{};
  }
}

Lanes WarpInterpreter::Impl::evalCast(const CastExpr *CE) {
  switch (CE->getCastKind()) {
  case CK_LValueToRValue: {
    const Expr *Sub = CE->getSubExpr();
    if (const auto *Call = dyn_cast<CallExpr>(Sub->IgnoreParens())) {
      // A call returning a reference: an address when the function was
      // run, or the value itself (min, max of the library).
      Lanes R = eval(Call);
      if (hasPointerLane(R)) {
        LValue LV;
        LV.K = LValue::Mem;
        LV.Addr = R;
        return readLValue(LV, Sub->IgnoreParenImpCasts(), CE->getType());
      }
      bool AnyKnown = false;
      for (auto &L : R) {
        if (L.hasRegion())
          L = LaneValue{};
        AnyKnown |= L.K == LaneValue::Int;
      }
      Expr::EvalResult ER;
      if (!AnyKnown && !CE->isValueDependent() &&
          CE->getType()->isIntegralOrEnumerationType() && CE->EvaluateAsInt(ER, Ctx))
        return splat(LaneValue::integer(
            normalize(ER.Val.getInt().getZExtValue(), CE->getType())));
      return R;
    }
    LValue LV = evalLValue(Sub);
    if (LV.K == LValue::None) {
      // A constant the compiler can fold (constexpr members, enum casts).
      Expr::EvalResult R;
      if (!CE->isValueDependent() && CE->getType()->isIntegralOrEnumerationType() &&
          CE->EvaluateAsInt(R, Ctx))
        return splat(LaneValue::integer(normalize(R.Val.getInt().getZExtValue(), CE->getType())));
      return Lanes{};
    }
    return readLValue(LV, Sub->IgnoreParenImpCasts(), CE->getType());
  }
  case CK_ArrayToPointerDecay: {
    LValue LV = evalLValue(CE->getSubExpr());
    if (LV.K == LValue::Mem)
      return LV.Addr;
    return Lanes{};
  }
  case CK_IntegralCast:
  case CK_IntegralToBoolean:
  case CK_BooleanToSignedIntegral: {
    Lanes V = eval(CE->getSubExpr());
    IntFormat F = formatOf(CE->getType());
    for (auto &L : V)
      if (L.K == LaneValue::Int)
        L.Bits = values::convert(L.Bits, F,
                                 CE->getCastKind() == CK_BooleanToSignedIntegral);
    return V;
  }
  case CK_PointerToBoolean: {
    Lanes V = eval(CE->getSubExpr());
    for (auto &L : V)
      if (L.hasRegion()) // a pointer into a region is never null
        L = LaneValue::integer(1);
    return V;
  }
  case CK_PointerToIntegral: {
    Lanes V = eval(CE->getSubExpr());
    for (auto &L : V) {
      if (L.K == LaneValue::Pointer)
        L = LaneValue::integer(normalize(Regions[L.Region].Base + L.Bits, CE->getType()));
      else if (L.K == LaneValue::RegionOnly)
        L = LaneValue{};
    }
    return V;
  }
  case CK_IntegralToPointer: {
    Lanes V = eval(CE->getSubExpr());
    for (auto &L : V) {
      if (L.K != LaneValue::Int)
        continue;
      // Back into the region whose address range holds it.
      std::uint64_t Index = L.Bits >> 36;
      if (Index >= 1 && Index <= Regions.size())
        L = LaneValue::pointer(static_cast<int>(Index - 1),
                               L.Bits - Regions[Index - 1].Base);
      else
        L = LaneValue{};
    }
    return V;
  }
  case CK_NoOp:
  case CK_BitCast:
  case CK_AddressSpaceConversion:
  case CK_UncheckedDerivedToBase:
  case CK_DerivedToBase:
  case CK_NullToPointer:
  case CK_ToVoid:
  case CK_ConstructorConversion:
  case CK_UserDefinedConversion:
  case CK_FunctionToPointerDecay:
  case CK_LValueBitCast:
  case CK_Dependent:
  case CK_AtomicToNonAtomic:
  case CK_NonAtomicToAtomic: {
    Lanes V = eval(CE->getSubExpr());
    if (CE->getCastKind() == CK_ToVoid || CE->getCastKind() == CK_FunctionToPointerDecay)
      return Lanes{};
    // A user-defined conversion's operand is the call of the conversion
    // function (`operator T *()`): its result is the converted value. A
    // constructor conversion builds an object, which has no value here.
    if (CE->getCastKind() == CK_ConstructorConversion)
      return Lanes{};
    return V;
  }
  default:
    eval(CE->getSubExpr());
    return Lanes{}; // floating point and the rest: values unknown
  }
}

Lanes WarpInterpreter::Impl::evalConditional(const AbstractConditionalOperator *CO) {
  Lanes C = eval(CO->getCond());
  Mask T, F, U;
  splitByCondition(C, Active, T, F, U);
  Lanes A, B;
  if (T | U)
    A = isa<BinaryConditionalOperator>(CO)
            ? C
            : evalForLanes(CO->getTrueExpr(), T | U, U != 0);
  if (F | U)
    B = evalForLanes(CO->getFalseExpr(), F | U, U != 0);
  Lanes Out;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (isBitSet(T, L))
      Out[L] = A[L];
    else if (isBitSet(F, L))
      Out[L] = B[L];
    else if (isBitSet(U, L))
      Out[L] = join(A[L], B[L]);
  }
  return Out;
}

} // namespace warpcheck::analysis
