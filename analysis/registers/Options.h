//===- Options.h - what RegisterOptions mean where they say nothing ------===//
//
// Internal to analysis/registers/: the architecture when none is named
// (model::DefaultArchName), and how two -maxrregcount limits combine (the tool's own option and one
// in the compile flags: the smaller applies, as RegisterOptions says). Both
// are the toolchain layer's (toolchain/CudaArch.h, NvccInvocation.h): the
// nvcc command line applies them too.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_REGISTERS_OPTIONS_H
#define WARPCHECK_ANALYSIS_REGISTERS_OPTIONS_H

#include "warpcheck/toolchain/CudaArch.h"
#include "warpcheck/toolchain/NvccInvocation.h"

namespace warpcheck::analysis::registers {

using toolchain::archOrDefault;
using toolchain::lowerMaxRegisterCount;

} // namespace warpcheck::analysis::registers

#endif
