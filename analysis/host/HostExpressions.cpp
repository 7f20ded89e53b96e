//===- HostExpressions.cpp - host expressions over abstract values --------===//
//
// Literals, names, members, subscripts, operators, casts, constructions
// and initializer lists (the places assignments write are in
// HostPlaces.cpp). Integers compute through values/IntegerSemantics.h.
//
//===----------------------------------------------------------------------===//

#include "DeviceProperties.h"
#include "HostEvaluator.h"

#include "ExprWrappers.h"
#include "values/IntegerSemantics.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace warpcheck::analysis::host {

std::string shortLocation(const SourceManager &SM, SourceLocation Loc) {
  Loc = SM.getFileLoc(Loc);
  PresumedLoc P = SM.getPresumedLoc(Loc);
  if (P.isInvalid())
    return "";
  return llvm::sys::path::filename(P.getFilename()).str() + ":" + std::to_string(P.getLine());
}

std::string functionName(const SourceManager &SM, const FunctionDecl *FD) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->getParent()->isLambda())
    return "the lambda at " + shortLocation(SM, MD->getParent()->getLocation());
  return "'" + FD->getNameAsString() + "'";
}

HostEvaluator::HostEvaluator(ASTContext &Ctx, const model::ArchSpec &Arch,
                             const std::map<const Expr *, const LaunchSite *> &Sites,
                             HostLimits Limits)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), Arch(Arch), Sites(Sites), Limits(Limits) {}

bool HostEvaluator::step() {
  if (++Steps > Limits.MaxSteps) {
    Aborted = Exhausted = true;
  } else if (LocalStepLimit && Steps > LocalStepLimit) {
    Aborted = LocalAborted = true;
  }
  return !Aborted;
}

std::string HostEvaluator::where(const Stmt *S) const {
  return shortLocation(SM, S->getBeginLoc());
}
std::string HostEvaluator::where(const Decl *D) const {
  return shortLocation(SM, D->getLocation());
}


std::optional<std::uint64_t> HostEvaluator::constantInt(const Expr *E) {
  if (E->isValueDependent() || E->isTypeDependent() ||
      !E->getType()->isIntegralOrEnumerationType() || E->HasSideEffects(Ctx))
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || !R.Val.isInt())
    return std::nullopt;
  return values::integerTypeOf(E->getType(), Ctx).normalize(R.Val.getInt().getZExtValue());
}

std::optional<bool> HostEvaluator::truth(const HostValue &V) {
  if (V.isChoice()) {
    // Known when every way of the branch gives the same truth.
    std::optional<bool> First = truth(V.Arms[0]);
    for (const HostValue &A : V.Arms)
      if (!First || truth(A) != First)
        return std::nullopt;
    return First;
  }
  switch (V.K) {
  case HostValue::Int:
  case HostValue::Pointer:
    return V.K == HostValue::Pointer || V.Bits != 0;
  case HostValue::Functions:
  case HostValue::Address:
    return true;
  default:
    return std::nullopt;
  }
}

HostValue HostEvaluator::toType(const HostValue &V, QualType T) {
  if (V.isChoice())
    return liftChoice(V, [&](const HostValue &Way) { return toType(Way, T); });
  if (V.K != HostValue::Int)
    return V;
  values::IntegerType IT = values::integerTypeOf(T, Ctx);
  return IT.isInteger() ? HostValue::integer(values::convert(V.Bits, IT)) : V;
}

