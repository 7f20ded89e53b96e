//===- Guards.h - what the guards share with the rest of the folder ------===//
//
// Internal to analysis/registers/: helpers of the guards (Guards.cpp) that
// the nvcc runner and the estimate's device reparse use too.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_REGISTERS_GUARDS_H
#define WARPCHECK_ANALYSIS_REGISTERS_GUARDS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <string>
#include <vector>

namespace clang {
class HeaderSearchOptions;
class PreprocessorOptions;
} // namespace clang

namespace warpcheck::analysis::registers {

/// Path names something that exists and is not a folder.
bool fileExists(const llvm::Twine &Path);

/// The system's own C and C++ include folders (/usr/include and the like,
/// GCC's): a compiler driver adds them itself.
bool isSystemIncludeDir(llvm::StringRef Dir);

/// The -I and -isystem flags of the parse's user include folders, in their
/// order; frameworks and the folders Skip names are left out.
std::vector<std::string> includeFlags(const clang::HeaderSearchOptions &HS,
                                      llvm::function_ref<bool(llvm::StringRef Dir)> Skip);

/// Appends the parse's -D and -U flags, in their order.
void appendMacroFlags(const clang::PreprocessorOptions &PPO, std::vector<std::string> &Flags);

} // namespace warpcheck::analysis::registers

#endif
