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
