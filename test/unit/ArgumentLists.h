// Helpers for tests that inspect argument lists (compile commands, the
// arguments given to clang or nvcc).
#ifndef WARPCHECK_TEST_UNIT_ARGUMENTLISTS_H
#define WARPCHECK_TEST_UNIT_ARGUMENTLISTS_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace warpcheck::testing {

/// Whether one element of List is exactly Argument.
inline bool containsArgument(const std::vector<std::string> &List, llvm::StringRef Argument) {
  for (const std::string &A : List)
    if (A == Argument)
      return true;
  return false;
}

} // namespace warpcheck::testing

#endif
