//===- NvccRunner.cpp - ptxas's counts, from nvcc started without a shell -===//
//
// The located toolkit's bin/nvcc, started with the toolchain layer's
// argument vector (nvccArguments) and runner (runProcessWithEnvironment:
// never a shell), a time limit and a private temporary folder; the source
// reaches it through an #include line of a wrapper file, never on the
// command line.
//
// nvcc runs with an environment of its own (nvccEnvironment): nothing of
// the user's environment can add flags to it (NVCC_PREPEND_FLAGS,
// NVCC_APPEND_FLAGS), choose its host compiler (NVCC_CCBIN) or put another
// program named gcc or cicc first on its PATH.
//
// The cubin nvcc wrote is then listed by the same toolkit's bin/nvdisasm,
// started the same way (an argument vector of the program's absolute path,
// `-gi` and the cubin's private path), for the memory instructions of its
// kernels (SassListing.h). A toolkit without nvdisasm, or an nvdisasm that
// fails, only leaves them unread.
//
//===----------------------------------------------------------------------===//

#include "ParsedFlags.h"
#include "Options.h"
#include "PtxasCache.h"

#include "warpcheck/analysis/RegisterUsage.h"
#include "warpcheck/analysis/SassListing.h"
#include "warpcheck/toolchain/CacheTrim.h"
#include "warpcheck/toolchain/CudaToolkit.h"
#include "warpcheck/toolchain/ProcessRunner.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace warpcheck::analysis {

using registers::archOrDefault;
using registers::fileExists;
using registers::lowerMaxRegisterCount;
using registers::ptxasCacheKey;
using registers::readCache;
using registers::writeCache;

namespace {

/// The first lines of nvcc's output that say what went wrong.
std::string errorSummary(llvm::StringRef Output) {
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  Output.split(Lines, '\n', -1, false);
  std::string Summary;
  unsigned Taken = 0;
  for (llvm::StringRef L : Lines) {
    L = L.trim();
    if (L.empty() || L.starts_with("ptxas info"))
      continue;
    if (!(L.contains("error") || L.contains("fatal")))
      continue;
    if (!Summary.empty())
      Summary += "; ";
    Summary += L.take_front(300).str();
    if (++Taken == 2)
      break;
  }
  if (Summary.empty() && !Lines.empty())
    Summary = Lines.front().trim().take_front(300).str();
  return Summary;
}

/// The whole environment nvcc runs with: a PATH of the trusted toolkit's
/// bin and the system's own folders (where nvcc finds its host compiler),
/// its temporary files in \p TempDir, messages in English (errorSummary
/// reads them).
std::vector<std::string> nvccEnvironment(llvm::StringRef ToolkitRoot, llvm::StringRef TempDir) {
  llvm::SmallString<256> ToolkitBin(ToolkitRoot);
  llvm::sys::path::append(ToolkitBin, "bin");
  return {"PATH=" + std::string(ToolkitBin.str()) +
              ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
          "TMPDIR=" + TempDir.str(), "LC_ALL=C"};
}

/// The memory instructions of Cubin's kernels, listed by the toolkit's
/// nvdisasm (started as nvcc is); Note says why there are none.
std::optional<std::map<std::string, std::vector<SassMemoryInstruction>>>
readMemoryInstructions(llvm::StringRef Root, llvm::StringRef Cubin, llvm::StringRef TempDir,
                       unsigned TimeoutSeconds, std::string &Note) {
  std::string Nvdisasm = toolchain::cudaToolkitProgram(Root, "nvdisasm");
  if (!toolchain::isExecutableFile(Nvdisasm)) {
    Note = "the toolkit has no bin/nvdisasm";
    return std::nullopt;
  }
  // -gi: every instruction's source line and the lines of the calls it was
  // inlined at.
  toolchain::ProcessResult Run = toolchain::runProcessWithEnvironment(
      {Nvdisasm, "-gi", Cubin.str()}, nvccEnvironment(Root, TempDir), TempDir, TimeoutSeconds);
  if (Run.StartFailed) {
    Note = "nvdisasm could not be started: " + Run.StartError;
    return std::nullopt;
  }
  if (Run.ExitCode != 0) {
    Note = Run.ExitCode < 0 ? "nvdisasm did not finish"
                            : "nvdisasm failed (exit code " + std::to_string(Run.ExitCode) +
                                  "): " + errorSummary(Run.Output);
    return std::nullopt;
  }
  SassListing Listing = parseNvdisasmListing(Run.StandardOutput);
  if (Listing.Kernels.empty()) {
    Note = "nvdisasm listed no kernel";
    return std::nullopt;
  }
  std::map<std::string, std::vector<SassMemoryInstruction>> Out;
  for (const std::string &K : Listing.Kernels)
    Out[K] = kernelMemoryInstructions(Listing, K);
  return Out;
}

} // namespace

