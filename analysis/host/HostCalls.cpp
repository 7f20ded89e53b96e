//===- HostCalls.cpp - calls in host code, and the launches they make -----===//
//
// A call of a host function whose body is in the user's code runs it with
// its arguments bound (up to HostLimits::MaxCallDepth, never recursively);
// the few library and runtime functions that size launches are known by
// name (min and max; cudaGetDeviceProperties and cudaDeviceGetAttribute,
// which give the target architecture's properties; cudaMallocPitch's pitch,
// model::mallocPitchBytes; the occupancy functions, HostOccupancyCalls.cpp);
// any other call is
// opaque: its result, and what it may write through an address or a
// non-const reference, are unknown, naming the function. A launch site's
// shape, shared bytes, kernels and arguments are recorded each time it is
// reached. The objects methods run on: HostObjects.cpp.
//
//===----------------------------------------------------------------------===//

#include "DeviceProperties.h"
#include "HostEvaluator.h"

#include "values/IntegerSemantics.h"
#include "warpcheck/model/GlobalMemory.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace clang;

namespace warpcheck::analysis::host {

bool HostEvaluator::runnable(const FunctionDecl *FD) const {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || Def->isDependentContext())
    return false;
  if (Def->hasAttr<CUDAGlobalAttr>() ||
      (Def->hasAttr<CUDADeviceAttr>() && !Def->hasAttr<CUDAHostAttr>()))
    return false;
  return !SM.isInSystemHeader(SM.getFileLoc(Def->getLocation()));
}

const Expr *forwardedArgument(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (FD && CE->getNumArgs() == 1 && FD->getIdentifier() && FD->isInStdNamespace() &&
      (FD->getName() == "forward" || FD->getName() == "move"))
    return CE->getArg(0);
  return nullptr;
}

HostValue HostEvaluator::evalCall(const CallExpr *CE) {
  auto Site = Sites.find(CE);
  if (Site != Sites.end()) {
    recordLaunch(*Site->second, CE);
    return HostValue::unknown("the error code of the launch at " + where(CE));
  }
  // std::forward and std::move are casts: a benchmark wrapper's
  // `kernel(std::forward<Args>(args)...)` passes the values it was given.
  if (const Expr *Arg = forwardedArgument(CE))
    return eval(Arg);
  if (std::optional<HostValue> V = vectorCall(CE))
    return *V;
  const FunctionDecl *FD = CE->getDirectCallee();
  unsigned FirstArg = 0;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
    if (MD && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
        (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()) &&
        (MD->isTrivial() || MD->isDefaulted())) {
      // dim3 threads; threads = dim3(16, 16): the object takes the value.
      HostValue V = eval(OC->getArg(1));
      Place P = place(OC->getArg(0));
      if (P.Valid)
        write(P, V);
      return V;
    }
    if (MD)
      FirstArg = 1; // the object is the first argument
  }
  if (!FD) {
    // A call through a function pointer: the function when only one is
    // possible.
    HostValue Callee = eval(CE->getCallee());
    if (Callee.K == HostValue::Functions && Callee.Callees.size() == 1)
      FD = Callee.Callees.front();
    if (!FD)
      return opaqueCall(nullptr, CE, 0);
  }
  HostValue V;
  if (auto Library = libraryCall(FD, CE))
    V = std::move(*Library);
  else if (runnable(FD) && !onStack(FD) && Frames.size() < Limits.MaxCallDepth)
    V = callFunction(FD, CE, FirstArg);
  else
    V = opaqueCall(FD, CE, FirstArg);
  // `exit(EXIT_FAILURE)`, `abort()`, a [[noreturn]] helper of the
  // program's: the path ends there (FDTD3d's edge too small for the
  // device: no launch follows it).
  if (FD->isNoReturn())
    Cur.Live = false;
  return V;
}

