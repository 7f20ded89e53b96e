//===- WarpInterpreter.cpp - SIMT lockstep evaluation of a kernel ---------===//

#include "InterpreterImpl.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace warpcheck::analysis {

// ===================================================================
// Built-in variables and calls
// ===================================================================

Lanes WarpInterpreter::Impl::evalBuiltinVariable(llvm::StringRef Var,
                                                 llvm::StringRef Field) {
  unsigned Axis = Field == "x" ? 0 : Field == "y" ? 1 : Field == "z" ? 2 : 3;
  if (Axis == 3)
    return Lanes{};
  auto Pick = [Axis](const Dim3 &D) {
    return Axis == 0 ? D.X : Axis == 1 ? D.Y : D.Z;
  };
  if (Var == "threadIdx") {
    Lanes L;
    for (unsigned I = 0; I < WarpSize; ++I) {
      std::uint32_t V = Axis == 0 ? Tx[I] : Axis == 1 ? Ty[I] : Tz[I];
      L[I] = LaneValue::integer(V);
    }
    return L;
  }
  if (Var == "blockIdx")
    return splat(LaneValue::integer(Pick(Where.BlockIdx)));
  if (Var == "blockDim")
    return splat(LaneValue::integer(Pick(Launch.Block)));
  if (Var == "gridDim") {
    if (GridSampled)
      SampledRead.insert("gridDim");
    return splat(LaneValue::integer(Pick(Grid)));
  }
  return Lanes{};
}

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
  if (!FD->getIdentifier()) {
    // Operators and conversions: a user one with a body is run, a library
    // one (__half, __nv_bfloat16) reads or writes its operands.
    if (!FromSystemOrBuiltin && FD->hasBody())
      return inlineCall(FD, CE);
    return opaqueCall(FD, CE);
  }
  llvm::StringRef Name = FD->getName();
  auto PointeeOfArg0 = [&]() -> QualType {
    if (CE->getNumArgs() == 0)
      return QualType();
    return CE->getArg(0)->IgnoreParenImpCasts()->getType()->getPointeeType();
  };

  // Builtin variables reached through their accessors.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    llvm::StringRef Rec = MD->getParent()->getName();
    if (Rec.starts_with("__cuda_builtin_") && Name.starts_with("__fetch_builtin_")) {
      llvm::StringRef Var = Rec.drop_front(15).drop_back(2); // threadIdx
      return evalBuiltinVariable(Var, Name.drop_front(16));
    }
  }
  if (Name.starts_with("__nvvm_read_ptx_sreg_")) {
    llvm::StringRef Reg = Name.drop_front(21);
    static const struct { const char *Reg, *Var, *Field; } Map[] = {
        {"tid_x", "threadIdx", "x"},   {"tid_y", "threadIdx", "y"},
        {"tid_z", "threadIdx", "z"},   {"ctaid_x", "blockIdx", "x"},
        {"ctaid_y", "blockIdx", "y"},  {"ctaid_z", "blockIdx", "z"},
        {"ntid_x", "blockDim", "x"},   {"ntid_y", "blockDim", "y"},
        {"ntid_z", "blockDim", "z"},   {"nctaid_x", "gridDim", "x"},
        {"nctaid_y", "gridDim", "y"},  {"nctaid_z", "gridDim", "z"}};
    for (const auto &M : Map)
      if (Reg == M.Reg)
        return evalBuiltinVariable(M.Var, M.Field);
    if (Reg == "laneid") {
      Lanes L;
      for (unsigned I = 0; I < WarpSize; ++I)
        L[I] = LaneValue::integer(I);
      return L;
    }
    return Lanes{};
  }

  if (FromSystemOrBuiltin || FD->getBuiltinID()) {
    if (std::optional<Lanes> R = cooperativeGroupsCall(FD, CE))
      return *R;
    // Hints that return their first argument (likely/unlikely macros,
    // alignment promises).
    if ((Name == "__builtin_expect" || Name == "__builtin_expect_with_probability" ||
         Name == "__builtin_assume_aligned") &&
        CE->getNumArgs() >= 1) {
      Lanes V = eval(CE->getArg(0));
      for (unsigned I = 1; I < CE->getNumArgs(); ++I)
        eval(CE->getArg(I));
      if (Name != "__builtin_assume_aligned") {
        IntFormat F = formatOf(CE->getType());
        for (auto &L : V)
          if (L.K == LaneValue::Int)
            L.Bits = F.apply(L.Bits);
      }
      return V;
    }
    // Atomics: read-modify-write of the pointee (CUDA C++ Programming
    // Guide, "Atomic Functions").
    if (Name.starts_with("atomic") && CE->getNumArgs() >= 1 &&
        CE->getArg(0)->getType()->isPointerType()) {
      Lanes Ptr = eval(CE->getArg(0));
      for (unsigned I = 1; I < CE->getNumArgs(); ++I)
        eval(CE->getArg(I));
      recordAccess(CE, AccessOp::Atomic, Ptr, PointeeOfArg0());
      return Lanes{};
    }
    // Cache-hinted loads and stores (__ldg is the read-only data path).
    if ((Name == "__ldg" || Name == "__ldcg" || Name == "__ldca" ||
         Name == "__ldcs" || Name == "__ldlu" || Name == "__ldcv") &&
        CE->getNumArgs() == 1) {
      Lanes Ptr = eval(CE->getArg(0));
      recordTypedAccess(CE, AccessOp::Load, Ptr, PointeeOfArg0());
      return Lanes{};
    }
    if ((Name == "__stcg" || Name == "__stcs" || Name == "__stwb" ||
         Name == "__stwt") && CE->getNumArgs() == 2) {
      Lanes Ptr = eval(CE->getArg(0));
      eval(CE->getArg(1));
      recordTypedAccess(CE, AccessOp::Store, Ptr, PointeeOfArg0());
      return Lanes{};
    }
    // Integer helpers that index arithmetic uses.
    if ((Name == "min" || Name == "max" || Name == "umin" || Name == "umax" ||
         Name == "llmin" || Name == "llmax" || Name == "ullmin" ||
         Name == "ullmax") &&
        CE->getNumArgs() == 2 && CE->getType()->isIntegerType()) {
      Lanes A = eval(CE->getArg(0)), B = eval(CE->getArg(1));
      bool Signed = isSigned(CE->getType());
      Lanes R;
      bool IsMin = Name.contains("min");
      for (unsigned L = 0; L < WarpSize; ++L) {
        if (A[L].K != LaneValue::Int || B[L].K != LaneValue::Int)
          continue;
        bool Less = Signed ? std::int64_t(A[L].Bits) < std::int64_t(B[L].Bits)
                           : A[L].Bits < B[L].Bits;
        R[L] = (Less == IsMin) ? A[L] : B[L];
      }
      return R;
    }
    if ((Name == "abs" || Name == "labs" || Name == "llabs") &&
        CE->getNumArgs() == 1 && CE->getType()->isIntegerType()) {
      Lanes A = eval(CE->getArg(0));
      for (auto &L : A)
        if (L.K == LaneValue::Int && std::int64_t(L.Bits) < 0)
          L.Bits = normalize(0 - L.Bits, CE->getType());
      return A;
    }
    if ((Name == "__mul24" || Name == "__umul24") && CE->getNumArgs() == 2) {
      Lanes A = eval(CE->getArg(0)), B = eval(CE->getArg(1));
      return arith(BO_Mul, A, B, CE->getType(), CE->getType());
    }
    // Warp shuffles move values between lanes: __shfl_sync(mask, v, src).
    if ((Name == "__shfl_sync" || Name == "__shfl_xor_sync" ||
         Name == "__shfl_up_sync" || Name == "__shfl_down_sync") &&
        CE->getNumArgs() >= 3 && CE->getType()->isIntegerType()) {
      eval(CE->getArg(0));
      Lanes V = eval(CE->getArg(1));
      Lanes S = eval(CE->getArg(2));
      Lanes R;
      for (unsigned L = 0; L < WarpSize; ++L) {
        if (S[L].K != LaneValue::Int)
          continue;
        std::uint64_t Src;
        std::uint64_t Arg = S[L].Bits;
        if (Name == "__shfl_sync")
          Src = Arg % WarpSize;
        else if (Name == "__shfl_xor_sync")
          Src = (L ^ Arg) % WarpSize;
        else if (Name == "__shfl_up_sync")
          Src = L >= Arg ? L - Arg : L;
        else
          Src = L + Arg < WarpSize ? L + Arg : L;
        if (isBitSet(Active, static_cast<unsigned>(Src)))
          R[L] = V[Src];
      }
      return R;
    }
    return opaqueCall(FD, CE);
  }
  // A user __device__ function: run it with its parameters bound.
  if (FD->hasBody())
    return inlineCall(FD, CE);
  return opaqueCall(FD, CE);
}

