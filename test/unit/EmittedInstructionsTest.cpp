//===- EmittedInstructionsTest.cpp - accesses as the compiler emitted them ===//
//
// Small kernels analysed with hand-written listings of what nvcc emits for
// such code (the shapes of test/hw/sass/, whose predictions
// test/hw/compare_inputs.py --listings holds to the H200's records): a pair
// merged across two lines, a loop-invariant load hoisted to the `for` line,
// a 16-byte access split into two 8-byte loads or narrowed to one, and an
// access the listing does not explain. The numbers are worked out by hand:
// a shared request costs a wavefront per 128 bytes its lanes move (every
// bank once per wavefront), a global request a sector per 32-byte sector
// its lanes touch.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUnit.h"

#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/analysis/SassListing.h"

#include <gtest/gtest.h>

using namespace warpcheck::analysis;

namespace {

const char *Code = R"(
__global__ void pairs(float *out) {
  __shared__ float s[64];
  int i0 = threadIdx.x * 2;
  s[i0] = 1;
  s[i0 + 1] = 2;
  __syncthreads();
  out[threadIdx.x] = s[i0] + s[i0 + 1];
}
__global__ void hoisted(const float *in, float *out) {
  float acc = 0;
  for (int k = 0; k < 8; ++k)
    acc += in[threadIdx.x] * k;
  out[threadIdx.x] = acc;
}
__global__ void wide(const double2 *in, double *out) {
  double2 v = in[threadIdx.x];
  out[threadIdx.x] = v.x + v.y;
}
__global__ void arms(const float *in, float *out) {
  float v; if (threadIdx.x & 1) v = in[threadIdx.x + 32]; else v = in[threadIdx.x];
  out[threadIdx.x] = v;
}
struct Triple { float a, b, c; };
__global__ void copy3(const Triple *in, Triple *out) { out[threadIdx.x] = in[threadIdx.x]; }
__global__ void accumulate(const float *A, float *tmp) {
  for (int j = 0; j < 8; ++j)
    tmp[threadIdx.x] += A[threadIdx.x * 8 + j];
}
__global__ void selected(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = 0;
  s[threadIdx.x + 32] = 1;
  __syncthreads();
  float v;
  if (threadIdx.x & 1)
    v = s[threadIdx.x / 2];
  else
    v = s[32 + threadIdx.x / 2];
  out[threadIdx.x] = v;
}
__global__ void table(const int *digits, int *out) {
  __shared__ int t[16];
  if (threadIdx.x < 16) t[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = t[digits[threadIdx.x] & 15];
}
__global__ void swaps(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    float v = s[threadIdx.x ^ 1];
    s[threadIdx.x] = v + 1;
  }
  out[threadIdx.x] = s[threadIdx.x];
}
__global__ void rereads(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
  float acc = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k)
    acc += s[threadIdx.x ^ 1] * k;
  out[threadIdx.x] = acc;
}
__global__ void rows(const float *att, float *out) {
  for (int t = 0; t < 4; ++t) {
    float acc = 0;
    for (int t2 = 0; t2 < 8; ++t2)
      acc += att[t * 1024 + t2] * att[t * 1024 + threadIdx.x * 32];
    out[t * 32 + threadIdx.x] = acc;
  }
}
__global__ void masked(float *att) {
  for (int t2 = 0; t2 < 16; t2++) {
    if (t2 <= (int)threadIdx.x)
      att[threadIdx.x * 64 + t2] *= 2.0f;
    else
      att[threadIdx.x * 64 + t2] = 0.0f;
  }
}
__global__ void pairs3(const float2 *a, const float2 *b, const float2 *c, float *out) {
  float x = a[threadIdx.x].x +
            b[threadIdx.x].x +
            c[threadIdx.x].x;
  float y = a[threadIdx.x].y +
            b[threadIdx.x].y +
            c[threadIdx.x].y;
  out[threadIdx.x] = x * y;
}
__global__ void twoHoisted(const float *in, float *out, unsigned *count) {
  float acc = 0;
  __syncthreads();
  for (int k = 0; k < 4; ++k)
    acc += in[threadIdx.x * 32];
  atomicAdd(count, 1u);
  for (int k = 0; k < 4; ++k)
    acc += in[threadIdx.x];
  out[threadIdx.x] = acc;
}
__global__ void besideOwn(const float *in, float *out) {
  float acc = in[threadIdx.x * 32];
  for (int k = 0; k < 4; ++k)
    acc += in[7] * k;
  out[threadIdx.x] = acc;
}
__global__ void besideOwnInALoop(const float *in, float *out) {
  float acc = 0;
#pragma unroll
  for (int j = 0; j < 2; ++j)
    acc += in[threadIdx.x * 32 + j];
  for (int k = 0; k < 4; ++k)
    acc += in[7] * k;
  out[threadIdx.x] = acc;
}
__global__ void deadArm(const float *in, float *out) {
  float acc = 0;
  if (threadIdx.x >= 32)
    acc = in[threadIdx.x];
  for (int k = 0; k < 4; ++k)
    acc += in[7] * k;
  out[threadIdx.x] = acc;
}
)";

