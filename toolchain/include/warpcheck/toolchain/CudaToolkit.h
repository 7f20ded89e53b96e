//===- CudaToolkit.h - finding and trusting the CUDA toolkit --------------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which CUDA toolkit warpcheck uses, and why it may: the search order
/// (--cuda-path, $CUDA_PATH, $CUDA_HOME, /usr/local/cuda), the rule that a
/// location the user named must be a toolkit (never silently another one),
/// what a toolkit folder holds (version.json, include/cuda.h, CCCL, bin/nvcc)
/// and which of clang 19's expectations it misses (the shims).
///
/// These locations come from the user's own command line and environment,
/// never from a compile database or a .clang-tidy file of the analysed code.
/// See docs/cuda-environment.md.
///
//===----------------------------------------------------------------------===//

#ifndef WARPCHECK_TOOLCHAIN_CUDATOOLKIT_H
#define WARPCHECK_TOOLCHAIN_CUDATOOLKIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>
#include <vector>

namespace warpcheck::toolchain {

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
  /// Where the location came from: "--cuda-path", "CUDA_PATH", "CUDA_HOME"
  /// or "default" (/usr/local/cuda); empty when inspected directly.
  std::string Origin;
};

/// The inputs of the search, for tests and for callers that already hold
/// the environment. An unset std::optional is an unset variable.
struct CudaSearchInputs {
  std::string ExplicitPath;
  std::optional<std::string> EnvCudaPath;
  std::optional<std::string> EnvCudaHome;
  std::string DefaultRoot = "/usr/local/cuda";

  /// \p ExplicitPath and this process's CUDA_PATH and CUDA_HOME.
  static CudaSearchInputs fromEnvironment(llvm::StringRef ExplicitPath);
};

/// One place the search looks at.
struct CudaToolkitCandidate {
  /// "--cuda-path", "CUDA_PATH", "CUDA_HOME" or "default".
  std::string Origin;
  std::string Root;
  /// Named by the user (the option or a variable), not the default.
  bool Named = false;
};

/// The places to look at, in the search order: \p Inputs.ExplicitPath when
/// not empty, CUDA_PATH, CUDA_HOME (an empty variable counts as unset), then
/// DefaultRoot (when not empty). Every consumer of the search (the parse,
/// the nvcc run for registers) walks this one list.
std::vector<CudaToolkitCandidate>
cudaToolkitCandidates(const CudaSearchInputs &Inputs);

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

/// <Root>/nvvm/libdevice/libdevice.10.bc, whether or not it exists.
std::string cudaToolkitLibdevice(llvm::StringRef Root);

/// True when the toolkit has its libdevice (cudaToolkitLibdevice).
bool cudaToolkitHasLibdevice(const CudaToolkit &Toolkit);

/// True when \p Dir is a toolkit's include folder (it holds
/// cuda_runtime.h, and a folder up to four levels above it has bin/nvcc,
/// version.json or nvvm/); \p Root is then that folder. For a parse's
/// include folders: which toolkit they came from.
bool isCudaToolkitIncludeDir(llvm::StringRef Dir, std::string &Root);

/// <Root>/bin/<Program> (nvcc, ptxas), whether or not it exists.
std::string cudaToolkitProgram(llvm::StringRef Root, llvm::StringRef Program);

/// What identifies the programs of the toolkit at Root that compile device
/// code or list it (bin/nvcc, bin/ptxas, bin/nvdisasm, nvvm/bin/cicc): each
/// one's path, size and modification time, as text. A result cached from
/// their output (register counts, memory instructions) is stale when this
/// changes: a toolkit updated in place keeps its path.
std::string cudaCompilerIdentity(llvm::StringRef Root);

/// Path names something that exists and is not a folder.
bool fileExists(const llvm::Twine &Path);

/// Path names an executable regular file (symbolic links followed).
bool isExecutableFile(const llvm::Twine &Path);

} // namespace warpcheck::toolchain

#endif // WARPCHECK_TOOLCHAIN_CUDATOOLKIT_H
