//===- ArchLookup.h - an architecture of the table, for model unit tests --===//
#ifndef WARPCHECK_TEST_UNIT_ARCHLOOKUP_H
#define WARPCHECK_TEST_UNIT_ARCHLOOKUP_H

#include "warpcheck/model/Arch.h"

#include <gtest/gtest.h>

namespace warpcheck::testing {

/// The architecture named Name; an unknown name fails the test and gives an
/// empty architecture, so that the test goes on to report what else fails.
inline const model::ArchSpec &arch(const char *Name) {
  const model::ArchSpec *A = model::findArch(Name);
  if (!A)
    ADD_FAILURE() << "unknown arch " << Name;
  static const model::ArchSpec Empty;
  return A ? *A : Empty;
}

} // namespace warpcheck::testing

#endif
