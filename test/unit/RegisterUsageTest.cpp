//===- RegisterUsageTest.cpp - registers per thread: guards, ptxas, estimate -===//
//
// The security guards of the ptxas runner (hostile compile databases must
// never make warpcheck start anything but the toolkit's own nvcc, and nvcc
// must never hand a hostile value to its shell), the ptxas output parser,
// the name matching between nvcc and clang, the disk cache, the estimator
// and occupancyFor. Tests that need a CUDA toolkit skip without one; the
// clang-tidy tests skip unless WARPCHECK_PLUGIN and WARPCHECK_CLANG_TIDY
// name a built plugin and clang-tidy-19.
//
//===----------------------------------------------------------------------===//

#include "ArgumentLists.h"
#include "CudaTestUnit.h"
#include "TempDir.h"
#include "warpcheck/analysis/KernelResources.h"
#include "warpcheck/analysis/RegisterUsage.h"
#include "warpcheck/analysis/TranslationUnitSession.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace warpcheck::analysis;
using warpcheck::testing::containsArgument;

#ifndef WARPCHECK_CLANG_RESOURCE_DIR
#define WARPCHECK_CLANG_RESOURCE_DIR "/usr/lib/llvm-19/lib/clang/19"
#endif

namespace {

using warpcheck::test::exists;
using warpcheck::testing::kernelNamed;
struct TempDir : warpcheck::test::TempDir {
  TempDir() : warpcheck::test::TempDir("warpcheck-regtest") {}
};

std::optional<std::string> toolkit() { return defaultToolkitRoot(); }

const char *SimpleKernel = R"(
__global__ void scale(float *a, float s) { a[threadIdx.x] *= s; }
int main() { scale<<<1, 32>>>(nullptr, 2.0f); return 0; }
)";

TEST(RegisterModes, Parse) {
  EXPECT_EQ(parseRegisterMode(""), RegisterMode::Auto);
  EXPECT_EQ(parseRegisterMode("Auto"), RegisterMode::Auto);
  EXPECT_EQ(parseRegisterMode("ptxas"), RegisterMode::Ptxas);
  EXPECT_EQ(parseRegisterMode(" ESTIMATE "), RegisterMode::Estimate);
  EXPECT_FALSE(parseRegisterMode("nvcc"));
  EXPECT_STREQ(registerSourceName(RegisterSource::Ptxas), "ptxas");
  EXPECT_STREQ(registerSourceName(RegisterSource::Estimate), "estimate");
}

//===--- ptxas output and names -------------------------------------------===//

TEST(PtxasOutput, Parse) {
  const char *Text =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z10occ_kernelILi40ELi1024EEvPfii' for "
      "'sm_90'\n"
      "ptxas info    : Function properties for _Z10occ_kernelILi40ELi1024EEvPfii\n"
      "    216 bytes stack frame, 500 bytes spill stores, 500 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 1 barriers, 216 bytes cumulative stack size, "
      "1024 bytes smem\n"
      "ptxas info    : Compile time = 12.000 ms\n"
      "ptxas info    : Compiling entry function '_Z12empty_kernelPfii' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z12empty_kernelPfii\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 4 registers, used 0 barriers, 360 bytes cmem[0]\n";
  auto R = parsePtxasOutput(Text);
  ASSERT_EQ(R.size(), 2u);
  const FunctionRegisters &K = R.at("_Z10occ_kernelILi40ELi1024EEvPfii");
  EXPECT_EQ(K.Registers, 40u);
  EXPECT_EQ(K.Source, RegisterSource::Ptxas);
  EXPECT_EQ(K.Arch, "sm_90");
  EXPECT_EQ(K.SharedBytes, 1024u);
  EXPECT_EQ(K.StackFrameBytes, 216u);
  EXPECT_EQ(K.SpillStoreBytes, 500u);
  EXPECT_EQ(K.SpillLoadBytes, 500u);
  EXPECT_EQ(K.Barriers, 1u);
  const FunctionRegisters &E = R.at("_Z12empty_kernelPfii");
  EXPECT_EQ(E.Registers, 4u);
  EXPECT_EQ(E.SharedBytes, 0u);
  EXPECT_EQ(E.Barriers, 0u);
}

TEST(PtxasOutput, AHeaderWithoutANameGivesNothing) {
  // Garbled output (found by the ptxas_output fuzz target): a header that
  // names no kernel makes no entry, and the "Used" line after it is not
  // given to the kernel before it.
  const char *Text =
      "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
      "ptxas info    : Used 12 registers, used 0 barriers\n"
      "ptxas info    : Compiling entry function '' for 'sm_90'\n"
      "ptxas info    : Used 200 registers, used 1 barriers\n";
  auto R = parsePtxasOutput(Text);
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R.at("_Z1kPf").Registers, 12u);
}

TEST(KernelNames, NvccAndClangSpellingsMeet) {
  // static: clang mangles _ZL, nvcc _Z.
  EXPECT_EQ(normalizedKernelName("_ZL2skPf"), normalizedKernelName("_Z2skPf"));
  // Anonymous namespaces.
  EXPECT_EQ(normalizedKernelName("_ZN12_GLOBAL__N_12akEPf"),
            normalizedKernelName("_ZN37_GLOBAL__N__d6262699_5_k4_cu_3398a4412akEPf"));
  // CCCL's versioned namespaces (nvcc defines __CUDA_ARCH_LIST__, clang not).
  EXPECT_EQ(normalizedKernelName("_ZN3cub32CUB_300001_SM___CUDA_ARCH_LIST__6detail11EmptyKernelIvEEvv"),
            normalizedKernelName("_ZN3cub17CUB_300001_SM_9006detail11EmptyKernelIvEEvv"));
  EXPECT_NE(normalizedKernelName("_Z1aPf"), normalizedKernelName("_Z1bPf"));
}

//===--- The estimate's calibration ---------------------------------------===//

