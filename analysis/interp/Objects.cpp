//===- Objects.cpp - local objects: structs, arrays, lambdas, temporaries -===//
//
// A struct, array, lambda or temporary declared in device code lives in the
// lane's registers or local memory: each lane has its own copy; so does a
// scalar whose address the function takes (Statements.cpp). Such an
// object is a Local region, and what the lanes store in it (a helper
// object's pointer member, a functor's stride, a lambda's by-copy capture)
// is kept per lane and byte offset, so that a method run on the object
// (implicit this), a field read, or a copy of the object gives back the
// values stored. Values read from global or shared memory stay unknown: only
// what the lanes computed themselves is kept.
//
// Writes through a pointer whose region is not known (one read from
// memory) are assumed not to reach local objects: their address would have
// to be stored to memory and read back, which kernels do not do.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "ExprWrappers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"

#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace warpcheck::analysis {

namespace {
/// The widest scalar a cell holds (long double, __int128): wider values
/// are structs, split into their fields.
constexpr std::uint64_t MaxCellBytes = 16;
/// Elements of an array initialised from an array filler (`int a[N] = {}`)
/// beyond this are left unknown, to bound the work for big local arrays.
constexpr std::uint64_t MaxFilledElements = 1024;

std::uint64_t fieldOffset(ASTContext &Ctx, const FieldDecl *FD) {
  return Ctx.getFieldOffset(FD) / 8;
}
} // namespace

bool WarpInterpreter::Impl::isObjectType(QualType T) {
  return !T.isNull() && !T->isReferenceType() && !T->isDependentType() &&
         !T->isIncompleteType() && (T->isRecordType() || T->isArrayType());
}

Lanes WarpInterpreter::Impl::newObject(const void *Key, std::size_t Depth, QualType T) {
  auto [It, Inserted] = ObjectRegions.try_emplace({Key, Depth}, -1);
  if (Inserted)
    It->second = addRegion(RegionKind::Local, nullptr);
  Lanes Addr = splat(LaneValue::pointer(It->second, 0));
  forgetLocal(Addr, sizeOf(T));
  return Addr;
}

bool WarpInterpreter::Impl::isLocalAddress(const LaneValue &V) const {
  return V.hasRegion() && Regions[V.Region].Kind == RegionKind::Local;
}

Lanes WarpInterpreter::Impl::offsetBy(const Lanes &Addr, std::uint64_t Offset) {
  Lanes R = Addr;
  for (LaneValue &L : R)
    if (L.K == LaneValue::Pointer)
      L.Bits += Offset;
  return R;
}

Lanes WarpInterpreter::Impl::loadLocal(const Lanes &Addr, std::uint64_t Size) {
  Lanes R;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!isBitSet(Active, L) || Addr[L].K != LaneValue::Pointer ||
        !isLocalAddress(Addr[L]))
      continue;
    auto Region = LocalMemory.find(Addr[L].Region);
    if (Region == LocalMemory.end())
      continue;
    auto Cell = Region->second.find(Addr[L].Bits);
    // Only a value stored with the same width is known: a float read as
    // its bits, or half of a 64-bit value, is not followed.
    if (Cell != Region->second.end() && Cell->second.Size == Size)
      R[L] = Cell->second.Val[L];
  }
  return R;
}

void WarpInterpreter::Impl::forgetLocal(const Lanes &Addr, std::uint64_t Size) {
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!isBitSet(Active, L) || !isLocalAddress(Addr[L]))
      continue;
    auto Region = LocalMemory.find(Addr[L].Region);
    if (Region == LocalMemory.end())
      continue;
    auto &Cells = Region->second;
    if (Addr[L].K == LaneValue::RegionOnly) {
      // Somewhere in the object: all of it is no longer known.
      for (auto &[Off, Cell] : Cells)
        Cell.Val[L] = LaneValue{};
      continue;
    }
    std::uint64_t Lo = Addr[L].Bits, Hi = Lo + Size;
    auto It = Cells.lower_bound(Lo >= MaxCellBytes ? Lo - MaxCellBytes + 1 : 0);
    for (; It != Cells.end() && It->first < Hi; ++It)
      if (It->first + It->second.Size > Lo)
        It->second.Val[L] = LaneValue{};
  }
}

