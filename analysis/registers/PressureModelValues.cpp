//===- PressureModelValues.cpp - which values hold registers --------------===//
//
// The pressure model's view of single values: address arithmetic ptxas
// folds into [reg + imm] operands, warp-uniform values (uniform registers),
// the weight of a value in 32-bit registers.
//
//===----------------------------------------------------------------------===//

#include "NvptxInstructions.h"
#include "PressureModel.h"

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

namespace warpcheck::analysis::registers {

bool PressureModel::onlyAddresses(const llvm::Instruction *I) {
  for (const llvm::User *U : I->users()) {
    if (llvm::isa<llvm::LoadInst>(U))
      continue;
    if (const auto *S = llvm::dyn_cast<llvm::StoreInst>(U)) {
      if (S->getValueOperand() == I)
        return false;
      continue;
    }
    if (llvm::isa<llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst>(U))
      continue;
    if (Scheduled && llvm::isa<llvm::MemTransferInst, llvm::MemSetInst>(U))
      continue;
    if (isInlineAsmMemoryOperand(U, I))
      continue;
    if (llvm::isa<llvm::GetElementPtrInst, llvm::BitCastInst, llvm::AddrSpaceCastInst>(U) &&
        isFolded(U))
      continue;
    return false;
  }
  return !I->user_empty();
}

bool PressureModel::isInlineAsmMemoryOperand(const llvm::User *U, const llvm::Value *V) {
  return V->getType()->isPointerTy() && isAddressedInlinePtx(U);
}

bool PressureModel::isInt64Division(const llvm::Instruction &I) {
  switch (I.getOpcode()) {
  case llvm::Instruction::SDiv:
  case llvm::Instruction::UDiv:
  case llvm::Instruction::SRem:
  case llvm::Instruction::URem:
    return I.getType()->isIntegerTy(64) && !llvm::isa<llvm::Constant>(I.getOperand(1));
  default:
    return false;
  }
}

bool PressureModel::isFolded(const llvm::Value *V) {
  auto Cached = Folded.find(V);
  if (Cached != Folded.end())
    return Cached->second;
  Folded[V] = false; // cycle guard
  bool R = false;
  if (const auto *I = llvm::dyn_cast<llvm::Instruction>(V)) {
    if (llvm::isa<llvm::BitCastInst, llvm::AddrSpaceCastInst, llvm::FreezeInst,
                  llvm::TruncInst>(I)) {
      R = true;
    } else if (Scheduled && llvm::isa<llvm::InsertValueInst, llvm::ExtractValueInst>(I)) {
      R = true;
    } else if (I->getOpcode() == llvm::Instruction::LShr && I->getType()->isIntegerTy(64) &&
               llvm::isa<llvm::ConstantInt>(I->getOperand(1)) &&
               llvm::cast<llvm::ConstantInt>(I->getOperand(1))->getZExtValue() == 32 &&
               !I->user_empty() && llvm::all_of(I->users(), [](const llvm::User *U) {
                 return llvm::isa<llvm::TruncInst>(U) &&
                        U->getType()->getScalarSizeInBits() <= 32;
               })) {
      // The upper half of a 64-bit register pair: ptxas reads the odd
      // register of the pair, no instruction and no register of its own.
      R = true;
    } else if (llvm::isa<llvm::PtrToIntInst, llvm::IntToPtrInst>(I)) {
      R = typeWeight(I->getType(), DL) == typeWeight(I->getOperand(0)->getType(), DL);
      // A shared or local address widened to 64 bits: the upper half is
      // zero (SASS reads RZ for it), the address stays one register.
      if (const auto *P2I = llvm::dyn_cast<llvm::PtrToIntInst>(I))
        R |= P2I->getPointerAddressSpace() == 3 || P2I->getPointerAddressSpace() == 5;
    } else if (llvm::isa<llvm::GetElementPtrInst>(I)) {
      R = onlyAddresses(I);
    } else if ((I->getOpcode() == llvm::Instruction::Add ||
                I->getOpcode() == llvm::Instruction::Shl ||
                I->getOpcode() == llvm::Instruction::Mul ||
                I->getOpcode() == llvm::Instruction::Or) &&
               llvm::isa<llvm::Constant>(I->getOperand(1))) {
      R = !I->user_empty() && llvm::all_of(I->users(), [&](const llvm::User *U) {
        return llvm::isa<llvm::GetElementPtrInst, llvm::ZExtInst, llvm::SExtInst>(U) &&
               isFolded(U);
      });
    } else if (llvm::isa<llvm::ZExtInst, llvm::SExtInst>(I)) {
      R = !I->user_empty() && llvm::all_of(I->users(), [](const llvm::User *U) {
        return llvm::isa<llvm::GetElementPtrInst>(U);
      });
    }
  }
  Folded[V] = R;
  return R;
}

bool PressureModel::isUniform(const llvm::Value *V, unsigned Depth) {
  if (llvm::isa<llvm::Constant, llvm::Argument>(V))
    return true;
  const auto *I = llvm::dyn_cast<llvm::Instruction>(V);
  if (!I)
    return true;
  auto Cached = Uniform.find(V);
  if (Cached != Uniform.end())
    return Cached->second;
  if (Depth > 64)
    return false;
  Uniform[V] = false;
  bool R = false;
  if (const auto *II = llvm::dyn_cast<llvm::IntrinsicInst>(I)) {
    switch (II->getIntrinsicID()) {
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
      R = true;
      break;
    default:
      break;
    }
  } else if (const auto *L = llvm::dyn_cast<llvm::LoadInst>(I)) {
    R = L->getPointerAddressSpace() == 4 && isUniform(L->getPointerOperand(), Depth + 1);
  } else if (llvm::isa<llvm::BinaryOperator, llvm::CastInst, llvm::CmpInst, llvm::SelectInst,
                       llvm::GetElementPtrInst>(I)) {
    R = llvm::all_of(I->operands(),
                     [&](const llvm::Value *Op) { return isUniform(Op, Depth + 1); });
  } else if (const auto *Phi = llvm::dyn_cast<llvm::PHINode>(I)) {
    Uniform[V] = true; // optimistic for loop-carried values
    R = llvm::all_of(Phi->incoming_values(),
                     [&](const llvm::Value *Op) { return isUniform(Op, Depth + 1); });
  }
  Uniform[V] = R;
  return R;
}

bool PressureModel::isUniformAtomic(const llvm::Instruction &I) {
  llvm::Type *T = I.getType();
  if (const auto *S = llvm::dyn_cast<llvm::StructType>(T)) // cmpxchg's {value, flag}
    T = S->getNumElements() ? S->getElementType(0) : nullptr;
  if (!T || !T->isIntegerTy(32))
    return false;
  if (const auto *A = llvm::dyn_cast<llvm::AtomicRMWInst>(&I))
    if (A->isFloatingPointOperation())
      return false;
  const llvm::Value *Ptr = llvm::isa<llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst>(I)
                               ? accessedAddress(I)
                               : nullptr;
  if (const auto *II = llvm::dyn_cast<llvm::IntrinsicInst>(&I))
    if (II->getCalledFunction() &&
        II->getCalledFunction()->getName().starts_with("llvm.nvvm.atomic") &&
        II->arg_size() > 0)
      Ptr = II->getArgOperand(0);
  if (!Ptr || !Ptr->getType()->isPointerTy())
    return false;
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  return (AS == 0 || AS == 1) && isUniform(Ptr);
}

unsigned PressureModel::valueWeight(const llvm::Instruction &I) {
  auto *S = llvm::dyn_cast<llvm::StructType>(I.getType());
  if (!S || I.user_empty() || !llvm::all_of(I.users(), [](const llvm::User *U) {
        return llvm::isa<llvm::ExtractValueInst>(U) &&
               llvm::cast<llvm::ExtractValueInst>(U)->getNumIndices() >= 1;
      }))
    return typeWeight(I.getType(), DL);
  llvm::SmallBitVector Read(S->getNumElements());
  for (const llvm::User *U : I.users())
    Read.set(llvm::cast<llvm::ExtractValueInst>(U)->getIndices()[0]);
  unsigned W = 0;
  for (unsigned E : Read.set_bits())
    W += typeWeight(S->getElementType(E), DL);
  return W;
}

bool PressureModel::isAddressArithmetic(const llvm::Instruction *J) {
  switch (J->getOpcode()) {
  case llvm::Instruction::Add:
  case llvm::Instruction::Sub:
  case llvm::Instruction::Shl:
  case llvm::Instruction::Or:
  case llvm::Instruction::Mul:
  case llvm::Instruction::ZExt:
  case llvm::Instruction::SExt:
  case llvm::Instruction::GetElementPtr:
    return true;
  default:
    return false;
  }
}

} // namespace warpcheck::analysis::registers
