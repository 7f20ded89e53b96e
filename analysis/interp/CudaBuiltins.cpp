//===- CudaBuiltins.cpp - CUDA's built-in variables and functions --------===//
//
// What CUDA itself provides: the thread's position (threadIdx and friends,
// their accessors and the special registers behind them; the ranks and
// sizes of cooperative groups are in CooperativeGroups.cpp), and the
// library functions whose effect on
// index arithmetic or memory is known: hints, atomics, cache-hinted loads
// and stores, integer helpers and warp shuffles. Special registers and
// library functions are tables keyed by the callee's name, each entry the
// handler that evaluates the call.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "CudaAtomics.h"
#include "CudaBuiltinVariables.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace warpcheck::analysis {

// ===================================================================
// The thread's position: built-in variables and special registers
// ===================================================================

namespace {

/// The special registers that clang's CUDA headers read the built-in
/// variables from (__nvvm_read_ptx_sreg_<register>).
constexpr llvm::StringLiteral SpecialRegisterPrefix = "__nvvm_read_ptx_sreg_";

struct SpecialRegister {
  BuiltinVariable Var;
  unsigned Axis;
};

const llvm::StringMap<SpecialRegister> &specialRegisters() {
  using V = BuiltinVariable;
  static const llvm::StringMap<SpecialRegister> Table = {
      {"__nvvm_read_ptx_sreg_tid_x", {V::ThreadIdx, 0}},
      {"__nvvm_read_ptx_sreg_tid_y", {V::ThreadIdx, 1}},
      {"__nvvm_read_ptx_sreg_tid_z", {V::ThreadIdx, 2}},
      {"__nvvm_read_ptx_sreg_ctaid_x", {V::BlockIdx, 0}},
      {"__nvvm_read_ptx_sreg_ctaid_y", {V::BlockIdx, 1}},
      {"__nvvm_read_ptx_sreg_ctaid_z", {V::BlockIdx, 2}},
      {"__nvvm_read_ptx_sreg_ntid_x", {V::BlockDim, 0}},
      {"__nvvm_read_ptx_sreg_ntid_y", {V::BlockDim, 1}},
      {"__nvvm_read_ptx_sreg_ntid_z", {V::BlockDim, 2}},
      {"__nvvm_read_ptx_sreg_nctaid_x", {V::GridDim, 0}},
      {"__nvvm_read_ptx_sreg_nctaid_y", {V::GridDim, 1}},
      {"__nvvm_read_ptx_sreg_nctaid_z", {V::GridDim, 2}},
      {"__nvvm_read_ptx_sreg_laneid", {V::LaneId, 0}}};
  return Table;
}

std::optional<BuiltinVariable> builtinVariableNamed(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<BuiltinVariable>>(Name)
      .Case("threadIdx", BuiltinVariable::ThreadIdx)
      .Case("blockIdx", BuiltinVariable::BlockIdx)
      .Case("blockDim", BuiltinVariable::BlockDim)
      .Case("gridDim", BuiltinVariable::GridDim)
      .Default(std::nullopt);
}

} // namespace

Lanes WarpInterpreter::Impl::evalBuiltinVariable(llvm::StringRef Var,
                                                 llvm::StringRef Field) {
  std::optional<unsigned> Axis = axisNamed(Field);
  std::optional<BuiltinVariable> V = builtinVariableNamed(Var);
  if (!Axis || !V)
    return Lanes{};
  return builtinVariable(*V, *Axis);
}

