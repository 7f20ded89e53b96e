//===- HostPlaces.cpp - the variables, fields and elements host code writes ===//
//
// Where a host value lives: a variable of one call's frame (a reference
// names the variable it is bound to; a lambda's body sees the frames that
// run it), then fields and elements. Reads give unknown values the name of
// the variable they came from; what a statement may change (assigned,
// incremented, passed by address or non-const reference) can be forgotten
// at once. Globals are read from their declarations (only constants are
// known), except in a run from main, where each holds its initial value
// until the code followed changes it or a call not followed may have.
//
//===----------------------------------------------------------------------===//

#include "HostEvaluator.h"
#include "DeclaredVariables.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace warpcheck::analysis::host {

HostValue HostEvaluator::globalValue(const VarDecl *VD) {
  // A constant, or a variable only its initializer sets; anything else
  // another translation unit may change.
  QualType T = VD->getType();
  const Expr *Init = VD->getAnyInitializer();
  if (Init && (T.isConstQualified() || VD->isConstexpr())) {
    if (auto C = constantInt(Init))
      return toType(HostValue::integer(*C), T);
    if (!Init->HasSideEffects(Ctx))
      return toType(eval(Init), T);
  }
  if (!VD->isStaticLocal() && !GlobalsLost.empty())
    return HostValue::unknown("a global variable, which " + GlobalsLost + " may change");
  return HostValue::unknown(VD->isStaticLocal() ? "a static variable"
                                                : "a global variable, which code elsewhere "
                                                  "may change");
}

void HostEvaluator::writeThrough(const HostValue &Address, HostValue V) {
  if (Address.K != HostValue::Address)
    return;
  Place P;
  P.Valid = true;
  P.Var = Address.Target;
  write(P, std::move(V));
}

std::optional<VarKey> HostEvaluator::trackedGlobal(const VarDecl *VD) {
  // From main's first statement a global holds its initial value (static
  // initialisation is done before main runs) until code changes it: the
  // code followed here writes it as a variable of its own; a call not
  // followed (a function without a body here, or one abandoned) may change
  // any global, and from then on they are unknown again.
  if (!GlobalsTracked || !GlobalsLost.empty() || !VD->hasGlobalStorage() ||
      VD->isStaticLocal() || VD->getType().isVolatileQualified() ||
      VD->getType()->isReferenceType() || VD->hasAttr<CUDADeviceAttr>() ||
      VD->hasAttr<CUDAConstantAttr>() || VD->hasAttr<CUDASharedAttr>() ||
      SM.isInSystemHeader(SM.getFileLoc(VD->getLocation())))
    return std::nullopt;
  VarKey K{0, VD->getCanonicalDecl()};
  if (!Cur.Vars.count(K)) {
    const Expr *Init = VD->getAnyInitializer();
    QualType T = VD->getType();
    // An initializer that reads the variable itself reads this.
    Cur.Vars[K] = HostValue::unknown("a global variable read in its own initializer");
    if (!Init)
      Cur.Vars[K] = zeroOf(T);
    else if (Init->HasSideEffects(Ctx) && !isa<CXXConstructExpr>(Init->IgnoreImplicit()))
      Cur.Vars[K] = HostValue::unknown("a global variable whose initializer runs code");
    else
      Cur.Vars[K] = toType(eval(Init), T);
  }
  return K;
}

std::optional<VarKey> HostEvaluator::keyOf(const ValueDecl *D) {
  // The function whose frame a lambda's body sees: the one the lambda is
  // written in, which need not be its caller (a lambda handed to a
  // function template that calls it, as dispatchers over block sizes do).
  const FunctionDecl *Enclosing = nullptr;
  for (auto F = Frames.rbegin(); F != Frames.rend(); ++F) {
    if (Enclosing && F->Function->getCanonicalDecl() != Enclosing)
      continue;
    auto R = F->Refs.find(D);
    if (R != F->Refs.end())
      return R->second;
    VarKey K{F->Id, D};
    if (Cur.Vars.count(K))
      return K;
    // Only a lambda's body sees the variables of the frames below it.
    const auto *MD = dyn_cast<CXXMethodDecl>(F->Function);
    if (!MD || !MD->getParent()->isLambda())
      break;
    const auto *Outer = dyn_cast<FunctionDecl>(MD->getParent()->getDeclContext());
    if (!Outer)
      break;
    Enclosing = Outer->getCanonicalDecl();
  }
  return std::nullopt;
}

