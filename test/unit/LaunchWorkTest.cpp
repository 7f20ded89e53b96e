//===- LaunchWorkTest.cpp - a launch's FLOPs and DRAM bytes, by hand -------===//
//
// analyzeLaunchWork on small kernels whose counts are worked out by hand:
// floating-point instructions per active lane (an FMA is 2 FLOPs; nvcc
// fuses a multiply into the add it feeds; lanes a guard turns off do
// nothing), and DRAM bytes as the distinct 32-byte sectors the launch reads
// and writes (docs/hardware-model.md, "DRAM traffic of a launch").
//
//===----------------------------------------------------------------------===//

#include "warpcheck/analysis/LaunchWork.h"

#include "CudaTestUnit.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace warpcheck::analysis;
using warpcheck::model::FloatPrecision;

namespace {

struct Worked {
  std::unique_ptr<clang::ASTUnit> AST;
  std::vector<KernelLaunchAnalysis> Analyses;
  LaunchWork Work;

  /// Kernel Name launched with Block and Grid, its integer parameters
  /// bound to Values (in order; the others left unbound).
  Worked(const std::string &Code, llvm::StringRef Name, Dim3 Block, Dim3 Grid,
         std::map<std::string, std::int64_t> Values = {})
      : AST(warpcheck::testing::parseCuda(Code, warpcheck::testing::CudaSide::Device)) {
    const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(AST->getASTContext(), Name);
    EXPECT_TRUE(K) << Name.str();
    if (!K)
      return;
    LaunchConfig Launch;
    Launch.Block = Block;
    Launch.Grid = Grid;
    Launch.GridKnown = true;
    Launch.Source = LaunchSource::LaunchSite;
    Launch.Description = "the test's launch";
    for (const clang::ParmVarDecl *P : K->parameters()) {
      auto It = Values.find(P->getNameAsString());
      if (It != Values.end())
        Launch.Arguments[P].Integer = It->second;
    }
    AnalysisOptions Options;
    Analyses = analyzeKernel(K, {Launch}, Options);
    EXPECT_EQ(Analyses.size(), 1u);
    if (!Analyses.empty())
      Work = analyzeLaunchWork(Analyses.front());
  }

  const warpcheck::model::PrecisionOps &ops(FloatPrecision P) const {
    static const warpcheck::model::PrecisionOps None;
    return Work.Flops ? (*Work.Flops)[P] : None;
  }
};

TEST(LaunchWork, SaxpyCountsOnlyTheActiveLanes) {
  const char *Code = R"(
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
)";
  // 16 blocks of 256 threads, 4000 of them active: one FFMA each.
  Worked W(Code, "saxpy", Dim3{256, 1, 1}, Dim3{16, 1, 1}, {{"n", 4000}});
  ASSERT_TRUE(W.Work.Flops);
  EXPECT_EQ(W.Work.FlopsStatus, AccessStatus::Exact);
  EXPECT_EQ(W.ops(FloatPrecision::Single).Fma, 4000u);
  EXPECT_EQ(W.ops(FloatPrecision::Single).Add, 0u);
  EXPECT_EQ(W.ops(FloatPrecision::Single).Mul, 0u);
  EXPECT_EQ(W.Work.Flops->totalFlops(), 8000u);
  // x and y read (4000 floats each: 500 sectors), y written: 16000 bytes.
  ASSERT_TRUE(W.Work.DramReadBytes);
  EXPECT_EQ(*W.Work.DramReadBytes, 32000u);
  EXPECT_EQ(*W.Work.DramWriteBytes, 16000u);
  EXPECT_EQ(W.Work.DramStatus, AccessStatus::Exact);
  // The first, the second (the interior), the third (the step between
  // interior blocks) and the last block were run whole.
  EXPECT_EQ(W.Work.SimulatedBlocks, 4u);
  EXPECT_EQ(W.Work.TotalBlocks, 16u);
}

const char *Matmuls = R"(
#define T 16
__global__ void naive(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += A[row * n + k] * B[k * n + col];
  C[row * n + col] = sum;
}
__global__ void tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[T][T], Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y;
  int col = blockIdx.x * T + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < n; t += T) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < T; ++k)
      sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = sum;
}
)";

