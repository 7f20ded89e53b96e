//===- Baseline.h - findings a team has accepted ----------------*- C++ -*-===//
//
// A pull request is gated on the findings it adds, not on those the code
// had before: --baseline names an earlier report (a --write-baseline file,
// a --format=json report or a SARIF log of warpcheck) and the findings
// whose fingerprint (Fingerprint.h) it holds are neither reported nor
// counted against the exit code; the summary says how many there were.
//
// A baseline that cannot be read, is not JSON, is none of the three, or
// holds a finding without a fingerprint is an error naming the file: a
// gate that silently let everything through would be worse than none.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_BASELINE_H
#define WARPCHECK_TOOL_BASELINE_H

#include "RunResult.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <set>
#include <string>

namespace warpcheck::tool {

/// The "warpcheck_baseline" version --write-baseline writes.
constexpr int BaselineFormatVersion = 1;

/// The fingerprints of the baseline file Path.
llvm::Expected<std::set<std::string>> readBaseline(llvm::StringRef Path);

/// Removes the findings whose fingerprint is in Fingerprints and counts
/// them in R.SuppressedByBaseline.
void applyBaseline(RunResult &R, const std::set<std::string> &Fingerprints);

/// Writes {"warpcheck_baseline": 1, "findings": [{"fingerprint", "check",
/// "file", "line"}, ...]} for the findings of R (docs/report-formats.md).
llvm::Error writeBaseline(const RunResult &R, llvm::StringRef Path);

} // namespace warpcheck::tool

#endif
