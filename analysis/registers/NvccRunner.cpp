//===- NvccRunner.cpp - ptxas's counts, from nvcc started without a shell -===//
//
// The located toolkit's bin/nvcc, started with an argument vector (never a
// shell), a time limit and a private temporary folder; the source reaches
// it through an #include line of a wrapper file, never on the command line.
//
//===----------------------------------------------------------------------===//

#include "Guards.h"
#include "Options.h"
#include "PtxasCache.h"

#include "warpcheck/analysis/RegisterUsage.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

extern "C" char **environ;

namespace warpcheck::analysis {

using registers::archOrDefault;
using registers::fileExists;
using registers::lowerMaxRegisterCount;
using registers::ptxasCacheKey;
using registers::readCache;
using registers::writeCache;

std::optional<std::string> nvccArchName(llvm::StringRef Arch) {
  Arch = Arch.trim();
  std::string Lower = Arch.lower();
  llvm::StringRef S = Lower;
  if (!S.consume_front("sm_"))
    S.consume_front("compute_");
  if (S.contains('.')) {
    auto [Major, Minor] = S.split('.');
    std::string Joined = Major.str() + Minor.str();
    if (Joined.empty() || !llvm::all_of(Joined, llvm::isDigit))
      return std::nullopt;
    return "sm_" + Joined;
  }
  llvm::StringRef Digits = S.take_while(llvm::isDigit);
  llvm::StringRef Suffix = S.drop_front(Digits.size());
  if (Digits.size() < 2 || Digits.size() > 3 || !(Suffix.empty() || Suffix == "a" || Suffix == "f"))
    return std::nullopt;
  return "sm_" + S.str();
}

std::optional<std::vector<std::string>>
nvccArguments(llvm::StringRef ToolkitRoot, llvm::StringRef Arch, const SanitizedFlags &Flags,
              std::optional<unsigned> MaxRegisterCount, llvm::StringRef WrapperSource,
              llvm::StringRef OutputFile, std::string *Error, bool RelocatableDeviceCode) {
  auto Fail = [&](const std::string &Why) -> std::optional<std::vector<std::string>> {
    if (Error)
      *Error = Why;
    return std::nullopt;
  };
  std::optional<std::string> SM = nvccArchName(archOrDefault(Arch));
  if (!SM)
    return Fail("'" + Arch.str() + "' is not an architecture nvcc can compile for");
  llvm::SmallString<256> Nvcc(ToolkitRoot);
  llvm::sys::path::append(Nvcc, "bin", "nvcc");
  std::vector<std::string> Args = {std::string(Nvcc.str()),
                                   "-cubin",
                                   "-arch=" + *SM,
                                   "-o",
                                   OutputFile.str(),
                                   "-Xptxas",
                                   "-v",
                                   // Language extensions clang accepts by
                                   // default and nvcc only on request.
                                   "--extended-lambda",
                                   "--expt-relaxed-constexpr",
                                   // The host compiler only preprocesses here.
                                   "-allow-unsupported-compiler"};
  std::optional<unsigned> MaxReg = lowerMaxRegisterCount(MaxRegisterCount, Flags.MaxRegisterCount);
  if (MaxReg)
    Args.push_back("-maxrregcount=" + std::to_string(*MaxReg));
  if (RelocatableDeviceCode)
    Args.push_back("-rdc=true");
  Args.insert(Args.end(), Flags.Kept.begin(), Flags.Kept.end());
  Args.push_back("-x");
  Args.push_back("cu");
  Args.push_back(WrapperSource.str());
  for (const std::string &A : Args) {
    llvm::StringRef S(A);
    bool Macro = S.starts_with("-D") || S.starts_with("-U");
    if (!isShellSafeArgument(S, Macro))
      return Fail("the nvcc argument '" + A +
                  "' holds characters nvcc could hand to its shell unescaped");
  }
  return Args;
}

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
    if (auto Cached = readCache(CacheFile)) {
      Cached->Arch = *SM;
      Cached->DroppedFlags = Flags.Dropped;
      return *Cached;
    }
  }

  llvm::SmallString<256> TempDir;
  if (llvm::sys::fs::createUniqueDirectory("warpcheck-ptxas", TempDir))
    return Fail("no temporary folder could be created for nvcc");
  auto Cleanup = llvm::make_scope_exit([&] { llvm::sys::fs::remove_directories(TempDir); });
  llvm::SmallString<256> Wrapper(TempDir), Cubin(TempDir), Out(TempDir), Err(TempDir);
  llvm::sys::path::append(Wrapper, "unit.cu");
  llvm::sys::path::append(Cubin, "unit.cubin");
  llvm::sys::path::append(Out, "stdout.txt");
  llvm::sys::path::append(Err, "stderr.txt");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Wrapper, EC);
    if (EC)
      return Fail("the nvcc input could not be written: " + EC.message());
    OS << "#include \"" << Source << "\"\n";
  }
  // The user's environment, with nvcc's temporary files in the private
  // folder.
  std::vector<std::string> Env;
  for (char **E = environ; E && *E; ++E) {
    llvm::StringRef Var(*E);
    if (Var.starts_with("TMPDIR="))
      continue;
    Env.push_back(Var.str());
  }
  Env.push_back("TMPDIR=" + std::string(TempDir.str()));
  std::vector<llvm::StringRef> EnvRefs(Env.begin(), Env.end());

  std::string Output;
  int RC = 0;
  // Device code that calls kernels or functions of other translation units
  // (the device runtime's launches) only links with -rdc=true: retried so.
  for (bool Relocatable : {false, true}) {
    std::string ArgError;
    std::optional<std::vector<std::string>> Args = nvccArguments(
        *Root, *SM, Flags, Options.MaxRegisterCount, Wrapper, Cubin, &ArgError, Relocatable);
    if (!Args)
      return Fail(ArgError);
    std::vector<llvm::StringRef> ArgRefs(Args->begin(), Args->end());
    std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(Out),
                                                  llvm::StringRef(Err)};
    std::string ExecError;
    bool ExecutionFailed = false;
    RC = llvm::sys::ExecuteAndWait(ArgRefs.front(), ArgRefs, EnvRefs, Redirects,
                                   Options.TimeoutSeconds, /*MemoryLimit=*/0, &ExecError,
                                   &ExecutionFailed);
    Output.clear();
    for (const auto &File : {Err, Out})
      if (auto B = llvm::MemoryBuffer::getFile(File))
        Output += (*B)->getBuffer().str();
    if (ExecutionFailed)
      return Fail("nvcc could not be started: " + ExecError);
    if (RC < 0) {
      // A time-out or a crash: not cached, it may not happen again.
      return Fail(ExecError.empty() ? "nvcc did not finish"
                                    : "nvcc did not finish: " + ExecError);
    }
    if (RC == 0 || Relocatable || !llvm::StringRef(Output).contains("Unresolved extern function"))
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
  if (!CacheFile.empty())
    writeCache(CacheFile, R);
  return R;
}

} // namespace warpcheck::analysis
