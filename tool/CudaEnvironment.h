//===- CudaEnvironment.h - CUDA toolkit detection and parse flags ---------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finds the CUDA toolkit warpcheck parses against and computes the clang 19
/// arguments that make CUDA parse in each of three situations:
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

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// A CUDA toolkit found on this machine.
struct CudaToolkit {
  /// The toolkit's root folder (holds include/cuda.h), made absolute, as
  /// named (symbolic links such as /usr/local/cuda are not resolved).
  std::string Root;
  /// From <Root>/version.json ("cuda" -> "version"), else from
  /// include/cuda.h's CUDA_VERSION; 0.0 when neither says.
  unsigned Major = 0, Minor = 0;
  /// <Root>/include/cccl (CUDA 13's CUB/Thrust/libcu++); empty when absent.
  std::string CCCLIncludeDir;
};

/// Finds the toolkit: \p ExplicitPath (--cuda-path) when not empty, else the
/// environment variable CUDA_PATH, else CUDA_HOME (an empty variable counts
/// as unset), else /usr/local/cuda.
///
/// A location the user named (the option or one of the variables) must be a
/// toolkit: when it does not exist, is not a folder or has no
/// include/cuda.h, the result is std::nullopt and \p Diagnostic says which
/// location (and where it came from) and why. The search does not go on to
/// the next candidate then, so that warpcheck never silently parses against
/// another toolkit than the one named. When nothing was named and
/// /usr/local/cuda is not a toolkit, the result is std::nullopt with
/// \p Diagnostic empty: not an error, the bundled declarations are used.
std::optional<CudaToolkit> findCudaToolkit(llvm::StringRef ExplicitPath,
                                           std::string &Diagnostic);

/// The inputs of the search, for tests and for callers that already hold
/// the environment. An unset std::optional is an unset variable.
struct CudaSearchInputs {
  std::string ExplicitPath;
  std::optional<std::string> EnvCudaPath;
  std::optional<std::string> EnvCudaHome;
  std::string DefaultRoot = "/usr/local/cuda";
};

/// findCudaToolkit() with its inputs given explicitly.
std::optional<CudaToolkit> findCudaToolkit(const CudaSearchInputs &Inputs,
                                           std::string &Diagnostic);

/// Checks one root folder and reads its version and CCCL folder. \p Why says
/// what is wrong when the result is std::nullopt.
std::optional<CudaToolkit> inspectCudaToolkit(llvm::StringRef Root,
                                              std::string &Why);

/// Parses version.json's text: {"cuda": {"version": "12.4.1", ...}, ...}.
bool parseCudaVersionJson(llvm::StringRef Json, unsigned &Major,
                          unsigned &Minor);

/// Parses cuda.h's text: `#define CUDA_VERSION 13000` is 13.0.
bool parseCudaHeaderVersion(llvm::StringRef Header, unsigned &Major,
                            unsigned &Minor);

/// True when the toolkit lacks texture_fetch_functions.h or
/// texture_indirect_functions.h in its include folder (CUDA 13 removed the
/// former), which clang 19's __clang_cuda_runtime_wrapper.h includes
/// unconditionally. Decided from the files, not the version number.
bool cudaToolkitNeedsTextureShim(const CudaToolkit &Toolkit);

/// True when the toolkit's driver_types.h lacks the cudaDeviceProp members
/// CUDA 13 removed (clockRate ...) and has the member the bundled
/// include/nvcc-compat/device-properties shim appends them to. Decided from
/// the file, not the version number.
bool cudaToolkitNeedsDevicePropertiesShim(const CudaToolkit &Toolkit);

/// The clang arguments that make CUDA parse, to add to every command:
///
/// With a toolkit: `--cuda-path=<Root>`, `-Wno-unknown-cuda-version`, then
/// `-isystem <BundledIncludeRoot>/cuda-shim` only when
/// cudaToolkitNeedsTextureShim(), `-isystem <Root>/include/cccl` when that
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
cudaParseArguments(const std::optional<CudaToolkit> &Toolkit,
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
