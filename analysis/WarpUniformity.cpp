//===- WarpUniformity.cpp - values the compiler proves the same in a warp -===//

#include "warpcheck/analysis/WarpUniformity.h"

#include "CudaBuiltinVariables.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/StringSwitch.h"

#include <functional>
#include <optional>

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// How deep the analysis follows definitions, calls and conditions.
constexpr unsigned MaxDepth = 64;

/// The variable an assignment's target names: `v`, `v.f`, `v[i]` of a
/// local array; null for anything else (memory through a pointer).
const VarDecl *targetVariable(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return nullptr;
      E = ME->getBase();
      continue;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      if (!AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
        return nullptr;
      E = AS->getBase();
      continue;
    }
    return nullptr;
  }
}

bool isNonConstReference(QualType T) {
  return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
}

/// Uniform per warp (blockIdx, blockDim, gridDim) or not (threadIdx).
std::optional<bool> builtinVariableUniform(llvm::StringRef Name) {
  if (Name.empty())
    return std::nullopt;
  return Name != "threadIdx";
}

/// A loop's condition (null: none, or a range-for's) and body; both null
/// for a statement that is no loop.
std::pair<const Expr *, const Stmt *> loopParts(const Stmt *S) {
  if (const auto *F = dyn_cast<ForStmt>(S))
    return {F->getCond(), F->getBody()};
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return {W->getCond(), W->getBody()};
  if (const auto *D = dyn_cast<DoStmt>(S))
    return {D->getCond(), D->getBody()};
  if (const auto *R = dyn_cast<CXXForRangeStmt>(S))
    return {nullptr, R->getBody()};
  return {nullptr, nullptr};
}

} // namespace

WarpUniformity::WarpUniformity(ASTContext &Ctx) : Ctx(Ctx) {}
WarpUniformity::~WarpUniformity() = default;

bool WarpUniformity::isUniform(const Expr *E, llvm::ArrayRef<InlinedCall> Calls) {
  return E && value(E, Calls, E);
}

const Stmt *WarpUniformity::parentOf(const Stmt *S) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    if (const auto *P = Parents[0].get<Stmt>())
      return P;
    // A variable's initializer: the variable, then its DeclStmt.
    const auto *D = Parents[0].get<Decl>();
    if (!D || isa<FunctionDecl>(D))
      return nullptr;
    Parents = Ctx.getParents(*D);
  }
  return nullptr;
}

namespace {
bool contains(const Stmt *Region, const Stmt *S, const std::function<const Stmt *(const Stmt *)> &Up) {
  for (const Stmt *P = S; P; P = Up(P))
    if (P == Region)
      return true;
  return false;
}
} // namespace

bool WarpUniformity::uniformControl(const Stmt *Site, const Stmt *Use,
                                    llvm::ArrayRef<InlinedCall> Calls) {
  auto Up = [this](const Stmt *S) { return parentOf(S); };
  // A divergent condition around Site is harmless for a use inside the same
  // branch (or loop): only where the paths join do the lanes' values part.
  auto Harmless = [&](const Stmt *Region) { return Use && contains(Region, Use, Up); };
  const Stmt *Child = Site;
  for (const Stmt *P = parentOf(Site); P; Child = P, P = parentOf(P)) {
    const Expr *Cond = nullptr;
    const Stmt *Region = Child;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child == If->getThen() || Child == If->getElse())
        Cond = If->getCond();
    } else if (const auto *Sw = dyn_cast<SwitchStmt>(P)) {
      if (Child == Sw->getBody())
        Cond = Sw->getCond();
    } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (Child == CO->getTrueExpr() || Child == CO->getFalseExpr())
        Cond = CO->getCond();
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && Child == BO->getRHS())
        Cond = BO->getLHS();
    } else if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P)) {
      const Expr *LoopCond = loopParts(P).first;
      bool Uniform = (!LoopCond || value(LoopCond, Calls, LoopCond)) && loopExitsUniform(P, Calls);
      if (!Uniform && !Harmless(P))
        return false;
      continue;
    }
    if (Cond && !value(Cond, Calls, Cond) && !Harmless(Region))
      return false;
  }
  return true;
}

