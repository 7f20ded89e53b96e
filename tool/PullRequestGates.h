//===- PullRequestGates.h - what a pull request is gated on -----*- C++ -*-===//
//
// The options that decide which findings a run reports and fails on:
// --source-root (how files are named in fingerprints and SARIF),
// --baseline and --write-baseline (Baseline.h), --line-filter and --diff
// (LineFilter.h, GitDiff.h). What can be checked before the analysis is
// (a bad baseline is a usage error at once, not after an hour of work); the
// rest applies to the merged results (docs/ci.md).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_PULLREQUESTGATES_H
#define WARPCHECK_TOOL_PULLREQUESTGATES_H

#include "CommandLine.h"
#include "LineFilter.h"
#include "RunResult.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// What --source-root, --baseline and --line-filter say, read and checked.
struct GateOptions {
  /// Absolute: --source-root, else the current directory.
  std::string SourceRoot;
  std::optional<std::set<std::string>> Baseline;
  std::vector<LineFilter> Filters;
};

/// Reads the gates before the analysis; nullopt after printing an error.
std::optional<GateOptions> readGateOptions(const CommandLine &CL, llvm::StringRef Cwd);

/// Fingerprints the findings, writes --write-baseline (every finding of the
/// run), then leaves out those outside --diff and --line-filter and those
/// the baseline holds. False after printing an error.
bool applyGates(const CommandLine &CL, GateOptions &G, llvm::StringRef Cwd, RunResult &R);

/// Leaves out the findings of R (fingerprinted) outside G's line filters
/// and those G's baseline holds: the last step of applyGates.
void applyFiltersAndBaseline(const GateOptions &G, llvm::StringRef Cwd, RunResult &R);

/// The gates that need nothing but G on the results of one unit, for the
/// findings printed as each unit finishes (FindingStream.h): fingerprints,
/// line filters, the baseline. Not --diff, which asks git about every file
/// of the run, nor --write-baseline, which writes the whole run's.
void applyGatesToUnit(const GateOptions &G, llvm::StringRef Cwd, RunResult &R);

} // namespace warpcheck::tool

#endif
