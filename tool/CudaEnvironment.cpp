//===- CudaEnvironment.cpp - the clang arguments of the located toolkit ---===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//

#include "CudaEnvironment.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using llvm::StringRef;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace warpcheck::tool {

using toolchain::CudaToolkit;

namespace {

std::string joinPath(StringRef A, StringRef B, StringRef C = "") {
  llvm::SmallString<256> P(A);
  for (StringRef Part : {B, C})
    if (!Part.empty())
      path::append(P, Part);
  return std::string(P);
}

} // namespace

/// `-include <the compatibility header>`: after clang's CUDA wrapper and
/// the bundled declarations (the driver puts its own forced include first).
static void addNvccCompatibility(std::vector<std::string> &Args, StringRef BundledIncludeRoot) {
  // nvcc accepts the `register` storage class in C++17 (clang: an error
  // since C++17), and narrowing in braced initialisers (nvcc: warning
  // 2361; clang: an error).
  Args.push_back("-Wno-register");
  Args.push_back("-Wno-c++11-narrowing");
  Args.push_back("-include");
  Args.push_back(joinPath(BundledIncludeRoot, "nvcc-compat", "warpcheck_nvcc_compat.h"));
}

std::vector<std::string>
cudaParseArguments(const std::optional<CudaToolkit> &Toolkit,
                   StringRef BundledIncludeRoot) {
  std::vector<std::string> Args;
  if (Toolkit) {
    Args.push_back("--cuda-path=" + Toolkit->Root);
    // clang 19 knows CUDA up to 12.5 and warns about anything newer.
    Args.push_back("-Wno-unknown-cuda-version");
    if (toolchain::cudaToolkitNeedsTextureShim(*Toolkit)) {
      Args.push_back("-isystem");
      Args.push_back(joinPath(BundledIncludeRoot, "cuda-shim"));
    }
    if (toolchain::cudaToolkitNeedsDevicePropertiesShim(*Toolkit)) {
      Args.push_back("-isystem");
      Args.push_back(joinPath(BundledIncludeRoot, "nvcc-compat", "device-properties"));
    }
    if (!Toolkit->CCCLIncludeDir.empty()) {
      Args.push_back("-isystem");
      Args.push_back(Toolkit->CCCLIncludeDir);
    }
    if (!toolchain::cudaToolkitHasLibdevice(*Toolkit))
      Args.push_back("-nocudalib");
    addNvccCompatibility(Args, BundledIncludeRoot);
    return Args;
  }
  Args.push_back("-nocudainc");
  Args.push_back("-nocudalib");
  // The PTX ISA clang 19 targets for CUDA 12.5, the version the bundled
  // declarations stand for. Without a toolkit clang would assume PTX 4.2,
  // and its code generator rejects the *_sync warp builtins (they need
  // PTX 6.0), which the register estimate lowers (its device-side reparse
  // adds the same, analysis/RegisterUsage.cpp).
  Args.push_back("--cuda-feature=+ptx85");
  // In case clang finds a toolkit of its own (it also looks at ptxas on
  // PATH and /usr/lib/cuda): only its version is used then.
  Args.push_back("-Wno-unknown-cuda-version");
  Args.push_back("-include");
  Args.push_back(
      joinPath(BundledIncludeRoot, "cuda-minimal", "warpcheck_cuda_minimal.h"));
  Args.push_back("-isystem");
  Args.push_back(joinPath(BundledIncludeRoot, "cuda-minimal"));
  addNvccCompatibility(Args, BundledIncludeRoot);
  return Args;
}

std::string bundledIncludeRootForExecutable(StringRef ExecutablePath) {
  llvm::SmallString<256> P(path::parent_path(ExecutablePath));
  path::append(P, "..", "share", "warpcheck", "include");
  path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

bool isBundledIncludeRoot(StringRef Root) {
  return !Root.empty() &&
         fs::is_regular_file(
             joinPath(Root, "cuda-minimal", "warpcheck_cuda_minimal.h"));
}

std::string bundledIncludeRoot(const char *Argv0, void *MainAddr) {
  std::string Installed;
  std::string Exe = fs::getMainExecutable(Argv0, MainAddr);
  if (!Exe.empty()) {
    Installed = bundledIncludeRootForExecutable(Exe);
    if (isBundledIncludeRoot(Installed))
      return Installed;
  }
#ifdef WARPCHECK_SOURCE_INCLUDE_DIR
  // A string literal defined by the build, e.g. the source tree's
  // tool/include, for running warpcheck from its build folder.
  if (Installed.empty() || isBundledIncludeRoot(WARPCHECK_SOURCE_INCLUDE_DIR))
    return WARPCHECK_SOURCE_INCLUDE_DIR;
#endif
  return Installed;
}

} // namespace warpcheck::tool
