//===- RegisterPromotionTest.cpp - accesses kept in a register in a loop --===//
//
// Which of a loop's global accesses the no-listing model predicts nvcc keeps
// in a register (analysis/RegisterPromotion.h), on the shapes measured on the
// H200 (test/inputs/compiler-transformations.cu: the accumulator's load is
// made once with or without __restrict__, its store once only with it) and
// the ones that must keep every access: a store through another plain
// pointer, a barrier, an index that names a loop counter.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUnit.h"
#include "RegisterPromotion.h"

#include "warpcheck/analysis/KernelAnalysis.h"

#include <gtest/gtest.h>

#include <optional>
#include <set>

using namespace warpcheck::analysis;

namespace {

const char *PromotionKernels = R"(
__global__ void accumulate(const float *A, const float *x, float *tmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; ++j)
    tmp[i] += A[i * n + j] * x[j];
}
__global__ void accumulateRestrict(const float *__restrict__ A, const float *__restrict__ x,
                                   float *__restrict__ tmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; ++j)
    tmp[i] += A[i * n + j] * x[j];
}
__global__ void aliased(const float *in, float *out, int n) {
  for (int j = 0; j < n; ++j)
    out[j] = in[threadIdx.x];
}
__global__ void barrier(const float *in, float *out, int n) {
  float s = 0;
  for (int j = 0; j < n; ++j) {
    s += in[threadIdx.x];
    __syncthreads();
  }
  out[threadIdx.x] = s;
}
__global__ void nested(const float *in, float *out, int n) {
  float s = 0;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      s += in[threadIdx.x];
  out[threadIdx.x] = s;
}
__device__ __forceinline__ unsigned slot(unsigned a) { return (a % 65u) / 31u; }
__global__ void storeAlone(float4 *out, unsigned p) {
  for (unsigned i = 0; i < 8u; ++i)
    for (unsigned j = 0; j < 2u; ++j)
      out[slot(threadIdx.x + p)] = make_float4(0.f, 1.f, 2.f, 3.f);
}
__global__ void storeBesideLoad(const float *in, float *out) {
  for (int j = 0; j < 4; ++j)
    out[threadIdx.x] = in[j];
}
__global__ void storeUnderBranch(float *out, int n) {
  for (int j = 0; j < n; ++j)
    if (j % 2)
      out[threadIdx.x] = j;
}
__global__ void storeBesideUnnamedLoad(const float *in, float *out) {
  const float *row = in + threadIdx.x;
  float s = 0;
  for (int j = 0; j < 4; ++j) {
    s += row[0];
    out[threadIdx.x] = s;
  }
}
__global__ void counterInIndex(const float *in, float *out) {
  float s = 0;
  #pragma unroll 1
  for (unsigned i = 0; i < 2u; ++i)
    for (unsigned j = 0; j < 3u; ++j) {
      unsigned k = slot(128u * i + j);
      s += in[k];
    }
  out[threadIdx.x] = s;
}
__global__ void unrolledRepeats(const float *in, float *out, float acc) {
  for (unsigned i = 0; i < 8u; ++i)
    for (unsigned j = 0; j < 4u; ++j)
      out[((j * 2u + i) ^ 16u) & 1048575u] = acc;
}
__global__ void unrolledLoads(const float *in, float *out) {
  float s = 0;
  for (unsigned i = 0; i < 2u; ++i)
    for (unsigned j = 0; j < 3u; ++j)
      s += in[j];
  out[threadIdx.x] = s;
}
__global__ void tooLongToUnroll(const float *in, float *out) {
  float s = 0;
  for (unsigned i = 0; i < 8u; ++i)
    for (unsigned j = 0; j < 8u; ++j)
      s += in[j];
  out[threadIdx.x] = s;
}
__global__ void unrolledUnderBranch(float *out, float acc) {
  for (unsigned i = 0; i < 4u; ++i)
    if (threadIdx.x > i)
      out[i & 1u] = acc;
}
)";

