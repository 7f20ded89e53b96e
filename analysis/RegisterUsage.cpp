//===- RegisterUsage.cpp - registers per thread: ptxas and the estimate ---===//

#include "warpcheck/analysis/RegisterUsage.h"

#include "warpcheck/model/Arch.h"
#include "warpcheck/model/RegisterEstimate.h"

#include "clang/AST/ASTDiagnostic.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/LangStandard.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/CodeGen/ModuleBuilder.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

#include <algorithm>
#include <cstdlib>
#include <functional>

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();
extern "C" char **environ;

using namespace clang;

namespace warpcheck::analysis {

//===----------------------------------------------------------------------===//
// Names and options
//===----------------------------------------------------------------------===//

const char *registerSourceName(RegisterSource Source) {
  return Source == RegisterSource::Ptxas ? "ptxas" : "estimate";
}

std::optional<RegisterMode> parseRegisterMode(llvm::StringRef Text) {
  Text = Text.trim();
  if (Text.empty() || Text.equals_insensitive("auto"))
    return RegisterMode::Auto;
  if (Text.equals_insensitive("ptxas"))
    return RegisterMode::Ptxas;
  if (Text.equals_insensitive("estimate"))
    return RegisterMode::Estimate;
  return std::nullopt;
}

const char *registerModeName(RegisterMode Mode) {
  switch (Mode) {
  case RegisterMode::Auto:
    return "auto";
  case RegisterMode::Ptxas:
    return "ptxas";
  case RegisterMode::Estimate:
    return "estimate";
  }
  return "auto";
}

std::string RegisterOptions::fingerprint() const {
  std::string F;
  llvm::raw_string_ostream OS(F);
  OS << registerModeName(Mode) << '\x1f' << ToolkitRoot << '\x1f' << Arch << '\x1f'
     << WorkingDirectory << '\x1f' << (MaxRegisterCount ? *MaxRegisterCount : 0)
     << '\x1f' << SourceFile << '\x1f' << CacheDir << '\x1f' << TimeoutSeconds;
  for (const std::string &Flag : CompileFlags)
    OS << '\x1e' << Flag;
  return OS.str();
}

//===----------------------------------------------------------------------===//
// Guards: characters, flags, toolkit
//===----------------------------------------------------------------------===//

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

bool fileExists(const llvm::Twine &Path) {
  return llvm::sys::fs::exists(Path) && !llvm::sys::fs::is_directory(Path);
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
  if (S == "/include" || S == "/usr/include" || S.starts_with("/usr/include/") ||
      S == "/usr/local/include" || S.starts_with("/usr/lib/gcc/") ||
      S.starts_with("/usr/lib/llvm-") || S.ends_with("/cuda_wrappers") ||
      S.ends_with("/include/cccl"))
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
        Out.MaxRegisterCount = Out.MaxRegisterCount ? std::min(*Out.MaxRegisterCount, N) : N;
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
  std::vector<std::string> Flags;
  const HeaderSearchOptions &HS = PP.getHeaderSearchInfo().getHeaderSearchOpts();
  for (const HeaderSearchOptions::Entry &E : HS.UserEntries) {
    if (E.IsFramework || isToolchainIncludeDir(E.Path, HS.ResourceDir))
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
  for (const auto &[Macro, IsUndef] : PP.getPreprocessorOpts().Macros)
    Flags.push_back((IsUndef ? "-U" : "-D") + Macro);
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
  O.Arch = Arch.empty() ? "sm_90" : Arch.str();
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
  std::optional<std::string> SM = nvccArchName(Arch.empty() ? "sm_90" : Arch);
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
  std::optional<unsigned> MaxReg = MaxRegisterCount;
  if (Flags.MaxRegisterCount)
    MaxReg = MaxReg ? std::min(*MaxReg, *Flags.MaxRegisterCount) : *Flags.MaxRegisterCount;
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

/// "N" at the start of Text, as an integer.
std::optional<std::uint64_t> leadingNumber(llvm::StringRef Text) {
  Text = Text.ltrim();
  llvm::StringRef Digits = Text.take_while(llvm::isDigit);
  std::uint64_t N = 0;
  if (Digits.empty() || Digits.getAsInteger(10, N))
    return std::nullopt;
  return N;
}

/// The text after Marker up to the next quote: "'X'" -> X.
std::optional<llvm::StringRef> quotedAfter(llvm::StringRef Line, llvm::StringRef Marker) {
  size_t At = Line.find(Marker);
  if (At == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Rest = Line.drop_front(At + Marker.size());
  size_t End = Rest.find('\'');
  if (End == llvm::StringRef::npos)
    return std::nullopt;
  return Rest.take_front(End);
}

} // namespace

std::map<std::string, FunctionRegisters> parsePtxasOutput(llvm::StringRef Text) {
  std::map<std::string, FunctionRegisters> Result;
  std::map<std::string, FunctionRegisters> Properties; // stack/spills by name
  std::string Current, PropertiesOf;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.rtrim("\r");
    if (auto Name = quotedAfter(Line, "Compiling entry function '")) {
      Current = Name->str();
      FunctionRegisters &F = Result[Current];
      F.Source = RegisterSource::Ptxas;
      if (auto Arch = quotedAfter(Line, "' for '"))
        F.Arch = Arch->str();
      PropertiesOf.clear();
      continue;
    }
    size_t Props = Line.find("Function properties for ");
    if (Props != llvm::StringRef::npos) {
      PropertiesOf = Line.drop_front(Props + 24).trim().str();
      continue;
    }
    if (Line.contains("bytes stack frame")) {
      if (PropertiesOf.empty())
        continue;
      FunctionRegisters &P = Properties[PropertiesOf];
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      Line.split(Parts, ',');
      for (llvm::StringRef Part : Parts) {
        // "ptxas         .     0 bytes stack frame" in older releases.
        size_t Digit = Part.find_first_of("0123456789");
        if (Digit == llvm::StringRef::npos)
          continue;
        auto N = leadingNumber(Part.drop_front(Digit));
        if (!N)
          continue;
        if (Part.contains("stack frame"))
          P.StackFrameBytes = *N;
        else if (Part.contains("spill stores"))
          P.SpillStoreBytes = *N;
        else if (Part.contains("spill loads"))
          P.SpillLoadBytes = *N;
      }
      PropertiesOf.clear();
      continue;
    }
    size_t Used = Line.find("Used ");
    if (Used != llvm::StringRef::npos && Line.contains(" registers") && !Current.empty()) {
      FunctionRegisters &F = Result[Current];
      llvm::SmallVector<llvm::StringRef, 8> Parts;
      Line.drop_front(Used).split(Parts, ',');
      for (llvm::StringRef Part : Parts) {
        Part = Part.trim();
        if (Part.consume_front("Used ")) {
          if (auto N = leadingNumber(Part); N && Part.contains("register"))
            F.Registers = static_cast<unsigned>(*N);
        } else if (Part.consume_front("used ")) {
          if (auto N = leadingNumber(Part); N && Part.contains("barrier"))
            F.Barriers = static_cast<unsigned>(*N);
        } else if (Part.ends_with("bytes smem")) {
          if (auto N = leadingNumber(Part))
            F.SharedBytes = *N;
        }
      }
      if (!F.SharedBytes)
        F.SharedBytes = 0; // ptxas omits "0 bytes smem"
      Current.clear();
    }
  }
  for (auto &[Name, F] : Result) {
    auto P = Properties.find(Name);
    if (P != Properties.end()) {
      F.StackFrameBytes = P->second.StackFrameBytes;
      F.SpillStoreBytes = P->second.SpillStoreBytes;
      F.SpillLoadBytes = P->second.SpillLoadBytes;
    }
  }
  return Result;
}

//===----------------------------------------------------------------------===//
// The disk cache
//===----------------------------------------------------------------------===//

std::string registerCacheDirectory(const RegisterOptions &Options) {
  if (Options.CacheDir == "none")
    return "";
  llvm::SmallString<256> Dir;
  if (!Options.CacheDir.empty()) {
    Dir = Options.CacheDir;
  } else if (auto X = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"); X && !X->empty() &&
                                                                      llvm::sys::path::is_absolute(*X)) {
    Dir = *X;
    llvm::sys::path::append(Dir, "warpcheck");
  } else if (auto H = llvm::sys::Process::GetEnv("HOME"); H && !H->empty()) {
    Dir = *H;
    llvm::sys::path::append(Dir, ".cache", "warpcheck");
  } else {
    return "";
  }
  llvm::sys::path::append(Dir, "ptxas");
  if (llvm::sys::fs::create_directories(Dir))
    return "";
  // Unwritable: no cache.
  if (llvm::sys::fs::access(Dir, llvm::sys::fs::AccessMode::Write))
    return "";
  return std::string(Dir.str());
}

namespace {

constexpr llvm::StringLiteral CacheHeader = "warpcheck-ptxas-cache 1";

std::string hexDigest(llvm::SHA256 &Hash) {
  auto Digest = Hash.final();
  return llvm::toHex(llvm::ArrayRef<uint8_t>(Digest.data(), Digest.size()),
                     /*LowerCase=*/true);
}

void hashFileIdentity(llvm::SHA256 &Hash, const llvm::Twine &Path) {
  llvm::sys::fs::file_status S;
  std::string P = Path.str();
  Hash.update(P);
  if (!llvm::sys::fs::status(P, S)) {
    Hash.update(std::to_string(S.getSize()));
    Hash.update(std::to_string(S.getLastModificationTime().time_since_epoch().count()));
  }
  Hash.update(llvm::StringRef("\0", 1));
}

std::optional<TranslationUnitRegisters> readCache(llvm::StringRef File) {
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, false);
  if (Lines.size() < 2 || Lines[0] != CacheHeader)
    return std::nullopt;
  TranslationUnitRegisters R;
  R.Source = RegisterSource::Ptxas;
  R.FromCache = true;
  if (Lines[1].starts_with("error\t")) {
    R.FallbackReason = Lines[1].drop_front(6).str();
    return R;
  }
  if (Lines[1] != "ok")
    return std::nullopt;
  for (size_t I = 2; I < Lines.size(); ++I) {
    llvm::SmallVector<llvm::StringRef, 8> Cells;
    Lines[I].split(Cells, '\t');
    if (Cells.size() != 8)
      return std::nullopt;
    FunctionRegisters F;
    F.Source = RegisterSource::Ptxas;
    F.Arch = Cells[1].str();
    std::uint64_t N = 0;
    if (Cells[2].getAsInteger(10, N))
      return std::nullopt;
    F.Registers = static_cast<unsigned>(N);
    if (Cells[3] != "-" && !Cells[3].getAsInteger(10, N))
      F.SharedBytes = N;
    if (Cells[4].getAsInteger(10, F.StackFrameBytes) ||
        Cells[5].getAsInteger(10, F.SpillStoreBytes) ||
        Cells[6].getAsInteger(10, F.SpillLoadBytes))
      return std::nullopt;
    if (Cells[7] != "-" && !Cells[7].getAsInteger(10, N))
      F.Barriers = static_cast<unsigned>(N);
    R.ByMangledName[Cells[0].str()] = F;
  }
  return R;
}

void writeCache(llvm::StringRef File, const TranslationUnitRegisters &R) {
  std::string Text = CacheHeader.str() + "\n";
  if (!R.FallbackReason.empty()) {
    std::string Reason = R.FallbackReason;
    std::replace(Reason.begin(), Reason.end(), '\n', ' ');
    std::replace(Reason.begin(), Reason.end(), '\t', ' ');
    Text += "error\t" + Reason + "\n";
  } else {
    Text += "ok\n";
    for (const auto &[Name, F] : R.ByMangledName) {
      if (Name.find_first_of("\t\n") != std::string::npos)
        return;
      Text += Name + "\t" + F.Arch + "\t" + std::to_string(F.Registers) + "\t" +
              (F.SharedBytes ? std::to_string(*F.SharedBytes) : "-") + "\t" +
              std::to_string(F.StackFrameBytes) + "\t" + std::to_string(F.SpillStoreBytes) +
              "\t" + std::to_string(F.SpillLoadBytes) + "\t" +
              (F.Barriers ? std::to_string(*F.Barriers) : "-") + "\n";
    }
  }
  // Write to a private file, then rename: readers never see half a file.
  llvm::SmallString<256> Temp;
  int FD = -1;
  if (llvm::sys::fs::createUniqueFile(File + ".tmp-%%%%%%%%", FD, Temp))
    return;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    if (OS.has_error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      return;
    }
  }
  if (llvm::sys::fs::rename(Temp, File))
    llvm::sys::fs::remove(Temp);
}

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
  std::optional<std::string> SM = nvccArchName(Options.Arch.empty() ? "sm_90" : Options.Arch);
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