HostEvaluator::Place HostEvaluator::element(const Expr *Array, const Expr *Index) {
  Place Base = place(Array->IgnoreParenImpCasts());
  HostValue I = eval(Index);
  if (!Base.Valid)
    return Base;
  if (I.K != HostValue::Int) {
    Place P;
    P.Why = "an element at an index known only at run time";
    P.Clobbers = Base.Var; // a write there may change any element
    return P;
  }
  Base.Path.push_back(Place::Step{nullptr, I.Bits});
  return Base;
}

HostEvaluator::Place HostEvaluator::place(const Expr *E) {
  Place P;
  E = E->IgnoreParenNoopCasts(Ctx);
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E);
      ICE && ICE->getCastKind() == CK_LValueToRValue)
    E = ICE->getSubExpr()->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD) {
      P.Why = "";
      return P;
    }
    if (auto K = keyOf(VD)) {
      P.Valid = true;
      P.Var = *K;
      return P;
    }
    if (VD->hasLocalStorage() && !Frames.empty() && !VD->getType()->isReferenceType()) {
      // A local not declared on this path (a jump over it): a fresh place.
      P.Valid = true;
      P.Var = VarKey{frame().Id, VD};
      return P;
    }
    if (std::optional<VarKey> K = trackedGlobal(VD)) {
      P.Valid = true;
      P.Var = *K;
      return P;
    }
    HostValue G = globalValue(VD);
    P.Why = G.Why;
    return P;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!F) {
      P.Why = "a static member";
      return P;
    }
    Place Base;
    if (ME->isArrow()) {
      HostValue B = eval(ME->getBase());
      if (B.K != HostValue::Address) {
        P.Why = isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())
                    ? "a member of the object '" +
                          F->getParent()->getNameAsString() + "', which is not followed"
                    : "a field reached through a pointer";
        return P;
      }
      Base.Valid = true;
      Base.Var = B.Target;
    } else {
      Base = place(ME->getBase());
    }
    if (!Base.Valid)
      return Base;
    Base.Path.push_back(Place::Step{F, 0});
    return Base;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    if (!AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType()) {
      HostValue Base = eval(AS->getBase());
      HostValue I = eval(AS->getIdx());
      P.Why = "a value in memory";
      // An element of an array `new` made (`pS[level]`).
      if (std::optional<VarKey> Heap = heapArray(Base, AS->getType())) {
        if (I.K != HostValue::Int) {
          P.Why = "an element at an index known only at run time";
          P.Clobbers = *Heap;
          return P;
        }
        P.Valid = true;
        P.Var = *Heap;
        P.Path.push_back(Place::Step{nullptr, I.Bits});
      }
      return P;
    }
    return element(AS->getBase(), AS->getIdx());
  }
  // v[i] on a vector held as its elements, as an array's element.
  if (const Expr *Vector = vectorSubscriptBase(E))
    return element(Vector, cast<CXXOperatorCallExpr>(E->IgnoreParens())->getArg(1));
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const Expr *Arg = forwardedArgument(CE))
      return place(Arg);
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref) {
    HostValue V = eval(UO->getSubExpr());
    if (V.K == HostValue::Address && HeapArrays.count(V.Target)) {
      // `*p` on an array `new` made: its first element.
      if (std::optional<VarKey> Heap = heapArray(V, UO->getType())) {
        P.Valid = true;
        P.Var = *Heap;
        P.Path.push_back(Place::Step{nullptr, 0});
      }
      return P;
    }
    if (V.K == HostValue::Address) {
      P.Valid = true;
      P.Var = V.Target;
      return P;
    }
    P.Why = "a value in memory";
    return P;
  }
  P.Why = "";
  return P;
}

