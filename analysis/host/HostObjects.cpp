//===- HostObjects.cpp - objects of host code: constructors and `this` ----===//
//
// Host code that keeps a launch's shape in an object (the SDK's
// PiEstimator: `block.x = m_threadBlockSize` in its operator()): a
// constructor of the program's own code runs as a call does, on an object
// of its own (member initializers, a base's constructor, then the body),
// and a method called on a whole variable the evaluation follows runs with
// `this` pointing to it, a virtual one as the variable's class overrides
// it. A method another unit defines is run there on the object the calling
// unit describes (ExternalCall::ObjectBuiltBy, ObjectFields): objectFor
// builds it. Objects reached any other way (an element at an index known
// only at run time, a pointer not followed) leave `this` unknown.
//
//===----------------------------------------------------------------------===//

#include "HostEvaluator.h"

#include "clang/AST/DeclCXX.h"

using namespace clang;

namespace warpcheck::analysis::host {

std::optional<VarKey> HostEvaluator::objectOf(const Expr *Obj) {
  if (Obj->getType()->isPointerType()) {
    HostValue P = eval(Obj);
    if (P.K == HostValue::Address && P.Target.second)
      return P.Target;
    return std::nullopt;
  }
  // A base's method called on a derived object (`w.go()`, go a method of
  // w's base): the object is w.
  Place P = place(Obj->IgnoreParenBaseCasts());
  if (P.Valid && P.Path.empty())
    return P.Var;
  return std::nullopt;
}

const FunctionDecl *HostEvaluator::dynamicCallee(const FunctionDecl *FD,
                                                 std::optional<VarKey> Object) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || !MD->isVirtual() || !Object || !Object->second)
    return FD;
  // The variable's own type is the object's: a local or global object, or
  // one a constructor is building (its class).
  const CXXRecordDecl *RD = nullptr;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Object->second))
    RD = Ctor->getParent();
  else
    RD = Object->second->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD)
    return FD;
  const CXXMethodDecl *Override = MD->getCorrespondingMethodInClass(RD);
  const FunctionDecl *Def = nullptr;
  if (Override && Override->hasBody(Def) && Def)
    return Def;
  return FD;
}

HostValue HostEvaluator::runConstructor(const CXXConstructorDecl *Ctor,
                                        const CXXConstructExpr *CE) {
  const FunctionDecl *Def = nullptr;
  Ctor->hasBody(Def);
  const auto *Body = cast<CXXConstructorDecl>(Def);
  // The object under construction: a variable of a frame of its own,
  // named by the constructor (a temporary: the declaration that asked for
  // it copies its value).
  VarKey Object{NextFrameId++, Body};
  HostValue Empty;
  Empty.K = HostValue::Record;
  Cur.Vars[Object] = CE->requiresZeroInitialization() ? zeroOf(CE->getType()) : Empty;
  std::vector<const Expr *> Args(CE->arg_begin(), CE->arg_end());
  constructInto(Object, Body, [&](Frame &F) { bindParameters(Body, Args, F); }, where(CE));
  HostValue Value = Cur.Vars[Object];
  Cur.Vars.erase(Object);
  return Value;
}

void HostEvaluator::constructInto(VarKey Object, const CXXConstructorDecl *Body,
                                  llvm::function_ref<void(Frame &)> Bind,
                                  const std::string &CalledAt) {
  Frame F{Body, NextFrameId++, {}, {}, std::nullopt, {}, Object};
  Bind(F);
  Context.push_back(functionName(Body) + " called at " + CalledAt);
  Frames.push_back(std::move(F));
  auto Set = [&](const FieldDecl *Field, HostValue V) {
    Place P;
    P.Valid = true;
    P.Var = Object;
    P.Path.push_back(Place::Step{Field, 0});
    write(P, std::move(V));
  };
  // Member initializers first, in the order the class declares its
  // members (Sema's order of inits()), then the body.
  for (const CXXCtorInitializer *Init : Body->inits()) {
    if (Aborted || !Init->getInit())
      continue;
    if (Init->isMemberInitializer()) {
      const FieldDecl *Field = Init->getMember();
      HostValue V = eval(Init->getInit());
      if (Field->getType()->isReferenceType())
        V = HostValue::unknown("a reference member ('" + Field->getNameAsString() + "')");
      Set(Field, toType(V, Field->getType()));
    } else if (Init->isBaseInitializer()) {
      // A base's fields are the object's (a member expression names the
      // base's field through the derived-to-base cast of `this`).
      HostValue Base = eval(Init->getInit());
      if (Base.K == HostValue::Record)
        for (const HostField &BF : Base.Fields)
          Set(BF.Decl, BF.Value);
    } else {
      eval(Init->getInit());
    }
  }
  runFunction(Body);
  unsigned Id = frame().Id;
  Frames.pop_back();
  Context.pop_back();
  Cur.Vars.erase(Cur.Vars.lower_bound(VarKey{Id, nullptr}),
                 Cur.Vars.lower_bound(VarKey{Id + 1, nullptr}));
}

std::optional<VarKey> HostEvaluator::objectFor(const CXXMethodDecl *Root,
                                               const ExternalCall &Call) {
  if (Root->isStatic() || Root->getParent()->isLambda() ||
      (!Call.ObjectBuiltBy && Call.ObjectFields.empty()))
    return std::nullopt;
  const CXXConstructorDecl *Ctor =
      Call.ObjectBuiltBy ? Call.ObjectBuiltBy->Constructor : nullptr;
  const FunctionDecl *CtorDef = nullptr;
  if (Ctor && !(Ctor->hasBody(CtorDef) && CtorDef))
    return std::nullopt; // built by a constructor this unit cannot run
  VarKey Object{NextFrameId++, Ctor ? static_cast<const ValueDecl *>(Ctor) : Root};
  HostValue Empty;
  Empty.K = HostValue::Record;
  Cur.Vars[Object] = Empty;
  if (Ctor) {
    const auto *Body = cast<CXXConstructorDecl>(CtorDef);
    auto Bind = [&](Frame &F) {
      for (unsigned I = 0; I < Body->getNumParams(); ++I) {
        const ParmVarDecl *P = Body->getParamDecl(I);
        auto It = Call.ObjectBuiltBy->Integers.find(I);
        HostValue V = It != Call.ObjectBuiltBy->Integers.end() &&
                              P->getType()->isIntegralOrEnumerationType()
                          ? toType(HostValue::integer(It->second), P->getType())
                          : HostValue::unknown("a parameter of " + functionName(Body) +
                                               " whose caller at " + Call.Location +
                                               " passes a value not known");
        if (auto M = Call.ObjectBuiltBy->Multiples.find(I);
            !V.known() && M != Call.ObjectBuiltBy->Multiples.end())
          V.setCongruence(M->second);
        Cur.Vars[VarKey{F.Id, P}] = identified(V);
      }
    };
    constructInto(Object, Body, Bind, Call.Location);
  }
  for (const FieldDecl *F : Root->getParent()->fields()) {
    auto It = F->getIdentifier() ? Call.ObjectFields.find(F->getName().str())
                                 : Call.ObjectFields.end();
    if (It == Call.ObjectFields.end() || !F->getType()->isIntegralOrEnumerationType())
      continue;
    Place P;
    P.Valid = true;
    P.Var = Object;
    P.Path.push_back(Place::Step{F, 0});
    write(P, toType(HostValue::integer(It->second), F->getType()));
  }
  return Object;
}

} // namespace warpcheck::analysis::host