  // The cache key: the toolkit, the arguments, the source and ExtraKey.
  auto Content = llvm::MemoryBuffer::getFile(Source);
  if (!Content)
    return Fail("the source file '" + std::string(Source.str()) + "' cannot be read");
  llvm::SHA256 Hash;
  Hash.update(CacheHeader);
  Hash.update(*Root);
  hashFileIdentity(Hash, *Root + "/bin/nvcc");
  hashFileIdentity(Hash, *Root + "/bin/ptxas");
  hashFileIdentity(Hash, *Root + "/nvvm/bin/cicc");
  Hash.update(*SM);
  Hash.update(std::to_string(Options.MaxRegisterCount.value_or(0)));
  for (const std::string &F : Flags.Kept) {
    Hash.update(F);
    Hash.update(llvm::StringRef("\0", 1));
  }
  Hash.update(std::to_string(Flags.MaxRegisterCount.value_or(0)));
  Hash.update(Source.str());
  Hash.update((*Content)->getBuffer());
  Hash.update(ExtraKey);
  std::string Key = hexDigest(Hash);
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

//===----------------------------------------------------------------------===//
// The estimate: clang CodeGen -> LLVM -O3 for NVPTX -> live 32-bit values
//===----------------------------------------------------------------------===//

namespace {
/// Pressure charged for a call to a function without a body (vprintf,
/// malloc, a libdevice function when no toolkit is there to link).
constexpr unsigned ExternalCallPressure = 16;
/// How far above its position a load is assumed to be issued: ptxas
/// batches the loads of an unrolled loop body at its top.
constexpr unsigned HoistWindow = 64;
/// How many 32-bit integer atomics on a warp-uniform address ptxas
/// prepares ahead (one alone takes 8 registers on sm_90, each further
/// distinct one about 2 more, saturating at 24 to 26).
constexpr unsigned UniformAtomicWindow = 8;
/// How many instructions the registers a memory instruction reads last
/// stay unavailable: loads, stores and atomics (LDG, STG, LDS, STS, ATOM,
/// RED) read their register operands after issue, behind a read barrier,
/// so ptxas gives the values that follow fresh registers rather than wait
/// (the SASS of the shuffle test kernel: each loaded and stored value in a
/// new register, R7, R9, R11, R15, R17, R23). 32 fitted best of 8 to 64.
constexpr unsigned MemoryOperandHold = 32;
/// Registers ptxas's 64-bit division subroutine uses beyond its operands:
/// R0 to R17 in the SASS of the sm_90 subroutine, four of them the
/// dividend and divisor pairs.
constexpr unsigned Int64DivisionPressure = 14;
} // namespace

// The calibrated formula (slopes, rounding, tiers) is pure arithmetic on the
// two counts: model/RegisterEstimate.cpp.
unsigned estimateRegisterCount(const LiveValueMeasures &Live, std::optional<unsigned> MaxThreads) {
  return model::estimateRegisterCount(Live.InOrder, Live.Scheduled, MaxThreads);
}

bool isShortLibdeviceFunction(llvm::StringRef Name) {
  // Checked against libdevice.10.bc of CUDA 13.0: every function these
  // patterns name has at most 13 IR instructions, most of them the two
  // arms of an __nvvm_reflect("__CUDA_FTZ") test around one NVVM intrinsic,
  // the rest a compare and a select (isnanf, fdimf); one to three PTX
  // instructions once reflected (RegisterUsageTest's
  // LibdeviceWithToolkit.ShortFunctionsAreShort re-checks it when a
  // toolkit is there).
  static const llvm::Regex Patterns[] = {
      // popc, clz, ffs, brev, byte_perm, mulhi, mul24, sad, hadd, min, max, abs
      llvm::Regex("^__nv_(u|ll|ull)?(popc|clz|ffs|brev|byte_perm|mulhi|mul64hi|mul24|sad|"
                  "hadd|rhadd|min|max|abs)(ll)?$"),
      // reinterpretations: float_as_int, longlong_as_double, ...
      llvm::Regex("^__nv_(float|double|int|uint|longlong)_as_(float|double|int|uint|longlong)$"),
      // conversions: float2int_rn, int2float_rz, double2hiint, half2float, ...
      llvm::Regex("^__nv_(float|double|half|int|uint|ll|ull|hiloint)2"
                  "(float|double|half|int|uint|ll|ull|hiint|loint)(_r[nduz])?$"),
      llvm::Regex("^__nv_(fmin|fmax|fabs|copysign|floor|ceil|trunc|rint|nearbyint|saturate)f?$"),
      llvm::Regex("^__nv_(llrint|round|llround|signbitd|signbitf|isnand|isinfd|isfinited|"
                  "isnanf|isinff|finitef|fdim|fdimf)$"),
      // fma and the correctly rounded add, sub and mul (not div or sqrt,
      // which ptxas expands into a subroutine)
      llvm::Regex("^__nv_fmaf?(_ieee)?(_r[nduz])?$"),
      llvm::Regex("^__nv_[fd](add|sub|mul)_r[nduz]$"),
      // the __fast intrinsics that are one approximate instruction
      llvm::Regex("^__nv_fast_(expf|exp10f|logf|log2f|log10f|sinf|cosf|fdividef)$"),
  };
  return llvm::any_of(Patterns, [&](const llvm::Regex &R) { return R.match(Name); });
}

namespace {

/// A call ptxas never sees as one: an intrinsic, or (when no libdevice
/// could be linked) a libdevice function of one to three instructions once
/// linked and inlined, as nvcc links it.
bool isInlineInstruction(const llvm::Function *Callee) {
  return Callee && (Callee->isIntrinsic() ||
                    (Callee->isDeclaration() && isShortLibdeviceFunction(Callee->getName())));
}

/// How many 32-bit registers a value of type T occupies; predicates (i1)
/// live in a file of their own and count 0.
unsigned typeWeight(llvm::Type *T, const llvm::DataLayout &DL) {
  if (!T || T->isVoidTy() || T->isLabelTy() || T->isMetadataTy() || T->isTokenTy())
    return 0;
  if (T->isIntegerTy(1))
    return 0;
  if (auto *P = llvm::dyn_cast<llvm::PointerType>(T)) {
    unsigned AS = P->getAddressSpace();
    if (AS == 3 || AS == 5) // shared and local addresses are 32-bit in SASS
      return 1;
    return DL.getPointerSizeInBits(AS) > 32 ? 2 : 1;
  }
  if (auto *V = llvm::dyn_cast<llvm::FixedVectorType>(T)) {
    if (V->getElementType()->isIntegerTy(1))
      return 0;
    std::uint64_t Bits = DL.getTypeSizeInBits(V).getFixedValue();
    return static_cast<unsigned>((Bits + 31) / 32);
  }
  if (auto *S = llvm::dyn_cast<llvm::StructType>(T)) {
    unsigned W = 0;
    for (llvm::Type *E : S->elements())
      W += typeWeight(E, DL);
    return W;
  }
  if (auto *A = llvm::dyn_cast<llvm::ArrayType>(T))
    return static_cast<unsigned>(A->getNumElements()) * typeWeight(A->getElementType(), DL);
  if (T->isSized()) {
    std::uint64_t Bits = DL.getTypeSizeInBits(T).getFixedValue();
    return static_cast<unsigned>(std::max<std::uint64_t>(1, (Bits + 31) / 32));
  }
  return 1;
}

/// The PTX text of an inline assembly call, without leading blanks; empty
/// for anything else.
llvm::StringRef inlinePtx(const llvm::Value *V) {
  const auto *Call = llvm::dyn_cast<llvm::CallInst>(V);
  if (!Call || !Call->isInlineAsm())
    return {};
  return llvm::StringRef(llvm::cast<llvm::InlineAsm>(Call->getCalledOperand())->getAsmString())
      .ltrim();
}

/// PTX instructions that read memory into registers: loads and texture
/// fetches (a fetch names a texture, not an address).
constexpr llvm::StringLiteral PtxLoadOpcodes[] = {"ld.", "ldu.", "tex.", "tld4."};
/// PTX instructions with an address operand "[$n]" that ptxas turns into a
/// [reg + imm] operand of the SASS memory instruction.
constexpr llvm::StringLiteral PtxAddressedOpcodes[] = {"ld.", "ldu.", "st.", "cp.async."};

bool startsWithAny(llvm::StringRef Text, llvm::ArrayRef<llvm::StringLiteral> Prefixes) {
  return llvm::any_of(Prefixes, [&](llvm::StringRef P) { return Text.starts_with(P); });
}

/// Inline PTX that only reads memory and returns the value (CUB's
/// ThreadLoad "ld.global.nc.u32 $0, [$1];", the texture headers'
/// "tex.2d.v4.f32.f32"): ptxas schedules it as the load it is.
bool isInlineAsmLoad(const llvm::Instruction &I) {
  return !I.getType()->isVoidTy() && startsWithAny(inlinePtx(&I), PtxLoadOpcodes);
}

/// The address a load, store or atomic accesses; null for anything else.
const llvm::Value *accessedAddress(const llvm::Instruction &I) {
  if (const auto *L = llvm::dyn_cast<llvm::LoadInst>(&I))
    return L->getPointerOperand();
  if (const auto *S = llvm::dyn_cast<llvm::StoreInst>(&I))
    return S->getPointerOperand();
  if (const auto *A = llvm::dyn_cast<llvm::AtomicRMWInst>(&I))
    return A->getPointerOperand();
  if (const auto *X = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&I))
    return X->getPointerOperand();
  return nullptr;
}

bool isMemoryFence(const llvm::Instruction &I) {
  if (isInlineAsmLoad(I))
    return false;
  if (llvm::isa<llvm::StoreInst, llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst, llvm::FenceInst>(I))
    return true;
  if (const auto *II = llvm::dyn_cast<llvm::IntrinsicInst>(&I))
    return II->mayWriteToMemory() || II->getIntrinsicID() == llvm::Intrinsic::nvvm_barrier0 ||
           II->getIntrinsicID() == llvm::Intrinsic::nvvm_barrier_sync;
  if (const auto *Call = llvm::dyn_cast<llvm::CallBase>(&I))
    return Call->isInlineAsm() || !isInlineInstruction(Call->getCalledFunction());
  return false;
}

/// Register pressure of optimized NVPTX IR: the largest total weight of
/// values live at one point. Address arithmetic ptxas folds into
/// [reg + imm] operands (GEPs and index arithmetic only used for
/// addressing, casts, aggregate plumbing) is charged to its inputs.
///
/// In-order: the IR's instruction order, every SSA value counted.
/// Scheduled: ptxas's view, roughly: loads and atomics issued up to 64
/// instructions early together with their address arithmetic (not past a
/// store, barrier or call), values uniform
/// across the warp (block indices, kernel parameters and what is computed
/// from them only) held in the uniform register file and not counted,
/// kernel parameters the kernel reads counted from its entry, an address
/// register pair at each access, memcpy'd bytes in flight.
class PressureModel {
public:
  PressureModel(const llvm::DataLayout &DL, bool Scheduled) : DL(DL), Scheduled(Scheduled) {}