/// nvdisasm's text of one function "k" (line 28 of the code: accumulate's
/// body), Body being its instructions and labels.
std::vector<SassMemoryInstruction> listedText(const std::string &Body) {
  return kernelMemoryInstructions(
      parseNvdisasmListing("\t.section\t.text.k,\"ax\",@progbits\n"
                           "\t//## File \"unit.cu\", line 28\n" +
                           Body),
      "k");
}

/// A listing of one function "k" with the instructions given as
/// {line, opcode}.
std::vector<SassMemoryInstruction>
listed(std::initializer_list<std::pair<unsigned, const char *>> Instructions) {
  std::string Text = "\t.section\t.text.k,\"ax\",@progbits\n";
  unsigned Offset = 0;
  for (const auto &[Line, Opcode] : Instructions) {
    Text += "\t//## File \"unit.cu\", line " + std::to_string(Line) + "\n";
    char Address[16];
    snprintf(Address, sizeof Address, "%04x", Offset += 16);
    Text += "        /*" + std::string(Address) + "*/   " + Opcode + " R1, [R2] ;\n";
  }
  return kernelMemoryInstructions(parseNvdisasmListing(Text), "k");
}

struct Analysed {
  std::unique_ptr<clang::ASTUnit> AST =
      warpcheck::testing::parseCuda(Code, warpcheck::testing::CudaSide::Device);
  std::vector<KernelLaunchAnalysis> Launches;

  std::vector<SassMemoryInstruction> Instructions;

  Analysed(llvm::StringRef Kernel, std::vector<SassMemoryInstruction> Listed)
      : Instructions(std::move(Listed)) {
    // The listing names the source as nvcc saw it: the parse's file.
    const clang::SourceManager &SM = AST->getASTContext().getSourceManager();
    clang::OptionalFileEntryRef F = SM.getFileEntryRefForID(SM.getMainFileID());
    std::string Main(F->getFileEntry().tryGetRealPathName());
    if (Main.empty())
      Main = F->getName().str();
    for (SassMemoryInstruction &I : Instructions)
      for (SassPosition &P : I.Positions)
        P.File = Main;
    const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(AST->getASTContext(), Kernel);
    EXPECT_TRUE(K);
    if (!K)
      return;
    LaunchConfig L;
    L.Block = {32, 1, 1};
    L.Grid = {1, 1, 1};
    L.GridKnown = true;
    L.Source = LaunchSource::LaunchSite;
    AnalysisOptions O;
    O.Instructions = &Instructions;
    Launches = analyzeKernel(K, {L}, O);
  }
  const AccessResult &access(llvm::StringRef Text, AccessOp Op, unsigned Line) const {
    const clang::SourceManager &SM = AST->getASTContext().getSourceManager();
    for (const AccessResult &A : Launches.at(0).Accesses)
      if (A.Site.Op == Op && sourceText(A.Site.Expr, AST->getASTContext()) == Text &&
          SM.getExpansionLineNumber(A.Site.Expr->getBeginLoc()) == Line)
        return A;
    ADD_FAILURE() << "no " << opName(Op) << " of " << Text.str() << " at line " << Line;
    static const AccessResult None;
    return None;
  }
};

TEST(EmittedInstructions, PairMergedAcrossTwoLines) {
  // s[i0] = 1 (line 5) and s[i0 + 1] = 2 (line 6): one STS.64, which the
  // listing puts on line 6 (as nvcc does in merged-accesses.cu); the two
  // reads of line 8, one LDS.64.
  Analysed R("pairs", listed({{6, "STS.64"}, {8, "LDS.64"}, {8, "STG.E"}}));
  const AccessResult &Store = R.access("s[i0]", AccessOp::Store, 5);
  EXPECT_EQ(Store.InstructionsFrom, InstructionOrigin::Listing);
  EXPECT_EQ(Store.Status, AccessStatus::Exact);
  ASSERT_EQ(Store.Instructions.size(), 1u);
  const EmittedInstruction &S = Store.Instructions[0];
  EXPECT_EQ(S.Opcode, "STS.64");
  EXPECT_EQ(S.BytesPerLane, 8u);
  EXPECT_EQ(S.Line, 6u);
  EXPECT_TRUE(S.Merged);
  EXPECT_TRUE(S.Moved);
  EXPECT_EQ(S.Serves.size(), 2u);
  // 32 lanes x 8 contiguous bytes: 256 bytes, two wavefronts, no conflict
  // (as written: two 4-byte stores of stride 8, 2 wavefronts each).
  EXPECT_EQ(S.Cost.Requests, 1u);
  EXPECT_DOUBLE_EQ(S.Cost.WavefrontsPerRequest, 2);
  EXPECT_DOUBLE_EQ(Store.Cost.WavefrontsPerRequest, 2);
  // The second store is counted with the first (the lower address).
  const AccessResult &Second = R.access("s[i0 + 1]", AccessOp::Store, 6);
  EXPECT_EQ(Second.Status, AccessStatus::Exact);
  EXPECT_EQ(Second.Cost.Requests, 0u);
  ASSERT_EQ(Second.Instructions.size(), 1u);
  EXPECT_EQ(Second.Instructions[0].CountedWith, Store.Site.Expr);
  EXPECT_EQ(Second.Instructions[0].ServedExecutions, 1u);
  EXPECT_FALSE(Second.Instructions[0].Moved);
  const AccessResult &Load = R.access("s[i0]", AccessOp::Load, 8);
  ASSERT_EQ(Load.Instructions.size(), 1u);
  EXPECT_EQ(Load.Instructions[0].Opcode, "LDS.64");
  EXPECT_DOUBLE_EQ(Load.Cost.WavefrontsPerRequest, 2);
  EXPECT_EQ(R.access("s[i0 + 1]", AccessOp::Load, 8).Cost.Requests, 0u);
}

