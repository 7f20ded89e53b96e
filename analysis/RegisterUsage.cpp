//===- RegisterUsage.cpp - registers per thread: ptxas and the estimate ---===//

#include "warpcheck/analysis/RegisterUsage.h"

#include "registers/Guards.h"
#include "registers/PtxasCache.h"

#include "warpcheck/model/Arch.h"
#include "warpcheck/model/RegisterEstimate.h"

#include "clang/AST/ASTDiagnostic.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/LangStandard.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/CodeGen/ModuleBuilder.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

#include <algorithm>
#include <cstdlib>
#include <functional>

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();

using namespace clang;

namespace warpcheck::analysis {

using registers::fileExists;
using registers::hexDigest;

//===----------------------------------------------------------------------===//
// Names and options
//===----------------------------------------------------------------------===//

const char *registerSourceName(RegisterSource Source) {
  return Source == RegisterSource::Ptxas ? "ptxas" : "estimate";
}

std::optional<RegisterMode> parseRegisterMode(llvm::StringRef Text) {
  Text = Text.trim();
  if (Text.empty() || Text.equals_insensitive("auto"))
    return RegisterMode::Auto;
  if (Text.equals_insensitive("ptxas"))
    return RegisterMode::Ptxas;
  if (Text.equals_insensitive("estimate"))
    return RegisterMode::Estimate;
  return std::nullopt;
}

const char *registerModeName(RegisterMode Mode) {
  switch (Mode) {
  case RegisterMode::Auto:
    return "auto";
  case RegisterMode::Ptxas:
    return "ptxas";
  case RegisterMode::Estimate:
    return "estimate";
  }
  return "auto";
}

std::string RegisterOptions::fingerprint() const {
  std::string F;
  llvm::raw_string_ostream OS(F);
  OS << registerModeName(Mode) << '\x1f' << ToolkitRoot << '\x1f' << Arch << '\x1f'
     << WorkingDirectory << '\x1f' << (MaxRegisterCount ? *MaxRegisterCount : 0)
     << '\x1f' << SourceFile << '\x1f' << CacheDir << '\x1f' << TimeoutSeconds;
  for (const std::string &Flag : CompileFlags)
    OS << '\x1e' << Flag;
  return OS.str();
}

//===----------------------------------------------------------------------===//
// The estimate: clang CodeGen -> LLVM -O3 for NVPTX -> live 32-bit values
//===----------------------------------------------------------------------===//

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
} // namespace

// The calibrated formula (slopes, rounding, tiers) is pure arithmetic on the
// two counts: model/RegisterEstimate.cpp.
unsigned estimateRegisterCount(const LiveValueMeasures &Live, std::optional<unsigned> MaxThreads) {
  return model::estimateRegisterCount(Live.InOrder, Live.Scheduled, MaxThreads);
}

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

namespace {

/// A call ptxas never sees as one: an intrinsic, or (when no libdevice
/// could be linked) a libdevice function of one to three instructions once
/// linked and inlined, as nvcc links it.
bool isInlineInstruction(const llvm::Function *Callee) {
  return Callee && (Callee->isIntrinsic() ||
                    (Callee->isDeclaration() && isShortLibdeviceFunction(Callee->getName())));
}

/// How many 32-bit registers a value of type T occupies; predicates (i1)
/// live in a file of their own and count 0.
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

/// The PTX text of an inline assembly call, without leading blanks; empty
/// for anything else.
llvm::StringRef inlinePtx(const llvm::Value *V) {
  const auto *Call = llvm::dyn_cast<llvm::CallInst>(V);
  if (!Call || !Call->isInlineAsm())
    return {};
  return llvm::StringRef(llvm::cast<llvm::InlineAsm>(Call->getCalledOperand())->getAsmString())
      .ltrim();
}

/// PTX instructions that read memory into registers: loads and texture
/// fetches (a fetch names a texture, not an address).
constexpr llvm::StringLiteral PtxLoadOpcodes[] = {"ld.", "ldu.", "tex.", "tld4."};
/// PTX instructions with an address operand "[$n]" that ptxas turns into a
/// [reg + imm] operand of the SASS memory instruction.
constexpr llvm::StringLiteral PtxAddressedOpcodes[] = {"ld.", "ldu.", "st.", "cp.async."};

bool startsWithAny(llvm::StringRef Text, llvm::ArrayRef<llvm::StringLiteral> Prefixes) {
  return llvm::any_of(Prefixes, [&](llvm::StringRef P) { return Text.starts_with(P); });
}

/// Inline PTX that only reads memory and returns the value (CUB's
/// ThreadLoad "ld.global.nc.u32 $0, [$1];", the texture headers'
/// "tex.2d.v4.f32.f32"): ptxas schedules it as the load it is.
bool isInlineAsmLoad(const llvm::Instruction &I) {
  return !I.getType()->isVoidTy() && startsWithAny(inlinePtx(&I), PtxLoadOpcodes);
}

/// The address a load, store or atomic accesses; null for anything else.
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