Lanes WarpInterpreter::Impl::builtinVariable(BuiltinVariable V, unsigned Axis) {
  auto Pick = [Axis](const Dim3 &D) {
    return Axis == 0 ? D.X : Axis == 1 ? D.Y : D.Z;
  };
  switch (V) {
  case BuiltinVariable::ThreadIdx: {
    const auto &Index = Axis == 0 ? Tx : Axis == 1 ? Ty : Tz;
    Lanes L;
    for (unsigned I = 0; I < WarpSize; ++I)
      L[I] = LaneValue::integer(Index[I]);
    return L;
  }
  case BuiltinVariable::BlockIdx:
    return splat(LaneValue::integer(Pick(Where.BlockIdx)));
  case BuiltinVariable::BlockDim:
    return splat(LaneValue::integer(Pick(Launch.Block)));
  case BuiltinVariable::GridDim:
    if (GridSampled)
      SampledRead.insert("gridDim");
    return splat(LaneValue::integer(Pick(Grid)));
  case BuiltinVariable::LaneId: {
    Lanes L;
    for (unsigned I = 0; I < WarpSize; ++I)
      L[I] = LaneValue::integer(I);
    return L;
  }
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
  if (Name.starts_with(SpecialRegisterPrefix)) {
    const auto &Registers = specialRegisters();
    auto It = Registers.find(Name);
    if (It != Registers.end())
      return builtinVariable(It->second.Var, It->second.Axis);
    return Lanes{}; // another register (warpid, clock, ...): unknown
  }
  return std::nullopt;
}

// ===================================================================
// Library functions, by name
// ===================================================================

namespace {

/// The variants that one handler serves, told apart by the table.
enum HintVariant : unsigned { ValueHint, AlignmentHint };
enum CachedAccessVariant : unsigned { CachedLoad, CachedStore };
enum MinMaxVariant : unsigned { Minimum, Maximum };

/// The bit intrinsics of the CUDA Math API ("Integer Intrinsics").
enum BitVariant : unsigned { FindFirstSet, PopulationCount, LeadingZeros, ReversedBits };
enum ShuffleVariant : unsigned { ShuffleIndex, ShuffleXor, ShuffleUp, ShuffleDown };
/// The warp vote functions (CUDA C++ Programming Guide, "Warp Vote
/// Functions") and __activemask.
enum VoteVariant : unsigned { VoteBallot, VoteAny, VoteAll, VoteActiveMask };

/// cuRAND's initialiser of a generator state (randomStateInitCall).
constexpr llvm::StringLiteral RandomStateInit = "curand_init";

QualType pointeeOfFirstArgument(const CallExpr *CE) {
  if (CE->getNumArgs() == 0)
    return QualType();
  return CE->getArg(0)->IgnoreParenImpCasts()->getType()->getPointeeType();
}

} // namespace

const WarpInterpreter::Impl::LibraryFunction *
WarpInterpreter::Impl::libraryFunction(llvm::StringRef Name) {
  using I = Impl;
  static const llvm::StringMap<LibraryFunction> Table = {
      // Hints that return their first argument (likely/unlikely macros,
      // alignment promises).
      {"__builtin_expect", {&I::hintCall, ValueHint}},
      {"__builtin_expect_with_probability", {&I::hintCall, ValueHint}},
      {"__builtin_assume_aligned", {&I::hintCall, AlignmentHint}},
      // Cache-hinted loads and stores (__ldg is the read-only data path).
      {"__ldg", {&I::cachedAccessCall, CachedLoad}},
      {"__ldcg", {&I::cachedAccessCall, CachedLoad}},
      {"__ldca", {&I::cachedAccessCall, CachedLoad}},
      {"__ldcs", {&I::cachedAccessCall, CachedLoad}},
      {"__ldlu", {&I::cachedAccessCall, CachedLoad}},
      {"__ldcv", {&I::cachedAccessCall, CachedLoad}},
      {"__stcg", {&I::cachedAccessCall, CachedStore}},
      {"__stcs", {&I::cachedAccessCall, CachedStore}},
      {"__stwb", {&I::cachedAccessCall, CachedStore}},
      {"__stwt", {&I::cachedAccessCall, CachedStore}},
      // cuRAND's device API: a generator's initialiser writes its state.
      {RandomStateInit, {&I::randomStateInitCall, 0}},
      // Integer helpers that index arithmetic uses.
      {"min", {&I::integerMinMaxCall, Minimum}},
      {"umin", {&I::integerMinMaxCall, Minimum}},
      {"llmin", {&I::integerMinMaxCall, Minimum}},
      {"ullmin", {&I::integerMinMaxCall, Minimum}},
      {"max", {&I::integerMinMaxCall, Maximum}},
      {"umax", {&I::integerMinMaxCall, Maximum}},
      {"llmax", {&I::integerMinMaxCall, Maximum}},
      {"ullmax", {&I::integerMinMaxCall, Maximum}},
      {"abs", {&I::integerAbsCall, 0}},
      {"labs", {&I::integerAbsCall, 0}},
      {"llabs", {&I::integerAbsCall, 0}},
      {"__ffs", {&I::bitCall, FindFirstSet}},
      {"__ffsll", {&I::bitCall, FindFirstSet}},
      {"__popc", {&I::bitCall, PopulationCount}},
      {"__popcll", {&I::bitCall, PopulationCount}},
      {"__clz", {&I::bitCall, LeadingZeros}},
      {"__clzll", {&I::bitCall, LeadingZeros}},
      {"__brev", {&I::bitCall, ReversedBits}},
      {"__brevll", {&I::bitCall, ReversedBits}},
      {"__mul24", {&I::mul24Call, 0}},
      {"__umul24", {&I::mul24Call, 0}},
      // Warp shuffles.
      {"__shfl_sync", {&I::shuffleCall, ShuffleIndex}},
      {"__shfl_xor_sync", {&I::shuffleCall, ShuffleXor}},
      {"__shfl_up_sync", {&I::shuffleCall, ShuffleUp}},
      {"__shfl_down_sync", {&I::shuffleCall, ShuffleDown}},
      // Warp votes.
      {"__ballot_sync", {&I::voteCall, VoteBallot}},
      {"__any_sync", {&I::voteCall, VoteAny}},
      {"__all_sync", {&I::voteCall, VoteAll}},
      {"__activemask", {&I::voteCall, VoteActiveMask}},
      // Warp matrix functions (WarpMatrix.cpp).
      {"store_matrix_sync", {&I::warpMatrixStoreCall, 0}}};
  static const LibraryFunction Atomic = {&I::atomicCall, 0};
  auto It = Table.find(Name);
  if (It != Table.end())
    return &It->second;
  // Atomics are a family of names (CudaAtomics.h).
  if (isAtomicFunctionName(Name))
    return &Atomic;
  return nullptr;
}

Lanes WarpInterpreter::Impl::libraryCall(const FunctionDecl *FD,
                                         const CallExpr *CE) {
  if (std::optional<Lanes> R = cooperativeGroupsCall(FD, CE))
    return *R;
  // A known function whose call has the form its handler expects; any
  // other call is opaque.
  if (const LibraryFunction *Known = libraryFunction(FD->getName()))
    if (std::optional<Lanes> R = (this->*Known->Run)(CE, Known->Variant))
      return *R;
  return opaqueCall(FD, CE);
}

std::optional<Lanes> WarpInterpreter::Impl::hintCall(const CallExpr *CE,
                                                     unsigned Variant) {
  if (CE->getNumArgs() < 1)
    return std::nullopt;
  Lanes V = eval(CE->getArg(0));
  for (unsigned I = 1; I < CE->getNumArgs(); ++I)
    eval(CE->getArg(I));
  if (Variant != AlignmentHint) {
    IntFormat F = formatOf(CE->getType());
    for (auto &L : V)
      if (L.K == LaneValue::Int)
        L.Bits = values::convert(L.Bits, F);
  }
  return V;
}

std::optional<Lanes> WarpInterpreter::Impl::atomicCall(const CallExpr *CE,
                                                       unsigned) {
  // Atomics: read-modify-write of the pointee (CUDA C++ Programming
  // Guide, "Atomic Functions").
  if (CE->getNumArgs() < 1 || !CE->getArg(0)->getType()->isPointerType())
    return std::nullopt;
  Lanes Ptr = eval(CE->getArg(0));
  for (unsigned I = 1; I < CE->getNumArgs(); ++I)
    eval(CE->getArg(I));
  // Whether the compiler aggregates it per warp: its operation, type, use,
  // and what it proves uniform through the calls run inline to get here.
  model::AtomicTraits Traits =
      uniformity().atomicTraits(CE, CE->getDirectCallee(), inlinedCalls());
  recordAccess(CE, AccessOp::Atomic, Ptr, pointeeOfFirstArgument(CE), false, 0, 0, &Traits);
  // The old value one lane alone fetched (the leader of a warp-aggregated
  // increment, `if (rank == 0) base = atomicAdd(ctr, n)`, whose value a
  // shuffle then gives the warp): a value read from memory, swept as one.
  Lanes Old;
  sweepUniformRead(Old, Ptr, CE, CE->getType(), /*OneLaneOnly=*/true);
  return Old;
}

std::optional<Lanes> WarpInterpreter::Impl::cachedAccessCall(const CallExpr *CE,
                                                             unsigned Variant) {
  // __ldg(ptr) loads, __stcg(ptr, value) stores.
  bool Store = Variant == CachedStore;
  if (CE->getNumArgs() != (Store ? 2u : 1u))
    return std::nullopt;
  Lanes Ptr = eval(CE->getArg(0));
  if (Store)
    eval(CE->getArg(1));
  recordTypedAccess(CE, Store ? AccessOp::Store : AccessOp::Load, Ptr,
                    pointeeOfFirstArgument(CE));
  return Lanes{};
}

std::optional<Lanes> WarpInterpreter::Impl::randomStateInitCall(const CallExpr *CE, unsigned) {
  // curand_init(seed, subsequence, offset, &state), and the quasi-random
  // generators' curand_init(direction_vectors, offset, &state), set every
  // field of the state they are given (cuRAND Library, "Device API
  // Overview"): with a state array in global memory, one store of each of
  // its pieces per lane, lanes a state's size apart. Measured on the H100:
  // cuda-samples' MC_EstimatePiInlineQ initialises its 140-byte
  // curandStateSobol32 array so, 8 times the ideal sectors per store
  // request on the call's line, where nvcc's line table puts the inlined
  // stores. The skip-ahead that follows writes some fields again: those
  // requests are not counted (AccessEmission.cpp says so).
  if (CE->getNumArgs() < 2)
    return std::nullopt;
  const Expr *State = CE->getArg(CE->getNumArgs() - 1);
  QualType Pointee = State->getType()->getPointeeType();
  if (Pointee.isNull() || !Pointee->isRecordType() || Pointee.isConstQualified())
    return std::nullopt;
  for (unsigned I = 0; I + 1 < CE->getNumArgs(); ++I)
    eval(CE->getArg(I));
  Lanes Ptr = eval(State);
  recordTypedAccess(CE, AccessOp::Store, Ptr, Pointee);
  return Lanes{};
}

bool isRandomStateInit(const Expr *E) {
  const auto *CE = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() && FD->getName() == RandomStateInit;
}

std::optional<Lanes> WarpInterpreter::Impl::integerMinMaxCall(const CallExpr *CE,
                                                              unsigned Variant) {
  if (CE->getNumArgs() != 2 || !CE->getType()->isIntegerType())
    return std::nullopt;
  Lanes A = eval(CE->getArg(0)), B = eval(CE->getArg(1));
  bool Signed = isSigned(CE->getType());
  Lanes R;
  bool IsMin = Variant == Minimum;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (A[L].K != LaneValue::Int || B[L].K != LaneValue::Int)
      continue;
    bool Less = Signed ? std::int64_t(A[L].Bits) < std::int64_t(B[L].Bits)
                       : A[L].Bits < B[L].Bits;
    R[L] = (Less == IsMin) ? A[L] : B[L];
  }
  return R;
}