HostValue HostEvaluator::opaqueCall(const FunctionDecl *FD, const CallExpr *CE,
                                    unsigned FirstArg) {
  std::string Name = FD ? functionName(FD) : "a function called through a pointer";
  std::string At = " at run time (" + where(CE) + ")";
  HostValue Written = HostValue::unknown("a value " + Name + " writes" + At);
  // A function of the program's own code that is not followed may change
  // any global; a library function only what it is given the address of.
  if (GlobalsTracked && GlobalsLost.empty() &&
      (!FD || !SM.isInSystemHeader(SM.getFileLoc(FD->getLocation()))))
    GlobalsLost = Name + " (" + where(CE) + ")";
  // Another unit's method: its object as it is before the call (which may
  // change it), for the unit that runs the method.
  std::optional<HostValue> ObjectBefore;
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(FD);
  if (Method && !Method->isStatic() && definedInAnotherUnit(FD)) {
    const Expr *Obj = nullptr;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
      Obj = MC->getImplicitObjectArgument();
    else if (FirstArg == 1 && CE->getNumArgs() > 0)
      Obj = CE->getArg(0);
    if (Obj && !Obj->HasSideEffects(Ctx))
      if (std::optional<VarKey> Key = objectOf(Obj)) {
        Place P;
        P.Valid = true;
        P.Var = *Key;
        ObjectBefore = read(P, Obj->getType()->isPointerType() ? Obj->getType()->getPointeeType()
                                                               : Obj->getType());
      }
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    const Expr *Obj = MC->getImplicitObjectArgument();
    const auto *MD = MC->getMethodDecl();
    if (Obj && MD && !MD->isConst()) {
      Place P = place(Obj);
      if (P.Valid)
        write(P, Written);
    } else if (Obj) {
      eval(Obj);
    }
  }
  std::vector<HostValue> ArgValues(CE->getNumArgs());
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const Expr *A = CE->getArg(I);
    const ParmVarDecl *P =
        FD && I >= FirstArg && I - FirstArg < FD->getNumParams() ? FD->getParamDecl(I - FirstArg)
                                                                 : nullptr;
    QualType PT = P ? P->getType() : QualType();
    bool MayWrite = !PT.isNull() && PT->isReferenceType() &&
                    !PT->getPointeeType().isConstQualified();
    if (FirstArg == 1 && I == 0 && FD && isa<CXXMethodDecl>(FD))
      MayWrite = !cast<CXXMethodDecl>(FD)->isConst();
    if (MayWrite) {
      Place Pl = place(A);
      if (Pl.Valid) {
        write(Pl, Written);
        continue;
      }
    }
    HostValue V = eval(A);
    ArgValues[I] = V;
    bool ConstPointee = !PT.isNull() && PT->isPointerType() &&
                        PT->getPointeeType().isConstQualified();
    if (!ConstPointee)
      writeThrough(V, Written);
  }
  if (FD && FirstArg == 0)
    recordExternalCall(FD, CE, ArgValues, ObjectBefore ? &*ObjectBefore : nullptr);
  else if (FD && Method && FirstArg == 1)
    recordExternalCall(FD, CE, std::vector<HostValue>(ArgValues.begin() + 1, ArgValues.end()),
                       ObjectBefore ? &*ObjectBefore : nullptr);
  return HostValue::unknown("a value " + Name + " returns" + At);
}

bool definedInAnotherUnit(const FunctionDecl *FD, const SourceManager &SM) {
  // A function of the program's own code that this unit cannot run:
  // declared here (in the unit or a user header), defined in another unit.
  // A method too: the call says what is known of its object.
  // Not a pure virtual method: the call runs an override, which one the
  // object's type decides.
  return FD && !FD->hasBody() && !FD->isImplicit() && !FD->isPureVirtual() &&
         (FD->getIdentifier() || (isa<CXXMethodDecl>(FD) && FD->isOverloadedOperator())) &&
         !isa<CXXConstructorDecl, CXXDestructorDecl>(FD) && !FD->getBuiltinID() &&
         !SM.isInSystemHeader(SM.getFileLoc(FD->getLocation()));
}

bool HostEvaluator::definedInAnotherUnit(const FunctionDecl *FD) const {
  return host::definedInAnotherUnit(FD, SM);
}

bool HostEvaluator::callsAnotherUnit(const Stmt *S) const {
  return anyStatement(S, [&](const Stmt *X) {
    const auto *CE = dyn_cast<CallExpr>(X);
    return CE && definedInAnotherUnit(CE->getDirectCallee());
  });
}