void HostEvaluator::store(const Place &P, HostValue V, const Expr *At) {
  if (P.Valid)
    write(P, std::move(V));
  else if (P.Clobbers)
    Cur.Vars[*P.Clobbers] =
        HostValue::unknown("an array written at an index known only at run time (" + where(At) +
                           ")");
}

HostValue HostEvaluator::evalNew(const CXXNewExpr *NE) {
  std::optional<const Expr *> Size = NE->getArraySize();
  HostValue N = Size && *Size ? eval(*Size) : HostValue::unknown("");
  if (const Expr *Init = NE->getInitializer())
    eval(Init);
  for (const Expr *Arg : NE->placement_arguments())
    eval(Arg);
  // Only arrays of integers or pointers, of a size known and small, with
  // the ordinary allocation, are followed; anything else is memory.
  QualType T = NE->getAllocatedType();
  if (!NE->isArray() || NE->getNumPlacementArgs() || N.K != HostValue::Int || N.Bits == 0 ||
      N.Bits > 4096 || !(T->isIntegralOrEnumerationType() || T->isPointerType()))
    return HostValue::pointer(0);
  HostValue Array;
  Array.K = HostValue::Array;
  // `new int[n]()` and `new int[n]{}` are zeros; `new int[n]` holds nothing known.
  const Expr *Init = NE->getInitializer();
  bool Zeroed = Init && (isa<ImplicitValueInitExpr>(Init) || isa<CXXScalarValueInitExpr>(Init) ||
                         (isa<InitListExpr>(Init) && cast<InitListExpr>(Init)->getNumInits() == 0));
  Array.Elements.assign(N.Bits, Zeroed ? zeroOf(T) : HostValue::unknown("an element that is not set"));
  VarKey K{NextHeapArray++, nullptr};
  HeapArrays[K] = {T.getCanonicalType().getUnqualifiedType(), where(NE)};
  Cur.Vars[K] = std::move(Array);
  return HostValue::address(K);
}

std::optional<VarKey> HostEvaluator::heapArray(const HostValue &V, QualType T) {
  if (V.K != HostValue::Address)
    return std::nullopt;
  auto It = HeapArrays.find(V.Target);
  if (It == HeapArrays.end())
    return std::nullopt;
  if (!Ctx.hasSameUnqualifiedType(It->second.first, T)) {
    // Read or written as another type (`(char *)p`): its elements are
    // no longer followed.
    Cur.Vars[V.Target] = HostValue::unknown("an array used as another type (" + It->second.second + ")");
    return std::nullopt;
  }
  return V.Target;
}

HostValue HostEvaluator::identified(HostValue V) {
  if (V.K == HostValue::Unknown && !V.isChoice() && !V.Atom && !V.Modulus)
    V.Atom = ++LastAtom;
  return V;
}

HostValue HostEvaluator::read(const Place &P, QualType T) {
  auto It = Cur.Vars.find(P.Var);
  // Every read of one unknown variable is the same quantity (a variable
  // made unknown where none was stored by write: a loop's).
  if (It != Cur.Vars.end() && P.Path.empty())
    It->second = identified(std::move(It->second));
  HostValue V = It == Cur.Vars.end() ? HostValue::unknown("a variable not set on this path")
                                     : It->second;
  std::string Name = P.Var.second ? P.Var.second->getNameAsString()
                                  : "the array allocated at " + HeapArrays[P.Var].second;
  for (const Place::Step &S : P.Path) {
    Name += S.Field ? "." + S.Field->getNameAsString() : "[" + std::to_string(S.Index) + "]";
    if (S.Field)
      V = member(V, S.Field);
    else if (V.K == HostValue::Array && S.Index < V.Elements.size())
      V = HostValue(V.Elements[S.Index]);
    else
      V = V.known() ? HostValue::unknown("an element out of the array's bounds") : V;
  }
  if (!V.known() && V.Var.empty())
    V.Var = Name;
  if (!V.known() && T->isPointerType())
    return HostValue::pointer(0); // an allocation of its own (cudaMalloc's are 256-byte aligned)
  return toType(V, T);
}