  unsigned functionPressure(const llvm::Function &F) {
    auto It = Memo.find(&F);
    if (It != Memo.end())
      return It->second;
    Memo[&F] = 0; // recursion guard
    unsigned P = compute(F);
    Memo[&F] = P;
    return P;
  }

private:
  bool onlyAddresses(const llvm::Instruction *I) {
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

  /// V is the address operand of inline PTX that loads or stores through
  /// it ("ld.global.nc.u32 $0, [$1];", as CUB's ThreadLoad writes): the
  /// address becomes a [reg + imm] operand as for a load instruction.
  static bool isInlineAsmMemoryOperand(const llvm::User *U, const llvm::Value *V) {
    return V->getType()->isPointerTy() && startsWithAny(inlinePtx(U), PtxAddressedOpcodes);
  }

  /// A 64-bit integer division or remainder by a value that is not a
  /// constant: ptxas calls a division subroutine of its own for it (SASS
  /// CALL.REL.NOINC, seen for `long long q = a / d` on sm_90).
  static bool isInt64Division(const llvm::Instruction &I) {
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

  bool isFolded(const llvm::Value *V) {
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

  /// Uniform across the warp: computed from block indices, dimensions,
  /// kernel parameters and constants only.
  bool isUniform(const llvm::Value *V, unsigned Depth = 0) {
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

  /// A 32-bit integer atomic read-modify-write of a warp-uniform global
  /// (or generic) address: atomicrmw, cmpxchg or an NVVM atomic intrinsic.
  /// (Floating-point and 64-bit ones cost ptxas no such registers.)
  bool isUniformAtomic(const llvm::Instruction &I) {
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

  /// Registers a value occupies: its type's, except for an aggregate
  /// (inline PTX's results, a texture fetch's four channels) read only
  /// through extractvalue, where ptxas allocates only the fields read
  /// (a TEX whose .y, .z and .w are unused writes one register).
  unsigned valueWeight(const llvm::Instruction &I) {
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

  /// The register-holding values an operand stands for.
  void collect(const llvm::Value *Op, llvm::SmallVectorImpl<unsigned> &Out, unsigned Depth = 0) {
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

  /// Integer arithmetic that computes addresses: ptxas hoists it together
  /// with the load it feeds (the offsets become immediates of [reg + imm]
  /// operands sharing one base register), so a load's issue point is not
  /// held back by its own index computation.
  static bool isAddressArithmetic(const llvm::Instruction *J) {
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

  /// For the scheduled measure: the instruction after which each load (and
  /// atomic) of BB is assumed to issue; null for the block's start.
  llvm::DenseMap<const llvm::Instruction *, const llvm::Instruction *>
  issuePoints(const llvm::BasicBlock &BB) {
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

  unsigned compute(const llvm::Function &F) {
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
            unsigned CalleePressure =
                Callee && !Callee->isDeclaration()
                    ? PressureModel(DL, Scheduled).functionPressure(*Callee)
                    : ExternalCallPressure;
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

  const llvm::DataLayout &DL;
  const bool Scheduled;
  llvm::DenseMap<const llvm::Function *, unsigned> Memo;
  llvm::DenseMap<const llvm::Value *, bool> Folded;
  llvm::DenseMap<const llvm::Value *, bool> Uniform;
  llvm::DenseMap<const llvm::Value *, unsigned> Index;
  std::vector<unsigned> Weights;
};

void initializeNVPTX() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
  });
}

/// -O3 for NVPTX, as clang's device compilation runs it.
bool optimizeModule(llvm::Module &M, llvm::StringRef CPU, std::string &Error) {
  initializeNVPTX();
  std::string Triple = M.getTargetTriple();
  if (Triple.empty())
    Triple = "nvptx64-nvidia-cuda";
  const llvm::Target *T = llvm::TargetRegistry::lookupTarget(Triple, Error);
  if (!T)
    return false;
  llvm::TargetOptions TO;
  std::unique_ptr<llvm::TargetMachine> TM(T->createTargetMachine(
      Triple, CPU, "", TO, std::nullopt, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!TM) {
    Error = "no NVPTX target machine";
    return false;
  }
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  llvm::PassBuilder PB(TM.get());
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  llvm::ModulePassManager MPM = PB.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  MPM.run(M, MAM);
  return true;
}

/// Links the toolkit's libdevice (math functions) the way clang's
/// -mlink-builtin-bitcode does, so that they are inlined and counted.
void linkLibdevice(llvm::Module &M, llvm::StringRef ToolkitRoot) {
  if (ToolkitRoot.empty())
    return;
  llvm::SmallString<256> Path(ToolkitRoot);
  llvm::sys::path::append(Path, "nvvm", "libdevice", "libdevice.10.bc");
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return;
  bool NeedsLibdevice = llvm::any_of(M.functions(), [](const llvm::Function &F) {
    return F.isDeclaration() && F.getName().starts_with("__nv_");
  });
  if (!NeedsLibdevice)
    return;
  llvm::Expected<std::unique_ptr<llvm::Module>> Lib =
      llvm::parseBitcodeFile((*Buffer)->getMemBufferRef(), M.getContext());
  if (!Lib) {
    llvm::consumeError(Lib.takeError());
    return;
  }
  (*Lib)->setTargetTriple(M.getTargetTriple());
  (*Lib)->setDataLayout(M.getDataLayout());
  if (llvm::Linker::linkModules(M, std::move(*Lib), llvm::Linker::Flags::LinkOnlyNeeded))
    return;
  for (llvm::Function &F : M)
    if (F.getName().starts_with("__nv_") && !F.isDeclaration())
      F.setLinkage(llvm::GlobalValue::InternalLinkage);
}

std::optional<std::uint64_t> evaluateUnsigned(const Expr *E, ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || !R.Val.isInt() || R.Val.getInt().isNegative())
    return std::nullopt;
  return R.Val.getInt().getZExtValue();
}

/// Every kernel definition of the AST, instantiations included, and every
/// function template instantiation (the code generator needs to be told
/// about them, as Sema does at the end of a translation unit).
struct KernelCollector : RecursiveASTVisitor<KernelCollector> {
  std::vector<const FunctionDecl *> Kernels;
  std::vector<FunctionDecl *> Instantiations;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext() || FD->isInvalidDecl())
      return true;
    if (FD->hasAttr<CUDAGlobalAttr>())
      Kernels.push_back(FD);
    TemplateSpecializationKind K = FD->getTemplateSpecializationKind();
    if (K == TSK_ImplicitInstantiation || K == TSK_ExplicitInstantiationDefinition)
      Instantiations.push_back(FD);
    return true;
  }
};

/// Prints nothing, counts errors (the base class does, and tooling's
/// success is that count) and keeps the first error's text, for the reason
/// an estimate is unavailable.
class FirstErrorConsumer : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error || !Text.empty())
      return;
    llvm::SmallString<128> Message;
    Info.FormatDiagnostic(Message);
    Text = Message.str().str();
  }
  /// ": <first error>", or nothing.
  std::string suffix() const { return Text.empty() ? std::string() : ": " + Text; }

private:
  std::string Text;
};

/// Device-side LLVM IR for every kernel of a device-side AST.
std::unique_ptr<llvm::Module> emitDeviceModule(ASTContext &Ctx, const KernelCollector &Found,
                                               llvm::LLVMContext &LLCtx,
                                               const HeaderSearchOptions &HSOpts,
                                               const PreprocessorOptions &PPOpts,
                                               std::string &Error) {
  FirstErrorConsumer Errors;
  IntrusiveRefCntPtr<DiagnosticIDs> IDs(new DiagnosticIDs());
  IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts(new DiagnosticOptions());
  DiagnosticsEngine Diags(IDs, DiagOpts, &Errors, /*ShouldOwnClient=*/false);
  Diags.setSourceManager(&Ctx.getSourceManager());
  Diags.SetArgToStringFn(&FormatASTNodeDiagnosticArgument, &Ctx); // names in messages
  CodeGenOptions CGO;
  CGO.OptimizationLevel = 3;
  CGO.setInlining(CodeGenOptions::NormalInlining);
  CGO.UnrollLoops = true;
  CGO.DiscardValueNames = true;
  std::unique_ptr<CodeGenerator> Gen(CreateLLVMCodeGen(
      Diags, "warpcheck-register-estimate", llvm::vfs::getRealFileSystem(), HSOpts, PPOpts,
      CGO, LLCtx));
  Gen->Initialize(Ctx);
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!Diags.hasErrorOccurred())
      Gen->HandleTopLevelDecl(DeclGroupRef(D));
  for (FunctionDecl *FD : Found.Instantiations)
    if (!Diags.hasErrorOccurred())
      Gen->HandleTopLevelDecl(DeclGroupRef(FD));
  Gen->HandleTranslationUnit(Ctx);
  if (Diags.hasErrorOccurred()) {
    Error = "clang's code generator could not lower the device code" + Errors.suffix();
    return nullptr;
  }
  std::unique_ptr<llvm::Module> M(Gen->ReleaseModule());
  if (!M)
    Error = "clang's code generator produced no module";
  return M;
}

/// The cap ptxas applies: __launch_bounds__ and -maxrregcount.
unsigned applyCaps(unsigned Registers, const FunctionDecl *Kernel, ASTContext &Ctx,
                   const model::ArchSpec &Arch, std::optional<unsigned> MaxRegisterCount,
                   std::string &CappedBy) {
  std::optional<std::uint64_t> Threads, Blocks;
  if (const auto *LB = Kernel->getAttr<CUDALaunchBoundsAttr>()) {
    Threads = evaluateUnsigned(LB->getMaxThreads(), Ctx);
    Blocks = evaluateUnsigned(LB->getMinBlocks(), Ctx);
  }
  model::CappedRegisters Capped =
      model::capRegisterCount(Registers, Arch, Threads, Blocks, MaxRegisterCount);
  switch (Capped.CappedBy) {
  case model::RegisterCapSource::None:
    CappedBy.clear();
    break;
  case model::RegisterCapSource::LaunchBounds:
    CappedBy = "__launch_bounds__(" + std::to_string(*Threads) +
               (Blocks ? ", " + std::to_string(*Blocks) : std::string()) + ")";
    break;
  case model::RegisterCapSource::MaxRegisterCount:
    CappedBy = "-maxrregcount=" + std::to_string(*MaxRegisterCount);
    break;
  }
  return Capped.Registers;
}

/// The estimate on a device-side AST.
TranslationUnitRegisters estimateOnDeviceAST(ASTContext &Ctx, const RegisterOptions &Options,
                                             const Preprocessor *PP) {
  TranslationUnitRegisters R;
  R.Source = RegisterSource::Estimate;
  R.Arch = Options.Arch.empty() ? "sm_90" : Options.Arch;
  KernelCollector Found;
  Found.TraverseDecl(Ctx.getTranslationUnitDecl());
  if (Found.Kernels.empty())
    return R;
  llvm::LLVMContext LLCtx;
  std::string Error;
  std::unique_ptr<llvm::Module> M = lowerForEstimate(Ctx, LLCtx, Options, PP, Error);
  if (!M) {
    R.FallbackReason = Error;
    return R;
  }
  const model::ArchSpec *Arch = model::findArch(R.Arch);
  if (!Arch)
    Arch = model::findArch("sm_90");
  SanitizedFlags Flags = sanitizeCompileFlags(Options.CompileFlags, Options.WorkingDirectory);
  std::optional<unsigned> MaxReg = Options.MaxRegisterCount;
  if (Flags.MaxRegisterCount)
    MaxReg = MaxReg ? std::min(*MaxReg, *Flags.MaxRegisterCount) : *Flags.MaxRegisterCount;
  PressureModel InOrder(M->getDataLayout(), /*Scheduled=*/false);
  PressureModel Scheduled(M->getDataLayout(), /*Scheduled=*/true);
  for (const FunctionDecl *K : Found.Kernels) {
    std::string Name = deviceMangledName(K, Ctx);
    const llvm::Function *F = M->getFunction(Name);
    if (!F || F->isDeclaration())
      continue;
    FunctionRegisters FR;
    FR.Source = RegisterSource::Estimate;
    FR.Arch = R.Arch;
    LiveValueMeasures Live;
    Live.InOrder = InOrder.functionPressure(*F);
    Live.Scheduled = Scheduled.functionPressure(*F);
    FR.InOrderLiveValues = Live.InOrder;
    FR.ScheduledLiveValues = Live.Scheduled;
    std::optional<unsigned> MaxThreads;
    if (const auto *LB = K->getAttr<CUDALaunchBoundsAttr>())
      if (auto T = evaluateUnsigned(LB->getMaxThreads(), Ctx); T && *T > 0 && *T <= 1024)
        MaxThreads = static_cast<unsigned>(*T);
    FR.UncappedRegisters = estimateRegisterCount(Live, MaxThreads);
    FR.Registers = applyCaps(FR.UncappedRegisters, K, Ctx, *Arch, MaxReg, FR.CappedBy);
    R.ByMangledName[Name] = FR;
  }
  return R;
}

bool isCudaIncludeDir(llvm::StringRef Dir, std::string &Root) {
  if (!fileExists(Dir + "/cuda_runtime.h"))
    return false;
  llvm::SmallString<256> P(Dir);
  for (int Up = 0; Up < 4 && !P.empty(); ++Up) {
    P = llvm::sys::path::parent_path(P);
    if (fileExists(P + "/bin/nvcc") || fileExists(P + "/version.json") ||
        llvm::sys::fs::is_directory(P + "/nvvm")) {
      Root = std::string(P.str());
      return true;
    }
  }
  return false;
}

/// The estimate for a host-side AST: the source is parsed again for the
/// device in-process (no program is started) with the same include paths
/// and macros.
TranslationUnitRegisters estimateByDeviceReparse(ASTContext &Ctx, const RegisterOptions &Options,
                                                 const Preprocessor *PP) {
  TranslationUnitRegisters R;
  R.Source = RegisterSource::Estimate;
  R.Arch = Options.Arch.empty() ? "sm_90" : Options.Arch;
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Source = Options.SourceFile;
  if (Source.empty())
    if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
      Source = Main->getName().str();
  if (Source.empty()) {
    R.FallbackReason = "the main file of the translation unit has no name";
    return R;
  }
  // clang 19 knows GPU architectures up to sm_90a; newer ones are parsed as
  // sm_90 (the device code rarely differs).
  std::string ClangArch = "sm_90";
  if (auto SMName = nvccArchName(R.Arch)) {
    unsigned Number = 0;
    llvm::StringRef(*SMName).drop_front(3).take_while(llvm::isDigit).getAsInteger(10, Number);
    if (Number >= 50 && Number <= 90)
      ClangArch = *SMName;
  }
  std::vector<std::string> Args = {"-x", "cuda", "--cuda-device-only",
                                   "--cuda-gpu-arch=" + ClangArch, "-nocudalib", "-w",
                                   "-Wno-unknown-cuda-version"};
  std::string CudaRoot;
  if (PP) {
    const HeaderSearchOptions &HS = PP->getHeaderSearchInfo().getHeaderSearchOpts();
    if (!HS.ResourceDir.empty())
      Args.push_back("-resource-dir=" + HS.ResourceDir);
    std::vector<std::string> Includes;
    for (const HeaderSearchOptions::Entry &E : HS.UserEntries) {
      if (E.IsFramework)
        continue;
      llvm::StringRef P = E.Path;
      if (CudaRoot.empty() && isCudaIncludeDir(P, CudaRoot))
        continue;
      if (P.starts_with(HS.ResourceDir) || P.ends_with("/cuda_wrappers") || P == "/include" ||
          P == "/usr/include" || P.starts_with("/usr/include/") || P == "/usr/local/include" ||
          P.starts_with("/usr/lib/gcc/"))
        continue; // the driver adds these itself
      if (E.Group == frontend::Angled || E.Group == frontend::Quoted) {
        Includes.push_back("-I" + E.Path);
      } else if (E.Group == frontend::System) {
        Includes.push_back("-isystem");
        Includes.push_back(E.Path);
      }
    }
    Args.insert(Args.end(), Includes.begin(), Includes.end());
    for (const auto &[Macro, IsUndef] : PP->getPreprocessorOpts().Macros)
      Args.push_back((IsUndef ? "-U" : "-D") + Macro);
    // Forced includes (-include): without a toolkit, the bundled
    // declarations of __global__, threadIdx and the rest come in so.
    for (const std::string &Include : PP->getPreprocessorOpts().Includes) {
      Args.push_back("-include");
      Args.push_back(Include);
    }
    const LangStandard &Std = LangStandard::getLangStandardForKind(PP->getLangOpts().LangStd);
    Args.push_back(std::string("-std=") + Std.getName());
  } else {
    SanitizedFlags Flags = sanitizeCompileFlags(Options.CompileFlags, Options.WorkingDirectory);
    Args.insert(Args.end(), Flags.Kept.begin(), Flags.Kept.end());
  }
  if (CudaRoot.empty())
    CudaRoot = Options.ToolkitRoot;
  if (!CudaRoot.empty()) {
    Args.push_back("--cuda-path=" + CudaRoot);
  } else {
    Args.push_back("-nocudainc");
    // Without a toolkit clang assumes PTX 4.2, and its code generator then
    // rejects the *_sync warp builtins (PTX 6.0); 8.5 is what clang 19
    // targets for CUDA 12.5, as the warpcheck binary's no-toolkit
    // arguments say too (tool/CudaEnvironment.cpp).
    Args.push_back("--cuda-feature=+ptx85");
  }

  struct Consumer : ASTConsumer {
    Consumer(const RegisterOptions &O, TranslationUnitRegisters &Out, CompilerInstance &CI)
        : Options(O), Out(Out), CI(CI) {}
    void HandleTranslationUnit(ASTContext &DeviceCtx) override {
      Out = estimateOnDeviceAST(DeviceCtx, Options, &CI.getPreprocessor());
      Done = true;
    }
    const RegisterOptions &Options;
    TranslationUnitRegisters &Out;
    CompilerInstance &CI;
    bool Done = false;
  };
  struct Action : ASTFrontendAction {
    Action(const RegisterOptions &O, TranslationUnitRegisters &Out) : Options(O), Out(Out) {}
    std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, llvm::StringRef) override {
      return std::make_unique<Consumer>(Options, Out, CI);
    }
    const RegisterOptions &Options;
    TranslationUnitRegisters &Out;
  };
  struct Factory : tooling::FrontendActionFactory {
    Factory(const RegisterOptions &O, TranslationUnitRegisters &Out) : Options(O), Out(Out) {}
    std::unique_ptr<FrontendAction> create() override {
      return std::make_unique<Action>(Options, Out);
    }
    const RegisterOptions &Options;
    TranslationUnitRegisters &Out;
  };
  std::string Dir = Options.WorkingDirectory;
  if (Dir.empty())
    Dir = llvm::sys::path::parent_path(Source).str();
  tooling::FixedCompilationDatabase Database(Dir.empty() ? "." : Dir, Args);
  tooling::ClangTool Tool(Database, {Source});
  FirstErrorConsumer Quiet;
  Tool.setDiagnosticConsumer(&Quiet);
  Tool.setPrintErrorMessage(false);
  TranslationUnitRegisters Device;
  Device.FallbackReason = "the device-side parse failed";
  Factory F(Options, Device);
  if ((Tool.run(&F) != 0 || Quiet.getNumErrors() > 0) && Device.ByMangledName.empty()) {
    R.FallbackReason = "the source could not be parsed for the device" + Quiet.suffix();
    return R;
  }
  Device.Arch = R.Arch;
  return Device;
}

} // namespace