void HostEvaluator::passedIntegers(const FunctionDecl *FD, const std::vector<HostValue> &Args,
                                   std::map<unsigned, std::uint64_t> &Integers,
                                   std::map<unsigned, Congruence> &Multiples) {
  for (unsigned I = 0; I < Args.size() && I < FD->getNumParams(); ++I) {
    QualType PT = FD->getParamDecl(I)->getType();
    if (!PT->isIntegralOrEnumerationType())
      continue;
    if (Args[I].K == HostValue::Int)
      Integers[I] = toType(Args[I], PT).Bits;
    else if (std::optional<Congruence> C = Args[I].congruence(); C && !Args[I].isChoice())
      Multiples[I] = *C;
  }
}

void HostEvaluator::recordExternalCall(const FunctionDecl *FD, const CallExpr *CE,
                                       const std::vector<HostValue> &Args,
                                       const HostValue *Object) {
  if (!definedInAnotherUnit(FD))
    return;
  // What is known of a method's object: who built it, its integer fields
  // (on each way of the branches its fields' choices were made by, as the
  // arguments': main.cpp's `test.threadBlockSize` is 128 where no
  // block-size option is given).
  auto SameObject = [](const ExternalCall &A, const ExternalCall &B) {
    const ObjectConstruction *X = A.ObjectBuiltBy.get(), *Y = B.ObjectBuiltBy.get();
    bool SameBuild = X == Y || (X && Y && X->Constructor == Y->Constructor &&
                                X->Integers == Y->Integers && X->Multiples == Y->Multiples);
    return SameBuild && A.ObjectFields == B.ObjectFields;
  };
  // A value chosen by a branch here is passed along each of its ways, as a
  // launch here would be split (reduction.cpp's `reduce<T>(size, threads,
  // ...)` with `threads` from `n < maxThreads * 2 ? nextPow2(...) :
  // maxThreads`): one call per way, the way in its context; past 16 ways,
  // one call with the integers alone.
  std::vector<HostValue> Values = Args;
  bool WithObject = Object && Object->K == HostValue::Record;
  if (WithObject)
    Values.push_back(*Object);
  std::vector<ValueWay> Ways = waysOf(Values, Values.size(), 16);
  bool WaysCut = Ways.empty();
  if (WaysCut)
    Ways.push_back(ValueWay{Values, {}});
  for (ValueWay &W : Ways) {
    ExternalCall Call;
    if (WithObject) {
      const HostValue &O = W.Values.back();
      Call.ObjectBuiltBy = O.BuiltBy;
      for (const HostField &F : O.Fields)
        if (F.Value.K == HostValue::Int && F.Decl->getIdentifier() &&
            F.Decl->getType()->isIntegralOrEnumerationType())
          Call.ObjectFields[F.Decl->getName().str()] = F.Value.Bits;
      W.Values.pop_back();
    }
    Call.Callee = FD->getCanonicalDecl();
    Call.WaysCut = WaysCut;
    Call.WithoutArguments = ArgumentlessRun;
    passedIntegers(FD, W.Values, Call.Integers, Call.Multiples);
    // One record per distinct binding: a loop that calls with the same
    // values every iteration is one call; a few dozen bindings are enough
    // to stand for a loop over sizes (each is a run of the callee
    // elsewhere). A call that leaves an integer parameter unknown is kept
    // past them: it stands for every value the known ones may miss
    // (reduction.cpp's main path passes the command line's `whichKernel`,
    // the only way to its kernels 8 and 9, after a shmoo loop's 32).
    bool LeavesOneUnknown = false;
    for (unsigned I = 0; I < FD->getNumParams(); ++I)
      if (FD->getParamDecl(I)->getType()->isIntegralOrEnumerationType() &&
          !Call.Integers.count(I))
        LeavesOneUnknown = true;
    unsigned Same = 0;
    bool Recorded = false;
    for (const ExternalCall &Prev : ExternalCalls) {
      if (Prev.Callee != Call.Callee || !SameObject(Prev, Call))
        continue;
      if ((Prev.Integers == Call.Integers && Prev.Multiples == Call.Multiples) || (++Same >= 32 && !LeavesOneUnknown)) {
        Recorded = true;
        break;
      }
    }
    if (Recorded)
      continue;
    Call.Location = where(CE);
    Call.Context = Context;
    Call.Context.insert(Call.Context.end(), W.Chosen.begin(), W.Chosen.end());
    ExternalCalls.push_back(std::move(Call));
  }
}