  unsigned functionPressure(const llvm::Function &F) {
    auto It = Memo.find(&F);
    if (It != Memo.end())
      return It->second;
    Memo[&F] = 0; // recursion guard
    unsigned P = compute(F);
    Memo[&F] = P;
    return P;
  }

private:
  bool onlyAddresses(const llvm::Instruction *I) {
    for (const llvm::User *U : I->users()) {
      if (llvm::isa<llvm::LoadInst>(U))
        continue;
      if (const auto *S = llvm::dyn_cast<llvm::StoreInst>(U)) {
        if (S->getValueOperand() == I)
          return false;
        continue;
      }
      if (llvm::isa<llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst>(U))
        continue;
      if (Scheduled && llvm::isa<llvm::MemTransferInst, llvm::MemSetInst>(U))
        continue;
      if (isInlineAsmMemoryOperand(U, I))
        continue;
      if (llvm::isa<llvm::GetElementPtrInst, llvm::BitCastInst, llvm::AddrSpaceCastInst>(U) &&
          isFolded(U))
        continue;
      return false;
    }
    return !I->user_empty();
  }

  /// V is the address operand of inline PTX that loads or stores through
  /// it ("ld.global.nc.u32 $0, [$1];", as CUB's ThreadLoad writes): the
  /// address becomes a [reg + imm] operand as for a load instruction.
  static bool isInlineAsmMemoryOperand(const llvm::User *U, const llvm::Value *V) {
    return V->getType()->isPointerTy() && startsWithAny(inlinePtx(U), PtxAddressedOpcodes);
  }

  /// A 64-bit integer division or remainder by a value that is not a
  /// constant: ptxas calls a division subroutine of its own for it (SASS
  /// CALL.REL.NOINC, seen for `long long q = a / d` on sm_90).
  static bool isInt64Division(const llvm::Instruction &I) {
    switch (I.getOpcode()) {
    case llvm::Instruction::SDiv:
    case llvm::Instruction::UDiv:
    case llvm::Instruction::SRem:
    case llvm::Instruction::URem:
      return I.getType()->isIntegerTy(64) && !llvm::isa<llvm::Constant>(I.getOperand(1));
    default:
      return false;
    }
  }