std::optional<Lanes> WarpInterpreter::Impl::integerAbsCall(const CallExpr *CE,
                                                           unsigned) {
  if (CE->getNumArgs() != 1 || !CE->getType()->isIntegerType())
    return std::nullopt;
  Lanes A = eval(CE->getArg(0));
  for (auto &L : A)
    if (L.K == LaneValue::Int && std::int64_t(L.Bits) < 0)
      L.Bits = normalize(0 - L.Bits, CE->getType());
  return A;
}

std::optional<Lanes> WarpInterpreter::Impl::bitCall(const CallExpr *CE, unsigned Variant) {
  // Index arithmetic uses them for a power of two's logarithm (`n >>
  // (__ffs(d) - 1)`, the CUDA samples' convolutionFFT2D) and a lane's rank
  // among a ballot's (`__popc(mask & lanemask_lt)`): exact integer
  // functions of the argument's bits, 32 or 64 of them.
  if (CE->getNumArgs() != 1 || !CE->getType()->isIntegerType() ||
      !CE->getArg(0)->getType()->isIntegerType())
    return std::nullopt;
  unsigned Width = static_cast<unsigned>(Ctx.getTypeSize(CE->getArg(0)->getType()));
  if (Width == 0 || Width > 64)
    return std::nullopt;
  Lanes A = eval(CE->getArg(0));
  for (auto &L : A) {
    if (L.K != LaneValue::Int)
      continue;
    std::uint64_t X = Width == 64 ? L.Bits : L.Bits & ((std::uint64_t(1) << Width) - 1);
    std::uint64_t R = 0;
    switch (Variant) {
    case FindFirstSet: // 1-based position of the lowest set bit, 0 for none
      R = X ? llvm::countr_zero(X) + 1 : 0;
      break;
    case PopulationCount:
      R = llvm::popcount(X);
      break;
    case LeadingZeros:
      R = X ? llvm::countl_zero(X) - (64 - Width) : Width;
      break;
    default: // ReversedBits
      R = llvm::reverseBits(X) >> (64 - Width);
      break;
    }
    L.Bits = normalize(R, CE->getType());
  }
  return A;
}