/// A's one instruction is moved out of a loop to Line, makes Requests
/// requests of SectorsPerRequest sectors, and serves Served executions.
void expectHoisted(const AccessResult &A, unsigned Line, unsigned Requests, unsigned Served,
                   double SectorsPerRequest) {
  ASSERT_EQ(A.Instructions.size(), 1u);
  const EmittedInstruction &I = A.Instructions[0];
  EXPECT_EQ(I.Line, Line);
  EXPECT_TRUE(I.Moved);
  EXPECT_TRUE(I.Hoisted);
  EXPECT_EQ(I.Cost.Requests, Requests);
  EXPECT_EQ(I.ServedExecutions, Served);
  EXPECT_DOUBLE_EQ(I.Cost.SectorsPerRequest, SectorsPerRequest);
}

TEST(EmittedInstructions, HoistedOutOfTheLoop) {
  // in[threadIdx.x] (line 13) is the same in every iteration: nvcc loads it
  // once, attributed to the `for` line (12).
  Analysed R("hoisted", listed({{12, "LDG.E"}, {14, "STG.E"}}));
  const AccessResult &In = R.access("in[threadIdx.x]", AccessOp::Load, 13);
  EXPECT_EQ(In.Status, AccessStatus::Exact) << (In.Assumptions.empty() ? "" : In.Assumptions[0].Text);
  expectHoisted(In, 12, 1, 8, 4);
  EXPECT_EQ(In.Cost.Requests, 1u);
}

TEST(EmittedInstructions, SplitAndNarrowed) {
  // double2 v = in[threadIdx.x]: one 16-byte access; two LDG.E.64 read it.
  // Lanes 16 bytes apart, 8 bytes each: 512 bytes spanned, 16 sectors per
  // request, twice.
  Analysed Split("wide", listed({{17, "LDG.E.64"}, {17, "LDG.E.64"}, {18, "STG.E.64"}}));
  const AccessResult &V = Split.access("in[threadIdx.x]", AccessOp::Load, 17);
  EXPECT_EQ(V.Status, AccessStatus::Exact);
  ASSERT_EQ(V.Instructions.size(), 1u);
  EXPECT_TRUE(V.Instructions[0].Split);
  EXPECT_EQ(V.Instructions[0].Cost.Requests, 2u);
  EXPECT_DOUBLE_EQ(V.Instructions[0].Cost.SectorsPerRequest, 16);
  // One LDG.E.64 only: the compiler reads part of the struct, and the
  // listing does not say which; the access keeps its numbers as written.
  Analysed Narrow("wide", listed({{17, "LDG.E.64"}, {18, "STG.E.64"}}));
  const AccessResult &N = Narrow.access("in[threadIdx.x]", AccessOp::Load, 17);
  EXPECT_EQ(N.Status, AccessStatus::Assumed);
  ASSERT_EQ(N.Assumptions.size(), 1u);
  EXPECT_EQ(N.Assumptions[0].Kind, AssumptionKind::UnmatchedInstructions);
  EXPECT_NE(N.Assumptions[0].Text.find("do not explain a 16-byte request"), std::string::npos)
      << N.Assumptions[0].Text;
  EXPECT_TRUE(N.Instructions.empty());
  EXPECT_EQ(N.Cost.Requests, 1u);
  EXPECT_DOUBLE_EQ(N.Cost.SectorsPerRequest, 16);
}

TEST(EmittedInstructions, NothingListedForTheAccess) {
  // No store anywhere: the access is costed as written, and says so.
  Analysed R("hoisted", listed({{12, "LDG.E"}}));
  const AccessResult &Out = R.access("out[threadIdx.x]", AccessOp::Store, 14);
  EXPECT_EQ(Out.Status, AccessStatus::Assumed);
  ASSERT_EQ(Out.Assumptions.size(), 1u);
  EXPECT_EQ(Out.Assumptions[0].Kind, AssumptionKind::UnmatchedInstructions);
  EXPECT_NE(Out.Assumptions[0].Text.find("no global-memory store instruction on line 14"),
            std::string::npos)
      << Out.Assumptions[0].Text;
  EXPECT_EQ(Out.Cost.Requests, 1u);
  EXPECT_DOUBLE_EQ(Out.Cost.SectorsPerRequest, 4);
}