namespace {
bool inCooperativeGroups(const DeclContext *DC) {
  for (; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "cooperative_groups")
        return true;
  return false;
}
} // namespace

std::optional<Lanes>
WarpInterpreter::Impl::cooperativeGroupsCall(const FunctionDecl *FD,
                                             const CallExpr *CE) {
  // The ranks and sizes of cooperative groups (CUDA C++ Programming Guide,
  // "Cooperative Groups"): functions of the thread's position, which index
  // arithmetic uses as it uses threadIdx.
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || !MD->getIdentifier() || !inCooperativeGroups(MD->getParent()) ||
      !CE->getType()->isIntegerType())
    return std::nullopt;
  // The group's type: the static type of the object the method is called
  // on (the method itself may be a base class's).
  const CXXRecordDecl *Group = MD->getParent();
  if (const auto *ME = dyn_cast<MemberExpr>(CE->getCallee()->IgnoreParenImpCasts())) {
    QualType T = ME->getBase()->IgnoreParenImpCasts()->getType();
    if (ME->isArrow() && T->isPointerType())
      T = T->getPointeeType();
    if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
      Group = RD;
  }
  llvm::StringRef Method = MD->getName(), Kind = Group->getName();
  std::uint64_t BlockThreads = Launch.Block.count();
  auto ThreadInBlock = [&](unsigned L) -> std::uint64_t {
    return Tx[L] + std::uint64_t(Ty[L]) * Launch.Block.X +
           std::uint64_t(Tz[L]) * Launch.Block.X * Launch.Block.Y;
  };
  auto PerLane = [&](auto F) {
    Lanes R;
    for (unsigned L = 0; L < WarpSize; ++L)
      R[L] = LaneValue::integer(normalize(static_cast<std::uint64_t>(F(L)), CE->getType()));
    return R;
  };
  if (Kind == "thread_block") {
    if (Method == "thread_rank")
      return PerLane(ThreadInBlock);
    if (Method == "size" || Method == "num_threads")
      return PerLane([&](unsigned) { return BlockThreads; });
    return std::nullopt;
  }
  if (Kind == "grid_group") {
    if (GridSampled)
      SampledRead.insert("gridDim");
    std::uint64_t BlockRank = Where.BlockIdx.X + std::uint64_t(Where.BlockIdx.Y) * Grid.X +
                              std::uint64_t(Where.BlockIdx.Z) * Grid.X * Grid.Y;
    if (Method == "thread_rank")
      return PerLane([&](unsigned L) { return BlockRank * BlockThreads + ThreadInBlock(L); });
    if (Method == "size" || Method == "num_threads")
      return PerLane([&](unsigned) { return Grid.count() * BlockThreads; });
    if (Method == "block_rank")
      return PerLane([&](unsigned) { return BlockRank; });
    if (Method == "num_blocks")
      return PerLane([&](unsigned) { return Grid.count(); });
    return std::nullopt;
  }
  if (Kind.contains("tile")) {
    // thread_block_tile<N> and the bases it is implemented with.
    const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Group);
    if (!Spec || Spec->getTemplateArgs().size() == 0 ||
        Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
      return std::nullopt;
    std::uint64_t Size = Spec->getTemplateArgs()[0].getAsIntegral().getZExtValue();
    if (Size == 0)
      return std::nullopt;
    if (Method == "thread_rank")
      return PerLane([&](unsigned L) { return ThreadInBlock(L) % Size; });
    if (Method == "size" || Method == "num_threads")
      return PerLane([&](unsigned) { return Size; });
    if (Method == "meta_group_rank")
      return PerLane([&](unsigned L) { return ThreadInBlock(L) / Size; });
    if (Method == "meta_group_size")
      return PerLane([&](unsigned) { return (BlockThreads + Size - 1) / Size; });
    return std::nullopt;
  }
  return std::nullopt;
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
  const FunctionDecl *Def = nullptr;
  const Stmt *Body = FD->getBody(Def);
  bool Arrow = false;
  unsigned ArgOffset = 0;
  const Expr *Obj = Def ? implicitObject(Def, CE, Arrow, ArgOffset) : nullptr;
  std::optional<LValue> Object;
  if (Obj)
    Object = objectLValue(Obj, Arrow);
  // A method is run when its object is in memory at a known address; on a
  // local object (registers) or through a pointer read from memory it is
  // treated like a library call.
  bool ObjectKnown = false;
  if (Object && Object->K == LValue::Mem)
    for (unsigned L = 0; L < WarpSize; ++L)
      if (isBitSet(Active, L) && Object->Addr[L].K == LaneValue::Pointer)
        ObjectKnown = true;
  bool IsInstance = isa_and_nonnull<CXXMethodDecl>(Def) &&
                    cast<CXXMethodDecl>(Def)->isInstance();
  if (!Body || !Def || Frames.size() > Limits.MaxCallDepth ||
      (IsInstance && !ObjectKnown) ||
      (isa<CXXMethodDecl>(Def) && cast<CXXMethodDecl>(Def)->getParent()->isLambda()))
    return opaqueCall(Def ? Def : FD, CE, Object, ArgOffset);
  Frame Callee;
  if (IsInstance)
    Callee.This = Object->Addr;
  Callee.ReturnsReference = Def->getReturnType()->isReferenceType();
  for (unsigned I = ArgOffset; I < CE->getNumArgs() && I - ArgOffset < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I - ArgOffset);
    Slot S;
    if (P->getType()->isReferenceType()) {
      S.IsReference = true;
      S.Ref = evalLValue(CE->getArg(I));
      if (S.Ref.K == LValue::Var) {
        // A reference to a caller's local: pass its value; writes through
        // it are not tracked back.
        S.IsReference = false;
        S.Val = readLValue(S.Ref, CE->getArg(I), P->getType().getNonReferenceType());
      }
    } else {
      S.Val = eval(CE->getArg(I));
    }
    Callee.Vars[P] = S;
  }
  Mask Saved = Active;
  Frames.push_back(std::move(Callee));
  exec(Body);
  Lanes Ret = frame().Returned;
  Frames.pop_back();
  Active = Saved;
  return Ret;
}