std::optional<Lanes> WarpInterpreter::Impl::mul24Call(const CallExpr *CE,
                                                      unsigned) {
  if (CE->getNumArgs() != 2)
    return std::nullopt;
  Lanes A = eval(CE->getArg(0)), B = eval(CE->getArg(1));
  return arith(BO_Mul, A, B, CE->getType(), CE->getType());
}

std::optional<Lanes> WarpInterpreter::Impl::shuffleCall(const CallExpr *CE,
                                                        unsigned Variant) {
  // Warp shuffles move values between lanes: __shfl_sync(mask, v, src).
  if (CE->getNumArgs() < 3 || !CE->getType()->isIntegerType())
    return std::nullopt;
  eval(CE->getArg(0));
  Lanes V = eval(CE->getArg(1));
  Lanes S = eval(CE->getArg(2));
  Lanes R;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (S[L].K != LaneValue::Int)
      continue;
    std::uint64_t Src;
    std::uint64_t Arg = S[L].Bits;
    if (Variant == ShuffleIndex)
      Src = Arg % WarpSize;
    else if (Variant == ShuffleXor)
      Src = (L ^ Arg) % WarpSize;
    else if (Variant == ShuffleUp)
      Src = L >= Arg ? L - Arg : L;
    else
      Src = L + Arg < WarpSize ? L + Arg : L;
    if (isBitSet(Active, static_cast<unsigned>(Src)))
      R[L] = V[Src];
  }
  return R;
}

