//===- SourceLookup.h - the lines of analysed files, and their kernels ----===//
//
// What fingerprints (Fingerprint.h) and the HTML report's snippets
// (HtmlSource.h) read about a finding's place: the lines of its file as they
// are on disk now, and the kernel it is in, from the kernel entries of the
// run.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_SOURCELOOKUP_H
#define WARPCHECK_TOOL_SOURCELOOKUP_H

#include "RunResult.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace warpcheck::tool {

/// The lines of the files findings are in, each file read once.
class SourceLines {
public:
  /// Line N (1-based) of File, without its line break; empty when there is
  /// no such line or the file cannot be read.
  llvm::StringRef line(const std::string &File, std::int64_t N);
  /// How many lines File has; 0 when it cannot be read.
  std::int64_t lineCount(const std::string &File);

private:
  struct Text {
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    std::vector<llvm::StringRef> Lines;
  };
  const Text &text(const std::string &File);
  std::map<std::string, Text> Files;
};

/// Which kernel a finding is in, from the kernel entries of the run.
class KernelLocator {
public:
  KernelLocator(const RunResult &R, llvm::StringRef WorkingDirectory);

  /// File made absolute against the working directory, without "." and
  /// "..".
  std::string absolute(llvm::StringRef File) const;

  /// The kernel whose access is at the place; else, for a finding on the
  /// kernel itself (cuda-occupancy) or in its body, the nearest kernel
  /// defined at or above the line in the same (absolute) file; else empty.
  std::string kernelAt(const std::string &File, std::int64_t Line, std::int64_t Column) const;

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

} // namespace warpcheck::tool

#endif
