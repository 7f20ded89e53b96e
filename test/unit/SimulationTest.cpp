//===- SimulationTest.cpp - per-warp requests totalled into an access -----===//
//
// simulateLaunch runs the warp interpreter over a launch's warps and its
// aggregator costs each request with the hardware model and totals them
// per access site; costOf turns the totals into the per-request averages
// every check reports. The numbers below are worked out by hand: a global
// request costs one 32-byte sector per distinct sector its lanes touch, the
// ideal is ceil(unique bytes / 32); a shared request costs one wavefront
// per pass, as many as the lanes of its busiest bank use distinct words
// (CUDA C++ Best Practices Guide, "Coalesced Access to Global Memory" and
// "Shared Memory and Memory Banks").
//
//===----------------------------------------------------------------------===//

#include "Simulation.h"

#include "CudaTestUnit.h"

#include <gtest/gtest.h>

#include <map>

using namespace warpcheck::analysis;

namespace {

struct Launched {
  std::unique_ptr<clang::ASTUnit> AST;
  Simulation Sim;

  Launched(const std::string &Code, llvm::StringRef Name, Dim3 Block, Dim3 Grid,
           AnalysisOptions Options = {})
      : AST(warpcheck::testing::parseCuda(Code, warpcheck::testing::CudaSide::Device)) {
    const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(AST->getASTContext(), Name);
    EXPECT_TRUE(K) << Name.str();
    if (!K)
      return;
    LaunchConfig Launch;
    Launch.Block = Block;
    Launch.Grid = Grid;
    Launch.GridKnown = true;
    SampleValues Samples;
    InterpreterLimits Limits;
    std::map<const clang::VarDecl *, ArrayLayout> Layouts;
    Sim = simulateLaunch(K, Launch, Samples, Limits, Layouts, Options);
  }

  /// The totals of the access spelled Text doing Op (fails when absent).
  const SiteTotals &site(llvm::StringRef Text, AccessOp Op) const {
    for (const auto &[Key, Totals] : Sim.Sites)
      if (Key.Op == Op && sourceText(Key.E, AST->getASTContext()) == Text)
        return Totals;
    ADD_FAILURE() << "no " << opName(Op) << " of " << Text.str();
    static const SiteTotals None;
    return None;
  }
};

TEST(Simulation, CoalescedAndStridedLoadsCostTheirSectors) {
  const char *Code = R"(
__global__ void strides(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + in[2 * i];
}
)";
  // 2 blocks of 64 threads: 4 warps, all simulated.
  Launched L(Code, "strides", Dim3{64, 1, 1}, Dim3{2, 1, 1});
  EXPECT_EQ(L.Sim.SimulatedWarps, 4u);
  EXPECT_EQ(L.Sim.TotalWarps, 4u);
  // in[i]: 32 lanes x 4 bytes = 128 contiguous bytes from a 128-byte
  // boundary: 4 sectors, 1 line, the ideal.
  AccessCost Unit = costOf(L.site("in[i]", AccessOp::Load));
  EXPECT_EQ(Unit.Requests, 4u);
  EXPECT_DOUBLE_EQ(Unit.SectorsPerRequest, 4);
  EXPECT_DOUBLE_EQ(Unit.IdealSectorsPerRequest, 4);
  EXPECT_DOUBLE_EQ(Unit.LinesPerRequest, 1);
  EXPECT_DOUBLE_EQ(Unit.efficiency(MemorySpace::Global), 1.0);
  // in[2 * i]: lanes 8 bytes apart span 256 bytes: 8 sectors and 2 lines
  // for the 128 bytes that 4 sectors could deliver: 50%.
  AccessCost Stride2 = costOf(L.site("in[2 * i]", AccessOp::Load));
  EXPECT_EQ(Stride2.Requests, 4u);
  EXPECT_DOUBLE_EQ(Stride2.SectorsPerRequest, 8);
  EXPECT_DOUBLE_EQ(Stride2.IdealSectorsPerRequest, 4);
  EXPECT_DOUBLE_EQ(Stride2.LinesPerRequest, 2);
  EXPECT_DOUBLE_EQ(Stride2.IdealLinesPerRequest, 1);
  EXPECT_DOUBLE_EQ(Stride2.efficiency(MemorySpace::Global), 0.5);
}