bool WarpUniformity::loopExitsUniform(const Stmt *Loop, llvm::ArrayRef<InlinedCall> Calls) {
  const Stmt *Body = loopParts(Loop).second;
  std::vector<const Stmt *> Exits;
  std::function<void(const Stmt *, bool)> Collect = [&](const Stmt *S, bool Nested) {
    if (!S)
      return;
    if (isa<ReturnStmt, GotoStmt>(S) || (!Nested && isa<BreakStmt, ContinueStmt>(S)))
      Exits.push_back(S);
    bool Inner = Nested || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S);
    for (const Stmt *C : S->children())
      Collect(C, Inner && S != Body);
  };
  Collect(Body, false);
  // An exit taken by some lanes only: the lanes leave the loop at different
  // iterations. Conditions are checked up to the loop, not beyond.
  auto Up = [this, Loop](const Stmt *S) -> const Stmt * {
    const Stmt *P = parentOf(S);
    return P == Loop ? nullptr : P;
  };
  for (const Stmt *X : Exits) {
    const Stmt *Child = X;
    for (const Stmt *P = Up(X); P; Child = P, P = Up(P)) {
      const Expr *Cond = nullptr;
      if (const auto *If = dyn_cast<IfStmt>(P))
        Cond = Child == If->getCond() ? nullptr : If->getCond();
      else if (const auto *Sw = dyn_cast<SwitchStmt>(P))
        Cond = Sw->getCond();
      if (Cond && !value(Cond, Calls, Cond))
        return false;
    }
  }
  return true;
}

const WarpUniformity::FunctionDefs &WarpUniformity::defsOf(const FunctionDecl *F) {
  auto It = Defs.find(F);
  if (It != Defs.end())
    return It->second;
  FunctionDefs &Out = Defs[F];
  auto Opaque = [&](const Expr *E) {
    if (const VarDecl *V = targetVariable(E))
      Out[V].Opaque = true;
  };
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp())
        if (const VarDecl *V = targetVariable(BO->getLHS()))
          Out[V].Defs.push_back({BO->getRHS(), BO});
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp()) {
        if (const VarDecl *V = targetVariable(UO->getSubExpr()))
          Out[V].Defs.push_back({nullptr, UO});
      } else if (UO->getOpcode() == UO_AddrOf) {
        Opaque(UO->getSubExpr());
      }
    } else if (const auto *CE = dyn_cast<ImplicitCastExpr>(S)) {
      if (CE->getCastKind() == CK_ArrayToPointerDecay)
        Opaque(CE->getSubExpr());
    } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D)) {
          if (V->getInit() && !V->getType()->isReferenceType())
            Out[V].Defs.push_back({V->getInit(), DS});
          if (V->getInit() && isNonConstReference(V->getType()))
            Opaque(V->getInit());
        }
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S); OC && OC->isAssignmentOp() &&
                                                              OC->getNumArgs() == 2) {
        if (const VarDecl *V = targetVariable(OC->getArg(0)))
          Out[V].Defs.push_back({OC->getArg(1), OC});
      } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
        const auto *MD = MC->getMethodDecl();
        if (MD && !MD->isConst())
          Opaque(MC->getImplicitObjectArgument());
      }
      if (const FunctionDecl *FD = Call->getDirectCallee())
        for (unsigned I = 0; I < Call->getNumArgs() && I < FD->getNumParams(); ++I)
          if (isNonConstReference(FD->getParamDecl(I)->getType()))
            Opaque(Call->getArg(I));
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(F->getBody());
  return Out;
}

const Expr *WarpUniformity::argumentFor(const ParmVarDecl *P, llvm::ArrayRef<InlinedCall> Calls) {
  const auto *F = dyn_cast<FunctionDecl>(P->getDeclContext());
  if (!F || Calls.empty() || !Calls[0].Call)
    return nullptr;
  const FunctionDecl *Callee = Calls[0].Call->getDirectCallee();
  if (!Callee || Callee->getCanonicalDecl() != F->getCanonicalDecl())
    return nullptr;
  unsigned I = P->getFunctionScopeIndex() + Calls[0].ArgOffset;
  return I < Calls[0].Call->getNumArgs() ? Calls[0].Call->getArg(I) : nullptr;
}

bool WarpUniformity::argumentOf(const ParmVarDecl *P, llvm::ArrayRef<InlinedCall> Calls,
                                bool AsLValue) {
  const Expr *Arg = argumentFor(P, Calls);
  if (!Arg)
    return false;
  return AsLValue ? storedValue(Arg, Calls.drop_front(), Arg) : value(Arg, Calls.drop_front(), Arg);
}

WarpUniformity::CallChain WarpUniformity::chainOf(llvm::ArrayRef<InlinedCall> Calls) {
  CallChain Chain;
  for (const InlinedCall &C : Calls)
    Chain.push_back(C.Call);
  return Chain;
}