TEST(EmittedInstructions, OneInstructionForTwoAccessesIsNotRead) {
  // The two arms' loads (line 21), each executed by half of the warp, as
  // one LDG of a selected address: one instruction cannot be both accesses'
  // as written, and no rule reads what it is.
  Analysed R("arms", listed({{21, "LDG.E"}, {22, "STG.E"}}));
  for (const char *Arm : {"in[threadIdx.x + 32]", "in[threadIdx.x]"}) {
    const AccessResult &A = R.access(Arm, AccessOp::Load, 21);
    EXPECT_EQ(A.Status, AccessStatus::Assumed) << Arm;
    ASSERT_EQ(A.Assumptions.size(), 1u) << Arm;
    EXPECT_NE(A.Assumptions[0].Text.find("1 4-byte instruction on line 21 for the 2 requests"),
              std::string::npos)
        << A.Assumptions[0].Text;
  }
  // With one instruction per arm, each is its own.
  Analysed Two("arms", listed({{21, "LDG.E"}, {21, "LDG.E"}, {22, "STG.E"}}));
  EXPECT_EQ(Two.access("in[threadIdx.x]", AccessOp::Load, 21).Status, AccessStatus::Exact);
}

TEST(EmittedInstructions, StructCopyCountedByItsInstructions) {
  // A 12-byte struct of floats is copied in 4-byte fields: three LDG.E and
  // three STG.E in the listing are all of them, and the copy is exact.
  Analysed All("copy3", listed({{25, "LDG.E"}, {25, "LDG.E"}, {25, "LDG.E"},
                                {25, "STG.E"}, {25, "STG.E"}, {25, "STG.E"}}));
  const AccessResult &In = All.access("in[threadIdx.x]", AccessOp::Load, 25);
  EXPECT_EQ(In.Status, AccessStatus::Exact)
      << (In.Assumptions.empty() ? "" : In.Assumptions[0].Text);
  EXPECT_EQ(In.Cost.Requests, 3u);
  // Two loads: a field is not read (or two are one instruction); the copy
  // keeps its numbers as written and says why.
  Analysed Two("copy3", listed({{25, "LDG.E"}, {25, "LDG.E"}, {25, "STG.E"}, {25, "STG.E"},
                                {25, "STG.E"}}));
  const AccessResult &Short = Two.access("in[threadIdx.x]", AccessOp::Load, 25);
  EXPECT_EQ(Short.Status, AccessStatus::Assumed);
  bool Said = false;
  for (const Assumption &X : Short.Assumptions)
    Said |= X.Kind == AssumptionKind::UnmatchedInstructions &&
            X.Text.find("2 4-byte instructions on line 25 for the 3 requests") != std::string::npos;
  EXPECT_TRUE(Said);
  EXPECT_EQ(Two.access("out[threadIdx.x]", AccessOp::Store, 25).Status, AccessStatus::Exact);
}

TEST(EmittedInstructions, ListingOfAnotherFileChangesNothing) {
  // No position of the listing is in the parsed file (a cubin built from
  // another copy of it): the accesses are costed as without a listing,
  // by the model of the compiler: the loop-invariant in[threadIdx.x] kept
  // in a register (1 request of 4 sectors for its 8 executions).
  std::vector<SassMemoryInstruction> Other = listed({{12, "LDG.E"}, {14, "STG.E"}});
  Analysed R("hoisted", {});
  LaunchConfig L = R.Launches.at(0).Launch;
  std::vector<KernelLaunchAnalysis> Without =
      analyzeKernel(R.Launches.at(0).Kernel, {L}, AnalysisOptions());
  AnalysisOptions O;
  for (SassMemoryInstruction &I : Other)
    for (SassPosition &P : I.Positions)
      P.File = "/elsewhere/unit.cu";
  O.Instructions = &Other;
  std::vector<KernelLaunchAnalysis> A = analyzeKernel(R.Launches.at(0).Kernel, {L}, O);
  ASSERT_EQ(A.size(), 1u);
  ASSERT_EQ(Without.size(), 1u);
  ASSERT_EQ(A[0].Accesses.size(), 2u);
  ASSERT_EQ(Without[0].Accesses.size(), 2u);
  for (size_t I = 0; I < 2; ++I) {
    const AccessResult &X = A[0].Accesses[I], &Y = Without[0].Accesses[I];
    EXPECT_EQ(X.InstructionsFrom, Y.InstructionsFrom);
    EXPECT_EQ(X.Status, Y.Status);
    EXPECT_EQ(X.Cost.Requests, Y.Cost.Requests);
    EXPECT_DOUBLE_EQ(X.Cost.SectorsPerRequest, Y.Cost.SectorsPerRequest);
    ASSERT_EQ(X.Assumptions.size(), Y.Assumptions.size());
    for (size_t J = 0; J < X.Assumptions.size(); ++J)
      EXPECT_EQ(X.Assumptions[J].Text, Y.Assumptions[J].Text);
  }
  const AccessResult &In = A[0].Accesses[0];
  EXPECT_EQ(In.Site.Op, AccessOp::Load);
  EXPECT_EQ(In.Cost.Requests, 1u);
  EXPECT_DOUBLE_EQ(In.Cost.SectorsPerRequest, 4);
  EXPECT_EQ(In.InstructionsFrom, InstructionOrigin::Model);
}

