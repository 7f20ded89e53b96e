//===- ReplayMain.cpp - a fuzz target over files, without libFuzzer -------===//
//
// `<target> FILE_OR_FOLDER...` runs the target's LLVMFuzzerTestOneInput once
// per file (a folder: every file in it, in name order), as libFuzzer
// replays a corpus, and prints how many ran. A crash or a broken invariant
// aborts: the ctest fails, naming the input on the line before.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data, std::size_t Size);

int main(int argc, char **argv) {
  std::vector<std::string> Files;
  for (int I = 1; I < argc; ++I) {
    if (!llvm::sys::fs::is_directory(argv[I])) {
      Files.push_back(argv[I]);
      continue;
    }
    std::error_code EC;
    std::vector<std::string> InFolder;
    for (llvm::sys::fs::directory_iterator It(argv[I], EC), End; It != End && !EC;
         It.increment(EC))
      if (llvm::sys::fs::is_regular_file(It->path()))
        InFolder.push_back(It->path());
    std::sort(InFolder.begin(), InFolder.end());
    Files.insert(Files.end(), InFolder.begin(), InFolder.end());
  }
  if (Files.empty()) {
    llvm::errs() << argv[0] << ": no input files\n";
    return 1;
  }
  for (const std::string &F : Files) {
    auto Buffer = llvm::MemoryBuffer::getFile(F, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!Buffer) {
      llvm::errs() << F << ": cannot read: " << Buffer.getError().message() << "\n";
      return 1;
    }
    llvm::errs() << "replaying " << F << "\n";
    llvm::StringRef Data = (*Buffer)->getBuffer();
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t *>(Data.data()), Data.size());
  }
  llvm::outs() << Files.size() << " inputs replayed\n";
  return 0;
}