  bool isFolded(const llvm::Value *V) {
    auto Cached = Folded.find(V);
    if (Cached != Folded.end())
      return Cached->second;
    Folded[V] = false; // cycle guard
    bool R = false;
    if (const auto *I = llvm::dyn_cast<llvm::Instruction>(V)) {
      if (llvm::isa<llvm::BitCastInst, llvm::AddrSpaceCastInst, llvm::FreezeInst,
                    llvm::TruncInst>(I)) {
        R = true;
      } else if (Scheduled && llvm::isa<llvm::InsertValueInst, llvm::ExtractValueInst>(I)) {
        R = true;
      } else if (I->getOpcode() == llvm::Instruction::LShr && I->getType()->isIntegerTy(64) &&
                 llvm::isa<llvm::ConstantInt>(I->getOperand(1)) &&
                 llvm::cast<llvm::ConstantInt>(I->getOperand(1))->getZExtValue() == 32 &&
                 !I->user_empty() && llvm::all_of(I->users(), [](const llvm::User *U) {
                   return llvm::isa<llvm::TruncInst>(U) &&
                          U->getType()->getScalarSizeInBits() <= 32;
                 })) {
        // The upper half of a 64-bit register pair: ptxas reads the odd
        // register of the pair, no instruction and no register of its own.
        R = true;
      } else if (llvm::isa<llvm::PtrToIntInst, llvm::IntToPtrInst>(I)) {
        R = typeWeight(I->getType(), DL) == typeWeight(I->getOperand(0)->getType(), DL);
        // A shared or local address widened to 64 bits: the upper half is
        // zero (SASS reads RZ for it), the address stays one register.
        if (const auto *P2I = llvm::dyn_cast<llvm::PtrToIntInst>(I))
          R |= P2I->getPointerAddressSpace() == 3 || P2I->getPointerAddressSpace() == 5;
      } else if (llvm::isa<llvm::GetElementPtrInst>(I)) {
        R = onlyAddresses(I);
      } else if ((I->getOpcode() == llvm::Instruction::Add ||
                  I->getOpcode() == llvm::Instruction::Shl ||
                  I->getOpcode() == llvm::Instruction::Mul ||
                  I->getOpcode() == llvm::Instruction::Or) &&
                 llvm::isa<llvm::Constant>(I->getOperand(1))) {
        R = !I->user_empty() && llvm::all_of(I->users(), [&](const llvm::User *U) {
          return llvm::isa<llvm::GetElementPtrInst, llvm::ZExtInst, llvm::SExtInst>(U) &&
                 isFolded(U);
        });
      } else if (llvm::isa<llvm::ZExtInst, llvm::SExtInst>(I)) {
        R = !I->user_empty() && llvm::all_of(I->users(), [](const llvm::User *U) {
          return llvm::isa<llvm::GetElementPtrInst>(U);
        });
      }
    }
    Folded[V] = R;
    return R;
  }

  /// Uniform across the warp: computed from block indices, dimensions,
  /// kernel parameters and constants only.
  bool isUniform(const llvm::Value *V, unsigned Depth = 0) {
    if (llvm::isa<llvm::Constant, llvm::Argument>(V))
      return true;
    const auto *I = llvm::dyn_cast<llvm::Instruction>(V);
    if (!I)
      return true;
    auto Cached = Uniform.find(V);
    if (Cached != Uniform.end())
      return Cached->second;
    if (Depth > 64)
      return false;
    Uniform[V] = false;
    bool R = false;
    if (const auto *II = llvm::dyn_cast<llvm::IntrinsicInst>(I)) {
      switch (II->getIntrinsicID()) {
      case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
      case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
      case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
      case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x:
      case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y:
      case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z:
      case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
      case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
      case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
        R = true;
        break;
      default:
        break;
      }
    } else if (const auto *L = llvm::dyn_cast<llvm::LoadInst>(I)) {
      R = L->getPointerAddressSpace() == 4 && isUniform(L->getPointerOperand(), Depth + 1);
    } else if (llvm::isa<llvm::BinaryOperator, llvm::CastInst, llvm::CmpInst, llvm::SelectInst,
                         llvm::GetElementPtrInst>(I)) {
      R = llvm::all_of(I->operands(),
                       [&](const llvm::Value *Op) { return isUniform(Op, Depth + 1); });
    } else if (const auto *Phi = llvm::dyn_cast<llvm::PHINode>(I)) {
      Uniform[V] = true; // optimistic for loop-carried values
      R = llvm::all_of(Phi->incoming_values(),
                       [&](const llvm::Value *Op) { return isUniform(Op, Depth + 1); });
    }
    Uniform[V] = R;
    return R;
  }

  /// A 32-bit integer atomic read-modify-write of a warp-uniform global
  /// (or generic) address: atomicrmw, cmpxchg or an NVVM atomic intrinsic.
  /// (Floating-point and 64-bit ones cost ptxas no such registers.)
  bool isUniformAtomic(const llvm::Instruction &I) {
    llvm::Type *T = I.getType();
    if (const auto *S = llvm::dyn_cast<llvm::StructType>(T)) // cmpxchg's {value, flag}
      T = S->getNumElements() ? S->getElementType(0) : nullptr;
    if (!T || !T->isIntegerTy(32))
      return false;
    if (const auto *A = llvm::dyn_cast<llvm::AtomicRMWInst>(&I))
      if (A->isFloatingPointOperation())
        return false;
    const llvm::Value *Ptr = llvm::isa<llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst>(I)
                                 ? accessedAddress(I)
                                 : nullptr;
    if (const auto *II = llvm::dyn_cast<llvm::IntrinsicInst>(&I))
      if (II->getCalledFunction() &&
          II->getCalledFunction()->getName().starts_with("llvm.nvvm.atomic") &&
          II->arg_size() > 0)
        Ptr = II->getArgOperand(0);
    if (!Ptr || !Ptr->getType()->isPointerTy())
      return false;
    unsigned AS = Ptr->getType()->getPointerAddressSpace();
    return (AS == 0 || AS == 1) && isUniform(Ptr);
  }

  /// Registers a value occupies: its type's, except for an aggregate
  /// (inline PTX's results, a texture fetch's four channels) read only
  /// through extractvalue, where ptxas allocates only the fields read
  /// (a TEX whose .y, .z and .w are unused writes one register).
  unsigned valueWeight(const llvm::Instruction &I) {
    auto *S = llvm::dyn_cast<llvm::StructType>(I.getType());
    if (!S || I.user_empty() || !llvm::all_of(I.users(), [](const llvm::User *U) {
          return llvm::isa<llvm::ExtractValueInst>(U) &&
                 llvm::cast<llvm::ExtractValueInst>(U)->getNumIndices() >= 1;
        }))
      return typeWeight(I.getType(), DL);
    llvm::SmallBitVector Read(S->getNumElements());
    for (const llvm::User *U : I.users())
      Read.set(llvm::cast<llvm::ExtractValueInst>(U)->getIndices()[0]);
    unsigned W = 0;
    for (unsigned E : Read.set_bits())
      W += typeWeight(S->getElementType(E), DL);
    return W;
  }

  /// The register-holding values an operand stands for.
  void collect(const llvm::Value *Op, llvm::SmallVectorImpl<unsigned> &Out, unsigned Depth = 0) {
    if (Scheduled)
      if (const auto *A = llvm::dyn_cast<llvm::Argument>(Op)) {
        auto It = Index.find(A);
        if (It != Index.end())
          Out.push_back(It->second);
        return;
      }
    const auto *I = llvm::dyn_cast<llvm::Instruction>(Op);
    if (!I || Depth > 16)
      return; // constants are immediates; in order, parameters come from the constant bank
    if (isFolded(I)) {
      for (const llvm::Value *Inner : I->operands())
        collect(Inner, Out, Depth + 1);
      return;
    }
    auto It = Index.find(I);
    if (It != Index.end())
      Out.push_back(It->second);
  }

  /// Integer arithmetic that computes addresses: ptxas hoists it together
  /// with the load it feeds (the offsets become immediates of [reg + imm]
  /// operands sharing one base register), so a load's issue point is not
  /// held back by its own index computation.
  static bool isAddressArithmetic(const llvm::Instruction *J) {
    switch (J->getOpcode()) {
    case llvm::Instruction::Add:
    case llvm::Instruction::Sub:
    case llvm::Instruction::Shl:
    case llvm::Instruction::Or:
    case llvm::Instruction::Mul:
    case llvm::Instruction::ZExt:
    case llvm::Instruction::SExt:
    case llvm::Instruction::GetElementPtr:
      return true;
    default:
      return false;
    }
  }

  /// For the scheduled measure: the instruction after which each load (and
  /// atomic) of BB is assumed to issue; null for the block's start.
  llvm::DenseMap<const llvm::Instruction *, const llvm::Instruction *>
  issuePoints(const llvm::BasicBlock &BB) {
    llvm::DenseMap<const llvm::Instruction *, const llvm::Instruction *> Result;
    llvm::DenseMap<const llvm::Instruction *, unsigned> Pos;
    std::vector<const llvm::Instruction *> Order;
    for (const llvm::Instruction &I : BB) {
      Pos[&I] = static_cast<unsigned>(Order.size());
      Order.push_back(&I);
    }
    const llvm::Instruction *Fence = nullptr;
    for (const llvm::Instruction &I : BB) {
      // Loads and atomics (not stores) are issued early; inline PTX loads
      // have no pointer operand of their own.
      const bool Issued = (accessedAddress(I) && !llvm::isa<llvm::StoreInst>(I)) ||
                          isInlineAsmLoad(I);
      if (Issued) {
        const llvm::Instruction *At = Fence;
        llvm::SmallVector<const llvm::Value *, 8> Work;
        for (const llvm::Value *Op : I.operands())
          Work.push_back(Op);
        unsigned Steps = 0;
        while (!Work.empty() && Steps++ < 256) {
          const auto *J = llvm::dyn_cast<llvm::Instruction>(Work.pop_back_val());
          if (!J || J->getParent() != &BB)
            continue;
          if (isFolded(J) || isAddressArithmetic(J)) {
            for (const llvm::Value *X : J->operands())
              Work.push_back(X);
            continue;
          }
          if (!At || Pos[J] > Pos[At])
            At = J;
        }
        unsigned P = Pos[&I];
        if (P > HoistWindow) {
          unsigned Limit = P - HoistWindow;
          if (!At || Pos[At] < Limit)
            At = Order[Limit];
        }
        Result[&I] = At;
      }
      if (isMemoryFence(I))
        Fence = &I;
    }
    return Result;
  }

