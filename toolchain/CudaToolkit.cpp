//===- CudaToolkit.cpp - finding and trusting the CUDA toolkit ------------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//

#include "warpcheck/toolchain/CudaToolkit.h"

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

namespace warpcheck::toolchain {

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

bool fileExists(const llvm::Twine &Path) {
  return fs::exists(Path) && !fs::is_directory(Path);
}

bool isExecutableFile(const llvm::Twine &Path) {
  fs::file_status Status;
  return !fs::status(Path, Status) && Status.type() == fs::file_type::regular_file &&
         fs::can_execute(Path);
}

std::string cudaToolkitProgram(StringRef Root, StringRef Program) {
  return joinPath(Root, "bin", Program);
}

std::string cudaCompilerIdentity(StringRef Root) {
  std::string Identity;
  for (const std::string &Program : {cudaToolkitProgram(Root, "nvcc"),
                                     cudaToolkitProgram(Root, "ptxas"),
                                     cudaToolkitProgram(Root, "nvdisasm"),
                                     joinPath(Root, "nvvm", "bin", "cicc")}) {
    Identity += Program;
    fs::file_status S;
    if (!fs::status(Program, S))
      Identity += " " + std::to_string(S.getSize()) + " " +
                  std::to_string(S.getLastModificationTime().time_since_epoch().count());
    Identity += '\n';
  }
  return Identity;
}

std::string cudaToolkitLibdevice(StringRef Root) {
  return joinPath(Root, "nvvm", "libdevice", "libdevice.10.bc");
}

bool cudaToolkitHasLibdevice(const CudaToolkit &Toolkit) {
  return fs::exists(cudaToolkitLibdevice(Toolkit.Root));
}

bool isCudaToolkitIncludeDir(StringRef Dir, std::string &Root) {
  if (!fileExists(Dir + "/cuda_runtime.h"))
    return false;
  llvm::SmallString<256> P(Dir);
  for (int Up = 0; Up < 4 && !P.empty(); ++Up) {
    P = path::parent_path(P);
    if (fileExists(P + "/bin/nvcc") || fileExists(P + "/version.json") ||
        fs::is_directory(P + "/nvvm")) {
      Root = std::string(P.str());
      return true;
    }
  }
  return false;
}

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

CudaSearchInputs CudaSearchInputs::fromEnvironment(StringRef ExplicitPath) {
  CudaSearchInputs Inputs;
  Inputs.ExplicitPath = ExplicitPath.str();
  Inputs.EnvCudaPath = llvm::sys::Process::GetEnv("CUDA_PATH");
  Inputs.EnvCudaHome = llvm::sys::Process::GetEnv("CUDA_HOME");
  return Inputs;
}

std::vector<CudaToolkitCandidate>
cudaToolkitCandidates(const CudaSearchInputs &Inputs) {
  std::vector<CudaToolkitCandidate> Candidates;
  if (!Inputs.ExplicitPath.empty())
    Candidates.push_back({"--cuda-path", Inputs.ExplicitPath, true});
  if (Inputs.EnvCudaPath && !Inputs.EnvCudaPath->empty())
    Candidates.push_back({"CUDA_PATH", *Inputs.EnvCudaPath, true});
  if (Inputs.EnvCudaHome && !Inputs.EnvCudaHome->empty())
    Candidates.push_back({"CUDA_HOME", *Inputs.EnvCudaHome, true});
  if (!Inputs.DefaultRoot.empty())
    Candidates.push_back({"default", Inputs.DefaultRoot, false});
  return Candidates;
}

std::optional<CudaToolkit> findCudaToolkit(const CudaSearchInputs &Inputs,
                                           std::string &Diagnostic) {
  Diagnostic.clear();
  // The first candidate decides: a named one must be a toolkit (the search
  // never goes on to another), the default may be absent.
  std::vector<CudaToolkitCandidate> Candidates = cudaToolkitCandidates(Inputs);
  if (Candidates.empty())
    return std::nullopt;
  const CudaToolkitCandidate &First = Candidates.front();
  std::string Why;
  std::optional<CudaToolkit> Toolkit = inspectCudaToolkit(First.Root, Why);
  if (Toolkit)
    Toolkit->Origin = First.Origin;
  else if (First.Named)
    Diagnostic = First.Origin + " '" + First.Root + "': " + Why;
  return Toolkit;
}

std::optional<CudaToolkit> findCudaToolkit(StringRef ExplicitPath,
                                           std::string &Diagnostic) {
  return findCudaToolkit(CudaSearchInputs::fromEnvironment(ExplicitPath), Diagnostic);
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

} // namespace warpcheck::toolchain