TEST(Estimate, CalibratedCount) {
  // Small kernels: at least the floor, never above the soft target of 32
  // unless their in-order count is above it.
  EXPECT_GE(estimateRegisterCount({0, 0}), 4u);
  EXPECT_LE(estimateRegisterCount({20, 60}), 32u);
  EXPECT_GT(estimateRegisterCount({60, 60}), 32u);
  // Monotonic in both measures.
  EXPECT_LE(estimateRegisterCount({10, 10}), estimateRegisterCount({10, 20}));
  EXPECT_LE(estimateRegisterCount({40, 50}), estimateRegisterCount({50, 50}));
  // With __launch_bounds__(256): no more than keeps the block count the
  // need allows, the need being the larger of the in-order count and 0.8
  // of the scheduled measure. In-order 0.8 x 75 = 60, 0.8 x 80 = 64: 4
  // blocks, up to 64 (the scheduled 1.1 x 80 + 3 = 91, 92 even, is capped).
  EXPECT_EQ(estimateRegisterCount({75, 80}, 256u), 64u);
  // In-order 40 alone would allow 6 blocks (up to 40 registers); 0.8 x 70
  // = 56 allows 4, so the estimate goes to that tier's 64.
  EXPECT_EQ(estimateRegisterCount({50, 70}, 256u), 64u);
  // A need of 0.8 x 200 = 160 allows one block of 256: no cap below 255
  // (1.1 x 200 + 3 = 223, 224 even).
  EXPECT_EQ(estimateRegisterCount({75, 200}, 256u), 224u);
  EXPECT_LE(estimateRegisterCount({400, 400}), 255u);
  // Rounded up to an even count, as ptxas's counts nearly always are
  // (245 of the 269 kernels of bench/register_estimator.py):
  // 1.1 x 7 + 3 = 10.7 is 11, becomes 12; 1.1 x 6 + 3 = 9.6 is 10.
  EXPECT_EQ(estimateRegisterCount({3, 7}), 12u);
  EXPECT_EQ(estimateRegisterCount({3, 6}), 10u);
  for (unsigned S = 0; S < 120; ++S)
    EXPECT_EQ(estimateRegisterCount({S / 2, S}) % 2, 0u) << S;
}

//===--- The live-value measures on NVPTX IR ------------------------------===//

namespace {
/// The measures of function "k" of an NVPTX module given as IR text.
LiveValueMeasures measuresOf(const std::string &Body) {
  llvm::LLVMContext Ctx;
  llvm::SMDiagnostic Err;
  std::string Text = "target datalayout = \"e-i64:64-i128:128-v16:16-v32:32-n16:32:64\"\n"
                     "target triple = \"nvptx64-nvidia-cuda\"\n" +
                     Body;
  std::unique_ptr<llvm::Module> M = llvm::parseAssemblyString(Text, Err, Ctx);
  if (!M) {
    std::string Msg;
    llvm::raw_string_ostream OS(Msg);
    Err.print("ir", OS);
    ADD_FAILURE() << OS.str();
    return {};
  }
  const llvm::Function *F = M->getFunction("k");
  EXPECT_NE(F, nullptr);
  return F ? measureLiveValues(*F) : LiveValueMeasures{};
}
} // namespace

TEST(LiveValues, Int64DivisionCallsASubroutine) {
  // ptxas calls its own 64-bit division subroutine (R0 to R17 on sm_90)
  // for a divisor that is not a constant; a constant one is a multiply.
  const char *Kernel = R"(
define void @k(ptr addrspace(1) %out, i64 %a, i64 %d) {
  %q = sdiv i64 %a, DIVISOR
  store i64 %q, ptr addrspace(1) %out
  ret void
}
)";
  std::string ByValue = Kernel, ByConstant = Kernel;
  ByValue.replace(ByValue.find("DIVISOR"), 7, "%d");
  ByConstant.replace(ByConstant.find("DIVISOR"), 7, "7");
  LiveValueMeasures V = measuresOf(ByValue), C = measuresOf(ByConstant);
  EXPECT_GE(V.Scheduled, C.Scheduled + 14);
  EXPECT_GE(V.InOrder, 14u);
  EXPECT_LT(C.InOrder, 14u);
}

TEST(LiveValues, MemoryInstructionsHoldTheRegistersTheyRead) {
  // Copies out[i] = a[i] one after another: each value dies at its store,
  // but a store reads its data register after issue, so ptxas puts the
  // next value in a fresh register; eight copies hold eight values.
  auto Copies = [](int N) {
    std::string Body = "define void @k(ptr addrspace(1) %a, ptr addrspace(1) %out) {\n";
    for (int I = 0; I < N; ++I) {
      std::string K = std::to_string(I);
      Body += "  %pa" + K + " = getelementptr i32, ptr addrspace(1) %a, i64 " + K + "\n" +
              "  %x" + K + " = load volatile i32, ptr addrspace(1) %pa" + K + "\n" +
              "  %po" + K + " = getelementptr i32, ptr addrspace(1) %out, i64 " + K + "\n" +
              "  store volatile i32 %x" + K + ", ptr addrspace(1) %po" + K + "\n";
    }
    return Body + "  ret void\n}\n";
  };
  LiveValueMeasures One = measuresOf(Copies(1)), Eight = measuresOf(Copies(8));
  EXPECT_EQ(Eight.Scheduled, One.Scheduled + 7);
  EXPECT_EQ(Eight.InOrder, One.InOrder); // the in-order count reuses them
}

