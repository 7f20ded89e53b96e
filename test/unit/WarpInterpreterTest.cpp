//===- WarpInterpreterTest.cpp - one warp of a kernel, lane by lane -------===//
//
// Small kernels parsed device side and run by the warp interpreter for one
// warp of a launch shape; each test checks the requests it records: which
// lanes are active and the byte address of each, worked out by hand in the
// comments. Pointer parameters get an allocation each (256-byte aligned, as
// cudaMalloc returns); the tests compare addresses within one allocation
// and across warps, never the base the interpreter happens to choose.
//
//===----------------------------------------------------------------------===//

#include "interp/WarpInterpreter.h"
#include "warpcheck/analysis/KernelAnalysis.h"

#include "CudaTestUnit.h"

#include <gtest/gtest.h>

using namespace warpcheck::analysis;
using warpcheck::model::WarpAddressSet;

namespace {

/// A kernel run warp by warp, its requests kept in order.
struct WarpRun {
  std::unique_ptr<clang::ASTUnit> AST;
  const clang::FunctionDecl *Kernel = nullptr;
  LaunchConfig Launch;
  SampleValues Samples;
  InterpreterLimits Limits;
  std::map<const clang::VarDecl *, ArrayLayout> Layouts;
  std::vector<RecordedRequest> Requests;
  std::unique_ptr<WarpInterpreter> Interp;

  WarpRun(const std::string &Code, llvm::StringRef Name, Dim3 Block, Dim3 Grid)
      : AST(warpcheck::testing::parseCuda(Code, warpcheck::testing::CudaSide::Device)) {
    Kernel = warpcheck::testing::kernelNamed(AST->getASTContext(), Name);
    Launch.Block = Block;
    Launch.Grid = Grid;
    Launch.GridKnown = true;
    Interp = std::make_unique<WarpInterpreter>(
        AST->getASTContext(), Launch, Samples, Limits, Layouts,
        [this](const RecordedRequest &R) { Requests.push_back(R); });
  }

  /// Runs warp Warp of block (BlockX, 0, 0); returns the requests it made.
  std::vector<RecordedRequest> run(unsigned Warp, unsigned BlockX = 0) {
    EXPECT_TRUE(Kernel);
    Requests.clear();
    if (Kernel)
      Interp->runWarp(Kernel, WarpPosition{Dim3{BlockX, 0, 0}, Warp});
    return Requests;
  }

  /// The requests of the access spelled Text doing Op.
  std::vector<RecordedRequest> of(const std::vector<RecordedRequest> &All,
                                  llvm::StringRef Text, AccessOp Op) const {
    std::vector<RecordedRequest> Out;
    for (const RecordedRequest &R : All)
      if (R.Site.Op == Op && sourceText(R.Site.Expr, AST->getASTContext()) == Text)
        Out.push_back(R);
    return Out;
  }