std::optional<HostValue> HostEvaluator::libraryCall(const FunctionDecl *FD,
                                                    const CallExpr *CE) {
  if (!FD->getIdentifier() || runnable(FD))
    return std::nullopt;
  llvm::StringRef Name = FD->getName();
  if (std::optional<HostValue> R = occupancyCall(Name, CE))
    return R;
  QualType T = CE->getType().getNonReferenceType();
  if ((Name == "min" || Name == "max") && CE->getNumArgs() == 2 &&
      T->isIntegralOrEnumerationType()) {
    return liftChoice(toType(eval(CE->getArg(0)), T), toType(eval(CE->getArg(1)), T),
                      [&](const HostValue &A, const HostValue &B) {
                        if (!A.known())
                          return A;
                        if (!B.known())
                          return B;
                        if (A.K != HostValue::Int || B.K != HostValue::Int)
                          return HostValue::unknown("");
                        values::IntegerType IT = values::integerTypeOf(T, Ctx);
                        bool Less = values::binary(BO_LT, A.Bits, B.Bits, IT,
                                                   values::IntegerType::boolean())
                                        .Bits.value_or(0);
                        return (Less == (Name == "min")) ? A : B;
                      });
  }
  if ((Name == "cudaGetDeviceProperties" || Name == "cudaGetDeviceProperties_v2") &&
      CE->getNumArgs() >= 1) {
    HostValue Target = eval(CE->getArg(0));
    for (unsigned I = 1; I < CE->getNumArgs(); ++I)
      eval(CE->getArg(I));
    if (Target.K == HostValue::Address) {
      HostValue Props;
      Props.K = HostValue::Record;
      Props.DeviceProperties = true;
      writeThrough(Target, Props);
    }
    return HostValue::unknown("the error code of " + Name.str());
  }
  if (Name == "cudaDeviceGetAttribute" && CE->getNumArgs() == 3) {
    HostValue Target = eval(CE->getArg(0));
    std::string Member;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(CE->getArg(1)->IgnoreParenImpCasts()))
      if (isa<EnumConstantDecl>(DRE->getDecl()))
        Member = memberOfAttribute(DRE->getDecl()->getName());
    eval(CE->getArg(1));
    eval(CE->getArg(2));
    HostValue V = HostValue::unknown("a device attribute read at run time (" + where(CE) + ")");
    if (!Member.empty()) {
      llvm::StringRef M(Member);
      unsigned Index = 0;
      if (M.ends_with("]")) {
        Index = M[M.size() - 2] - '0';
        M = M.take_until([](char C) { return C == '['; });
      }
      std::string Why;
      std::vector<std::int64_t> P = deviceProperty(M, Arch, Why);
      if (Index < P.size())
        V = HostValue::integer(values::fromSigned(P[Index], values::IntegerType::integer(32, true)));
      else
        V = HostValue::unknown(Why);
    }
    writeThrough(Target, V);
    return HostValue::unknown("the error code of cudaDeviceGetAttribute");
  }
  // The pitch of a pitched allocation, from its width in bytes: what
  // kernels taking `pitch / sizeof(T)` as their row stride are launched with.
  if (Name == "cudaMallocPitch" && CE->getNumArgs() == 4) {
    eval(CE->getArg(0));
    HostValue PitchAt = eval(CE->getArg(1));
    HostValue Width = eval(CE->getArg(2));
    eval(CE->getArg(3));
    HostValue Pitch = HostValue::unknown("the pitch of an allocation whose width is known only "
                                         "at run time (" + where(CE) + ")");
    // Whatever the width, a multiple of the pitch alignment.
    Pitch.Multiple = model::MallocPitchAlignmentBytes;
    if (Width.K == HostValue::Int)
      Pitch = HostValue::integer(model::mallocPitchBytes(Width.Bits));
    writeThrough(PitchAt, Pitch);
    return HostValue::unknown("the error code of cudaMallocPitch");
  }
  return std::nullopt;
}