/// "load tmp[i]", "store tmp[i]": the accesses Kernel's model keeps.
std::set<std::string> kept(llvm::StringRef Kernel) {
  static std::unique_ptr<clang::ASTUnit> AST =
      warpcheck::testing::parseCuda(PromotionKernels, warpcheck::testing::CudaSide::Device);
  const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(AST->getASTContext(), Kernel);
  EXPECT_TRUE(K) << Kernel.str();
  std::set<std::string> Out;
  if (!K)
    return Out;
  for (const auto &[Site, Kept] : accessesKeptInRegisters(K)) {
    EXPECT_TRUE(Kept.Loop);
    Out.insert(std::string(opName(Site.second)) + " " +
               sourceText(Site.first, AST->getASTContext()) +
               (Kept.RepeatsRemoved ? " (repeats)" : ""));
  }
  return Out;
}

TEST(RegisterPromotion, AccumulatorLoadedOnceStoredOnceOnlyWithRestrict) {
  // The loop's only store is the accumulator's own: its load is kept. Its
  // store is not: A and x may alias tmp, so each iteration's value must be
  // in memory (measured: 256 STG.E for 4 warps of 64 iterations).
  EXPECT_EQ(kept("accumulate"), (std::set<std::string>{"load tmp[i]"}));
  // With __restrict__ nothing else reads tmp: stored once after the loop
  // (measured: 4 STG.E). A and x name the loop's counter: not kept.
  EXPECT_EQ(kept("accumulateRestrict"), (std::set<std::string>{"load tmp[i]", "store tmp[i]"}));
}

TEST(RegisterPromotion, PlainPointerStoreSunkWhenNothingElseMayAliasIt) {
  // A store alone in its nest (a helper that touches no memory and a
  // vector constructor are not memory): made once (measured on the H200,
  // test/inputs/generated/gen-1.cu line 16). Its 8 x 2 iterations are
  // unrolled completely: any repeat is served, not only the previous one.
  EXPECT_EQ(kept("storeAlone"),
            (std::set<std::string>{"store out[slot(threadIdx.x + p)] (repeats)"}));
  // Beside a load through another plain pointer (which may alias out), in
  // some iterations only, or beside a load through a local pointer this
  // model does not name: made in every iteration.
  EXPECT_EQ(kept("storeBesideLoad"), (std::set<std::string>{}));
  EXPECT_TRUE(kept("storeUnderBranch").empty());
  EXPECT_EQ(kept("storeBesideUnnamedLoad"), (std::set<std::string>{}));
}

TEST(RegisterPromotion, WhatKeepsEveryAccess) {
  // out may alias in (no __restrict__): in[threadIdx.x] is read again after
  // each store.
  EXPECT_TRUE(kept("aliased").empty());
  // A barrier (a call) orders memory: nothing is followed.
  EXPECT_TRUE(kept("barrier").empty());
  // A nest is read as one: in[threadIdx.x] is the same in every iteration
  // of both loops, and nothing in them stores.
  EXPECT_EQ(kept("nested"), (std::set<std::string>{"load in[threadIdx.x]"}));
  // An index computed from the counters is not kept, even where its values
  // repeat, in a loop that stays a loop (`#pragma unroll 1`): (128 i + j) %
  // 65 / 31 is 0 for i = 0 and 2, 2, 0 for i = 1, and the H200 loads it in
  // all 6 iterations (gen-5.cu line 375).
  EXPECT_TRUE(kept("counterInIndex").empty());
}

TEST(RegisterPromotion, UnrolledNestsLoseTheirRepeats) {
  // 8 x 4 iterations unrolled completely: one store per distinct address
  // (measured: 14 stores per warp, gen-1.cu line 215).
  EXPECT_EQ(kept("unrolledRepeats"),
            (std::set<std::string>{"store out[((j * 2u + i) ^ 16u) & 1048575u] (repeats)"}));
  // in[j] over 2 x 3: 3 loads (gen-5.cu line 252, measured); nothing in
  // the nest stores, out is written after it.
  EXPECT_EQ(kept("unrolledLoads"), (std::set<std::string>{"load in[j] (repeats)"}));
  // 64 iterations: more than the unroller is known to take; in[j] names j.
  EXPECT_TRUE(kept("tooLongToUnroll").empty());
  // A repeat under a branch is not dominated by the earlier execution.
  EXPECT_TRUE(kept("unrolledUnderBranch").empty());
}