void WarpInterpreter::Impl::storeLocal(const Lanes &Addr, const Lanes &V,
                                       std::uint64_t Size) {
  forgetLocal(Addr, Size);
  if (Size > MaxCellBytes)
    return;
  ++LocalWrites;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!isBitSet(Active, L) || Addr[L].K != LaneValue::Pointer ||
        !isLocalAddress(Addr[L]))
      continue;
    auto &Cells = LocalMemory[Addr[L].Region];
    auto It = Cells.find(Addr[L].Bits);
    if (It == Cells.end()) {
      // An unknown value (a float, data read from memory) needs no cell:
      // what is not there is unknown.
      if (V[L].K == LaneValue::Unknown)
        continue;
      It = Cells.emplace(Addr[L].Bits, LocalCell{Size, Lanes{}, 0}).first;
    } else if (It->second.Size != Size) {
      // Another width at this offset: the other lanes' values are forgotten
      // (they were stored with another type; reading them back as this
      // one is not followed).
      It->second = LocalCell{Size, Lanes{}, 0};
    }
    It->second.Val[L] = V[L];
    It->second.Written = LocalWrites;
  }
}

void WarpInterpreter::Impl::copyLocal(const Lanes &Dst, const Lanes &Src,
                                      std::uint64_t Size) {
  // Each lane copies its own object: gather what its source holds, then
  // write it at the destination (the two may overlap).
  std::vector<std::pair<std::uint64_t, LocalCell>> Values;
  Mask Saved = Active;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!isBitSet(Saved, L))
      continue;
    Values.clear();
    if (Src[L].K == LaneValue::Pointer && isLocalAddress(Src[L])) {
      auto Region = LocalMemory.find(Src[L].Region);
      if (Region != LocalMemory.end()) {
        std::uint64_t Lo = Src[L].Bits;
        for (auto It = Region->second.lower_bound(Lo);
             It != Region->second.end() && It->first + It->second.Size <= Lo + Size; ++It)
          if (It->second.Val[L].K != LaneValue::Unknown)
            Values.push_back({It->first - Lo, It->second});
      }
    }
    Active = 1u << L;
    forgetLocal(Dst, Size);
    for (const auto &[Off, Cell] : Values)
      storeLocal(offsetBy(Dst, Off), Cell.Val, Cell.Size);
  }
  Active = Saved;
}

void WarpInterpreter::Impl::poisonLocalWrites(std::uint64_t WritesBefore, Mask Lanes) {
  if (!Lanes)
    return;
  for (auto &[Region, Cells] : LocalMemory)
    for (auto &[Off, Cell] : Cells)
      if (Cell.Written > WritesBefore)
        for (unsigned L = 0; L < WarpSize; ++L)
          if (isBitSet(Lanes, L))
            Cell.Val[L] = LaneValue{};
}

void WarpInterpreter::Impl::keepLocalLanes(const LocalSnapshot &From, Mask Lanes) {
  for (auto &[Region, Cells] : LocalMemory) {
    auto FromRegion = From.find(Region);
    for (auto &[Off, Cell] : Cells) {
      const LocalCell *Old = nullptr;
      if (FromRegion != From.end()) {
        auto It = FromRegion->second.find(Off);
        if (It != FromRegion->second.end() && It->second.Size == Cell.Size)
          Old = &It->second;
      }
      for (unsigned L = 0; L < WarpSize; ++L)
        if (isBitSet(Lanes, L))
          Cell.Val[L] = Old ? Old->Val[L] : LaneValue{};
    }
  }
}

void WarpInterpreter::Impl::mergeLocalLanes(const LocalSnapshot &Other, Mask Lanes) {
  for (auto &[Region, Cells] : LocalMemory) {
    auto OtherRegion = Other.find(Region);
    for (auto &[Off, Cell] : Cells) {
      const LocalCell *O = nullptr;
      if (OtherRegion != Other.end()) {
        auto It = OtherRegion->second.find(Off);
        if (It != OtherRegion->second.end() && It->second.Size == Cell.Size)
          O = &It->second;
      }
      for (unsigned L = 0; L < WarpSize; ++L)
        if (isBitSet(Lanes, L))
          Cell.Val[L] = O ? join(O->Val[L], Cell.Val[L]) : LaneValue{};
    }
  }
}

