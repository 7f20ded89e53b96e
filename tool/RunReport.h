//===- RunReport.h - a run's results, gated, reported, its exit code -----===//
//
// What a run does once its results are merged, shared by a whole run and
// `warpcheck merge` of shards (Shards.h): the gates of a pull request
// (PullRequestGates.h), the report in the asked format to -o or standard
// output, the errors, notes and summary line on standard error, and the
// exit code (CommandLine.h).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_RUNREPORT_H
#define WARPCHECK_TOOL_RUNREPORT_H

#include "CommandLine.h"
#include "FindingStream.h"
#include "PullRequestGates.h"
#include "RunResult.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <string>

namespace warpcheck::tool {

/// \p Text with its control characters escaped (printableText), line by
/// line.
std::string printableLines(llvm::StringRef Text);

/// The errors on standard error: each input's compiler errors and each
/// input not analysed, by file name and cause; then the notes.
void printErrorsAndNotes(const RunResult &R);

/// Applies the gates, writes the report, prints the errors and notes, then
/// RunNotes, then the summary line; then AfterReport (--fix,
/// --export-fixes: false after printing an error). Returns the exit code.
/// The text report leaves out the findings Streamed printed already (null:
/// none was); the counts and the summary line are the whole run's.
int reportRun(const CommandLine &CL, GateOptions &Gates, llvm::StringRef Cwd, RunResult &Result,
              llvm::ArrayRef<std::string> RunNotes,
              const std::function<bool(const RunResult &)> &AfterReport = {},
              const FindingStream *Streamed = nullptr);

} // namespace warpcheck::tool

#endif
