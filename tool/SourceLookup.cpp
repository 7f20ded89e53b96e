//===- SourceLookup.cpp - the lines of analysed files, and their kernels --===//

#include "SourceLookup.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace warpcheck::tool {

const SourceLines::Text &SourceLines::text(const std::string &File) {
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
  return It->second;
}

llvm::StringRef SourceLines::line(const std::string &File, std::int64_t N) {
  const std::vector<llvm::StringRef> &Lines = text(File).Lines;
  if (N < 1 || N > static_cast<std::int64_t>(Lines.size()))
    return "";
  return Lines[N - 1];
}

std::int64_t SourceLines::lineCount(const std::string &File) {
  return static_cast<std::int64_t>(text(File).Lines.size());
}

KernelLocator::KernelLocator(const RunResult &R, llvm::StringRef WorkingDirectory)
    : Cwd(WorkingDirectory) {
  for (const KernelEntry &K : R.Kernels) {
    std::string KFile = absolute(K.File.value_or(""));
    Definitions.push_back({KFile, K.Line.value_or(0), K.Name});
    for (const AccessEntry &A : K.Accesses)
      Accesses.try_emplace(std::make_tuple(absolute(A.File.value_or("")), A.Line.value_or(0),
                                           A.Column.value_or(0)),
                           K.Name);
  }
}

std::string KernelLocator::absolute(llvm::StringRef File) const {
  llvm::SmallString<256> Abs(File);
  if (!File.empty() && !llvm::sys::path::is_absolute(Abs))
    llvm::sys::fs::make_absolute(Cwd, Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return Abs.str().str();
}

std::string KernelLocator::kernelAt(const std::string &File, std::int64_t Line,
                                    std::int64_t Column) const {
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

} // namespace warpcheck::tool