TEST(LiveValues, TextureFetchHoldsOnlyTheChannelsRead) {
  // tex.2d returns four channels; ptxas allocates the ones read: a fetch
  // of which only .x is read costs what a one-channel result costs, and
  // less than one whose four channels are all read.
  const char *Kernel = R"(
define void @k(ptr addrspace(1) %out, i64 %tex, float %x, float %y) {
  %t = call RESULT asm "tex.2d.v4.f32.f32\t{$0, $1, $2, $3}, [$4, {$5, $6}];", "CONSTRAINTS"(i64 %tex, float %x, float %y)
  READ
  store float %v, ptr addrspace(1) %out
  ret void
}
)";
  const std::string Four = "{ float, float, float, float }";
  auto Make = [&](const std::string &Result, const std::string &Read) {
    std::string K = Kernel;
    K.replace(K.find("RESULT"), 6, Result);
    K.replace(K.find("CONSTRAINTS"), 11,
              Result == "float" ? "=f,l,f,f" : "=f,=f,=f,=f,l,f,f");
    K.replace(K.find("READ"), 4, Read);
    return measuresOf(K);
  };
  LiveValueMeasures X = Make(Four, "%c0 = extractvalue " + Four + " %t, 0\n  %v = fadd float %c0, 1.0");
  LiveValueMeasures Scalar = Make("float", "%v = fadd float %t, 1.0");
  LiveValueMeasures All = Make(Four, "%c0 = extractvalue " + Four + " %t, 0\n"
                                     "  %c1 = extractvalue " + Four + " %t, 1\n"
                                     "  %c2 = extractvalue " + Four + " %t, 2\n"
                                     "  %c3 = extractvalue " + Four + " %t, 3\n"
                                     "  %s1 = fadd float %c0, %c1\n  %s2 = fadd float %c2, %c3\n"
                                     "  %v = fadd float %s1, %s2");
  EXPECT_EQ(X.Scheduled, Scalar.Scheduled);
  EXPECT_GE(All.Scheduled, X.Scheduled + 3);
}

TEST(LiveValues, SharedAddressWidenedTo64BitsIsOneRegister) {
  // cvta/ptrtoint of a shared address: the upper half is zero (RZ).
  const char *Kernel = R"(
define void @k(ptr addrspace(1) %out, ptr addrspace(AS) %p) {
  %a = ptrtoint ptr addrspace(AS) %p to i64
  %b = add i64 %a, 12345
  %c = mul i64 %b, %a
  store i64 %c, ptr addrspace(1) %out
  ret void
}
)";
  std::string Shared = Kernel, Global = Kernel;
  for (std::string *S : {&Shared, &Global})
    for (size_t At; (At = S->find("(AS)")) != std::string::npos;)
      S->replace(At, 4, S == &Shared ? "(3)" : "(1)");
  EXPECT_EQ(measuresOf(Shared).Scheduled + 1, measuresOf(Global).Scheduled);
  EXPECT_EQ(measuresOf(Shared).InOrder, measuresOf(Global).InOrder);
}

TEST(LiveValues, ByValueStructParameterHoldsNoRegister) {
  // A struct passed by value (CUB's iterators and arrays) is the address
  // of its copy in the parameter bank; SASS reads the field from the
  // constant bank at its use. Only the loaded field counts, as it does
  // for a kernel that takes the pointer itself.
  const char *Kernel = R"(
%struct.S = type { ptr addrspace(1), i32 }
define void @k(PARAM) {
  LOAD
  %i = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %w = zext i32 %i to i64
  %q = getelementptr float, ptr addrspace(1) %p, i64 %w
  store float 1.0, ptr addrspace(1) %q
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
)";
  std::string ByValue = Kernel, Plain = Kernel;
  ByValue.replace(ByValue.find("PARAM"), 5, "ptr byval(%struct.S) align 8 %s");
  ByValue.replace(ByValue.find("LOAD"), 4, "%p = load ptr addrspace(1), ptr %s, align 8");
  Plain.replace(Plain.find("PARAM"), 5, "ptr addrspace(1) %p");
  Plain.replace(Plain.find("LOAD"), 4, "");
  LiveValueMeasures V = measuresOf(ByValue), P = measuresOf(Plain);
  EXPECT_GT(P.Scheduled, 0u);
  EXPECT_EQ(V.Scheduled, P.Scheduled);
}

TEST(LiveValues, ShortLibdeviceCallIsNotACall) {
  // Without a toolkit, __popc and __sinf stay calls to libdevice
  // declarations. __nv_popc is one POPC once linked; other math is a real
  // function, charged as an external call.
  const char *Kernel = R"(
define void @k(ptr addrspace(1) %out, i32 %x) {
  %r = call i32 @FUNCTION(i32 %x)
  store i32 %r, ptr addrspace(1) %out
  ret void
}
declare i32 @FUNCTION(i32)
)";
  auto With = [&](const std::string &Name) {
    std::string K = Kernel;
    for (size_t At; (At = K.find("FUNCTION")) != std::string::npos;)
      K.replace(At, 8, Name);
    return measuresOf(K);
  };
  LiveValueMeasures Popc = With("__nv_popc"), Other = With("__nv_some_math_function");
  EXPECT_LE(Popc.Scheduled, 6u);
  EXPECT_GE(Other.Scheduled, Popc.Scheduled + 10);
}

TEST(LiveValues, RecursiveCallIsChargedAsACallThroughTheStack) {
  // A recursive call (direct, or through another function) is charged as
  // a call to a function without a body, not measured again: the same
  // measure as with the recursive call made to a declaration. (It used to
  // recurse without end and overflow the stack, in clang-tidy's process.)
  const char *Module = R"(
define void @k(ptr addrspace(1) %out, i32 %x) {
  %r = call i32 @f(ptr addrspace(1) %out, i32 %x)
  store i32 %r, ptr addrspace(1) %out
  ret void
}
define i32 @f(ptr addrspace(1) %p, i32 %n) noinline {
  %a = load i32, ptr addrspace(1) %p
  %m = sub i32 %n, 1
  %r = call i32 @RECURSE(ptr addrspace(1) %p, i32 %m)
  %s = add i32 %r, %a
  ret i32 %s
}
define i32 @g(ptr addrspace(1) %p, i32 %n) noinline {
  %r = call i32 @f(ptr addrspace(1) %p, i32 %n)
  ret i32 %r
}
declare i32 @ext(ptr addrspace(1), i32)
)";
  auto With = [&](const std::string &Callee) {
    std::string M = Module;
    M.replace(M.find("RECURSE"), 7, Callee);
    return measuresOf(M);
  };
  LiveValueMeasures Direct = With("f"), Mutual = With("g"), External = With("ext");
  EXPECT_GE(External.Scheduled, 16u);
  EXPECT_EQ(Direct.Scheduled, External.Scheduled);
  EXPECT_EQ(Direct.InOrder, External.InOrder);
  EXPECT_EQ(Mutual.Scheduled, External.Scheduled);
  EXPECT_EQ(Mutual.InOrder, External.InOrder);
}

