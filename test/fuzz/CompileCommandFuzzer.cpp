//===- CompileCommandFuzzer.cpp - compile databases and nvcc flags --------===//
//
// The compile database and the flags in it are untrusted (CompileCommand.h):
// nothing from them may name a program, a plugin, a response, config or
// options file, or a file clang writes. The input is either a whole
// compile_commands.json (first byte even) or one command, an argument per
// line (first byte odd; the second byte chooses nvcc, clang++ or g++).
// Each command goes through what warpcheck does with it: the translation
// for the parse, the include paths made absolute, the flags kept for nvcc
// and nvcc's argument vector. Invariants, besides no crash:
//  - no argument of the parse starts with '@' (the driver would read it as
//    a response file) and clang's driver reads none of them as an option
//    that names a program, a plugin, a configuration or an output
//    (CompileCommandTest.cpp's hostile flags, as clang spells them);
//  - every flag kept for nvcc is an include folder, a forced include, a
//    macro or a language standard, and nvcc's argument vector, when one is
//    made, is shell-safe throughout.
//
//===----------------------------------------------------------------------===//

#include "CompileCommand.h"
#include "FuzzSupport.h"

#include "warpcheck/toolchain/NvccInvocation.h"

#include "clang/Driver/Options.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace warpcheck;

namespace {

/// clang driver options (as the driver table spells them) that must never
/// reach the parse: exact names, then prefixes.
const char *const DeniedExact[] = {"-o", "-B", "-target", "-load", "-plugin"};
const char *const DeniedPrefixes[] = {
    "-Xclang", "-fplugin", "-fpass-plugin", "--config", "--prefix", "-gcc-toolchain",
    "--gcc-toolchain", "--gcc-install-dir", "-ccc-", "-fuse-ld", "-Wp,", "-Xpreprocessor",
    "-mllvm", "-resource-dir", "--cuda-path", "--ptxas-path", "-fmodule-file",
    "-fmodules-cache-path", "-fprebuilt-module-path", "-include-pch", "-ivfsoverlay",
    "--sysroot", "-isysroot", "-save-temps", "--save-temps", "-ftime-trace",
    "-fcrash-diagnostics-dir", "-MJ", "-serialize-diagnostics", "-working-directory",
    "--driver-mode", "--target", "-Xarch", "-Xcuda-ptxas", "-Xopenmp-target",
    "-fopenmp-targets", "-foffload", "-fprofile-use", "-fprofile-instr-generate",
    "-foptimization-record-file", "-Xlinker", "-Wl,", "-Wa,", "-Xassembler",
    "-fno-integrated-cc1", "-no-integrated-as", "-fno-integrated-as"};

void checkParseArguments(const std::vector<std::string> &Args) {
  std::vector<const char *> Argv;
  for (const std::string &A : Args) {
    if (llvm::StringRef(A).starts_with("@"))
      fuzz::invariantBroken("a response file reaches the parse", A);
    Argv.push_back(A.c_str());
  }
  unsigned MissingIndex = 0, MissingCount = 0;
  llvm::opt::InputArgList Parsed =
      clang::driver::getDriverOptTable().ParseArgs(Argv, MissingIndex, MissingCount);
  for (const llvm::opt::Arg *A : Parsed) {
    std::string Name = A->getOption().getPrefixedName().str();
    for (const char *D : DeniedExact)
      if (Name == D)
        fuzz::invariantBroken("the parse gets a denied option", A->getAsString(Parsed));
    for (const char *D : DeniedPrefixes)
      if (llvm::StringRef(Name).starts_with(D))
        fuzz::invariantBroken("the parse gets a denied option", A->getAsString(Parsed));
  }
}

/// -ftz, -fmad, -prec-div, -prec-sqrt with nvcc's two values.
bool isDeviceMathSwitch(llvm::StringRef K) {
  auto [Name, Value] = K.split('=');
  return (Name == "-ftz" || Name == "-fmad" || Name == "-prec-div" || Name == "-prec-sqrt") &&
         (Value == "true" || Value == "false");
}

void checkNvccFlags(const toolchain::SanitizedFlags &S) {
  for (size_t I = 0; I < S.Kept.size(); ++I) {
    llvm::StringRef K = S.Kept[I];
    bool ValueOfPrevious = I > 0 && (S.Kept[I - 1] == "-isystem" || S.Kept[I - 1] == "-include");
    bool Allowed = (ValueOfPrevious && K.starts_with("/")) || K.starts_with("-I/") ||
                   K == "-isystem" || K == "-include" || K.starts_with("-D") ||
                   K.starts_with("-U") || K.starts_with("-std=") || K == "--use_fast_math" ||
                   isDeviceMathSwitch(K);
    if (!Allowed)
      fuzz::invariantBroken("nvcc is given a flag off the allow-list", K);
  }
  std::string Error;
  std::optional<std::vector<std::string>> Nvcc = toolchain::nvccArguments(
      "/opt/cuda", "sm_90", S, S.MaxRegisterCount, "/tmp/unit.cu", "/tmp/unit.cubin", &Error);
  if (!Nvcc)
    return;
  for (const std::string &A : *Nvcc)
    if (!toolchain::isShellSafeArgument(A, /*ForMacro=*/llvm::StringRef(A).starts_with("-D")))
      fuzz::invariantBroken("nvcc's arguments are not shell-safe", A);
}

void checkCommand(const std::vector<std::string> &Command, llvm::StringRef Directory) {
  tool::TranslatedCommand T = tool::translateCompileCommand(Command);
  std::vector<std::string> Parse = tool::makeIncludePathsAbsolute(T.ClangArgs, Directory);
  checkParseArguments(Parse);
  checkNvccFlags(toolchain::sanitizeCompileFlags(Parse, Directory));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data, std::size_t Size) {
  if (Size < 2)
    return 0;
  llvm::StringRef Text(reinterpret_cast<const char *>(Data) + 2, Size - 2);
  if (Data[0] % 2 == 0) {
    std::string Error;
    auto Db = clang::tooling::JSONCompilationDatabase::loadFromBuffer(
        Text, Error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
    if (!Db)
      return 0;
    unsigned Commands = 0;
    for (const clang::tooling::CompileCommand &C : Db->getAllCompileCommands()) {
      if (++Commands > 64)
        break;
      checkCommand(C.CommandLine, C.Directory);
    }
    return 0;
  }
  const char *Compilers[] = {"/usr/local/cuda/bin/nvcc", "/usr/bin/clang++", "/usr/bin/g++"};
  std::vector<std::string> Command = {Compilers[Data[1] % 3]};
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    Command.push_back(L.str());
  checkCommand(Command, "/work/build");
  return 0;
}
