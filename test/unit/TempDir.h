//===- TempDir.h - a private temporary folder for unit tests -------------===//
#ifndef WARPCHECK_TEST_UNIT_TEMPDIR_H
#define WARPCHECK_TEST_UNIT_TEMPDIR_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace warpcheck::test {

inline bool exists(const std::string &Path) { return llvm::sys::fs::exists(Path); }

/// A private temporary folder (its real path), removed at the end of the test.
struct TempDir {
  std::string Path;
  explicit TempDir(const char *Prefix = "warpcheck-test") {
    llvm::SmallString<128> P;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory(Prefix, P));
    llvm::SmallString<128> Real;
    llvm::sys::fs::real_path(P, Real);
    Path = std::string(Real.str());
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
  std::string file(const std::string &Name) const { return Path + "/" + Name; }
  std::string write(const std::string &Name, const std::string &Text) const {
    std::string F = file(Name);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(F));
    std::error_code EC;
    llvm::raw_fd_ostream OS(F, EC);
    EXPECT_FALSE(EC) << F;
    OS << Text;
    return F;
  }
};

} // namespace warpcheck::test

#endif