// A device function run inline from two calls: its load is one access,
// whose requests through each call are costed apart as well (llm.c's
// load128(p) helper, called once per array, whose instructions nvcc's
// line table puts on each call's line).
TEST(Simulation, AnInlinedAccessIsCostedPerCall) {
  const char *Code = R"(
__device__ float fetch(const float *p, int i) { return p[i]; }
__global__ void twoCalls(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = fetch(in, i);
  float b = fetch(in, 32 * i);
  out[i] = a + b;
}
)";
  Launched L(Code, "twoCalls", Dim3{64, 1, 1}, Dim3{1, 1, 1});
  const SiteTotals &Fetch = L.site("p[i]", AccessOp::Load);
  // Both calls' requests: (4 + 32) / 2 sectors each, on average.
  AccessCost Both = costOf(Fetch);
  EXPECT_EQ(Both.Requests, 4u);
  EXPECT_DOUBLE_EQ(Both.SectorsPerRequest, 18);
  ASSERT_EQ(Fetch.ByCallSite.size(), 2u);
  std::map<std::string, AccessCost> ByCall;
  for (const auto &[Call, Totals] : Fetch.ByCallSite)
    ByCall[sourceText(Call, L.AST->getASTContext())] = costOf(Totals);
  EXPECT_EQ(ByCall["fetch(in, i)"].Requests, 2u);
  EXPECT_DOUBLE_EQ(ByCall["fetch(in, i)"].SectorsPerRequest, 4);
  EXPECT_EQ(ByCall["fetch(in, 32 * i)"].Requests, 2u);
  EXPECT_DOUBLE_EQ(ByCall["fetch(in, 32 * i)"].SectorsPerRequest, 32);
  // The kernel's own store is made through no call.
  EXPECT_TRUE(L.site("out[i]", AccessOp::Store).ByCallSite.empty());
}

TEST(Simulation, WarpsThatDifferAreAveraged) {
  const char *Code = R"(
__global__ void mixed(const float *in, float *out) {
  int t = threadIdx.x;
  out[t] = in[t < 32 ? t : 2 * t];
}
)";
  // Warp 0 reads in[0..31] (4 sectors); warp 1 reads in[64], in[66], ...,
  // in[126]: bytes 256-507, 8 sectors. Per request: (4 + 8) / 2 = 6
  // sectors for an ideal of 4, efficiency 4 / 6.
  Launched L(Code, "mixed", Dim3{64, 1, 1}, Dim3{1, 1, 1});
  const SiteTotals &T = L.site("in[t < 32 ? t : 2 * t]", AccessOp::Load);
  EXPECT_EQ(T.Requests, 2u);
  EXPECT_DOUBLE_EQ(T.Sectors, 12);
  EXPECT_DOUBLE_EQ(T.IdealSectors, 8);
  AccessCost C = costOf(T);
  EXPECT_DOUBLE_EQ(C.SectorsPerRequest, 6);
  EXPECT_DOUBLE_EQ(C.IdealSectorsPerRequest, 4);
  EXPECT_DOUBLE_EQ(C.efficiency(MemorySpace::Global), 4.0 / 6.0);
  // The worst request kept for messages is warp 1's (8 - 4 sectors over
  // the ideal, warp 0's 0): lane 0 at element 64, lanes 8 bytes apart.
  ASSERT_TRUE(T.Worst);
  EXPECT_EQ(T.WorstGlobal.Sectors, 8u);
  EXPECT_EQ(T.Worst->address(1) - T.Worst->address(0), 8u);
  EXPECT_EQ(T.Worst->address(0) % 4096, 256u);
}

TEST(Simulation, LoopIterationsAreRequestsOfOneSite) {
  const char *Code = R"(
__global__ void rows(const float *in, float *out) {
  float s = 0.0f;
  for (int k = 0; k < 8; ++k)
    s += in[k * 64 + threadIdx.x];
  out[threadIdx.x] = s;
}
)";
  // 2 warps x 8 iterations = 16 requests, each 32 contiguous floats at a
  // multiple of 128 bytes: 4 sectors.
  Launched L(Code, "rows", Dim3{64, 1, 1}, Dim3{1, 1, 1});
  const SiteTotals &T = L.site("in[k * 64 + threadIdx.x]", AccessOp::Load);
  EXPECT_EQ(T.Requests, 16u);
  EXPECT_DOUBLE_EQ(T.Sectors, 64);
  EXPECT_DOUBLE_EQ(costOf(T).SectorsPerRequest, 4);
  EXPECT_EQ(costOf(L.site("out[threadIdx.x]", AccessOp::Store)).Requests, 2u);
}