  unsigned compute(const llvm::Function &F) {
    if (F.isDeclaration())
      return ExternalCallPressure;
    Index.clear();
    Weights.clear();
    Folded.clear();
    Uniform.clear();
    if (Scheduled)
      for (const llvm::Argument &A : F.args()) {
        // A parameter passed by value as a struct (CUB's and Thrust's
        // iterators, arrays and policies) reaches the IR as the address of
        // its copy in the parameter bank: SASS reads its fields straight
        // from the constant bank (LDC/ULDC c[0x0][...] next to the use),
        // so the address holds no register; the loads from it count.
        if (A.hasByValAttr())
          continue;
        if (unsigned W = typeWeight(A.getType(), DL)) {
          Index[&A] = static_cast<unsigned>(Weights.size());
          Weights.push_back(W);
        }
      }
    for (const llvm::BasicBlock &BB : F)
      for (const llvm::Instruction &I : BB) {
        if (llvm::isa<llvm::AllocaInst>(I) || isFolded(&I))
          continue;
        if (Scheduled && isUniform(&I))
          continue;
        unsigned W = valueWeight(I);
        if (W == 0)
          continue;
        Index[&I] = static_cast<unsigned>(Weights.size());
        Weights.push_back(W);
      }
    const unsigned N = static_cast<unsigned>(Weights.size());

    // Upward-exposed uses, definitions and phi uses per block.
    llvm::DenseMap<const llvm::BasicBlock *, unsigned> BlockIndex;
    std::vector<const llvm::BasicBlock *> Blocks;
    for (const llvm::BasicBlock &BB : F) {
      BlockIndex[&BB] = static_cast<unsigned>(Blocks.size());
      Blocks.push_back(&BB);
    }
    const size_t B = Blocks.size();
    std::vector<llvm::BitVector> Uses(B, llvm::BitVector(N)), Defs(B, llvm::BitVector(N)),
        PhiOut(B, llvm::BitVector(N)), LiveIn(B, llvm::BitVector(N)),
        LiveOut(B, llvm::BitVector(N));
    llvm::SmallVector<unsigned, 8> Ops;
    for (size_t K = 0; K < B; ++K) {
      const llvm::BasicBlock *BB = Blocks[K];
      for (const llvm::Instruction &I : *BB) {
        if (!llvm::isa<llvm::PHINode>(I)) {
          Ops.clear();
          for (const llvm::Value *Op : I.operands())
            collect(Op, Ops);
          for (unsigned O : Ops)
            if (!Defs[K].test(O))
              Uses[K].set(O);
        }
        auto It = Index.find(&I);
        if (It != Index.end())
          Defs[K].set(It->second);
      }
      for (const llvm::BasicBlock *S : llvm::successors(BB))
        for (const llvm::PHINode &Phi : S->phis()) {
          Ops.clear();
          collect(Phi.getIncomingValueForBlock(BB), Ops);
          for (unsigned O : Ops)
            PhiOut[K].set(O);
        }
    }
    if (Scheduled && B > 0)
      for (const llvm::Argument &A : F.args()) {
        auto It = Index.find(&A);
        if (It != Index.end())
          Defs[0].set(It->second);
      }
    // Backward data flow to a fixed point.
    bool Changed = true;
    unsigned Rounds = 0;
    while (Changed && Rounds++ < 1000) {
      Changed = false;
      for (size_t K = B; K-- > 0;) {
        llvm::BitVector Out = PhiOut[K];
        for (const llvm::BasicBlock *S : llvm::successors(Blocks[K]))
          Out |= LiveIn[BlockIndex[S]];
        llvm::BitVector In = Out;
        In.reset(Defs[K]);
        In |= Uses[K];
        if (Out != LiveOut[K] || In != LiveIn[K]) {
          LiveOut[K] = std::move(Out);
          LiveIn[K] = std::move(In);
          Changed = true;
        }
      }
    }

    // The largest weight live at one point.
    unsigned Max = 0;
    for (size_t K = 0; K < B; ++K) {
      const llvm::BasicBlock *BB = Blocks[K];
      llvm::DenseMap<const llvm::Instruction *, const llvm::Instruction *> Issue;
      if (Scheduled)
        Issue = issuePoints(*BB);
      // 32-bit integer atomics on a warp-uniform global address: ptxas
      // prepares them ahead of the sequence, about a register pair for each
      // of the last UniformAtomicWindow, held until it issues.
      llvm::DenseMap<const llvm::Instruction *, unsigned> AtomicPairs;
      if (Scheduled) {
        std::vector<const llvm::Instruction *> Order;
        std::vector<unsigned> Atomics;
        for (const llvm::Instruction &I : *BB) {
          if (isUniformAtomic(I))
            Atomics.push_back(static_cast<unsigned>(Order.size()));
          Order.push_back(&I);
        }
        if (Atomics.size() > 1) {
          std::vector<unsigned> Count(Order.size() + 1, 0);
          for (size_t A = 0; A < Atomics.size(); ++A) {
            unsigned From = A >= UniformAtomicWindow ? Atomics[A - UniformAtomicWindow] : 0;
            for (unsigned P = From; P < Atomics[A]; ++P)
              ++Count[P];
          }
          for (size_t P = 0; P < Order.size(); ++P)
            if (Count[P])
              AtomicPairs[Order[P]] = 2 * Count[P];
        }
      }
      // Scheduled values whose issue point lies above: they stop being live
      // (walking backwards) once that point is passed.
      llvm::DenseMap<const llvm::Instruction *, llvm::SmallVector<unsigned, 2>> EndsAfter;
      llvm::BitVector Live = LiveOut[K];
      unsigned W = 0;
      for (unsigned V : Live.set_bits())
        W += Weights[V];
      Max = std::max(Max, W);
      // Per instruction, walking backwards: the weight live before it, and
      // the registers it frees that a memory instruction reads (see below).
      std::vector<unsigned> LiveBefore, FreedByMemory;
      for (auto It = BB->rbegin(); It != BB->rend(); ++It) {
        const llvm::Instruction &I = *It;
        if (llvm::isa<llvm::PHINode>(I))
          break;
        auto Ends = EndsAfter.find(&I);
        if (Ends != EndsAfter.end())
          for (unsigned D : Ends->second)
            if (Live.test(D)) {
              Live.reset(D);
              W -= Weights[D];
            }
        auto Def = Index.find(&I);
        if (Def != Index.end()) {
          unsigned D = Def->second;
          auto Early = Issue.find(&I);
          if (Early != Issue.end()) {
            if (!Live.test(D)) {
              Live.set(D);
              W += Weights[D];
            }
            if (Early->second)
              EndsAfter[Early->second].push_back(D);
          } else if (Live.test(D)) {
            Live.reset(D);
            W -= Weights[D];
          } else {
            Max = std::max(Max, W + Weights[D]); // a result nobody reads
          }
        }
        if (Scheduled) {
          const llvm::Value *Ptr = accessedAddress(I);
          if (Ptr && llvm::isa<llvm::Instruction>(Ptr) && isFolded(Ptr))
            Max = std::max(Max, W + typeWeight(Ptr->getType(), DL));
          if (const auto *MT = llvm::dyn_cast<llvm::MemTransferInst>(&I))
            if (const auto *Len = llvm::dyn_cast<llvm::ConstantInt>(MT->getLength()))
              Max = std::max<unsigned>(
                  Max, W + static_cast<unsigned>(
                               std::min<std::uint64_t>(64, (Len->getZExtValue() + 3) / 4)) +
                           4);
        }
        if (const auto *Call = llvm::dyn_cast<llvm::CallBase>(&I);
            Call && !Call->isInlineAsm()) {
          const llvm::Function *Callee = Call->getCalledFunction();
          if (!isInlineInstruction(Callee)) {
            // The callee's registers come on top of what lives across the
            // call.
            unsigned CalleePressure =
                Callee && !Callee->isDeclaration()
                    ? PressureModel(DL, Scheduled).functionPressure(*Callee)
                    : ExternalCallPressure;
            Max = std::max(Max, W + CalleePressure);
          }
        }
        Ops.clear();
        for (const llvm::Value *Op : I.operands())
          collect(Op, Ops);
        unsigned Freed = 0;
        const bool IsMemory = accessedAddress(I) || isInlineAsmLoad(I);
        for (unsigned O : Ops)
          if (!Live.test(O)) {
            Live.set(O);
            W += Weights[O];
            if (IsMemory)
              Freed += Weights[O];
          }
        if (Scheduled) {
          LiveBefore.push_back(W);
          FreedByMemory.push_back(Freed);
        }
        Max = std::max(Max, W);
        if (isInt64Division(I))
          Max = std::max(Max, W + Int64DivisionPressure);
        if (!AtomicPairs.empty()) {
          auto Pairs = AtomicPairs.find(&I);
          if (Pairs != AtomicPairs.end())
            Max = std::max(Max, W + Pairs->second);
        }
      }
      // Registers a memory instruction reads last stay unavailable for the
      // next MemoryOperandHold instructions (walked forward): it reads them
      // after it issues.
      const size_t L = LiveBefore.size();
      unsigned Held = 0;
      for (size_t F = 0; F < L; ++F) {
        Max = std::max(Max, LiveBefore[L - 1 - F] + Held);
        Held += FreedByMemory[L - 1 - F];
        if (F >= MemoryOperandHold)
          Held -= FreedByMemory[L - 1 - (F - MemoryOperandHold)];
      }
    }
    return Max;
  }