// Lines of HoistedKernels, counted from the raw string's first line.
const char *HoistedKernels = R"(
__global__ void runtimeBound(const float *in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += in[i * 32] * k;
  out[i] = s;
}
__global__ void constantBound(const float *in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < 48; ++k)
    s += in[i] * k;
  out[i] = s;
}
__global__ void accumulator(float *__restrict__ acc, const float *__restrict__ in, int n) {
  int i = threadIdx.x;
  for (int k = 0; k < n; ++k)
    acc[i] += in[k];
}
__global__ void underBranch(const float *in, float *__restrict__ out, int n) {
  float s = 0;
  for (int k = 0; k < n; ++k)
    if (k > 2)
      s += in[threadIdx.x];
  out[threadIdx.x] = s;
}
__global__ void mayBeWritten(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += in[i] * k;
  out[i] = s;
}
__global__ void noLocalIndex(const float *in, float *out, int n) {
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += in[7] * k;
  out[threadIdx.x] = s;
}
__global__ void throughRow(const float *in, float *__restrict__ out, int n) {
  int r = blockIdx.x;
  const float *row = in + r * 64;
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += row[threadIdx.x] * k;
  out[threadIdx.x] = s;
}
__global__ void afterBarrier(const float *in, float *out, int n) {
  int i = threadIdx.x;
  out[i] = 0;
  __syncthreads();
  float s = 0;
  for (int k = 0; k < 8; ++k)
    s += in[i * 32] * k;
  out[i + 64] = s;
}
__global__ void unrolledInvariant(const float *in, float *__restrict__ out) {
  int i = threadIdx.x;
  float s = 0;
  #pragma unroll
  for (int k = 0; k < 4; ++k)
    s += in[i] * k;
  out[i] = s;
}
__global__ void rowReassigned(const float *in, float *__restrict__ out, int n) {
  const float *row = in;
  row = in + 64;
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += row[threadIdx.x] * k;
  out[threadIdx.x] = s;
}
__global__ void innerInvariant(float *out, const float *att, int T) {
  int t3 = blockIdx.x * blockDim.x + threadIdx.x;
  for (int t = t3; t < T; t++) {
    const float *row = att + t * T;
    float acc = 0.0f;
    for (int t2 = 0; t2 <= t; t2++)
      acc += row[t2] * row[t3];
    out[t * T + t3] = acc;
  }
}
)";

/// Kernel's kept load of Expression, if it is kept.
std::optional<KeptAccess> keptLoad(llvm::StringRef Kernel, llvm::StringRef Expression) {
  static std::unique_ptr<clang::ASTUnit> AST =
      warpcheck::testing::parseCuda(HoistedKernels, warpcheck::testing::CudaSide::Device);
  const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(AST->getASTContext(), Kernel);
  EXPECT_TRUE(K) << Kernel.str();
  if (!K)
    return std::nullopt;
  for (const auto &[Site, Kept] : accessesKeptInRegisters(K))
    if (Site.second == AccessOp::Load && sourceText(Site.first, AST->getASTContext()) == Expression)
      return Kept;
  return std::nullopt;
}

/// The line Kernel's kept load of Expression is hoisted to (0: none).
unsigned hoistedLine(llvm::StringRef Kernel, llvm::StringRef Expression) {
  std::optional<KeptAccess> Kept = keptLoad(Kernel, Expression);
  if (!Kept) {
    ADD_FAILURE() << Expression.str() << " not kept in " << Kernel.str();
    return 0;
  }
  return Kept->HoistedBefore ? Kept->HoistedLine : 0;
}