HostValue HostEvaluator::eval(const Expr *E) {
  if (!E || !step())
    return HostValue::unknown("host code past the evaluation's step budget");
  E = E->IgnoreParens();
  if (E->isValueDependent() || E->isTypeDependent())
    return HostValue::unknown("a value that depends on a template parameter");

  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return toType(HostValue::integer(IL->getValue().getZExtValue()), E->getType());
  if (const auto *CL = dyn_cast<CharacterLiteral>(E))
    return toType(HostValue::integer(CL->getValue()), E->getType());
  if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(E))
    return HostValue::integer(BL->getValue());
  if (const auto *CE = dyn_cast<ConstantExpr>(E)) {
    if (CE->hasAPValueResult() && CE->getAPValueResult().isInt())
      return toType(HostValue::integer(CE->getAPValueResult().getInt().getZExtValue()),
                    E->getType());
    return eval(CE->getSubExpr());
  }
  if (isWrapper(E)) {
    const Expr *Inner = wrappedExpression(E);
    return Inner ? toType(eval(Inner), E->getType()) : HostValue::unknown("");
  }
  if (const auto *SI = dyn_cast<CXXStdInitializerListExpr>(E))
    return eval(SI->getSubExpr());
  if (auto C = constantInt(E); C && !isa<DeclRefExpr>(E) && !isa<MemberExpr>(E))
    return HostValue::integer(*C); // sizeof, constexpr calls, enumerators
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return toType(HostValue::integer(EC->getInitVal().getZExtValue()), E->getType());
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      return HostValue::functions({FD});
  }
  if (isa<DeclRefExpr>(E) || isa<MemberExpr>(E) || isa<ArraySubscriptExpr>(E)) {
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (const auto *FD = dyn_cast<FunctionDecl>(ME->getMemberDecl())) {
        eval(ME->getBase());
        return HostValue::functions({FD});
      }
      // A member of a temporary (dim3(1, 2).x, f().x): no place to read.
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
          F && ME->getBase()->isPRValue() && !ME->isArrow())
        return toType(member(eval(ME->getBase()), F), E->getType());
    }
    Place P = place(E);
    if (!P.Valid) {
      if (auto C = constantInt(E))
        return HostValue::integer(*C);
      return HostValue::unknown(P.Why);
    }
    return read(P, E->getType());
  }
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return evalCast(CE);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return evalUnary(UO);
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(E))
    return evalCompoundAssign(CA);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return evalBinary(BO);
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return evalConditional(CO);
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return evalCall(CE);
  if (const auto *CC = dyn_cast<CXXConstructExpr>(E))
    return construct(CC);
  if (const auto *IL = dyn_cast<InitListExpr>(E))
    return initList(IL);
  if (const auto *NE = dyn_cast<CXXNewExpr>(E))
    return evalNew(NE);
  if (isa<ImplicitValueInitExpr>(E) || isa<CXXScalarValueInitExpr>(E))
    return zeroOf(E->getType());
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return HostValue::unknown("a null pointer");
  if (isa<CXXThisExpr>(E)) {
    if (!Frames.empty() && frame().This)
      return HostValue::address(*frame().This);
    return HostValue::unknown("'this'");
  }
  if (isa<LambdaExpr>(E) || isa<StringLiteral>(E) || isa<FloatingLiteral>(E))
    return HostValue::unknown(isa<FloatingLiteral>(E)
                                  ? "floating-point arithmetic, which the host evaluator "
                                    "does not follow"
                                  : "");
  // Anything else: what it may change is no longer known.
  forgetAssignedIn(E, "a value changed by code the host evaluator does not follow (" +
                          where(E) + ")");
  return HostValue::unknown("a value of code the host evaluator does not follow (" +
                            where(E) + ")");
}

HostValue HostEvaluator::evalCast(const CastExpr *CE) {
  const Expr *Sub = CE->getSubExpr();
  switch (CE->getCastKind()) {
  case CK_IntegralCast:
  case CK_IntegralToBoolean: {
    HostValue V = eval(Sub);
    return toType(V, CE->getType());
  }
  case CK_BooleanToSignedIntegral:
    return liftChoice(eval(Sub), [&](HostValue V) {
      if (V.K == HostValue::Int)
        V.Bits = values::convert(V.Bits, values::integerTypeOf(CE->getType(), Ctx), true);
      return V;
    });
  case CK_PointerToBoolean:
  case CK_MemberPointerToBoolean: {
    HostValue V = eval(Sub);
    if (auto T = truth(V))
      return HostValue::integer(*T);
    return V;
  }
  case CK_ArrayToPointerDecay:
    eval(Sub);
    return HostValue::pointer(0);
  case CK_NullToPointer:
  case CK_NullToMemberPointer:
    eval(Sub);
    return HostValue::unknown("a null pointer");
  case CK_LValueToRValue:
  case CK_NoOp:
  case CK_BitCast:
  case CK_AddressSpaceConversion:
  case CK_FunctionToPointerDecay:
  case CK_ConstructorConversion:
  case CK_UserDefinedConversion:
  case CK_UncheckedDerivedToBase:
  case CK_DerivedToBase:
  case CK_LValueBitCast:
  case CK_AtomicToNonAtomic:
  case CK_NonAtomicToAtomic:
  case CK_Dependent:
    return toType(eval(Sub), CE->getType());
  case CK_ToVoid:
    eval(Sub);
    return HostValue::unknown("");
  default: {
    HostValue V = eval(Sub);
    (void)V;
    return HostValue::unknown("floating-point arithmetic, which the host evaluator does "
                              "not follow (" + where(CE) + ")");
  }
  }
}

