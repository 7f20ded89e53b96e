//===- LineFilter.h - findings only on the lines a change touches -*- C++ -*-===//
//
// --line-filter takes clang-tidy's JSON syntax and semantics:
// [{"name": "file.cu", "lines": [[1, 3], [8, 8]]}, {"name": "other.cu"}]
// keeps the findings whose file name ends with a listed name, on a listed
// line (every line when "lines" is absent); a file not listed keeps none.
// --diff REV builds the same filter from git (GitDiff.h). Findings outside
// are left out of the report and the exit code, and counted.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_LINEFILTER_H
#define WARPCHECK_TOOL_LINEFILTER_H

#include "RunResult.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace warpcheck::tool {

struct LineFilter {
  struct File {
    std::string Name;
    /// Inclusive line ranges; none: every line of the file.
    std::vector<std::pair<std::int64_t, std::int64_t>> Lines;
  };
  std::vector<File> Files;

  /// Whether a finding at Line of the file named Path (as reported, or
  /// absolute) is kept.
  bool keeps(llvm::ArrayRef<std::string> Paths, std::int64_t Line) const;
};

/// Parses --line-filter's JSON; the error says what is wrong where.
llvm::Expected<LineFilter> parseLineFilter(llvm::StringRef Json);

/// Removes the findings some filter does not keep and counts them in
/// R.OutsideLineFilter. Relative file names are taken from WorkingDirectory.
void applyLineFilters(RunResult &R, llvm::ArrayRef<LineFilter> Filters,
                      llvm::StringRef WorkingDirectory);

} // namespace warpcheck::tool

#endif
