#include "warpcheck/toolchain/CacheDirectory.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace warpcheck::toolchain {

std::string userCacheDirectory(llvm::StringRef Leaf) {
  llvm::SmallString<256> Dir;
  if (auto X = llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      X && !X->empty() && llvm::sys::path::is_absolute(*X)) {
    Dir = *X;
    llvm::sys::path::append(Dir, "warpcheck");
  } else if (auto H = llvm::sys::Process::GetEnv("HOME"); H && !H->empty()) {
    Dir = *H;
    llvm::sys::path::append(Dir, ".cache", "warpcheck");
  } else {
    return "";
  }
  llvm::sys::path::append(Dir, Leaf);
  return Dir.str().str();
}

} // namespace warpcheck::toolchain
