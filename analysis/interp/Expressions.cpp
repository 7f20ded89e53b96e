//===- Expressions.cpp - values and lvalues of expressions, for 32 lanes --===//
//
// The expression dispatcher (literals, names, temporaries, member and
// subscript accesses, struct copies), lvalues, and the loads and stores
// through them. Operators and casts are in Operators.cpp, calls in
// Calls.cpp.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/analysis/SourceErrors.h"

#include "ExprWrappers.h"
#include "ReadValueUses.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <algorithm>

using namespace clang;

namespace warpcheck::analysis {

Lanes WarpInterpreter::Impl::eval(const Expr *E) {
  NestingGuard Guard(*this);
  if (!Guard.Ok)
    return Lanes{};
  Lanes V = evalUncaptured(E);
  if (CaptureInto) {
    std::vector<std::int64_t> Values;
    bool AllKnown = true;
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (!isBitSet(Active, L))
        continue;
      if (V[L].K != LaneValue::Int) {
        AllKnown = false;
        break;
      }
      Values.push_back(static_cast<std::int64_t>(V[L].Bits));
    }
    if (AllKnown && !Values.empty())
      (*CaptureInto)[E] = std::move(Values);
  }
  return V;
}

Lanes WarpInterpreter::Impl::evalUncaptured(const Expr *E) {
  if (!E || !step())
    return Lanes{};
  E = E->IgnoreParens();

  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return splat(LaneValue::integer(normalize(IL->getValue().getZExtValue(), E->getType())));
  if (const auto *CL = dyn_cast<CharacterLiteral>(E))
    return splat(LaneValue::integer(normalize(CL->getValue(), E->getType())));
  if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(E))
    return splat(LaneValue::integer(BL->getValue()));
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return splat(LaneValue::integer(0));
  if (const auto *CE = dyn_cast<ConstantExpr>(E)) {
    if (CE->hasAPValueResult() && CE->getAPValueResult().isInt())
      return splat(LaneValue::integer(normalize(
          CE->getAPValueResult().getInt().getZExtValue(), E->getType())));
    return eval(CE->getSubExpr());
  }
  if (isWrapper(E)) {
    const Expr *Inner = wrappedExpression(E);
    return Inner ? eval(Inner) : Lanes{};
  }
  if (const auto *UE = dyn_cast<UnaryExprOrTypeTraitExpr>(E)) {
    Expr::EvalResult R;
    if (!UE->isValueDependent() && UE->EvaluateAsInt(R, Ctx))
      return splat(LaneValue::integer(normalize(R.Val.getInt().getZExtValue(), E->getType())));
    return Lanes{};
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return splat(LaneValue::integer(normalize(EC->getInitVal().getZExtValue(), E->getType())));
    // An array or function name used as a value decays through a cast; a
    // bare DeclRefExpr rvalue is rare (non-type template parameters).
    LValue LV = evalLValue(E);
    return readLValue(LV, E, E->getType());
  }
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E)) {
    // threadIdx.x and friends are MS properties of clang's builtin structs
    // (__clang_cuda_builtin_vars.h).
    if (const auto *MP = dyn_cast<MSPropertyRefExpr>(PO->getSyntacticForm()->IgnoreParens()))
      if (const auto *Base = dyn_cast<DeclRefExpr>(MP->getBaseExpr()->IgnoreParenImpCasts()))
        return evalBuiltinVariable(Base->getDecl()->getName(),
                                   MP->getPropertyDecl()->getName());
    return PO->getResultExpr() ? eval(PO->getResultExpr()) : Lanes{};
  }
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return evalCast(CE);
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(E))
    return evalCompoundAssign(CA);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return evalBinary(BO);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return evalUnary(UO);
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return evalConditional(CO);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
    // Trivial struct assignment: `out4[i] = in4[i]` for float4.
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
      if (MD && MD->isTrivial()) {
        // Memory to memory, every field is copied: nothing for the
        // compiler to drop.
        LValue Src = evalLValue(OC->getArg(1));
        LValue Dst = evalLValue(OC->getArg(0));
        bool Both = Src.K == LValue::Mem && Dst.K == LValue::Mem;
        if (Src.K == LValue::Mem)
          recordTypedAccess(OC->getArg(1)->IgnoreParenImpCasts(), AccessOp::Load,
                            Src.Addr, OC->getArg(1)->getType(), Both);
        if (Dst.K == LValue::Mem) {
          recordTypedAccess(OC->getArg(0)->IgnoreParenImpCasts(), AccessOp::Store,
                            Dst.Addr, OC->getArg(0)->getType(), Both);
          // A local object takes the values of a local source.
          copyLocal(Dst.Addr, Src.K == LValue::Mem ? Src.Addr : Lanes{},
                    sizeOf(OC->getArg(0)->getType()));
        }
        return Lanes{};
      }
    }
    return evalCall(OC);
  }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return evalCall(CE);
  if (const auto *RE = dyn_cast<RecoveryExpr>(E)) {
    // A kernel launched from device code: the parent evaluates the
    // arguments (their loads are its own; nvcc stores them to the launch's
    // parameter buffer), the child runs as a grid of its own, which this
    // warp does not follow.
    if (isDeviceSideLaunch(RE)) {
      for (const Expr *Arg : llvm::drop_begin(const_cast<RecoveryExpr *>(RE)->subExpressions())) {
        // Unresolved, the call converts nothing: a scalar named by an
        // lvalue (`counts[i]`) is still read to be passed.
        QualType T = Arg->getType();
        if (Arg->isGLValue() && (T->isScalarType() || T->isVectorType()))
          readLValue(evalLValue(Arg), Arg->IgnoreParenImpCasts(), T);
        else
          eval(Arg);
      }
      Limitations.insert("a kernel launched from device code (dynamic parallelism) is not "
                         "followed: clang 19 keeps no launch configuration of it");
    }
    return Lanes{};
  }
  if (const auto *CC = dyn_cast<CXXConstructExpr>(E)) {
    // A trivially copied struct read from memory: `float4 v = in4[i];`.
    // A library type's copy (the __half2 a by-value parameter of __hfma2
    // takes) copies its bytes as well: its constructor is not trivial only
    // because the header spells the copy out.
    const CXXConstructorDecl *Ctor = CC->getConstructor();
    if (Ctor && Ctor->isCopyOrMoveConstructor() &&
        (Ctor->isTrivial() || SM.isInSystemHeader(Ctor->getLocation())) &&
        CC->getNumArgs() == 1) {
      LValue Src = evalLValue(CC->getArg(0));
      if (Src.K == LValue::Mem)
        recordTypedAccess(CC->getArg(0)->IgnoreParenImpCasts(), AccessOp::Load,
                          Src.Addr, CC->getArg(0)->getType());
      return Lanes{};
    }
    for (const Expr *A : CC->arguments())
      eval(A);
    return Lanes{};
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    for (const Expr *I : IL->inits())
      eval(I);
    return Lanes{};
  }
  if (isa<ArraySubscriptExpr>(E) || isa<MemberExpr>(E)) {
    // An lvalue used where a value is needed without a cast: evaluate it
    // for its side effects on the indices only.
    evalLValue(E);
    return Lanes{};
  }
  if (isa<CXXThisExpr>(E))
    return thisValue();
  return Lanes{};
}