std::unique_ptr<llvm::Module> lowerForEstimate(ASTContext &Ctx, llvm::LLVMContext &LLCtx,
                                               const RegisterOptions &Options,
                                               const Preprocessor *PP, std::string &Error) {
  if (!Ctx.getTargetInfo().getTriple().isNVPTX()) {
    Error = "the AST is not a device-side one";
    return nullptr;
  }
  if (Ctx.getDiagnostics().hasErrorOccurred()) {
    Error = "the translation unit has errors";
    return nullptr;
  }
  KernelCollector Found;
  Found.TraverseDecl(Ctx.getTranslationUnitDecl());
  HeaderSearchOptions DefaultHS;
  PreprocessorOptions DefaultPP;
  const HeaderSearchOptions &HS =
      PP ? PP->getHeaderSearchInfo().getHeaderSearchOpts() : DefaultHS;
  const PreprocessorOptions &PPO = PP ? PP->getPreprocessorOpts() : DefaultPP;
  std::unique_ptr<llvm::Module> M = emitDeviceModule(Ctx, Found, LLCtx, HS, PPO, Error);
  if (!M)
    return nullptr;
  linkLibdevice(*M, Options.ToolkitRoot);
  std::string CPU = Ctx.getTargetInfo().getTargetOpts().CPU;
  if (!optimizeModule(*M, CPU.empty() ? "sm_90" : CPU, Error))
    return nullptr;
  return M;
}