TEST(EmittedInstructions, UnexplainedAccessFallsBackToTheModel) {
  // The loop-invariant in[threadIdx.x] (line 13) has no load on its line,
  // and the two unexplained LDG.E on lines 30 and 31 could each be its (no
  // access of this kernel is there): the listing does not say which. The
  // access is costed as the model of the compiler predicts it, kept in a
  // register across the loop (1 request for 8 executions), not as written
  // (8 requests), and says both.
  Analysed R("hoisted", listed({{30, "LDG.E"}, {31, "LDG.E"}, {14, "STG.E"}}));
  const AccessResult &In = R.access("in[threadIdx.x]", AccessOp::Load, 13);
  EXPECT_EQ(In.Status, AccessStatus::Assumed);
  EXPECT_EQ(In.Cost.Requests, 1u);
  EXPECT_DOUBLE_EQ(In.Cost.SectorsPerRequest, 4);
  EXPECT_EQ(In.InstructionsFrom, InstructionOrigin::Model);
  bool Unmatched = false, Kept = false;
  for (const Assumption &X : In.Assumptions) {
    Unmatched |= X.Kind == AssumptionKind::UnmatchedInstructions &&
                 X.Text.find("cannot be told apart") != std::string::npos &&
                 X.Text.find("predicted from the source, as without a listing") !=
                     std::string::npos;
    Kept |= X.Kind == AssumptionKind::KeptInRegister &&
            X.Text.find("1 requests for 8 executions (predicted from the source; the listing "
                        "of the compiled kernel does not explain this access)") !=
                std::string::npos;
  }
  EXPECT_TRUE(Unmatched);
  EXPECT_TRUE(Kept);
  // The store has its instruction: read from the listing.
  EXPECT_EQ(R.access("out[threadIdx.x]", AccessOp::Store, 14).Status, AccessStatus::Exact);
}

TEST(EmittedInstructions, AccumulatorKeptInARegister) {
  // tmp[threadIdx.x] += A[...] in a loop the listing keeps (a backward
  // branch): one LDG before it (R2), the loop's LDG step R4 by immediate
  // offsets (A's unrolled copies), its STG through R2. The accumulator's
  // load executes once; its store, in the loop, each iteration.
  Analysed R("accumulate", listedText("        /*0010*/   LDG.E R11, desc[UR8][R2.64] ;\n"
                                      ".L_x_1:\n"
                                      "        /*0020*/   LDG.E R12, desc[UR8][R4.64] ;\n"
                                      "        /*0030*/   STG.E desc[UR8][R2.64], R13 ;\n"
                                      "        /*0040*/   LDG.E R12, desc[UR8][R4.64+0x4] ;\n"
                                      "        /*0050*/   STG.E desc[UR8][R2.64], R13 ;\n"
                                      "        /*0060*/   @P0 BRA `(.L_x_1) ;\n"));
  const AccessResult &Tmp = R.access("tmp[threadIdx.x]", AccessOp::Load, 28);
  EXPECT_EQ(Tmp.Status, AccessStatus::Exact);
  ASSERT_EQ(Tmp.Instructions.size(), 1u);
  EXPECT_TRUE(Tmp.Instructions[0].Hoisted);
  EXPECT_FALSE(Tmp.Instructions[0].Moved);
  EXPECT_EQ(Tmp.Cost.Requests, 1u);
  EXPECT_EQ(Tmp.Instructions[0].ServedExecutions, 8u);
  EXPECT_DOUBLE_EQ(Tmp.Cost.SectorsPerRequest, 4);
  // A varies: each of its 8 executions is a request, lanes 32 bytes apart.
  const AccessResult &A = R.access("A[threadIdx.x * 8 + j]", AccessOp::Load, 28);
  EXPECT_EQ(A.Cost.Requests, 8u);
  EXPECT_DOUBLE_EQ(A.Cost.SectorsPerRequest, 32);
  EXPECT_EQ(R.access("tmp[threadIdx.x]", AccessOp::Store, 28).Cost.Requests, 8u);

  // The store sunk after the loop (__restrict__): one request.
  Analysed Sunk("accumulate", listedText(".L_x_1:\n"
                                         "        /*0020*/   LDG.E.CONSTANT R12, desc[UR8][R4.64] ;\n"
                                         "        /*0060*/   @P0 BRA `(.L_x_1) ;\n"
                                         "        /*0070*/   LDG.E R11, desc[UR8][R2.64] ;\n"
                                         "        /*0080*/   STG.E desc[UR8][R2.64], R13 ;\n"));
  EXPECT_EQ(Sunk.access("tmp[threadIdx.x]", AccessOp::Store, 28).Cost.Requests, 1u);
  const AccessResult &Loop = Sunk.access("A[threadIdx.x * 8 + j]", AccessOp::Load, 28);
  ASSERT_EQ(Loop.Instructions.size(), 1u);
  EXPECT_EQ(Loop.Instructions[0].Opcode, "LDG.E.CONSTANT");
  EXPECT_EQ(Sunk.access("tmp[threadIdx.x]", AccessOp::Load, 28).Instructions.at(0).Opcode,
            "LDG.E");

  // The loop reloads the accumulator (a store through another pointer
  // might change it): two registers for one varying load; nothing is
  // taken out of the loop.
  Analysed Reloaded("accumulate", listedText(".L_x_1:\n"
                                             "        /*0010*/   LDG.E R11, desc[UR8][R2.64] ;\n"
                                             "        /*0020*/   LDG.E R12, desc[UR8][R4.64] ;\n"
                                             "        /*0030*/   STG.E desc[UR8][R2.64], R13 ;\n"
                                             "        /*0060*/   @P0 BRA `(.L_x_1) ;\n"));
  EXPECT_EQ(Reloaded.access("tmp[threadIdx.x]", AccessOp::Load, 28).Cost.Requests, 8u);
}

