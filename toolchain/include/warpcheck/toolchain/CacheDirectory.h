//===- CacheDirectory.h - where warpcheck's caches live by default --------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The user's cache folder for one of warpcheck's caches (ptxas register
/// counts, analysis results), as the XDG Base Directory Specification
/// places it: $XDG_CACHE_HOME/warpcheck/<Leaf> when that variable holds an
/// absolute path, else $HOME/.cache/warpcheck/<Leaf>. Empty when neither
/// is set. The folder is not created here.
///
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOLCHAIN_CACHEDIRECTORY_H
#define WARPCHECK_TOOLCHAIN_CACHEDIRECTORY_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace warpcheck::toolchain {

std::string userCacheDirectory(llvm::StringRef Leaf);

} // namespace warpcheck::toolchain

#endif