  /// The addresses of the one request of Text's Op in All; nullopt when
  /// there is not exactly one, or its addresses are not known.
  std::optional<WarpAddressSet> onlyAddresses(const std::vector<RecordedRequest> &All,
                                              llvm::StringRef Text, AccessOp Op) const {
    std::vector<RecordedRequest> Matching = of(All, Text, Op);
    if (Matching.size() != 1)
      return std::nullopt;
    return Matching.front().Addresses;
  }
};

/// Lane L's address minus lane 0's (both must be active).
std::int64_t fromLaneZero(const WarpAddressSet &S, unsigned L) {
  return static_cast<std::int64_t>(S.address(L) - S.address(0));
}

const char *Copy = R"(
__global__ void copy(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
)";

TEST(WarpInterpreter, CoalescedLoadAddressesFollowTheGlobalIndex) {
  WarpRun R(Copy, "copy", Dim3{128, 1, 1}, Dim3{4, 1, 1});
  std::vector<RecordedRequest> First = R.run(0, 0);
  // One load of in[i] and one store to out[i].
  ASSERT_EQ(First.size(), 2u);
  std::vector<RecordedRequest> Loads = R.of(First, "in[i]", AccessOp::Load);
  ASSERT_EQ(Loads.size(), 1u);
  ASSERT_TRUE(Loads[0].Addresses);
  const WarpAddressSet &A = *Loads[0].Addresses;
  EXPECT_EQ(A.activeMask(), 0xffffffffu);
  EXPECT_EQ(A.bytesPerLane(), 4u);
  EXPECT_EQ(Loads[0].Site.Space, MemorySpace::Global);
  EXPECT_FALSE(Loads[0].UnderUncertainMask);
  // Lane L reads in[L]: 4 bytes apart, lane 0 at the allocation's start.
  for (unsigned L = 0; L < 32; ++L)
    EXPECT_EQ(fromLaneZero(A, L), 4 * L) << L;
  EXPECT_EQ(A.address(0) % 256, 0u);
  ASSERT_EQ(R.of(First, "out[i]", AccessOp::Store).size(), 1u);

  // Warp 1 of block 2: i = 2 * 128 + 32 + L, so lane 0 reads in[288],
  // 288 * 4 = 1152 bytes after block 0's warp 0.
  std::vector<RecordedRequest> Later = R.of(R.run(1, 2), "in[i]", AccessOp::Load);
  ASSERT_EQ(Later.size(), 1u);
  ASSERT_TRUE(Later[0].Addresses);
  EXPECT_EQ(Later[0].Addresses->address(0) - A.address(0), 1152u);
  EXPECT_EQ(Later[0].Addresses->address(31) - A.address(0), 1152u + 31 * 4);
}

TEST(WarpInterpreter, StructParameterPointersAreAllocationsOfTheirOwn) {
  // A structure-of-arrays view passed by value: each pointer field, nested
  // ones included, points to an allocation of its own, at its start.
  const char *Code = R"(
struct Inner { double *w; };
struct View { float *x; float *y; int n; Inner in; };
__global__ void fields(View v, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = v.x[i] + v.y[2 * i] + (float)v.in.w[i];
}
)";
  WarpRun R(Code, "fields", Dim3{64, 1, 1}, Dim3{1, 1, 1});
  std::vector<RecordedRequest> All = R.run(1);
  std::vector<RecordedRequest> X = R.of(All, "v.x[i]", AccessOp::Load);
  std::vector<RecordedRequest> Y = R.of(All, "v.y[2 * i]", AccessOp::Load);
  std::vector<RecordedRequest> W = R.of(All, "v.in.w[i]", AccessOp::Load);
  ASSERT_EQ(X.size(), 1u);
  ASSERT_EQ(Y.size(), 1u);
  ASSERT_EQ(W.size(), 1u);
  ASSERT_TRUE(X[0].Addresses && Y[0].Addresses && W[0].Addresses);
  EXPECT_EQ(X[0].Site.Space, MemorySpace::Global);
  // Warp 1: i = 32 + L. x[i] is 4 bytes a lane, y[2i] 8, w[i] 8 (doubles);
  // lane 0 at element 32 (64 of y) of an allocation starting 256-aligned.
  for (unsigned L = 0; L < 32; ++L) {
    EXPECT_EQ(fromLaneZero(*X[0].Addresses, L), 4 * L) << L;
    EXPECT_EQ(fromLaneZero(*Y[0].Addresses, L), 8 * L) << L;
    EXPECT_EQ(fromLaneZero(*W[0].Addresses, L), 8 * L) << L;
  }
  EXPECT_EQ(X[0].Addresses->address(0) % 256, 128u);
  EXPECT_EQ(Y[0].Addresses->address(0) % 256, 0u);
  EXPECT_EQ(W[0].Addresses->address(0) % 256, 0u);
  // Three allocations: far apart, none of them the output's.
  std::uint64_t Bases[] = {X[0].Addresses->address(0) - 128, Y[0].Addresses->address(0) - 256,
                           W[0].Addresses->address(0) - 256};
  EXPECT_NE(Bases[0], Bases[1]);
  EXPECT_NE(Bases[1], Bases[2]);
  EXPECT_NE(Bases[0], Bases[2]);
  // The same allocations in every warp.
  std::vector<RecordedRequest> Warp0 = R.of(R.run(0), "v.x[i]", AccessOp::Load);
  ASSERT_EQ(Warp0.size(), 1u);
  ASSERT_TRUE(Warp0[0].Addresses);
  EXPECT_EQ(X[0].Addresses->address(0) - Warp0[0].Addresses->address(0), 128u);
}