void HostEvaluator::bindParameters(const FunctionDecl *FD, llvm::ArrayRef<const Expr *> Args,
                                   Frame &Callee) {
  std::string Name = FD->getNameAsString();
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    if (I >= Args.size()) {
      Cur.Vars[VarKey{Callee.Id, P}] = HostValue::unknown("a parameter of '" + Name + "'");
      continue;
    }
    const Expr *A = Args[I];
    if (P->getType()->isReferenceType()) {
      Place Pl = place(A);
      if (Pl.Valid && Pl.Path.empty()) {
        Callee.Refs[P] = Pl.Var;
        continue;
      }
    }
    HostValue V = eval(A);
    if (!V.known()) {
      // A choice stays one (each way is the caller's value on that way).
      HostValue Said =
          HostValue::unknown("a parameter of '" + Name + "' whose callers pass " + V.describe());
      // What is known of it (a multiple, the quantity it is) stays.
      if (V.isChoice()) {
        V.Why = Said.Why;
        V.Var.clear();
      } else {
        Said.setCongruence({V.Multiple, V.Residue});
        Said.Atom = V.Atom;
        Said.Offset = V.Offset;
        Said.Modulus = V.Modulus;
        V = std::move(Said);
      }
    }
    Cur.Vars[VarKey{Callee.Id, P}] = identified(toType(V, P->getType().getNonReferenceType()));
  }
  for (unsigned I = FD->getNumParams(); I < Args.size(); ++I)
    eval(Args[I]); // variadic arguments
}

bool HostEvaluator::mayLaunch(const Stmt *Root) const {
  return anyStatement(Root, [&](const Stmt *S) {
    if (isa<CUDAKernelCallExpr>(S))
      return true;
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      if (Sites.count(CE))
        return true;
      // Through a pointer the callee might launch; a function without a
      // body here (the C library, the runtime) cannot reach this unit's
      // launch sites.
      const FunctionDecl *Callee = CE->getDirectCallee();
      if (!Callee ? !isa<CXXPseudoDestructorExpr>(CE->getCallee())
                  : runnable(Callee) && mayLaunchFunction(Callee))
        return true;
    }
    if (const auto *CC = dyn_cast<CXXConstructExpr>(S))
      if (const CXXConstructorDecl *Ctor = CC->getConstructor())
        if (runnable(Ctor) && mayLaunchFunction(Ctor))
          return true;
    return false;
  });
}

bool HostEvaluator::mayLaunchFunction(const FunctionDecl *FD) const {
  FD = FD->getCanonicalDecl();
  auto [It, New] = MayLaunch.try_emplace(FD, true); // recursion: it may
  if (!New)
    return It->second;
  const FunctionDecl *Def = nullptr;
  bool Result = !FD->hasBody(Def) || !Def || mayLaunch(Def->getBody());
  MayLaunch[FD] = Result;
  return Result;
}

std::optional<HostValue>
HostEvaluator::withinLaunchFreeBudget(const FunctionDecl *Def,
                                      llvm::function_ref<HostValue()> Run) {
  // A call that cannot reach a launch runs on a small budget of its own:
  // past it, the state before the call comes back.
  if (LocalStepLimit || mayLaunchFunction(Def))
    return Run();
  HostState Before = Cur;
  std::vector<std::string> ContextBefore = Context;
  LocalStepLimit = Steps + Limits.MaxStepsLaunchFreeCall;
  LocalAborted = false;
  HostValue Result = Run();
  LocalStepLimit = 0;
  if (!LocalAborted)
    return Result;
  LocalAborted = false;
  Aborted = Exhausted;
  Cur = std::move(Before);
  Context = std::move(ContextBefore);
  return std::nullopt;
}

bool HostEvaluator::onStack(const FunctionDecl *FD) const {
  return std::any_of(Frames.begin(), Frames.end(), [&](const Frame &F) {
    return F.Function->getCanonicalDecl() == FD->getCanonicalDecl();
  });
}

HostValue HostEvaluator::callFunction(const FunctionDecl *FD, const CallExpr *CE,
                                      unsigned FirstArg) {
  const FunctionDecl *Def = nullptr;
  FD->hasBody(Def);
  if (std::optional<HostValue> Result =
          withinLaunchFreeBudget(Def, [&] { return runCall(Def, CE, FirstArg); }))
    return *Result;
  // Abandoned: the call is opaque.
  HostValue Opaque = opaqueCall(FD, CE, FirstArg);
  forgetAssignedIn(Def->getBody(), "a value " + functionName(Def) + " may change (" +
                                       where(CE) + "), too long to follow");
  return Opaque;
}