TEST(LiveValues, DeepCallChainIsBounded) {
  // 500 functions each calling the next: below 64 callers a call is
  // charged as a call through the stack, so the measure stays finite and
  // the native stack it uses bounded.
  std::string Body = "define void @k(ptr addrspace(1) %out) {\n"
                     "  call void @f0(ptr addrspace(1) %out)\n  ret void\n}\n";
  for (int I = 0; I < 500; ++I)
    Body += "define void @f" + std::to_string(I) + "(ptr addrspace(1) %p) noinline {\n" +
            "  store i32 " + std::to_string(I) + ", ptr addrspace(1) %p\n" +
            (I + 1 < 500 ? "  call void @f" + std::to_string(I + 1) + "(ptr addrspace(1) %p)\n"
                         : std::string()) +
            "  ret void\n}\n";
  LiveValueMeasures Deep = measuresOf(Body);
  EXPECT_GE(Deep.Scheduled, 16u);
  EXPECT_LT(Deep.Scheduled, 255u);
}

TEST(Estimate, ShortLibdeviceFunctionNames) {
  for (const char *Name : {"__nv_popc", "__nv_popcll", "__nv_clz", "__nv_ffs", "__nv_brev",
                           "__nv_umulhi", "__nv_float_as_int", "__nv_int_as_float",
                           "__nv_longlong_as_double", "__nv_fmaxf", "__nv_fminf", "__nv_fabsf",
                           "__nv_float2int_rn", "__nv_int2float_rz", "__nv_double2hiint",
                           "__nv_fmaf", "__nv_fadd_rn", "__nv_fast_expf", "__nv_fast_sinf",
                           "__nv_saturatef"})
    EXPECT_TRUE(isShortLibdeviceFunction(Name)) << Name;
  for (const char *Name : {"__nv_sinf", "__nv_expf", "__nv_powf", "__nv_log2f", "__nv_atan2f",
                           "__nv_fast_tanf", "__nv_fast_powf", "__nv_fdiv_rn", "__nv_fsqrt_rn",
                           "__nv_llrintf", "vprintf", "malloc", "__nv_popc_extra"})
    EXPECT_FALSE(isShortLibdeviceFunction(Name)) << Name;
}

//===--- With a CUDA toolkit ----------------------------------------------===//

#define REQUIRE_TOOLKIT(Root)                                                             \
  std::optional<std::string> Root = toolkit();                                          \
  if (!Root)                                                                             \
  GTEST_SKIP() << "no CUDA toolkit ($CUDA_PATH, $CUDA_HOME, /usr/local/cuda)"