TEST(WarpInterpreter, StridedAndColumnAddresses) {
  const char *Code = R"(
struct Pair { float x, y; };
__global__ void strides(const float *in, const Pair *pairs, float *out) {
  __shared__ float tile[32][32];
  int t = threadIdx.x;
  tile[t][0] = in[2 * t];
  __syncthreads();
  out[t] = tile[0][t] + pairs[t].y;
}
)";
  WarpRun R(Code, "strides", Dim3{32, 1, 1}, Dim3{1, 1, 1});
  std::vector<RecordedRequest> All = R.run(0);
  // in[2 * t]: 8 bytes apart (two floats).
  std::vector<RecordedRequest> Stride2 = R.of(All, "in[2 * t]", AccessOp::Load);
  ASSERT_EQ(Stride2.size(), 1u);
  ASSERT_TRUE(Stride2[0].Addresses);
  for (unsigned L = 0; L < 32; ++L)
    EXPECT_EQ(fromLaneZero(*Stride2[0].Addresses, L), 8 * L);
  // tile[t][0]: a row of 32 floats is 128 bytes, so lanes are 128 apart,
  // in shared memory, through the variable 'tile'.
  std::vector<RecordedRequest> Column = R.of(All, "tile[t][0]", AccessOp::Store);
  ASSERT_EQ(Column.size(), 1u);
  ASSERT_TRUE(Column[0].Addresses);
  EXPECT_EQ(Column[0].Site.Space, MemorySpace::Shared);
  ASSERT_TRUE(Column[0].Site.SharedVar);
  EXPECT_EQ(Column[0].Site.SharedVar->getName(), "tile");
  for (unsigned L = 0; L < 32; ++L)
    EXPECT_EQ(fromLaneZero(*Column[0].Addresses, L), 128 * L);
  // tile[0][t]: the row, 4 bytes apart, starting where the column did.
  std::vector<RecordedRequest> Row = R.of(All, "tile[0][t]", AccessOp::Load);
  ASSERT_EQ(Row.size(), 1u);
  ASSERT_TRUE(Row[0].Addresses);
  EXPECT_EQ(Row[0].Addresses->address(0), Column[0].Addresses->address(0));
  EXPECT_EQ(fromLaneZero(*Row[0].Addresses, 31), 124);
  // pairs[t].y: a field 4 bytes into an 8-byte struct, 4 bytes wide.
  std::vector<RecordedRequest> Field = R.of(All, "pairs[t].y", AccessOp::Load);
  ASSERT_EQ(Field.size(), 1u);
  ASSERT_TRUE(Field[0].Addresses);
  EXPECT_EQ(Field[0].Addresses->bytesPerLane(), 4u);
  EXPECT_EQ(Field[0].Addresses->address(0) % 256, 4u);
  EXPECT_EQ(fromLaneZero(*Field[0].Addresses, 1), 8);
}