TEST(LaunchWork, MatrixMultipliesDoTwoNCubedFlops) {
  // N = 64: N^3 = 262144 FMAs, 2N^3 FLOPs, whatever the tiling; A and B
  // read once each from DRAM (2 x 16 KiB), C written once (16 KiB).
  for (const char *Name : {"naive", "tiled"}) {
    SCOPED_TRACE(Name);
    Worked W(Matmuls, Name, Dim3{16, 16, 1}, Dim3{4, 4, 1}, {{"n", 64}});
    ASSERT_TRUE(W.Work.Flops);
    EXPECT_EQ(W.Work.FlopsStatus, AccessStatus::Exact);
    EXPECT_EQ(W.ops(FloatPrecision::Single).Fma, 262144u);
    EXPECT_EQ(W.ops(FloatPrecision::Single).Add + W.ops(FloatPrecision::Single).Mul, 0u);
    EXPECT_EQ(W.Work.Flops->totalFlops(), 524288u);
    ASSERT_TRUE(W.Work.DramReadBytes);
    EXPECT_EQ(*W.Work.DramReadBytes, 2u * 64 * 64 * 4);
    EXPECT_EQ(*W.Work.DramWriteBytes, 64u * 64 * 4);
    EXPECT_EQ(W.Work.DramStatus, AccessStatus::Exact);
    // Nine classes (first, interior or last along x and along y) and the
    // next interior block along each axis.
    EXPECT_EQ(W.Work.SimulatedBlocks, 11u);
  }
}

TEST(LaunchWork, ContractionAsNvccDoesIt) {
  const char *Code = R"(
__global__ void ops(const float *a, const float *b, const float *c, const float *d,
                    float *out, const double *da, double *dout) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] * b[i] + c[i] * d[i];            // FFMA + FMUL
  out[i + 32] = __fmul_rn(a[i], b[i]) + c[i];    // FMUL + FADD: never fused
  out[i + 64] = fmaf(a[i], b[i], c[i]) - d[i];   // FFMA + FADD
  out[i + 96] = c[i] - a[i] * b[i];              // FFMA
  float s = a[i];
  s *= b[i];                                     // FMUL
  s++;                                           // FADD
  out[i + 128] = s;
  dout[i] = da[i] * da[i] + 1.0;                 // DFMA
  dout[i + 32] = (double)a[i] * b[i];            // DMUL (b promoted)
}
)";
  Worked W(Code, "ops", Dim3{32, 1, 1}, Dim3{1, 1, 1});
  ASSERT_TRUE(W.Work.Flops);
  EXPECT_EQ(W.Work.FlopsStatus, AccessStatus::Exact);
  const auto &S = W.ops(FloatPrecision::Single);
  EXPECT_EQ(S.Fma, 3u * 32);
  EXPECT_EQ(S.Mul, 3u * 32);
  EXPECT_EQ(S.Add, 3u * 32);
  EXPECT_EQ(S.Flops, (3u * 2 + 3 + 3) * 32);
  const auto &D = W.ops(FloatPrecision::Double);
  EXPECT_EQ(D.Fma, 32u);
  EXPECT_EQ(D.Mul, 32u);
  EXPECT_EQ(D.Add, 0u);
  EXPECT_EQ(D.Flops, 3u * 32);
}

TEST(LaunchWork, AProductKeptInAVariableIsFusedIntoTheAddsThatReadIt) {
  // As nvcc 13.0 -O3 -arch=sm_90 compiles each (its SASS, the kernel `kept`
  // of test/hw/microbench/float_contraction.cu, for n = 4: 8 FFMA, 3 FMUL,
  // 5 FADD): a product read only by adds in its own loop becomes an FMA in
  // each, subtracted from a value too (`c - w`: a mul.f32 and a sub.f32 in
  // the PTX, one FFMA of -w's operands in the SASS); read by a store too,
  // or added in a loop it is computed outside of, it stays a multiply; of
  // two kept products added, the first is fused.
  const char *Code = R"(
__global__ void kept(const float *a, const float *b, const float *c, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = a[i] * b[i];
  out[i] = t + c[i];                             // FFMA
  out[i + 32] = t - 3.0f;                        // FFMA (the multiply repeated)
  float u = a[i] * c[i];
  out[i + 64] = u + 1.0f;                        // FMUL + FADD: u is stored too
  out[i + 96] = u;
  float v = b[i] * c[i];
  float acc = 0;
  for (int k = 0; k < n; ++k) {
    acc += v;                                    // FMUL once, FADD x4
    float p = a[k] * b[k];
    acc = acc + p;                               // FFMA x4
  }
  out[i + 128] = acc;
  float w = a[i] * a[i];
  out[i + 160] = c[i] - w;                       // FFMA
  float x = b[i] * b[i], y = c[i] * c[i];
  out[i + 192] = x + y;                          // FMUL + FFMA
}
)";
  Worked W(Code, "kept", Dim3{32, 1, 1}, Dim3{1, 1, 1}, {{"n", 4}});
  ASSERT_TRUE(W.Work.Flops);
  EXPECT_EQ(W.Work.FlopsStatus, AccessStatus::Exact);
  const auto &S = W.ops(FloatPrecision::Single);
  EXPECT_EQ(S.Fma, (2u + 4 + 1 + 1) * 32);
  EXPECT_EQ(S.Mul, (1u + 1 + 1) * 32);
  EXPECT_EQ(S.Add, (1u + 4) * 32);
}