bool WarpUniformity::variable(const VarDecl *V, llvm::ArrayRef<InlinedCall> Calls, const Stmt *Use) {
  if (V->hasGlobalStorage())
    return false; // a value read from memory
  auto Key = std::make_pair(V, Calls.size());
  if (InProgress.count(Key))
    return true; // the value flows round a loop: decided by its other definitions
  auto Known = std::make_tuple(V, chainOf(Calls), Use);
  auto Cached = Variables.find(Known);
  if (Cached != Variables.end())
    return Cached->second;
  bool Outermost = InProgress.empty();
  const auto *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!F || !F->getBody())
    return false;
  InProgress.insert(Key);
  bool Uniform = true;
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    Uniform = F->hasAttr<CUDAGlobalAttr>() ||
              argumentOf(P, Calls, V->getType()->isReferenceType());
  if (Uniform) {
    const FunctionDefs &All = defsOf(F);
    auto It = All.find(V);
    if (It != All.end()) {
      Uniform = !It->second.Opaque;
      for (const Def &D : It->second.Defs) {
        if (!Uniform)
          break;
        Uniform = (!D.Value || value(D.Value, Calls, D.Site)) && uniformControl(D.Site, Use, Calls);
      }
    }
  }
  InProgress.erase(Key);
  if (!Uniform || Outermost)
    Variables[Known] = Uniform;
  return Uniform;
}

bool WarpUniformity::storedValue(const Expr *L, llvm::ArrayRef<InlinedCall> Calls, const Stmt *Use) {
  L = L->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(L)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return true; // an enumerator or a function
    if (V->getType()->isReferenceType()) {
      if (const auto *P = dyn_cast<ParmVarDecl>(V))
        return argumentOf(P, Calls, true);
      return V->getInit() && storedValue(V->getInit(), Calls, Use);
    }
    return variable(V, Calls, DRE);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(L))
    return !ME->isArrow() && storedValue(ME->getBase(), Calls, Use);
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(L))
    return value(MT->getSubExpr(), Calls, Use);
  if (isa<PseudoObjectExpr>(L))
    return value(L, Calls, Use);
  return false; // memory: a load
}

bool WarpUniformity::address(const Expr *L, llvm::ArrayRef<InlinedCall> Calls, const Stmt *Use) {
  L = L->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(L)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->getType()->isReferenceType())
      return true; // a variable's own storage
    if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
      const Expr *Arg = argumentFor(P, Calls); // the object the caller binds
      return Arg && address(Arg, Calls.drop_front(), Arg);
    }
    return V->getInit() && address(V->getInit(), Calls, Use);
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(L))
    return value(AS->getBase(), Calls, Use) && value(AS->getIdx(), Calls, Use);
  if (const auto *UO = dyn_cast<UnaryOperator>(L))
    return UO->getOpcode() == UO_Deref && value(UO->getSubExpr(), Calls, Use);
  if (const auto *ME = dyn_cast<MemberExpr>(L))
    return ME->isArrow() ? value(ME->getBase(), Calls, Use) : address(ME->getBase(), Calls, Use);
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(L))
    return value(MT->getSubExpr(), Calls, Use);
  return false;
}

bool WarpUniformity::call(const CallExpr *CE, llvm::ArrayRef<InlinedCall> Calls, const Stmt *Use) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return false;
  auto AllArguments = [&](unsigned From) {
    for (unsigned I = From; I < CE->getNumArgs(); ++I)
      if (!value(CE->getArg(I), Calls, Use))
        return false;
    return true;
  };
  // threadIdx converted to dim3/uint3, or read through an accessor.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    if (auto B = builtinVariableUniform(builtinVariableName(MC->getImplicitObjectArgument())))
      return *B;
  llvm::StringRef Name = FD->getIdentifier() ? FD->getName() : "";
  if (Name.consume_front("__nvvm_read_ptx_sreg_"))
    return !(Name.starts_with("tid") || Name.starts_with("laneid") || Name.starts_with("lanemask") ||
             Name.starts_with("clock") || Name.starts_with("globaltimer"));
  // Warp votes and reductions give every lane the same result.
  if (llvm::StringSwitch<bool>(Name)
          .Cases("__ballot_sync", "__any_sync", "__all_sync", "__activemask", "__ballot", "__any",
                 "__all", true)
          .StartsWith("__reduce_", true)
          .StartsWith("__nvvm_vote", true)
          .Default(false))
    return true;
  const SourceManager &SM = Ctx.getSourceManager();
  bool Library = FD->getBuiltinID() != 0 || SM.isInSystemHeader(FD->getLocation());
  if (Library)
    return llvm::StringSwitch<bool>(Name)
               .Cases("min", "max", "umin", "umax", "llmin", "llmax", "ullmin", "ullmax", true)
               .Cases("abs", "labs", "llabs", "__mul24", "__umul24", "__popc", "__popcll", true)
               .Cases("__clz", "__clzll", "__ffs", "__ffsll", "__brev", true)
               .Default(false) &&
           AllArguments(0);
  // A user function run inline: its result is uniform when every return is,
  // under uniform conditions, with its parameters bound to these arguments.
  const FunctionDecl *Def = nullptr;
  const Stmt *Body = FD->getBody(Def);
  if (!Body || isa<CXXMethodDecl>(Def) || Depth > MaxDepth / 2)
    return false;
  std::vector<InlinedCall> Inner = {{CE, 0}};
  Inner.insert(Inner.end(), Calls.begin(), Calls.end());
  std::vector<const ReturnStmt *> Returns;
  std::function<void(const Stmt *)> Collect = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *R = dyn_cast<ReturnStmt>(S))
      Returns.push_back(R);
    for (const Stmt *C : S->children())
      Collect(C);
  };
  Collect(Body);
  if (Returns.empty())
    return false;
  for (const ReturnStmt *R : Returns)
    if (!R->getRetValue() || !value(R->getRetValue(), Inner, R) ||
        !uniformControl(R, nullptr, Inner))
      return false;
  return true;
}

