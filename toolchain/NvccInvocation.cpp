//===- NvccInvocation.cpp - the nvcc command line and its guards ----------===//
//
// Part of warpcheck.
//
// What reaches nvcc: arguments of a conservative character set (nvcc hands
// some of them to a shell unescaped), the flags of a compile command the
// flag table keeps for nvcc, and only the bin/nvcc of a toolkit the caller
// located itself.
//
//===----------------------------------------------------------------------===//

#include "warpcheck/toolchain/NvccInvocation.h"

#include "warpcheck/toolchain/CompileFlags.h"
#include "warpcheck/toolchain/CudaArch.h"
#include "warpcheck/toolchain/CudaToolkit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <mutex>

namespace warpcheck::toolchain {

bool isShellSafeArgument(llvm::StringRef Arg, bool ForMacro) {
  if (Arg.empty())
    return false;
  for (char C : Arg) {
    if (llvm::isAlnum(C))
      continue;
    switch (C) {
    case '_': case '.': case '/': case '+': case ',': case '=': case '@':
    case '%': case ':': case '~': case '-': case ' ':
      continue;
    case '(': case ')':
      if (ForMacro)
        continue;
      return false;
    default:
      return false;
    }
  }
  return true;
}

bool isSystemIncludeDir(llvm::StringRef Dir) {
  return Dir == "/include" || Dir == "/usr/include" || Dir.starts_with("/usr/include/") ||
         Dir == "/usr/local/include" || Dir.starts_with("/usr/lib/gcc/");
}

bool isToolchainIncludeDir(llvm::StringRef Dir, llvm::StringRef ResourceDir) {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  llvm::StringRef S = P.str();
  while (S.size() > 1 && S.ends_with("/"))
    S = S.drop_back();
  if (!ResourceDir.empty()) {
    llvm::SmallString<256> R(ResourceDir);
    llvm::sys::path::remove_dots(R, true);
    if (S.starts_with(R.str()))
      return true;
  }
  if (isSystemIncludeDir(S) || S.starts_with("/usr/lib/llvm-") ||
      S.ends_with("/cuda_wrappers") || S.ends_with("/include/cccl"))
    return true;
  if (fileExists(S + "/cuda_runtime.h") || fileExists(S + "/cuda_runtime_api.h") ||
      fileExists(S + "/warpcheck_cuda_minimal.h"))
    return true;
  // A shim for CUDA headers clang's wrapper expects (texture_fetch_functions.h)
  // holding nothing of the user's.
  if (fileExists(S + "/texture_fetch_functions.h") &&
      !fileExists(S + "/cuda_runtime.h"))
    return true;
  return false;
}

namespace {

/// nvcc's name of a C++ standard clang spells; nullopt for one nvcc lacks.
std::optional<std::string> nvccStd(llvm::StringRef Std) {
  Std = Std.trim();
  if (Std.consume_front("gnu++"))
    ;
  else if (!Std.consume_front("c++"))
    return std::nullopt;
  if (Std == "03" || Std == "98")
    return std::string("c++03");
  if (Std == "11" || Std == "0x")
    return std::string("c++11");
  if (Std == "14" || Std == "1y")
    return std::string("c++14");
  if (Std == "17" || Std == "1z")
    return std::string("c++17");
  if (Std == "20" || Std == "2a")
    return std::string("c++20");
  return std::nullopt;
}

bool isMacroDefinition(llvm::StringRef M) {
  llvm::StringRef Name = M.take_until([](char C) { return C == '=' || C == '('; });
  if (Name.empty() || !(llvm::isAlpha(Name[0]) || Name[0] == '_'))
    return false;
  return llvm::all_of(Name, [](char C) { return llvm::isAlnum(C) || C == '_'; });
}

} // namespace

std::optional<unsigned> lowerMaxRegisterCount(std::optional<unsigned> A,
                                              std::optional<unsigned> B) {
  if (!A)
    return B;
  if (!B)
    return A;
  return std::min(*A, *B);
}

SanitizedFlags sanitizeCompileFlags(llvm::ArrayRef<std::string> Flags,
                                    llvm::StringRef WorkingDirectory) {
  SanitizedFlags Out;
  auto Absolute = [&](llvm::StringRef Path) {
    llvm::SmallString<256> P(Path);
    if (!llvm::sys::path::is_absolute(P) && !WorkingDirectory.empty())
      llvm::sys::fs::make_absolute(WorkingDirectory, P);
    // A working directory that is itself relative (a compile database may
    // say "directory": "build"): against this process's, as the parse
    // takes it. nvcc runs in a folder of its own, where a relative path
    // would name another file.
    if (!llvm::sys::path::is_absolute(P))
      llvm::sys::fs::make_absolute(P);
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    return std::string(P.str());
  };
  auto AddInclude = [&](llvm::StringRef Spelling, bool System, llvm::StringRef Path) {
    if (Path.empty()) {
      Out.Dropped.push_back(Spelling.str());
      return;
    }
    std::string Abs = Absolute(Path);
    if (isToolchainIncludeDir(Abs, ""))
      return; // nvcc brings its own
    if (!isShellSafeArgument(Abs)) {
      Out.Refused.push_back(Spelling.str() + Path.str());
      return;
    }
    if (System) {
      Out.Kept.push_back("-isystem");
      Out.Kept.push_back(Abs);
    } else {
      Out.Kept.push_back("-I" + Abs);
    }
  };
  auto AddMacro = [&](char Kind, llvm::StringRef Spelling, llvm::StringRef Value) {
    if (!isMacroDefinition(Value) || (Kind == 'U' && Value.contains('='))) {
      Out.Dropped.push_back(Spelling.str() + Value.str());
      return;
    }
    if (!isShellSafeArgument(Value, /*ForMacro=*/true)) {
      Out.Refused.push_back(Spelling.str() + Value.str());
      return;
    }
    Out.Kept.push_back(std::string("-") + Kind + Value.str());
  };

  for (size_t I = 0; I < Flags.size();) {
    llvm::StringRef A = Flags[I];
    // Positional arguments (the compiler, source files) are not flags.
    if (!A.starts_with("-")) {
      ++I;
      continue;
    }
    // clang's spelling of relocatable device code (the nvcc spellings are
    // rows of the table, below).
    if (A == "-fgpu-rdc" || A == "-fno-gpu-rdc") {
      Out.RelocatableDeviceCode = A == "-fgpu-rdc";
      ++I;
      continue;
    }
    std::optional<MatchedFlag> M = matchCompileFlag(Flags, I);
    if (!M) {
      // Not in the table: dropped, with the value of a flag known to take
      // one, so that the value is not read as a flag.
      std::string Dropped = A.str();
      if (takesSeparateValue(A) && I + 1 < Flags.size())
        Dropped += " " + Flags[++I];
      Out.Dropped.push_back(Dropped);
      ++I;
      continue;
    }
    I += M->ArgsUsed;
    llvm::StringRef V = M->Value;
    FlagMeaning Meaning = M->Flag->Meaning;
    FlagFate Fate = fatesOf(Meaning).ForNvcc;
    if (Meaning == FlagMeaning::DeviceC)
      Out.RelocatableDeviceCode = true;
    if (Meaning == FlagMeaning::Rdc) {
      std::string Value = V.trim().lower();
      if (Value == "true" || Value == "false")
        Out.RelocatableDeviceCode = Value == "true";
    }
    if (Fate == FlagFate::Dropped || Fate == FlagFate::SetByWarpcheck) {
      std::string Dropped = A.str();
      if (M->ArgsUsed == 2)
        Dropped += " " + V.str();
      Out.Dropped.push_back(Dropped);
      continue;
    }
    switch (Meaning) {
    case FlagMeaning::IncludePath:
      AddInclude("-I", false, V);
      break;
    case FlagMeaning::SystemInclude:
      AddInclude("-isystem ", true, V);
      break;
    case FlagMeaning::PreInclude:
      // A forced include (a build's config.h): a file nvcc reads, no
      // program; the same checks as an include folder's path.
      if (V.empty()) {
        Out.Dropped.push_back("-include");
      } else if (std::string Abs = Absolute(V); !isShellSafeArgument(Abs)) {
        Out.Refused.push_back("-include " + V.str());
      } else {
        Out.Kept.push_back("-include");
        Out.Kept.push_back(Abs);
      }
      break;
    case FlagMeaning::Define:
      AddMacro('D', "-D", V);
      break;
    case FlagMeaning::Undefine:
      AddMacro('U', "-U", V);
      break;
    case FlagMeaning::Std:
      if (auto S = nvccStd(V))
        Out.Kept.push_back("-std=" + *S);
      else
        Out.Dropped.push_back("-std=" + V.str());
      break;
    case FlagMeaning::MaxRegCount: {
      unsigned N = 0;
      if (!V.trim().getAsInteger(10, N) && N >= 1 && N <= 255)
        Out.MaxRegisterCount = lowerMaxRegisterCount(Out.MaxRegisterCount, N);
      else
        Out.Dropped.push_back("-maxrregcount=" + V.str());
      break;
    }
    case FlagMeaning::FastMath:
      Out.Kept.push_back("--use_fast_math");
      break;
    case FlagMeaning::Ftz:
    case FlagMeaning::Fmad:
    case FlagMeaning::PrecDiv:
    case FlagMeaning::PrecSqrt: {
      // Only the two values nvcc takes, in one spelling.
      std::string Value = V.trim().lower();
      if (Value == "true" || Value == "false")
        Out.Kept.push_back("-" + M->Flag->Short.str() + "=" + Value);
      else
        Out.Dropped.push_back(A.str() + (M->ArgsUsed == 2 ? " " + V.str() : ""));
      break;
    }
    default:
      // A meaning the table keeps for nvcc without a rule here would be a
      // new row: dropped until it has one.
      Out.Dropped.push_back(A.str());
      break;
    }
  }
  return Out;
}

std::optional<std::string> validateToolkitRoot(llvm::StringRef ToolkitRoot, std::string *Why) {
  auto Fail = [&](const std::string &Reason) -> std::optional<std::string> {
    if (Why)
      *Why = Reason;
    return std::nullopt;
  };
  if (ToolkitRoot.empty())
    return Fail("no CUDA toolkit was given");
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(ToolkitRoot, Real))
    return Fail("the CUDA toolkit folder '" + ToolkitRoot.str() + "' does not exist");
  std::string Nvcc = cudaToolkitProgram(Real, "nvcc");
  if (!isExecutableFile(Nvcc))
    return Fail("'" + Nvcc + "' is not an executable file");
  return std::string(Real.str());
}