TEST(PtxasRun, HostileCompileDatabaseStartsNothingButNvcc) {
  REQUIRE_TOOLKIT(Root);
  TempDir T;
  std::vector<std::string> Markers;
  auto Marker = [&](const std::string &Name) {
    Markers.push_back(T.file(Name));
    return Markers.back();
  };
  // A "compiler" that would leave a marker and an options file pointing at
  // it.
  std::string Evil = T.write("evil.sh", "#!/bin/sh\ntouch " + Marker("evil-ran") +
                                            "\nexec /usr/bin/c++ \"$@\"\n");
  llvm::sys::fs::setPermissions(Evil, llvm::sys::fs::all_all);
  T.write("opts.txt", "-ccbin=" + Evil + "\n");
  std::string Kernel = T.write("kernel.cu", SimpleKernel);
  llvm::json::Array Arguments{
      "nvcc", "-ccbin=" + Evil, "--compiler-bindir", Evil, "--options-file", "opts.txt",
      "-Xcompiler", "-B" + T.Path, "-Xptxas", "--verbose", "--cuda-path=" + T.Path,
      "-DX=$(touch " + Marker("dollar") + ")", "-DY=`touch " + Marker("backquote") + "`",
      "-DZ=a;touch " + Marker("semicolon"), "-c", "kernel.cu", "-o", "kernel.o"};
  llvm::json::Array Entries{llvm::json::Object{
      {"directory", T.Path}, {"file", "kernel.cu"}, {"arguments", std::move(Arguments)}}};
  std::string Database;
  llvm::raw_string_ostream(Database) << llvm::json::Value(std::move(Entries));
  T.write("compile_commands.json", Database);
  std::string Error;
  auto DB = clang::tooling::JSONCompilationDatabase::loadFromFile(
      T.file("compile_commands.json"), Error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  ASSERT_TRUE(DB) << Error;
  auto Commands = DB->getCompileCommands(Kernel);
  ASSERT_EQ(Commands.size(), 1u);

  RegisterOptions O;
  O.Mode = RegisterMode::Ptxas;
  O.ToolkitRoot = *Root;
  O.CompileFlags = Commands[0].CommandLine;
  O.WorkingDirectory = Commands[0].Directory;
  O.CacheDir = "none";
  O.Arch = "sm_90";
  // With the hostile macros: nvcc is not started at all.
  TranslationUnitRegisters R = runPtxas(O, Kernel);
  EXPECT_TRUE(R.ByMangledName.empty());
  EXPECT_NE(R.FallbackReason.find("nvcc was not run"), std::string::npos) << R.FallbackReason;

  // Without them: nvcc runs, with none of the rest.
  std::vector<std::string> Flags;
  for (const std::string &F : Commands[0].CommandLine)
    if (!llvm::StringRef(F).starts_with("-D"))
      Flags.push_back(F);
  O.CompileFlags = Flags;
  R = runPtxas(O, Kernel);
  ASSERT_TRUE(R.FallbackReason.empty()) << R.FallbackReason;
  ASSERT_EQ(R.ByMangledName.count("_Z5scalePff"), 1u);
  EXPECT_GT(R.ByMangledName.at("_Z5scalePff").Registers, 0u);
  EXPECT_TRUE(containsArgument(R.DroppedFlags, "-ccbin=" + Evil));

  // A source file whose name is a command (touch runs where a shell would
  // run it: the current folder).
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  Markers.push_back(std::string(Cwd.str()) + "/warpcheck-filename-marker");
  std::string OddName = T.write("k$(touch warpcheck-filename-marker).cu", SimpleKernel);
  R = runPtxas(O, OddName);
  EXPECT_TRUE(R.FallbackReason.empty()) << R.FallbackReason;
  EXPECT_EQ(R.ByMangledName.count("_Z5scalePff"), 1u);

  for (const std::string &M : Markers)
    EXPECT_FALSE(exists(M)) << M << " was created: a hostile flag ran a program";
}

TEST(PtxasRun, OnlyTheGivenToolkitsNvccRuns) {
  REQUIRE_TOOLKIT(Root);
  TempDir T;
  // A fake toolkit named by the compile command (--cuda-path, -ccbin) and
  // first on PATH.
  llvm::sys::fs::create_directories(T.file("fake/bin"));
  std::string Marker = T.file("fake-ran");
  std::string FakeNvcc = T.write("fake/bin/nvcc", "#!/bin/sh\ntouch " + Marker + "\nexit 1\n");
  llvm::sys::fs::setPermissions(FakeNvcc, llvm::sys::fs::all_all);
  std::string Kernel = T.write("kernel.cu", SimpleKernel);
  std::string OldPath = getenv("PATH") ? getenv("PATH") : "";
  setenv("PATH", (T.file("fake/bin") + ":" + OldPath).c_str(), 1);
  RegisterOptions O;
  O.Mode = RegisterMode::Ptxas;
  O.ToolkitRoot = *Root;
  O.CompileFlags = {"nvcc", "--cuda-path=" + T.file("fake"), "-ccbin", FakeNvcc, "kernel.cu"};
  O.CacheDir = "none";
  TranslationUnitRegisters R = runPtxas(O, Kernel);
  setenv("PATH", OldPath.c_str(), 1);
  EXPECT_TRUE(R.FallbackReason.empty()) << R.FallbackReason;
  EXPECT_EQ(R.ByMangledName.count("_Z5scalePff"), 1u);
  EXPECT_FALSE(exists(Marker));
  // And with no toolkit given, nothing runs.
  O.ToolkitRoot = "";
  R = runPtxas(O, Kernel);
  EXPECT_FALSE(R.FallbackReason.empty());
  EXPECT_FALSE(exists(Marker));
}

TEST(PtxasRun, CacheByContent) {
  REQUIRE_TOOLKIT(Root);
  TempDir T;
  std::string Kernel = T.write("kernel.cu", SimpleKernel);
  RegisterOptions O;
  O.Mode = RegisterMode::Ptxas;
  O.ToolkitRoot = *Root;
  O.CacheDir = T.file("cache");
  TranslationUnitRegisters First = runPtxas(O, Kernel);
  ASSERT_TRUE(First.FallbackReason.empty()) << First.FallbackReason;
  EXPECT_FALSE(First.FromCache);
  TranslationUnitRegisters Second = runPtxas(O, Kernel);
  EXPECT_TRUE(Second.FromCache);
  EXPECT_EQ(Second.ByMangledName.at("_Z5scalePff").Registers,
            First.ByMangledName.at("_Z5scalePff").Registers);
  // Another architecture or another source is another key.
  O.Arch = "sm_80";
  EXPECT_FALSE(runPtxas(O, Kernel).FromCache);
  T.write("kernel.cu", std::string(SimpleKernel) + "// changed\n");
  O.Arch = "sm_90";
  EXPECT_FALSE(runPtxas(O, Kernel).FromCache);
  // A cache folder that cannot be created: no cache, same result.
  T.write("file", "x");
  O.CacheDir = T.file("file/cache");
  EXPECT_EQ(registerCacheDirectory(O), "");
  TranslationUnitRegisters NoCache = runPtxas(O, Kernel);
  EXPECT_TRUE(NoCache.FallbackReason.empty()) << NoCache.FallbackReason;
  EXPECT_FALSE(NoCache.FromCache);
}

// nvcc that runs past its time limit (a kernel that takes minutes to
// compile) is not waited for again by every run: the time-out is cached
// with its limit, like a failure; a longer limit tries again. A fake
// toolkit whose nvcc counts its starts and sleeps.
TEST(PtxasRun, TimeOutsAreCachedWithTheirLimit) {
  TempDir T;
  llvm::sys::fs::create_directories(T.file("toolkit/bin"));
  std::string Starts = T.file("starts");
  std::string Nvcc =
      T.write("toolkit/bin/nvcc", "#!/bin/sh\necho started >> " + Starts + "\nexec sleep 30\n");
  llvm::sys::fs::setPermissions(Nvcc, llvm::sys::fs::all_all);
  std::string Kernel = T.write("kernel.cu", SimpleKernel);
  RegisterOptions O;
  O.Mode = RegisterMode::Ptxas;
  O.ToolkitRoot = T.file("toolkit");
  O.CacheDir = T.file("cache");
  O.Arch = "sm_90";
  O.TimeoutSeconds = 1;
  auto StartCount = [&] {
    auto Text = llvm::MemoryBuffer::getFile(Starts);
    return Text ? static_cast<unsigned>((*Text)->getBuffer().count('\n')) : 0u;
  };
  TranslationUnitRegisters First = runPtxas(O, Kernel);
  EXPECT_FALSE(First.FromCache);
  EXPECT_EQ(First.TimedOutAfterSeconds, 1u);
  EXPECT_NE(First.FallbackReason.find("timed out after 1 s"), std::string::npos)
      << First.FallbackReason;
  EXPECT_EQ(StartCount(), 1u);
  // The same limit: the cached time-out, said to be one, nvcc not started.
  TranslationUnitRegisters Second = runPtxas(O, Kernel);
  EXPECT_TRUE(Second.FromCache);
  EXPECT_EQ(Second.TimedOutAfterSeconds, 1u);
  EXPECT_NE(Second.FallbackReason.find("timed out after 1 s (an earlier run's, cached until "
                                       "the unit changes"),
            std::string::npos)
      << Second.FallbackReason;
  EXPECT_EQ(StartCount(), 1u);
  // A longer limit tries again (and times out again, cached with it).
  O.TimeoutSeconds = 2;
  TranslationUnitRegisters Third = runPtxas(O, Kernel);
  EXPECT_FALSE(Third.FromCache);
  EXPECT_EQ(Third.TimedOutAfterSeconds, 2u);
  EXPECT_EQ(StartCount(), 2u);
}

//===--- The estimate and occupancyFor on real ASTs -----------------------===//

struct ParsedUnit {
  TempDir Dir;
  std::unique_ptr<clang::ASTUnit> AST;
  std::string File;
};

/// Headers written to the unit's folder before it is parsed: {name, text}.
using ExtraFiles = std::vector<std::pair<std::string, std::string>>;

std::unique_ptr<ParsedUnit> parse(const std::string &Code, bool Device,
                                  const std::optional<std::string> &Root,
                                  const ExtraFiles &Files = {},
                                  const std::vector<std::string> &ForcedIncludes = {}) {
  auto U = std::make_unique<ParsedUnit>();
  U->Dir.write("shim/texture_fetch_functions.h", "");
  U->Dir.write("shim/texture_indirect_functions.h", "");
  for (const auto &[Name, Text] : Files)
    U->Dir.write(Name, Text);
  U->File = U->Dir.write("unit.cu", Code);
  std::vector<std::string> Args = {"-resource-dir=" WARPCHECK_CLANG_RESOURCE_DIR,
                                   "--cuda-gpu-arch=sm_90", "-Wno-unknown-cuda-version",
                                   "-isystem", U->Dir.file("shim")};
  for (const std::string &Name : ForcedIncludes) {
    Args.push_back("-include");
    Args.push_back(U->Dir.file(Name));
  }
  if (Device)
    Args.push_back("--cuda-device-only");
  else
    Args.push_back("--cuda-host-only");
  if (Root) {
    Args.push_back("--cuda-path=" + *Root);
  } else {
    Args.push_back("-nocudainc");
    Args.push_back("-nocudalib");
  }
  U->AST = clang::tooling::buildASTFromCodeWithArgs(Code, Args, U->File);
  return U;
}

/// Estimate-mode options for a host-side unit, whose preprocessor Usage is
/// given (the device reparse takes the include paths, macros and forced
/// includes from it).
RegisterOptions hostSideEstimate(ParsedUnit &U, RegisterUsage &Usage) {
  RegisterOptions O;
  O.Mode = RegisterMode::Estimate;
  O.CompileFlags = {"-nocudainc", "-isystem", U.Dir.file("shim")};
  O.SourceFile = U.File;
  Usage.setPreprocessor(&U.AST->getPreprocessor());
  return O;
}

const char *EstimateUnit = R"(
#define G __attribute__((global))
#define LB(t, b) __attribute__((launch_bounds(t, b)))
template <int K> __attribute__((device)) float mix(const float *in, int i, int n) {
  float v[K];
#pragma unroll
  for (int k = 0; k < K; ++k) v[k] = in[k * n + i];
#pragma unroll
  for (int r = 0; r < 2; ++r)
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = v[k] * v[(k + 7) % K] + v[(k + 3) % K];
  float s = 0;
#pragma unroll
  for (int k = 0; k < K; ++k) s += v[k] * (k + 1);
  return s;
}
G void light(const float *in, float *out) {
  int i = __nvvm_read_ptx_sreg_ctaid_x() * 256 + __nvvm_read_ptx_sreg_tid_x();
  out[i] = in[i] + 1.0f;
}
G void heavy(const float *in, float *out, int n) {
  int i = __nvvm_read_ptx_sreg_ctaid_x() * 256 + __nvvm_read_ptx_sreg_tid_x();
  out[i] = mix<60>(in, i, n);
}
G void LB(256, 4) bounded(const float *in, float *out, int n) {
  int i = __nvvm_read_ptx_sreg_ctaid_x() * 256 + __nvvm_read_ptx_sreg_tid_x();
  out[i] = mix<60>(in, i, n);
}
G void sharedUser(float *out) {
  __attribute__((shared)) float tile[1024];
  __attribute__((shared)) double pair[3];
  tile[__nvvm_read_ptx_sreg_tid_x()] = 1;
  pair[0] = 2;
  out[0] = tile[1] + pair[0];
}
)";

