//===- CompileCommandTest.cpp - compile_commands.json to clang 19 args ----===//
//
// Realistic nvcc and clang command lines, every nvcc spelling the
// translation handles, and the security rule: nothing from the (untrusted)
// database may name a program, a plugin, a module, a response/config/options
// file or an output of clang's.
//
//===----------------------------------------------------------------------===//

#include "CompileCommand.h"
#include "ArgumentLists.h"
#include "CudaEnvironment.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <gtest/gtest.h>

#include <cctype>

#include <string>
#include <vector>

using namespace warpcheck::tool;
using namespace warpcheck::toolchain;
using Args = std::vector<std::string>;
using warpcheck::testing::containsArgument;

namespace {

bool anyContains(const Args &List, llvm::StringRef Needle) {
  for (const std::string &A : List)
    if (llvm::StringRef(A).contains(Needle))
      return true;
  return false;
}

/// True when \p Sub appears in \p List as consecutive elements.
bool hasSequence(const Args &List, const Args &Sub) {
  if (Sub.size() > List.size())
    return false;
  for (size_t I = 0; I + Sub.size() <= List.size(); ++I)
    if (std::equal(Sub.begin(), Sub.end(), List.begin() + I))
      return true;
  return false;
}

Args nvcc(Args Rest) {
  Rest.insert(Rest.begin(), "/usr/local/cuda/bin/nvcc");
  return Rest;
}

//===----------------------------------------------------------------------===//
// Whole command lines.
//===----------------------------------------------------------------------===//

// What CMake 3.2x writes into compile_commands.json for a CUDA target with
// CUDA_ARCHITECTURES "80;90", CUDA_SEPARABLE_COMPILATION ON, position
// independent code, a system include and target options.
const Args CMakeNvccCommand = {
    "/usr/local/cuda/bin/nvcc",
    "-forward-unknown-to-host-compiler",
    "-ccbin=/usr/bin/g++-12",
    "-DKERNELS_EXPORTS",
    "-DWARP_TILE=32",
    "-I/home/dev/proj/include",
    "-isystem=/usr/local/cuda/targets/x86_64-linux/include",
    "-O3",
    "-DNDEBUG",
    "-std=c++17",
    "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
    "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
    "-Xcompiler=-fPIC",
    "--expt-relaxed-constexpr",
    "--extended-lambda",
    "-rdc=true",
    "-maxrregcount=64",
    "--use_fast_math",
    "-lineinfo",
    "-MD",
    "-MT",
    "src/CMakeFiles/kernels.dir/transpose.cu.o",
    "-MF",
    "src/CMakeFiles/kernels.dir/transpose.cu.o.d",
    "-x",
    "cu",
    "-c",
    "/home/dev/proj/src/transpose.cu",
    "-o",
    "src/CMakeFiles/kernels.dir/transpose.cu.o"};

TEST(CompileCommandTest, CMakeGeneratedNvccCommand) {
  TranslatedCommand T = translateCompileCommand(CMakeNvccCommand);
  Args Expected = {"-DKERNELS_EXPORTS",
                   "-DWARP_TILE=32",
                   "-I/home/dev/proj/include",
                   "-isystem",
                   "/usr/local/cuda/targets/x86_64-linux/include",
                   "-O3",
                   "-DNDEBUG",
                   "-std=c++17",
                   "-fPIC",
                   "-fgpu-rdc",
                   "-fgpu-approx-transcendentals",
                   "-fgpu-flush-denormals-to-zero",
                   "-x",
                   "cuda",
                   "/home/dev/proj/src/transpose.cu",
                   "--cuda-gpu-arch=sm_80",
                   "--cuda-gpu-arch=sm_90",
                   "-Wno-unknown-warning-option",
                   "-Qunused-arguments"};
  EXPECT_EQ(T.ClangArgs, Expected);
  EXPECT_EQ(T.GpuArchs, (Args{"sm_80", "sm_90"}));
  ASSERT_TRUE(T.MaxRegCount);
  EXPECT_EQ(*T.MaxRegCount, 64u);
  for (const char *D :
       {"-forward-unknown-to-host-compiler", "-ccbin=/usr/bin/g++-12",
        "--expt-relaxed-constexpr", "--extended-lambda", "-lineinfo", "-MD",
        "-MT src/CMakeFiles/kernels.dir/transpose.cu.o",
        "-MF src/CMakeFiles/kernels.dir/transpose.cu.o.d", "-c",
        "-o src/CMakeFiles/kernels.dir/transpose.cu.o"})
    EXPECT_TRUE(containsArgument(T.Dropped, D)) << D;
}

TEST(CompileCommandTest, ClangCudaCommand) {
  // CMake with clang as the CUDA compiler.
  Args In = {"/usr/bin/clang++-19",
             "-DFOO",
             "-I/src/include",
             "-O2",
             "-std=gnu++17",
             "--cuda-gpu-arch=sm_80",
             "--cuda-path=/usr/local/cuda",
             "-x",
             "cuda",
             "-fgpu-rdc",
             "-Xcuda-ptxas",
             "--maxrregcount=32",
             "-c",
             "/src/a.cu",
             "-o",
             "a.o"};
  TranslatedCommand T = translateCompileCommand(In);
  Args Expected = {"-DFOO",
                   "-I/src/include",
                   "-O2",
                   "-std=gnu++17",
                   "-x",
                   "cuda",
                   "-fgpu-rdc",
                   "/src/a.cu",
                   "--cuda-gpu-arch=sm_80",
                   "-Wno-unknown-warning-option",
                   "-Qunused-arguments"};
  EXPECT_EQ(T.ClangArgs, Expected);
  EXPECT_EQ(T.GpuArchs, Args{"sm_80"});
  ASSERT_TRUE(T.MaxRegCount);
  EXPECT_EQ(*T.MaxRegCount, 32u);
  EXPECT_TRUE(containsArgument(T.Dropped, "--cuda-path=/usr/local/cuda"));
}

TEST(CompileCommandTest, GccHostCommand) {
  Args In = {"/usr/bin/g++", "-fPIC",    "-O2", "-g",  "-Wall", "-Wextra",
             "-pthread",     "-MD",      "-MT", "x.o", "-MF",   "x.o.d",
             "-c",           "host.cpp", "-o",  "x.o"};
  TranslatedCommand T = translateCompileCommand(In);
  Args Expected = {"-fPIC",
                   "-O2",
                   "-g",
                   "-Wall",
                   "-Wextra",
                   "-pthread",
                   "host.cpp",
                   "-Wno-unknown-warning-option",
                   "-Qunused-arguments"};
  EXPECT_EQ(T.ClangArgs, Expected);
  EXPECT_TRUE(T.GpuArchs.empty());
  EXPECT_FALSE(T.MaxRegCount);
}

TEST(CompileCommandTest, EmptyCommand) {
  TranslatedCommand T = translateCompileCommand(Args{});
  EXPECT_EQ(T.ClangArgs,
            (Args{"-Wno-unknown-warning-option", "-Qunused-arguments"}));
}

TEST(CompileCommandTest, CompilerIsNeverUsedAndLaunchersAreSkipped) {
  TranslatedCommand T = translateCompileCommand(
      Args{"/usr/bin/ccache", "/opt/cuda/bin/nvcc", "-arch=sm_86", "k.cu"});
  EXPECT_FALSE(anyContains(T.ClangArgs, "ccache"));
  EXPECT_FALSE(anyContains(T.ClangArgs, "nvcc"));
  EXPECT_EQ(T.GpuArchs, Args{"sm_86"});
}

TEST(CompileCommandTest, NvccRecognisedByItsFlags) {
  // A wrapper script in front of nvcc: -arch is nvcc's, not Darwin's.
  TranslatedCommand T = translateCompileCommand(
      Args{"/opt/tools/cuda-cc", "-forward-unknown-to-host-compiler", "-arch",
           "sm_75", "k.cu"});
  EXPECT_EQ(T.GpuArchs, Args{"sm_75"});
}

//===----------------------------------------------------------------------===//
// GPU architectures.
//===----------------------------------------------------------------------===//

TEST(CompileCommandTest, ArchSpellings) {
  struct Case {
    Args In;
    Args Archs;
  } Cases[] = {
      {{"-arch=sm_80"}, {"sm_80"}},
      {{"-arch", "sm_80"}, {"sm_80"}},
      {{"--gpu-architecture=sm_70"}, {"sm_70"}},
      {{"--gpu-architecture", "sm_70"}, {"sm_70"}},
      {{"-arch=compute_89"}, {"sm_89"}},
      {{"-arch=compute_80", "-code=sm_80,sm_86"}, {"sm_80", "sm_86"}},
      {{"-arch=compute_80", "--gpu-code=compute_80"}, {"sm_80"}},
      {{"-gencode", "arch=compute_86,code=sm_86"}, {"sm_86"}},
      {{"-gencode=arch=compute_75,code=\"sm_75,compute_75\""}, {"sm_75"}},
      {{"-gencode", "arch=compute_90a,code=[compute_90a,sm_90a]"}, {"sm_90a"}},
      {{"--generate-code", "arch=compute_80,code=compute_80"}, {"sm_80"}},
      {{"--generate-code=arch=compute_100,code=[sm_100]",
        "--generate-code=arch=compute_120,code=[sm_120]"},
       {"sm_100", "sm_120"}},
      {{"-gencode", "arch=compute_80,code=sm_80", "-gencode",
        "arch=compute_80,code=sm_80"},
       {"sm_80"}},
      {{"-arch=sm_120f"}, {"sm_120f"}},
      {{"-arch=lto_90"}, {"sm_90"}},
  };
  for (const Case &C : Cases) {
    TranslatedCommand T = translateCompileCommand(nvcc(C.In));
    EXPECT_EQ(T.GpuArchs, C.Archs) << C.In[0];
  }
}

TEST(CompileCommandTest, NewerArchesParseAsSm90Once) {
  TranslatedCommand T = translateCompileCommand(
      nvcc({"--generate-code=arch=compute_100,code=[sm_100]",
            "--generate-code=arch=compute_103,code=[sm_103]",
            "--generate-code=arch=compute_120,code=[sm_120]", "k.cu"}));
  EXPECT_EQ(T.GpuArchs, (Args{"sm_100", "sm_103", "sm_120"}));
  Args Expected = {"k.cu", "--cuda-gpu-arch=sm_90",
                   "-Wno-unknown-warning-option", "-Qunused-arguments"};
  EXPECT_EQ(T.ClangArgs, Expected);
}

TEST(CompileCommandTest, NativeAndAllArchesGiveNoArch) {
  for (const char *A : {"-arch=native", "-arch=all", "-arch=all-major"}) {
    TranslatedCommand T = translateCompileCommand(nvcc({A, "k.cu"}));
    EXPECT_TRUE(T.GpuArchs.empty()) << A;
    EXPECT_TRUE(containsArgument(T.Dropped, A)) << A;
    EXPECT_FALSE(anyContains(T.ClangArgs, "--cuda-gpu-arch")) << A;
  }
}

TEST(CompileCommandTest, ClangArchFlags) {
  TranslatedCommand T = translateCompileCommand(
      Args{"clang++", "--cuda-gpu-arch=sm_89", "--offload-arch=sm_75,sm_80",
           "--cuda-gpu-arch=sm_89", "a.cu"});
  EXPECT_EQ(T.GpuArchs, (Args{"sm_89", "sm_75", "sm_80"}));
  EXPECT_TRUE(hasSequence(T.ClangArgs,
                          {"--cuda-gpu-arch=sm_89", "--cuda-gpu-arch=sm_75",
                           "--cuda-gpu-arch=sm_80"}));
}

//===----------------------------------------------------------------------===//
// nvcc options.
//===----------------------------------------------------------------------===//

TEST(CompileCommandTest, XcompilerIsUnwrappedAndFiltered) {
  TranslatedCommand T = translateCompileCommand(
      nvcc({"-Xcompiler=-fPIC", "-Xcompiler", "-fvisibility=hidden,-Wall",
            "--compiler-options", "-march=native", "-Xcompiler",
            "\"-O2 -fopenmp\"", "-Xcompiler=-Wl,-rpath,/opt/lib", "k.cu"}));
  Args Expected = {"-fPIC",
                   "-fvisibility=hidden",
                   "-Wall",
                   "-O2",
                   "-fopenmp",
                   "k.cu",
                   "-Wno-unknown-warning-option",
                   "-Qunused-arguments"};
  // "-Wl" without its comma list is a bogus -W flag; it may stay (clang
  // warns about an unknown warning option at most).
  Args Got;
  for (const std::string &A : T.ClangArgs)
    if (A != "-Wl")
      Got.push_back(A);
  EXPECT_EQ(Got, Expected);
  EXPECT_TRUE(containsArgument(T.Dropped, "-Xcompiler -march=native"));
  EXPECT_TRUE(containsArgument(T.Dropped, "-Xcompiler -rpath"));
  EXPECT_TRUE(containsArgument(T.Dropped, "-Xcompiler /opt/lib"));
}

TEST(CompileCommandTest, RelocatableDeviceCode) {
  EXPECT_TRUE(containsArgument(translateCompileCommand(nvcc({"-rdc=true"})).ClangArgs,
                       "-fgpu-rdc"));
  EXPECT_TRUE(containsArgument(
      translateCompileCommand(nvcc({"-rdc", "true"})).ClangArgs, "-fgpu-rdc"));
  EXPECT_TRUE(
      containsArgument(translateCompileCommand(nvcc({"--relocatable-device-code=true"}))
                   .ClangArgs,
               "-fgpu-rdc"));
  EXPECT_TRUE(containsArgument(translateCompileCommand(nvcc({"-rdc=false"})).ClangArgs,
                       "-fno-gpu-rdc"));
  EXPECT_TRUE(
      containsArgument(translateCompileCommand(nvcc({"-dc"})).ClangArgs, "-fgpu-rdc"));
}

TEST(CompileCommandTest, MaxRegCountSpellings) {
  struct Case {
    Args In;
    unsigned Expected;
  } Cases[] = {
      {{"-maxrregcount=32"}, 32},
      {{"-maxrregcount", "40"}, 40},
      {{"--maxrregcount=48"}, 48},
      {{"--maxrregcount", "56"}, 56},
      {{"-Xptxas", "--maxrregcount=24"}, 24},
      {{"-Xptxas=-v,-maxrregcount=16"}, 16},
      {{"-Xptxas", "--maxrregcount", "-Xptxas", "20"}, 20},
  };
  for (const Case &C : Cases) {
    TranslatedCommand T = translateCompileCommand(nvcc(C.In));
    ASSERT_TRUE(T.MaxRegCount) << C.In[0];
    EXPECT_EQ(*T.MaxRegCount, C.Expected) << C.In[0];
    EXPECT_FALSE(anyContains(T.ClangArgs, "maxrregcount")) << C.In[0];
  }
  TranslatedCommand Bad =
      translateCompileCommand(nvcc({"-maxrregcount=lots", "k.cu"}));
  EXPECT_FALSE(Bad.MaxRegCount);
  EXPECT_TRUE(containsArgument(Bad.Dropped, "-maxrregcount=lots"));
}

TEST(CompileCommandTest, StdSpellings) {
  for (const Args &In : {Args{"-std=c++17"}, Args{"--std=c++17"},
                         Args{"-std", "c++17"}, Args{"--std", "c++17"}}) {
    TranslatedCommand T = translateCompileCommand(nvcc(In));
    EXPECT_TRUE(containsArgument(T.ClangArgs, "-std=c++17")) << In[0];
    EXPECT_FALSE(containsArgument(T.ClangArgs, "c++17")) << In[0];
  }
}

TEST(CompileCommandTest, LanguageSpellings) {
  for (const Args &In : {Args{"-x", "cu"}, Args{"--x=cu"}, Args{"--x", "cu"},
                         Args{"-xcu"}, Args{"-x", "cuda"}}) {
    TranslatedCommand T = translateCompileCommand(nvcc(In));
    EXPECT_TRUE(hasSequence(T.ClangArgs, {"-x", "cuda"})) << In[0];
  }
  TranslatedCommand Ptx = translateCompileCommand(nvcc({"-x", "ptx"}));
  EXPECT_FALSE(containsArgument(Ptx.ClangArgs, "-x"));
}

TEST(CompileCommandTest, NvccIncludeAndMacroSpellings) {
  TranslatedCommand T = translateCompileCommand(
      nvcc({"--include-path", "inc", "--include-path=inc2,inc3",
            "--system-include=sys", "-isystem", "sys2", "--define-macro=A=1",
            "--define-macro", "B", "--undefine-macro=C", "--pre-include",
            "pre.h", "k.cu"}));
  Args Expected = {"-I",
                   "inc",
                   "-I",
                   "inc2",
                   "-I",
                   "inc3",
                   "-isystem",
                   "sys",
                   "-isystem",
                   "sys2",
                   "-D",
                   "A=1",
                   "-D",
                   "B",
                   "-U",
                   "C",
                   "-include",
                   "pre.h",
                   "k.cu",
                   "-Wno-unknown-warning-option",
                   "-Qunused-arguments"};
  EXPECT_EQ(T.ClangArgs, Expected);
}

TEST(CompileCommandTest, NvccOnlyFlagsAreDropped) {
  Args In = nvcc({"-lineinfo",
                  "-G",
                  "--keep",
                  "-keep-dir",
                  "/tmp/k",
                  "-dlink",
                  "-Xnvlink",
                  "--suppress-stack-size-warning",
                  "-Xcudafe",
                  "--diag_suppress=177",
                  "-Xptxas",
                  "-v",
                  "-Xfatbin=-compress-all",
                  "--expt-extended-lambda",
                  "-Wno-deprecated-gpu-targets",
                  "-res-usage",
                  "--default-stream",
                  "legacy",
                  "-cudart",
                  "shared",
                  "--threads",
                  "4",
                  "-diag-suppress",
                  "20012",
                  "k.cu"});
  TranslatedCommand T = translateCompileCommand(In);
  EXPECT_EQ(T.ClangArgs, (Args{"k.cu", "-Wno-unknown-warning-option",
                               "-Qunused-arguments"}));
  for (const char *D :
       {"-lineinfo", "-G", "--keep", "-keep-dir /tmp/k", "-dlink",
        "-Xnvlink --suppress-stack-size-warning",
        "-Xcudafe --diag_suppress=177", "-Xptxas -v", "-Xfatbin=-compress-all",
        "--expt-extended-lambda", "-Wno-deprecated-gpu-targets",
        "--default-stream legacy", "-cudart shared", "--threads 4",
        "-diag-suppress 20012"})
    EXPECT_TRUE(containsArgument(T.Dropped, D)) << D;
}

TEST(CompileCommandTest, DefaultStreamPerThreadDefinesTheMacro) {
  // nvcc --dryrun shows -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1.
  for (const Args &In : {Args{"--default-stream", "per-thread"},
                         Args{"--default-stream=per-thread"},
                         Args{"-default-stream", "per-thread"}}) {
    TranslatedCommand T = translateCompileCommand(nvcc(In));
    EXPECT_TRUE(
        containsArgument(T.ClangArgs, "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"));
  }
}

TEST(CompileCommandTest, NvccMathFlags) {
  TranslatedCommand T = translateCompileCommand(
      nvcc({"-ftz=true", "-fmad=false", "-prec-div=false", "-prec-sqrt",
            "false", "k.cu"}));
  EXPECT_TRUE(containsArgument(T.ClangArgs, "-fgpu-flush-denormals-to-zero"));
  EXPECT_TRUE(containsArgument(T.ClangArgs, "-ffp-contract=off"));
  EXPECT_FALSE(anyContains(T.ClangArgs, "prec"));
  EXPECT_FALSE(containsArgument(T.ClangArgs, "false"));
}

TEST(CompileCommandTest, OptimizationLevels) {
  EXPECT_TRUE(
      hasSequence(translateCompileCommand(nvcc({"-O", "2", "k.cu"})).ClangArgs,
                  {"-O2", "k.cu"}));
  EXPECT_TRUE(hasSequence(
      translateCompileCommand(nvcc({"-O", "k.cu"})).ClangArgs, {"-O", "k.cu"}));
  EXPECT_TRUE(hasSequence(
      translateCompileCommand(Args{"g++", "-Ofast", "a.cpp"}).ClangArgs,
      {"-O3", "-ffast-math"}));
  TranslatedCommand Ofc =
      translateCompileCommand(nvcc({"-Ofc", "1", "-Ofoo", "k.cu"}));
  EXPECT_EQ(Ofc.ClangArgs, (Args{"k.cu", "-Wno-unknown-warning-option",
                                 "-Qunused-arguments"}));
}

TEST(CompileCommandTest, WerrorIsDropped) {
  TranslatedCommand T = translateCompileCommand(
      nvcc({"-Werror", "all-warnings", "-Xcompiler=-Werror", "--Werror",
            "cross-execution-space-call,reorder", "-Werror=vla", "k.cu"}));
  EXPECT_EQ(T.ClangArgs, (Args{"k.cu", "-Wno-unknown-warning-option",
                               "-Qunused-arguments"}));
  TranslatedCommand Clang = translateCompileCommand(
      Args{"clang++", "-Werror", "a.cu", "-pedantic-errors", "-Wno-error=vla"});
  EXPECT_EQ(Clang.ClangArgs,
            (Args{"a.cu", "-Wno-error=vla", "-Wno-unknown-warning-option",
                  "-Qunused-arguments"}));
}

TEST(CompileCommandTest, OutputsAndDependenciesAreDropped) {
  TranslatedCommand T = translateCompileCommand(
      Args{"clang++", "-MMD", "-MP", "-MF", "a.d", "-MT", "a.o", "-MQ", "a.o",
           "-MJ", "a.json", "-c", "a.cu", "-oa.o", "-S", "-E", "-emit-llvm"});
  EXPECT_EQ(T.ClangArgs, (Args{"a.cu", "-Wno-unknown-warning-option",
                               "-Qunused-arguments"}));
}

TEST(CompileCommandTest, PositionalArgumentsOtherThanSourcesAreDropped) {
  TranslatedCommand T = translateCompileCommand(Args{
      "clang++", "a.cu", "b.cuh", "c.o", "libd.a", "libe.so", "-", "f.cpp"});
  EXPECT_EQ(T.ClangArgs,
            (Args{"a.cu", "b.cuh", "f.cpp", "-Wno-unknown-warning-option",
                  "-Qunused-arguments"}));
  EXPECT_TRUE(containsArgument(T.Dropped, "c.o"));
  EXPECT_TRUE(containsArgument(T.Dropped, "-"));
}

TEST(CompileCommandTest, EndOfOptions) {
  TranslatedCommand T = translateCompileCommand(
      Args{"clang++", "-DA", "--", "a.cu", "-fplugin=x.so"});
  EXPECT_EQ(T.ClangArgs, (Args{"-DA", "a.cu", "-Wno-unknown-warning-option",
                               "-Qunused-arguments"}));
}

//===----------------------------------------------------------------------===//
// Kept flags.
//===----------------------------------------------------------------------===//

TEST(CompileCommandTest, PairsStayIntact) {
  Args In = {"clang++", "-I",         "inc",   "-isystem", "sys",   "-iquote",
             "q",       "-idirafter", "late",  "-include", "pre.h", "-imacros",
             "m.h",     "-D",         "FOO=1", "-U",       "BAR",   "a.cu"};
  TranslatedCommand T = translateCompileCommand(In);
  Args Expected(In.begin() + 1, In.end());
  Expected.push_back("-Wno-unknown-warning-option");
  Expected.push_back("-Qunused-arguments");
  EXPECT_EQ(T.ClangArgs, Expected);
}

TEST(CompileCommandTest, JoinedFormsAreKept) {
  Args In = {
      "clang++",         "-Iinc",    "-isystemsys", "-iquoteq",
      "-DFOO",           "-UBAR",    "-Wall",       "-Wno-unused-parameter",
      "-fno-exceptions", "-fopenmp", "-O2",         "-g3",
      "-gdwarf-4",       "-m64",     "-std=c++20",  "a.cu"};
  TranslatedCommand T = translateCompileCommand(In);
  Args Expected(In.begin() + 1, In.end());
  Expected.push_back("-Wno-unknown-warning-option");
  Expected.push_back("-Qunused-arguments");
  EXPECT_EQ(T.ClangArgs, Expected);
  EXPECT_TRUE(T.Dropped.empty());
}

TEST(CompileCommandTest, ShellMetacharactersStayLiteral) {
  // Never given to a shell: the macro's value is the literal text.
  TranslatedCommand T =
      translateCompileCommand(nvcc({"-DX=$(touch /tmp/warpcheck-pwned)", "-D",
                                    "Y=`id`", "-DZ=a;rm -rf /", "k.cu"}));
  EXPECT_TRUE(containsArgument(T.ClangArgs, "-DX=$(touch /tmp/warpcheck-pwned)"));
  EXPECT_TRUE(hasSequence(T.ClangArgs, {"-D", "Y=`id`"}));
  EXPECT_TRUE(containsArgument(T.ClangArgs, "-DZ=a;rm -rf /"));
}

TEST(CompileCommandTest, GccOnlyFlagsClangRejectsAreDropped) {
  // Each of these makes clang 19's driver fail with "unknown argument".
  Args GccOnly = {"-fconcepts",
                  "-fno-var-tracking-assignments",
                  "-fext-numeric-literals",
                  "-fno-gnu-unique",
                  "-fipa-pta",
                  "-fabi-version=11",
                  "-fno-keep-inline-dllexport",
                  "-ftree-loop-vectorize",
                  "-fopenmp-simd"};
  Args In = {"g++"};
  In.insert(In.end(), GccOnly.begin(), GccOnly.end());
  In.push_back("a.cpp");
  TranslatedCommand T = translateCompileCommand(In);
  EXPECT_EQ(T.ClangArgs, (Args{"a.cpp", "-Wno-unknown-warning-option",
                               "-Qunused-arguments"}));
  for (const std::string &F : GccOnly)
    EXPECT_TRUE(containsArgument(T.Dropped, F)) << F;
}

TEST(CompileCommandTest, HostTuningFlagsAreDropped) {
  TranslatedCommand T = translateCompileCommand(Args{
      "g++", "-march=native", "-mtune=generic", "-mavx2", "-m64", "a.cpp"});
  EXPECT_EQ(T.ClangArgs, (Args{"-m64", "a.cpp", "-Wno-unknown-warning-option",
                               "-Qunused-arguments"}));
}

TEST(CompileCommandTest, KnownFlagPredicateCanOnlyRemove) {
  TranslateOptions Opts;
  Opts.IsKnownClangFlag = [](llvm::StringRef F) {
    // Claims to know everything except -fweird.
    return F != "-fweird";
  };
  TranslatedCommand T = translateCompileCommand(
      Args{"clang++", "-fweird", "-fPIC", "-fplugin=/tmp/evil.so", "-Xclang",
           "-load", "a.cu"},
      Opts);
  EXPECT_EQ(T.ClangArgs, (Args{"-fPIC", "a.cu", "-Wno-unknown-warning-option",
                               "-Qunused-arguments"}));
  EXPECT_TRUE(containsArgument(T.Dropped, "-fweird"));
}

//===----------------------------------------------------------------------===//
// Security: hostile flags, each in a normal command.
//===----------------------------------------------------------------------===//

struct Hostile {
  const char *Name;
  Args Flags;
};

class HostileFlagTest : public ::testing::TestWithParam<Hostile> {};

TEST_P(HostileFlagTest, NothingFromTheDatabaseReachesClang) {
  const Hostile &H = GetParam();
  for (bool Nvcc : {true, false}) {
    Args In = {Nvcc ? "/usr/local/cuda/bin/nvcc" : "/usr/bin/clang++", "-O2"};
    In.insert(In.end(), H.Flags.begin(), H.Flags.end());
    In.push_back("-DOK=1");
    In.push_back("kernel.cu");
    TranslatedCommand T = translateCompileCommand(In);
    for (const std::string &A : T.ClangArgs)
      EXPECT_FALSE(llvm::StringRef(A).contains("evil"))
          << H.Name << (Nvcc ? " (nvcc)" : " (clang)") << ": " << A;
    // The rest of the command is intact.
    EXPECT_TRUE(containsArgument(T.ClangArgs, "-O2")) << H.Name;
    EXPECT_TRUE(containsArgument(T.ClangArgs, "-DOK=1")) << H.Name;
    EXPECT_TRUE(containsArgument(T.ClangArgs, "kernel.cu")) << H.Name;
    EXPECT_FALSE(T.Dropped.empty()) << H.Name;
    EXPECT_TRUE(anyContains(T.Dropped, "evil")) << H.Name;
  }
}

const Hostile HostileFlags[] = {
    {"ccbin separate", {"-ccbin", "/tmp/evil/g++"}},
    {"ccbin joined", {"-ccbin=/tmp/evil/g++"}},
    {"compiler-bindir separate", {"--compiler-bindir", "/tmp/evil"}},
    {"compiler-bindir joined", {"--compiler-bindir=/tmp/evil"}},
    {"options-file separate", {"--options-file", "/tmp/evil.opts"}},
    {"options-file joined", {"--options-file=/tmp/evil.opts"}},
    {"optf", {"-optf", "/tmp/evil.opts"}},
    {"optf joined", {"-optf=/tmp/evil.opts"}},
    {"Xclang load", {"-Xclang", "-load", "-Xclang", "/tmp/evil.so"}},
    {"Xclang plugin",
     {"-Xclang", "-plugin", "-Xclang", "evil", "-Xclang", "-add-plugin",
      "-Xclang", "evil2"}},
    {"Xclang joined", {"-Xclang=-load", "-Xclang=/tmp/evil.so"}},
    {"fplugin", {"-fplugin=/tmp/evil.so"}},
    {"fplugin-arg", {"-fplugin-arg-evil-x=1"}},
    {"fpass-plugin", {"-fpass-plugin=/tmp/evil.so"}},
    {"load", {"-load", "/tmp/evil.so"}},
    {"plugin", {"-plugin", "evil"}},
    {"config separate", {"--config", "/tmp/evil.cfg"}},
    {"config joined", {"--config=/tmp/evil.cfg"}},
    {"config dirs",
     {"--config-system-dir=/tmp/evil", "--config-user-dir=/tmp/evil"}},
    {"B joined", {"-B/tmp/evil"}},
    {"B separate", {"-B", "/tmp/evil"}},
    {"prefix", {"--prefix=/tmp/evil", "--prefix", "/tmp/evil2"}},
    {"gcc-toolchain", {"--gcc-toolchain=/tmp/evil"}},
    {"gcc-toolchain separate", {"--gcc-toolchain", "/tmp/evil"}},
    {"gcc-install-dir", {"--gcc-install-dir=/tmp/evil"}},
    {"ccc", {"-ccc-install-dir", "/tmp/evil", "-ccc-gcc-name", "evil-gcc"}},
    {"no-integrated-as",
     {"-no-integrated-as", "-fno-integrated-as", "-Wa,--evil"}},
    {"integrated cc1", {"-fno-integrated-cc1", "-Xassembler", "evil"}},
    {"fuse-ld", {"-fuse-ld=/tmp/evil/ld"}},
    {"response file", {"@/tmp/evil.rsp"}},
    {"response file as a value",
     {"-D", "@/tmp/evil.rsp", "-include", "@/tmp/evil2.rsp"}},
    {"response file in nvcc lists",
     {"--include-path=@/tmp/evil", "--define-macro", "@/tmp/evil"}},
    {"Wp", {"-Wp,-load,/tmp/evil.so"}},
    {"Xpreprocessor", {"-Xpreprocessor", "/tmp/evil"}},
    {"mllvm", {"-mllvm", "-evil-option", "-mllvm=-evil"}},
    {"Xcompiler plugin", {"-Xcompiler=-fplugin=/tmp/evil.so"}},
    {"Xcompiler Xclang", {"-Xcompiler", "-Xclang,-load,-Xclang,/tmp/evil.so"}},
    {"Xcompiler B", {"-Xcompiler=-B/tmp/evil"}},
    {"Xcompiler response file", {"-Xcompiler=@/tmp/evil.rsp"}},
    {"Xlinker", {"-Xlinker", "--evil", "-Wl,--evil"}},
    {"resource-dir", {"-resource-dir", "/tmp/evil", "-resource-dir=/tmp/evil"}},
    {"cuda-path", {"--cuda-path=/tmp/evil"}},
    {"ptxas-path", {"--ptxas-path=/tmp/evil/ptxas"}},
    {"module file",
     {"-fmodule-file=/tmp/evil.pcm", "-fmodules",
      "-fmodules-cache-path=/tmp/evil", "-fprebuilt-module-path=/tmp/evil"}},
    {"pch", {"-include-pch", "/tmp/evil.pch"}},
    {"vfs overlay", {"-ivfsoverlay", "/tmp/evil.yaml"}},
    {"sysroot", {"--sysroot=/tmp/evil", "-isysroot", "/tmp/evil"}},
    {"save-temps", {"-save-temps=/tmp/evil", "--save-temps"}},
    {"time-trace", {"-ftime-trace=/tmp/evil.json"}},
    {"crash dir", {"-fcrash-diagnostics-dir=/tmp/evil"}},
    {"MJ", {"-MJ", "/tmp/evil.json"}},
    {"serialize diagnostics", {"-serialize-diagnostics", "/tmp/evil.dia"}},
    {"working-directory", {"-working-directory", "/tmp/evil"}},
    {"driver-mode", {"--driver-mode=evil-cl"}},
    {"target", {"-target", "evil-triple", "--target=evil-triple"}},
    {"Xarch",
     {"-Xarch_device", "-fplugin=/tmp/evil.so",
      "-Xarch_host=-fplugin=/tmp/evil.so"}},
    {"Xcuda-ptxas", {"-Xcuda-ptxas", "/tmp/evil"}},
    {"Xopenmp-target", {"-Xopenmp-target=evil-triple", "-fevil-x"}},
    {"offload", {"-fopenmp-targets=evil", "-foffload=/tmp/evil"}},
    {"profile",
     {"-fprofile-use=/tmp/evil.profdata",
      "-fprofile-instr-generate=/tmp/evil"}},
    {"optimization record",
     {"-fsave-optimization-record", "-foptimization-record-file=/tmp/evil"}},
    {"Xptxas", {"-Xptxas", "/tmp/evil"}},
    {"Xnvlink", {"-Xnvlink", "/tmp/evil"}},
    {"Xcudafe", {"-Xcudafe", "/tmp/evil"}},
    {"output", {"-o", "/tmp/evil.o", "-odir", "/tmp/evil"}},
    {"keep-dir", {"-keep-dir", "/tmp/evil"}},
    {"libraries", {"-L/tmp/evil", "-levil", "-l", "evil"}},
};

INSTANTIATE_TEST_SUITE_P(CompileCommand, HostileFlagTest,
                         ::testing::ValuesIn(HostileFlags),
                         [](const ::testing::TestParamInfo<Hostile> &Info) {
                           std::string Name;
                           for (char C : std::string(Info.param.Name))
                             Name += std::isalnum(static_cast<unsigned char>(C))
                                         ? C
                                         : '_';
                           return Name;
                         });

TEST(CompileCommandTest, NoProgramOrPluginFlagSurvivesAtAll) {
  // Every hostile flag at once; then a scan for anything that could name a
  // program or plugin in what remains.
  Args In = {"/usr/local/cuda/bin/nvcc"};
  for (const Hostile &H : HostileFlags)
    In.insert(In.end(), H.Flags.begin(), H.Flags.end());
  In.push_back("kernel.cu");
  TranslatedCommand T = translateCompileCommand(In);
  for (const std::string &A : T.ClangArgs) {
    llvm::StringRef S(A);
    EXPECT_FALSE(S.contains("evil")) << A;
    EXPECT_FALSE(S.starts_with("@")) << A;
    EXPECT_FALSE(S.starts_with("-B")) << A;
    EXPECT_FALSE(S.starts_with("-X")) << A;
    EXPECT_FALSE(S.contains("plugin")) << A;
    EXPECT_FALSE(S.starts_with("--config")) << A;
    EXPECT_FALSE(S.starts_with("-load")) << A;
    EXPECT_FALSE(S.contains("integrated")) << A;
  }
  EXPECT_TRUE(containsArgument(T.ClangArgs, "kernel.cu"));
}

//===----------------------------------------------------------------------===//
// End to end: the translated CMake command parses with clang++-19.
//===----------------------------------------------------------------------===//

std::string sourceRoot() {
  llvm::SmallString<256> P(__FILE__);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_filename(P);
  llvm::sys::path::append(P, "..", "..");
  llvm::sys::path::remove_dots(P, true);
  return std::string(P);
}

/// Runs clang on \p File with the CMake command's translated flags plus the
/// CUDA environment \p Env; returns clang's exit code (-1: not run).
int parseWithClang(const std::string &File, const Args &Env, bool DeviceOnly,
                   std::string &Output) {
  llvm::ErrorOr<std::string> Clang = llvm::sys::findProgramByName("clang++-19");
  if (!Clang)
    return -1;
  Args Cmd = CMakeNvccCommand;
  Cmd.back() = "out.o";
  for (std::string &A : Cmd)
    if (llvm::StringRef(A).ends_with("transpose.cu"))
      A = File;
  TranslatedCommand T = translateCompileCommand(Cmd);
  // The CUDA environment goes right after the compiler, before the
  // database's flags (which name the real toolkit's include folder here).
  Args Argv = {*Clang, "-fsyntax-only"};
  Argv.insert(Argv.end(), Env.begin(), Env.end());
  Argv.insert(Argv.end(), T.ClangArgs.begin(), T.ClangArgs.end());
  if (DeviceOnly)
    Argv.push_back("--cuda-device-only");
  else
    Argv.push_back("--cuda-host-only");
  std::vector<llvm::StringRef> Refs(Argv.begin(), Argv.end());
  llvm::SmallString<128> OutFile;
  llvm::sys::fs::createTemporaryFile("warpcheck-clang", "txt", OutFile);
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, OutFile.str(),
                                                OutFile.str()};
  int RC = llvm::sys::ExecuteAndWait(*Clang, Refs, std::nullopt, Redirects);
  if (auto Buf = llvm::MemoryBuffer::getFile(OutFile))
    Output = (*Buf)->getBuffer().str();
  llvm::sys::fs::remove(OutFile);
  return RC;
}