TEST(WarpInterpreter, BranchesSplitTheActiveMask) {
  const char *Code = R"(
__global__ void branches(float *a, float *b, float *c, int n) {
  int t = threadIdx.x;
  if (t & 1)
    a[t] = 1.0f;
  else
    b[t] = 2.0f;
  if (t < n)
    c[t] = 3.0f;
}
)";
  WarpRun R(Code, "branches", Dim3{32, 1, 1}, Dim3{1, 1, 1});
  // n is bound at the launch: 10.
  const clang::FunctionDecl *K = R.Kernel;
  ASSERT_TRUE(K);
  R.Launch.Arguments[K->getParamDecl(3)].Integer = 10;
  std::vector<RecordedRequest> All = R.run(0);
  // Odd lanes take the then-branch, even lanes the else-branch.
  std::vector<RecordedRequest> Odd = R.of(All, "a[t]", AccessOp::Store);
  std::vector<RecordedRequest> Even = R.of(All, "b[t]", AccessOp::Store);
  ASSERT_EQ(Odd.size(), 1u);
  ASSERT_EQ(Even.size(), 1u);
  ASSERT_TRUE(Odd[0].Addresses && Even[0].Addresses);
  EXPECT_EQ(Odd[0].Addresses->activeMask(), 0xaaaaaaaau);
  EXPECT_EQ(Even[0].Addresses->activeMask(), 0x55555555u);
  // t < 10: lanes 0-9, mask 2^10 - 1. A condition on known values is no
  // uncertainty.
  std::vector<RecordedRequest> Guarded = R.of(All, "c[t]", AccessOp::Store);
  ASSERT_EQ(Guarded.size(), 1u);
  ASSERT_TRUE(Guarded[0].Addresses);
  EXPECT_EQ(Guarded[0].Addresses->activeMask(), 0x3ffu);
  EXPECT_FALSE(Guarded[0].UnderUncertainMask);
}

TEST(WarpInterpreter, PartialLastWarpHasOnlyItsThreads) {
  // A block of 40 threads: warp 1 holds threads 32-39, lanes 0-7.
  WarpRun R(Copy, "copy", Dim3{40, 1, 1}, Dim3{1, 1, 1});
  std::vector<RecordedRequest> Loads = R.of(R.run(1), "in[i]", AccessOp::Load);
  ASSERT_EQ(Loads.size(), 1u);
  ASSERT_TRUE(Loads[0].Addresses);
  EXPECT_EQ(Loads[0].Addresses->activeMask(), 0xffu);
  EXPECT_EQ(Loads[0].Addresses->activeLanes(), 8u);
}

TEST(WarpInterpreter, TwoDimensionalBlockLaysThreadsOutXFirst) {
  const char *Code = R"(
__global__ void grid2d(float *out, int pitch) {
  out[threadIdx.y * pitch + threadIdx.x] = 0.0f;
}
)";
  // Block (8, 8): lane L is thread (L % 8, L / 8) of warp 0; with pitch 64
  // lane L writes element (L / 8) * 64 + L % 8.
  WarpRun R(Code, "grid2d", Dim3{8, 8, 1}, Dim3{1, 1, 1});
  R.Launch.Arguments[R.Kernel->getParamDecl(1)].Integer = 64;
  std::vector<RecordedRequest> Stores =
      R.of(R.run(0), "out[threadIdx.y * pitch + threadIdx.x]", AccessOp::Store);
  ASSERT_EQ(Stores.size(), 1u);
  ASSERT_TRUE(Stores[0].Addresses);
  for (unsigned L = 0; L < 32; ++L)
    EXPECT_EQ(fromLaneZero(*Stores[0].Addresses, L), 4 * ((L / 8) * 64 + L % 8)) << L;
}

