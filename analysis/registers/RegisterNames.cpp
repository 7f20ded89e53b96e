//===- RegisterNames.cpp - names of sources, modes, options and kernels ---===//
//
// The words of the JSON report and the check options (registers_source,
// RegisterMode), the options' fingerprint, and a kernel's names: mangled as
// the device compilation spells it, and normalized so that nvcc's and
// clang's spellings of one kernel compare equal.
//
//===----------------------------------------------------------------------===//

#include "warpcheck/analysis/RegisterUsage.h"

#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace warpcheck::analysis {

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

} // namespace warpcheck::analysis
