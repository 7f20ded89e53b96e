//===- RegisterPromotionTest.cpp - accesses kept in a register in a loop --===//
//
// Which of a loop's global accesses the no-listing model predicts nvcc keeps
// in a register (analysis/RegisterPromotion.h), on the shapes measured on the
// H200 (test/inputs/compiler-transformations.cu: the accumulator's load is
// made once with or without __restrict__, its store once only with it) and
// the ones that must keep every access: a store through another plain
// pointer, a barrier, a nested loop.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUnit.h"
#include "RegisterPromotion.h"

#include "warpcheck/analysis/KernelAnalysis.h"

#include <gtest/gtest.h>

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
  for (const auto &[Site, Loop] : accessesKeptInRegisters(K)) {
    EXPECT_TRUE(Loop);
    Out.insert(std::string(opName(Site.second)) + " " +
               sourceText(Site.first, AST->getASTContext()));
  }
  return Out;
}

TEST(RegisterPromotion, AccumulatorLoadedOnceStoredOnceOnlyWithRestrict) {
  // The loop's only store is the accumulator's own: its load is kept. Its
  // store is not: A and x may alias tmp, so each iteration's value must be
  // in memory (measured: 256 STG.E for 4 warps of 64 iterations).
  EXPECT_EQ(kept("accumulate"), (std::set<std::string>{"load tmp[i]"}));
  // With __restrict__ nothing else reads tmp: stored once after the loop
  // (measured: 4 STG.E). A and x are kept too, but their addresses change
  // every iteration, so they still make one request each.
  EXPECT_EQ(kept("accumulateRestrict"),
            (std::set<std::string>{"load tmp[i]", "store tmp[i]", "load A[i * n + j]",
                                   "load x[j]"}));
}

TEST(RegisterPromotion, WhatKeepsEveryAccess) {
  // out may alias in (no __restrict__): in[threadIdx.x] is read again after
  // each store.
  EXPECT_TRUE(kept("aliased").empty());
  // A barrier (a call) orders memory: nothing is followed.
  EXPECT_TRUE(kept("barrier").empty());
  // Loops inside or around loops are not predicted.
  EXPECT_TRUE(kept("nested").empty());
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
  LaunchConfig L;
  L.Block = {64, 1, 1};
  L.Grid = {1, 1, 1};
  L.GridKnown = true;
  L.Source = LaunchSource::LaunchSite;
  L.Arguments[K->getParamDecl(3)].Integer = 64;
  std::vector<KernelLaunchAnalysis> R = analyzeKernel(K, {L}, AnalysisOptions{});
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