void HostEvaluator::write(const Place &P, HostValue V) {
  HostValue *At = &Cur.Vars[P.Var];
  for (const Place::Step &S : P.Path) {
    if (S.Field) {
      if (At->K != HostValue::Record) {
        *At = HostValue();
        At->K = HostValue::Record;
      }
      // Changed here: no longer what another unit's constructor built.
      At->BuiltBy.reset();
      if (!At->field(S.Field))
        At->setField(S.Field, HostValue::unknown("a field that is not set"));
      for (HostField &F : At->Fields)
        if (F.Decl == S.Field)
          At = &F.Value;
    } else {
      if (At->K != HostValue::Array || S.Index >= At->Elements.size()) {
        *At = HostValue::unknown("an array written out of its bounds");
        return;
      }
      At = &At->Elements[S.Index];
    }
  }
  // An unknown value keeps the variable it was first read from: that is
  // the one a reason names.
  *At = identified(std::move(V));
}

namespace {
/// The variables a statement may change: assigned, incremented, passed
/// by address or by non-const reference.
struct AssignedVars : RecursiveASTVisitor<AssignedVars> {
  std::vector<const Expr *> Targets;
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      Targets.push_back(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      Targets.push_back(UO->getSubExpr());
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    // A method that may change its object (a vector's push_back).
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
      if (const CXXMethodDecl *MD = MC->getMethodDecl();
          MD && !MD->isConst() && MC->getImplicitObjectArgument())
        Targets.push_back(MC->getImplicitObjectArgument());
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
        OC && OC->isAssignmentOp() && OC->getNumArgs() > 0)
      Targets.push_back(OC->getArg(0));
    unsigned Offset = isa<CXXOperatorCallExpr>(CE) && isa_and_nonnull<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = Offset; FD && I < CE->getNumArgs() && I - Offset < FD->getNumParams(); ++I) {
      QualType PT = FD->getParamDecl(I - Offset)->getType();
      if (PT->isReferenceType() && !PT->getPointeeType().isConstQualified())
        Targets.push_back(CE->getArg(I));
    }
    return true;
  }
  bool VisitDeclStmt(DeclStmt *DS) {
    for (const VarDecl *VD : declaredVariables(DS))
      Decls.push_back(VD);
    return true;
  }
  std::vector<const VarDecl *> Decls;
};

/// The variable an lvalue expression names (through fields and elements).
const VarDecl *baseVariable(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DRE->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? nullptr : baseVariable(ME->getBase());
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return baseVariable(AS->getBase());
  if (const Expr *Vector = vectorSubscriptBase(E))
    return baseVariable(Vector);
  return nullptr;
}
} // namespace

void HostEvaluator::forgetAssignedIn(const Stmt *S, const std::string &Why) {
  if (!S)
    return;
  AssignedVars A;
  A.TraverseStmt(const_cast<Stmt *>(S));
  for (const Expr *T : A.Targets)
    if (const VarDecl *VD = baseVariable(T))
      if (auto K = keyOf(VD)) {
        // A pointer to an array `new` made: the array may change too.
        if (auto It = Cur.Vars.find(*K);
            It != Cur.Vars.end() && It->second.K == HostValue::Address &&
            HeapArrays.count(It->second.Target))
          Cur.Vars[It->second.Target] = HostValue::unknown(Why);
        Cur.Vars[*K] = HostValue::unknown(Why);
      }
}

} // namespace warpcheck::analysis::host