HostValue HostEvaluator::evalUnary(const UnaryOperator *UO) {
  const Expr *Sub = UO->getSubExpr();
  switch (UO->getOpcode()) {
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    Place P = place(Sub);
    HostValue Old = P.Valid ? read(P, Sub->getType()) : eval(Sub);
    bool Inc = UO->isIncrementOp();
    HostValue New = liftChoice(Old, [&](const HostValue &Way) {
      if (Way.K == HostValue::Int) {
        values::IntegerResult R =
            values::increment(Way.Bits, values::integerTypeOf(Sub->getType(), Ctx), Inc);
        return R.defined() ? HostValue::integer(*R.Bits)
                           : HostValue::unknown(std::string("a value whose computation has ") +
                                                values::describe(R.UB) + " (" + where(UO) + ")");
      }
      if (Way.K == HostValue::Pointer || Way.K == HostValue::Address)
        return pointerArithmetic(Way, HostValue::integer(1), Sub->getType(), !Inc);
      return Way;
    });
    store(P, New, UO);
    return UO->isPrefix() ? New : Old;
  }
  case UO_AddrOf: {
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub->IgnoreParens()))
      if (AS->getBase()->getType()->isPointerType())
        return pointerArithmetic(eval(AS->getBase()), eval(AS->getIdx()),
                                 AS->getBase()->getType(), false);
    Place P = place(Sub);
    if (P.Valid && P.Path.empty())
      return HostValue::address(P.Var);
    if (auto *DRE = dyn_cast<DeclRefExpr>(Sub->IgnoreParens()))
      if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
        return HostValue::functions({FD});
    return HostValue::unknown("an address");
  }
  case UO_Deref: {
    Place P = place(UO);
    if (P.Valid)
      return read(P, UO->getType());
    HostValue V = eval(Sub);
    if (V.K == HostValue::Functions)
      return V;
    return HostValue::unknown(P.Why);
  }
  case UO_Plus:
  case UO_Minus:
  case UO_Not:
  case UO_LNot:
    return liftChoice(eval(Sub), [&](const HostValue &V) { return unary(UO, V); });
  case UO_Extension:
    return eval(Sub);
  default:
    eval(Sub);
    return HostValue::unknown("");
  }
}

/// +, -, ~ or ! of one value (not a choice).
HostValue HostEvaluator::unary(const UnaryOperator *UO, const HostValue &V) {
  const Expr *Sub = UO->getSubExpr();
  if (V.K != HostValue::Int) {
    if (UO->getOpcode() == UO_LNot)
      if (auto T = truth(V))
        return HostValue::integer(!*T);
    return V;
  }
  values::IntegerResult R =
      values::unary(UO->getOpcode(), V.Bits, values::integerTypeOf(Sub->getType(), Ctx),
                    values::integerTypeOf(UO->getType(), Ctx));
  if (auto B = R.defined())
    return HostValue::integer(*B);
  return HostValue::unknown(std::string("a value whose computation has ") +
                            values::describe(R.UB) + " (" + where(UO) + ")");
}

HostValue HostEvaluator::arithmetic(BinaryOperatorKind Op, const HostValue &L,
                                    const HostValue &R, QualType Operand, QualType Result,
                                    const Expr *At) {
  if (L.isChoice() || R.isChoice())
    return liftChoice(L, R, [&](const HostValue &A, const HostValue &B) {
      return arithmetic(Op, A, B, Operand, Result, At);
    });
  // What stays known of an unknown operand (a multiple, the quantity it
  // is an offset or a remainder of: UnknownArithmetic.cpp).
  if (L.K != HostValue::Int || R.K != HostValue::Int) {
    if ((L.known() && L.K != HostValue::Int) || (R.known() && R.K != HostValue::Int))
      return HostValue::unknown("");
    return toType(unknownArithmetic(Op, L, R), Result);
  }
  values::IntegerResult V =
      values::binary(Op, L.Bits, R.Bits, values::integerTypeOf(Operand, Ctx),
                     values::integerTypeOf(Result, Ctx));
  if (auto B = V.defined())
    return HostValue::integer(*B);
  return HostValue::unknown(std::string("a value whose computation has ") +
                            values::describe(V.UB) + " (" + where(At) + ")");
}