TEST(WarpInterpreter, LoopRecordsOneRequestPerIteration) {
  const char *Code = R"(
__global__ void loop(float *out) {
  for (int k = 0; k < 4; ++k)
    out[k * 32 + threadIdx.x] = 0.0f;
  for (int j = 0; j < threadIdx.x % 4; ++j)
    out[j] += 1.0f;
}
)";
  WarpRun R(Code, "loop", Dim3{32, 1, 1}, Dim3{1, 1, 1});
  std::vector<RecordedRequest> All = R.run(0);
  // Four iterations, each a full warp 128 bytes (32 floats) after the last.
  std::vector<RecordedRequest> Steps = R.of(All, "out[k * 32 + threadIdx.x]", AccessOp::Store);
  ASSERT_EQ(Steps.size(), 4u);
  for (unsigned K = 0; K < 4; ++K) {
    ASSERT_TRUE(Steps[K].Addresses);
    EXPECT_EQ(Steps[K].Addresses->activeMask(), 0xffffffffu);
    EXPECT_EQ(Steps[K].Addresses->address(0) - Steps[0].Addresses->address(0), 128u * K);
  }
  // Lane L runs L % 4 iterations: iteration j has the lanes with L % 4 > j,
  // 3 of every 4 lanes (0xe per nibble), then 2 (0xc), then 1 (0x8); out[j]
  // += 1 is a load and a store, all lanes at one address.
  std::vector<RecordedRequest> Loads = R.of(All, "out[j]", AccessOp::Load);
  std::vector<RecordedRequest> Stores = R.of(All, "out[j]", AccessOp::Store);
  ASSERT_EQ(Loads.size(), 3u);
  ASSERT_EQ(Stores.size(), 3u);
  const std::uint32_t Masks[3] = {0xeeeeeeeeu, 0xccccccccu, 0x88888888u};
  for (unsigned J = 0; J < 3; ++J) {
    ASSERT_TRUE(Stores[J].Addresses);
    EXPECT_EQ(Stores[J].Addresses->activeMask(), Masks[J]) << J;
    EXPECT_EQ(Stores[J].Addresses->uniqueBytes(), 4u) << J;
    EXPECT_EQ(Stores[J].Addresses->address(31) - Steps[0].Addresses->address(0), 4u * J);
  }
}

TEST(WarpInterpreter, AddressReadFromMemoryIsUnknown) {
  const char *Code = R"(
__global__ void gather(const int *idx, const float *in, float *out) {
  int t = threadIdx.x;
  if (in[t] > 0.0f)
    out[t] = in[idx[t]];
}
)";
  WarpRun R(Code, "gather", Dim3{32, 1, 1}, Dim3{1, 1, 1});
  std::vector<RecordedRequest> All = R.run(0);
  // in[idx[t]]: the index is data, so no address is claimed.
  std::vector<RecordedRequest> Gather = R.of(All, "in[idx[t]]", AccessOp::Load);
  ASSERT_EQ(Gather.size(), 1u);
  EXPECT_FALSE(Gather[0].Addresses);
  // The index load itself is known: idx[t], 4 bytes apart.
  std::vector<RecordedRequest> Index = R.of(All, "idx[t]", AccessOp::Load);
  ASSERT_EQ(Index.size(), 1u);
  ASSERT_TRUE(Index[0].Addresses);
  EXPECT_EQ(fromLaneZero(*Index[0].Addresses, 31), 124);
  // Both sit under a branch on data: every lane is simulated as if it took
  // it, and the requests say their mask is uncertain.
  EXPECT_TRUE(Gather[0].UnderUncertainMask);
  EXPECT_EQ(Index[0].Addresses->activeMask(), 0xffffffffu);
  EXPECT_TRUE(Index[0].UnderUncertainMask);
  std::vector<RecordedRequest> Cond = R.of(All, "in[t]", AccessOp::Load);
  ASSERT_EQ(Cond.size(), 1u);
  EXPECT_FALSE(Cond[0].UnderUncertainMask);
}

TEST(WarpInterpreter, UnboundParameterTakesTheSampledValue) {
  const char *Code = R"(
__global__ void scaled(float *out, int n) {
  out[threadIdx.x * n] = 0.0f;
}
)";
  WarpRun R(Code, "scaled", Dim3{32, 1, 1}, Dim3{1, 1, 1});
  R.Samples.UnboundInteger = 3;
  std::vector<RecordedRequest> Stores = R.of(R.run(0), "out[threadIdx.x * n]", AccessOp::Store);
  ASSERT_EQ(Stores.size(), 1u);
  ASSERT_TRUE(Stores[0].Addresses);
  // n = 3: lanes 12 bytes apart; the sample was read.
  EXPECT_EQ(fromLaneZero(*Stores[0].Addresses, 1), 12);
  EXPECT_EQ(R.Interp->sampledSymbolsRead().count("n"), 1u);
}

