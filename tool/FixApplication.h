//===- FixApplication.h - --fix and --export-fixes ---------------*- C++ -*-===//
//
// The fix-its of the reported findings (after --baseline, --diff and
// --line-filter), chosen as clang-tidy chooses them: a finding's fix-it,
// or with --fix-notes the first fix-it of its notes when it has none of its
// own. A fix-it is applied whole or not at all; one that overlaps a fix-it
// already chosen (in report order) is left out and said; the same
// replacement from several launches or units is applied once. Only the
// files of the analysed code are written (the units' main files and the
// user headers they include, never a system header), each atomically.
//
// --export-fixes writes the chosen fix-its in clang-tidy's YAML
// (clang::tooling::TranslationUnitDiagnostics), which
// clang-apply-replacements applies to the same result as --fix.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_FIXAPPLICATION_H
#define WARPCHECK_TOOL_FIXAPPLICATION_H

#include "ReportEntries.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// The fix-it of one finding that is applied: its replacements, each file
/// absolute, without those another finding's fix-it already made.
struct ChosenFix {
  const Finding *From = nullptr;
  std::vector<clang::tooling::Replacement> Replacements;
};

/// A finding's fix-it that is not applied, and why.
struct SkippedFix {
  const Finding *From = nullptr;
  /// The file of the replacement that could not be applied (absolute).
  std::string File;
  std::string Reason;
};

struct FixSelection {
  /// In report order: one per finding with a fix-it that is applied.
  std::vector<ChosenFix> Chosen;
  std::vector<SkippedFix> Skipped;
  /// The replacements to make, per absolute file, free of conflicts.
  std::map<std::string, clang::tooling::Replacements> ByFile;
  /// Fix-its offered (applied or not), for the summary.
  unsigned Offered = 0;
};

/// \p File made absolute against \p Directory, its dots removed and, when
/// it exists, its symbolic links resolved: how fix-its and the writable
/// files are compared.
std::string canonicalFile(llvm::StringRef File, llvm::StringRef Directory);

/// Chooses the fix-its of \p Findings. Relative files are relative to
/// \p WorkingDirectory. A fix-it naming a file that is not in \p
/// WritableFiles (canonicalFile) is skipped. WithNotes: a finding
/// without a fix-it of its own takes its first note's (--fix-notes).
FixSelection chooseFixes(const std::vector<Finding> &Findings, bool WithNotes,
                         llvm::StringRef WorkingDirectory,
                         const std::set<std::string> &WritableFiles);

/// clang-tidy's --export-fixes YAML of the chosen fix-its: one diagnostic
/// per finding that has one. \p MainSourceFile may be empty (several units).
std::string exportFixesYaml(const FixSelection &S, llvm::StringRef MainSourceFile,
                            llvm::StringRef WorkingDirectory);

/// Makes S's replacements, each file written whole to a temporary file
/// beside it and renamed over it. The error names every file not written.
llvm::Error applyFixes(const FixSelection &S);

/// Writes \p Contents to \p Path through a temporary file beside it and a
/// rename: a reader never sees half a file, and a failed write leaves the
/// file as it was. A symbolic link is followed (its target is written).
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

} // namespace warpcheck::tool

#endif