  const llvm::DataLayout &DL;
  const bool Scheduled;
  llvm::DenseMap<const llvm::Function *, unsigned> Memo;
  llvm::DenseMap<const llvm::Value *, bool> Folded;
  llvm::DenseMap<const llvm::Value *, bool> Uniform;
  llvm::DenseMap<const llvm::Value *, unsigned> Index;
  std::vector<unsigned> Weights;
};

void initializeNVPTX() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
  });
}

/// -O3 for NVPTX, as clang's device compilation runs it.
bool optimizeModule(llvm::Module &M, llvm::StringRef CPU, std::string &Error) {
  initializeNVPTX();
  std::string Triple = M.getTargetTriple();
  if (Triple.empty())
    Triple = "nvptx64-nvidia-cuda";
  const llvm::Target *T = llvm::TargetRegistry::lookupTarget(Triple, Error);
  if (!T)
    return false;
  llvm::TargetOptions TO;
  std::unique_ptr<llvm::TargetMachine> TM(T->createTargetMachine(
      Triple, CPU, "", TO, std::nullopt, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!TM) {
    Error = "no NVPTX target machine";
    return false;
  }
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  llvm::PassBuilder PB(TM.get());
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  llvm::ModulePassManager MPM = PB.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  MPM.run(M, MAM);
  return true;
}

/// Links the toolkit's libdevice (math functions) the way clang's
/// -mlink-builtin-bitcode does, so that they are inlined and counted.
void linkLibdevice(llvm::Module &M, llvm::StringRef ToolkitRoot) {
  if (ToolkitRoot.empty())
    return;
  llvm::SmallString<256> Path(ToolkitRoot);
  llvm::sys::path::append(Path, "nvvm", "libdevice", "libdevice.10.bc");
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return;
  bool NeedsLibdevice = llvm::any_of(M.functions(), [](const llvm::Function &F) {
    return F.isDeclaration() && F.getName().starts_with("__nv_");
  });
  if (!NeedsLibdevice)
    return;
  llvm::Expected<std::unique_ptr<llvm::Module>> Lib =
      llvm::parseBitcodeFile((*Buffer)->getMemBufferRef(), M.getContext());
  if (!Lib) {
    llvm::consumeError(Lib.takeError());
    return;
  }
  (*Lib)->setTargetTriple(M.getTargetTriple());
  (*Lib)->setDataLayout(M.getDataLayout());
  if (llvm::Linker::linkModules(M, std::move(*Lib), llvm::Linker::Flags::LinkOnlyNeeded))
    return;
  for (llvm::Function &F : M)
    if (F.getName().starts_with("__nv_") && !F.isDeclaration())
      F.setLinkage(llvm::GlobalValue::InternalLinkage);
}

std::optional<std::uint64_t> evaluateUnsigned(const Expr *E, ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || !R.Val.isInt() || R.Val.getInt().isNegative())
    return std::nullopt;
  return R.Val.getInt().getZExtValue();
}

/// Every kernel definition of the AST, instantiations included, and every
/// function template instantiation (the code generator needs to be told
/// about them, as Sema does at the end of a translation unit).
struct KernelCollector : RecursiveASTVisitor<KernelCollector> {
  std::vector<const FunctionDecl *> Kernels;
  std::vector<FunctionDecl *> Instantiations;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext() || FD->isInvalidDecl())
      return true;
    if (FD->hasAttr<CUDAGlobalAttr>())
      Kernels.push_back(FD);
    TemplateSpecializationKind K = FD->getTemplateSpecializationKind();
    if (K == TSK_ImplicitInstantiation || K == TSK_ExplicitInstantiationDefinition)
      Instantiations.push_back(FD);
    return true;
  }
};

/// Prints nothing, counts errors (the base class does, and tooling's
/// success is that count) and keeps the first error's text, for the reason
/// an estimate is unavailable.
class FirstErrorConsumer : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error || !Text.empty())
      return;
    llvm::SmallString<128> Message;
    Info.FormatDiagnostic(Message);
    Text = Message.str().str();
  }
  /// ": <first error>", or nothing.
  std::string suffix() const { return Text.empty() ? std::string() : ": " + Text; }

private:
  std::string Text;
};

/// Device-side LLVM IR for every kernel of a device-side AST.
std::unique_ptr<llvm::Module> emitDeviceModule(ASTContext &Ctx, const KernelCollector &Found,
                                               llvm::LLVMContext &LLCtx,
                                               const HeaderSearchOptions &HSOpts,
                                               const PreprocessorOptions &PPOpts,
                                               std::string &Error) {
  FirstErrorConsumer Errors;
  IntrusiveRefCntPtr<DiagnosticIDs> IDs(new DiagnosticIDs());
  IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts(new DiagnosticOptions());
  DiagnosticsEngine Diags(IDs, DiagOpts, &Errors, /*ShouldOwnClient=*/false);
  Diags.setSourceManager(&Ctx.getSourceManager());
  Diags.SetArgToStringFn(&FormatASTNodeDiagnosticArgument, &Ctx); // names in messages
  CodeGenOptions CGO;
  CGO.OptimizationLevel = 3;
  CGO.setInlining(CodeGenOptions::NormalInlining);
  CGO.UnrollLoops = true;
  CGO.DiscardValueNames = true;
  std::unique_ptr<CodeGenerator> Gen(CreateLLVMCodeGen(
      Diags, "warpcheck-register-estimate", llvm::vfs::getRealFileSystem(), HSOpts, PPOpts,
      CGO, LLCtx));
  Gen->Initialize(Ctx);
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!Diags.hasErrorOccurred())
      Gen->HandleTopLevelDecl(DeclGroupRef(D));
  for (FunctionDecl *FD : Found.Instantiations)
    if (!Diags.hasErrorOccurred())
      Gen->HandleTopLevelDecl(DeclGroupRef(FD));
  Gen->HandleTranslationUnit(Ctx);
  if (Diags.hasErrorOccurred()) {
    Error = "clang's code generator could not lower the device code" + Errors.suffix();
    return nullptr;
  }
  std::unique_ptr<llvm::Module> M(Gen->ReleaseModule());
  if (!M)
    Error = "clang's code generator produced no module";
  return M;
}

/// The cap ptxas applies: __launch_bounds__ and -maxrregcount.
unsigned applyCaps(unsigned Registers, const FunctionDecl *Kernel, ASTContext &Ctx,
                   const model::ArchSpec &Arch, std::optional<unsigned> MaxRegisterCount,
                   std::string &CappedBy) {
  std::optional<std::uint64_t> Threads, Blocks;
  if (const auto *LB = Kernel->getAttr<CUDALaunchBoundsAttr>()) {
    Threads = evaluateUnsigned(LB->getMaxThreads(), Ctx);
    Blocks = evaluateUnsigned(LB->getMinBlocks(), Ctx);
  }
  model::CappedRegisters Capped =
      model::capRegisterCount(Registers, Arch, Threads, Blocks, MaxRegisterCount);
  switch (Capped.CappedBy) {
  case model::RegisterCapSource::None:
    CappedBy.clear();
    break;
  case model::RegisterCapSource::LaunchBounds:
    CappedBy = "__launch_bounds__(" + std::to_string(*Threads) +
               (Blocks ? ", " + std::to_string(*Blocks) : std::string()) + ")";
    break;
  case model::RegisterCapSource::MaxRegisterCount:
    CappedBy = "-maxrregcount=" + std::to_string(*MaxRegisterCount);
    break;
  }
  return Capped.Registers;
}

