//===- ConfigVerification.h - the checks' configuration, verified ---------===//
//
// Before any unit is analysed, the configuration its checks run with
// (JobOptions.h) is verified, as clang-tidy --verify-config does, and more:
//   - each .clang-tidy that applies can be read (clang-tidy would skip one
//     it cannot parse, and its options would silently be the defaults);
//   - each glob of Checks that names a cuda check (cuda-...) matches one;
//   - each option of a cuda check (cuda-<check>.<Option>) is one the check
//     has;
//   - each value is one the checks accept (the checks are built with the
//     unit's options, and what they refuse with configurationDiag is
//     collected: Arch, DefaultBlock, the thresholds).
// Checks and options of other modules (bugprone-*, readability-*...) are
// clang-tidy's to verify: a project's .clang-tidy holds them beside ours.
// Each problem names its source (a .clang-tidy, or the command line) and
// the option; it is never a finding.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_CONFIGVERIFICATION_H
#define WARPCHECK_TOOL_CONFIGVERIFICATION_H

#include "TranslationUnitJob.h"

#include <set>
#include <string>
#include <vector>

namespace warpcheck::tool {

struct ConfigProblem {
  /// A .clang-tidy file, or "the command line".
  std::string Source;
  std::string Message;
};

class ConfigVerifier {
public:
  ConfigVerifier();
  /// The problems of the configuration Job's checks run with that this
  /// verifier has not said yet (units sharing a .clang-tidy share its
  /// problems).
  std::vector<ConfigProblem> verify(const TranslationUnitJob &Job);

private:
  /// "; did you mean '...'" for an unknown option of a cuda check, or "".
  std::string optionSuggestion(llvm::StringRef Key) const;
  /// "; did you mean 'Arch'" for a bare option name a few letters from one
  /// of the global options the cuda checks read (Arhc, DefaultBlok), or "".
  std::string misspelledGlobalOption(llvm::StringRef Key) const;

  std::vector<std::string> CheckNames, OptionNames;
  /// Problems said, and configurations whose values were verified.
  std::set<std::string> Said, Verified;
};

} // namespace warpcheck::tool

#endif