std::optional<Lanes>
WarpInterpreter::Impl::overriddenSubscript(const ArraySubscriptExpr *AS) {
  if (Layouts.empty())
    return std::nullopt;
  // Collect the subscript chain down to the array variable.
  std::vector<const Expr *> Indices;
  const Expr *Cur = AS;
  while (true) {
    Cur = Cur->IgnoreParenImpCasts();
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Cur)) {
      Indices.push_back(Sub->getIdx());
      Cur = Sub->getBase();
      continue;
    }
    break;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(Cur);
  if (!DRE)
    return std::nullopt;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  auto It = VD ? Layouts.find(VD) : Layouts.end();
  if (It == Layouts.end())
    return std::nullopt;
  const ArrayLayout &Layout = It->second;
  std::reverse(Indices.begin(), Indices.end()); // outermost first
  if (Indices.size() > Layout.Dims.size())
    return std::nullopt;
  // Stride of dimension k = element bytes * product of the inner dims.
  std::vector<std::uint64_t> Strides(Layout.Dims.size());
  std::uint64_t S = Layout.ElementBytes;
  for (size_t K = Layout.Dims.size(); K-- > 0;) {
    Strides[K] = S;
    S *= Layout.Dims[K];
  }
  LValue Base = evalLValue(DRE);
  if (Base.K != LValue::Mem)
    return std::nullopt;
  Lanes Addr = Base.Addr;
  for (size_t K = 0; K < Indices.size(); ++K)
    Addr = pointerOffset(Addr, eval(Indices[K]), Strides[K], false,
                         Indices[K]->getType());
  return Addr;
}