HostValue HostEvaluator::runCall(const FunctionDecl *Def, const CallExpr *CE,
                                 unsigned FirstArg) {
  std::optional<VarKey> Object;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    if (const Expr *Obj = MC->getImplicitObjectArgument())
      Object = objectOf(Obj);
  } else if (FirstArg == 1 && CE->getNumArgs() > 0) {
    Object = objectOf(CE->getArg(0));
  }
  // A lambda's captures are its enclosing function's variables, not
  // fields read through `this`.
  const auto *MD = dyn_cast<CXXMethodDecl>(Def);
  if (!MD || MD->isStatic() || MD->getParent()->isLambda())
    Object.reset();
  else
    Def = dynamicCallee(Def, Object);
  Frame F{Def, NextFrameId++, {}, {}, std::nullopt, {}, Object};
  std::vector<const Expr *> Args(CE->arg_begin(), CE->arg_end());
  bindParameters(Def, llvm::ArrayRef(Args).drop_front(std::min<size_t>(FirstArg, Args.size())), F);
  Context.push_back(functionName(Def) + " called at " + where(CE));
  Frames.push_back(std::move(F));
  runFunction(Def);
  std::optional<HostValue> Returned = std::move(frame().Returned);
  unsigned Id = frame().Id;
  Frames.pop_back();
  Context.pop_back();
  Cur.Vars.erase(Cur.Vars.lower_bound(VarKey{Id, nullptr}),
                 Cur.Vars.lower_bound(VarKey{Id + 1, nullptr}));
  if (!Returned)
    return HostValue::unknown("");
  return toType(*Returned, CE->getType().getNonReferenceType());
}

std::vector<const FunctionDecl *> HostEvaluator::kernelsOf(const HostValue &V) {
  std::vector<const FunctionDecl *> Kernels;
  if (V.K == HostValue::Functions)
    for (const FunctionDecl *F : V.Callees)
      if (F->hasAttr<CUDAGlobalAttr>())
        Kernels.push_back(F->getCanonicalDecl());
  return Kernels;
}

void HostEvaluator::recordLaunch(const LaunchSite &S, const CallExpr *CE) {
  LaunchRecord R;
  R.Context = Context;
  R.WithoutArguments = ArgumentlessRun;
  R.InWidenedIteration = WidenedDepth > 0;
  if (S.Kernel) {
    R.Kernels = {S.Kernel->getCanonicalDecl()};
  } else if (S.Callee) {
    HostValue K = eval(S.Callee);
    R.Kernels = kernelsOf(K);
    if (R.Kernels.empty())
      R.KernelsWhy = K.describe();
  }
  if (S.ConfigVar) {
    // cudaLaunchKernelEx: the fields of the cudaLaunchConfig_t.
    HostValue Config = HostValue::unknown("a cudaLaunchConfig_t not set on this path");
    if (auto K = keyOf(S.ConfigVar)) {
      Place P;
      P.Valid = true;
      P.Var = *K;
      Config = read(P, S.ConfigVar->getType());
    }
    auto Field = [&](llvm::StringRef Name) {
      if (Config.K == HostValue::Record)
        if (const HostValue *V = Config.field(Name))
          return *V;
      return Config.known() ? HostValue::unknown("the field " + Name.str() + " of '" +
                                                 S.ConfigVar->getNameAsString() +
                                                 "', which is not set")
                            : Config;
    };
    R.Grid = Field("gridDim");
    R.Block = Field("blockDim");
    R.SharedBytes = Field("dynamicSmemBytes");
    R.HasSharedBytes = true;
  } else {
    R.Grid = eval(S.Grid);
    R.Block = eval(S.Block);
    if (S.SharedBytes) {
      R.SharedBytes = eval(S.SharedBytes);
      R.HasSharedBytes = true;
    }
  }
  for (const Expr *A : S.Args)
    R.Args.push_back(eval(A));
  // The call's other operands (the stream, cudaLaunchKernel's argument
  // array) for what they may change.
  for (const Expr *A : CE->arguments())
    if (A != S.Grid && A != S.Block && A != S.SharedBytes && A != S.Callee &&
        std::find(S.Args.begin(), S.Args.end(), A) == S.Args.end() &&
        !isa<CXXDefaultArgExpr>(A))
      forgetAssignedIn(A, "a value changed at the launch at " + where(CE));
  Records[&S].push_back(std::move(R));
}

} // namespace warpcheck::analysis::host