TEST(Estimate, DeviceSideASTWithoutToolkit) {
  // No toolkit, no program: clang's own declarations only.
  auto U = parse(EstimateUnit, /*Device=*/true, std::nullopt);
  ASSERT_TRUE(U->AST);
  clang::ASTContext &Ctx = U->AST->getASTContext();
  RegisterOptions O;
  O.Mode = RegisterMode::Estimate;
  TranslationUnitSession Session(Ctx);
  auto &Usage = Session.registers();
  auto Light = Usage.lookup(kernelNamed(Ctx, "light"), O);
  auto Heavy = Usage.lookup(kernelNamed(Ctx, "heavy"), O);
  auto Bounded = Usage.lookup(kernelNamed(Ctx, "bounded"), O);
  ASSERT_TRUE(Light && Heavy && Bounded);
  EXPECT_EQ(Light->Source, RegisterSource::Estimate);
  // ptxas: 10, 72 and 64 (with spills).
  EXPECT_GE(Light->Registers, 6u);
  EXPECT_LE(Light->Registers, 16u);
  EXPECT_GE(Heavy->Registers, 58u);
  EXPECT_LE(Heavy->Registers, 90u);
  EXPECT_LE(Bounded->Registers, 64u);
}

TEST(Estimate, HostSideASTIsParsedAgainForTheDevice) {
  auto U = parse(EstimateUnit, /*Device=*/false, std::nullopt);
  ASSERT_TRUE(U->AST);
  clang::ASTContext &Ctx = U->AST->getASTContext();
  TranslationUnitSession Session(Ctx);
  auto &Usage = Session.registers();
  RegisterOptions O = hostSideEstimate(*U, Usage);
  auto Heavy = Usage.lookup(kernelNamed(Ctx, "heavy"), O);
  ASSERT_TRUE(Heavy) << Usage.translationUnit(O).FallbackReason;
  EXPECT_GE(Heavy->Registers, 58u);
}

