//===- GitDiff.h - the lines changed since a git revision -------*- C++ -*-===//
//
// --diff REV: the findings on lines added or changed since REV, in the
// git repository each finding's file is in. git is the only program this
// starts: found on PATH by warpcheck itself, started with an argument
// vector (toolchain/ProcessRunner.h), never through a shell, with the
// options that keep it from starting anything else (no external diff, no
// textconv filter, no pager, no fsmonitor). Nothing read from the code
// under review reaches its command line but the repository's path.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_GITDIFF_H
#define WARPCHECK_TOOL_GITDIFF_H

#include "LineFilter.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace warpcheck::tool {

/// The lines of the files of `git diff -U0 Rev` (the working tree against
/// Rev) in the repositories of Files (absolute paths), as a filter with
/// absolute file names. An error when git is not on PATH, a file is not in
/// a git repository, or git fails (its message is kept).
llvm::Expected<LineFilter> changedLinesSince(llvm::StringRef Rev,
                                             llvm::ArrayRef<std::string> Files);

/// The added lines of each file of a unified diff with zero context whose
/// new names are relative to Root (the parser behind changedLinesSince).
LineFilter parseUnifiedDiff(llvm::StringRef Diff, llvm::StringRef Root);

} // namespace warpcheck::tool

#endif
