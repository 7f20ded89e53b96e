//===- JobOptions.h - the options a job's checks run with -----------------===//
//
// One place decides what the checks of a translation unit are configured
// with, for the job that runs them (TranslationUnitJob.h) and for the
// verification of the configuration before any job runs
// (ConfigVerification.h): clang-tidy's own FileOptionsProvider, so that
// each file's nearest .clang-tidy (and those above it that it inherits,
// InheritParentConfig) counts as clang-tidy counts it, under warpcheck's
// command line:
//   Checks        the .clang-tidy's, after warpcheck's default cuda-*, as
//                 clang-tidy merges them; --checks, when given, replaces
//                 them (exactly the checks it names);
//   CheckOptions  the .clang-tidy's over warpcheck's defaults (the global
//                 Arch is the build's architecture, DefaultBlock 256,1,1),
//                 then --config, --arch and --default-block (which win);
//                 the JSON report models the kernels with the same global
//                 Arch and DefaultBlock as the checks;
//   WarningsAsErrors, HeaderFilterRegex  the .clang-tidy's and the command
//                 line's.
// A .clang-tidy is untrusted input: it sets options, never a program (the
// register count starts only the located toolkit's nvcc).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_JOBOPTIONS_H
#define WARPCHECK_TOOL_JOBOPTIONS_H

#include "TranslationUnitJob.h"

#include "clang-tidy/ClangTidyOptions.h"

namespace clang::tidy {
class ClangTidyContext;
}

#include <memory>

namespace warpcheck::tool {

/// The options provider of Job's checks (see above).
std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> jobOptionsProvider(
    const TranslationUnitJob &Job);

/// Job with the global Arch and DefaultBlock its checks run with (a
/// .clang-tidy's, unless --arch or --default-block gives them): the JSON
/// report's kernels are modelled with the same as the checks' messages.
TranslationUnitJob withConfiguredTarget(const TranslationUnitJob &Job,
                                        clang::tidy::ClangTidyContext &Context);

/// The diagnostic name of a problem with the configuration (a value a check
/// refuses): clang-tidy's. Never a finding.
constexpr llvm::StringLiteral ConfigurationDiagnostic = "clang-tidy-config";

} // namespace warpcheck::tool

#endif
