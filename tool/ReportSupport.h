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

} // namespace warpcheck::tool

#endif
