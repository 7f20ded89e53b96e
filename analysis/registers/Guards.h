//===- Guards.h - what the guards share with the rest of the folder ------===//
//
// Internal to analysis/registers/: helpers of the guards (Guards.cpp) that
// the nvcc runner and the estimate's device reparse use too.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_REGISTERS_GUARDS_H
#define WARPCHECK_ANALYSIS_REGISTERS_GUARDS_H

#include "llvm/ADT/Twine.h"

namespace warpcheck::analysis::registers {

/// Path names something that exists and is not a folder.
bool fileExists(const llvm::Twine &Path);

} // namespace warpcheck::analysis::registers

#endif