LValue WarpInterpreter::Impl::fieldLValue(const Lanes &Base, const FieldDecl *FD) {
  LValue Result;
  if (!FD || FD->isBitField() || FD->getParent()->isInvalidDecl())
    return Result;
  Result.K = LValue::Mem;
  Result.Addr = offsetBy(Base, fieldOffset(Ctx, FD));
  if (FD->getType()->isReferenceType())
    // A reference member holds the address of what it refers to.
    Result.Addr = loadLocal(Result.Addr, Ctx.getTypeSizeInChars(Ctx.VoidPtrTy).getQuantity());
  return Result;
}

void WarpInterpreter::Impl::initObject(const Lanes &Addr, QualType T, const Expr *Init) {
  NestingGuard Guard(*this);
  if (!Init || !Guard.Ok || !step())
    return;
  Init = Init->IgnoreParens();
  if (T->isReferenceType()) {
    // A reference member (or by-reference capture): the address it binds.
    LValue LV = evalLValue(Init);
    storeLocal(Addr, LV.K == LValue::Mem ? LV.Addr : Lanes{},
               Ctx.getTypeSizeInChars(Ctx.VoidPtrTy).getQuantity());
    return;
  }
  if (!isObjectType(T)) {
    if ((isa<ImplicitValueInitExpr>(Init) || isa<CXXScalarValueInitExpr>(Init)) &&
        (T->isIntegralOrEnumerationType() || T->isPointerType())) {
      storeLocal(Addr, splat(LaneValue::integer(0)), sizeOf(T));
      return;
    }
    storeLocal(Addr, eval(Init), sizeOf(T));
    return;
  }
  // Nodes that only carry the object's initialiser.
  if (const Expr *Inner = isWrapper(Init) ? wrappedExpression(Init) : nullptr)
    return initObject(Addr, T, Inner);
  if (const auto *CE = dyn_cast<CastExpr>(Init))
    if (CE->getCastKind() == CK_NoOp || CE->getCastKind() == CK_ConstructorConversion ||
        CE->getCastKind() == CK_UserDefinedConversion)
      return initObject(Addr, T, CE->getSubExpr());
  if (const auto *CC = dyn_cast<CXXConstructExpr>(Init))
    return construct(Addr, CC);
  if (const auto *LE = dyn_cast<LambdaExpr>(Init))
    return initClosure(Addr, LE);
  if (const auto *CE = dyn_cast<CallExpr>(Init)) {
    // A struct returned by value is built where the caller puts it.
    const CallExpr *SavedCall = ReturnSlotCall;
    Lanes SavedAddr = ReturnSlotAddr;
    ReturnSlotCall = CE;
    ReturnSlotAddr = Addr;
    eval(CE);
    ReturnSlotCall = SavedCall;
    ReturnSlotAddr = SavedAddr;
    return;
  }
  const auto *IL = dyn_cast<InitListExpr>(Init);
  if (!IL) {
    eval(Init);
    return;
  }
  if (IL->getNumInits() == 1 &&
      Ctx.hasSameUnqualifiedType(IL->getInit(0)->getType(), T))
    return initObject(Addr, T, IL->getInit(0));
  if (const auto *AT = Ctx.getAsArrayType(T)) {
    QualType ET = AT->getElementType();
    std::uint64_t ES = sizeOf(ET);
    for (unsigned I = 0; I < IL->getNumInits(); ++I)
      initObject(offsetBy(Addr, I * ES), ET, IL->getInit(I));
    if (const auto *CAT = dyn_cast<ConstantArrayType>(AT))
      if (IL->hasArrayFiller())
        for (std::uint64_t I = IL->getNumInits();
             I < CAT->getZExtSize() && I < MaxFilledElements; ++I)
          initObject(offsetBy(Addr, I * ES), ET, IL->getArrayFiller());
    return;
  }
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || RD->isUnion() || RD->isInvalidDecl()) {
    for (const Expr *E : IL->inits())
      eval(E);
    return;
  }
  // An aggregate: its bases, then its fields, in declaration order.
  const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(RD);
  unsigned Next = 0;
  for (const CXXBaseSpecifier &B : RD->bases()) {
    if (Next >= IL->getNumInits())
      return;
    const Expr *E = IL->getInit(Next++);
    const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl();
    if (Base && !B.isVirtual())
      initObject(offsetBy(Addr, Layout.getBaseClassOffset(Base).getQuantity()),
                 B.getType(), E);
  }
  for (const FieldDecl *FD : RD->fields()) {
    if (FD->isUnnamedBitField())
      continue;
    if (Next >= IL->getNumInits())
      return;
    const Expr *E = IL->getInit(Next++);
    if (FD->isBitField())
      eval(E);
    else
      initObject(offsetBy(Addr, fieldOffset(Ctx, FD)), FD->getType(), E);
  }
}