TEST(LaunchWork, AProductAddedInALoopTheCompilerUnrollsCompletelyIsFusedIntoEachAdd) {
  // nvcc 13.0 -O3 -arch=sm_90 (test/hw/microbench/float_contraction.cu):
  // the loop is gone, and its adds of t are 4 fma.rn.f32 of a[i] and b[i]
  // with no mul.f32 left. A loop of unknown trip count (n) or one kept by
  // `#pragma unroll 1` stays a loop: one multiply, then 4 adds. Added to a
  // product written inline (`acc * 0.5f + s`), the kept product is the one
  // fused: 4 FMUL and 4 FFMA in the SASS (unrolledKept there).
  const char *Code = R"(
__global__ void unrolled(const float *a, const float *b, const float *c, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = a[i] * b[i];
  float acc = c[i];
  for (int k = 0; k < 4; ++k)
    acc += t;                                    // FFMA x4
  out[i] = acc;
  float u = b[i] * c[i];
  float acc2 = a[i];
#pragma unroll 1
  for (int k = 0; k < 4; ++k)
    acc2 += u;                                   // FMUL once, FADD x4
  out[i + 32] = acc2;
  float s = a[i] * c[i];
  float acc3 = b[i];
  for (int k = 0; k < 4; ++k)
    acc3 = acc3 * 0.5f + s;                      // FMUL + FFMA, x4
  out[i + 64] = acc3;
}
)";
  Worked W(Code, "unrolled", Dim3{32, 1, 1}, Dim3{1, 1, 1}, {{"n", 4}});
  ASSERT_TRUE(W.Work.Flops);
  EXPECT_EQ(W.Work.FlopsStatus, AccessStatus::Exact);
  const auto &S = W.ops(FloatPrecision::Single);
  EXPECT_EQ(S.Fma, (4u + 4) * 32);
  EXPECT_EQ(S.Mul, (1u + 4) * 32);
  EXPECT_EQ(S.Add, 4u * 32);
}

TEST(LaunchWork, SectorsWrittenInPartAreReadToo) {
  // test/hw/microbench/partial_sector_writes.cu on an H100: a float per
  // block, blocks adjacent, fills whole sectors and read nothing from DRAM;
  // a float in every eighth sector read 474,208 of its 524,288 sectors
  // (the L2's fill before the write-back; the rest still in L2 at the end).
  // A sector the launch reads itself is not read twice.
  const char *Code = R"(
__global__ void adjacent(float *out) {
  if (threadIdx.x == 0)
    out[blockIdx.x] = 1.0f;
}
__global__ void strided(float *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i * 64] = 1.0f;
}
__global__ void inPlace(float *a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i * 64] += 1.0f;
}
)";
  Worked A(Code, "adjacent", Dim3{32, 1, 1}, Dim3{4096, 1, 1});
  EXPECT_EQ(A.Work.DramStatus, AccessStatus::Exact);
  EXPECT_EQ(*A.Work.DramWriteBytes, 4096u * 4);
  EXPECT_EQ(*A.Work.DramReadBytes, 0u);
  Worked S(Code, "strided", Dim3{256, 1, 1}, Dim3{16, 1, 1});
  EXPECT_EQ(S.Work.DramStatus, AccessStatus::Exact);
  EXPECT_EQ(*S.Work.DramWriteBytes, 4096u * 32);
  EXPECT_EQ(*S.Work.DramReadBytes, 4096u * 32);
  Worked I(Code, "inPlace", Dim3{256, 1, 1}, Dim3{16, 1, 1});
  EXPECT_EQ(I.Work.DramStatus, AccessStatus::Exact);
  EXPECT_EQ(*I.Work.DramWriteBytes, 4096u * 32);
  EXPECT_EQ(*I.Work.DramReadBytes, 4096u * 32);
}