HostValue HostEvaluator::pointerArithmetic(const HostValue &Ptr, const HostValue &N,
                                           QualType PtrType, bool Subtract) {
  // A pointer moved into an array `new` made: what is written through it is
  // not followed, so the array's elements are no longer known.
  if (Ptr.K == HostValue::Address) {
    if (auto It = HeapArrays.find(Ptr.Target); It != HeapArrays.end())
      Cur.Vars[Ptr.Target] = HostValue::unknown("an array written through a pointer into it (" +
                                                It->second.second + ")");
    return HostValue::unknown("a pointer");
  }
  QualType Pointee = PtrType->getPointeeType();
  if (Ptr.K != HostValue::Pointer || N.K != HostValue::Int || Pointee.isNull() ||
      Pointee->isIncompleteType() || Pointee->isVoidType())
    return HostValue::unknown("a pointer");
  std::int64_t Elem = Ctx.getTypeSizeInChars(Pointee).getQuantity();
  std::int64_t Delta = static_cast<std::int64_t>(N.Bits) * Elem;
  return HostValue::pointer(Ptr.Bits + static_cast<std::uint64_t>(Subtract ? -Delta : Delta));
}

HostValue HostEvaluator::evalBinary(const BinaryOperator *BO) {
  BinaryOperatorKind Op = BO->getOpcode();
  if (Op == BO_Assign) {
    HostValue V = eval(BO->getRHS());
    Place P = place(BO->getLHS());
    store(P, V, BO);
    return V;
  }
  if (Op == BO_Comma) {
    eval(BO->getLHS());
    return eval(BO->getRHS());
  }
  if (Op == BO_LAnd || Op == BO_LOr)
    return evalLogical(BO);
  HostValue L = eval(BO->getLHS());
  HostValue R = eval(BO->getRHS());
  QualType LT = BO->getLHS()->getType(), RT = BO->getRHS()->getType();
  if ((Op == BO_Add || Op == BO_Sub) && LT->isPointerType() && RT->isIntegerType())
    return pointerArithmetic(L, R, LT, Op == BO_Sub);
  if (Op == BO_Add && RT->isPointerType() && LT->isIntegerType())
    return pointerArithmetic(R, L, RT, false);
  if (LT->isPointerType() || RT->isPointerType())
    return HostValue::unknown("a pointer comparison");
  QualType Operand = BO->isComparisonOp() || BO->isShiftOp() ? LT : BO->getType();
  return arithmetic(Op, L, R, Operand, BO->getType(), BO);
}

HostValue HostEvaluator::evalLogical(const BinaryOperator *BO) {
  bool And = BO->getOpcode() == BO_LAnd;
  std::optional<bool> L = truth(eval(BO->getLHS()));
  if (L && *L != And)
    return HostValue::integer(!And); // short circuit
  if (L) {
    return liftChoice(eval(BO->getRHS()), [&](const HostValue &R) {
      if (auto T = truth(R))
        return HostValue::integer(*T);
      return R.known() ? HostValue::unknown("") : R;
    });
  }
  // The right side runs on one path only.
  HostState Before = Cur;
  std::optional<bool> R = truth(eval(BO->getRHS()));
  Cur = join(Before, Cur, "the condition at " + where(BO));
  if (R && *R != And)
    return HostValue::integer(!And);
  return HostValue::unknown("a condition known only at run time (" + where(BO) + ")");
}

