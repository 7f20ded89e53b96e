//===- PrintToolkit.h - warpcheck --print-toolkit -------------------------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What warpcheck found of the CUDA toolkit, as JSON, so that scripts ask
/// warpcheck instead of searching again (docs/cuda-environment.md).
///
//===----------------------------------------------------------------------===//

#ifndef WARPCHECK_TOOL_PRINTTOOLKIT_H
#define WARPCHECK_TOOL_PRINTTOOLKIT_H

#include "warpcheck/toolchain/CudaToolkit.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace warpcheck::tool {

/// Writes the toolkit search's result for \p Inputs as one JSON object:
/// `found`, and with a toolkit `root`, `origin` ("--cuda-path", "CUDA_PATH",
/// "CUDA_HOME", "default"), `version` ("13.0", null when unknown), `nvcc`
/// (the executable's path, null when there is none), `ptxas` (whether
/// bin/ptxas is executable too: registers are counted by ptxas), and
/// `cccl_include_dir` (null when absent); `error` when a named location is
/// not a toolkit; `no_cuda` with \p NoCuda. Always `plugin_toolkit_root`:
/// the toolkit whose nvcc the clang-tidy plugin counts registers with (it
/// takes neither --cuda-path nor --no-cuda). Returns the exit code: 1 when a
/// named location is not a toolkit, else 0.
int printToolkit(const toolchain::CudaSearchInputs &Inputs, bool NoCuda,
                 llvm::raw_ostream &OS);

} // namespace warpcheck::tool

#endif // WARPCHECK_TOOL_PRINTTOOLKIT_H