TEST(LaunchWork, DivisionsAndMathFunctionsAreNotCounted) {
  const char *Code = R"(
__global__ void divide(const float *a, float *out) {
  int i = threadIdx.x;
  out[i] = a[i] / a[i + 32] + sqrtf(a[i]);
}
)";
  Worked W(Code, "divide", Dim3{32, 1, 1}, Dim3{1, 1, 1});
  ASSERT_TRUE(W.Work.Flops);
  // The add is counted; the division and the square root are not.
  EXPECT_EQ(W.ops(FloatPrecision::Single).Add, 32u);
  EXPECT_EQ(W.Work.FlopsStatus, AccessStatus::Assumed);
  unsigned Uncounted = 0;
  for (const Assumption &A : W.Work.FlopsAssumptions)
    Uncounted += A.Kind == AssumptionKind::UncountedOperation;
  EXPECT_EQ(Uncounted, 2u);
  // The DRAM bytes do not depend on them: 64 floats read, 32 written.
  EXPECT_EQ(W.Work.DramStatus, AccessStatus::Exact);
  EXPECT_EQ(*W.Work.DramReadBytes, 256u);
  EXPECT_EQ(*W.Work.DramWriteBytes, 128u);
}

TEST(LaunchWork, HalosAndStridesCountDistinctSectors) {
  const char *Code = R"(
__global__ void stencil(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = 0.25f * (in[i - 1] + in[i + 1]) + 0.5f * in[i];
}
__global__ void column(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 16];
}
)";
  // n = 4096 over 16 blocks of 256: every element of in read (512
  // sectors), out written but its first and last element (the sectors
  // still all touched: 512; the first and the last written in part, so
  // read too).
  Worked S(Code, "stencil", Dim3{256, 1, 1}, Dim3{16, 1, 1}, {{"n", 4096}});
  ASSERT_TRUE(S.Work.Flops);
  // Per active lane (4094): FADD, FMUL, FFMA.
  EXPECT_EQ(S.ops(FloatPrecision::Single).Add, 4094u);
  EXPECT_EQ(S.ops(FloatPrecision::Single).Mul, 4094u);
  EXPECT_EQ(S.ops(FloatPrecision::Single).Fma, 4094u);
  EXPECT_EQ(*S.Work.DramReadBytes, 4096u * 4 + 2 * 32);
  EXPECT_EQ(*S.Work.DramWriteBytes, 4096u * 4);
  // Every 16th float: one sector per element read, 4096 of them.
  Worked C(Code, "column", Dim3{256, 1, 1}, Dim3{16, 1, 1});
  EXPECT_EQ(*C.Work.DramReadBytes, 4096u * 32);
  EXPECT_EQ(*C.Work.DramWriteBytes, 4096u * 4);
}

TEST(LaunchWork, EdgesOfATwoDimensionalGrid) {
  const char *Code = R"(
__global__ void blur(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1)
    return;
  int c = y * w + x;
  out[c] = 0.5f * in[c] + 0.125f * (in[c - 1] + in[c + 1] + in[c - w] + in[c + w]);
}
)";
  // 100 x 50 floats over (32, 8) blocks: a partial last block along x
  // (100 = 3 x 32 + 4) and along y (50 = 6 x 8 + 2); 98 x 48 points
  // computed, each 3 FADD, 1 FMUL, 1 FFMA.
  Worked W(Code, "blur", Dim3{32, 8, 1}, Dim3{4, 7, 1}, {{"w", 100}, {"h", 50}});
  ASSERT_TRUE(W.Work.Flops);
  EXPECT_EQ(W.Work.FlopsStatus, AccessStatus::Exact);
  const auto &S = W.ops(FloatPrecision::Single);
  EXPECT_EQ(S.Add, 3u * 98 * 48);
  EXPECT_EQ(S.Mul, 98u * 48);
  EXPECT_EQ(S.Fma, 98u * 48);
  // in: 5000 floats, 20000 bytes; every float is read but the four
  // corners, whose sectors hold read floats too: sectors 0 to 624 (and
  // out's partial sectors below).
  // out: rows 1 to 48, floats 1 to 98: bytes 404 to 19595, sectors 12 to
  // 612, none skipped (two floats between rows).
  EXPECT_EQ(*W.Work.DramWriteBytes, 601u * 32);
  // Written in part, and so read before the write-back: the first (from
  // byte 404) and last (to 19595) sectors, and at each of the 47 row
  // boundaries the sectors holding the two floats not written (row r's
  // last, row r+1's first: bytes 400r + 396 to 400r + 403), two sectors
  // where 400r is 16 past a sector (r odd, 24 boundaries) and one where it
  // is aligned (23): 73 more sectors read.
  EXPECT_EQ(*W.Work.DramReadBytes, (625u + 73) * 32);
  EXPECT_EQ(W.Work.DramStatus, AccessStatus::Exact);
  // 3 x 3 classes, and the next interior block along x and along y.
  EXPECT_EQ(W.Work.SimulatedBlocks, 11u);
}

