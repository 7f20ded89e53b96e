//===- Options.h - what RegisterOptions mean where they say nothing ------===//
//
// Internal to analysis/registers/: the architecture when none is named
// (model::DefaultArchName), and how two -maxrregcount limits combine (the tool's own option and one
// in the compile flags: the smaller applies, as RegisterOptions says).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_REGISTERS_OPTIONS_H
#define WARPCHECK_ANALYSIS_REGISTERS_OPTIONS_H

#include "warpcheck/model/Arch.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <optional>
#include <string>

namespace warpcheck::analysis::registers {

/// Arch, or model::DefaultArchName when it is empty.
inline std::string archOrDefault(llvm::StringRef Arch) {
  return Arch.empty() ? std::string(model::DefaultArchName) : Arch.str();
}

/// The lower of two -maxrregcount limits; either may be absent.
inline std::optional<unsigned> lowerMaxRegisterCount(std::optional<unsigned> A,
                                                     std::optional<unsigned> B) {
  if (!A)
    return B;
  if (!B)
    return A;
  return std::min(*A, *B);
}

} // namespace warpcheck::analysis::registers

#endif
