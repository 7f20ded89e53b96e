//===- NvccInvocationTest.cpp - the nvcc command line and its guards ------===//
//
// A hostile compile database starts nothing but the located toolkit's nvcc:
// the characters nvcc may hand to its shell, the flags that survive, the
// argument vector, architecture names, the toolkit check
// (toolchain/NvccInvocation.h).
//
//===----------------------------------------------------------------------===//

#include "ArgumentLists.h"
#include "TempDir.h"
#include "warpcheck/toolchain/CudaArch.h"
#include "warpcheck/toolchain/NvccInvocation.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace warpcheck::toolchain;
using warpcheck::testing::containsArgument;

namespace {

using warpcheck::test::exists;
struct TempDir : warpcheck::test::TempDir {
  TempDir() : warpcheck::test::TempDir("warpcheck-nvcctest") {}
};

//===--- Guards -----------------------------------------------------------===//

TEST(RegisterGuards, ShellSafeCharacters) {
  EXPECT_TRUE(isShellSafeArgument("/usr/local/cuda/bin/nvcc"));
  EXPECT_TRUE(isShellSafeArgument("-DVERSION=1.2.3"));
  EXPECT_TRUE(isShellSafeArgument("-I/home/me/my project/include"));
  EXPECT_TRUE(isShellSafeArgument("-DF(x)=x", /*ForMacro=*/true));
  EXPECT_FALSE(isShellSafeArgument("-DF(x)=x"));
  for (const char *Bad : {"-DX=$(touch /tmp/x)", "-DX=`touch /tmp/x`", "-DX=a;touch x",
                          "-DX=\"s\"", "-DX='s'", "-DX=a|b", "-DX=a&b", "-DX=a>b", "-DX=a\\b",
                          "-DX=a\nb", "-DX=${HOME}", "-DX=*", ""})
    EXPECT_FALSE(isShellSafeArgument(Bad, /*ForMacro=*/true)) << Bad;
}

TEST(RegisterGuards, OnlyAllowListedFlagsSurvive) {
  std::vector<std::string> Command = {
      "/usr/bin/nvcc", "-ccbin=/tmp/evil.sh", "-ccbin", "/tmp/evil.sh",
      "--compiler-bindir=/tmp/evil", "--compiler-bindir", "/tmp/evil",
      "--options-file", "/tmp/opts.txt", "-optf", "/tmp/opts.txt", "-Xptxas", "-O0",
      "-Xcompiler", "-fplugin=/tmp/x.so", "-Xcompiler=-B/tmp", "--keep-dir", "/tmp/k",
      "-I", "inc", "-Iinc2", "--include-path=/opt/x/include", "-isystem", "/opt/sys",
      "-DOK=1", "-D", "ALSO", "--define-macro=THIRD=3", "-DBAD=$(touch /tmp/x)",
      "-DTICK=`touch /tmp/x`", "-UFOO", "-std=gnu++17", "-maxrregcount=64",
      "--maxrregcount", "40", "-c", "file.cu", "-o", "file.o"};
  SanitizedFlags F = sanitizeCompileFlags(Command, "/work");
  std::vector<std::string> Expected = {"-I/work/inc", "-I/work/inc2", "-I/opt/x/include",
                                       "-isystem", "/opt/sys", "-DOK=1", "-DALSO",
                                       "-DTHIRD=3", "-UFOO", "-std=c++17"};
  EXPECT_EQ(F.Kept, Expected);
  EXPECT_EQ(F.MaxRegisterCount, 40u);
  EXPECT_TRUE(containsArgument(F.Refused, "-DBAD=$(touch /tmp/x)"));
  EXPECT_TRUE(containsArgument(F.Refused, "-DTICK=`touch /tmp/x`"));
  for (const char *D : {"-ccbin=/tmp/evil.sh", "-ccbin /tmp/evil.sh",
                        "--compiler-bindir=/tmp/evil", "--compiler-bindir /tmp/evil",
                        "--options-file /tmp/opts.txt", "-optf /tmp/opts.txt", "-Xptxas -O0",
                        "-Xcompiler -fplugin=/tmp/x.so", "-Xcompiler=-B/tmp", "-o file.o"})
    EXPECT_TRUE(containsArgument(F.Dropped, D)) << D;
  for (const std::string &K : F.Kept)
    EXPECT_EQ(K.find("evil"), std::string::npos) << K;
}

TEST(RegisterGuards, ValuesOfDroppedFlagsAreNotReadAsFlags) {
  // "-Xcompiler -I/x" hands -I/x to the host compiler only; "-o -DX" names
  // an output file.
  SanitizedFlags F = sanitizeCompileFlags(
      {"-Xcompiler", "-I/hostonly", "-o", "-DNOTAMACRO", "-ccbin", "-DALSO_NOT"}, "/w");
  EXPECT_TRUE(F.Kept.empty()) << llvm::join(F.Kept, " ");
}

TEST(RegisterGuards, StandardsAndRegisterCounts) {
  EXPECT_EQ(sanitizeCompileFlags({"-std=c++1z"}, "").Kept,
            std::vector<std::string>{"-std=c++17"});
  EXPECT_EQ(sanitizeCompileFlags({"--std", "c++20"}, "").Kept,
            std::vector<std::string>{"-std=c++20"});
  EXPECT_TRUE(sanitizeCompileFlags({"-std=c++2c"}, "").Kept.empty());
  EXPECT_TRUE(sanitizeCompileFlags({"-std=$(x)"}, "").Kept.empty());
  EXPECT_FALSE(sanitizeCompileFlags({"-maxrregcount=300"}, "").MaxRegisterCount);
  EXPECT_FALSE(sanitizeCompileFlags({"-maxrregcount=$(x)"}, "").MaxRegisterCount);
  EXPECT_EQ(sanitizeCompileFlags({"-maxrregcount=64", "-maxrregcount=32"}, "").MaxRegisterCount,
            32u);
}

TEST(RegisterGuards, ToolchainIncludeFoldersAreLeftToNvcc) {
  SanitizedFlags F = sanitizeCompileFlags(
      {"-isystem", "/usr/include", "-I/usr/local/include", "-isystem",
       "/usr/lib/llvm-19/lib/clang/19/include/cuda_wrappers", "-isystem",
       "/usr/local/cuda/include/cccl", "-I/project/include"},
      "");
  EXPECT_EQ(F.Kept, std::vector<std::string>{"-I/project/include"});
  EXPECT_TRUE(F.Refused.empty());
}

TEST(RegisterGuards, IncludePathsForNvccAreAbsoluteWhateverTheDirectory) {
  // nvcc runs in a folder of its own: a relative path would name another
  // file. A compile database whose "directory" is relative (found by the
  // compile_command fuzz target) gave "-Irel/inc".
  llvm::SmallString<256> Cwd;
  ASSERT_FALSE(llvm::sys::fs::current_path(Cwd));
  for (llvm::StringRef Dir : {"rel", ""}) {
    SanitizedFlags F = sanitizeCompileFlags({"-Iinc", "-isystem", "sys", "-include", "c.h"}, Dir);
    std::string Base = (Cwd + (Dir.empty() ? "" : "/" + Dir.str())).str();
    EXPECT_EQ(F.Kept, (std::vector<std::string>{"-I" + Base + "/inc", "-isystem", Base + "/sys",
                                                 "-include", Base + "/c.h"}))
        << "directory '" << Dir.str() << "'";
  }
}

TEST(RegisterGuards, UnsafeIncludePathsAreRefused) {
  SanitizedFlags F = sanitizeCompileFlags({"-I/tmp/$(touch x)", "-isystem", "/a`b`"}, "");
  EXPECT_TRUE(F.Kept.empty());
  EXPECT_EQ(F.Refused.size(), 2u);
}

TEST(RegisterGuards, RelocatableDeviceCodeAsTheBuildSays) {
  // nvcc is run as the build compiles: ptxas merges no __shared__ access
  // of a relocatable unit (UnrolledMerges.h), so its instructions differ.
  EXPECT_FALSE(sanitizeCompileFlags({"-DN=4"}, "").RelocatableDeviceCode);
  EXPECT_TRUE(sanitizeCompileFlags({"-rdc=true"}, "").RelocatableDeviceCode);
  EXPECT_TRUE(sanitizeCompileFlags({"--relocatable-device-code", "true"}, "").RelocatableDeviceCode);
  EXPECT_TRUE(sanitizeCompileFlags({"-dc"}, "").RelocatableDeviceCode);
  EXPECT_TRUE(sanitizeCompileFlags({"-fgpu-rdc"}, "").RelocatableDeviceCode);
  EXPECT_FALSE(sanitizeCompileFlags({"-rdc=true", "-rdc=false"}, "").RelocatableDeviceCode);
  EXPECT_FALSE(sanitizeCompileFlags({"-fgpu-rdc", "-fno-gpu-rdc"}, "").RelocatableDeviceCode);
  // Only warpcheck's own spelling reaches nvcc.
  SanitizedFlags F = sanitizeCompileFlags({"--relocatable-device-code=true"}, "");
  EXPECT_TRUE(F.Kept.empty());
  std::string Error;
  auto Args = nvccArguments("/opt/cuda", "sm_90", F, std::nullopt, "/tmp/w/unit.cu",
                            "/tmp/w/unit.cubin", &Error, F.RelocatableDeviceCode);
  ASSERT_TRUE(Args) << Error;
  EXPECT_TRUE(containsArgument(*Args, "-rdc=true"));
  EXPECT_FALSE(containsArgument(*Args, "--relocatable-device-code=true"));
}

TEST(RegisterGuards, NvccArgumentVector) {
  SanitizedFlags F = sanitizeCompileFlags({"-DN=4", "-I/p/inc", "-maxrregcount=48"}, "");
  std::string Error;
  auto Args = nvccArguments("/opt/cuda", "sm_90a", F, 64u, "/tmp/w/unit.cu", "/tmp/w/unit.cubin",
                            &Error);
  ASSERT_TRUE(Args) << Error;
  EXPECT_EQ(Args->front(), "/opt/cuda/bin/nvcc");
  EXPECT_EQ(Args->back(), "/tmp/w/unit.cu");
  for (const char *A : {"-cubin", "-arch=sm_90a", "-Xptxas", "-v", "-lineinfo", "-maxrregcount=48",
                        "-DN=4", "-I/p/inc"})
    EXPECT_TRUE(containsArgument(*Args, A)) << A;
  EXPECT_FALSE(containsArgument(*Args, "-rdc=true"));
  // Anything not shell-safe stops the run, whatever its origin.
  EXPECT_FALSE(nvccArguments("/opt/cuda", "sm_90", F, std::nullopt, "/tmp/$(x)/unit.cu",
                             "/tmp/o.cubin", &Error));
  EXPECT_FALSE(nvccArguments("/opt/cuda", "sm_90;rm", F, std::nullopt, "/tmp/u.cu",
                             "/tmp/o.cubin", &Error));
}

TEST(RegisterGuards, ArchitectureNames) {
  EXPECT_EQ(nvccArchName("sm_90"), "sm_90");
  EXPECT_EQ(nvccArchName("SM_90A"), "sm_90a");
  EXPECT_EQ(nvccArchName("compute_80"), "sm_80");
  EXPECT_EQ(nvccArchName("9.0"), "sm_90");
  EXPECT_EQ(nvccArchName("120"), "sm_120");
  EXPECT_FALSE(nvccArchName("sm_90;touch x"));
  EXPECT_FALSE(nvccArchName("g80"));
  EXPECT_FALSE(nvccArchName(""));
}

TEST(RegisterGuards, ToolkitRootIsOnlyChecked) {
  TempDir T;
  std::string Why;
  EXPECT_FALSE(validateToolkitRoot("", &Why));
  EXPECT_FALSE(validateToolkitRoot(T.Path, &Why));
  EXPECT_NE(Why.find("bin/nvcc"), std::string::npos) << Why;
  // A bin/nvcc that would leave a marker if it ever ran: validating the
  // folder does not run it.
  llvm::sys::fs::create_directories(T.file("bin"));
  std::string Marker = T.file("ran");
  T.write("bin/nvcc", "#!/bin/sh\ntouch " + Marker + "\n");
  llvm::sys::fs::setPermissions(T.file("bin/nvcc"), llvm::sys::fs::all_read |
                                                        llvm::sys::fs::all_exe |
                                                        llvm::sys::fs::owner_write);
  EXPECT_TRUE(validateToolkitRoot(T.Path, &Why)) << Why;
  EXPECT_FALSE(exists(Marker));
}

} // namespace
