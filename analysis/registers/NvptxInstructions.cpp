//===- NvptxInstructions.cpp - NVPTX IR as ptxas sees it ------------------===//
//
// The patterns of the short libdevice functions (isShortLibdeviceFunction,
// RegisterUsage.h) and the instruction classes of NvptxInstructions.h.
//
//===----------------------------------------------------------------------===//

#include "NvptxInstructions.h"

#include "warpcheck/analysis/RegisterUsage.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <cstdint>

namespace warpcheck::analysis {

bool isShortLibdeviceFunction(llvm::StringRef Name) {
  // Checked against libdevice.10.bc of CUDA 13.0: every function these
  // patterns name has at most 13 IR instructions, most of them the two
  // arms of an __nvvm_reflect("__CUDA_FTZ") test around one NVVM intrinsic,
  // the rest a compare and a select (isnanf, fdimf); one to three PTX
  // instructions once reflected (RegisterUsageTest's
  // LibdeviceWithToolkit.ShortFunctionsAreShort re-checks it when a
  // toolkit is there).
  static const llvm::Regex Patterns[] = {
      // popc, clz, ffs, brev, byte_perm, mulhi, mul24, sad, hadd, min, max, abs
      llvm::Regex("^__nv_(u|ll|ull)?(popc|clz|ffs|brev|byte_perm|mulhi|mul64hi|mul24|sad|"
                  "hadd|rhadd|min|max|abs)(ll)?$"),
      // reinterpretations: float_as_int, longlong_as_double, ...
      llvm::Regex("^__nv_(float|double|int|uint|longlong)_as_(float|double|int|uint|longlong)$"),
      // conversions: float2int_rn, int2float_rz, double2hiint, half2float, ...
      llvm::Regex("^__nv_(float|double|half|int|uint|ll|ull|hiloint)2"
                  "(float|double|half|int|uint|ll|ull|hiint|loint)(_r[nduz])?$"),
      llvm::Regex("^__nv_(fmin|fmax|fabs|copysign|floor|ceil|trunc|rint|nearbyint|saturate)f?$"),
      llvm::Regex("^__nv_(llrint|round|llround|signbitd|signbitf|isnand|isinfd|isfinited|"
                  "isnanf|isinff|finitef|fdim|fdimf)$"),
      // fma and the correctly rounded add, sub and mul (not div or sqrt,
      // which ptxas expands into a subroutine)
      llvm::Regex("^__nv_fmaf?(_ieee)?(_r[nduz])?$"),
      llvm::Regex("^__nv_[fd](add|sub|mul)_r[nduz]$"),
      // the __fast intrinsics that are one approximate instruction
      llvm::Regex("^__nv_fast_(expf|exp10f|logf|log2f|log10f|sinf|cosf|fdividef)$"),
  };
  return llvm::any_of(Patterns, [&](const llvm::Regex &R) { return R.match(Name); });
}

namespace registers {

bool isInlineInstruction(const llvm::Function *Callee) {
  return Callee && (Callee->isIntrinsic() ||
                    (Callee->isDeclaration() && isShortLibdeviceFunction(Callee->getName())));
}

unsigned typeWeight(llvm::Type *T, const llvm::DataLayout &DL) {
  if (!T || T->isVoidTy() || T->isLabelTy() || T->isMetadataTy() || T->isTokenTy())
    return 0;
  if (T->isIntegerTy(1))
    return 0;
  if (auto *P = llvm::dyn_cast<llvm::PointerType>(T)) {
    unsigned AS = P->getAddressSpace();
    if (AS == 3 || AS == 5) // shared and local addresses are 32-bit in SASS
      return 1;
    return DL.getPointerSizeInBits(AS) > 32 ? 2 : 1;
  }
  if (auto *V = llvm::dyn_cast<llvm::FixedVectorType>(T)) {
    if (V->getElementType()->isIntegerTy(1))
      return 0;
    std::uint64_t Bits = DL.getTypeSizeInBits(V).getFixedValue();
    return static_cast<unsigned>((Bits + 31) / 32);
  }
  if (auto *S = llvm::dyn_cast<llvm::StructType>(T)) {
    unsigned W = 0;
    for (llvm::Type *E : S->elements())
      W += typeWeight(E, DL);
    return W;
  }
  if (auto *A = llvm::dyn_cast<llvm::ArrayType>(T))
    return static_cast<unsigned>(A->getNumElements()) * typeWeight(A->getElementType(), DL);
  if (T->isSized()) {
    std::uint64_t Bits = DL.getTypeSizeInBits(T).getFixedValue();
    return static_cast<unsigned>(std::max<std::uint64_t>(1, (Bits + 31) / 32));
  }
  return 1;
}

llvm::StringRef inlinePtx(const llvm::Value *V) {
  const auto *Call = llvm::dyn_cast<llvm::CallInst>(V);
  if (!Call || !Call->isInlineAsm())
    return {};
  return llvm::StringRef(llvm::cast<llvm::InlineAsm>(Call->getCalledOperand())->getAsmString())
      .ltrim();
}

namespace {

/// PTX instructions that read memory into registers: loads and texture
/// fetches (a fetch names a texture, not an address).
constexpr llvm::StringLiteral PtxLoadOpcodes[] = {"ld.", "ldu.", "tex.", "tld4."};
/// PTX instructions with an address operand "[$n]" that ptxas turns into a
/// [reg + imm] operand of the SASS memory instruction.
constexpr llvm::StringLiteral PtxAddressedOpcodes[] = {"ld.", "ldu.", "st.", "cp.async."};

bool startsWithAny(llvm::StringRef Text, llvm::ArrayRef<llvm::StringLiteral> Prefixes) {
  return llvm::any_of(Prefixes, [&](llvm::StringRef P) { return Text.starts_with(P); });
}

} // namespace

bool isAddressedInlinePtx(const llvm::Value *V) {
  return startsWithAny(inlinePtx(V), PtxAddressedOpcodes);
}

bool isInlineAsmLoad(const llvm::Instruction &I) {
  return !I.getType()->isVoidTy() && startsWithAny(inlinePtx(&I), PtxLoadOpcodes);
}

const llvm::Value *accessedAddress(const llvm::Instruction &I) {
  if (const auto *L = llvm::dyn_cast<llvm::LoadInst>(&I))
    return L->getPointerOperand();
  if (const auto *S = llvm::dyn_cast<llvm::StoreInst>(&I))
    return S->getPointerOperand();
  if (const auto *A = llvm::dyn_cast<llvm::AtomicRMWInst>(&I))
    return A->getPointerOperand();
  if (const auto *X = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&I))
    return X->getPointerOperand();
  return nullptr;
}

bool isMemoryFence(const llvm::Instruction &I) {
  if (isInlineAsmLoad(I))
    return false;
  if (llvm::isa<llvm::StoreInst, llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst, llvm::FenceInst>(I))
    return true;
  if (const auto *II = llvm::dyn_cast<llvm::IntrinsicInst>(&I))
    return II->mayWriteToMemory() || II->getIntrinsicID() == llvm::Intrinsic::nvvm_barrier0 ||
           II->getIntrinsicID() == llvm::Intrinsic::nvvm_barrier_sync;
  if (const auto *Call = llvm::dyn_cast<llvm::CallBase>(&I))
    return Call->isInlineAsm() || !isInlineInstruction(Call->getCalledFunction());
  return false;
}

} // namespace registers

} // namespace warpcheck::analysis
