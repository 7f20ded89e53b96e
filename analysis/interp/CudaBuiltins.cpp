//===- CudaBuiltins.cpp - CUDA's built-in variables and functions --------===//
//
// What CUDA itself provides: the thread's position (threadIdx and friends,
// their accessors and the special registers behind them), the ranks and
// sizes of cooperative groups, and the library functions whose effect on
// index arithmetic or memory is known: hints, atomics, cache-hinted loads
// and stores, integer helpers and warp shuffles.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace warpcheck::analysis {

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

std::optional<Lanes>
WarpInterpreter::Impl::threadPositionCall(const FunctionDecl *FD) {
  llvm::StringRef Name = FD->getName();
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
  return std::nullopt;
}

Lanes WarpInterpreter::Impl::libraryCall(const FunctionDecl *FD,
                                         const CallExpr *CE) {
  llvm::StringRef Name = FD->getName();
  auto PointeeOfArg0 = [&]() -> QualType {
    if (CE->getNumArgs() == 0)
      return QualType();
    return CE->getArg(0)->IgnoreParenImpCasts()->getType()->getPointeeType();
  };
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

} // namespace warpcheck::analysis