std::optional<Lanes> WarpInterpreter::Impl::voteCall(const CallExpr *CE, unsigned Variant) {
  // A vote gives every lane that takes part the same value, made of the
  // predicates of the lanes of `mask` that execute it: known when the
  // lanes executing are (no data-dependent branch or exit before it) and
  // each of their predicates is. The rank of a lane among the voters,
  // `__popc(ballot & ((1u << lane) - 1))`, then packs a warp's writes
  // (out-parameters.cu's ballotRank, measured 2.25 sectors per request).
  bool ActiveMaskOnly = Variant == VoteActiveMask;
  if (CE->getNumArgs() != (ActiveMaskOnly ? 0u : 2u) || !CE->getType()->isIntegerType())
    return std::nullopt;
  Lanes Voters = ActiveMaskOnly ? Lanes{} : eval(CE->getArg(0));
  Lanes Pred = ActiveMaskOnly ? Lanes{} : eval(CE->getArg(1));
  Lanes R;
  if (Uncertain > 0 || (uncertainLiveLanes() & Active) != 0)
    return R;
  Mask Taking = Active;
  Mask Ballot = 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!isBitSet(Active, L))
      continue;
    if (!ActiveMaskOnly) {
      if (Voters[L].K != LaneValue::Int)
        return R;
      Taking &= static_cast<Mask>(Voters[L].Bits);
    }
  }
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!isBitSet(Taking, L))
      continue;
    if (ActiveMaskOnly) {
      Ballot |= Mask(1) << L;
      continue;
    }
    if (Pred[L].K != LaneValue::Int)
      return R;
    if (Pred[L].Bits != 0)
      Ballot |= Mask(1) << L;
  }
  std::uint64_t V = Ballot;
  if (Variant == VoteAny)
    V = Ballot != 0;
  else if (Variant == VoteAll)
    V = Ballot == Taking;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (isBitSet(Active, L))
      R[L] = LaneValue::integer(normalize(V, CE->getType()));
  return R;
}

} // namespace warpcheck::analysis