bool WarpUniformity::value(const Expr *E, llvm::ArrayRef<InlinedCall> Calls, const Stmt *Use) {
  if (!E || E->isValueDependent() || E->isTypeDependent() || Depth > MaxDepth)
    return false;
  struct Deeper {
    unsigned &D;
    explicit Deeper(unsigned &D) : D(++D) {}
    ~Deeper() { --D; }
  } Guard(Depth);
  E = E->IgnoreParens();
  if (E->isPRValue() && !E->HasSideEffects(Ctx) && E->isEvaluatable(Ctx))
    return true; // a constant
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
      return storedValue(CE->getSubExpr(), Calls, Use);
    case CK_ArrayToPointerDecay:
      return address(CE->getSubExpr(), Calls, Use);
    case CK_FunctionToPointerDecay:
      return true;
    default:
      return value(CE->getSubExpr(), Calls, Use);
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf)
      return address(UO->getSubExpr(), Calls, Use);
    if (UO->getOpcode() == UO_Deref)
      return false; // a load
    if (UO->isIncrementDecrementOp())
      return storedValue(UO->getSubExpr(), Calls, Use);
    return value(UO->getSubExpr(), Calls, Use);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma || BO->getOpcode() == BO_Assign)
      return value(BO->getRHS(), Calls, Use);
    if (BO->isCompoundAssignmentOp())
      return storedValue(BO->getLHS(), Calls, Use) && value(BO->getRHS(), Calls, Use);
    return value(BO->getLHS(), Calls, Use) && value(BO->getRHS(), Calls, Use);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return value(CO->getCond(), Calls, Use) && value(CO->getTrueExpr(), Calls, Use) &&
           value(CO->getFalseExpr(), Calls, Use);
  if (const auto *BC = dyn_cast<BinaryConditionalOperator>(E))
    return value(BC->getCommon(), Calls, Use) && value(BC->getFalseExpr(), Calls, Use);
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E)) {
    // threadIdx.x and friends: MS properties of clang's builtin structs.
    if (const auto *MP = dyn_cast<MSPropertyRefExpr>(PO->getSyntacticForm()->IgnoreParens()))
      if (auto B = builtinVariableUniform(builtinVariableName(MP->getBaseExpr())))
        return *B;
    return PO->getResultExpr() && value(PO->getResultExpr(), Calls, Use);
  }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return call(CE, Calls, Use);
  if (isa<DeclRefExpr, MemberExpr, ArraySubscriptExpr>(E))
    return storedValue(E, Calls, Use);
  if (const auto *FE = dyn_cast<FullExpr>(E))
    return value(FE->getSubExpr(), Calls, Use);
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    return value(MT->getSubExpr(), Calls, Use);
  if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
    return value(BT->getSubExpr(), Calls, Use);
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return value(DA->getExpr(), Calls, Use);
  if (const auto *CC = dyn_cast<CXXConstructExpr>(E)) {
    for (const Expr *A : CC->arguments())
      if (!value(A, Calls, Use))
        return false;
    return true;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    for (const Expr *I : IL->inits())
      if (!value(I, Calls, Use))
        return false;
    return true;
  }
  return isa<UnaryExprOrTypeTraitExpr, IntegerLiteral, FloatingLiteral, CharacterLiteral,
             CXXBoolLiteralExpr, CXXNullPtrLiteralExpr, GNUNullExpr>(E);
}