TEST(WarpInterpreter, LoopCutByTheBudgetLeavesItsCounterAtItsExitValue) {
  // 4096 / 32 = 128 iterations, cut at MaxLoopIterations: the counter still
  // leaves the loop at 4096 + lane (the first value past the bound), and
  // the store after the loop has known addresses, lanes 4 bytes apart. A
  // loop that may leave by a break keeps its counter unknown.
  const char *Code = R"(
__global__ void past(float *out, int n) {
  int i = threadIdx.x;
  for (; i < n; i += 32)
    out[i] = 1.0f;
  out[i + n] = 2.0f;
  int j = threadIdx.x;
  for (; j < n; j += 32)
    if (out[j] > 3.0f)
      break;
  out[j] = 3.0f;
}
)";
  WarpRun R(Code, "past", Dim3{32, 1, 1}, Dim3{1, 1, 1});
  R.Samples.UnboundInteger = 4096;
  R.Limits.MaxLoopIterations = 64;
  std::vector<RecordedRequest> All = R.run(0);
  std::vector<RecordedRequest> After = R.of(All, "out[i + n]", AccessOp::Store);
  ASSERT_EQ(After.size(), 1u);
  ASSERT_TRUE(After[0].Addresses);
  EXPECT_EQ(After[0].Addresses->activeLanes(), 32u);
  EXPECT_EQ(fromLaneZero(*After[0].Addresses, 31), 31 * 4);
  // out[i + n] at i = 4096 + lane: byte (8192 + lane) * 4 of out.
  std::vector<RecordedRequest> First = R.of(All, "out[i]", AccessOp::Store);
  ASSERT_FALSE(First.empty());
  ASSERT_TRUE(First[0].Addresses);
  EXPECT_EQ(After[0].Addresses->address(0) - First[0].Addresses->address(0), 8192u * 4);
  std::vector<RecordedRequest> Broken = R.of(All, "out[j]", AccessOp::Store);
  ASSERT_EQ(Broken.size(), 1u);
  EXPECT_FALSE(Broken[0].Addresses);
}

TEST(WarpInterpreter, WritesThroughAReferenceReachTheVariable) {
  // An out-parameter (the CUDA samples' `udivmod(i, d, x)`) and a local
  // reference: what the callee writes is the caller's variable. Before,
  // the callee got a copy, and the stores below were costed at lane-0's
  // unchanged value (x = 0: one word for every lane) and called exact.
  const char *Code = R"(
__device__ void divmod(unsigned &dividend, unsigned divisor, unsigned &rem) {
  rem = dividend % divisor;
  dividend /= divisor;
}
__global__ void split(float *out) {
  unsigned i = threadIdx.x, x;
  divmod(i, 8, x);
  out[x * 100 + i] = 1.0f;
  unsigned &r = x;
  r += 1;
  out[x] = 2.0f;
}
)";
  WarpRun R(Code, "split", Dim3{32, 1, 1}, Dim3{1, 1, 1});
  std::vector<RecordedRequest> All = R.run(0);
  std::optional<WarpAddressSet> Split = R.onlyAddresses(All, "out[x * 100 + i]", AccessOp::Store);
  ASSERT_TRUE(Split);
  // Lane 9: x = 1, i = 1: element 101; lane 0: element 0.
  EXPECT_EQ(fromLaneZero(*Split, 9), 101 * 4);
  EXPECT_EQ(fromLaneZero(*Split, 31), (7 * 100 + 3) * 4);
  std::optional<WarpAddressSet> Bumped = R.onlyAddresses(All, "out[x]", AccessOp::Store);
  ASSERT_TRUE(Bumped);
  // x + 1 through r: lane 0 writes element 1, lane 7 element 8.
  EXPECT_EQ(fromLaneZero(*Bumped, 7), 7 * 4);
  EXPECT_EQ(Bumped->address(1) - Split->address(0), 2u * 4);
}