TEST(Estimate, DeviceParseErrorIsTheReason) {
  // The host side parses; the device side does not: the estimate is
  // unavailable, and says why with clang's first error (it used to come
  // back empty, without a reason, because the reparse ignored errors).
  const char *Code = R"(
#define G __attribute__((global))
#ifdef __CUDA_ARCH__
int broken = no_such_name_on_the_device;
#endif
G void light(float *out) { out[0] = 1.0f; }
)";
  auto U = parse(Code, /*Device=*/false, std::nullopt);
  ASSERT_TRUE(U->AST);
  clang::ASTContext &Ctx = U->AST->getASTContext();
  TranslationUnitSession Session(Ctx);
  auto &Usage = Session.registers();
  RegisterOptions O = hostSideEstimate(*U, Usage);
  std::string Note;
  EXPECT_FALSE(Usage.lookup(kernelNamed(Ctx, "light"), O, &Note));
  EXPECT_NE(Note.find("the source could not be parsed for the device: use of undeclared "
                      "identifier 'no_such_name_on_the_device'"),
            std::string::npos)
      << Note;
  LaunchConfig L;
  L.Block = Dim3{128, 1, 1};
  std::string WhyNot;
  EXPECT_FALSE(occupancyFor(kernelNamed(Ctx, "light"), L, Session, O, std::nullopt, &WhyNot));
  EXPECT_EQ(WhyNot.rfind("its registers per thread could not be counted (", 0), 0u) << WhyNot;
}

TEST(Estimate, DeviceReparseKeepsForcedIncludes) {
  // warpcheck's no-toolkit arguments force-include the bundled declarations
  // (-include warpcheck_cuda_minimal.h), as nvcc force-includes
  // cuda_runtime.h: the device-side parse of a host-side AST needs them too.
  auto U = parse("G void light(float *out) { out[0] = 1.0f; }\n", /*Device=*/false,
                 std::nullopt, {{"forced.h", "#define G __attribute__((global))\n"}},
                 {"forced.h"});
  ASSERT_TRUE(U->AST);
  clang::ASTContext &Ctx = U->AST->getASTContext();
  TranslationUnitSession Session(Ctx);
  auto &Usage = Session.registers();
  RegisterOptions O = hostSideEstimate(*U, Usage);
  std::string Note;
  auto Light = Usage.lookup(kernelNamed(Ctx, "light"), O, &Note);
  EXPECT_TRUE(Light) << Note;
}

TEST(Occupancy, ReportForALaunch) {
  auto U = parse(EstimateUnit, /*Device=*/true, std::nullopt);
  ASSERT_TRUE(U->AST);
  clang::ASTContext &Ctx = U->AST->getASTContext();
  RegisterOptions O;
  O.Mode = RegisterMode::Estimate;
  O.Arch = "sm_90";
  LaunchConfig L;
  L.Block = Dim3{128, 1, 1};
  L.DynamicSharedBytes = 1000;
  const clang::FunctionDecl *K = kernelNamed(Ctx, "sharedUser");
  StaticSharedMemory S = staticSharedMemory(K, Ctx);
  EXPECT_EQ(S.Bytes, 4096u + 24u);
  EXPECT_EQ(S.Variables.size(), 2u);
  TranslationUnitSession Session(Ctx);
  auto R = occupancyFor(K, L, Session, O);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->RegistersSource, "estimate");
  EXPECT_EQ(R->SharedBytesStatic, 4120u);
  EXPECT_EQ(R->SharedBytesStaticSource, "ast");
  EXPECT_EQ(R->SharedBytesDynamic, 1000u);
  EXPECT_EQ(R->Occupancy.Arch, "sm_90");
  // 4120 + 1000 + 1024 reserved = 6144 bytes: 38 by shared memory, 16 by
  // warps (4 warps per block), 32 block slots: 16 blocks, 64 warps.
  EXPECT_EQ(R->Occupancy.ActiveBlocksPerSM, 16u);
  EXPECT_EQ(R->Occupancy.ActiveWarpsPerSM, 64u);
  EXPECT_DOUBLE_EQ(R->Occupancy.Theoretical, 1.0);
  EXPECT_EQ(R->Occupancy.Limiter, "warps");

  auto Bounds = launchBounds(kernelNamed(Ctx, "bounded"), Ctx);
  ASSERT_TRUE(Bounds);
  EXPECT_EQ(Bounds->MaxThreads, 256u);
  EXPECT_EQ(Bounds->MinBlocks, 4u);
  EXPECT_FALSE(occupancyFor(K, L, Session, [&] {
    RegisterOptions Unknown = O;
    Unknown.Arch = "sm_1234";
    return Unknown;
  }()));
}

TEST(Occupancy, PtxasCountsThroughTheAST) {
  REQUIRE_TOOLKIT(Root);
  auto U = parse(R"(
#include <cuda_runtime.h>
__global__ void scale(float *a, float s) { a[threadIdx.x] *= s; }
static __global__ void hidden(float *a) { a[threadIdx.x] = 1; }
namespace { __global__ void anon(float *a) { a[threadIdx.x] = 2; } }
int main() { scale<<<1, 32>>>(nullptr, 2.0f); hidden<<<1, 32>>>(nullptr);
             anon<<<1, 32>>>(nullptr); return 0; }
)",
                 /*Device=*/true, Root);
  ASSERT_TRUE(U->AST);
  clang::ASTContext &Ctx = U->AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  RegisterOptions O;
  O.Mode = RegisterMode::Ptxas;
  O.ToolkitRoot = *Root;
  O.CacheDir = "none";
  O.SourceFile = U->File;
  O.CompileFlags = {"-isystem", U->Dir.file("shim")};
  TranslationUnitSession Session(Ctx);
  auto &Usage = Session.registers();
  for (const char *Name : {"scale", "hidden", "anon"}) {
    std::string Note;
    auto R = Usage.lookup(kernelNamed(Ctx, Name), O, &Note);
    ASSERT_TRUE(R) << Name;
    EXPECT_EQ(R->Source, RegisterSource::Ptxas) << Name << ": " << Note;
    EXPECT_GT(R->Registers, 0u);
  }
}

