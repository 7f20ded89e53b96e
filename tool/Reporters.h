//===- Reporters.h - text and JSON output of a warpcheck run --------------===//
#ifndef WARPCHECK_TOOL_REPORTERS_H
#define WARPCHECK_TOOL_REPORTERS_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace warpcheck::tool {

/// Results of all translation units, merged.
struct RunResult {
  llvm::json::Array Kernels;
  llvm::json::Array Findings;
  /// {"file", "message"} for inputs that could not be analysed.
  llvm::json::Array Errors;
  unsigned FilesAnalysed = 0;
};

/// clang-style: file:line:col: warning: message [check], the source line and
/// a caret, then the notes.
void renderText(const RunResult &R, llvm::raw_ostream &OS, bool Color);

/// The --format=json contract: {"version": 1, "kernels": [...],
/// "findings": [...], "errors": [...]}.
void renderJson(const RunResult &R, llvm::raw_ostream &OS);

} // namespace warpcheck::tool

#endif
