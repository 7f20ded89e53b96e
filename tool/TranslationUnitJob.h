//===- TranslationUnitJob.h - analyse one translation unit ----------------===//
//
// One translation unit is parsed and analysed in a worker process of its
// own (warpcheck starts itself with an argument vector, never through a
// shell), so that a crash or a hang in one file never stops the others.
// Its result is typed (JobResult.h); a worker writes it as JSON.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_TRANSLATIONUNITJOB_H
#define WARPCHECK_TOOL_TRANSLATIONUNITJOB_H

#include "JobResult.h"

#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool {

struct TranslationUnitJob {
  std::string File;
  /// Working directory of the compile command.
  std::string Directory;
  /// clang arguments, without the program name and without the file.
  std::vector<std::string> ClangArgs;
  /// clang-tidy glob of the enabled checks (--checks); empty: those the
  /// unit's .clang-tidy enables, after the default cuda-* (JobOptions.h).
  std::string Checks;
  std::string WarningsAsErrors;
  /// Architecture the hardware model uses (may be newer than clang knows).
  std::string Arch;
  std::string DefaultBlock = "256,1,1";
  /// Extra check options, "check.Option=value".
  std::vector<std::string> CheckOptions;
  /// Root of the CUDA toolkit warpcheck located (--cuda-path, $CUDA_PATH,
  /// $CUDA_HOME, /usr/local/cuda): its bin/nvcc is the only program the
  /// register count may start. Empty when no toolkit is used (--no-cuda,
  /// or none found): registers are estimated.
  std::string ToolkitRoot;
  /// Which user headers report findings and kernels (clang-tidy's
  /// HeaderFilterRegex). nullopt: clang-tidy's own default (no header); the
  /// warpcheck binary's default is every user header.
  std::optional<std::string> HeaderFilter;
  /// The rest of an --arch list: architectures the occupancy is compared
  /// with (cuda-occupancy's Archs, the JSON's "occupancy_by_arch").
  std::vector<std::string> CompareArchs;
  /// A JSON table of the launches other units make of this unit's kernels
  /// (CrossUnitLaunches.h); empty: none.
  std::string OtherUnitsFile;
  /// Fill JobResult::Dependencies (for the results cache): every file the
  /// parse read, with the digest of what it read.
  bool RecordDependencies = false;
  /// Parsed only for the launches and host-function calls it makes of other
  /// units' kernels and functions (--launches-from=database): no check
  /// runs, no kernel is analysed, nothing of it is reported.
  bool LaunchesOnly = false;
  /// An `nvdisasm -gi` listing the kernels' memory instructions are read
  /// from (--sass-listing, an absolute path); empty: the toolkit's.
  std::string SassListing;
};

/// Runs the checks and the engine on Job and fills Result. Its input's
/// status is "analysed" (no compiler error), "analysed_with_errors" (the
/// kernels that compile were analysed) or "not_analysed". Returns 0 for
/// "analysed", 3 otherwise.
int runTranslationUnitJob(const TranslationUnitJob &Job, JobResult &Result);

/// Serialises a job into worker arguments and back.
std::vector<std::string> jobToArguments(const TranslationUnitJob &Job,
                                        const std::string &OutputPath);
bool jobFromArguments(const std::vector<std::string> &Args, TranslationUnitJob &Job,
                      std::string &OutputPath, std::string &Error);

} // namespace warpcheck::tool

#endif