TEST(CompileCommandEndToEndTest, TranslatedCommandParsesWithoutToolkit) {
  std::string Root = sourceRoot();
  std::string File = Root + "/test/inputs/no-toolkit/host_api.cu";
  if (!llvm::sys::fs::exists(File))
    GTEST_SKIP() << "inputs not found";
  Args Env = cudaParseArguments(std::nullopt, Root + "/tool/include");
  // An empty --cuda-path: clang finds no toolkit even where one exists.
  llvm::SmallString<128> Empty;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("warpcheck-nocuda", Empty));
  Env.push_back(("--cuda-path=" + Empty).str());
  for (bool Device : {false, true}) {
    std::string Out;
    int RC = parseWithClang(File, Env, Device, Out);
    if (RC == -1)
      GTEST_SKIP() << "clang++-19 not found";
    EXPECT_EQ(RC, 0) << Out;
    EXPECT_EQ(Out, "");
  }
  llvm::sys::fs::remove(Empty);
}

TEST(CompileCommandEndToEndTest, TranslatedCommandParsesWithThisToolkit) {
  std::string Diag;
  CudaSearchInputs In;
  std::optional<CudaToolkit> TK = findCudaToolkit(In, Diag);
  if (!TK)
    GTEST_SKIP() << "no CUDA toolkit at /usr/local/cuda";
  std::string Root = sourceRoot();
  std::string File = Root + "/test/inputs/no-toolkit/warp_intrinsics.cu";
  if (!llvm::sys::fs::exists(File))
    GTEST_SKIP() << "inputs not found";
  Args Env = cudaParseArguments(TK, Root + "/tool/include");
  for (bool Device : {false, true}) {
    std::string Out;
    int RC = parseWithClang(File, Env, Device, Out);
    if (RC == -1)
      GTEST_SKIP() << "clang++-19 not found";
    EXPECT_EQ(RC, 0) << Out;
  }
}

} // namespace
