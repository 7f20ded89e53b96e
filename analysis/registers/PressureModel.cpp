//===- PressureModel.cpp - live 32-bit values of optimized NVPTX IR -------===//
//
// Liveness to a fixed point over the blocks, then a backward walk of each
// block for the largest weight live at one point, with what ptxas adds:
// loads issued early, prepared atomics, a callee's own registers, operands
// a memory instruction still reads after it issues.
//
//===----------------------------------------------------------------------===//

#include "NvptxInstructions.h"
#include "PressureModel.h"

#include "warpcheck/analysis/RegisterUsage.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <cstdint>

namespace warpcheck::analysis {

namespace registers {

namespace {
/// Pressure charged for a call to a function without a body (vprintf,
/// malloc, a libdevice function when no toolkit is there to link).
constexpr unsigned ExternalCallPressure = 16;
/// How far above its position a load is assumed to be issued: ptxas
/// batches the loads of an unrolled loop body at its top.
constexpr unsigned HoistWindow = 64;
/// How many 32-bit integer atomics on a warp-uniform address ptxas
/// prepares ahead (one alone takes 8 registers on sm_90, each further
/// distinct one about 2 more, saturating at 24 to 26).
constexpr unsigned UniformAtomicWindow = 8;
/// How many instructions the registers a memory instruction reads last
/// stay unavailable: loads, stores and atomics (LDG, STG, LDS, STS, ATOM,
/// RED) read their register operands after issue, behind a read barrier,
/// so ptxas gives the values that follow fresh registers rather than wait
/// (the SASS of the shuffle test kernel: each loaded and stored value in a
/// new register, R7, R9, R11, R15, R17, R23). 32 fitted best of 8 to 64.
constexpr unsigned MemoryOperandHold = 32;
/// Registers ptxas's 64-bit division subroutine uses beyond its operands:
/// R0 to R17 in the SASS of the sm_90 subroutine, four of them the
/// dividend and divisor pairs.
constexpr unsigned Int64DivisionPressure = 14;
/// A recursive call (or a call below MaxCallDepth callers) is charged as
/// a call to a function without a body. nvcc compiles recursion as real
/// calls through the ABI's stack: the callee's registers are those of a
/// function already measured on this chain (ptxas reports the largest of
/// the call graph, not a sum per level) and what lives across the call is
/// saved in the stack frame, so the call adds its calling convention's
/// registers (arguments, return value, stack pointer), not the callee's
/// measure again. This also keeps the measure finite for any recursion.
constexpr unsigned RecursiveCallPressure = ExternalCallPressure;
/// Callers above the deepest callee measured: chains of non-recursive
/// calls deeper than this are charged as RecursiveCallPressure, which
/// bounds the native stack the measure uses.
constexpr unsigned MaxCallDepth = 64;
} // namespace

bool PressureModel::onCallChain(const llvm::Function &F) const {
  for (const PressureModel *M = this; M; M = M->Caller)
    if (M->Measuring == &F)
      return true;
  return false;
}

unsigned PressureModel::functionPressure(const llvm::Function &F) {
  auto It = Memo.find(&F);
  if (It != Memo.end())
    return It->second;
  const llvm::Function *Outer = Measuring;
  Measuring = &F;
  unsigned P = compute(F);
  Measuring = Outer;
  Memo[&F] = P;
  return P;
}

void PressureModel::collect(const llvm::Value *Op, llvm::SmallVectorImpl<unsigned> &Out,
                            unsigned Depth) {
  if (Scheduled)
    if (const auto *A = llvm::dyn_cast<llvm::Argument>(Op)) {
      auto It = Index.find(A);
      if (It != Index.end())
        Out.push_back(It->second);
      return;
    }
  const auto *I = llvm::dyn_cast<llvm::Instruction>(Op);
  if (!I || Depth > 16)
    return; // constants are immediates; in order, parameters come from the constant bank
  if (isFolded(I)) {
    for (const llvm::Value *Inner : I->operands())
      collect(Inner, Out, Depth + 1);
    return;
  }
  auto It = Index.find(I);
  if (It != Index.end())
    Out.push_back(It->second);
}

llvm::DenseMap<const llvm::Instruction *, const llvm::Instruction *>
PressureModel::issuePoints(const llvm::BasicBlock &BB) {
  llvm::DenseMap<const llvm::Instruction *, const llvm::Instruction *> Result;
  llvm::DenseMap<const llvm::Instruction *, unsigned> Pos;
  std::vector<const llvm::Instruction *> Order;
  for (const llvm::Instruction &I : BB) {
    Pos[&I] = static_cast<unsigned>(Order.size());
    Order.push_back(&I);
  }
  const llvm::Instruction *Fence = nullptr;
  for (const llvm::Instruction &I : BB) {
    // Loads and atomics (not stores) are issued early; inline PTX loads
    // have no pointer operand of their own.
    const bool Issued = (accessedAddress(I) && !llvm::isa<llvm::StoreInst>(I)) ||
                        isInlineAsmLoad(I);
    if (Issued) {
      const llvm::Instruction *At = Fence;
      llvm::SmallVector<const llvm::Value *, 8> Work;
      for (const llvm::Value *Op : I.operands())
        Work.push_back(Op);
      unsigned Steps = 0;
      while (!Work.empty() && Steps++ < 256) {
        const auto *J = llvm::dyn_cast<llvm::Instruction>(Work.pop_back_val());
        if (!J || J->getParent() != &BB)
          continue;
        if (isFolded(J) || isAddressArithmetic(J)) {
          for (const llvm::Value *X : J->operands())
            Work.push_back(X);
          continue;
        }
        if (!At || Pos[J] > Pos[At])
          At = J;
      }
      unsigned P = Pos[&I];
      if (P > HoistWindow) {
        unsigned Limit = P - HoistWindow;
        if (!At || Pos[At] < Limit)
          At = Order[Limit];
      }
      Result[&I] = At;
    }
    if (isMemoryFence(I))
      Fence = &I;
  }
  return Result;
}

unsigned PressureModel::compute(const llvm::Function &F) {
  if (F.isDeclaration())
    return ExternalCallPressure;
  Index.clear();
  Weights.clear();
  Folded.clear();
  Uniform.clear();
  if (Scheduled)
    for (const llvm::Argument &A : F.args()) {
      // A parameter passed by value as a struct (CUB's and Thrust's
      // iterators, arrays and policies) reaches the IR as the address of
      // its copy in the parameter bank: SASS reads its fields straight
      // from the constant bank (LDC/ULDC c[0x0][...] next to the use),
      // so the address holds no register; the loads from it count.
      if (A.hasByValAttr())
        continue;
      if (unsigned W = typeWeight(A.getType(), DL)) {
        Index[&A] = static_cast<unsigned>(Weights.size());
        Weights.push_back(W);
      }
    }
  for (const llvm::BasicBlock &BB : F)
    for (const llvm::Instruction &I : BB) {
      if (llvm::isa<llvm::AllocaInst>(I) || isFolded(&I))
        continue;
      if (Scheduled && isUniform(&I))
        continue;
      unsigned W = valueWeight(I);
      if (W == 0)
        continue;
      Index[&I] = static_cast<unsigned>(Weights.size());
      Weights.push_back(W);
    }
  const unsigned N = static_cast<unsigned>(Weights.size());

  // Upward-exposed uses, definitions and phi uses per block.
  llvm::DenseMap<const llvm::BasicBlock *, unsigned> BlockIndex;
  std::vector<const llvm::BasicBlock *> Blocks;
  for (const llvm::BasicBlock &BB : F) {
    BlockIndex[&BB] = static_cast<unsigned>(Blocks.size());
    Blocks.push_back(&BB);
  }
  const size_t B = Blocks.size();
  std::vector<llvm::BitVector> Uses(B, llvm::BitVector(N)), Defs(B, llvm::BitVector(N)),
      PhiOut(B, llvm::BitVector(N)), LiveIn(B, llvm::BitVector(N)),
      LiveOut(B, llvm::BitVector(N));
  llvm::SmallVector<unsigned, 8> Ops;
  for (size_t K = 0; K < B; ++K) {
    const llvm::BasicBlock *BB = Blocks[K];
    for (const llvm::Instruction &I : *BB) {
      if (!llvm::isa<llvm::PHINode>(I)) {
        Ops.clear();
        for (const llvm::Value *Op : I.operands())
          collect(Op, Ops);
        for (unsigned O : Ops)
          if (!Defs[K].test(O))
            Uses[K].set(O);
      }
      auto It = Index.find(&I);
      if (It != Index.end())
        Defs[K].set(It->second);
    }
    for (const llvm::BasicBlock *S : llvm::successors(BB))
      for (const llvm::PHINode &Phi : S->phis()) {
        Ops.clear();
        collect(Phi.getIncomingValueForBlock(BB), Ops);
        for (unsigned O : Ops)
          PhiOut[K].set(O);
      }
  }
  if (Scheduled && B > 0)
    for (const llvm::Argument &A : F.args()) {
      auto It = Index.find(&A);
      if (It != Index.end())
        Defs[0].set(It->second);
    }
  // Backward data flow to a fixed point.
  bool Changed = true;
  unsigned Rounds = 0;
  while (Changed && Rounds++ < 1000) {
    Changed = false;
    for (size_t K = B; K-- > 0;) {
      llvm::BitVector Out = PhiOut[K];
      for (const llvm::BasicBlock *S : llvm::successors(Blocks[K]))
        Out |= LiveIn[BlockIndex[S]];
      llvm::BitVector In = Out;
      In.reset(Defs[K]);
      In |= Uses[K];
      if (Out != LiveOut[K] || In != LiveIn[K]) {
        LiveOut[K] = std::move(Out);
        LiveIn[K] = std::move(In);
        Changed = true;
      }
    }
  }

  // The largest weight live at one point.
  unsigned Max = 0;
  for (size_t K = 0; K < B; ++K) {
    const llvm::BasicBlock *BB = Blocks[K];
    llvm::DenseMap<const llvm::Instruction *, const llvm::Instruction *> Issue;
    if (Scheduled)
      Issue = issuePoints(*BB);
    // 32-bit integer atomics on a warp-uniform global address: ptxas
    // prepares them ahead of the sequence, about a register pair for each
    // of the last UniformAtomicWindow, held until it issues.
    llvm::DenseMap<const llvm::Instruction *, unsigned> AtomicPairs;
    if (Scheduled) {
      std::vector<const llvm::Instruction *> Order;
      std::vector<unsigned> Atomics;
      for (const llvm::Instruction &I : *BB) {
        if (isUniformAtomic(I))
          Atomics.push_back(static_cast<unsigned>(Order.size()));
        Order.push_back(&I);
      }
      if (Atomics.size() > 1) {
        std::vector<unsigned> Count(Order.size() + 1, 0);
        for (size_t A = 0; A < Atomics.size(); ++A) {
          unsigned From = A >= UniformAtomicWindow ? Atomics[A - UniformAtomicWindow] : 0;
          for (unsigned P = From; P < Atomics[A]; ++P)
            ++Count[P];
        }
        for (size_t P = 0; P < Order.size(); ++P)
          if (Count[P])
            AtomicPairs[Order[P]] = 2 * Count[P];
      }
    }
    // Scheduled values whose issue point lies above: they stop being live
    // (walking backwards) once that point is passed.
    llvm::DenseMap<const llvm::Instruction *, llvm::SmallVector<unsigned, 2>> EndsAfter;
    llvm::BitVector Live = LiveOut[K];
    unsigned W = 0;
    for (unsigned V : Live.set_bits())
      W += Weights[V];
    Max = std::max(Max, W);
    // Per instruction, walking backwards: the weight live before it, and
    // the registers it frees that a memory instruction reads (see below).
    std::vector<unsigned> LiveBefore, FreedByMemory;
    for (auto It = BB->rbegin(); It != BB->rend(); ++It) {
      const llvm::Instruction &I = *It;
      if (llvm::isa<llvm::PHINode>(I))
        break;
      auto Ends = EndsAfter.find(&I);
      if (Ends != EndsAfter.end())
        for (unsigned D : Ends->second)
          if (Live.test(D)) {
            Live.reset(D);
            W -= Weights[D];
          }
      auto Def = Index.find(&I);
      if (Def != Index.end()) {
        unsigned D = Def->second;
        auto Early = Issue.find(&I);
        if (Early != Issue.end()) {
          if (!Live.test(D)) {
            Live.set(D);
            W += Weights[D];
          }
          if (Early->second)
            EndsAfter[Early->second].push_back(D);
        } else if (Live.test(D)) {
          Live.reset(D);
          W -= Weights[D];
        } else {
          Max = std::max(Max, W + Weights[D]); // a result nobody reads
        }
      }
      if (Scheduled) {
        const llvm::Value *Ptr = accessedAddress(I);
        if (Ptr && llvm::isa<llvm::Instruction>(Ptr) && isFolded(Ptr))
          Max = std::max(Max, W + typeWeight(Ptr->getType(), DL));
        if (const auto *MT = llvm::dyn_cast<llvm::MemTransferInst>(&I))
          if (const auto *Len = llvm::dyn_cast<llvm::ConstantInt>(MT->getLength()))
            Max = std::max<unsigned>(
                Max, W + static_cast<unsigned>(
                             std::min<std::uint64_t>(64, (Len->getZExtValue() + 3) / 4)) +
                         4);
      }
      if (const auto *Call = llvm::dyn_cast<llvm::CallBase>(&I);
          Call && !Call->isInlineAsm()) {
        const llvm::Function *Callee = Call->getCalledFunction();
        if (!isInlineInstruction(Callee)) {
          // The callee's registers come on top of what lives across the
          // call.
          unsigned CalleePressure = ExternalCallPressure;
          if (Callee && !Callee->isDeclaration())
            CalleePressure = onCallChain(*Callee) || CallDepth >= MaxCallDepth
                                 ? RecursiveCallPressure
                                 : PressureModel(DL, Scheduled, this).functionPressure(*Callee);
          Max = std::max(Max, W + CalleePressure);
        }
      }
      Ops.clear();
      for (const llvm::Value *Op : I.operands())
        collect(Op, Ops);
      unsigned Freed = 0;
      const bool IsMemory = accessedAddress(I) || isInlineAsmLoad(I);
      for (unsigned O : Ops)
        if (!Live.test(O)) {
          Live.set(O);
          W += Weights[O];
          if (IsMemory)
            Freed += Weights[O];
        }
      if (Scheduled) {
        LiveBefore.push_back(W);
        FreedByMemory.push_back(Freed);
      }
      Max = std::max(Max, W);
      if (isInt64Division(I))
        Max = std::max(Max, W + Int64DivisionPressure);
      if (!AtomicPairs.empty()) {
        auto Pairs = AtomicPairs.find(&I);
        if (Pairs != AtomicPairs.end())
          Max = std::max(Max, W + Pairs->second);
      }
    }
    // Registers a memory instruction reads last stay unavailable for the
    // next MemoryOperandHold instructions (walked forward): it reads them
    // after it issues.
    const size_t L = LiveBefore.size();
    unsigned Held = 0;
    for (size_t F = 0; F < L; ++F) {
      Max = std::max(Max, LiveBefore[L - 1 - F] + Held);
      Held += FreedByMemory[L - 1 - F];
      if (F >= MemoryOperandHold)
        Held -= FreedByMemory[L - 1 - (F - MemoryOperandHold)];
    }
  }
  return Max;
}

} // namespace registers

using registers::PressureModel;

LiveValueMeasures measureLiveValues(const llvm::Function &F) {
  LiveValueMeasures L;
  L.InOrder = PressureModel(F.getParent()->getDataLayout(), false).functionPressure(F);
  L.Scheduled = PressureModel(F.getParent()->getDataLayout(), true).functionPressure(F);
  return L;
}

} // namespace warpcheck::analysis