LValue WarpInterpreter::Impl::evalLValue(const Expr *E) {
  LValue Result;
  NestingGuard Guard(*this);
  if (!E || !Guard.Ok || !step())
    return Result;
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return Result;
    if (std::optional<LValue> Captured = capturedVariable(DRE))
      return *Captured;
    for (auto F = Frames.rbegin(); F != Frames.rend(); ++F) {
      auto It = F->Vars.find(VD);
      if (It != F->Vars.end()) {
        if (It->second.IsReference)
          return It->second.Ref;
        Result.K = LValue::Var;
        Result.Variable = VD;
        return Result;
      }
      break; // only the current frame's variables are visible
    }
    // Integral constants (constexpr, const with a constant initializer,
    // warpSize) are values, even when CUDA gives them __constant__ storage.
    if (VD->getType()->isIntegralOrEnumerationType() &&
        (VD->getType().isConstQualified() || VD->isConstexpr()) &&
        VD->getAnyInitializer()) {
      Result.K = LValue::Var;
      Result.Variable = VD;
      return Result;
    }
    RegionKind Kind;
    if (VD->hasAttr<CUDASharedAttr>())
      Kind = RegionKind::Shared;
    else if (VD->hasAttr<CUDAConstantAttr>())
      Kind = RegionKind::Constant;
    else if (VD->hasGlobalStorage() && VD->hasAttr<CUDADeviceAttr>())
      Kind = RegionKind::Global;
    else if (VD->getType()->isArrayType())
      Kind = RegionKind::Local;
    else {
      // A constant from outside the function (constexpr, const with a
      // constant initializer, warpSize).
      Result.K = LValue::Var;
      Result.Variable = VD;
      return Result;
    }
    Result.K = LValue::Mem;
    Result.Addr = splat(LaneValue::pointer(regionFor(VD, Kind, VD), 0));
    return Result;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    if (auto Addr = overriddenSubscript(AS)) {
      Result.K = LValue::Mem;
      Result.Addr = *Addr;
      return Result;
    }
    // Remember the index sub-expressions of the first execution of this
    // access, to name the term that spreads the lanes.
    bool Capturing = !CaptureInto && !Captured.count(AS) && Active;
    if (Capturing)
      CaptureInto = &Captured[AS];
    Lanes Base = eval(AS->getBase());
    Lanes Index = eval(AS->getIdx());
    if (Capturing)
      CaptureInto = nullptr;
    Result.K = LValue::Mem;
    Result.Addr = pointerOffset(Base, Index, sizeOf(AS->getType()), false,
                                AS->getIdx()->getType());
    return Result;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    // `c ? a[i] : b[j]` of one type is an lvalue: one access of the address
    // each lane's arm selects (nvcc emits one load of the selected address;
    // measured on the H200 for the two arms of an if, test/inputs/
    // compiler-transformations.cu's branchArms). Arms that are variables
    // are not memory: their values stay unknown.
    Lanes C = eval(CO->getCond());
    Mask T, F, U;
    splitByCondition(C, Active, T, F, U);
    LValue A, B;
    if (T | U)
      A = evalLValueForLanes(CO->getTrueExpr(), T | U, U != 0);
    if (F | U)
      B = evalLValueForLanes(CO->getFalseExpr(), F | U, U != 0);
    if (((T | U) && A.K != LValue::Mem) || ((F | U) && B.K != LValue::Mem))
      return Result;
    Result.K = LValue::Mem;
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (isBitSet(T, L))
        Result.Addr[L] = A.Addr[L];
      else if (isBitSet(F, L))
        Result.Addr[L] = B.Addr[L];
      else if (isBitSet(U, L))
        Result.Addr[L] = join(A.Addr[L], B.Addr[L]);
    }
    return Result;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref) {
      Result.K = LValue::Mem;
      Result.Addr = eval(UO->getSubExpr());
      return Result;
    }
    if (UO->getOpcode() == UO_PreInc || UO->getOpcode() == UO_PreDec) {
      evalUnary(UO);
      return evalLValue(UO->getSubExpr());
    }
    return Result;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || FD->isBitField())
      return Result;
    LValue Base;
    if (ME->isArrow()) {
      Base.K = LValue::Mem;
      Base.Addr = eval(ME->getBase());
    } else {
      Base = evalLValue(ME->getBase());
    }
    if (Base.K != LValue::Mem)
      return Result;
    return fieldLValue(Base.Addr, FD);
  }
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    if (ICE->getCastKind() == CK_NoOp || ICE->getCastKind() == CK_LValueBitCast ||
        ICE->getCastKind() == CK_UncheckedDerivedToBase ||
        ICE->getCastKind() == CK_DerivedToBase)
      return evalLValue(ICE->getSubExpr());
    return Result;
  }
  if (const auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
    if (CE->getCastKind() == CK_NoOp || CE->getCastKind() == CK_LValueBitCast)
      return evalLValue(CE->getSubExpr());
    return Result;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Assign) {
      evalBinary(BO);
      return evalLValue(BO->getLHS());
    }
    if (BO->getOpcode() == BO_Comma) {
      eval(BO->getLHS());
      return evalLValue(BO->getRHS());
    }
    if (isa<CompoundAssignOperator>(BO)) {
      evalCompoundAssign(cast<CompoundAssignOperator>(BO));
      return evalLValue(BO->getLHS());
    }
    if (BO->isPtrMemOp())
      return memberPointerLValue(BO);
    return Result;
  }
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    return temporaryObject(MT);
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // A run function returning a reference returns the addresses.
    Lanes R = eval(CE);
    if (CE->isGLValue() && hasPointerLane(R)) {
      Result.K = LValue::Mem;
      Result.Addr = R;
    }
    return Result;
  }
  return Result;
}

