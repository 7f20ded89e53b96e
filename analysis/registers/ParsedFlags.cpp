//===- ParsedFlags.cpp - the flags a unit was parsed with, for nvcc -------===//
//
// The include folders, macros, forced includes and standard a translation
// unit was parsed with, read back for the nvcc run, and the options the
// checks use. The guards on what reaches nvcc (characters, the flags the
// table keeps, the trusted toolkit) are the toolchain layer's
// (warpcheck/toolchain/NvccInvocation.h).
//
//===----------------------------------------------------------------------===//

#include "ParsedFlags.h"
#include "Options.h"

#include "warpcheck/analysis/RegisterUsage.h"

#include "clang/Basic/LangStandard.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace clang;

namespace warpcheck::analysis {

namespace registers {

std::vector<std::string> includeFlags(const HeaderSearchOptions &HS,
                                      llvm::function_ref<bool(llvm::StringRef Dir)> Skip) {
  std::vector<std::string> Flags;
  for (const HeaderSearchOptions::Entry &E : HS.UserEntries) {
    if (E.IsFramework || Skip(E.Path))
      continue;
    switch (E.Group) {
    case frontend::Quoted:
    case frontend::Angled:
      Flags.push_back("-I" + E.Path);
      break;
    case frontend::System:
      Flags.push_back("-isystem");
      Flags.push_back(E.Path);
      break;
    default:
      break;
    }
  }
  return Flags;
}

void appendMacroFlags(const PreprocessorOptions &PPO, std::vector<std::string> &Flags) {
  for (const auto &[Macro, IsUndef] : PPO.Macros)
    Flags.push_back((IsUndef ? "-U" : "-D") + Macro);
}

} // namespace registers

using registers::appendMacroFlags;
using registers::archOrDefault;
using registers::includeFlags;
using toolchain::isToolchainIncludeDir;

std::vector<std::string> compileFlagsFromPreprocessor(const Preprocessor &PP) {
  const HeaderSearchOptions &HS = PP.getHeaderSearchInfo().getHeaderSearchOpts();
  std::vector<std::string> Flags = includeFlags(
      HS, [&](llvm::StringRef Dir) { return isToolchainIncludeDir(Dir, HS.ResourceDir); });
  appendMacroFlags(PP.getPreprocessorOpts(), Flags);
  // The unit's forced includes, but not clang's CUDA wrapper (the driver
  // forces __clang_cuda_runtime_wrapper.h in) nor warpcheck's own (the
  // bundled declarations and the nvcc-compatibility header, all named
  // warpcheck_*): they are written for clang's parse, and nvcc has its own
  // CUDA headers.
  for (const std::string &Include : PP.getPreprocessorOpts().Includes)
    if (llvm::StringRef Name = llvm::sys::path::filename(Include);
        !Name.starts_with("warpcheck_") && !Name.starts_with("__clang_")) {
      Flags.push_back("-include");
      Flags.push_back(Include);
    }
  const LangOptions &LO = PP.getLangOpts();
  const LangStandard &Std = LangStandard::getLangStandardForKind(LO.LangStd);
  if (LO.CPlusPlus)
    Flags.push_back(std::string("-std=") + Std.getName());
  // The device math the parse was given (nvcc's --use_fast_math becomes
  // -fgpu-approx-transcendentals, -fmad=false -ffp-contract=off:
  // tool/NvccOptionTranslation.cpp): it changes the instructions nvcc
  // emits and the lines nvdisasm puts them on, so nvcc compiles so too.
  if (LO.GPUDeviceApproxTranscendentals)
    Flags.push_back("--use_fast_math");
  if (LO.getDefaultFPContractMode() == LangOptions::FPM_Off)
    Flags.push_back("-fmad=false");
  // Relocatable device code (nvcc's -rdc=true, -dc): nvcc compiles so too
  // (SanitizedFlags::RelocatableDeviceCode).
  if (LO.GPURelocatableDeviceCode)
    Flags.push_back("-fgpu-rdc");
  return Flags;
}

RegisterOptions standardRegisterOptions(llvm::StringRef Arch, const Preprocessor *PP,
                                        RegisterMode Mode, unsigned MaxRegisterCount) {
  RegisterOptions O;
  O.Mode = Mode;
  O.Arch = archOrDefault(Arch);
  O.ToolkitRoot = trustedToolkitRoot();
  if (O.ToolkitRoot.empty())
    if (std::optional<std::string> Found = defaultToolkitRoot())
      O.ToolkitRoot = *Found;
  if (PP)
    O.CompileFlags = compileFlagsFromPreprocessor(*PP);
  if (MaxRegisterCount)
    O.MaxRegisterCount = MaxRegisterCount;
  return O;
}


} // namespace warpcheck::analysis