TEST(EmittedInstructions, BranchArmsReadThroughOneSelectedAddress) {
  // The arms' loads (lines 37, 39), one LDS on the line of the use (40):
  // odd lanes read word k, even lanes word 32 + k, the same bank: one
  // request of 2 wavefronts, where each arm alone is 1.
  Analysed R("selected", listed({{32, "STS"}, {33, "STS"}, {40, "LDS"}, {40, "STG.E"}}));
  const AccessResult &Odd = R.access("s[threadIdx.x / 2]", AccessOp::Load, 37);
  const AccessResult &Even = R.access("s[32 + threadIdx.x / 2]", AccessOp::Load, 39);
  EXPECT_EQ(Odd.Status, AccessStatus::Exact);
  EXPECT_EQ(Even.Status, AccessStatus::Exact);
  const AccessResult &Counted = Odd.Cost.Requests ? Odd : Even;
  EXPECT_EQ(Odd.Cost.Requests + Even.Cost.Requests, 1u);
  ASSERT_EQ(Counted.Instructions.size(), 1u);
  EXPECT_EQ(Counted.Instructions[0].Line, 40u);
  EXPECT_TRUE(Counted.Instructions[0].Merged);
  EXPECT_DOUBLE_EQ(Counted.Cost.WavefrontsPerRequest, 2);
}

TEST(EmittedInstructions, IndexReadFromMemoryIntoATableOfOneBankRow) {
  // t[digits[i] & 15] (line 46): the index is read from memory, but the
  // 64-byte table lies in 16 distinct banks, so lanes that meet in a bank
  // meet at one word: one wavefront whatever the data, with the listing's
  // LDS as without a listing (model::isConflictFreeFootprint).
  Analysed R("table", listed({{44, "STS"}, {46, "LDG.E"}, {46, "LDS"}, {46, "STG.E"}}));
  const AccessResult &T = R.access("t[digits[threadIdx.x] & 15]", AccessOp::Load, 46);
  EXPECT_EQ(T.Status, AccessStatus::Assumed);
  EXPECT_EQ(T.Cost.Requests, 1u);
  EXPECT_DOUBLE_EQ(T.Cost.WavefrontsPerRequest, 1);
  EXPECT_DOUBLE_EQ(T.Cost.IdealWavefrontsPerRequest, 1);
}

TEST(EmittedInstructions, RepeatsAreNotRemovedAcrossAStoreToTheSameMemory) {
  // An unrolled loop reads s[threadIdx.x ^ 1] (line 53) four times, one
  // LDS on its line and no loop in the listing: without a store in
  // between, the repeats are the first load's (rereads, line 64: 1
  // request); with the store of line 54 between them, each may read what
  // another lane stored, and all four are made.
  Analysed Kept("rereads", listed({{60, "STS"}, {64, "LDS"}, {65, "STG.E"}}));
  const AccessResult &Once = Kept.access("s[threadIdx.x ^ 1]", AccessOp::Load, 64);
  EXPECT_EQ(Once.Cost.Requests, 1u);
  Analysed Swaps("swaps", listed({{50, "STS"}, {53, "LDS"}, {54, "STS"}, {54, "STS"},
                                  {54, "STS"}, {54, "STS"}, {56, "LDS"}, {56, "STG.E"}}));
  const AccessResult &Each = Swaps.access("s[threadIdx.x ^ 1]", AccessOp::Load, 53);
  EXPECT_EQ(Each.Cost.Requests, 4u);
  EXPECT_DOUBLE_EQ(Each.Cost.WavefrontsPerRequest, 1);
}

TEST(EmittedInstructions, LoadInvariantInItsInnerLoopHoistedToTheLoopLine) {
  // att[t * 1024 + threadIdx.x * 32] (line 71) changes with t, not with t2:
  // nvcc loads it once per iteration of the outer loop, on the inner `for`
  // line (70), before the inner loop the listing keeps (llm.c's
  // softmax_autoregressive_backward_kernel2, line 372: measured 7.95
  // sectors per request there, no access of that line to explain it).
  Analysed R("rows", kernelMemoryInstructions(
                         parseNvdisasmListing(
                             "\t.section\t.text.k,\"ax\",@progbits\n"
                             ".L_x_0:\n"
                             "\t//## File \"unit.cu\", line 70\n"
                             "        /*0010*/   LDG.E R11, desc[UR8][R2.64] ;\n"
                             ".L_x_1:\n"
                             "\t//## File \"unit.cu\", line 71\n"
                             "        /*0020*/   LDG.E R12, desc[UR8][R4.64] ;\n"
                             "        /*0030*/   @P0 BRA `(.L_x_1) ;\n"
                             "\t//## File \"unit.cu\", line 72\n"
                             "        /*0040*/   STG.E desc[UR8][R6.64], R13 ;\n"
                             "        /*0050*/   @P1 BRA `(.L_x_0) ;\n"),
                         "k"));
  const AccessResult &Row = R.access("att[t * 1024 + threadIdx.x * 32]", AccessOp::Load, 71);
  // Lanes 128 bytes apart: a sector each.
  expectHoisted(Row, 70, 4, 32, 32);
  // The load that varies stays on its line, a request per iteration.
  const AccessResult &Step = R.access("att[t * 1024 + t2]", AccessOp::Load, 71);
  ASSERT_EQ(Step.Instructions.size(), 1u);
  EXPECT_EQ(Step.Instructions[0].Line, 71u);
  EXPECT_FALSE(Step.Instructions[0].Hoisted);
  EXPECT_EQ(Step.Cost.Requests, 32u);
  EXPECT_DOUBLE_EQ(Step.Cost.SectorsPerRequest, 1);
}

} // namespace

