//===- ReportSupport.h - what the report writers share ----------*- C++ -*-===//
//
// The pieces the text, JSON, SARIF and HTML writers (Reporters.h) have in
// common: findings per check, the one-line summary
// of a check, and how a file is named relative to the base directory.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_REPORTSUPPORT_H
#define WARPCHECK_TOOL_REPORTSUPPORT_H

#include "RunResult.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// Findings per check, in name order: SARIF's rules, the HTML summary.
std::map<std::string, unsigned> findingsPerCheck(const RunResult &R);

/// What a check reports, in one line (as README's table says it); empty
/// for a check warpcheck does not know (a compiler warning, a future check).
llvm::StringRef checkSummary(llvm::StringRef Check);

/// A file as reports name it: absolute, without "." and "..", and relative
/// to the base directory when it lies under it (shorter for people; for
/// code scanning, a path it can find in the repository).
struct ReportedFile {
  std::string Path;
  bool UnderBase = false;
};
ReportedFile reportedFile(llvm::StringRef Base, llvm::StringRef File);

/// \p Text as a terminal may show it, as clang-tidy shows source: a code
/// point that is not printable (ESC, a newline, a carriage return, C1
/// controls) becomes <U+001B>, a byte that is not UTF-8 becomes <FF>, tabs
/// stay when \p KeepTabs. File names and source lines come from the code
/// under review: printed raw, an escape sequence in them would rewrite the
/// user's terminal and a newline would forge a line of the report.
std::string printableText(llvm::StringRef Text, bool KeepTabs = false);

/// The blanks that put a caret under the byte at \p Column (1-based) of
/// \p Source once printed with printableText (tabs kept as tabs).
std::string caretIndent(llvm::StringRef Source, int64_t Column);

} // namespace warpcheck::tool

#endif