TEST(RegisterPromotion, HoistedLoadsTakeTheLineBeforeThem) {
  // Measured (test/inputs/hoisted-loads.cu, cuda-occupancy.cu, the
  // corpus): the load goes with its index, `int i = ...`, whatever the
  // loop's bound and whether the kernel may write the pointer; an address
  // naming no local variable is computed after the test that enters a loop
  // of run-time bound, on the loop's line.
  EXPECT_EQ(hoistedLine("runtimeBound", "in[i * 32]"), 3u);
  EXPECT_EQ(hoistedLine("constantBound", "in[i]"), 10u);
  EXPECT_EQ(hoistedLine("mayBeWritten", "in[i]"), 29u);
  EXPECT_EQ(hoistedLine("noLocalIndex", "in[7]"), 37u);
  // An accumulator is promoted, its load on its own line; a load under a
  // branch stays in the loop.
  EXPECT_EQ(hoistedLine("accumulator", "acc[i]"), 0u);
  EXPECT_EQ(hoistedLine("underBranch", "in[threadIdx.x]"), 0u);
}

TEST(RegisterPromotion, ALocalPointerIntoAParameterIsFollowed) {
  // `const float *row = in + r * 64` never written again: LLVM's alias
  // analysis sees `in` through it; the load is kept before its loop, on
  // the line of the last local its address names (row, line 43). Measured
  // likewise in the generated programs' `const float *rowN = in + ...`
  // loads (test/inputs/generated/gen-9.cu's gen9_0, line 18 on line 12).
  EXPECT_EQ(hoistedLine("throughRow", "row[threadIdx.x]"), 43u);
  // Written after its declaration: not followed, not kept.
  EXPECT_FALSE(keptLoad("rowReassigned", "row[threadIdx.x]"));
}

TEST(RegisterPromotion, AnInvariantLoadOfAnUnrolledLoopIsHoistedToo) {
  // LICM runs before the full unroll: once, with its index (line 59).
  EXPECT_EQ(hoistedLine("unrolledInvariant", "in[i]"), 59u);
}

TEST(RegisterPromotion, ALoadInvariantOnlyInAnInnerLoopIsHoistedOutOfIt) {
  // LICM works loop by loop: `row[t3]` changes with the outer `t` but not
  // in the `t2` loop, which writes nothing; it is made once per `t`
  // iteration, on the inner loop's line (79) though its pointer is a local
  // (line 77). Measured on the H200: llm.c's attention_backward.cu,
  // `att_bth[t3]` (test/hw/realcode), as many requests as the store after
  // the inner loop, on the line of its `for`.
  std::optional<KeptAccess> Kept = keptLoad("innerInvariant", "row[t3]");
  ASSERT_TRUE(Kept);
  EXPECT_TRUE(Kept->HoistedBefore);
  EXPECT_EQ(Kept->HoistedLine, 79u);
  // row[t2] changes in every iteration, and the store is under no loop of
  // its own pointer's: neither is kept.
  EXPECT_FALSE(keptLoad("innerInvariant", "row[t2]"));
}

/// Kernel's one launch of Block threads in one block, its integer
/// parameter Param at Value, analysed as the report does.
std::vector<KernelLaunchAnalysis> analyzedLaunch(const clang::FunctionDecl *Kernel,
                                                 std::uint32_t Block, unsigned Param,
                                                 std::int64_t Value) {
  LaunchConfig L;
  L.Block = {Block, 1, 1};
  L.Grid = {1, 1, 1};
  L.GridKnown = true;
  L.Source = LaunchSource::LaunchSite;
  L.Arguments[Kernel->getParamDecl(Param)].Integer = Value;
  return analyzeKernel(Kernel, {L}, AnalysisOptions{});
}

