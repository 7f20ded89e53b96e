//===- PtxasCache.h - ptxas's counts on disk, keyed by content ------------===//
//
// Internal to analysis/registers/. One file per nvcc run, named by the
// SHA-256 of everything the run depends on; it holds the result (every
// kernel's counts, or the reason nvcc failed). Written to a private file
// and renamed, so a reader never sees half of one.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_REGISTERS_PTXASCACHE_H
#define WARPCHECK_ANALYSIS_REGISTERS_PTXASCACHE_H

#include "warpcheck/analysis/RegisterUsage.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SHA256.h"

#include <optional>
#include <string>

namespace warpcheck::analysis::registers {

/// The digest of Hash, in lower-case hex.
std::string hexDigest(llvm::SHA256 &Hash);

/// The cache key of one nvcc run: the toolkit (its root and the identity of
/// its nvcc, ptxas and cicc), the architecture, the -maxrregcount of the
/// options and of the flags, the flags nvcc gets, the source's path and
/// contents, and ExtraKey.
std::string ptxasCacheKey(llvm::StringRef ToolkitRoot, llvm::StringRef Arch,
                          std::optional<unsigned> MaxRegisterCount, const SanitizedFlags &Flags,
                          llvm::StringRef SourcePath, llvm::StringRef SourceContents,
                          llvm::StringRef ExtraKey);

/// The result cached in File; nullopt if there is none or it is damaged.
std::optional<TranslationUnitRegisters> readCache(llvm::StringRef File);

/// Caches R in File; silently nothing if it cannot be written.
void writeCache(llvm::StringRef File, const TranslationUnitRegisters &R);

} // namespace warpcheck::analysis::registers

#endif