TEST(WarpInterpreter, WarpVotesAreEvaluated) {
  // A lane's rank among the voters packs the writes of every third lane
  // (out-parameters.cu's ballotRank); __any_sync, __all_sync and
  // __activemask; and a ballot under a branch on data is not known.
  const char *Code = R"(
__global__ void votes(int *out, const int *flags) {
  unsigned lane = threadIdx.x % 32;
  bool writes = lane % 3 == 0;
  unsigned mask = __ballot_sync(0xffffffffu, writes);
  if (writes)
    out[__popc(mask & ((1u << lane) - 1))] = 1;
  if (lane < 8) {
    unsigned active = __activemask();
    int any = __any_sync(active, lane == 5), all = __all_sync(active, lane < 7);
    out[__popc(active) * 10 + any * 100 + all * 1000 + lane] = 2;
  }
  if (flags[threadIdx.x] > 0) {
    unsigned guessed = __ballot_sync(__activemask(), 1);
    out[__popc(guessed) + lane] = 3;
  }
}
)";
  WarpRun R(Code, "votes", Dim3{32, 1, 1}, Dim3{1, 1, 1});
  std::vector<RecordedRequest> All = R.run(0);
  std::optional<WarpAddressSet> Ranked =
      R.onlyAddresses(All, "out[__popc(mask & ((1u << lane) - 1))]", AccessOp::Store);
  ASSERT_TRUE(Ranked);
  // Lanes 0, 3, ..., 30 (11 of them) write elements 0 to 10.
  EXPECT_EQ(Ranked->activeLanes(), 11u);
  EXPECT_EQ(fromLaneZero(*Ranked, 3), 1 * 4);
  EXPECT_EQ(fromLaneZero(*Ranked, 30), 10 * 4);
  std::optional<WarpAddressSet> Voted = R.onlyAddresses(
      All, "out[__popc(active) * 10 + any * 100 + all * 1000 + lane]", AccessOp::Store);
  ASSERT_TRUE(Voted);
  // 8 lanes active, one says lane == 5, not all say lane < 7: 80 + 100 + lane.
  EXPECT_EQ(Voted->activeLanes(), 8u);
  EXPECT_EQ(Voted->address(0) - Ranked->address(0), 180u * 4);
  EXPECT_FALSE(R.onlyAddresses(All, "out[__popc(guessed) + lane]", AccessOp::Store));
}

TEST(WarpInterpreter, AVariableWrittenThroughItsAddressIsTheLanes) {
  // dxtc's `ushort start; evalPermutation4(..., &start, ...)` writing
  // `*w = ...`: the store is to the lane's own variable, not to global
  // memory, and the variable then holds what was stored.
  const char *Code = R"(
__device__ void setTo(unsigned *w, unsigned v) { *w = v; }
__global__ void viaPointer(float *out) {
  unsigned x;
  setTo(&x, threadIdx.x * 2);
  out[x] = 1.0f;
}
)";
  WarpRun R(Code, "viaPointer", Dim3{32, 1, 1}, Dim3{1, 1, 1});
  std::vector<RecordedRequest> All = R.run(0);
  // One request: the store to out, lane L at element 2L.
  ASSERT_EQ(All.size(), 1u);
  std::optional<WarpAddressSet> Out = R.onlyAddresses(All, "out[x]", AccessOp::Store);
  ASSERT_TRUE(Out);
  EXPECT_EQ(fromLaneZero(*Out, 5), 10 * 4);
  EXPECT_EQ(fromLaneZero(*Out, 31), 62 * 4);
}

} // namespace
