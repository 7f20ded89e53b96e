//===- Fingerprint.cpp - a finding's identity across edits ----------------===//

#include "Fingerprint.h"
#include "ReportSupport.h"
#include "SourceLookup.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

#include <array>

namespace warpcheck::tool {

std::string normalisedSourceLine(llvm::StringRef Line) {
  std::string Out;
  bool PendingSpace = false;
  for (char C : Line) {
    if (llvm::isSpace(C)) {
      PendingSpace = !Out.empty();
      continue;
    }
    if (PendingSpace)
      Out += ' ';
    PendingSpace = false;
    Out += C;
  }
  return Out;
}

/// Non-blank characters before the byte column: the finding's place in its
/// line, the same after re-indenting.
static std::int64_t nonBlankBefore(llvm::StringRef Line, std::int64_t Column) {
  std::int64_t N = 0;
  for (std::int64_t I = 0; I + 1 < Column && I < static_cast<std::int64_t>(Line.size()); ++I)
    N += !llvm::isSpace(Line[I]);
  return N;
}

std::string fingerprint(const FingerprintParts &P) {
  llvm::SHA256 Hash;
  // Each part ends in a NUL, so that no two different lists of parts hash
  // the same text.
  auto Add = [&](llvm::StringRef Part) {
    Hash.update(Part);
    Hash.update(llvm::StringRef("\0", 1));
  };
  Add("warpcheck-fingerprint-v1");
  Add(P.Check);
  Add(P.File);
  Add(P.Kernel);
  Add(normalisedSourceLine(P.LineBefore));
  Add(normalisedSourceLine(P.Line));
  Add(normalisedSourceLine(P.LineAfter));
  Add(std::to_string(nonBlankBefore(P.Line, P.Column)));
  std::array<uint8_t, 32> Digest = Hash.final();
  return llvm::toHex(Digest, /*LowerCase=*/true);
}

void fingerprintFindings(RunResult &R, llvm::StringRef WorkingDirectory,
                         llvm::StringRef SourceRoot) {
  KernelLocator Kernels(R, WorkingDirectory);
  SourceLines Sources;
  for (Finding &F : R.Findings) {
    std::string File = Kernels.absolute(F.File.value_or(""));
    std::int64_t Line = F.Line.value_or(0);
    FingerprintParts Parts;
    Parts.Check = F.Check;
    Parts.File = File.empty() ? "" : reportedFile(SourceRoot, File).Path;
    Parts.Kernel = Kernels.kernelAt(File, Line, F.Column.value_or(0));
    Parts.LineBefore = Sources.line(File, Line - 1).str();
    Parts.Line = Sources.line(File, Line).str();
    // A file gone since the analysis: the line the worker read.
    if (Parts.Line.empty() && F.SourceLine)
      Parts.Line = *F.SourceLine;
    Parts.LineAfter = Sources.line(File, Line + 1).str();
    Parts.Column = F.Column.value_or(0);
    F.Fingerprint = fingerprint(Parts);
  }
}

} // namespace warpcheck::tool