LiveValueMeasures measureLiveValues(const llvm::Function &F) {
  LiveValueMeasures L;
  L.InOrder = PressureModel(F.getParent()->getDataLayout(), false).functionPressure(F);
  L.Scheduled = PressureModel(F.getParent()->getDataLayout(), true).functionPressure(F);
  return L;
}

TranslationUnitRegisters estimateRegisters(ASTContext &Ctx, const RegisterOptions &Options,
                                           const Preprocessor *PP) {
  if (Ctx.getTargetInfo().getTriple().isNVPTX())
    return estimateOnDeviceAST(Ctx, Options, PP);
  return estimateByDeviceReparse(Ctx, Options, PP);
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

std::string deviceMangledName(const FunctionDecl *Kernel, ASTContext &Ctx) {
  std::unique_ptr<MangleContext> MC(Ctx.createMangleContext());
  if (!MC->shouldMangleDeclName(Kernel))
    return Kernel->getNameAsString();
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  MC->mangleName(GlobalDecl(Kernel, KernelReferenceKind::Kernel), OS);
  OS.flush();
  return Name;
}

std::string normalizedKernelName(llvm::StringRef MangledName) {
  std::string D = llvm::demangle(MangledName);
  // Identifiers that differ between nvcc's and clang's compilation of the
  // same source:
  //  - nvcc names an anonymous namespace _GLOBAL__N__<hash>_<n>_<file>_<hash>,
  //    clang's demangler prints "(anonymous namespace)";
  //  - CCCL's versioned inline namespaces spell the architecture list
  //    (CUB_300001_SM_900, THRUST_300001_SM_900_NS), which nvcc defines
  //    (__CUDA_ARCH_LIST__) and clang does not.
  auto IsIdent = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  std::string Out;
  Out.reserve(D.size());
  size_t I = 0;
  while (I < D.size()) {
    if (!IsIdent(D[I])) {
      Out += D[I++];
      continue;
    }
    size_t End = I;
    while (End < D.size() && IsIdent(D[End]))
      ++End;
    llvm::StringRef Ident(D.data() + I, End - I);
    if (Ident.starts_with("_GLOBAL__N_"))
      Out += "(anonymous namespace)";
    else if ((Ident.starts_with("CUB_") || Ident.starts_with("THRUST_")) &&
             Ident.contains("_SM_"))
      Out += Ident.take_front(Ident.find('_') + 1).str() + "SM";
    else
      Out += Ident.str();
    I = End;
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Per-AST cache
//===----------------------------------------------------------------------===//

namespace {
struct RegistryEntry {
  const TranslationUnitDecl *TU = nullptr;
  std::unique_ptr<RegisterUsage> Usage;
};
std::mutex RegistryMutex;
std::map<const ASTContext *, RegistryEntry> &registry() {
  static std::map<const ASTContext *, RegistryEntry> M;
  return M;
}

/// Path and contents of every file the parse read, for the cache key.
std::string loadedFilesKey(const SourceManager &SM) {
  std::vector<std::pair<std::string, llvm::StringRef>> Files;
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
    if (!It->second)
      continue;
    std::optional<llvm::StringRef> Data = It->second->getBufferDataIfLoaded();
    if (!Data)
      continue;
    Files.emplace_back(It->first.getName().str(), *Data);
  }
  std::sort(Files.begin(), Files.end(),
            [](const auto &A, const auto &B) { return A.first < B.first; });
  llvm::SHA256 Hash;
  for (const auto &[Name, Data] : Files) {
    Hash.update(Name);
    Hash.update(llvm::StringRef("\0", 1));
    Hash.update(Data);
    Hash.update(llvm::StringRef("\0", 1));
  }
  return hexDigest(Hash);
}
} // namespace

RegisterUsage::RegisterUsage(ASTContext &Ctx) : Ctx(Ctx) {}

RegisterUsage &RegisterUsage::get(ASTContext &Ctx) {
  std::lock_guard<std::mutex> Lock(RegistryMutex);
  RegistryEntry &E = registry()[&Ctx];
  if (!E.Usage || E.TU != Ctx.getTranslationUnitDecl()) {
    E.TU = Ctx.getTranslationUnitDecl();
    E.Usage = std::make_unique<RegisterUsage>(Ctx);
  }
  return *E.Usage;
}

void RegisterUsage::release(ASTContext &Ctx) {
  std::lock_guard<std::mutex> Lock(RegistryMutex);
  registry().erase(&Ctx);
}

RegisterOptions RegisterUsage::resolve(const RegisterOptions &Options) {
  RegisterOptions O = Options;
  if (O.Arch.empty())
    O.Arch = "sm_90";
  if (!O.ToolkitRoot.empty())
    if (auto Real = validateToolkitRoot(O.ToolkitRoot))
      O.ToolkitRoot = *Real;
  if (O.Mode == RegisterMode::Auto)
    O.Mode = O.ToolkitRoot.empty() ? RegisterMode::Estimate : RegisterMode::Ptxas;
  return O;
}

const TranslationUnitRegisters &RegisterUsage::estimate(const RegisterOptions &O) {
  // The estimate does not depend on the mode; one per remaining options.
  RegisterOptions Key = O;
  Key.Mode = RegisterMode::Estimate;
  auto &Slot = Estimates[Key.fingerprint()];
  if (!Slot)
    Slot = std::make_unique<TranslationUnitRegisters>(estimateRegisters(Ctx, O, PP));
  return *Slot;
}

const TranslationUnitRegisters &RegisterUsage::translationUnit(const RegisterOptions &Options) {
  RegisterOptions O = resolve(Options);
  std::lock_guard<std::mutex> Lock(Mutex);
  std::string Key = O.fingerprint();
  auto &Slot = Results[Key];
  if (Slot)
    return *Slot;
  if (O.Mode == RegisterMode::Estimate) {
    Slot = std::make_unique<TranslationUnitRegisters>(estimate(O));
    return *Slot;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Source = O.SourceFile;
  if (Source.empty())
    if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID())) {
      llvm::StringRef Real = Main->getFileEntry().tryGetRealPathName();
      Source = Real.empty() ? Main->getName().str() : Real.str();
    }
  TranslationUnitRegisters R = runPtxas(O, Source, loadedFilesKey(SM));
  if (!R.FallbackReason.empty()) {
    TranslationUnitRegisters E = estimate(O);
    E.FallbackReason = "ptxas was not used (" + R.FallbackReason + ")" +
                       (E.FallbackReason.empty() ? "" : "; the estimate: " + E.FallbackReason);
    E.DroppedFlags = R.DroppedFlags;
    R = std::move(E);
  }
  Slot = std::make_unique<TranslationUnitRegisters>(std::move(R));
  return *Slot;
}

std::optional<FunctionRegisters> RegisterUsage::lookup(const FunctionDecl *Kernel,
                                                      const RegisterOptions &Options,
                                                      std::string *Note) {
  const TranslationUnitRegisters &TU = translationUnit(Options);
  std::string Mangled = deviceMangledName(Kernel, Ctx);
  auto Find = [&](const TranslationUnitRegisters &R,
                  const std::string &Key) -> std::optional<FunctionRegisters> {
    auto It = R.ByMangledName.find(Mangled);
    if (It != R.ByMangledName.end())
      return It->second;
    std::lock_guard<std::mutex> Lock(Mutex);
    auto &Index = Normalized[Key];
    if (Index.empty()) {
      std::map<std::string, unsigned> Count;
      for (const auto &Entry : R.ByMangledName)
        ++Count[normalizedKernelName(Entry.first)];
      for (const auto &Entry : R.ByMangledName) {
        std::string N = normalizedKernelName(Entry.first);
        if (Count[N] == 1)
          Index[N] = Entry.first;
      }
      Index[""] = ""; // computed
    }
    auto N = Index.find(normalizedKernelName(Mangled));
    if (N == Index.end() || N->second.empty())
      return std::nullopt;
    return R.ByMangledName.at(N->second);
  };
  RegisterOptions O = resolve(Options);
  std::optional<FunctionRegisters> F = Find(TU, O.fingerprint() + "\x1d" + registerSourceName(TU.Source));
  if (F) {
    if (Note)
      *Note = TU.FallbackReason;
    return F;
  }
  if (TU.Source == RegisterSource::Ptxas) {
    const TranslationUnitRegisters *E;
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      E = &estimate(O);
    }
    F = Find(*E, O.fingerprint() + "\x1d" + "estimate");
    if (F && Note)
      *Note = "ptxas reported no kernel named '" + Mangled + "'";
    return F;
  }
  if (Note)
    *Note = TU.FallbackReason;
  return std::nullopt;
}

} // namespace warpcheck::analysis