//===--- Through clang-tidy -----------------------------------------------===//

#if defined(WARPCHECK_PLUGIN) && defined(WARPCHECK_CLANG_TIDY)
std::string runClangTidy(const std::vector<std::string> &Args, const std::string &Dir) {
  std::string Out = Dir + "/clang-tidy.out";
  std::vector<llvm::StringRef> Refs;
  for (const std::string &A : Args)
    Refs.push_back(A);
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(Out),
                                                llvm::StringRef(Out)};
  llvm::sys::ExecuteAndWait(Refs.front(), Refs, std::nullopt, Redirects, 600);
  auto B = llvm::MemoryBuffer::getFile(Out);
  return B ? (*B)->getBuffer().str() : "";
}

TEST(ClangTidy, HostileArgumentsAndOtherArchitectures) {
  REQUIRE_TOOLKIT(Root);
  if (!exists(WARPCHECK_PLUGIN) || !exists(WARPCHECK_CLANG_TIDY))
    GTEST_SKIP() << "plugin or clang-tidy not built";
  TempDir T;
  T.write("shim/texture_fetch_functions.h", "");
  T.write("shim/texture_indirect_functions.h", "");
  std::string Marker = T.file("marker");
  std::string File = T.write("k.cu", R"(
#include <cuda_runtime.h>
__global__ void small(float *a) { a[threadIdx.x] *= 2.0f; }
int main() { small<<<1, 32>>>(nullptr); return 0; }
)");
  std::vector<std::string> Common = {
      WARPCHECK_CLANG_TIDY, "-load", WARPCHECK_PLUGIN, "-checks=-*,cuda-occupancy"};
  std::vector<std::string> Parse = {"--", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
                                    "--cuda-path=" + *Root, "-isystem", T.file("shim"),
                                    "-Wno-unknown-cuda-version"};
  // Hostile macros in the compile arguments: the check falls back to the
  // estimate and nothing runs them.
  std::vector<std::string> Args = Common;
  Args.push_back("-config={CheckOptions: {cuda-occupancy.MinOccupancy: 101}}");
  Args.push_back(File);
  Args.insert(Args.end(), Parse.begin(), Parse.end());
  Args.push_back("-DWARPCHECK_HOSTILE_A=$(touch " + Marker + ")");
  Args.push_back("-DWARPCHECK_HOSTILE_B=`touch " + Marker + "`");
  std::string Out = runClangTidy(Args, T.Path);
  EXPECT_NE(Out.find("registers per thread (estimated, sm_90)"), std::string::npos) << Out;
  EXPECT_NE(Out.find("nvcc was not run"), std::string::npos) << Out;
  EXPECT_FALSE(exists(Marker));
  // Other architectures: a note each.
  Args = Common;
  Args.push_back("-config={CheckOptions: {cuda-occupancy.MinOccupancy: 101, "
                 "cuda-occupancy.Archs: 'sm_80,sm_120'}}");
  Args.push_back(File);
  Args.insert(Args.end(), Parse.begin(), Parse.end());
  Out = runClangTidy(Args, T.Path);
  EXPECT_NE(Out.find("registers per thread (ptxas, sm_90)"), std::string::npos) << Out;
  EXPECT_NE(Out.find("note: on sm_80: "), std::string::npos) << Out;
  EXPECT_NE(Out.find("note: on sm_120: "), std::string::npos) << Out;
}
#endif

} // namespace

TEST(LibdeviceWithToolkit, ShortFunctionsAreShort) {
  // isShortLibdeviceFunction's patterns against the toolkit's libdevice:
  // every function they name has at most 13 IR instructions (one NVVM
  // intrinsic, the two arms of an __nvvm_reflect test around it, or a
  // compare and a select).
  REQUIRE_TOOLKIT(Root);
  std::string Path = *Root + "/nvvm/libdevice/libdevice.10.bc";
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    GTEST_SKIP() << "no " << Path;
  llvm::LLVMContext Ctx;
  auto M = llvm::parseBitcodeFile((*Buffer)->getMemBufferRef(), Ctx);
  ASSERT_TRUE(static_cast<bool>(M)) << llvm::toString(M.takeError());
  unsigned Named = 0;
  for (const llvm::Function &F : **M) {
    if (F.isDeclaration() || !isShortLibdeviceFunction(F.getName()))
      continue;
    ++Named;
    EXPECT_LE(F.getInstructionCount(), 13u) << F.getName().str();
  }
  EXPECT_GE(Named, 150u); // the patterns still name what they were written for
}

TEST(ParsedFlags, RelocatableDeviceCodeReachesNvcc) {
  // A unit parsed as relocatable device code (nvcc's -rdc=true becomes
  // clang's -fgpu-rdc) is compiled so by nvcc: ptxas merges no __shared__
  // access of it into a wider one, and the instructions read must be the
  // build's.
  const char *Code = "__global__ void k(float *p) { p[threadIdx.x] = 0; }\n";
  for (bool Rdc : {false, true}) {
    std::vector<std::string> Extra;
    if (Rdc)
      Extra.push_back("-fgpu-rdc");
    std::unique_ptr<clang::ASTUnit> AST =
        warpcheck::testing::parseCuda(Code, warpcheck::testing::CudaSide::Device, Extra);
    ASSERT_TRUE(AST);
    std::vector<std::string> Flags =
        warpcheck::analysis::compileFlagsFromPreprocessor(AST->getPreprocessor());
    EXPECT_EQ(std::count(Flags.begin(), Flags.end(), "-fgpu-rdc"), Rdc ? 1 : 0);
    EXPECT_EQ(warpcheck::toolchain::sanitizeCompileFlags(Flags, "").RelocatableDeviceCode, Rdc);
  }
}
