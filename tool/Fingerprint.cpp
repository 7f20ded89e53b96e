//===- Fingerprint.cpp - a finding's identity across edits ----------------===//

#include "Fingerprint.h"
#include "ReportSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <array>
#include <map>
#include <memory>
#include <tuple>

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

namespace {

/// The lines of the files findings are in, each file read once.
class SourceLines {
public:
  /// Line N (1-based) of File, without its line break; empty when there is
  /// no such line or the file cannot be read.
  llvm::StringRef line(const std::string &File, std::int64_t N) {
    auto [It, Inserted] = Files.try_emplace(File);
    if (Inserted) {
      if (auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                                    /*RequiresNullTerminator=*/false)) {
        It->second.Buffer = std::move(*Buffer);
        llvm::SmallVector<llvm::StringRef, 0> Split;
        It->second.Buffer->getBuffer().split(Split, '\n');
        for (llvm::StringRef L : Split)
          It->second.Lines.push_back(L.rtrim('\r'));
      }
    }
    const std::vector<llvm::StringRef> &Lines = It->second.Lines;
    if (N < 1 || N > static_cast<std::int64_t>(Lines.size()))
      return "";
    return Lines[N - 1];
  }

private:
  struct Text {
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    std::vector<llvm::StringRef> Lines;
  };
  std::map<std::string, Text> Files;
};

/// Which kernel a finding is in, from the kernel entries of the run.
class KernelLocator {
public:
  KernelLocator(const RunResult &R, llvm::StringRef WorkingDirectory) : Cwd(WorkingDirectory) {
    for (const KernelEntry &K : R.Kernels) {
      std::string KFile = absolute(K.File.value_or(""));
      Definitions.push_back({KFile, K.Line.value_or(0), K.Name});
      for (const AccessEntry &A : K.Accesses)
        Accesses.try_emplace(std::make_tuple(absolute(A.File.value_or("")), A.Line.value_or(0),
                                             A.Column.value_or(0)),
                             K.Name);
    }
  }

  std::string absolute(llvm::StringRef File) const {
    llvm::SmallString<256> Abs(File);
    if (!File.empty() && !llvm::sys::path::is_absolute(Abs))
      llvm::sys::fs::make_absolute(Cwd, Abs);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    return Abs.str().str();
  }

  std::string kernelAt(const std::string &File, std::int64_t Line, std::int64_t Column) const {
    if (auto It = Accesses.find(std::make_tuple(File, Line, Column)); It != Accesses.end())
      return It->second;
    // A finding on the kernel itself (cuda-occupancy), else in its body:
    // the nearest kernel defined at or above the line.
    const Definition *Best = nullptr;
    for (const Definition &D : Definitions)
      if (D.File == File && D.Line <= Line && (!Best || D.Line > Best->Line))
        Best = &D;
    return Best ? Best->Name : "";
  }

private:
  struct Definition {
    std::string File;
    std::int64_t Line;
    std::string Name;
  };
  std::string Cwd;
  std::vector<Definition> Definitions;
  std::map<std::tuple<std::string, std::int64_t, std::int64_t>, std::string> Accesses;
};

} // namespace

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