std::optional<std::string> defaultToolkitRoot() {
  // The toolkit search's own places, in its order; here the first that has
  // an nvcc wins (the register count needs nvcc, the parse only headers).
  CudaSearchInputs Inputs = CudaSearchInputs::fromEnvironment("");
  for (const CudaToolkitCandidate &C : cudaToolkitCandidates(Inputs))
    if (auto Root = validateToolkitRoot(C.Root))
      return Root;
  return std::nullopt;
}

namespace {
std::mutex TrustedMutex;
std::string &trustedRootStorage() {
  static std::string Root;
  return Root;
}
} // namespace

void setTrustedToolkitRoot(llvm::StringRef ToolkitRoot) {
  std::lock_guard<std::mutex> Lock(TrustedMutex);
  trustedRootStorage() = ToolkitRoot.str();
}

std::string trustedToolkitRoot() {
  std::lock_guard<std::mutex> Lock(TrustedMutex);
  return trustedRootStorage();
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
  // The flags warpcheck sets itself, spelled as the flag table spells them
  // (their fate for nvcc there is FlagFate::SetByWarpcheck).
  std::vector<std::string> Args = {cudaToolkitProgram(ToolkitRoot, "nvcc"),
                                   nvccSpelling(FlagMeaning::Cubin),
                                   nvccSpelling(FlagMeaning::Arch) + "=" + *SM,
                                   "-o",
                                   OutputFile.str(),
                                   // ptxas's "Used N registers" lines.
                                   nvccSpelling(FlagMeaning::PtxasFlags),
                                   "-v",
                                   // The source line of every instruction,
                                   // for the memory instructions read
                                   // from the cubin (SassListing.h). It
                                   // changes no instruction: the code of
                                   // every test input's cubin is the same
                                   // byte for byte without it (nvcc 13.0,
                                   // sm_90).
                                   nvccSpelling(FlagMeaning::LineInfo),
                                   // Language extensions clang accepts by
                                   // default and nvcc only on request.
                                   nvccLongSpelling(FlagMeaning::ExtendedLambda),
                                   nvccLongSpelling(FlagMeaning::RelaxedConstexpr),
                                   // The host compiler only preprocesses here.
                                   nvccSpelling(FlagMeaning::AnyHostCompiler)};
  std::optional<unsigned> MaxReg = lowerMaxRegisterCount(MaxRegisterCount, Flags.MaxRegisterCount);
  if (MaxReg)
    Args.push_back(nvccSpelling(FlagMeaning::MaxRegCount) + "=" + std::to_string(*MaxReg));
  if (RelocatableDeviceCode)
    Args.push_back(nvccSpelling(FlagMeaning::Rdc) + "=true");
  Args.insert(Args.end(), Flags.Kept.begin(), Flags.Kept.end());
  Args.push_back(nvccSpelling(FlagMeaning::Language));
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

} // namespace warpcheck::toolchain