TEST(LaunchWork, BlocksThatAreNotShiftedAlikeAreCountedApart) {
  const char *Code = R"(
__global__ void scatter(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[(i * 97) % 4096] = in[i];
}
)";
  Worked W(Code, "scatter", Dim3{256, 1, 1}, Dim3{16, 1, 1});
  EXPECT_EQ(*W.Work.DramReadBytes, 4096u * 4);
  // Each block's 256 floats, 388 bytes apart, are 256 sectors of their
  // own: 16 x 256 sectors counted, an upper bound (the launch writes all
  // 512 sectors of out), and said so.
  EXPECT_EQ(*W.Work.DramWriteBytes, 16u * 256 * 32);
  EXPECT_EQ(W.Work.DramStatus, AccessStatus::Assumed);
  bool Said = false;
  for (const Assumption &A : W.Work.DramAssumptions)
    Said |= A.Kind == AssumptionKind::IrregularBlocks && A.Text.find("out[") != std::string::npos;
  EXPECT_TRUE(Said);
}

const char *SumRows = R"(
__global__ void sum_rows(const float *in, float *out, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += in[row * n + k];
  out[row] = s;
}
)";

TEST(LaunchWork, WhatTheSourceLeavesOpenIsAssumedOrUnknown) {
  std::string Code = std::string(SumRows) + R"(
__global__ void gather(const float *in, const int *idx, float *out) {
  int i = threadIdx.x;
  out[i] = in[idx[i]] * 2.0f;
}
)";
  // n unbound: taken as 4096, said so.
  Worked R(Code, "sum_rows", Dim3{32, 1, 1}, Dim3{2, 1, 1});
  ASSERT_TRUE(R.Work.Flops);
  EXPECT_EQ(R.ops(FloatPrecision::Single).Add, 64u * 4096);
  EXPECT_EQ(R.Work.FlopsStatus, AccessStatus::Assumed);
  ASSERT_FALSE(R.Work.FlopsAssumptions.empty());
  EXPECT_EQ(R.Work.FlopsAssumptions.front().Kind, AssumptionKind::UnboundValue);
  EXPECT_EQ(*R.Work.DramReadBytes, 64u * 4096 * 4);
  // An address read from memory: no DRAM count, the reason given.
  Worked G(Code, "gather", Dim3{32, 1, 1}, Dim3{1, 1, 1});
  ASSERT_TRUE(G.Work.Flops);
  EXPECT_EQ(G.ops(FloatPrecision::Single).Mul, 32u);
  EXPECT_FALSE(G.Work.DramReadBytes);
  EXPECT_EQ(G.Work.DramStatus, AccessStatus::Unknown);
  EXPECT_NE(G.Work.DramNotCounted.find("in[idx[i]]"), std::string::npos);
}

TEST(LaunchWork, AnUnknownAddressSaysWhetherItIsTheData) {
  // in[idx[i]] is a gather (data-dependent, its source named); out[slot(i)]
  // goes through a function declared without a body: unknown, but no read
  // of memory is in it, and it is not called data-dependent; row[7] is one
  // lane's.
  std::string Code = R"(
__device__ int slot(int i);
__global__ void both(const float *in, const int *idx, float *out, float **rows) {
  int i = threadIdx.x;
  out[slot(i)] = in[idx[i]];
  if (i == 3) {
    float *row = rows[blockIdx.x];
    row[7] = 1.0f;
    // Under a data-dependent condition, still at most lane 3's.
    while (*row > 0.0f)
      ++row;
    *row = 2.0f;
  }
}
)";
  Worked R(Code, "both", Dim3{32, 1, 1}, Dim3{1, 1, 1});
  ASSERT_EQ(R.Analyses.size(), 1u);
  std::map<std::string, const AccessResult *> ByExpression;
  for (const AccessResult &A : R.Analyses.front().Accesses)
    ByExpression[sourceText(A.Site.Expr, R.AST->getASTContext())] = &A;
  ASSERT_TRUE(ByExpression.count("in[idx[i]]"));
  ASSERT_TRUE(ByExpression.count("out[slot(i)]"));
  const AccessResult &Gather = *ByExpression["in[idx[i]]"];
  EXPECT_EQ(Gather.Status, AccessStatus::Unknown);
  ASSERT_FALSE(Gather.Assumptions.empty());
  EXPECT_EQ(Gather.Assumptions.front().Kind, AssumptionKind::DataDependentAddress);
  EXPECT_EQ(Gather.DataSource, "idx[i]");
  const AccessResult &Opaque = *ByExpression["out[slot(i)]"];
  EXPECT_EQ(Opaque.Status, AccessStatus::Unknown);
  ASSERT_FALSE(Opaque.Assumptions.empty());
  EXPECT_EQ(Opaque.Assumptions.front().Kind, AssumptionKind::UnfollowedValue);
  EXPECT_NE(Opaque.Assumptions.front().Text.find("could not follow"), std::string::npos);
  EXPECT_TRUE(Opaque.DataSource.empty());
  // One lane's store through a pointer read from memory: whatever the
  // pointer, one lane's 4 bytes are one sector.
  ASSERT_TRUE(ByExpression.count("row[7]"));
  const AccessResult &OneLane = *ByExpression["row[7]"];
  EXPECT_EQ(OneLane.Status, AccessStatus::Assumed);
  EXPECT_DOUBLE_EQ(OneLane.Cost.SectorsPerRequest, 1.0);
  EXPECT_EQ(OneLane.DataSource, "rows[blockIdx.x]");
  // The pointer the data moved: one lane's request whenever one is made
  // (the loop's condition and the store after it are under the data).
  ASSERT_TRUE(ByExpression.count("*row"));
  const AccessResult &Moved = *ByExpression["*row"];
  EXPECT_EQ(Moved.Status, AccessStatus::Assumed);
  EXPECT_DOUBLE_EQ(Moved.Cost.SectorsPerRequest, 1.0);
  EXPECT_DOUBLE_EQ(Moved.Cost.IdealSectorsPerRequest, 1.0);
  EXPECT_EQ(Moved.DataSource, "rows[blockIdx.x]");
}