HostValue HostEvaluator::evalConditional(const AbstractConditionalOperator *CO) {
  HostValue C = eval(CO->getCond());
  std::optional<bool> T = truth(C);
  const Expr *TrueExpr = isa<BinaryConditionalOperator>(CO) ? nullptr : CO->getTrueExpr();
  if (T) {
    if (RecordDecided)
      Decided["the condition at " + where(CO)] |= *T ? 1u : 2u;
    return *T ? (TrueExpr ? eval(TrueExpr) : C) : eval(CO->getFalseExpr());
  }
  // Each arm knows its way of the condition, as an `if`'s do (iAlignUp's
  // `(a % b != 0) ? (a - a % b + b) : a`: a is a multiple of b in the
  // second).
  HostState Before = Cur;
  if (TrueExpr)
    refine(CO->getCond(), true);
  HostValue A = TrueExpr ? eval(TrueExpr) : C;
  HostState AfterTrue = Cur;
  Cur = Before;
  refine(CO->getCond(), false);
  HostValue B = eval(CO->getFalseExpr());
  std::string Where = "the condition at " + where(CO);
  unsigned Decision = NextDecision++;
  Cur = join(AfterTrue, Cur, Where, Decision, &ConditionWays);
  return join(A, B, Where, Decision, &ConditionWays);
}

HostValue HostEvaluator::evalCompoundAssign(const CompoundAssignOperator *CA) {
  HostValue R = eval(CA->getRHS());
  Place P = place(CA->getLHS());
  QualType T = CA->getLHS()->getType();
  HostValue Old = P.Valid ? read(P, T) : eval(CA->getLHS());
  BinaryOperatorKind Op = BinaryOperator::getOpForCompoundAssignment(CA->getOpcode());
  HostValue New;
  if ((Op == BO_Add || Op == BO_Sub) && T->isPointerType()) {
    New = pointerArithmetic(Old, R, T, Op == BO_Sub);
  } else {
    QualType CT = CA->getComputationResultType();
    New = toType(arithmetic(Op, toType(Old, CA->getComputationLHSType()), R,
                            CA->getComputationLHSType(), CT, CA),
                 T);
  }
  store(P, New, CA);
  return New;
}

HostValue HostEvaluator::zeroOf(QualType T) {
  T = T.getCanonicalType();
  if (T->isIntegralOrEnumerationType())
    return HostValue::integer(0);
  if (const auto *CA = dyn_cast<ConstantArrayType>(T.getTypePtr())) {
    HostValue A;
    A.K = HostValue::Array;
    std::uint64_t N = CA->getSize().getZExtValue();
    if (N <= 4096)
      A.Elements.assign(N, zeroOf(CA->getElementType()));
    return A;
  }
  if (const auto *RD = T->getAsRecordDecl()) {
    HostValue R;
    R.K = HostValue::Record;
    for (const FieldDecl *F : RD->fields())
      R.setField(F, zeroOf(F->getType()));
    return R;
  }
  if (T->isPointerType())
    return HostValue::unknown("a null pointer");
  return HostValue::unknown("");
}

HostValue HostEvaluator::initList(const InitListExpr *IL) {
  if (IL->isSyntacticForm() && IL->getSemanticForm())
    IL = IL->getSemanticForm();
  QualType T = IL->getType().getCanonicalType();
  if (T->isArrayType()) {
    HostValue A = zeroOf(T);
    if (A.K != HostValue::Array)
      A.K = HostValue::Array;
    for (unsigned I = 0; I < IL->getNumInits(); ++I) {
      HostValue V = eval(IL->getInit(I));
      if (I < A.Elements.size())
        A.Elements[I] = V;
      else
        A.Elements.push_back(V);
    }
    return A;
  }
  if (const RecordDecl *RD = T->getAsRecordDecl(); RD && !IL->isTransparent()) {
    HostValue R;
    R.K = HostValue::Record;
    unsigned I = 0;
    for (const FieldDecl *F : RD->fields()) {
      R.setField(F, I < IL->getNumInits() ? eval(IL->getInit(I)) : zeroOf(F->getType()));
      ++I;
    }
    return R;
  }
  HostValue V = IL->getNumInits() ? eval(IL->getInit(0)) : zeroOf(T);
  for (unsigned I = 1; I < IL->getNumInits(); ++I)
    eval(IL->getInit(I));
  return toType(V, T);
}

/// dim3, uint3 and CUDA's other vector types: records of x, y, z.
static bool isCudaVector(const CXXRecordDecl *RD) {
  return RD && RD->getIdentifier() && (RD->getName() == "dim3" || RD->getName() == "uint3");
}