void WarpInterpreter::Impl::construct(const Lanes &Addr, const CXXConstructExpr *CC) {
  const CXXConstructorDecl *Ctor = CC->getConstructor();
  QualType T = CC->getType();
  auto EvalArgs = [&] {
    for (const Expr *A : CC->arguments())
      eval(A);
  };
  if (!Ctor || T->isArrayType() || !T->getAsCXXRecordDecl())
    return EvalArgs();
  if (Ctor->isCopyOrMoveConstructor() && (Ctor->isTrivial() || Ctor->isDefaulted()) &&
      CC->getNumArgs() >= 1) {
    // A copy: a struct read from memory (`float4 v = in4[i]`) is a load of
    // it; a local one gives its values to the copy.
    LValue Src = evalLValue(CC->getArg(0));
    if (Src.K == LValue::Mem) {
      recordTypedAccess(CC->getArg(0)->IgnoreParenImpCasts(), AccessOp::Load, Src.Addr,
                        CC->getArg(0)->getType());
      copyLocal(Addr, Src.Addr, sizeOf(T));
    }
    return;
  }
  const FunctionDecl *Def = nullptr;
  const Stmt *Body = Ctor->getBody(Def);
  bool FromSystem = SM.isInSystemHeader(Ctor->getLocation()) ||
                    Ctor->getLocation().isInvalid();
  const auto *CD = dyn_cast_or_null<CXXConstructorDecl>(Def);
  if (!Body || !CD || FromSystem || CD->getParent()->isInvalidDecl() ||
      Frames.size() > Limits.MaxCallDepth)
    return EvalArgs();
  // A user constructor runs like a method: its member initialisers, then
  // its body, on the object at Addr.
  Frame Callee;
  Callee.This = Addr;
  bindParameters(CD, llvm::ArrayRef(CC->getArgs(), CC->getNumArgs()), 0, Callee);
  Mask Saved = Active;
  Frames.push_back(std::move(Callee));
  const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(CD->getParent());
  for (const CXXCtorInitializer *I : CD->inits()) {
    if (!Active || Aborted)
      break;
    if (I->isMemberInitializer())
      initObject(offsetBy(Addr, fieldOffset(Ctx, I->getMember())),
                 I->getMember()->getType(), I->getInit());
    else if (I->isBaseInitializer() && !I->isBaseVirtual() &&
             I->getBaseClass()->getAsCXXRecordDecl())
      initObject(offsetBy(Addr, Layout.getBaseClassOffset(
                                    I->getBaseClass()->getAsCXXRecordDecl()).getQuantity()),
                 QualType(I->getBaseClass(), 0), I->getInit());
    else if (I->isDelegatingInitializer())
      initObject(Addr, T, I->getInit());
    else
      eval(I->getInit());
  }
  exec(Body);
  Frames.pop_back();
  Active = Saved;
}

void WarpInterpreter::Impl::initClosure(const Lanes &Addr, const LambdaExpr *LE) {
  // The closure's fields are its captures, in order. A by-reference
  // capture is found in the frame that defined the lambda when the body
  // uses it (capturedVariable): a register variable has no address.
  const CXXRecordDecl *Class = LE->getLambdaClass();
  if (!Class || Class->isInvalidDecl())
    return;
  auto Field = Class->field_begin();
  for (const Expr *Init : LE->capture_inits()) {
    if (Field == Class->field_end())
      return;
    const FieldDecl *FD = *Field++;
    if (Init && !FD->getType()->isReferenceType())
      initObject(offsetBy(Addr, fieldOffset(Ctx, FD)), FD->getType(), Init);
  }
}

std::optional<LValue> WarpInterpreter::Impl::capturedVariable(const DeclRefExpr *DRE) {
  const Frame &F = frame();
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !DRE->refersToEnclosingVariableOrCapture() || !F.Closure || !F.This)
    return std::nullopt;
  llvm::DenseMap<const ValueDecl *, FieldDecl *> Fields;
  FieldDecl *ThisField = nullptr;
  F.Closure->getCaptureFields(Fields, ThisField);
  auto It = Fields.find(VD);
  if (It == Fields.end())
    return std::nullopt; // a constant used without being captured
  if (!It->second->getType()->isReferenceType())
    return fieldLValue(*F.This, It->second);
  // By reference: the variable itself, in the nearest enclosing frame that
  // holds it (the one that defined the lambda).
  for (std::size_t I = Frames.size() - 1; I-- > 0;) {
    auto Var = Frames[I].Vars.find(VD);
    if (Var == Frames[I].Vars.end())
      continue;
    if (Var->second.IsReference)
      return Var->second.Ref;
    LValue LV;
    LV.K = LValue::Var;
    LV.Variable = VD;
    LV.Frame = static_cast<int>(I);
    return LV;
  }
  return LValue{};
}