const char *TripCounts = R"(
__global__ void nested(float *out, int m, int n, float x) {
  float acc = 0.0f, p = 1.0f;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n / 64; ++j)
      acc += x * out[j];
  for (int j = 0; j < n; ++j)
    p *= 0.5f;
  out[threadIdx.x] = acc + p;
}
__global__ void strided(float *y, const float *x, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
__global__ void halving(float *out, int n) {
  float s = 0.0f;
  for (int k = 1; k < n; k *= 2)
    s += 1.0f;
  out[threadIdx.x] = s;
}
)";

TEST(LaunchWork, TripCountsNoLaunchBindsBecomeAFormulaPerThread) {
  // sum_rows: one FADD a thread and iteration, n iterations.
  Worked R(SumRows, "sum_rows", Dim3{32, 1, 1}, Dim3{2, 1, 1});
  ASSERT_TRUE(R.Work.FlopsPerThread);
  const FlopFormula &F = *R.Work.FlopsPerThread;
  EXPECT_EQ(F.Symbols, std::vector<std::string>{"n"});
  EXPECT_EQ(F.PerThreadTotal.text(F.Symbols), "n");
  EXPECT_EQ(F.PerThread[1].Flops.text(F.Symbols), "n");
  EXPECT_EQ(F.PerThread[1].Add.text(F.Symbols), "n");
  EXPECT_EQ(F.PerThread[1].Fma.text(F.Symbols), "0");
  EXPECT_EQ(F.PerThread[0].Flops.text(F.Symbols), "0");
  EXPECT_EQ(F.Step, 1024);
  EXPECT_EQ(F.PerThreadTotal.evaluate({4096}), 4096);
  // Said with the assumption the count rests on.
  ASSERT_FALSE(R.Work.FlopsAssumptions.empty());
  EXPECT_NE(R.Work.FlopsAssumptions.front().Text.find(
                "per thread the FLOPs are n (fitted at multiples of 1024 up to 4096)"),
            std::string::npos);

}

TEST(LaunchWork, ALaunchTooLongAtTheSampledValueIsCountedByItsFormula) {
  // Both multiplies: 2 FLOPs (one FFMA) per thread and iteration of k.
  for (const char *Name : {"naive", "tiled"}) {
    SCOPED_TRACE(Name);
    Worked W(Matmuls, Name, Dim3{16, 16, 1}, Dim3{4, 4, 1});
    ASSERT_TRUE(W.Work.FlopsPerThread);
    const FlopFormula &M = *W.Work.FlopsPerThread;
    EXPECT_EQ(M.PerThread[1].Flops.text(M.Symbols), "2*n");
    EXPECT_EQ(M.PerThread[1].Fma.text(M.Symbols), "n");
    // At n = 4096 the launch runs longer than the simulation budget: the
    // count is the formula's (fitted at smaller n), said so; DRAM bytes
    // are not counted.
    EXPECT_EQ(M.Base, 256);
    ASSERT_TRUE(W.Work.Flops);
    EXPECT_EQ(W.ops(FloatPrecision::Single).Fma, 16u * 256 * 4096);
    EXPECT_EQ(W.Work.FlopsStatus, AccessStatus::Assumed);
    EXPECT_FALSE(W.Work.DramReadBytes);
    bool Said = false;
    for (const Assumption &A : W.Work.FlopsAssumptions)
      Said |= A.Text.find("per thread the FLOPs are 2*n (fitted at multiples of 64 up to 256; "
                          "at 4096 the launch runs longer than the simulation budget)") !=
              std::string::npos;
    EXPECT_TRUE(Said);
  }

}