/// The estimate on a device-side AST.
TranslationUnitRegisters estimateOnDeviceAST(ASTContext &Ctx, const RegisterOptions &Options,
                                             const Preprocessor *PP) {
  TranslationUnitRegisters R;
  R.Source = RegisterSource::Estimate;
  R.Arch = Options.Arch.empty() ? "sm_90" : Options.Arch;
  KernelCollector Found;
  Found.TraverseDecl(Ctx.getTranslationUnitDecl());
  if (Found.Kernels.empty())
    return R;
  llvm::LLVMContext LLCtx;
  std::string Error;
  std::unique_ptr<llvm::Module> M = lowerForEstimate(Ctx, LLCtx, Options, PP, Error);
  if (!M) {
    R.FallbackReason = Error;
    return R;
  }
  const model::ArchSpec *Arch = model::findArch(R.Arch);
  if (!Arch)
    Arch = model::findArch("sm_90");
  SanitizedFlags Flags = sanitizeCompileFlags(Options.CompileFlags, Options.WorkingDirectory);
  std::optional<unsigned> MaxReg = Options.MaxRegisterCount;
  if (Flags.MaxRegisterCount)
    MaxReg = MaxReg ? std::min(*MaxReg, *Flags.MaxRegisterCount) : *Flags.MaxRegisterCount;
  PressureModel InOrder(M->getDataLayout(), /*Scheduled=*/false);
  PressureModel Scheduled(M->getDataLayout(), /*Scheduled=*/true);
  for (const FunctionDecl *K : Found.Kernels) {
    std::string Name = deviceMangledName(K, Ctx);
    const llvm::Function *F = M->getFunction(Name);
    if (!F || F->isDeclaration())
      continue;
    FunctionRegisters FR;
    FR.Source = RegisterSource::Estimate;
    FR.Arch = R.Arch;
    LiveValueMeasures Live;
    Live.InOrder = InOrder.functionPressure(*F);
    Live.Scheduled = Scheduled.functionPressure(*F);
    FR.InOrderLiveValues = Live.InOrder;
    FR.ScheduledLiveValues = Live.Scheduled;
    std::optional<unsigned> MaxThreads;
    if (const auto *LB = K->getAttr<CUDALaunchBoundsAttr>())
      if (auto T = evaluateUnsigned(LB->getMaxThreads(), Ctx); T && *T > 0 && *T <= 1024)
        MaxThreads = static_cast<unsigned>(*T);
    FR.UncappedRegisters = estimateRegisterCount(Live, MaxThreads);
    FR.Registers = applyCaps(FR.UncappedRegisters, K, Ctx, *Arch, MaxReg, FR.CappedBy);
    R.ByMangledName[Name] = FR;
  }
  return R;
}

bool isCudaIncludeDir(llvm::StringRef Dir, std::string &Root) {
  if (!fileExists(Dir + "/cuda_runtime.h"))
    return false;
  llvm::SmallString<256> P(Dir);
  for (int Up = 0; Up < 4 && !P.empty(); ++Up) {
    P = llvm::sys::path::parent_path(P);
    if (fileExists(P + "/bin/nvcc") || fileExists(P + "/version.json") ||
        llvm::sys::fs::is_directory(P + "/nvvm")) {
      Root = std::string(P.str());
      return true;
    }
  }
  return false;
}

/// The estimate for a host-side AST: the source is parsed again for the
/// device in-process (no program is started) with the same include paths
/// and macros.
TranslationUnitRegisters estimateByDeviceReparse(ASTContext &Ctx, const RegisterOptions &Options,
                                                 const Preprocessor *PP) {
  TranslationUnitRegisters R;
  R.Source = RegisterSource::Estimate;
  R.Arch = Options.Arch.empty() ? "sm_90" : Options.Arch;
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Source = Options.SourceFile;
  if (Source.empty())
    if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
      Source = Main->getName().str();
  if (Source.empty()) {
    R.FallbackReason = "the main file of the translation unit has no name";
    return R;
  }
  // clang 19 knows GPU architectures up to sm_90a; newer ones are parsed as
  // sm_90 (the device code rarely differs).
  std::string ClangArch = "sm_90";
  if (auto SMName = nvccArchName(R.Arch)) {
    unsigned Number = 0;
    llvm::StringRef(*SMName).drop_front(3).take_while(llvm::isDigit).getAsInteger(10, Number);
    if (Number >= 50 && Number <= 90)
      ClangArch = *SMName;
  }
  std::vector<std::string> Args = {"-x", "cuda", "--cuda-device-only",
                                   "--cuda-gpu-arch=" + ClangArch, "-nocudalib", "-w",
                                   "-Wno-unknown-cuda-version"};
  std::string CudaRoot;
  if (PP) {
    const HeaderSearchOptions &HS = PP->getHeaderSearchInfo().getHeaderSearchOpts();
    if (!HS.ResourceDir.empty())
      Args.push_back("-resource-dir=" + HS.ResourceDir);
    std::vector<std::string> Includes;
    for (const HeaderSearchOptions::Entry &E : HS.UserEntries) {
      if (E.IsFramework)
        continue;
      llvm::StringRef P = E.Path;
      if (CudaRoot.empty() && isCudaIncludeDir(P, CudaRoot))
        continue;
      if (P.starts_with(HS.ResourceDir) || P.ends_with("/cuda_wrappers") || P == "/include" ||
          P == "/usr/include" || P.starts_with("/usr/include/") || P == "/usr/local/include" ||
          P.starts_with("/usr/lib/gcc/"))
        continue; // the driver adds these itself
      if (E.Group == frontend::Angled || E.Group == frontend::Quoted) {
        Includes.push_back("-I" + E.Path);
      } else if (E.Group == frontend::System) {
        Includes.push_back("-isystem");
        Includes.push_back(E.Path);
      }
    }
    Args.insert(Args.end(), Includes.begin(), Includes.end());
    for (const auto &[Macro, IsUndef] : PP->getPreprocessorOpts().Macros)
      Args.push_back((IsUndef ? "-U" : "-D") + Macro);
    // Forced includes (-include): without a toolkit, the bundled
    // declarations of __global__, threadIdx and the rest come in so.
    for (const std::string &Include : PP->getPreprocessorOpts().Includes) {
      Args.push_back("-include");
      Args.push_back(Include);
    }
    const LangStandard &Std = LangStandard::getLangStandardForKind(PP->getLangOpts().LangStd);
    Args.push_back(std::string("-std=") + Std.getName());
  } else {
    SanitizedFlags Flags = sanitizeCompileFlags(Options.CompileFlags, Options.WorkingDirectory);
    Args.insert(Args.end(), Flags.Kept.begin(), Flags.Kept.end());
  }
  if (CudaRoot.empty())
    CudaRoot = Options.ToolkitRoot;
  if (!CudaRoot.empty()) {
    Args.push_back("--cuda-path=" + CudaRoot);
  } else {
    Args.push_back("-nocudainc");
    // Without a toolkit clang assumes PTX 4.2, and its code generator then
    // rejects the *_sync warp builtins (PTX 6.0); 8.5 is what clang 19
    // targets for CUDA 12.5, as the warpcheck binary's no-toolkit
    // arguments say too (tool/CudaEnvironment.cpp).
    Args.push_back("--cuda-feature=+ptx85");
  }

  struct Consumer : ASTConsumer {
    Consumer(const RegisterOptions &O, TranslationUnitRegisters &Out, CompilerInstance &CI)
        : Options(O), Out(Out), CI(CI) {}
    void HandleTranslationUnit(ASTContext &DeviceCtx) override {
      Out = estimateOnDeviceAST(DeviceCtx, Options, &CI.getPreprocessor());
      Done = true;
    }
    const RegisterOptions &Options;
    TranslationUnitRegisters &Out;
    CompilerInstance &CI;
    bool Done = false;
  };
  struct Action : ASTFrontendAction {
    Action(const RegisterOptions &O, TranslationUnitRegisters &Out) : Options(O), Out(Out) {}
    std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, llvm::StringRef) override {
      return std::make_unique<Consumer>(Options, Out, CI);
    }
    const RegisterOptions &Options;
    TranslationUnitRegisters &Out;
  };
  struct Factory : tooling::FrontendActionFactory {
    Factory(const RegisterOptions &O, TranslationUnitRegisters &Out) : Options(O), Out(Out) {}
    std::unique_ptr<FrontendAction> create() override {
      return std::make_unique<Action>(Options, Out);
    }
    const RegisterOptions &Options;
    TranslationUnitRegisters &Out;
  };
  std::string Dir = Options.WorkingDirectory;
  if (Dir.empty())
    Dir = llvm::sys::path::parent_path(Source).str();
  tooling::FixedCompilationDatabase Database(Dir.empty() ? "." : Dir, Args);
  tooling::ClangTool Tool(Database, {Source});
  FirstErrorConsumer Quiet;
  Tool.setDiagnosticConsumer(&Quiet);
  Tool.setPrintErrorMessage(false);
  TranslationUnitRegisters Device;
  Device.FallbackReason = "the device-side parse failed";
  Factory F(Options, Device);
  if ((Tool.run(&F) != 0 || Quiet.getNumErrors() > 0) && Device.ByMangledName.empty()) {
    R.FallbackReason = "the source could not be parsed for the device" + Quiet.suffix();
    return R;
  }
  Device.Arch = R.Arch;
  return Device;
}

} // namespace

std::unique_ptr<llvm::Module> lowerForEstimate(ASTContext &Ctx, llvm::LLVMContext &LLCtx,
                                               const RegisterOptions &Options,
                                               const Preprocessor *PP, std::string &Error) {
  if (!Ctx.getTargetInfo().getTriple().isNVPTX()) {
    Error = "the AST is not a device-side one";
    return nullptr;
  }
  if (Ctx.getDiagnostics().hasErrorOccurred()) {
    Error = "the translation unit has errors";
    return nullptr;
  }
  KernelCollector Found;
  Found.TraverseDecl(Ctx.getTranslationUnitDecl());
  HeaderSearchOptions DefaultHS;
  PreprocessorOptions DefaultPP;
  const HeaderSearchOptions &HS =
      PP ? PP->getHeaderSearchInfo().getHeaderSearchOpts() : DefaultHS;
  const PreprocessorOptions &PPO = PP ? PP->getPreprocessorOpts() : DefaultPP;
  std::unique_ptr<llvm::Module> M = emitDeviceModule(Ctx, Found, LLCtx, HS, PPO, Error);
  if (!M)
    return nullptr;
  linkLibdevice(*M, Options.ToolkitRoot);
  std::string CPU = Ctx.getTargetInfo().getTargetOpts().CPU;
  if (!optimizeModule(*M, CPU.empty() ? "sm_90" : CPU, Error))
    return nullptr;
  return M;
}