// ===================================================================
// Statements
// ===================================================================

void WarpInterpreter::Impl::splitByCondition(const Lanes &C, Mask Within,
                                             Mask &T, Mask &F, Mask &U) {
  T = F = U = 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!isBitSet(Within, L))
      continue;
    if (C[L].K == LaneValue::Int)
      (C[L].Bits ? T : F) |= (1u << L);
    else if (C[L].K == LaneValue::Pointer)
      T |= (1u << L); // a pointer into a region is non-null
    else
      U |= (1u << L);
  }
}

namespace {
/// Local variables assigned anywhere inside a statement.
void collectAssigned(const Stmt *S, std::set<const VarDecl *> &Out) {
  if (!S)
    return;
  auto VarOf = [](const Expr *E) -> const VarDecl * {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    return nullptr;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      if (const VarDecl *V = VarOf(BO->getLHS()))
        Out.insert(V);
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp())
      if (const VarDecl *V = VarOf(UO->getSubExpr()))
        Out.insert(V);
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        Out.insert(V);
  }
  for (const Stmt *Child : S->children())
    collectAssigned(Child, Out);
}
} // namespace

void WarpInterpreter::Impl::poisonAssigned(const Stmt *S, Mask Lanes) {
  if (!Lanes)
    return;
  std::set<const VarDecl *> Assigned;
  collectAssigned(S, Assigned);
  for (const VarDecl *V : Assigned) {
    auto It = frame().Vars.find(V);
    if (It == frame().Vars.end())
      continue;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (isBitSet(Lanes, L))
        It->second.Val[L] = LaneValue{};
  }
}