bool WarpInterpreter::Impl::hasPointerLane(const Lanes &V) const {
  for (unsigned L = 0; L < WarpSize; ++L)
    if (isBitSet(Active, L) && V[L].hasRegion())
      return true;
  return false;
}

Lanes WarpInterpreter::Impl::readLValue(const LValue &LV, const Expr *SiteExpr,
                                        QualType T) {
  if (LV.K == LValue::Var) {
    Frame &F = frameOf(LV);
    auto It = F.Vars.find(LV.Variable);
    if (It != F.Vars.end()) {
      if (SampledParams.count(LV.Variable))
        SampledRead.insert(LV.Variable->getNameAsString());
      return It->second.Val;
    }
    // Not a tracked local: a constant known to the compiler.
    if (const VarDecl *VD = LV.Variable) {
      if (const Expr *Init = VD->getAnyInitializer()) {
        if (VD->getType().isConstQualified() || VD->isConstexpr()) {
          Expr::EvalResult R;
          if (!Init->isValueDependent() && Init->EvaluateAsInt(R, Ctx))
            return splat(LaneValue::integer(
                normalize(R.Val.getInt().getZExtValue(), VD->getType())));
        }
      }
    }
    return Lanes{};
  }
  if (LV.K == LValue::Mem) {
    recordTypedAccess(SiteExpr, AccessOp::Load, LV.Addr, T);
    // Values in global or shared memory are data: never guessed; what a
    // lane stored in its own local objects is known; an integer every lane
    // reads from one address is swept like an unbound parameter.
    Lanes R = loadLocal(LV.Addr, sizeOf(T));
    sweepUniformRead(R, LV.Addr, SiteExpr, T);
    return R;
  }
  return Lanes{};
}

bool WarpInterpreter::Impl::addressIsUniform(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  std::vector<InlinedCall> Calls = inlinedCalls();
  auto Uniform = [&](const Expr *X) { return uniformity().isUniform(X, Calls); };
  if (isa<DeclRefExpr>(E))
    return true;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
    bool BaseUniform = Base->getType()->isArrayType() ? addressIsUniform(Base) : Uniform(Base);
    return BaseUniform && Uniform(AS->getIdx());
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref && Uniform(UO->getSubExpr());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? Uniform(ME->getBase()) : addressIsUniform(ME->getBase());
  // An atomic function's address is its first argument.
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return CE->getNumArgs() > 0 && CE->getArg(0)->getType()->isPointerType() &&
           Uniform(CE->getArg(0));
  return false;
}