HostValue HostEvaluator::construct(const CXXConstructExpr *CE) {
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  const CXXRecordDecl *RD = Ctor->getParent();
  if (CE->getNumArgs() == 1 && Ctor->isCopyOrMoveConstructor())
    return eval(CE->getArg(0));
  // A constructor of the program's own code runs, as a call does: its
  // object's fields are what its initializers and body leave. One that
  // cannot reach a launch runs on the launch-free budget; abandoned, it is
  // taken as one not followed (below).
  if (runnable(Ctor) && !isCudaVector(RD) && RD->getName() != "dim3" && !onStack(Ctor) &&
      Frames.size() < Limits.MaxCallDepth)
    if (std::optional<HostValue> Object =
            withinLaunchFreeBudget(Ctor, [&] { return runConstructor(Ctor, CE); }))
      return *Object;
  std::vector<HostValue> Args;
  for (const Expr *A : CE->arguments())
    Args.push_back(eval(A));
  if (std::optional<HostValue> V = vectorFromList(CE, Args))
    return *V;
  if (RD->getName() == "dim3") {
    // dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1), or dim3(uint3).
    HostValue R;
    R.K = HostValue::Record;
    if (Args.size() == 1 && Args[0].K == HostValue::Record)
      return Args[0];
    unsigned I = 0;
    for (const FieldDecl *F : RD->fields()) {
      if (I >= 3)
        break;
      R.setField(F, I < Args.size() ? toType(Args[I], F->getType()) : HostValue::integer(1));
      ++I;
    }
    return R;
  }
  if (CE->getNumArgs() == 0 && (Ctor->isTrivial() || Ctor->isDefaulted()) &&
      !isCudaVector(RD)) {
    HostValue R;
    R.K = HostValue::Record;
    if (CE->requiresZeroInitialization())
      R = zeroOf(CE->getType());
    return R; // fields not set read as unknown
  }
  // A constructor another unit defines: the object is what it builds
  // there from these arguments (a method of that unit called on it runs
  // on it: ExternalCall::ObjectBuiltBy).
  HostValue Built = HostValue::unknown("an object of '" + RD->getNameAsString() + "' (" +
                                       where(CE) + ")");
  if (!Ctor->hasBody() && !Ctor->isImplicit() &&
      !SM.isInSystemHeader(SM.getFileLoc(Ctor->getLocation()))) {
    auto By = std::make_shared<ObjectConstruction>();
    By->Constructor = Ctor->getCanonicalDecl();
    passedIntegers(Ctor, Args, By->Integers, By->Multiples);
    Built = HostValue();
    Built.K = HostValue::Record;
    Built.BuiltBy = std::move(By);
  }
  // A constructor that runs code: its object is not followed; what it may
  // change through references is no longer known.
  for (unsigned I = 0; I < CE->getNumArgs() && I < Ctor->getNumParams(); ++I) {
    QualType PT = Ctor->getParamDecl(I)->getType();
    if (PT->isReferenceType() && !PT->getPointeeType().isConstQualified()) {
      Place P = place(CE->getArg(I));
      if (P.Valid)
        write(P, HostValue::unknown("a value '" + RD->getNameAsString() +
                                    "' constructs at run time (" + where(CE) + ")"));
    }
  }
  return Built;
}

HostValue HostEvaluator::member(const HostValue &Base, const FieldDecl *F) {
  if (Base.K != HostValue::Record)
    return Base.known() ? HostValue::unknown("") : Base;
  if (const HostValue *V = Base.field(F))
    return *V;
  if (Base.DeviceProperties) {
    std::string Why;
    std::vector<std::int64_t> P = deviceProperty(F->getName(), Arch, Why);
    if (P.size() == 1)
      return toType(HostValue::integer(static_cast<std::uint64_t>(P[0])), F->getType());
    if (P.size() == 3) {
      HostValue A;
      A.K = HostValue::Array;
      for (std::int64_t X : P)
        A.Elements.push_back(HostValue::integer(static_cast<std::uint64_t>(X)));
      return A;
    }
    return HostValue::unknown(Why);
  }
  if (Base.BuiltBy)
    return HostValue::unknown("a field of an object built by " +
                              functionName(Base.BuiltBy->Constructor) +
                              ", which another file defines (" + F->getNameAsString() + ")");
  return HostValue::unknown("a field that is not set (" + F->getNameAsString() + ")");
}

} // namespace warpcheck::analysis::host