TEST(LaunchWork, FormulasInTwoParametersAndWithFractions) {
  // Two trip counts, a term of each degree, and a rational coefficient:
  // a grid-stride loop over n elements shares them among 1024 threads.
  // (m*n/64 = 2^18 iterations at the sampled 4096 are beyond the budget
  // for a warp, 256 x 4 are not.)
  Worked N(TripCounts, "nested", Dim3{32, 1, 1}, Dim3{1, 1, 1});
  ASSERT_TRUE(N.Work.FlopsPerThread);
  const FlopFormula &NF = *N.Work.FlopsPerThread;
  EXPECT_EQ(NF.Symbols, (std::vector<std::string>{"m", "n"}));
  // m*n/64 FFMAs, n FMULs, one FADD.
  EXPECT_EQ(NF.PerThreadTotal.text(NF.Symbols), "m*n/32 + n + 1");
  EXPECT_EQ(NF.PerThread[1].Fma.text(NF.Symbols), "m*n/64");
  EXPECT_EQ(NF.PerThreadTotal.evaluate({3, 128}), 3 * 128 / 32 + 128 + 1);

  Worked S(TripCounts, "strided", Dim3{128, 1, 1}, Dim3{8, 1, 1});
  ASSERT_TRUE(S.Work.FlopsPerThread);
  const FlopFormula &SF = *S.Work.FlopsPerThread;
  EXPECT_EQ(SF.PerThreadTotal.text(SF.Symbols), "n/512");
  ASSERT_EQ(SF.PerThreadTotal.Terms.size(), 1u);
  EXPECT_EQ(SF.PerThreadTotal.Terms[0],
            (FormulaTerm{1, 512, std::vector<unsigned>{1}}));

}

TEST(LaunchWork, CountsThatAreNotPolynomialsHaveNoFormula) {
  // log2(n) iterations: not a polynomial, no formula (the sampled count
  // stays, assumed).
  Worked H(TripCounts, "halving", Dim3{32, 1, 1}, Dim3{1, 1, 1});
  ASSERT_TRUE(H.Work.Flops);
  EXPECT_EQ(H.ops(FloatPrecision::Single).Add, 32u * 12);
  EXPECT_EQ(H.Work.FlopsStatus, AccessStatus::Assumed);
  EXPECT_FALSE(H.Work.FlopsPerThread);

  // Bound at the launch: exact, no formula.
  Worked B(SumRows, "sum_rows", Dim3{32, 1, 1}, Dim3{2, 1, 1}, {{"n", 100}});
  EXPECT_EQ(B.Work.FlopsStatus, AccessStatus::Exact);
  EXPECT_FALSE(B.Work.FlopsPerThread);
}

TEST(LaunchWork, TheFormulaAtTheProgramsValueIsWhatTheH200Executed) {
  // roofline.cu's multiplies with their inner dimension k left unbound:
  // the formula at the program's k (256) against the FFMAs the H200
  // executed (test/hw/roofline/roofline.json, the launch's block and grid).
  auto Source = llvm::MemoryBuffer::getFile(WARPCHECK_SOURCE_DIR "/test/inputs/roofline.cu");
  auto Records = llvm::MemoryBuffer::getFile(WARPCHECK_SOURCE_DIR
                                             "/test/hw/roofline/roofline.json");
  ASSERT_TRUE(Source && Records);
  llvm::Expected<llvm::json::Value> Json = llvm::json::parse((*Records)->getBuffer());
  ASSERT_TRUE(static_cast<bool>(Json));
  unsigned Compared = 0;
  for (const llvm::json::Value &K : *Json->getAsObject()->getArray("kernels")) {
    const llvm::json::Object &Record = *K.getAsObject();
    std::string Name = Record.getString("function")->str();
    if (Name != "matmulNaive" && Name != "matmulTiled")
      continue;
    SCOPED_TRACE(Name);
    EXPECT_EQ(Record.getString("block")->str(), "(16, 16, 1)");
    EXPECT_EQ(Record.getString("grid")->str(), "(64, 2048, 1)");
    Worked W((*Source)->getBuffer().str(), Name, Dim3{16, 16, 1}, Dim3{64, 2048, 1},
             {{"n", 1024}});
    ASSERT_TRUE(W.Work.FlopsPerThread);
    const FlopFormula &F = *W.Work.FlopsPerThread;
    EXPECT_EQ(F.Symbols, std::vector<std::string>{"k"});
    EXPECT_EQ(F.PerThread[1].Fma.text(F.Symbols), "k");
    std::optional<warpcheck::model::FlopCounts> AtK = F.countsAt({256}, 64u * 2048 * 256);
    ASSERT_TRUE(AtK);
    const llvm::json::Object &M = *Record.getObject("metrics");
    EXPECT_EQ(static_cast<std::int64_t>((*AtK)[FloatPrecision::Single].Fma),
              *M.getInteger("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"));
    EXPECT_EQ((*AtK)[FloatPrecision::Single].Add + (*AtK)[FloatPrecision::Single].Mul, 0u);
    ++Compared;
  }
  EXPECT_EQ(Compared, 2u);
}

