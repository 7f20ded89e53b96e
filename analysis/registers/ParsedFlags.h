//===- ParsedFlags.h - the flags a unit was parsed with -------------------===//
//
// Internal to analysis/registers/: the parse's own include folders and
// macros read back for the nvcc run (ParsedFlags.cpp), which the estimate's
// device reparse uses too. The guards on what reaches nvcc are the toolchain
// layer's (warpcheck/toolchain/NvccInvocation.h).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_REGISTERS_PARSEDFLAGS_H
#define WARPCHECK_ANALYSIS_REGISTERS_PARSEDFLAGS_H

#include "warpcheck/toolchain/CudaToolkit.h"
#include "warpcheck/toolchain/NvccInvocation.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace clang {
class HeaderSearchOptions;
class PreprocessorOptions;
} // namespace clang

namespace warpcheck::analysis::registers {

using toolchain::fileExists;
using toolchain::isSystemIncludeDir;

/// The -I and -isystem flags of the parse's user include folders, in their
/// order; frameworks and the folders Skip names are left out.
std::vector<std::string> includeFlags(const clang::HeaderSearchOptions &HS,
                                      llvm::function_ref<bool(llvm::StringRef Dir)> Skip);

/// Appends the parse's -D and -U flags, in their order.
void appendMacroFlags(const clang::PreprocessorOptions &PPO, std::vector<std::string> &Flags);

} // namespace warpcheck::analysis::registers

#endif