TEST(Simulation, SharedColumnConflictsInEveryBank) {
  const char *Code = R"(
__global__ void transpose(float *out) {
  __shared__ float tile[32][32];
  __shared__ float padded[32][33];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  padded[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] =
      tile[threadIdx.x][threadIdx.y] + padded[threadIdx.x][threadIdx.y];
}
)";
  // Block (32, 32): warp w is row threadIdx.y = w. Reading a column of
  // tile[32][32], lane L reads word 32 L: bank (32 L) % 32 = 0 for every
  // lane, 32 distinct words in one bank: 32 wavefronts, ideal 1. With rows
  // of 33 words, word 33 L is in bank L % 32: one wavefront.
  Launched L(Code, "transpose", Dim3{32, 32, 1}, Dim3{1, 1, 1});
  AccessCost Column = costOf(L.site("tile[threadIdx.x][threadIdx.y]", AccessOp::Load));
  EXPECT_EQ(Column.Requests, 32u);
  EXPECT_DOUBLE_EQ(Column.WavefrontsPerRequest, 32);
  EXPECT_DOUBLE_EQ(Column.IdealWavefrontsPerRequest, 1);
  EXPECT_DOUBLE_EQ(Column.efficiency(MemorySpace::Shared), 1.0 / 32);
  AccessCost Padded = costOf(L.site("padded[threadIdx.x][threadIdx.y]", AccessOp::Load));
  EXPECT_DOUBLE_EQ(Padded.WavefrontsPerRequest, 1);
  AccessCost Row = costOf(L.site("tile[threadIdx.y][threadIdx.x]", AccessOp::Store));
  EXPECT_DOUBLE_EQ(Row.WavefrontsPerRequest, 1);
}

TEST(Simulation, AggregatedAtomicIsOneLanesRequest) {
  const char *Code = R"(
__global__ void count(int *total, int *perThread) {
  atomicAdd(&total[blockIdx.x], 1);
  atomicAdd(&perThread[blockIdx.x * blockDim.x + threadIdx.x], 1);
}
)";
  // 2 blocks of 64 threads: 4 warp requests per site. &total[blockIdx.x]
  // is warp-uniform and the operand a constant: nvcc issues one 32-bit add
  // from one elected lane for the warp (test/hw/atomics/sass_census.csv),
  // 1 sector. The per-thread adds touch 32 distinct words: not aggregated.
  Launched L(Code, "count", Dim3{64, 1, 1}, Dim3{2, 1, 1});
  const SiteTotals *Total = nullptr, *PerThread = nullptr;
  for (const auto &[Key, T] : L.Sim.Sites) {
    if (Key.Op != AccessOp::Atomic)
      continue;
    if (sourceText(Key.E, L.AST->getASTContext()).find("total") != std::string::npos)
      Total = &T;
    else
      PerThread = &T;
  }
  ASSERT_TRUE(Total && PerThread);
  EXPECT_EQ(Total->Requests, 4u);
  EXPECT_EQ(Total->AggregatedRequests, 4u);
  EXPECT_DOUBLE_EQ(costOf(*Total).SectorsPerRequest, 1);
  EXPECT_EQ(PerThread->Requests, 4u);
  EXPECT_EQ(PerThread->AggregatedRequests, 0u);
}

TEST(Simulation, UnknownRequestsAreCountedApart) {
  const char *Code = R"(
__global__ void gather(const int *idx, const float *in, float *out) {
  out[threadIdx.x] = in[idx[threadIdx.x]];
}
)";
  Launched L(Code, "gather", Dim3{64, 1, 1}, Dim3{1, 1, 1});
  const SiteTotals &T = L.site("in[idx[threadIdx.x]]", AccessOp::Load);
  // Two warps, no address known: no request is costed.
  EXPECT_EQ(T.Requests, 0u);
  EXPECT_EQ(T.UnknownRequests, 2u);
  EXPECT_EQ(costOf(T).Requests, 0u);
  EXPECT_DOUBLE_EQ(costOf(T).SectorsPerRequest, 0);
}