TEST(LaunchWork, LoopsTooLongForTheBudgetAreNotCounted) {
  const char *Code = R"(
__global__ void spin(float *out, int n) {
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += 1.0f;
  out[threadIdx.x] = s;
}
)";
  Worked W(Code, "spin", Dim3{1024, 1, 1}, Dim3{1, 1, 1}, {{"n", 1 << 30}});
  EXPECT_FALSE(W.Work.Flops);
  EXPECT_EQ(W.Work.FlopsStatus, AccessStatus::Unknown);
  EXPECT_NE(W.Work.FlopsNotCounted.find("simulation budget"), std::string::npos);
  // A loop whose exit depends on data has no trip count: cut at once.
  const char *Chase = R"(
__global__ void chase(const int *next, float *out) {
  int i = threadIdx.x;
  float s = 0;
  while (next[i] >= 0) {
    s += 1.0f;
    i = next[i];
  }
  out[threadIdx.x] = s;
}
)";
  Worked C(Chase, "chase", Dim3{32, 1, 1}, Dim3{1, 1, 1});
  EXPECT_FALSE(C.Work.Flops);
  EXPECT_NE(C.Work.FlopsNotCounted.find("values read from memory"), std::string::npos);
}

} // namespace

namespace {

// cuRAND's initialiser, as its header declares it (a library function
// whose body is not followed): it sets every field of the state it is
// given. With the states in a global array, each lane's store is a
// state's size past its neighbour's: a 140-byte Sobol state (4-byte
// fields) puts every lane in a sector of its own, 32 sectors per 4-byte
// store request where 4 would do, as cuda-samples' MC_EstimatePiInlineQ
// measures on its curand_init lines (7.9999 times the ideal). A state in
// a local variable is not memory the checks model.
TEST(LaunchWork, CurandInitWritesTheWholeState) {
  std::string Code = R"(
# 1 "curand_kernel.h" 1 3
struct curandStateSobol32 { unsigned i, x, c; unsigned direction_vectors[32]; };
typedef unsigned curandDirectionVectors32_t[32];
__device__ void curand_init(unsigned *direction_vectors, unsigned offset,
                            curandStateSobol32 *state);
__device__ unsigned curand(curandStateSobol32 *state);
# 10 "init.cu" 2
__global__ void initRNG(curandStateSobol32 *states, curandDirectionVectors32_t *directions,
                        unsigned *out) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(directions[0], tid, &states[tid]);
  curandStateSobol32 local;
  curand_init(directions[1], tid, &local);
  out[tid] = curand(&local);
}
)";
  Worked R(Code, "initRNG", Dim3{128, 1, 1}, Dim3{64, 1, 1});
  ASSERT_EQ(R.Analyses.size(), 1u);
  std::vector<const AccessResult *> Inits;
  for (const AccessResult &A : R.Analyses.front().Accesses)
    if (sourceText(A.Site.Expr, R.AST->getASTContext()).rfind("curand_init(", 0) == 0)
      Inits.push_back(&A);
  ASSERT_EQ(Inits.size(), 1u);
  const AccessResult &Init = *Inits.front();
  EXPECT_EQ(Init.Site.Op, AccessOp::Store);
  EXPECT_EQ(Init.Site.Space, MemorySpace::Global);
  EXPECT_EQ(Init.Site.BytesPerLane, 4u);
  EXPECT_EQ(Init.Status, AccessStatus::Assumed);
  EXPECT_DOUBLE_EQ(Init.Cost.SectorsPerRequest, 32.0);
  EXPECT_DOUBLE_EQ(Init.Cost.IdealSectorsPerRequest, 4.0);
  // One request per 4-byte piece of the state, per warp: 35 for each of
  // the 4 warps of a block, in the blocks simulated.
  EXPECT_EQ(Init.Cost.Requests % 35, 0u);
  ASSERT_FALSE(Init.Assumptions.empty());
  EXPECT_NE(Init.Assumptions.back().Text.find("curand_init sets every field"), std::string::npos);
}

} // namespace
