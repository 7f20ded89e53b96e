//===- CudaEnvironment.cpp - CUDA toolkit detection and parse flags -------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//

#include "CudaEnvironment.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using llvm::StringRef;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace warpcheck::tool {

namespace {

std::string joinPath(StringRef A, StringRef B, StringRef C = "",
                     StringRef D = "") {
  llvm::SmallString<256> P(A);
  for (StringRef Part : {B, C, D})
    if (!Part.empty())
      path::append(P, Part);
  return std::string(P);
}

/// Absolute, with `.` and `..` removed; symbolic links are kept.
std::string normalizeRoot(StringRef Root) {
  llvm::SmallString<256> P(Root);
  fs::make_absolute(P);
  path::remove_dots(P, /*remove_dot_dot=*/true);
  // "/usr/local/cuda/" and "/usr/local/cuda" are the same root.
  while (P.size() > 1 && path::is_separator(P.back()))
    P.pop_back();
  return std::string(P);
}

std::optional<std::string> readSmallFile(StringRef File) {
  auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!Buffer)
    return std::nullopt;
  return (*Buffer)->getBuffer().str();
}

/// Parses "12.4" or "12.4.1" into 12 and 4.
bool parseDottedVersion(StringRef Text, unsigned &Major, unsigned &Minor) {
  StringRef MajorText, Rest;
  std::tie(MajorText, Rest) = Text.trim().split('.');
  StringRef MinorText = Rest.split('.').first;
  unsigned Ma = 0, Mi = 0;
  if (MajorText.getAsInteger(10, Ma) || MinorText.getAsInteger(10, Mi))
    return false;
  Major = Ma;
  Minor = Mi;
  return true;
}

} // namespace

bool parseCudaVersionJson(StringRef Json, unsigned &Major, unsigned &Minor) {
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Json);
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return false;
  }
  const llvm::json::Object *Top = Parsed->getAsObject();
  if (!Top)
    return false;
  const llvm::json::Object *Cuda = Top->getObject("cuda");
  if (!Cuda)
    return false;
  std::optional<StringRef> Version = Cuda->getString("version");
  return Version && parseDottedVersion(*Version, Major, Minor);
}

bool parseCudaHeaderVersion(StringRef Header, unsigned &Major,
                            unsigned &Minor) {
  // Look for a line `#define CUDA_VERSION <number>` (spaces allowed around
  // '#' and between tokens).
  llvm::SmallVector<StringRef, 0> Lines;
  Header.split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.trim();
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("define"))
      continue;
    if (Line.empty() || !llvm::isSpace(Line.front()))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("CUDA_VERSION"))
      continue;
    if (Line.empty() || !llvm::isSpace(Line.front()))
      continue;
    StringRef Number = Line.ltrim();
    Number = Number.take_while([](char C) { return llvm::isDigit(C); });
    unsigned Value = 0;
    if (Number.empty() || Number.getAsInteger(10, Value))
      continue;
    Major = Value / 1000;
    Minor = (Value % 1000) / 10;
    return true;
  }
  return false;
}

std::optional<CudaToolkit> inspectCudaToolkit(StringRef Root,
                                              std::string &Why) {
  std::string Normal = normalizeRoot(Root);
  if (!fs::exists(Normal)) {
    Why = "no such directory";
    return std::nullopt;
  }
  if (!fs::is_directory(Normal)) {
    Why = "not a directory";
    return std::nullopt;
  }
  std::string CudaH = joinPath(Normal, "include", "cuda.h");
  if (!fs::is_regular_file(CudaH)) {
    Why = "not a CUDA toolkit (no include/cuda.h)";
    return std::nullopt;
  }

  CudaToolkit Toolkit;
  Toolkit.Root = Normal;
  bool HaveVersion = false;
  if (std::optional<std::string> Json =
          readSmallFile(joinPath(Normal, "version.json")))
    HaveVersion = parseCudaVersionJson(*Json, Toolkit.Major, Toolkit.Minor);
  if (!HaveVersion)
    if (std::optional<std::string> Header = readSmallFile(CudaH))
      parseCudaHeaderVersion(*Header, Toolkit.Major, Toolkit.Minor);

  std::string CCCL = joinPath(Normal, "include", "cccl");
  if (fs::is_directory(CCCL))
    Toolkit.CCCLIncludeDir = CCCL;
  return Toolkit;
}

std::optional<CudaToolkit> findCudaToolkit(const CudaSearchInputs &Inputs,
                                           std::string &Diagnostic) {
  Diagnostic.clear();
  auto Named = [&](StringRef Where,
                   StringRef Root) -> std::optional<CudaToolkit> {
    std::string Why;
    std::optional<CudaToolkit> Toolkit = inspectCudaToolkit(Root, Why);
    if (!Toolkit)
      Diagnostic = (Where + " '" + Root + "': " + Why).str();
    return Toolkit;
  };
  if (!Inputs.ExplicitPath.empty())
    return Named("--cuda-path", Inputs.ExplicitPath);
  if (Inputs.EnvCudaPath && !Inputs.EnvCudaPath->empty())
    return Named("CUDA_PATH", *Inputs.EnvCudaPath);
  if (Inputs.EnvCudaHome && !Inputs.EnvCudaHome->empty())
    return Named("CUDA_HOME", *Inputs.EnvCudaHome);
  if (Inputs.DefaultRoot.empty())
    return std::nullopt;
  std::string Ignored;
  return inspectCudaToolkit(Inputs.DefaultRoot, Ignored);
}

std::optional<CudaToolkit> findCudaToolkit(StringRef ExplicitPath,
                                           std::string &Diagnostic) {
  CudaSearchInputs Inputs;
  Inputs.ExplicitPath = ExplicitPath.str();
  Inputs.EnvCudaPath = llvm::sys::Process::GetEnv("CUDA_PATH");
  Inputs.EnvCudaHome = llvm::sys::Process::GetEnv("CUDA_HOME");
  return findCudaToolkit(Inputs, Diagnostic);
}

bool cudaToolkitNeedsTextureShim(const CudaToolkit &Toolkit) {
  std::string Include = joinPath(Toolkit.Root, "include");
  return !fs::exists(joinPath(Include, "texture_fetch_functions.h")) ||
         !fs::exists(joinPath(Include, "texture_indirect_functions.h"));
}

bool cudaToolkitNeedsDevicePropertiesShim(const CudaToolkit &Toolkit) {
  auto Header = llvm::MemoryBuffer::getFile(joinPath(Toolkit.Root, "include", "driver_types.h"));
  if (!Header)
    return false;
  StringRef Text = (*Header)->getBuffer();
  // The shim appends the removed members behind this one (see
  // include/nvcc-compat/device-properties/driver_types.h).
  return !Text.contains(" clockRate;") && Text.contains(" hostNumaMultinodeIpcSupported;");
}

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
    if (cudaToolkitNeedsTextureShim(*Toolkit)) {
      Args.push_back("-isystem");
      Args.push_back(joinPath(BundledIncludeRoot, "cuda-shim"));
    }
    if (cudaToolkitNeedsDevicePropertiesShim(*Toolkit)) {
      Args.push_back("-isystem");
      Args.push_back(joinPath(BundledIncludeRoot, "nvcc-compat", "device-properties"));
    }
    if (!Toolkit->CCCLIncludeDir.empty()) {
      Args.push_back("-isystem");
      Args.push_back(Toolkit->CCCLIncludeDir);
    }
    if (!fs::exists(
            joinPath(Toolkit->Root, "nvvm", "libdevice", "libdevice.10.bc")))
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
