//===- CudaEnvironment.h - the clang arguments of the located toolkit -----===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The clang 19 arguments that make CUDA parse against the toolkit
/// toolchain/CudaToolkit.h found, in each of three situations:
///
///  - a toolkit clang 19 supports as is (CUDA <= 12.5);
///  - a newer toolkit (CUDA 13): clang 19's runtime wrapper includes
///    texture_fetch_functions.h, which CUDA 13 removed, so a bundled shim
///    folder is added; CCCL (CUB, Thrust, libcu++) moved to include/cccl;
///  - no toolkit at all: -nocudainc -nocudalib plus warpcheck's bundled
///    minimal CUDA declarations (tool/include/cuda-minimal).
///
/// See docs/cuda-environment.md.
///
//===----------------------------------------------------------------------===//

#ifndef WARPCHECK_TOOL_CUDAENVIRONMENT_H
#define WARPCHECK_TOOL_CUDAENVIRONMENT_H

#include "warpcheck/toolchain/CudaToolkit.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// The clang arguments that make CUDA parse, to add to every command:
///
/// With a toolkit: `--cuda-path=<Root>`, `-Wno-unknown-cuda-version`, then
/// `-isystem <BundledIncludeRoot>/cuda-shim` only when
/// toolchain::cudaToolkitNeedsTextureShim(), `-isystem <Root>/include/cccl` when that
/// folder exists, `-isystem <BundledIncludeRoot>/nvcc-compat/device-properties`
/// only when cudaToolkitNeedsDevicePropertiesShim(), and `-nocudalib` only
/// when the toolkit has no nvvm/libdevice/libdevice.10.bc (a parse does not
/// need libdevice, but the driver refuses device compilations without it).
///
/// Without one: `-nocudainc`, `-nocudalib`, `-Wno-unknown-cuda-version`,
/// `-include <BundledIncludeRoot>/cuda-minimal/warpcheck_cuda_minimal.h`,
/// `-isystem <BundledIncludeRoot>/cuda-minimal`.
///
/// Both end with `-include <BundledIncludeRoot>/nvcc-compat/
/// warpcheck_nvcc_compat.h`: what nvcc's headers give host code and clang's
/// do not (docs/cuda-environment.md).
///
/// Options and their values are separate elements.
std::vector<std::string>
cudaParseArguments(const std::optional<toolchain::CudaToolkit> &Toolkit,
                   llvm::StringRef BundledIncludeRoot);

/// The folder holding warpcheck's bundled header folders (cuda-shim,
/// cuda-minimal): `<folder of the warpcheck executable>/../share/warpcheck/
/// include` when that holds the bundled headers (the installed layout; CMake
/// copies tool/include there), else the compile-time
/// WARPCHECK_SOURCE_INCLUDE_DIR when the build defines it (running from a build
/// tree), else the installed location anyway (so that messages name the
/// expected place). \p Argv0 and \p MainAddr locate the executable as
/// llvm::sys::fs::getMainExecutable() does.
std::string bundledIncludeRoot(const char *Argv0, void *MainAddr);

/// The installed location for a given executable path:
/// `<dirname(ExecutablePath)>/../share/warpcheck/include`, normalised.
std::string bundledIncludeRootForExecutable(llvm::StringRef ExecutablePath);

/// True when \p Root holds the bundled headers
/// (cuda-minimal/warpcheck_cuda_minimal.h).
bool isBundledIncludeRoot(llvm::StringRef Root);

} // namespace warpcheck::tool

#endif // WARPCHECK_TOOL_CUDAENVIRONMENT_H