TEST(Simulation, LargeLaunchIsSampledWithinTheWarpBudget) {
  const char *Code = R"(
__global__ void copy(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
)";
  // 1000 blocks of 256 threads (8 warps each): with at most 16 warps
  // simulated, one warp of each of 16 blocks from the first (0) to the
  // last (999), the warp rotating (SimulationPlan.h).
  AnalysisOptions Options;
  Options.MaxSimulatedWarps = 16;
  Launched L(Code, "copy", Dim3{256, 1, 1}, Dim3{1000, 1, 1}, Options);
  EXPECT_EQ(L.Sim.TotalWarps, 8000u);
  EXPECT_EQ(L.Sim.SimulatedWarps, 16u);
  ASSERT_EQ(L.Sim.Plan.Blocks.size(), 16u);
  EXPECT_EQ(L.Sim.Plan.Blocks.front(), 0u);
  EXPECT_EQ(L.Sim.Plan.Blocks.back(), 999u);
  EXPECT_EQ(L.Sim.Plan.Warps.back(), std::vector<unsigned>{7});
  EXPECT_EQ(costOf(L.site("in[i]", AccessOp::Load)).Requests, 16u);
}

TEST(Simulation, ASampleOfLargeBlocksFollowsTheGridsAlignment) {
  // Each block starts 12 bytes after the last: a warp's 128 bytes take 4
  // sectors when 12 * blockIdx.x is a multiple of 32 (blockIdx.x % 8 == 0),
  // 5 otherwise. Over the 39 blocks, 5 aligned: 190/39 = 4.872 a request.
  // Whole blocks of 1024 threads fit 4 blocks in 128 warps (0, 13, 25,
  // 38: one aligned, 4.75); 16 blocks of 8 warps each (two aligned, 0 and
  // 8) average 4.875.
  const char *Code = R"(
__global__ void shifted(const float *in, float *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x * 3 + threadIdx.x];
}
)";
  Launched L(Code, "shifted", Dim3{1024, 1, 1}, Dim3{39, 1, 1});
  EXPECT_EQ(L.Sim.SimulatedWarps, 128u);
  EXPECT_EQ(L.Sim.Plan.Blocks.size(), 16u);
  EXPECT_DOUBLE_EQ(costOf(L.site("in[blockIdx.x * 3 + threadIdx.x]", AccessOp::Load))
                       .SectorsPerRequest,
                   4.875);
}

TEST(Simulation, AFirstBlockSampledInPartIsCompletedForItsReuse) {
  // Each warp of a 1024-thread block reads the same 32 floats: every
  // element is read by 32 threads of the block, although the plan
  // simulates 8 of its 32 warps (the others are run for the reuse only,
  // and make no request).
  const char *Code = R"(
__global__ void row(const float *in, float *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x * 32 + threadIdx.x % 32];
}
)";
  Launched L(Code, "row", Dim3{1024, 1, 1}, Dim3{39, 1, 1});
  ASSERT_EQ(L.Sim.Plan.Warps.front().size(), 8u);
  const SiteTotals &T = L.site("in[blockIdx.x * 32 + threadIdx.x % 32]", AccessOp::Load);
  EXPECT_EQ(costOf(T).Requests, 128u);
  EXPECT_DOUBLE_EQ(T.FirstBlockReuse, 32);
  EXPECT_DOUBLE_EQ(T.FirstBlockElementsPerThread, 1);
}

TEST(Simulation, CostOfAveragesPerRequest) {
  SiteTotals T;
  T.Requests = 4;
  T.Sectors = 20;
  T.IdealSectors = 16;
  T.Lines = 6;
  T.IdealLines = 4;
  T.Wavefronts = 10;
  T.IdealWavefronts = 4;
  AccessCost C = costOf(T);
  EXPECT_EQ(C.Requests, 4u);
  EXPECT_DOUBLE_EQ(C.SectorsPerRequest, 5);
  EXPECT_DOUBLE_EQ(C.IdealSectorsPerRequest, 4);
  EXPECT_DOUBLE_EQ(C.LinesPerRequest, 1.5);
  EXPECT_DOUBLE_EQ(C.IdealLinesPerRequest, 1);
  EXPECT_DOUBLE_EQ(C.WavefrontsPerRequest, 2.5);
  EXPECT_DOUBLE_EQ(C.IdealWavefrontsPerRequest, 1);
  EXPECT_DOUBLE_EQ(C.efficiency(MemorySpace::Global), 0.8);
  EXPECT_DOUBLE_EQ(C.efficiency(MemorySpace::Shared), 0.4);
  EXPECT_DOUBLE_EQ(C.lineEfficiency(), 4.0 / 6.0);
  // No costed request: zero averages, not a division by zero.
  SiteTotals Empty;
  Empty.UnknownRequests = 3;
  AccessCost Z = costOf(Empty);
  EXPECT_EQ(Z.Requests, 0u);
  EXPECT_DOUBLE_EQ(Z.SectorsPerRequest, 0);
  EXPECT_DOUBLE_EQ(Z.WavefrontsPerRequest, 0);
}

