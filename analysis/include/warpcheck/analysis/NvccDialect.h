//===- NvccDialect.h - source nvcc accepts that clang's lexer does not ----===//
//
// nvcc's front end reads a launch written with spaces inside its chevrons,
// `kernel << < grid, block >> > (args)`, as `kernel<<<grid, block>>>(args)`
// (nvcc 13 compiles it; such code is common in older programs, whose
// formatters split the chevrons). clang lexes `<<<` and `>>>` as single
// tokens only when written together, so to clang the spaced form is a
// shift followed by a stray `<`: an error that loses the launch site and,
// with it, the kernel's launch shape.
//
// The respelling below turns each spaced launch into the unspaced one of
// the same length (`<< <` becomes `<<< `, `>> >` becomes `>>> `), so that
// every offset, line and column of the file stays where it was: fix-its and
// diagnostics computed on the respelled text apply to the original. It is
// done on the raw tokens, so comments, strings and `operator<< <T>` (an
// explicit template argument list of operator<<) are left alone, and only a
// `>> >` closing a respelled `<< <` at the same nesting is touched.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_NVCCDIALECT_H
#define WARPCHECK_ANALYSIS_NVCCDIALECT_H

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace warpcheck::analysis {

/// Source with every spaced launch respelled, or nullopt when it has none.
/// The result has exactly Source's length.
std::optional<std::string> respellSpacedLaunches(llvm::StringRef Source);

/// `__shared__ alignas(16) float a[64];` (nvcc accepts it; clang: "an
/// attribute list cannot appear here", since __shared__ is a GNU attribute
/// and C++11 attributes must come first) respelled `alignas(16) __shared__
/// float a[64];`: the same characters, so the same length. Also for
/// __device__, __constant__ and __managed__. nullopt when there is none.
std::optional<std::string> respellAlignasAfterSpaceQualifier(llvm::StringRef Source);

/// Both respellings above.
std::optional<std::string> respellNvccDialect(llvm::StringRef Source);

/// Respells the main file of SM as respellNvccDialect() does, before it is
/// lexed (its buffer is replaced by one of the same length). Call it before
/// parsing starts: from FrontendAction::BeginSourceFileAction or a
/// clang-tidy check's registerPPCallbacks. True when something changed.
bool respellNvccDialectInMainFile(clang::SourceManager &SM);

} // namespace warpcheck::analysis

#endif
