//===- JobResult.h - what one translation-unit job gives, typed -----------===//
//
// The translation-unit job (TranslationUnitJob.h) fills a JobResult; the
// merge (RunResult.h) and the binding of launches across units
// (CrossUnitLaunches.h) read it. A job run in a worker process hands it
// over as JSON: toJson and jobResultFromJson here are that JSON's one
// writer and one reader.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_JOBRESULT_H
#define WARPCHECK_TOOL_JOBRESULT_H

#include "KernelEntries.h"
#include "ReportEntries.h"

#include "warpcheck/analysis/LaunchConfig.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// A file the unit's parse read, and the digest of what it read
/// (contentDigest): what the results cache (ResultsCache.h) checks before
/// it reuses the result.
struct FileDigest {
  /// Absolute.
  std::string File;
  std::string Digest;
};

/// The BLAKE3 digest of Data, in lower-case hex.
std::string contentDigest(llvm::StringRef Data);

struct JobResult {
  std::string File;
  /// What became of the input; nullopt when the job wrote no summary.
  std::optional<InputOutcome> Input;
  /// The user headers the unit includes.
  std::vector<std::string> Headers;
  /// Compiler errors, or the input that could not be analysed.
  std::vector<ReportedError> Errors;
  /// With the text of their lines (the JSON report leaves it out).
  std::vector<Finding> Findings;
  std::vector<KernelEntry> Kernels;
  /// For the binding of launches across units, never reported: the
  /// launches this unit evaluated of kernels it only declares, and the
  /// kernels it defines but saw no launch of (analysis::crossUnitName).
  analysis::CrossUnitLaunches LaunchesOfOtherUnitsKernels;
  std::vector<std::string> KernelsWithoutLaunch;
  /// The same for host functions: the calls this unit evaluated of
  /// functions it only declares, and the functions it defines that launch
  /// and that it ran with unknown parameters (no caller in the unit).
  analysis::CrossUnitCalls CallsOfOtherUnitsFunctions;
  std::vector<std::string> FunctionsWithoutCaller;
  /// Every file the parse read (the unit, its headers, the toolkit's),
  /// when the job was asked to record them (TranslationUnitJob::
  /// RecordDependencies); never reported.
  std::vector<FileDigest> Dependencies;
};

/// {"file", "input": {...}, "headers": [...], "errors": [...], "findings":
/// [...], "kernels": [...]} and, when not empty, "cross_unit_launches",
/// "kernels_without_launch", "cross_unit_calls", "functions_without_caller",
/// and "dependencies" ([{"file", "digest"}]).
llvm::json::Object toJson(const JobResult &R);
JobResult jobResultFromJson(const llvm::json::Object &O);

} // namespace warpcheck::tool

#endif