TEST(EmittedInstructions, SelectedStoreCopiesSpreadOverTheLoopsLines) {
  // The arms' stores (lines 78, 80) of an unrolled loop: nvcc stores the
  // selected value once per iteration, and the line table puts the copies
  // on the `for` line (76), the `if` line (77) and the first arm's (78), as
  // in llm.c's attention_softmax_kernel1 (measured 8 sectors per request on
  // each of the three lines, the arms' own cost). One request per
  // iteration for the lanes of both arms: 16, not the 31 the source makes.
  Analysed R("masked", listed({{76, "STG.E"}, {76, "STG.E"}, {77, "STG.E"}, {78, "LDG.E"},
                               {78, "STG.E"}}));
  const AccessResult &Then = R.access("att[threadIdx.x * 64 + t2]", AccessOp::Store, 78);
  const AccessResult &Else = R.access("att[threadIdx.x * 64 + t2]", AccessOp::Store, 80);
  unsigned Requests = 0;
  for (const AccessResult *A : {&Then, &Else}) {
    ASSERT_FALSE(A->Instructions.empty());
    for (const EmittedInstruction &I : A->Instructions) {
      EXPECT_EQ(I.Line, 78u);
      EXPECT_EQ(I.OtherLines, (std::vector<unsigned>{76, 77}));
      if (!I.CountedWith)
        Requests += I.Cost.Requests;
    }
  }
  EXPECT_EQ(Requests, 16u);
  // Lanes 256 bytes apart: a sector each.
  const AccessResult &Counted = Then.Cost.Requests ? Then : Else;
  EXPECT_DOUBLE_EQ(Counted.Cost.SectorsPerRequest, 32);
}

TEST(EmittedInstructions, ArmsOfALoopSplitByTheConditionAreNotSelected) {
  // The same loop as nvcc compiles it alone: split by the condition, a loop
  // of the first arm's load and store (line 78), then a loop of the second
  // arm's stores, on the `for` line (76). The stores on line 76 lie in a
  // loop of their own: the second arm's, moved there, each request its own
  // (16 of the first arm, 15 of the second: lane 31 alone keeps every t2).
  Analysed R("masked", kernelMemoryInstructions(
                           parseNvdisasmListing(
                               "\t.section\t.text.k,\"ax\",@progbits\n"
                               ".L_x_0:\n"
                               "\t//## File \"unit.cu\", line 78\n"
                               "        /*0010*/   LDG.E R11, desc[UR8][R2.64] ;\n"
                               "        /*0020*/   STG.E desc[UR8][R2.64], R11 ;\n"
                               "\t//## File \"unit.cu\", line 76\n"
                               "        /*0030*/   @P0 BRA `(.L_x_0) ;\n"
                               ".L_x_1:\n"
                               "        /*0040*/   STG.E desc[UR8][R4.64], RZ ;\n"
                               "        /*0050*/   @P1 BRA `(.L_x_1) ;\n"),
                           "k"));
  const AccessResult &Then = R.access("att[threadIdx.x * 64 + t2]", AccessOp::Store, 78);
  const AccessResult &Else = R.access("att[threadIdx.x * 64 + t2]", AccessOp::Store, 80);
  ASSERT_EQ(Then.Instructions.size(), 1u);
  ASSERT_EQ(Else.Instructions.size(), 1u);
  EXPECT_EQ(Then.Instructions[0].Line, 78u);
  EXPECT_EQ(Else.Instructions[0].Line, 76u);
  EXPECT_TRUE(Else.Instructions[0].OtherLines.empty());
  EXPECT_EQ(Then.Cost.Requests, 16u);
  EXPECT_EQ(Else.Cost.Requests, 15u);
}