void WarpInterpreter::Impl::sweepUniformRead(Lanes &R, const Lanes &Addr,
                                             const Expr *SiteExpr, QualType T,
                                             bool OneLaneOnly) {
  if (!Samples.SweepMemoryReads || !SiteExpr || T.isNull() ||
      !T->isIntegralOrEnumerationType())
    return;
  std::optional<LaneValue> At;
  unsigned Readers = 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!isBitSet(Active, L))
      continue;
    if (R[L].K != LaneValue::Unknown || Addr[L].K != LaneValue::Pointer ||
        (At && Addr[L] != *At))
      return;
    At = Addr[L];
    ++Readers;
  }
  if (!At || Regions[At->Region].Kind == RegionKind::Local || (OneLaneOnly && Readers != 1))
    return;
  // One lane alone reads at one address trivially (the last level of a
  // tree, `tree[ai]` with one lane left): only an address the source makes
  // the same for the whole warp (`sizes[blockIdx.x]` read by thread 0)
  // counts then.
  if (Readers == 1 && !addressIsUniform(SiteExpr))
    return;
  // An address outside its __shared__ array is one no valid program reads
  // (a tree's offset doubled past the list under a count the data left
  // unknown, every lane wrapped to the same entry): nothing to sweep.
  if (outsideSharedArray(*At, 0, static_cast<unsigned>(sizeOf(T))))
    return;
  // A value that only ever becomes a float moves no address, guard or
  // trip count (ReadValueUses.h): nothing to sweep.
  auto FloatOnly = FloatOnlyReads.try_emplace(SiteExpr, false);
  if (FloatOnly.second)
    FloatOnly.first->second = usedOnlyAsFloatingPoint(SiteExpr, Ctx);
  if (FloatOnly.first->second)
    return;
  // A count, an offset or a flag the host wrote (`*n`, `row_start[row]`,
  // a __shared__ scalar one thread set): the same for every lane, so it
  // moves the whole warp's pattern (its alignment, a loop's trip count,
  // which lanes a guard keeps) the way an unbound parameter does, and is
  // swept like one. Element e of an array takes (e + 1) times the swept
  // value, so that the neighbouring entries of an offset table (CSR's
  // row_start[r] and row_start[r + 1]) bound a range V long instead of an
  // empty one; e wraps at 1024 to keep the values within 32 bits.
  std::uint64_t Size = std::max<std::uint64_t>(1, sizeOf(T));
  std::uint64_t Element = (At->Bits / Size) % 1024;
  std::uint64_t Value = static_cast<std::uint64_t>(Samples.UnboundInteger) * (Element + 1);
  LaneValue V = LaneValue::integer(normalize(Value, T));
  for (unsigned L = 0; L < WarpSize; ++L)
    if (isBitSet(Active, L))
      R[L] = V;
  std::string Text = sourceText(SiteExpr, Ctx);
  if (Text.empty())
    Text = "a value read from memory";
  if (std::find(SweptReads.begin(), SweptReads.end(), Text) == SweptReads.end())
    SweptReads.push_back(Text);
}

void WarpInterpreter::Impl::writeLValue(const LValue &LV, const Lanes &V,
                                        const Expr *SiteExpr, QualType T) {
  if (LV.K == LValue::Var) {
    assignVar(LV, V);
    return;
  }
  if (LV.K == LValue::Mem) {
    recordTypedAccess(SiteExpr, AccessOp::Store, LV.Addr, T);
    storeLocal(LV.Addr, V, sizeOf(T));
  }
}

void WarpInterpreter::Impl::assignVar(const LValue &LV, const Lanes &V) {
  Frame &F = frameOf(LV);
  auto It = F.Vars.find(LV.Variable);
  if (It == F.Vars.end())
    return;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (isBitSet(Active, L))
      It->second.Val[L] = V[L];
}

} // namespace warpcheck::analysis