LiveValueMeasures measureLiveValues(const llvm::Function &F) {
  LiveValueMeasures L;
  L.InOrder = PressureModel(F.getParent()->getDataLayout(), false).functionPressure(F);
  L.Scheduled = PressureModel(F.getParent()->getDataLayout(), true).functionPressure(F);
  return L;
}

TranslationUnitRegisters estimateRegisters(ASTContext &Ctx, const RegisterOptions &Options,
                                           const Preprocessor *PP) {
  if (Ctx.getTargetInfo().getTriple().isNVPTX())
    return estimateOnDeviceAST(Ctx, Options, PP);
  return estimateByDeviceReparse(Ctx, Options, PP);
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

std::string deviceMangledName(const FunctionDecl *Kernel, ASTContext &Ctx) {
  std::unique_ptr<MangleContext> MC(Ctx.createMangleContext());
  if (!MC->shouldMangleDeclName(Kernel))
    return Kernel->getNameAsString();
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  MC->mangleName(GlobalDecl(Kernel, KernelReferenceKind::Kernel), OS);
  OS.flush();
  return Name;
}

std::string normalizedKernelName(llvm::StringRef MangledName) {
  std::string D = llvm::demangle(MangledName);
  // Identifiers that differ between nvcc's and clang's compilation of the
  // same source:
  //  - nvcc names an anonymous namespace _GLOBAL__N__<hash>_<n>_<file>_<hash>,
  //    clang's demangler prints "(anonymous namespace)";
  //  - CCCL's versioned inline namespaces spell the architecture list
  //    (CUB_300001_SM_900, THRUST_300001_SM_900_NS), which nvcc defines
  //    (__CUDA_ARCH_LIST__) and clang does not.
  auto IsIdent = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  std::string Out;
  Out.reserve(D.size());
  size_t I = 0;
  while (I < D.size()) {
    if (!IsIdent(D[I])) {
      Out += D[I++];
      continue;
    }
    size_t End = I;
    while (End < D.size() && IsIdent(D[End]))
      ++End;
    llvm::StringRef Ident(D.data() + I, End - I);
    if (Ident.starts_with("_GLOBAL__N_"))
      Out += "(anonymous namespace)";
    else if ((Ident.starts_with("CUB_") || Ident.starts_with("THRUST_")) &&
             Ident.contains("_SM_"))
      Out += Ident.take_front(Ident.find('_') + 1).str() + "SM";
    else
      Out += Ident.str();
    I = End;
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Per-AST cache
//===----------------------------------------------------------------------===//

namespace {
struct RegistryEntry {
  const TranslationUnitDecl *TU = nullptr;
  std::unique_ptr<RegisterUsage> Usage;
};
std::mutex RegistryMutex;
std::map<const ASTContext *, RegistryEntry> &registry() {
  static std::map<const ASTContext *, RegistryEntry> M;
  return M;
}

/// Path and contents of every file the parse read, for the cache key.
std::string loadedFilesKey(const SourceManager &SM) {
  std::vector<std::pair<std::string, llvm::StringRef>> Files;
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
    if (!It->second)
      continue;
    std::optional<llvm::StringRef> Data = It->second->getBufferDataIfLoaded();
    if (!Data)
      continue;
    Files.emplace_back(It->first.getName().str(), *Data);
  }
  std::sort(Files.begin(), Files.end(),
            [](const auto &A, const auto &B) { return A.first < B.first; });
  llvm::SHA256 Hash;
  for (const auto &[Name, Data] : Files) {
    Hash.update(Name);
    Hash.update(llvm::StringRef("\0", 1));
    Hash.update(Data);
    Hash.update(llvm::StringRef("\0", 1));
  }
  return hexDigest(Hash);
}
} // namespace

RegisterUsage::RegisterUsage(ASTContext &Ctx) : Ctx(Ctx) {}

RegisterUsage &RegisterUsage::get(ASTContext &Ctx) {
  std::lock_guard<std::mutex> Lock(RegistryMutex);
  RegistryEntry &E = registry()[&Ctx];
  if (!E.Usage || E.TU != Ctx.getTranslationUnitDecl()) {
    E.TU = Ctx.getTranslationUnitDecl();
    E.Usage = std::make_unique<RegisterUsage>(Ctx);
  }
  return *E.Usage;
}

void RegisterUsage::release(ASTContext &Ctx) {
  std::lock_guard<std::mutex> Lock(RegistryMutex);
  registry().erase(&Ctx);
}

RegisterOptions RegisterUsage::resolve(const RegisterOptions &Options) {
  RegisterOptions O = Options;
  if (O.Arch.empty())
    O.Arch = "sm_90";
  if (!O.ToolkitRoot.empty())
    if (auto Real = validateToolkitRoot(O.ToolkitRoot))
      O.ToolkitRoot = *Real;
  if (O.Mode == RegisterMode::Auto)
    O.Mode = O.ToolkitRoot.empty() ? RegisterMode::Estimate : RegisterMode::Ptxas;
  return O;
}

const TranslationUnitRegisters &RegisterUsage::estimate(const RegisterOptions &O) {
  // The estimate does not depend on the mode; one per remaining options.
  RegisterOptions Key = O;
  Key.Mode = RegisterMode::Estimate;
  auto &Slot = Estimates[Key.fingerprint()];
  if (!Slot)
    Slot = std::make_unique<TranslationUnitRegisters>(estimateRegisters(Ctx, O, PP));
  return *Slot;
}

const TranslationUnitRegisters &RegisterUsage::translationUnit(const RegisterOptions &Options) {
  RegisterOptions O = resolve(Options);
  std::lock_guard<std::mutex> Lock(Mutex);
  std::string Key = O.fingerprint();
  auto &Slot = Results[Key];
  if (Slot)
    return *Slot;
  if (O.Mode == RegisterMode::Estimate) {
    Slot = std::make_unique<TranslationUnitRegisters>(estimate(O));
    return *Slot;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Source = O.SourceFile;
  if (Source.empty())
    if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID())) {
      llvm::StringRef Real = Main->getFileEntry().tryGetRealPathName();
      Source = Real.empty() ? Main->getName().str() : Real.str();
    }
  TranslationUnitRegisters R = runPtxas(O, Source, loadedFilesKey(SM));
  if (!R.FallbackReason.empty()) {
    TranslationUnitRegisters E = estimate(O);
    E.FallbackReason = "ptxas was not used (" + R.FallbackReason + ")" +
                       (E.FallbackReason.empty() ? "" : "; the estimate: " + E.FallbackReason);
    E.DroppedFlags = R.DroppedFlags;
    R = std::move(E);
  }
  Slot = std::make_unique<TranslationUnitRegisters>(std::move(R));
  return *Slot;
}

std::optional<FunctionRegisters> RegisterUsage::lookup(const FunctionDecl *Kernel,
                                                      const RegisterOptions &Options,
                                                      std::string *Note) {
  const TranslationUnitRegisters &TU = translationUnit(Options);
  std::string Mangled = deviceMangledName(Kernel, Ctx);
  auto Find = [&](const TranslationUnitRegisters &R,
                  const std::string &Key) -> std::optional<FunctionRegisters> {
    auto It = R.ByMangledName.find(Mangled);
    if (It != R.ByMangledName.end())
      return It->second;
    std::lock_guard<std::mutex> Lock(Mutex);
    auto &Index = Normalized[Key];
    if (Index.empty()) {
      std::map<std::string, unsigned> Count;
      for (const auto &Entry : R.ByMangledName)
        ++Count[normalizedKernelName(Entry.first)];
      for (const auto &Entry : R.ByMangledName) {
        std::string N = normalizedKernelName(Entry.first);
        if (Count[N] == 1)
          Index[N] = Entry.first;
      }
      Index[""] = ""; // computed
    }
    auto N = Index.find(normalizedKernelName(Mangled));
    if (N == Index.end() || N->second.empty())
      return std::nullopt;
    return R.ByMangledName.at(N->second);
  };
  RegisterOptions O = resolve(Options);
  std::optional<FunctionRegisters> F = Find(TU, O.fingerprint() + "\x1d" + registerSourceName(TU.Source));
  if (F) {
    if (Note)
      *Note = TU.FallbackReason;
    return F;
  }
  if (TU.Source == RegisterSource::Ptxas) {
    const TranslationUnitRegisters *E;
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      E = &estimate(O);
    }
    F = Find(*E, O.fingerprint() + "\x1d" + "estimate");
    if (F && Note)
      *Note = "ptxas reported no kernel named '" + Mangled + "'";
    return F;
  }
  if (Note)
    *Note = TU.FallbackReason;
  return std::nullopt;
}

} // namespace warpcheck::analysis