TEST(EmittedInstructions, MergedWithTheLineWhoseAccessLiesNextToIt) {
  // BlackScholes' float2 arrays: x of three arrays on lines 84-86, y on
  // lines 87-89, one LDG.E.64 per array on the x line. Line 87's y is the
  // partner of line 84's x (next to it in memory), not of the nearest line
  // with a wide load (86, another array): measured 1.0 sector per ideal on
  // BlackScholes' lines, one 8-byte load of 32 lanes, 8 sectors.
  Analysed R("pairs3", listed({{84, "LDG.E.64"}, {85, "LDG.E.64"}, {86, "LDG.E.64"},
                               {90, "STG.E"}}));
  unsigned Line = 84;
  for (const char *Array : {"a", "b", "c"}) {
    std::string X = std::string(Array) + "[threadIdx.x].x", Y = std::string(Array) + "[threadIdx.x].y";
    const AccessResult &First = R.access(X, AccessOp::Load, Line);
    const AccessResult &Second = R.access(Y, AccessOp::Load, Line + 3);
    ASSERT_EQ(Second.Instructions.size(), 1u) << Array;
    EXPECT_EQ(Second.Instructions[0].Line, Line) << Array;
    EXPECT_TRUE(Second.Instructions[0].Merged) << Array;
    EXPECT_EQ(First.Cost.Requests + Second.Cost.Requests, 1u) << Array;
    const AccessResult &Counted = First.Cost.Requests ? First : Second;
    EXPECT_DOUBLE_EQ(Counted.Cost.SectorsPerRequest, 8) << Array;
    ++Line;
  }
}

TEST(EmittedInstructions, MovedLoadsPairedWithTheirLinesByOrder) {
  // Two loop-invariant loads (lines 96 and 99), hoisted before their loops
  // and given the lines of the statements before them: the
  // `__syncthreads()` (94) and the atomicAdd (97), as nvcc does in
  // test/inputs/generated/gen-3.cu's gen3_10. Either load could be either
  // line's LDG.E; each lies after the previous load and before its own.
  Analysed R("twoHoisted",
             listed({{94, "LDG.E"}, {97, "RED.E.ADD.STRONG.GPU"}, {97, "LDG.E"}, {100, "STG.E"}}));
  // Lanes 128 bytes apart: a sector each; once per warp for 4 executions.
  expectHoisted(R.access("in[threadIdx.x * 32]", AccessOp::Load, 96), 94, 1, 4, 32);
  expectHoisted(R.access("in[threadIdx.x]", AccessOp::Load, 99), 97, 1, 4, 4);
}

TEST(EmittedInstructions, MovedLoadsOutOfOrderStayUnexplained) {
  // Both LDG.E before the first loop: nothing says which is which, and
  // neither is after the first load: no pairing, both costed by the model.
  Analysed R("twoHoisted",
             listed({{93, "LDG.E"}, {94, "LDG.E"}, {97, "RED.E.ADD.STRONG.GPU"}, {100, "STG.E"}}));
  for (auto [Text, Line] : {std::pair{"in[threadIdx.x * 32]", 96u}, {"in[threadIdx.x]", 99u}}) {
    const AccessResult &A = R.access(Text, AccessOp::Load, Line);
    EXPECT_NE(A.InstructionsFrom, InstructionOrigin::Listing) << Text;
    EXPECT_EQ(A.Status, AccessStatus::Assumed) << Text;
  }
}

TEST(EmittedInstructions, LoadHoistedBesideALinesOwnLoad) {
  // in[7] (line 105) is the same in every iteration: nvcc loads it once,
  // before the loop, on line 103, beside line 103's own load (two LDG.E
  // there, as gen-2.cu's gen2_6 has two LDG.E.128 on line 151). Line 103's
  // access runs once per warp, so the second is another line's.
  Analysed R("besideOwn", listed({{103, "LDG.E"}, {103, "LDG.E"}, {106, "STG.E"}}));
  const AccessResult &Own = R.access("in[threadIdx.x * 32]", AccessOp::Load, 103);
  ASSERT_EQ(Own.Instructions.size(), 1u);
  EXPECT_FALSE(Own.Instructions[0].Moved);
  EXPECT_EQ(Own.Cost.Requests, 1u);
  EXPECT_DOUBLE_EQ(Own.Cost.SectorsPerRequest, 32);
  expectHoisted(R.access("in[7]", AccessOp::Load, 105), 103, 1, 4, 1);
}

TEST(EmittedInstructions, TwoInstructionsOfALoopsLoadAreItsOwn) {
  // Line 112's load is in a loop nvcc unrolls: its two LDG.E are its own
  // two copies, none another line's; in[7] (line 114) has no instruction
  // to be, and is costed by the model.
  Analysed R("besideOwnInALoop", listed({{112, "LDG.E"}, {112, "LDG.E"}, {115, "STG.E"}}));
  EXPECT_NE(R.access("in[7]", AccessOp::Load, 114).InstructionsFrom, InstructionOrigin::Listing);
  EXPECT_EQ(R.access("in[threadIdx.x * 32 + j]", AccessOp::Load, 112).Cost.Requests, 2u);
}

TEST(EmittedInstructions, ALineOfAnAccessNoWarpMakesKeepsItsInstruction) {
  // A block of 32 threads never takes the arm of line 120: its LDG.E
  // there is its own, not another line's. The invariant in[7] (line 122)
  // is then the LDG.E nvcc hoisted onto line 118 (gen-6.cu's gen6_16: the
  // never-taken arm's load on line 284, the moved one on line 288).
  Analysed R("deadArm", listed({{118, "LDG.E"}, {120, "LDG.E"}, {123, "STG.E"}}));
  expectHoisted(R.access("in[7]", AccessOp::Load, 122), 118, 1, 4, 1);
}