Lanes WarpInterpreter::Impl::thisValue() {
  const Frame &F = frame();
  if (!F.This)
    return Lanes{};
  if (!F.Closure)
    return *F.This;
  // In a lambda, `this` is the enclosing method's object, captured.
  llvm::DenseMap<const ValueDecl *, FieldDecl *> Fields;
  FieldDecl *ThisField = nullptr;
  F.Closure->getCaptureFields(Fields, ThisField);
  if (!ThisField || !ThisField->getType()->isPointerType() || F.Closure->isInvalidDecl())
    return Lanes{};
  return loadLocal(offsetBy(*F.This, fieldOffset(Ctx, ThisField)), sizeOf(ThisField->getType()));
}

LValue WarpInterpreter::Impl::temporaryObject(const MaterializeTemporaryExpr *MT) {
  LValue Result;
  QualType T = MT->getType().getNonReferenceType();
  if (T->isVoidType() || T->isIncompleteType() || T->isDependentType()) {
    eval(MT->getSubExpr());
    return Result;
  }
  Result.K = LValue::Mem;
  Result.Addr = newObject(MT, Frames.size(), T);
  initObject(Result.Addr, T, MT->getSubExpr());
  return Result;
}

Lanes WarpInterpreter::Impl::memberPointerValue(const UnaryOperator *UO) {
  // `&S::field`: a pointer to a data member is the field's byte offset
  // (Itanium C++ ABI, "Data Member Pointers").
  const auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens());
  const auto *FD = DRE ? dyn_cast<FieldDecl>(DRE->getDecl()) : nullptr;
  if (!FD || FD->isBitField() || FD->getParent()->isInvalidDecl())
    return Lanes{};
  return splat(LaneValue::integer(fieldOffset(Ctx, FD)));
}

LValue WarpInterpreter::Impl::memberPointerLValue(const BinaryOperator *BO) {
  LValue Result;
  if (!BO->getRHS()->getType()->isMemberDataPointerType()) {
    eval(BO->getLHS());
    eval(BO->getRHS());
    return Result;
  }
  Lanes Base;
  if (BO->getOpcode() == BO_PtrMemI) {
    Base = eval(BO->getLHS());
  } else {
    LValue Object = evalLValue(BO->getLHS());
    if (Object.K == LValue::Mem)
      Base = Object.Addr;
  }
  Lanes Offset = eval(BO->getRHS());
  Result.K = LValue::Mem;
  Result.Addr = pointerOffset(Base, Offset, 1, false, BO->getRHS()->getType());
  return Result;
}

void WarpInterpreter::Impl::bindParameters(const FunctionDecl *Def,
                                           llvm::ArrayRef<const Expr *> Args,
                                           unsigned ArgOffset, Frame &Callee) {
  for (unsigned I = ArgOffset; I < Args.size() && I - ArgOffset < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I - ArgOffset);
    QualType PT = P->getType();
    Slot S;
    if (PT->isReferenceType()) {
      S.IsReference = true;
      S.Ref = evalLValue(Args[I]);
      // A reference to a caller's local (an out-parameter, `udivmod(i, d,
      // x)`): the variable itself, in the caller's frame, so that the
      // callee's writes reach it.
      if (S.Ref.K == LValue::Var)
        S.Ref.Frame = absoluteFrame(S.Ref);
    } else if (isObjectType(PT)) {
      // A struct passed by value: the callee's own copy, in the frame it
      // is about to get.
      S.IsReference = true;
      S.Ref.K = LValue::Mem;
      S.Ref.Addr = newObject(P, Frames.size() + 1, PT);
      initObject(S.Ref.Addr, PT, Args[I]);
    } else {
      S.Val = eval(Args[I]);
    }
    Callee.Vars[P] = S;
  }
}

} // namespace warpcheck::analysis
