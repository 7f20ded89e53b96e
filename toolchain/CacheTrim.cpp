#include "warpcheck/toolchain/CacheTrim.h"

#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <tuple>
#include <vector>

namespace warpcheck::toolchain {

namespace fs = llvm::sys::fs;

CacheTrimResult trimCache(llvm::StringRef Dir, llvm::StringRef Suffix, uint64_t LimitBytes) {
  CacheTrimResult R;
  struct Entry {
    llvm::sys::TimePoint<> Used;
    std::string Path;
    uint64_t Size;
  };
  std::vector<Entry> Entries;
  auto Now = std::chrono::system_clock::now();
  std::error_code EC;
  for (fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
    llvm::ErrorOr<fs::basic_file_status> Status = It->status();
    if (!Status || Status->type() != fs::file_type::regular_file)
      continue;
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (Name.contains(".tmp-")) {
      if (Now - Status->getLastModificationTime() > std::chrono::hours(1))
        fs::remove(It->path());
      continue;
    }
    if (!Name.ends_with(Suffix))
      continue;
    Entries.push_back({Status->getLastModificationTime(), It->path(), Status->getSize()});
    R.BytesBefore += Status->getSize();
  }
  R.BytesAfter = R.BytesBefore;
  if (R.BytesBefore <= LimitBytes)
    return R;
  // Least recently used first; the path breaks ties, so that two runs
  // trimming at once choose the same entries.
  std::sort(Entries.begin(), Entries.end(), [](const Entry &A, const Entry &B) {
    return std::tie(A.Used, A.Path) < std::tie(B.Used, B.Path);
  });
  uint64_t Target = LimitBytes / 4 * 3;
  for (const Entry &E : Entries) {
    if (R.BytesAfter <= Target)
      break;
    // Removed meanwhile by another run: its bytes are gone all the same.
    std::error_code RemoveError = fs::remove(E.Path, /*IgnoreNonExisting=*/true);
    if (RemoveError)
      continue;
    R.BytesAfter -= E.Size;
    ++R.Removed;
  }
  return R;
}

void markCacheEntryUsed(llvm::StringRef Path) {
  int FD = -1;
  if (fs::openFileForWrite(Path, FD, fs::CD_OpenExisting, fs::OF_Append))
    return;
  (void)fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
  fs::closeFile(FD);
}

} // namespace warpcheck::toolchain
