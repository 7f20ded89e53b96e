//===- Guards.cpp - characters, flags, the trusted toolkit ----------------===//
//
// What reaches nvcc: arguments of a conservative character set (nvcc hands
// some of them to a shell unescaped), the allow-listed flags of a compile
// command, and only the bin/nvcc of a toolkit the caller located itself
// (RegisterUsage.h, "Security").
//
//===----------------------------------------------------------------------===//

#include "Guards.h"
#include "Options.h"

#include "warpcheck/analysis/RegisterUsage.h"

#include "clang/Basic/LangStandard.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <mutex>

using namespace clang;

namespace warpcheck::analysis {

namespace registers {

bool fileExists(const llvm::Twine &Path) {
  return llvm::sys::fs::exists(Path) && !llvm::sys::fs::is_directory(Path);
}

bool isSystemIncludeDir(llvm::StringRef Dir) {
  return Dir == "/include" || Dir == "/usr/include" || Dir.starts_with("/usr/include/") ||
         Dir == "/usr/local/include" || Dir.starts_with("/usr/lib/gcc/");
}

std::vector<std::string> includeFlags(const HeaderSearchOptions &HS,
                                      llvm::function_ref<bool(llvm::StringRef Dir)> Skip) {
  std::vector<std::string> Flags;
  for (const HeaderSearchOptions::Entry &E : HS.UserEntries) {
    if (E.IsFramework || Skip(E.Path))
      continue;
    switch (E.Group) {
    case frontend::Quoted:
    case frontend::Angled:
      Flags.push_back("-I" + E.Path);
      break;
    case frontend::System:
      Flags.push_back("-isystem");
      Flags.push_back(E.Path);
      break;
    default:
      break;
    }
  }
  return Flags;
}

void appendMacroFlags(const PreprocessorOptions &PPO, std::vector<std::string> &Flags) {
  for (const auto &[Macro, IsUndef] : PPO.Macros)
    Flags.push_back((IsUndef ? "-U" : "-D") + Macro);
}

} // namespace registers

using registers::appendMacroFlags;
using registers::archOrDefault;
using registers::fileExists;
using registers::includeFlags;
using registers::isSystemIncludeDir;
using registers::lowerMaxRegisterCount;

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

namespace {

/// Flags (nvcc and clang spellings) that take their value as the next
/// argument; their values are dropped with them.
bool takesSeparateValue(llvm::StringRef Flag) {
  static const char *const Names[] = {
      "-o", "-x", "-ccbin", "--compiler-bindir", "--options-file", "-optf",
      "-Xcompiler", "-Xptxas", "-Xnvlink", "-Xlinker", "-Xfatbin", "-Xcudafe",
      "-Xarchive", "-Xclang", "-Xcuda-ptxas", "-Xcuda-fatbinary", "-Xarch_host",
      "-Xarch_device", "-mllvm", "-include", "-imacros", "-iquote", "-idirafter",
      "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot",
      "--sysroot", "-MF", "-MT", "-MQ", "-arch", "--gpu-architecture", "-code",
      "--gpu-code", "-gencode", "--generate-code", "--output-file",
      "--output-directory", "-odir", "--dependency-output", "-target",
      "--target", "-L", "-l", "--library", "--library-path", "-rdc",
      "--relocatable-device-code", "-Xopenmp-target", "-ftemplate-depth",
      "--machine", "-m", "--keep-dir", "--run-args", "--linker-options",
      "--compiler-options", "--ptxas-options", "--nvlink-options",
      "--pre-include", "--std-lib", "-resource-dir", "-ivfsoverlay",
      "-load", "-fplugin", "-Xassembler", "-Xpreprocessor", "-aux-triple",
      "-triple", "-fmodule-file", "-fprebuilt-module-path", "-B", "--prefix"};
  for (const char *N : Names)
    if (Flag == N)
      return true;
  return false;
}

/// Folders nvcc brings itself or that belong to another compiler: clang's
/// resource folder and CUDA wrappers, a CUDA toolkit's include folder and
/// CCCL, the system's C and C++ folders, warpcheck's bundled header shims.
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

SanitizedFlags sanitizeCompileFlags(llvm::ArrayRef<std::string> Flags,
                                    llvm::StringRef WorkingDirectory) {
  SanitizedFlags Out;
  auto Absolute = [&](llvm::StringRef Path) {
    llvm::SmallString<256> P(Path);
    if (!llvm::sys::path::is_absolute(P) && !WorkingDirectory.empty())
      llvm::sys::fs::make_absolute(WorkingDirectory, P);
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

  for (size_t I = 0; I < Flags.size(); ++I) {
    llvm::StringRef A = Flags[I];
    auto Next = [&]() -> std::optional<llvm::StringRef> {
      if (I + 1 < Flags.size())
        return llvm::StringRef(Flags[++I]);
      return std::nullopt;
    };
    // Joined or separate value of one of the given spellings.
    auto Match = [&](std::initializer_list<const char *> Joined,
                     std::initializer_list<const char *> Separate,
                     llvm::StringRef &Value) {
      for (const char *S : Separate)
        if (A == S) {
          if (auto V = Next()) {
            Value = *V;
            return true;
          }
          Value = "";
          return true;
        }
      for (const char *J : Joined)
        if (A.starts_with(J) && A.size() > llvm::StringRef(J).size()) {
          Value = A.drop_front(llvm::StringRef(J).size());
          return true;
        }
      return false;
    };
    llvm::StringRef V;
    if (Match({"--include-path=", "-I"}, {"-I", "--include-path"}, V)) {
      AddInclude("-I", false, V);
    } else if (Match({"--system-include=", "-isystem="}, {"-isystem", "--system-include"}, V) ||
               (A.starts_with("-isystem") && A.size() > 8 && (V = A.drop_front(8), true))) {
      AddInclude("-isystem ", true, V);
    } else if (Match({"--pre-include="}, {"-include", "--pre-include"}, V)) {
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
    } else if (Match({"--define-macro=", "-D"}, {"-D", "--define-macro"}, V)) {
      AddMacro('D', "-D", V);
    } else if (Match({"--undefine-macro=", "-U"}, {"-U", "--undefine-macro"}, V)) {
      AddMacro('U', "-U", V);
    } else if (Match({"-std=", "--std="}, {"-std", "--std"}, V)) {
      if (auto S = nvccStd(V))
        Out.Kept.push_back("-std=" + *S);
      else
        Out.Dropped.push_back("-std=" + V.str());
    } else if (Match({"-maxrregcount=", "--maxrregcount="}, {"-maxrregcount", "--maxrregcount"},
                     V)) {
      unsigned N = 0;
      if (!V.trim().getAsInteger(10, N) && N >= 1 && N <= 255)
        Out.MaxRegisterCount = lowerMaxRegisterCount(Out.MaxRegisterCount, N);
      else
        Out.Dropped.push_back("-maxrregcount=" + V.str());
    } else if (A.starts_with("-")) {
      std::string Dropped = A.str();
      if (takesSeparateValue(A))
        if (auto Value = Next())
          Dropped += " " + Value->str();
      Out.Dropped.push_back(Dropped);
    }
    // Positional arguments (the compiler, source files) are not flags.
  }
  return Out;
}

std::vector<std::string> compileFlagsFromPreprocessor(const Preprocessor &PP) {
  const HeaderSearchOptions &HS = PP.getHeaderSearchInfo().getHeaderSearchOpts();
  std::vector<std::string> Flags = includeFlags(
      HS, [&](llvm::StringRef Dir) { return isToolchainIncludeDir(Dir, HS.ResourceDir); });
  appendMacroFlags(PP.getPreprocessorOpts(), Flags);
  // The unit's forced includes, but not clang's CUDA wrapper (the driver
  // forces __clang_cuda_runtime_wrapper.h in) nor warpcheck's own (the
  // bundled declarations and the nvcc-compatibility header, all named
  // warpcheck_*): they are written for clang's parse, and nvcc has its own
  // CUDA headers.
  for (const std::string &Include : PP.getPreprocessorOpts().Includes)
    if (llvm::StringRef Name = llvm::sys::path::filename(Include);
        !Name.starts_with("warpcheck_") && !Name.starts_with("__clang_")) {
      Flags.push_back("-include");
      Flags.push_back(Include);
    }
  const LangOptions &LO = PP.getLangOpts();
  const LangStandard &Std = LangStandard::getLangStandardForKind(LO.LangStd);
  if (LO.CPlusPlus)
    Flags.push_back(std::string("-std=") + Std.getName());
  return Flags;
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
  llvm::SmallString<256> Nvcc(Real);
  llvm::sys::path::append(Nvcc, "bin", "nvcc");
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Nvcc, Status) ||
      Status.type() != llvm::sys::fs::file_type::regular_file ||
      !llvm::sys::fs::can_execute(Nvcc))
    return Fail("'" + std::string(Nvcc.str()) + "' is not an executable file");
  return std::string(Real.str());
}

std::optional<std::string> defaultToolkitRoot() {
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (auto V = llvm::sys::Process::GetEnv(Var))
      if (auto Root = validateToolkitRoot(*V))
        return Root;
  return validateToolkitRoot("/usr/local/cuda");
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

RegisterOptions standardRegisterOptions(llvm::StringRef Arch, const Preprocessor *PP,
                                        RegisterMode Mode, unsigned MaxRegisterCount) {
  RegisterOptions O;
  O.Mode = Mode;
  O.Arch = archOrDefault(Arch);
  O.ToolkitRoot = trustedToolkitRoot();
  if (O.ToolkitRoot.empty())
    if (std::optional<std::string> Found = defaultToolkitRoot())
      O.ToolkitRoot = *Found;
  if (PP)
    O.CompileFlags = compileFlagsFromPreprocessor(*PP);
  if (MaxRegisterCount)
    O.MaxRegisterCount = MaxRegisterCount;
  return O;
}


} // namespace warpcheck::analysis
