//===- Fingerprint.h - a finding's identity across edits ---------*- C++ -*-===//
//
// A baseline (Baseline.h) and code scanning (SARIF partialFingerprints)
// must recognise a finding after the lines above it moved and after edits
// elsewhere in the file. A line number cannot do that; the text around the
// finding can: the fingerprint hashes the check, the file as reported, the
// kernel, the finding's source line and the lines before and after it (each
// with its whitespace collapsed, so that re-indenting changes nothing), and
// the finding's place within its line counted in non-blank characters (two
// findings of one check on one line differ).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_FINGERPRINT_H
#define WARPCHECK_TOOL_FINGERPRINT_H

#include "RunResult.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace warpcheck::tool {

/// The key of the fingerprint in SARIF's partialFingerprints; the "v1"
/// changes whenever what is hashed does.
constexpr llvm::StringLiteral FingerprintSarifKey = "warpcheckFingerprint/v1";

/// Line with every run of blanks collapsed to one space, trimmed.
std::string normalisedSourceLine(llvm::StringRef Line);

/// What a fingerprint is made of.
struct FingerprintParts {
  std::string Check;
  /// The file as reports name it (relative to the source root under it).
  std::string File;
  /// The kernel the finding is in; empty when none is known.
  std::string Kernel;
  /// The source line before, of, and after the finding, as they are in
  /// the file (normalised when hashed); empty past either end of the file.
  std::string LineBefore, Line, LineAfter;
  /// The finding's byte column (1-based) in Line.
  std::int64_t Column = 0;
};

/// SHA-256 of the parts, in lower-case hex.
std::string fingerprint(const FingerprintParts &Parts);

/// Sets every finding's Fingerprint. Relative file names are taken from
/// WorkingDirectory and named relative to SourceRoot when under it; the
/// kernel is the one whose access (or definition) is at the finding, else
/// the nearest one defined above it in the same file.
void fingerprintFindings(RunResult &R, llvm::StringRef WorkingDirectory,
                         llvm::StringRef SourceRoot);

} // namespace warpcheck::tool

#endif
