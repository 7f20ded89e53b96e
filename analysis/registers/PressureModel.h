//===- PressureModel.h - live 32-bit values of optimized NVPTX IR ---------===//
//
// Internal to analysis/registers/: the two measures the estimate rests on
// (LiveValueMeasures in RegisterUsage.h).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_REGISTERS_PRESSUREMODEL_H
#define WARPCHECK_ANALYSIS_REGISTERS_PRESSUREMODEL_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace llvm {
class BasicBlock;
class DataLayout;
class Function;
class Instruction;
class User;
class Value;
} // namespace llvm

namespace warpcheck::analysis::registers {

/// Register pressure of optimized NVPTX IR: the largest total weight of
/// values live at one point. Address arithmetic ptxas folds into
/// [reg + imm] operands (GEPs and index arithmetic only used for
/// addressing, casts, aggregate plumbing) is charged to its inputs.
///
/// In-order: the IR's instruction order, every SSA value counted.
/// Scheduled: ptxas's view, roughly: loads and atomics issued up to 64
/// instructions early together with their address arithmetic (not past a
/// store, barrier or call), values uniform
/// across the warp (block indices, kernel parameters and what is computed
/// from them only) held in the uniform register file and not counted,
/// kernel parameters the kernel reads counted from its entry, an address
/// register pair at each access, memcpy'd bytes in flight.
class PressureModel {
public:
  PressureModel(const llvm::DataLayout &DL, bool Scheduled) : DL(DL), Scheduled(Scheduled) {}

  /// The measure of F (a callee's own added at each call); memoized.
  unsigned functionPressure(const llvm::Function &F);

private:
  /// The model of a callee of Caller's function: it knows the call chain
  /// above it, so a recursive call is not measured again.
  PressureModel(const llvm::DataLayout &DL, bool Scheduled, const PressureModel *Caller)
      : DL(DL), Scheduled(Scheduled), Caller(Caller),
        CallDepth(Caller ? Caller->CallDepth + 1 : 0) {}

  /// F is being measured by this model or a caller's: a call to it is a
  /// recursive call.
  bool onCallChain(const llvm::Function &F) const;

  //--- Which values hold registers (PressureModelValues.cpp) ---//

  /// Every use of I computes an address ptxas folds into an operand.
  bool onlyAddresses(const llvm::Instruction *I);

  /// V is the address operand of inline PTX that loads or stores through
  /// it ("ld.global.nc.u32 $0, [$1];", as CUB's ThreadLoad writes): the
  /// address becomes a [reg + imm] operand as for a load instruction.
  static bool isInlineAsmMemoryOperand(const llvm::User *U, const llvm::Value *V);

  /// A 64-bit integer division or remainder by a value that is not a
  /// constant: ptxas calls a division subroutine of its own for it (SASS
  /// CALL.REL.NOINC, seen for `long long q = a / d` on sm_90).
  static bool isInt64Division(const llvm::Instruction &I);

  /// V holds no register of its own: ptxas folds it into the operands of
  /// its users (address arithmetic, casts, the upper half of a pair).
  bool isFolded(const llvm::Value *V);

  /// Uniform across the warp: computed from block indices, dimensions,
  /// kernel parameters and constants only.
  bool isUniform(const llvm::Value *V, unsigned Depth = 0);

  /// A 32-bit integer atomic read-modify-write of a warp-uniform global
  /// (or generic) address: atomicrmw, cmpxchg or an NVVM atomic intrinsic.
  /// (Floating-point and 64-bit ones cost ptxas no such registers.)
  bool isUniformAtomic(const llvm::Instruction &I);

  /// Registers a value occupies: its type's, except for an aggregate
  /// (inline PTX's results, a texture fetch's four channels) read only
  /// through extractvalue, where ptxas allocates only the fields read
  /// (a TEX whose .y, .z and .w are unused writes one register).
  unsigned valueWeight(const llvm::Instruction &I);

  /// Integer arithmetic that computes addresses: ptxas hoists it together
  /// with the load it feeds (the offsets become immediates of [reg + imm]
  /// operands sharing one base register), so a load's issue point is not
  /// held back by its own index computation.
  static bool isAddressArithmetic(const llvm::Instruction *J);

  //--- How many are live at once (PressureModel.cpp) ---//

  /// The register-holding values an operand stands for.
  void collect(const llvm::Value *Op, llvm::SmallVectorImpl<unsigned> &Out, unsigned Depth = 0);

  /// For the scheduled measure: the instruction after which each load (and
  /// atomic) of BB is assumed to issue; null for the block's start.
  llvm::DenseMap<const llvm::Instruction *, const llvm::Instruction *>
  issuePoints(const llvm::BasicBlock &BB);

  /// The largest weight live at one point of F.
  unsigned compute(const llvm::Function &F);

  const llvm::DataLayout &DL;
  const bool Scheduled;
  /// The model of the function that calls the one measured here; null for
  /// a kernel's (the top of the call chain).
  const PressureModel *Caller = nullptr;
  /// How many callers are above this model.
  unsigned CallDepth = 0;
  /// The function compute() is measuring now.
  const llvm::Function *Measuring = nullptr;
  llvm::DenseMap<const llvm::Function *, unsigned> Memo;
  llvm::DenseMap<const llvm::Value *, bool> Folded;
  llvm::DenseMap<const llvm::Value *, bool> Uniform;
  llvm::DenseMap<const llvm::Value *, unsigned> Index;
  std::vector<unsigned> Weights;
};

} // namespace warpcheck::analysis::registers

#endif