void WarpInterpreter::Impl::declare(const VarDecl *VD) {
  if (VD->hasAttr<CUDASharedAttr>() || VD->isStaticLocal() ||
      VD->hasGlobalStorage())
    return; // shared and static variables are memory regions, not registers
  Slot S;
  if (VD->getType()->isReferenceType()) {
    S.IsReference = true;
    if (VD->getInit())
      S.Ref = evalLValue(VD->getInit());
    if (S.Ref.K == LValue::Var) {
      S.IsReference = false;
      S.Val = readLValue(S.Ref, VD->getInit(), VD->getType().getNonReferenceType());
    }
  } else if (VD->getType()->isArrayType()) {
    // A local array lives in registers or local memory: its contents are
    // not tracked, but its address is a region of its own.
    Frame &F = frame();
    F.Vars.erase(VD);
    if (VD->getInit())
      eval(VD->getInit());
    return;
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
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
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
      if (frame().ReturnsReference) {
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
        // which value it really returns is not known.
        if (isBitSet(F.ReturnSet, L) && F.Returned[L] != R[L])
          F.Returned[L] = LaneValue{};
        else
          F.Returned[L] = R[L];
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

void WarpInterpreter::Impl::execIf(const IfStmt *If) {
  if (If->getInit())
    exec(If->getInit());
  if (const DeclStmt *CV = If->getConditionVariableDeclStmt())
    exec(CV);
  Mask Entry = Active;
  if (If->isConsteval()) {
    // `if consteval` is false at run time.
    if (If->getElse())
      exec(If->getElse());
    Active = Entry & ~removedLanes();
    return;
  }
  Lanes C = eval(If->getCond());
  Mask T, F, U;
  splitByCondition(C, Entry, T, F, U);
  // Lanes whose condition is data-dependent run both sides; variables the
  // two sides leave different become unknown for them.
  std::map<const VarDecl *, Slot> Before;
  Mask ExitedBefore = frame().Exited;
  LoopState LoopBefore;
  if (!frame().Loops.empty())
    LoopBefore = frame().Loops.back();
  if (U) {
    Before = frame().Vars;
    ++Uncertain;
  }
  Active = T | U;
  if (Active)
    exec(If->getThen());
  std::map<const VarDecl *, Slot> AfterThen;
  if (U) {
    AfterThen = frame().Vars;
    for (auto &[V, S] : frame().Vars) {
      auto B = Before.find(V);
      if (B == Before.end())
        continue;
      for (unsigned L = 0; L < WarpSize; ++L)
        if (isBitSet(U, L))
          S.Val[L] = B->second.Val[L];
    }
  }
  Active = F | U;
  if (Active && If->getElse())
    exec(If->getElse());
  if (U) {
    --Uncertain;
    for (auto &[V, S] : frame().Vars) {
      auto A = AfterThen.find(V);
      if (A == AfterThen.end())
        continue;
      for (unsigned L = 0; L < WarpSize; ++L)
        if (isBitSet(U, L) && S.Val[L] != A->second.Val[L])
          S.Val[L] = LaneValue{};
    }
    keepUncertainExits(U, ExitedBefore, LoopBefore);
  }
  Active = Entry & ~removedLanes();
}

void WarpInterpreter::Impl::keepUncertainExits(Mask U, Mask ExitedBefore,
                                               const LoopState &LoopBefore) {
  // `if (data) return;` (or break, continue) must not end the simulation of
  // the lanes that may not take it, or a guard on a value read from memory
  // would hide every access after it: those lanes go on, and what they do
  // from here on is marked as under a data-dependent condition.
  Frame &Fr = frame();
  Mask Returned = Fr.Exited & ~ExitedBefore & U;
  Fr.Exited &= ~Returned;
  Fr.UncertainLive |= Returned;
  if (!Fr.Loops.empty()) {
    LoopState &L = Fr.Loops.back();
    Mask Left = ((L.Broken & ~LoopBefore.Broken) |
                 (L.Continued & ~LoopBefore.Continued)) & U;
    L.Broken &= ~(Left & ~LoopBefore.Broken);
    L.Continued &= ~(Left & ~LoopBefore.Continued);
    L.UncertainLive |= Left;
  }
}

void WarpInterpreter::Impl::execLoop(const Stmt *Init, const Expr *Cond,
                                     const Stmt *CondVar, const Expr *Inc,
                                     const Stmt *Body, bool TestFirst,
                                     const Stmt *Loop) {
  Mask Entry = Active;
  if (Init)
    exec(Init);
  frame().Loops.push_back(LoopState{});
  Mask Running = Active;
  Mask UncertainExit = 0;
  unsigned Iteration = 0;
  bool First = true;
  while (Running && !Aborted) {
    Active = Running;
    if (TestFirst || !First) {
      if (CondVar)
        exec(CondVar);
      if (Cond) {
        Lanes C = eval(Cond);
        Mask T, F, U;
        splitByCondition(C, Running, T, F, U);
        // Lanes whose condition depends on data may stay: they are
        // simulated as if they did (or the body of every loop bounded by
        // a value read from memory would never be seen), marked as under
        // a data-dependent condition, and their loop variables are
        // unknown after the loop.
        UncertainExit |= U;
        frame().Loops.back().UncertainLive |= U;
        Running = T | U;
      }
    }
    First = false;
    if (!Running)
      break;
    // Past half the warp's step budget, loops stop at their next
    // iteration, so that what follows a deep loop nest is still simulated.
    bool OverBudget = Iteration > 0 && Steps > Limits.MaxSteps / 2;
    if (Iteration >= Limits.MaxLoopIterations || OverBudget) {
      // Long loops are sampled: accesses repeat with the same pattern in
      // most kernels; the lanes still inside leave with unknown values.
      if (TruncatedSeen.insert(Loop).second)
        Truncated.push_back(Loop->getSourceRange());
      if (Iteration < Limits.MaxLoopIterations && BudgetCutSeen.insert(Loop).second)
        BudgetCut.push_back(Loop->getSourceRange());
      UncertainExit |= Running;
      break;
    }
    Active = Running;
    frame().Loops.back().Continued = 0;
    exec(Body);
    Running &= ~(frame().Loops.back().Broken | frame().Exited);
    Active = Running;
    if (Inc && Running)
      eval(Inc);
    ++Iteration;
  }
  frame().Loops.pop_back();
  Active = UncertainExit;
  poisonAssigned(Loop, UncertainExit);
  Active = Entry & ~removedLanes();
}

void WarpInterpreter::Impl::execSwitch(const SwitchStmt *Sw) {
  if (Sw->getInit())
    exec(Sw->getInit());
  if (const DeclStmt *CV = Sw->getConditionVariableDeclStmt())
    exec(CV);
  Mask Entry = Active;
  Lanes C = eval(Sw->getCond());
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Sw->getBody());
  if (!Body) {
    Active = Entry;
    return;
  }
  // Which case each lane enters.
  Mask Matched = 0, Unknown = 0;
  std::map<const SwitchCase *, Mask> Entries;
  const DefaultStmt *Default = nullptr;
  for (const SwitchCase *SC = Sw->getSwitchCaseList(); SC; SC = SC->getNextSwitchCase()) {
    if (const auto *D = dyn_cast<DefaultStmt>(SC)) {
      Default = D;
      continue;
    }
    const auto *Case = cast<CaseStmt>(SC);
    Expr::EvalResult R;
    if (Case->getLHS()->isValueDependent() || !Case->getLHS()->EvaluateAsInt(R, Ctx))
      continue;
    std::uint64_t V = normalize(R.Val.getInt().getZExtValue(), Sw->getCond()->getType());
    Mask M = 0;
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (!isBitSet(Entry, L))
        continue;
      if (C[L].K != LaneValue::Int)
        Unknown |= 1u << L;
      else if (C[L].Bits == V)
        M |= 1u << L;
    }
    Entries[Case] = M;
    Matched |= M;
  }
  if (Default)
    Entries[Default] = Entry & ~Matched & ~Unknown;
  frame().Loops.push_back(LoopState{}); // `break` leaves the switch
  if (Unknown)
    ++Uncertain;
  Active = 0;
  std::function<void(const Stmt *)> Run = [&](const Stmt *S) {
    if (const auto *SC = dyn_cast<SwitchCase>(S)) {
      auto It = Entries.find(SC);
      if (It != Entries.end())
        Active |= It->second & ~frame().Loops.back().Broken & ~frame().Exited;
      if (Unknown)
        Active |= Unknown & ~frame().Loops.back().Broken & ~frame().Exited;
      Run(SC->getSubStmt());
      return;
    }
    exec(S);
  };
  for (const Stmt *S : Body->body()) {
    Run(S);
    if (Aborted)
      break;
  }
  if (Unknown)
    --Uncertain;
  frame().Loops.pop_back();
  Active = Entry & ~removedLanes();
}

void WarpInterpreter::Impl::runWarp(const FunctionDecl *Kernel,
                                     const WarpPosition &W) {
  Where = W;
  Steps = 0;
  Aborted = false;
  Uncertain = 0;
  Frames.clear();
  Grid = Launch.GridKnown ? Launch.Grid : Samples.AssumedGrid;
  GridSampled = !Launch.GridKnown;
  // Linear thread id -> (x, y, z): x fastest (CUDA C++ Programming Guide,
  // "Thread Hierarchy"); warp w holds linear ids 32w .. 32w + 31.
  Active = 0;
  std::uint64_t BlockThreads = Launch.Block.count();
  for (unsigned L = 0; L < WarpSize; ++L) {
    std::uint64_t Linear = std::uint64_t(W.WarpInBlock) * WarpSize + L;
    if (Linear >= BlockThreads)
      continue;
    Active |= 1u << L;
    Tx[L] = static_cast<std::uint32_t>(Linear % Launch.Block.X);
    Ty[L] = static_cast<std::uint32_t>((Linear / Launch.Block.X) % Launch.Block.Y);
    Tz[L] = static_cast<std::uint32_t>(Linear / (std::uint64_t(Launch.Block.X) * Launch.Block.Y));
  }
  Frame F;
  for (const ParmVarDecl *P : Kernel->parameters()) {
    Slot S;
    QualType T = P->getType();
    auto Bound = Launch.Arguments.find(P);
    if (T->isPointerType()) {
      std::int64_t Offset = 0;
      if (Bound != Launch.Arguments.end() && Bound->second.PointerOffsetBytes)
        Offset = *Bound->second.PointerOffsetBytes;
      S.Val = splat(LaneValue::pointer(regionFor(P, RegionKind::Global, nullptr),
                                       static_cast<std::uint64_t>(Offset)));
    } else if (T->isIntegerType()) {
      if (Bound != Launch.Arguments.end() && Bound->second.Integer)
        S.Val = splat(LaneValue::integer(normalize(
            static_cast<std::uint64_t>(*Bound->second.Integer), T)));
      else {
        S.Val = splat(LaneValue::integer(normalize(
            static_cast<std::uint64_t>(Samples.UnboundInteger), T)));
        S.IsReference = false;
        SampledParams.insert(P);
      }
    }
    F.Vars[P] = S;
  }
  Frames.push_back(std::move(F));
  exec(Kernel->getBody());
  LastWarpSteps = Steps;
}

WarpInterpreter::WarpInterpreter(ASTContext &Ctx, const LaunchConfig &Launch,
                                 const SampleValues &Samples,
                                 const InterpreterLimits &Limits,
                                 const std::map<const VarDecl *, ArrayLayout> &Layouts,
                                 RequestSink Sink)
    : P(new Impl(Ctx, Launch, Samples, Limits, Layouts, std::move(Sink))) {}
WarpInterpreter::~WarpInterpreter() { delete P; }
void WarpInterpreter::runWarp(const FunctionDecl *Kernel, const WarpPosition &Where) {
  P->runWarp(Kernel, Where);
}
std::uint64_t WarpInterpreter::stepsOfLastWarp() const { return P->LastWarpSteps; }
bool WarpInterpreter::sawUndefinedArithmetic() const {
  return P->UndefinedArithmetic;
}
const std::set<std::string> &WarpInterpreter::sampledSymbolsRead() const {
  return P->SampledRead;
}
const std::vector<SourceRange> &WarpInterpreter::truncatedLoops() const {
  return P->Truncated;
}
const std::vector<SourceRange> &WarpInterpreter::budgetTruncatedLoops() const {
  return P->BudgetCut;
}
const std::set<std::string> &WarpInterpreter::limitations() const {
  return P->Limitations;
}
const std::map<const Expr *, std::map<const Expr *, std::vector<std::int64_t>>> &
WarpInterpreter::capturedSubexpressions() const {
  return P->Captured;
}

} // namespace warpcheck::analysis