bool WarpUniformity::isResultUsed(const Expr *E, llvm::ArrayRef<InlinedCall> Calls) {
  const Stmt *Child = E;
  for (const Stmt *P = parentOf(E); P; Child = P, P = parentOf(P)) {
    if (isa<ParenExpr, ImplicitCastExpr, FullExpr, MaterializeTemporaryExpr>(P))
      continue;
    if (const auto *C = dyn_cast<ExplicitCastExpr>(P))
      return !C->getType()->isVoidType();
    if (isa<CompoundStmt, SwitchCase, LabelStmt, AttributedStmt>(P))
      return false;
    if (const auto *If = dyn_cast<IfStmt>(P))
      return Child == If->getCond();
    if (const auto *F = dyn_cast<ForStmt>(P))
      return Child != F->getInc() && Child != F->getBody() && Child != F->getInit();
    if (const auto *W = dyn_cast<WhileStmt>(P))
      return Child != W->getBody();
    if (const auto *D = dyn_cast<DoStmt>(P))
      return Child != D->getBody();
    if (const auto *BO = dyn_cast<BinaryOperator>(P))
      return !(BO->getOpcode() == BO_Comma && Child == BO->getLHS());
    if (isa<ReturnStmt>(P))
      return Calls.empty() || !Calls[0].Call || isResultUsed(Calls[0].Call, Calls.drop_front());
    return true;
  }
  return true;
}

model::AtomicTraits WarpUniformity::atomicTraits(const CallExpr *CE, const FunctionDecl *Callee,
                                                 llvm::ArrayRef<InlinedCall> Calls) {
  using model::AtomicOperation;
  auto Key = std::make_pair(CE, chainOf(Calls));
  auto Cached = Atomics.find(Key);
  if (Cached != Atomics.end())
    return Cached->second;
  model::AtomicTraits &T = Atomics[Key];
  llvm::StringRef Name = Callee && Callee->getIdentifier() ? Callee->getName() : "";
  if (!Name.consume_back("_block"))
    Name.consume_back("_system");
  T.Operation = llvm::StringSwitch<AtomicOperation>(Name)
                    .Case("atomicAdd", AtomicOperation::Add)
                    .Case("atomicSub", AtomicOperation::Sub)
                    .Case("atomicMin", AtomicOperation::Min)
                    .Case("atomicMax", AtomicOperation::Max)
                    .Case("atomicAnd", AtomicOperation::And)
                    .Case("atomicOr", AtomicOperation::Or)
                    .Case("atomicXor", AtomicOperation::Xor)
                    .Case("atomicExch", AtomicOperation::Exchange)
                    .Case("atomicCAS", AtomicOperation::CompareAndSwap)
                    .Case("atomicInc", AtomicOperation::Increment)
                    .Case("atomicDec", AtomicOperation::Decrement)
                    .Default(AtomicOperation::Other);
  if (CE->getNumArgs() == 0)
    return T;
  QualType V = CE->getArg(0)->IgnoreParenImpCasts()->getType()->getPointeeType();
  if (!V.isNull()) {
    V = V.getCanonicalType();
    std::uint64_t Bytes = V->isIncompleteType() ? 0 : Ctx.getTypeSizeInChars(V).getQuantity();
    if (V->isIntegerType() && !V->isBooleanType() && (Bytes == 4 || Bytes == 8))
      T.Type = Bytes == 4 ? model::AtomicValueType::Int32 : model::AtomicValueType::Int64;
    else if (V->isRealFloatingType() || V->isRecordType() || V->isVectorType())
      T.Type = model::AtomicValueType::FloatingPoint; // __half, __half2, float2, ...
  }
  T.UniformAddress = isUniform(CE->getArg(0), Calls);
  unsigned Operand = T.Operation == AtomicOperation::CompareAndSwap ? 2 : 1;
  T.UniformOperand = Operand < CE->getNumArgs() && isUniform(CE->getArg(Operand), Calls);
  if (Operand < CE->getNumArgs()) {
    Expr::EvalResult One;
    const Expr *Arg = CE->getArg(Operand)->IgnoreParenImpCasts();
    T.UnitOperand = !Arg->isValueDependent() && Arg->EvaluateAsInt(One, Ctx) &&
                    One.Val.getInt() == 1;
  }
  T.ResultUsed = isResultUsed(CE, Calls);
  return T;
}

} // namespace warpcheck::analysis