TEST(RegisterPromotion, AHoistedLoadServesTheLanesThatStayInTheLoop) {
  // Lane t3 runs the outer loop for t = t3 .. 31 and the inner one for
  // t2 = 0 .. t: the lanes leave at different iterations. The register
  // row[t3] was loaded into before the inner loop serves every lane still
  // in it, so the load makes one request per outer iteration of the warp,
  // as many as the store after the inner loop: 32 (not one per change of
  // the active lanes).
  std::unique_ptr<clang::ASTUnit> AST =
      warpcheck::testing::parseCuda(HoistedKernels, warpcheck::testing::CudaSide::Device);
  const clang::FunctionDecl *K =
      warpcheck::testing::kernelNamed(AST->getASTContext(), "innerInvariant");
  ASSERT_TRUE(K);
  std::vector<KernelLaunchAnalysis> R = analyzedLaunch(K, 32, /*T*/ 2, 32);
  ASSERT_EQ(R.size(), 1u);
  std::optional<std::uint64_t> Load, Store, Gathered;
  for (const AccessResult &A : R[0].Accesses) {
    std::string Text = sourceText(A.Site.Expr, AST->getASTContext());
    if (Text == "row[t3]")
      Load = A.Cost.Requests;
    else if (Text == "row[t2]")
      Gathered = A.Cost.Requests;
    else if (A.Site.Op == AccessOp::Store)
      Store = A.Cost.Requests;
  }
  ASSERT_TRUE(Load && Store && Gathered);
  EXPECT_EQ(*Store, 32u);
  EXPECT_EQ(*Load, 32u);
  // row[t2], made in every inner iteration: in outer iteration m lane L has
  // t = L + m, the last lane still in the outer loop t = 31, so the warp
  // runs 32 inner iterations each time: 32 x 32.
  EXPECT_EQ(*Gathered, 1024u);
}

TEST(RegisterPromotion, AStoreOrBarrierBeforeTheLoopLeavesTheLineToPtxas) {
  // A store (line 51) and a barrier (line 52) between the index (line 50)
  // and the loop: ptxas may schedule the load above them or not (measured
  // both ways, gen-3.cu's gen3_10 and gen-4.cu's gen4_14): no line, and
  // the barrier's line said.
  std::optional<KeptAccess> Kept = keptLoad("afterBarrier", "in[i * 32]");
  ASSERT_TRUE(Kept);
  EXPECT_TRUE(Kept->HoistedBefore);
  EXPECT_EQ(Kept->HoistedLine, 0u);
  EXPECT_EQ(Kept->ScheduledAfter, 52u);
  EXPECT_EQ(keptLoad("constantBound", "in[i]")->ScheduledAfter, 0u);
}

TEST(RegisterPromotion, OneRequestPerWarpForTheAccumulator) {
  // Without a listing, the simulation counts the accumulator's load once per
  // warp: 2 warps of 64 iterations make 2 requests, not 128, and the access
  // says it is a prediction.
  std::unique_ptr<clang::ASTUnit> AST =
      warpcheck::testing::parseCuda(PromotionKernels, warpcheck::testing::CudaSide::Device);
  const clang::FunctionDecl *K =
      warpcheck::testing::kernelNamed(AST->getASTContext(), "accumulate");
  ASSERT_TRUE(K);
  std::vector<KernelLaunchAnalysis> R = analyzedLaunch(K, 64, /*n*/ 3, 64);
  ASSERT_EQ(R.size(), 1u);
  bool Seen = false;
  for (const AccessResult &A : R[0].Accesses) {
    if (sourceText(A.Site.Expr, AST->getASTContext()) != "tmp[i]")
      continue;
    if (A.Site.Op == AccessOp::Load) {
      Seen = true;
      EXPECT_EQ(A.Cost.Requests, 2u);
      EXPECT_EQ(A.InstructionsFrom, InstructionOrigin::Model);
      ASSERT_FALSE(A.Assumptions.empty());
      EXPECT_EQ(A.Assumptions.back().Kind, AssumptionKind::KeptInRegister);
      EXPECT_NE(A.Assumptions.back().Text.find("2 requests for 128 executions"),
                std::string::npos)
          << A.Assumptions.back().Text;
    } else {
      EXPECT_EQ(A.Cost.Requests, 128u);
      EXPECT_EQ(A.InstructionsFrom, InstructionOrigin::Source);
    }
  }
  EXPECT_TRUE(Seen);
}

} // namespace