TEST(Simulation, FirstBlockReuseCountsTheThreadsPerElement) {
  const char *Code = R"(
__global__ void naive(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < 64; ++k)
    sum += A[row * 64 + k] * B[k * 64 + col];
  C[row * 64 + col] = sum;
}
)";
  // (16, 16) blocks: each element of A is read by the 16 threads of its
  // row, each of B by the 16 of its column; C is written, not read.
  Launched L(Code, "naive", Dim3{16, 16, 1}, Dim3{4, 4, 1});
  EXPECT_DOUBLE_EQ(L.site("A[row * 64 + k]", AccessOp::Load).FirstBlockReuse, 16);
  EXPECT_DOUBLE_EQ(L.site("B[k * 64 + col]", AccessOp::Load).FirstBlockReuse, 16);
  EXPECT_DOUBLE_EQ(L.site("C[row * 64 + col]", AccessOp::Store).FirstBlockReuse, 0);
  // Each thread walks its 64 elements of a row of A and a column of B.
  EXPECT_DOUBLE_EQ(L.site("A[row * 64 + k]", AccessOp::Load).FirstBlockElementsPerThread, 64);
  // A warp holds two rows of the block: per k it fetches the sector of
  // each row's A element, each sector again for 8 values of k; B's two
  // sectors of a row k, once per warp (8 warps). Both: each sector 8 times.
  EXPECT_DOUBLE_EQ(L.site("A[row * 64 + k]", AccessOp::Load).FirstBlockSectorFetches, 8);
  EXPECT_DOUBLE_EQ(L.site("B[k * 64 + col]", AccessOp::Load).FirstBlockSectorFetches, 8);
  // 64 iterations of every lane of the simulated warps (the launch's step
  // budget allows a few of the 16 blocks).
  double Lanes = 32.0 * L.Sim.SimulatedWarps;
  EXPECT_LT(L.Sim.SimulatedWarps, L.Sim.TotalWarps);
  EXPECT_DOUBLE_EQ(L.site("A[row * 64 + k]", AccessOp::Load).LaneAccesses, 64 * Lanes);
  // One FFMA per lane and iteration: 2 FLOPs, all inside the loop.
  EXPECT_EQ(L.Sim.Flops[warpcheck::model::FloatPrecision::Single].Fma, 64 * Lanes);
  ASSERT_EQ(L.Sim.LoopFlops.size(), 1u);
  EXPECT_DOUBLE_EQ(L.Sim.LoopFlops.begin()->second, 2 * 64 * Lanes);
}

TEST(Simulation, AWarpUniformStreamFetchesEachSectorOnce) {
  // Every lane of a one-warp block reads item i, i striding 64 items (256
  // bytes): 32 threads per element, but one request per element, each
  // sector fetched once. No tile could read less of it.
  const char *Code = R"(
__global__ void owned(const int *items, float *out) {
  for (int i = blockIdx.x; i < 4096; i += 64)
    out[i * 32 + threadIdx.x] = items[i];
}
)";
  Launched L(Code, "owned", Dim3{32, 1, 1}, Dim3{64, 1, 1});
  const SiteTotals &T = L.site("items[i]", AccessOp::Load);
  EXPECT_DOUBLE_EQ(T.FirstBlockReuse, 32);
  EXPECT_DOUBLE_EQ(T.FirstBlockElementsPerThread, 64);
  EXPECT_DOUBLE_EQ(T.FirstBlockSectorFetches, 1);
}

} // namespace