TranslationUnitRegisters runPtxas(const RegisterOptions &Options, llvm::StringRef SourceFile,
                                  llvm::StringRef ExtraKey) {
  TranslationUnitRegisters R;
  R.Source = RegisterSource::Ptxas;
  auto Fail = [&](const std::string &Why) {
    R.ByMangledName.clear();
    R.FallbackReason = Why;
    return R;
  };
  std::string Why;
  std::optional<std::string> Root = validateToolkitRoot(Options.ToolkitRoot, &Why);
  if (!Root)
    return Fail(Why);
  std::optional<std::string> SM = nvccArchName(archOrDefault(Options.Arch));
  if (!SM)
    return Fail("'" + Options.Arch + "' is not an architecture nvcc can compile for");
  R.Arch = *SM;

  llvm::SmallString<256> Source(SourceFile);
  if (!llvm::sys::path::is_absolute(Source)) {
    if (!Options.WorkingDirectory.empty())
      llvm::sys::fs::make_absolute(Options.WorkingDirectory, Source);
    else
      llvm::sys::fs::make_absolute(Source);
  }
  llvm::sys::path::remove_dots(Source, /*remove_dot_dot=*/true);
  if (!fileExists(Source))
    return Fail("the source file '" + std::string(Source.str()) + "' cannot be read");
  // The path goes into an #include line of the wrapper, never onto a
  // command line; it must still be a valid header name.
  if (llvm::any_of(Source.str(), [](char C) {
        return C == '"' || C == '\\' || C == '\n' || C == '\r' ||
               static_cast<unsigned char>(C) < 0x20;
      }))
    return Fail("the source path holds characters an #include line cannot name");

  llvm::SmallString<256> WorkDir(Options.WorkingDirectory);
  if (WorkDir.empty())
    WorkDir = llvm::sys::path::parent_path(Source);
  SanitizedFlags Flags = sanitizeCompileFlags(Options.CompileFlags, WorkDir);
  R.DroppedFlags = Flags.Dropped;
  if (!Flags.Refused.empty())
    return Fail("nvcc was not run: " + llvm::join(Flags.Refused, ", ") +
                " holds characters nvcc would hand to its shell unescaped");

  auto Content = llvm::MemoryBuffer::getFile(Source);
  if (!Content)
    return Fail("the source file '" + std::string(Source.str()) + "' cannot be read");
  std::string Key = ptxasCacheKey(*Root, *SM, Options.MaxRegisterCount, Flags, Source.str(),
                                  (*Content)->getBuffer(), ExtraKey);
  std::string CacheDir = registerCacheDirectory(Options);
  llvm::SmallString<256> CacheFile;
  if (!CacheDir.empty()) {
    CacheFile = CacheDir;
    llvm::sys::path::append(CacheFile, Key + ".txt");
    // A cached time-out stands for runs with the same limit or a shorter
    // one (a large kernel's 181 s were spent again on every run); a longer
    // limit tries again.
    if (auto Cached = readCache(CacheFile);
        Cached && (!Cached->TimedOutAfterSeconds ||
                   (Options.TimeoutSeconds &&
                    Options.TimeoutSeconds <= Cached->TimedOutAfterSeconds))) {
      toolchain::markCacheEntryUsed(CacheFile);
      Cached->Arch = *SM;
      if (Cached->TimedOutAfterSeconds)
        Cached->FallbackReason += " (an earlier run's, cached until the unit changes: remove " +
                                  std::string(CacheFile.str()) + " to run nvcc again)";
      Cached->DroppedFlags = Flags.Dropped;
      return *Cached;
    }
  }

  // Under the system's temporary folder, which for a worker process is its
  // own folder (Workers.cpp): the main process removes that whole folder
  // even when the worker is killed before its scope_exit runs.
  llvm::SmallString<256> TempDir;
  if (llvm::sys::fs::createUniqueDirectory("warpcheck-ptxas", TempDir))
    return Fail("no temporary folder could be created for nvcc");
  auto Cleanup = llvm::make_scope_exit([&] { llvm::sys::fs::remove_directories(TempDir); });
  llvm::SmallString<256> Wrapper(TempDir), Cubin(TempDir);
  llvm::sys::path::append(Wrapper, "unit.cu");
  llvm::sys::path::append(Cubin, "unit.cubin");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Wrapper, EC);
    if (EC)
      return Fail("the nvcc input could not be written: " + EC.message());
    OS << "#include \"" << Source << "\"\n";
  }
  std::string Output;
  int RC = 0;
  // As the build compiles it (SanitizedFlags::RelocatableDeviceCode). Device
  // code that calls kernels or functions of other translation units, or
  // launches kernels itself (dynamic parallelism: "kernel launch from
  // __device__ or __global__ functions requires separate compilation
  // mode"), only compiles and links with -rdc=true: retried so.
  for (bool Relocatable : {Flags.RelocatableDeviceCode, true}) {
    std::string ArgError;
    std::optional<std::vector<std::string>> Args = nvccArguments(
        *Root, *SM, Flags, Options.MaxRegisterCount, Wrapper, Cubin, &ArgError, Relocatable);
    if (!Args)
      return Fail(ArgError);
    toolchain::ProcessResult Run = toolchain::runProcessWithEnvironment(
        *Args, nvccEnvironment(*Root, TempDir), TempDir, Options.TimeoutSeconds);
    RC = Run.ExitCode;
    Output = std::move(Run.Output);
    if (Run.StartFailed)
      return Fail("nvcc could not be started: " + Run.StartError);
    if (Run.TimedOut) {
      // Cached with its limit: the same unit would time out again.
      Fail("nvcc did not finish: " + Run.StartError);
      R.TimedOutAfterSeconds = Options.TimeoutSeconds;
      if (!CacheFile.empty())
        writeCache(CacheFile, R);
      return R;
    }
    if (RC < 0) {
      // A crash (a signal): not cached, it may not happen again.
      return Fail(Run.StartError.empty() ? "nvcc did not finish"
                                         : "nvcc did not finish: " + Run.StartError);
    }
    llvm::StringRef Said(Output);
    if (RC == 0 || Relocatable ||
        !(Said.contains("Unresolved extern function") ||
          Said.contains("requires separate compilation mode")))
      break;
  }
  if (RC != 0) {
    Fail("nvcc failed (exit code " + std::to_string(RC) + "): " + errorSummary(Output));
    if (!CacheFile.empty())
      writeCache(CacheFile, R);
    return R;
  }
  R.ByMangledName = parsePtxasOutput(Output);
  for (auto &[Name, F] : R.ByMangledName)
    if (F.Arch.empty())
      F.Arch = *SM;
  R.MemoryInstructions = readMemoryInstructions(*Root, Cubin, TempDir, Options.TimeoutSeconds,
                                                R.MemoryInstructionsNote);
  if (!CacheFile.empty())
    writeCache(CacheFile, R);
  return R;
}

} // namespace warpcheck::analysis
