//===- HostEvaluatorTest.cpp - launch shapes from host code ---------------===//
//
// Programs parsed host side with the bundled CUDA declarations; each test
// asks the launch-site index for a kernel's shapes, as the engine does, and
// checks the block (and grid, shared bytes, bound arguments, context or the
// reason a launch could not be used) the host code gives it.
//
//===----------------------------------------------------------------------===//

#include "host/DeviceProperties.h"
#include "warpcheck/analysis/LaunchConfig.h"

#include "CudaTestUnit.h"
#include "HostLaunchUnit.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

using namespace warpcheck::analysis;

namespace {

using warpcheck::testing::blocks;
using warpcheck::testing::HostUnit;
using warpcheck::testing::multiplesPassed;
using warpcheck::testing::integerArgument;
using warpcheck::testing::Kernels;
using Unit = HostUnit;

TEST(HostEvaluator, FieldStoresAndLaterAssignments) {
  Unit U(std::string(Kernels) + R"(
int main() {
  float *p;
  dim3 threads;
  threads.x = 64;
  threads.y = 4;
  int bs;
  bs = 16;
  bs *= 2;
  int grid = 4096 / bs;
  k<<<grid, threads, bs * 4>>>(p + 3, bs);
  return 0;
})");
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Source, LaunchSource::LaunchSite);
  EXPECT_EQ(Cs[0].Block.str(), "(64, 4, 1)");
  EXPECT_TRUE(Cs[0].GridKnown);
  EXPECT_EQ(Cs[0].Grid.str(), "(128, 1, 1)");
  EXPECT_EQ(Cs[0].DynamicSharedBytes, 128u);
  ASSERT_EQ(Cs[0].Arguments.size(), 2u);
  for (const auto &[P, A] : Cs[0].Arguments) {
    if (P->getName() == "p")
      EXPECT_EQ(A.PointerOffsetBytes, 12); // p + 3 floats
    else
      EXPECT_EQ(A.Integer, 32);
  }
}

TEST(HostEvaluator, BranchesJoinWhenTheyAgree) {
  Unit U(std::string(Kernels) + R"(
__global__ void other(float *p, int n) {}
int main(int argc, char **argv) {
  float *p;
  int same, differ = 128;
  if (argc > 1) same = 96; else same = 96;
  if (argc > 2) differ = 512;
  k<<<1, same>>>(p, 0);
  switch (argc) { case 1: differ = 64; break; case 2: differ = 32; break; }
  other<<<1, differ>>>(p, 0);
  return 0;
})");
  EXPECT_EQ(blocks(U.configs("k")), std::vector<std::string>{"(96, 1, 1)"});
  // The ways of a switch on a value read at run time are not kept apart.
  auto Other = U.configs("other");
  ASSERT_EQ(Other.size(), 1u);
  EXPECT_EQ(Other[0].Source, LaunchSource::Default);
  ASSERT_EQ(Other[0].Unevaluated.size(), 1u);
  EXPECT_EQ(Other[0].Unevaluated[0],
            "the launch at unit.cu:11 uses 'differ', a value that differs between the "
            "paths that meet after the switch at unit.cu:10");
}

TEST(HostEvaluator, BranchesThatDisagreeLaunchOncePerWay) {
  Unit U(std::string(Kernels) + R"(
#include <cstdlib>
__global__ void chained(float *p, int n) {}
__global__ void levels(float *p, int n) {}
void pick(int n, int &threads, int &blocks) {
  if (n == 1) { threads = 1; blocks = 1; }
  else { threads = 1024; blocks = (n + 1023) / 1024; }
}
int main(int argc, char **argv) {
  float *p;
  int n = std::atoi(argv[1]);
  int threads, blocks;
  pick(n, threads, blocks);
  k<<<blocks, threads, threads * sizeof(float)>>>(p, threads / 2);
  int bs;
  if (n > 4096) bs = 512; else if (n > 1024) bs = 256; else bs = 128;
  chained<<<1, bs>>>(p, n < 64 ? 64 : bs);
  dim3 block;
  unsigned lv = std::atoi(argv[2]), step = lv;
  if (lv <= 10) block.x = n / 2; else { block.x = 512; step = 10; }
  levels<<<1, block>>>(p, step);
  return 0;
})");
  // A value set on each way of a branch (through a reference parameter),
  // and what is computed from it, go together: 1 thread with 4 bytes and
  // n = 0, or 1024 threads with 4096 bytes and n = 512.
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 2u);
  EXPECT_EQ(Cs[0].Block.str(), "(1, 1, 1)");
  EXPECT_TRUE(Cs[0].GridKnown);
  EXPECT_EQ(Cs[0].Grid.str(), "(1, 1, 1)");
  EXPECT_EQ(Cs[0].DynamicSharedBytes, 4u);
  EXPECT_EQ(Cs[1].Block.str(), "(1024, 1, 1)");
  EXPECT_FALSE(Cs[1].GridKnown);
  EXPECT_EQ(Cs[1].DynamicSharedBytes, 4096u);
  EXPECT_EQ(integerArgument(Cs[1], "n"), 512);
  EXPECT_EQ(integerArgument(Cs[0], "n"), 0);
  EXPECT_EQ(Cs[1].Context,
            (std::vector<std::string>{"the branch at unit.cu:7 not taken"}));
  // An else-if chain is three ways. A `?:` that chooses an argument only
  // is no launch of its own: the argument is not bound.
  auto Chained = U.configs("chained");
  EXPECT_EQ(blocks(Chained),
            (std::vector<std::string>{"(512, 1, 1)", "(256, 1, 1)", "(128, 1, 1)"}));
  ASSERT_EQ(Chained.size(), 3u);
  EXPECT_EQ(integerArgument(Chained[1], "n"), std::nullopt);
  // The outer branch first; the inner one is no choice where the outer
  // condition holds.
  EXPECT_EQ(Chained[0].Context,
            (std::vector<std::string>{"the branch at unit.cu:17 taken"}));
  EXPECT_EQ(Chained[1].Context,
            (std::vector<std::string>{"the branch at unit.cu:17 not taken",
                                      "the branch at unit.cu:17 taken"}));
  // A way whose block is known only at run time is said; the other is
  // analysed with the values of its own way (step = 10).
  auto Levels = U.configs("levels");
  ASSERT_EQ(Levels.size(), 1u);
  EXPECT_EQ(Levels[0].Block.str(), "(512, 1, 1)");
  EXPECT_EQ(integerArgument(Levels[0], "n"), 10);
  ASSERT_EQ(Levels[0].Unevaluated.size(), 1u);
  EXPECT_EQ(Levels[0].Unevaluated[0],
            "the launch at unit.cu:22 uses 'n', a value 'atoi' returns at run time "
            "(unit.cu:12)");
}

TEST(HostEvaluator, ChoicesPastTheirLimitAreUnknown) {
  // Each iteration's branch doubles the ways bs may have come: past 16
  // values (HostValue.h's MaxChoiceValues) it is unknown, and said so.
  Unit U(std::string(Kernels) + R"(
int main(int argc, char **argv) {
  float *p;
  int bs = 1;
  for (int i = 0; i < 10; ++i)
    if (argc > i) bs *= 2;
  k<<<1, bs>>>(p, 0);
  return 0;
})");
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_NE(Cs[0].Source, LaunchSource::LaunchSite);
  ASSERT_EQ(Cs[0].Unevaluated.size(), 1u);
  EXPECT_EQ(Cs[0].Unevaluated[0],
            "the launch at unit.cu:8 uses 'bs', a value that differs between the paths that "
            "meet after the branch at unit.cu:7");
}

TEST(HostEvaluator, ParametersBoundAtEveryCall) {
  Unit U(std::string(Kernels) + R"(
void run(float *p, int block_size) {
  dim3 threads(block_size, block_size);
  k<<<dim3(8, 8), threads>>>(p, block_size);
}
void outer(float *p, int b) { run(p, b * 2); }
int main() {
  float *p;
  outer(p, 8);
  run(p, 32);
  run(p, 16);
  return 0;
})");
  auto Cs = U.configs("k");
  EXPECT_EQ(blocks(Cs), (std::vector<std::string>{"(16, 16, 1)", "(32, 32, 1)"}));
  ASSERT_EQ(Cs.size(), 2u);
  EXPECT_EQ(Cs[0].Context,
            (std::vector<std::string>{"'outer' called at unit.cu:10", "'run' called at unit.cu:7"}));
}

TEST(HostEvaluator, LoopsOverConstantSizes) {
  Unit U(std::string(Kernels) + R"(#include <initializer_list>
__global__ void listed(float *p, int n) {}
int main() {
  float *p;
  for (int bs = 32; bs <= 256; bs *= 2)
    k<<<4096 / bs, bs>>>(p, bs);
  int sizes[] = {64, 128};
  for (int s : sizes)
    listed<<<1, s>>>(p, s);
  for (int s : {512, 64})
    listed<<<1, s>>>(p, s);
  return 0;
})");
  auto Cs = U.configs("k");
  EXPECT_EQ(blocks(Cs), (std::vector<std::string>{"(32, 1, 1)", "(64, 1, 1)", "(128, 1, 1)",
                                                  "(256, 1, 1)"}));
  ASSERT_EQ(Cs.size(), 4u);
  EXPECT_EQ(Cs[1].Grid.str(), "(64, 1, 1)");
  EXPECT_EQ(Cs[1].Context, std::vector<std::string>{"the loop at unit.cu:6 with bs = 64"});
  EXPECT_EQ(blocks(U.configs("listed")),
            (std::vector<std::string>{"(64, 1, 1)", "(128, 1, 1)", "(512, 1, 1)"}));
}

TEST(HostEvaluator, SwitchAndIfDispatchKnowTheirCase) {
  Unit U(R"(
#include <cstdlib>
template <int B> __global__ void reduce(float *p) {}
void dispatch(float *p, int threads) {
  if (threads == 32) { reduce<32><<<1, threads>>>(p); return; }
  switch (threads) {
  case 256: reduce<256><<<1, threads>>>(p); break;
  case 128: reduce<128><<<1, threads>>>(p); break;
  }
}
int main(int argc, char **argv) {
  float *p;
  dispatch(p, std::atoi(argv[1]));
  return 0;
})");
  EXPECT_EQ(blocks(U.configs("reduce<256>")), std::vector<std::string>{"(256, 1, 1)"});
  EXPECT_EQ(blocks(U.configs("reduce<128>")), std::vector<std::string>{"(128, 1, 1)"});
  EXPECT_EQ(blocks(U.configs("reduce<32>")), std::vector<std::string>{"(32, 1, 1)"});
}

TEST(HostEvaluator, GenericLambdasLaunchOncePerInstance) {
  // A dispatcher template calls a generic lambda with the block size as a
  // type; each call operator it instantiates launches its own kernel, and
  // the lambda's body sees the variables of the function it is written in,
  // two frames below its call.
  Unit U(R"(
#include <type_traits>
template <int B> __global__ void rows(float *p, int t) {}
template <class L> void dispatch(L &&launch, int block) {
  switch (block) {
  case 64: return launch(std::integral_constant<int, 64>{});
  case 256: return launch(std::integral_constant<int, 256>{});
  }
}
void launchRows(float *p, int t, int block) {
  auto launch = [&](auto b) { rows<b.value><<<t, b.value>>>(p, t); };
  dispatch(launch, block);
}
int main() {
  float *p;
  launchRows(p, 1024, 256);
  return 0;
})");
  auto Cs = U.configs("rows<256>");
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Source, LaunchSource::LaunchSite);
  EXPECT_EQ(Cs[0].Block.str(), "(256, 1, 1)");
  EXPECT_TRUE(Cs[0].GridKnown);
  EXPECT_EQ(Cs[0].Grid.str(), "(1024, 1, 1)");
  EXPECT_EQ(integerArgument(Cs[0], "t"), 1024);
  EXPECT_EQ(Cs[0].Context.back(), "the lambda at unit.cu:11 called at unit.cu:7");
  // The case main does not take is still a launch, of the lambda run on
  // its own: its block is the instance's, what it captures is not known.
  auto Other = U.configs("rows<64>");
  ASSERT_EQ(Other.size(), 1u);
  EXPECT_EQ(Other[0].Block.str(), "(64, 1, 1)");
  EXPECT_FALSE(Other[0].GridKnown);
}

TEST(HostEvaluator, ForwardedArgumentsKeepTheirValues) {
  // A benchmark wrapper (llm.c's benchmark_kernel) calls the function it is
  // given with std::forward of its arguments, in a loop over block sizes;
  // std::move of a dim3 is the dim3.
  Unit U(R"(
#include <utility>
__global__ void k(float *p, int n) {}
void run(float *p, int n, int block) {
  dim3 b(block);
  k<<<n / block, std::move(b)>>>(p, n);
}
template <class Kernel, class... Args> void bench(Kernel kernel, Args &&...args) {
  for (int r = 0; r < 2; ++r)
    kernel(std::forward<Args>(args)...);
}
int main() {
  float *p;
  int sizes[] = {64, 512};
  for (int s : sizes)
    bench(run, p, 4096, s);
  return 0;
})");
  auto Cs = U.configs("k");
  EXPECT_EQ(blocks(Cs), (std::vector<std::string>{"(64, 1, 1)", "(512, 1, 1)"}));
  ASSERT_EQ(Cs.size(), 2u);
  EXPECT_TRUE(Cs[1].GridKnown);
  EXPECT_EQ(Cs[1].Grid.str(), "(8, 1, 1)");
  EXPECT_EQ(integerArgument(Cs[1], "n"), 4096);
}

TEST(HostEvaluator, FunctionPointersLaunchEveryKernelTheyMayHold) {
  Unit U(R"(
__global__ void kA(float *p) {}
__global__ void kB(float *p) {}
__global__ void kC(float *p) {}
int main(int argc, char **argv) {
  float *p;
  void (*kern)(float *) = argc > 1 ? kA : kB;
  kern<<<2, 160>>>(p);
  return 0;
})");
  EXPECT_EQ(blocks(U.configs("kA")), std::vector<std::string>{"(160, 1, 1)"});
  EXPECT_EQ(blocks(U.configs("kB")), std::vector<std::string>{"(160, 1, 1)"});
  auto C = U.configs("kC");
  ASSERT_EQ(C.size(), 1u);
  EXPECT_EQ(C[0].Source, LaunchSource::Default);
  EXPECT_TRUE(C[0].Unevaluated.empty()); // no launch of kC in the source
}

TEST(HostEvaluator, DevicePropertiesOfTheTargetArchitecture) {
  Unit U(R"(
__global__ void a(float *p) {}
__global__ void b(float *p) {}
__global__ void c(float *p) {}
__global__ void d(float *p) {}
int main() {
  float *p;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int n = 4096;
  a<<<1, min(prop.maxThreadsPerBlock, n)>>>(p);
  b<<<1, prop.warpSize * 4>>>(p);
  c<<<1, prop.multiProcessorCount>>>(p);
  int z;
  cudaDeviceGetAttribute(&z, cudaDevAttrMaxBlockDimZ, 0);
  d<<<1, dim3(2, 2, z)>>>(p);
  return 0;
})");
  EXPECT_EQ(blocks(U.configs("a")), std::vector<std::string>{"(1024, 1, 1)"});
  EXPECT_EQ(blocks(U.configs("b")), std::vector<std::string>{"(128, 1, 1)"});
  EXPECT_EQ(blocks(U.configs("d")), std::vector<std::string>{"(2, 2, 64)"});
  // The G80 allows 512 threads in a block.
  EXPECT_EQ(blocks(U.configs("a", "g80")), std::vector<std::string>{"(512, 1, 1)"});
  auto C = U.configs("c");
  ASSERT_EQ(C.size(), 1u);
  ASSERT_EQ(C[0].Unevaluated.size(), 1u);
  EXPECT_EQ(C[0].Unevaluated[0],
            "the launch at unit.cu:13 uses 'prop.multiProcessorCount', a property of the "
            "device that differs between parts of one architecture (132 SMs on an H200 SXM, "
            "other counts on other Hopper parts)");
}

TEST(HostEvaluator, ReasonsNameTheValueReadAtRunTime) {
  Unit U(std::string(Kernels) + R"(
#include <cstdlib>
void run(float *p, int block_size) { k<<<1, block_size>>>(p, 0); }
int main(int argc, char **argv) {
  float *p;
  int requested = std::atoi(argv[1]);
  run(p, requested);
  return 0;
})");
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 1u);
  ASSERT_EQ(Cs[0].Unevaluated.size(), 1u);
  EXPECT_EQ(Cs[0].Unevaluated[0],
            "the launch at unit.cu:4 uses 'block_size', a parameter of 'run' whose callers "
            "pass 'requested', a value 'atoi' returns at run time (unit.cu:7)");
}

TEST(HostEvaluator, InvalidAndOverflowingShapesAreNoShapes) {
  Unit U(std::string(Kernels) + R"(
int main() {
  float *p;
  int big = 2048;
  k<<<1, big>>>(p, 0);
  int wraps = 2147483647;
  wraps = wraps + 1;
  k<<<1, wraps>>>(p, 0);
  k<<<1, dim3(8, 8, 128)>>>(p, 0);
  return 0;
})");
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Source, LaunchSource::Default);
  ASSERT_EQ(Cs[0].Unevaluated.size(), 3u);
  EXPECT_EQ(Cs[0].Unevaluated[0],
            "the launch at unit.cu:6 cannot run: the block (2048, 1, 1) has 2048 threads along "
            "x, over the 1024 a block may have along x on sm_90");
  EXPECT_EQ(Cs[0].Unevaluated[1],
            "the launch at unit.cu:9 uses 'wraps', a value whose computation has signed "
            "overflow (unit.cu:8)");
  EXPECT_NE(Cs[0].Unevaluated[2].find("(8, 8, 128)"), std::string::npos);
  ASSERT_EQ(Cs[0].CannotRun.size(), 2u);
  EXPECT_EQ(Cs[0].CannotRun[1].Reason, "the block (8, 8, 128) has 128 threads along z, over the "
                                       "64 a block may have along z on sm_90");
}

TEST(HostEvaluator, LoopsWithUnknownBoundsStillLaunch) {
  Unit U(std::string(Kernels) + R"(
int main(int argc, char **argv) {
  float *p;
  int step = 1;
  for (int i = 0; i < argc; ++i) {
    k<<<i + 1, 128>>>(p, i);
    step *= 2;
  }
  k<<<1, step>>>(p, 0);
  return 0;
})");
  auto Cs = U.configs("k");
  // The first HostLimits::UnknownBoundIterations (4) iterations are followed,
  // each of which may be the last: grids 1 to 4 with i bound. The rest of
  // the loop (its widened iteration, the grid unknown) is said, not
  // analysed. 'step' is not known after the loop (1 to 16, or more), so the
  // launch after it is not evaluated either.
  ASSERT_EQ(Cs.size(), 4u);
  for (unsigned I = 0; I < 4; ++I) {
    EXPECT_EQ(Cs[I].Block.str(), "(128, 1, 1)");
    ASSERT_TRUE(Cs[I].GridKnown);
    EXPECT_EQ(Cs[I].Grid.X, I + 1);
  }
  ASSERT_EQ(Cs[0].Unevaluated.size(), 2u);
  EXPECT_EQ(Cs[0].Unevaluated[0],
            "the launch at unit.cu:7 in the iterations of its loop that were not followed one "
            "by one (their values are known only at run time) is not analysed");
  EXPECT_NE(Cs[0].Unevaluated[1].find("the launch at unit.cu:10"), std::string::npos);
}

TEST(HostEvaluator, ExtentsALaunchGivesShapeTheInferredBlock) {
  // The stencil drivers' pattern: blockDim.x fixed, blockDim.y from a size
  // read at run time. The launch cannot be evaluated, but its x extent is
  // the block's: the kernel (which reads threadIdx.y) gets (32, 8, 1), the
  // default block's 256 threads over y, not (16, 16, 1).
  Unit U(R"(
__global__ void stencil(float *p) { p[threadIdx.y * 32 + threadIdx.x] = 0; }
int main(int argc, char **argv) {
  float *p;
  dim3 block;
  block.x = 32;
  block.y = argc * 4;
  stencil<<<1, block>>>(p);
  return 0;
}
)");
  auto Cs = U.configs("stencil");
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Source, LaunchSource::Inferred);
  EXPECT_EQ(Cs[0].Block.str(), "(32, 8, 1)");
  EXPECT_NE(Cs[0].Description.find("blockDim.x = 32 at the launch at unit.cu:8"), std::string::npos)
      << Cs[0].Description;
}

TEST(HostEvaluator, ArgumentsOfUnshapedLaunchesAreStillBound) {
  // The block is read at run time, so the shape is the kernel's own; the
  // arguments every launch passes alike (a padded buffer, a fixed width)
  // are bound all the same, and the one that differs between the
  // launches ('n', 64 or 128) is not.
  Unit U(R"(
__global__ void rows(float *p, int width, int n) { p[threadIdx.x * width] = 0; }
int main(int argc, char **argv) {
  float *base;
  int threads = argc * 32;
  rows<<<1, threads>>>(base + 28, 17, 64);
  rows<<<2, threads>>>(base + 28, 17, 128);
  return 0;
}
)");
  auto Cs = U.configs("rows");
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_NE(Cs[0].Source, LaunchSource::LaunchSite);
  std::map<std::string, BoundArgument> ByName;
  for (const auto &[P, A] : Cs[0].Arguments)
    ByName[P->getNameAsString()] = A;
  ASSERT_EQ(ByName.size(), 2u);
  EXPECT_EQ(ByName["p"].PointerOffsetBytes, 112);
  EXPECT_EQ(ByName["width"].Integer, 17);
  EXPECT_EQ(ByName.count("n"), 0u);
}

TEST(HostEvaluator, ArgumentsThatPassTheBlocksOwnExtentFollowTheAssumedShape) {
  // cuda-samples' dwtHaar1D passes `block_size.x` as 'bdim' with the block
  // sized from a signal read at run time: 'bdim' is the block's x extent,
  // so it takes the assumed shape's (the default 256), never a value swept
  // apart from it. The same for an integer block passed again (`<<<g, n>>>(n)`)
  // and an axis of `dim3(32, m)`. An expression of the extent (2 * n) and
  // a different variable are not bound (only the multiples they are of).
  Unit U(R"(
__global__ void dwt(float *p, int bdim, int twice) { p[threadIdx.x] = bdim + twice; }
__global__ void scan(float *p, int n, int other) { p[threadIdx.x] = n + other; }
__global__ void tile(float *p, int w, int h) { p[threadIdx.y * w + threadIdx.x] = h; }
int main(int argc, char **argv) {
  float *p;
  dim3 block_size;
  block_size.x = argc * 32;
  dwt<<<1, block_size>>>(p, block_size.x, 2 * block_size.x);
  int n = argc * 64, m = argc * 2;
  scan<<<1, n>>>(p, n, m);
  tile<<<1, dim3(32, m)>>>(p, 32, m);
  return 0;
}
)");
  auto Named = [](const LaunchConfig &C) {
    std::map<std::string, BoundArgument> ByName;
    for (const auto &[P, A] : C.Arguments)
      ByName[P->getNameAsString()] = A;
    return ByName;
  };
  auto Dwt = U.configs("dwt");
  ASSERT_EQ(Dwt.size(), 1u);
  EXPECT_EQ(Dwt[0].Source, LaunchSource::Default);
  EXPECT_EQ(Dwt[0].Block.str(), "(256, 1, 1)");
  auto D = Named(Dwt[0]);
  EXPECT_EQ(D["bdim"].Integer, 256);
  EXPECT_EQ(D["bdim"].BlockExtentAxis, 0u);
  // Not bound to a value; a multiple of 64 (twice a multiple of 32).
  EXPECT_FALSE(D["twice"].Integer);
  EXPECT_EQ(D["twice"].Multiple, std::optional<std::int64_t>(64));
  auto Scan = U.configs("scan");
  ASSERT_EQ(Scan.size(), 1u);
  auto S = Named(Scan[0]);
  EXPECT_EQ(S["n"].Integer, 256);
  EXPECT_FALSE(S["other"].Integer);
  EXPECT_EQ(S["other"].Multiple, std::optional<std::int64_t>(2));
  // tile reads threadIdx.y: the block x is 32 from the launch, y the rest of
  // the default's 256 threads; 'h' is passed the y extent.
  auto Tile = U.configs("tile");
  ASSERT_EQ(Tile.size(), 1u);
  EXPECT_EQ(Tile[0].Block.str(), "(32, 8, 1)");
  auto T = Named(Tile[0]);
  EXPECT_EQ(T["w"].Integer, 32);
  EXPECT_EQ(T["h"].Integer, 8);
  EXPECT_EQ(T["h"].BlockExtentAxis, 1u);
}

TEST(DeviceProperties, ConstantsOfTheArchitectureOnly) {
  const warpcheck::model::ArchSpec *H = warpcheck::model::findArch("sm_90");
  ASSERT_TRUE(H);
  std::string Why;
  EXPECT_EQ(host::deviceProperty("warpSize", *H, Why), std::vector<std::int64_t>{32});
  EXPECT_EQ(host::deviceProperty("sharedMemPerBlockOptin", *H, Why),
            std::vector<std::int64_t>{232448});
  EXPECT_EQ(host::deviceProperty("maxGridSize", *H, Why),
            (std::vector<std::int64_t>{2147483647, 65535, 65535}));
  EXPECT_TRUE(host::deviceProperty("clockRate", *H, Why).empty());
  EXPECT_EQ(Why, "a property of the particular device (cudaDeviceProp::clockRate), not of "
                 "its architecture");
  EXPECT_EQ(host::memberOfAttribute("cudaDevAttrMaxThreadsPerBlock"), "maxThreadsPerBlock");
  EXPECT_EQ(host::memberOfAttribute("cudaDevAttrClockRate"), "");
}

} // namespace

// Benchmark drivers run a CPU reference (nested loops over the whole
// problem) and random initialisers before their loop over block sizes.
// Followed in full they would spend the whole step budget and leave every
// launch unevaluated; a call that can reach no launch gets a budget of its
// own and, past it, is an opaque call: what it may write is unknown, and
// nothing else.
TEST(HostEvaluator, LongCallsThatCannotLaunchAreNotFollowedInFull) {
  Unit U(std::string(Kernels) + R"(
#include <cstdlib>
int calls = 0;
float reference(float *out, const float *in, int n) {
  ++calls;
  float sum = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        sum += in[i * n + k] * in[k * n + j];
  return sum;
}
int threadsFor(int n) { return n < 64 ? 32 : 64; }
void run(float *p, int block_size) { k<<<8, block_size>>>(p, calls); }
int main(int argc, char **argv) {
  float *p, *h = (float *)malloc(4096 * sizeof(float));
  reference(h, h, 1024);
  int block_sizes[] = {threadsFor(16), threadsFor(128), 128};
  for (int j = 0; j < 3; j++)
    run(p, block_sizes[j]);
  return 0;
})");
  auto Cs = U.configs("k");
  // threadsFor is launch-free too, and short: its value is known.
  EXPECT_EQ(blocks(Cs), (std::vector<std::string>{"(32, 1, 1)", "(64, 1, 1)", "(128, 1, 1)"}));
  ASSERT_EQ(Cs.size(), 3u);
  // 'calls', which the abandoned call may have changed, is not known.
  const clang::ParmVarDecl *N = U.kernel("k")->getParamDecl(1);
  auto Bound = Cs[0].Arguments.find(N);
  EXPECT_TRUE(Bound == Cs[0].Arguments.end() || !Bound->second.Integer.has_value());
}

// A loop that only fills or reads host buffers (its writes go through
// pointers, to memory the evaluation does not follow) leaves every value
// followed as it was: it is evaluated once, not iteration by iteration, so
// a reference computation of 1024^3 steps costs a few, and what the call
// sets is known after it.
TEST(HostEvaluator, LoopsThatChangeOnlyMemoryAreNotIterated) {
  Unit U(std::string(Kernels) + R"(
#include <cstdlib>
int calls = 0;
void reference(float *out, const float *in, int n) {
  ++calls;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float acc = 0;
      for (int k = 0; k < n; k++)
        acc += in[i * n + k] * in[k * n + j];
      out[i * n + j] = acc;
    }
}
int main(int argc, char **argv) {
  float *p, *h = (float *)malloc(4096 * sizeof(float));
  for (int i = 0; i < 4096; i++)
    h[i] = rand() / (float)RAND_MAX;
  reference(h, h, 1024);
  int sizes[4];
  for (int i = 0; i < 4; i++)
    sizes[i] = 64 << i;
  k<<<8, sizes[2]>>>(p, calls);
  return 0;
})");
  auto Cs = U.configs("k");
  // The loop that sets an array the launch reads is followed.
  EXPECT_EQ(blocks(Cs), (std::vector<std::string>{"(256, 1, 1)"}));
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(integerArgument(Cs[0], "n"), 1);
}

// A benchmark's timed repetitions do the same work each time: once an
// iteration leaves every value (its counter aside) as it found it, the
// loop is left, with the launches of the iterations followed. 250
// repetitions of a call of about 10,000 steps would spend the whole budget
// (400,000) before the launch after the loop.
TEST(HostEvaluator, RepetitionsThatChangeNothingAreFollowedOnce) {
  Unit U(std::string(Kernels) + R"(
__global__ void after(float *p, int n) {}
int work(int n) {
  int s = 0;
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 16; j++)
      s += (i ^ j) * n;
  return s;
}
int main() {
  float *p;
  int n = 7, last = 0;
  bool timed = false;
  for (int r = 0; r < 250; ++r) {
    last = work(n);
    k<<<1, 64>>>(p, n);
    timed = true;
  }
  // A loop that reads its counter is followed iteration by iteration.
  for (int r = 0; r < 3; ++r)
    k<<<1, 32 << r>>>(p, r);
  after<<<2, timed ? 128 : 32>>>(p, last);
  return 0;
})");
  auto Cs = U.configs("after");
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Block.str(), "(128, 1, 1)");
  // sum over i < 64, j < 16 of (i ^ j) = 32,256; times 7.
  EXPECT_EQ(integerArgument(Cs[0], "n"), 225792);
  EXPECT_EQ(blocks(U.configs("k")),
            (std::vector<std::string>{"(64, 1, 1)", "(32, 1, 1)", "(64, 1, 1)", "(128, 1, 1)"}));
}

// From main's first statement a global holds its initial value until code
// changes it (simpleMultiCopy: `dim3 block(512);` at namespace scope, `N`
// scaled in main); a call of a function not followed may change any global.
TEST(HostEvaluator, GlobalsHoldTheirValuesInARunFromMain) {
  Unit U(std::string(Kernels) + R"(
dim3 block(512);
dim3 grid;
int N = 1 << 20;
int blocksNeeded;
int main() {
  float *p;
  N = N / 4;
  blocksNeeded = N / block.x;
  grid = dim3(blocksNeeded, 1);
  k<<<grid, block>>>(p, N);
  return 0;
})");
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Block.str(), "(512, 1, 1)");
  ASSERT_TRUE(Cs[0].GridKnown);
  EXPECT_EQ(Cs[0].Grid.str(), "(512, 1, 1)");
}

TEST(HostEvaluator, GlobalsAreLostToACallNotFollowed) {
  Unit U(std::string(Kernels) + R"(
int threads = 128;
void configure();
int main() {
  float *p;
  configure();
  k<<<1, threads>>>(p, 0);
  return 0;
})");
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 1u);
  ASSERT_EQ(Cs[0].Unevaluated.size(), 1u);
  EXPECT_EQ(Cs[0].Unevaluated[0],
            "the launch at unit.cu:8 uses a global variable, which 'configure' (unit.cu:7) "
            "may change");
}

TEST(HostEvaluator, GlobalsAreNotKnownOutsideMain) {
  // A launching function nothing calls runs with the globals unknown: any
  // code may have run before it.
  Unit U(std::string(Kernels) + R"(
int threads = 128;
void launch(float *p) { k<<<1, threads>>>(p, 0); }
)");
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Block.str(), "(256, 1, 1)"); // the default block
}

// A pitch cudaMallocPitch gives for a width known only at run time is still
// a multiple of 512 bytes (model::MallocPitchAlignmentBytes, measured on the
// H200): in elements of a short, of 256; a sum with it is not.
TEST(HostEvaluator, PitchesOfUnknownWidthsAreMultiples) {
  Unit U(std::string(Kernels) + R"(
#include <cstdlib>
__global__ void q(short *p, int stride, int rows) {}
int main(int argc, char **argv) {
  int width = std::atoi(argv[1]);
  short *plane;
  size_t pitch;
  cudaMallocPitch((void **)&plane, &pitch, width * sizeof(short), 64);
  pitch /= sizeof(short);
  q<<<1, 64>>>(plane, (int)pitch, (int)pitch + 1);
  return 0;
})");
  auto Cs = U.configs("q");
  ASSERT_EQ(Cs.size(), 1u);
  std::map<std::string, BoundArgument> ByName;
  for (const auto &[P, A] : Cs[0].Arguments)
    ByName[P->getNameAsString()] = A;
  ASSERT_TRUE(ByName.count("stride"));
  EXPECT_FALSE(ByName["stride"].Integer);
  EXPECT_EQ(ByName["stride"].Multiple, std::optional<std::int64_t>(256));
  EXPECT_EQ(ByName["stride"].Residue, 0);
  // One element of padding: 1 more than a multiple of 256.
  EXPECT_EQ(ByName["rows"].Multiple, std::optional<std::int64_t>(256));
  EXPECT_EQ(ByName["rows"].Residue, 1);
}

// Sizes read at run time and rounded before the launch are multiples
// whatever was read: transpose's FLOOR (`n - n % 512`), `(n + 31) / 32 *
// 32`, `n & ~31`, a shift, a product; a sum with another amount, a
// remainder of another variable, or an offset that is not a multiple, is
// not.
TEST(HostEvaluator, RoundedUnknownSizesAreMultiples) {
  Unit U(R"(
#include <cstdlib>
#define FLOOR(a, b) (a - (a % b))
__global__ void q(float *p, int floored, int roundedUp, int masked, int shifted,
                  int product, int offByOne, int otherVar, int offsetBack) {}
int main(int argc, char **argv) {
  int n = std::atoi(argv[1]);
  int m = std::atoi(argv[2]);
  int f = n;
  f = FLOOR(f, 512);
  q<<<1, 64>>>(nullptr, f, (n + 31) / 32 * 32, n & ~31, n << 4, 6 * n,
               n + 1 - n % 32, m - n % 32, (n + 64) - n % 32);
  return 0;
})");
  auto Ms = multiplesPassed(U, "q");
  ASSERT_EQ(Ms.size(), 1u);
  EXPECT_EQ(Ms[0]["floored"], 512);
  EXPECT_EQ(Ms[0]["roundedUp"], 32);
  EXPECT_EQ(Ms[0]["masked"], 32);
  EXPECT_EQ(Ms[0]["shifted"], 16);
  EXPECT_EQ(Ms[0]["product"], 6);
  EXPECT_EQ(Ms[0]["offByOne"], 32); // 1 more than a multiple of 32
  EXPECT_EQ(Ms[0]["otherVar"], 0);
  EXPECT_EQ(Ms[0]["offsetBack"], 32);
  auto Rs = multiplesPassed(U, "q", /*Residues=*/true);
  EXPECT_EQ(Rs[0]["offByOne"], 1);
  EXPECT_EQ(Rs[0]["floored"], 0);
  EXPECT_EQ(Rs[0]["offsetBack"], 0);
}

// HSOpticalFlow's iAlignUp: `n + m - n % m` where the remainder is not 0,
// n itself where it is (the branch not taken knows `n % m` is 0), so a
// multiple of m either way; the same written with `?:` (the convolution
// samples' `(a % b != 0) ? (a - a % b + b) : a`); passed through a helper's parameter, it stays
// one. The branch that knows only that the remainder is not 0 knows no
// multiple.
TEST(HostEvaluator, AlignedUpSizesAreMultiplesOnBothWays) {
  Unit U(R"(
#include <cstdlib>
__global__ void q(float *p, int stride) {}
__global__ void r(float *p, int width) {}
inline int iAlignUp(int n, int m = 32) {
  int mod = n % m;
  if (mod)
    return n + m - mod;
  else
    return n;
}
inline int iAlignUpSelect(int a, int b) { return (a % b != 0) ? (a - a % b + b) : a; }
void run(int stride) { q<<<1, 64>>>(nullptr, stride); }
int main(int argc, char **argv) {
  int width = std::atoi(argv[1]);
  run(iAlignUp(width));
  q<<<2, 64>>>(nullptr, iAlignUpSelect(width, 16));
  if (!(width % 64))
    r<<<1, 64>>>(nullptr, width);
  if (width % 16 != 0)
    r<<<2, 64>>>(nullptr, width);
  return 0;
})");
  auto Qs = multiplesPassed(U, "q");
  ASSERT_EQ(Qs.size(), 2u);
  std::multiset<std::int64_t> Strides{Qs[0]["stride"], Qs[1]["stride"]};
  EXPECT_EQ(Strides, (std::multiset<std::int64_t>{16, 32}));
  auto Rs = multiplesPassed(U, "r");
  ASSERT_EQ(Rs.size(), 2u);
  std::multiset<std::int64_t> Widths{Rs[0]["width"], Rs[1]["width"]};
  EXPECT_EQ(Widths, (std::multiset<std::int64_t>{0, 64}));
}

/// The integer each launch of Kernel binds to its parameter Name (nullopt:
/// not bound), in the order of the launches.
std::vector<std::optional<std::int64_t>> integersPassed(Unit &U, llvm::StringRef Kernel,
                                                        llvm::StringRef Name) {
  std::vector<std::optional<std::int64_t>> Out;
  for (const LaunchConfig &C : U.configs(Kernel)) {
    std::optional<std::int64_t> V;
    for (const auto &[P, A] : C.Arguments)
      if (P->getName() == Name)
        V = A.Integer;
    Out.push_back(V);
  }
  return Out;
}

// HSOpticalFlow keeps its pyramid's widths and strides in arrays `new`
// made (`pS[level]`), filled by one loop and read by the launching loop.
TEST(HostEvaluator, ArraysNewMadeAreFollowedElementByElement) {
  Unit U(R"(
__global__ void q(float *p, int stride) {}
int main() {
  const int nLevels = 3;
  int *pW = new int[nLevels];
  int *pS = new int[nLevels];
  int level = nLevels - 1;
  pW[level] = 1024;
  pS[level] = 1024;
  for (; level > 0; --level) {
    int nw = pW[level] / 2;
    pW[level - 1] = nw;
    pS[level - 1] = nw + 32;
  }
  for (; level < nLevels; ++level)
    q<<<1, 64>>>(nullptr, pS[level]);
  delete[] pW;
  delete[] pS;
  return 0;
})");
  auto Strides = integersPassed(U, "q", "stride");
  std::multiset<std::int64_t> Known;
  for (auto S : Strides)
    if (S)
      Known.insert(*S);
  EXPECT_EQ(Known, (std::multiset<std::int64_t>{288, 544, 1024}));
}

// What the evaluator does not follow changes such an array's elements to
// unknown, never leaves them stale: a write through a pointer moved into
// it, at an index known only at run time, through a pointer of another
// type, by a function not followed; and `new int[n]()` is zeros.
TEST(HostEvaluator, ArraysNewMadeAreForgottenWhereWritesAreNotFollowed) {
  Unit U(R"(
#include <cstdlib>
__global__ void r(float *p, int v) {}
void fill(int *a);
int main(int argc, char **argv) {
  int *a = new int[4];
  a[0] = 64;
  int *b = a + 1;
  b[-1] = 128;
  r<<<1, 64>>>(nullptr, a[0]);
  int *c = new int[4];
  c[1] = 64;
  c[std::atoi(argv[1])] = 128;
  r<<<2, 64>>>(nullptr, c[1]);
  int *d = new int[4];
  d[2] = 64;
  ((char *)d)[2] = 1;
  r<<<3, 64>>>(nullptr, d[2]);
  int *e = new int[4];
  e[3] = 64;
  fill(e);
  r<<<4, 64>>>(nullptr, e[3]);
  int *z = new int[4]();
  r<<<5, 64>>>(nullptr, z[3] + 32);
  return 0;
})");
  // One launch shape per grid: v unknown in the first four, 32 in the last.
  std::map<std::int64_t, std::optional<std::int64_t>> ByGrid;
  for (const LaunchConfig &C : U.configs("r")) {
    ByGrid[C.Grid.X] = std::nullopt;
    for (const auto &[P, A] : C.Arguments)
      if (P->getName() == "v")
        ByGrid[C.Grid.X] = A.Integer;
  }
  std::map<std::int64_t, std::optional<std::int64_t>> Expected{
      {1, std::nullopt}, {2, std::nullopt}, {3, std::nullopt}, {4, std::nullopt}, {5, 32}};
  EXPECT_EQ(ByGrid, Expected);
}

// A launch on a way of a branch only a command-line option takes is not
// one the program makes when run without arguments (a profiler's run):
// each launch says which it is; a launch off any branch says nothing.
TEST(HostEvaluator, LaunchesSayWhetherARunWithoutArgumentsMakesThem) {
  Unit U(R"(
#include <cstdlib>
__global__ void k(float *p) {}
__global__ void plain(float *p) {}
int main(int argc, char **argv) {
  int threads = 256;
  if (argc > 1)
    threads = std::atoi(argv[1]) > 0 ? 128 : 64;
  k<<<1, threads>>>(nullptr);
  plain<<<1, 32>>>(nullptr);
  return 0;
})");
  std::map<std::uint32_t, std::optional<bool>> ByBlock;
  for (const LaunchConfig &C : U.configs("k"))
    ByBlock[C.Block.X] = C.WithoutArguments;
  std::map<std::uint32_t, std::optional<bool>> Expected{{64, false}, {128, false}, {256, true}};
  EXPECT_EQ(ByBlock, Expected);
  auto Plain = U.configs("plain");
  ASSERT_EQ(Plain.size(), 1u);
  EXPECT_FALSE(Plain[0].WithoutArguments);
}

/// The default a launch gives the kernel's parameter Name when the program
/// runs without command-line arguments, if any.
std::optional<std::int64_t> commandLineDefault(const LaunchConfig &C, llvm::StringRef Name) {
  for (const auto &[P, A] : C.Arguments)
    if (P->getName() == Name)
      return A.CommandLineDefault;
  return std::nullopt;
}

// A command-line option's default is what main, run with argc 1, passes:
// an `if` on argc, a `?:` on argc, a helper that returns it when argc is
// short. A clamp of a value read from argv is no default (the run without
// arguments does not know it either), and a launch on the way of an option
// the run without arguments never takes gets none.
TEST(HostEvaluator, CommandLineDefaultsAreWhatARunWithoutArgumentsPasses) {
  Unit U(R"(
#include <cstdlib>
__global__ void k(float *p, int n, int stride, int tile, int clamped) {}
__global__ void wide(float *p, int n) {}
static int tileFrom(int argc, char **argv) {
  if (argc > 3)
    return std::atoi(argv[3]);
  return 33;
}
int main(int argc, char **argv) {
  float *p;
  int n = 1024;
  if (argc > 1)
    n = std::atoi(argv[1]);
  int stride = argc > 2 ? std::atoi(argv[2]) : 8;
  int tile = tileFrom(argc, argv);
  int clamped = std::atoi(argv[0]);
  if (clamped > 64)
    clamped = 64;
  k<<<4, 128>>>(p, n, stride, tile, clamped);
  int blocks = 16;
  if (argc > 4)
    blocks = std::atoi(argv[4]);
  wide<<<blocks, 256>>>(p, n);
  return 0;
})");
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_FALSE(integerArgument(Cs[0], "n"));
  EXPECT_EQ(commandLineDefault(Cs[0], "n"), std::optional<std::int64_t>(1024));
  EXPECT_EQ(commandLineDefault(Cs[0], "stride"), std::optional<std::int64_t>(8));
  EXPECT_EQ(commandLineDefault(Cs[0], "tile"), std::optional<std::int64_t>(33));
  EXPECT_EQ(commandLineDefault(Cs[0], "clamped"), std::nullopt);
  // One launch per way of `blocks`: the run without arguments went only
  // the way where it stays 16.
  auto Ws = U.configs("wide");
  ASSERT_EQ(Ws.size(), 2u);
  std::map<std::string, std::optional<std::int64_t>> ByGrid;
  for (const LaunchConfig &C : Ws)
    ByGrid[C.GridKnown ? C.Grid.str() : "unknown"] = commandLineDefault(C, "n");
  EXPECT_EQ(ByGrid["(16, 1, 1)"], std::optional<std::int64_t>(1024));
  EXPECT_EQ(ByGrid["unknown"], std::nullopt);
}

// Sizes kept in a std::vector built from a braced list are followed one by
// one, as an array's; `v[i]` and size() read them, an assignment to `v[i]`
// changes them, and a push_back (not followed) leaves the vector unknown.
TEST(HostEvaluator, VectorsOfSizesAreFollowedElementByElement) {
  Unit U(std::string(Kernels) + R"(
#include <vector>
int main() {
  float *p;
  std::vector<int> sizes = {128, 256, 512};
  int largest = sizes[sizes.size() - 1];
  for (int size : sizes)
    k<<<size / 32, 32>>>(p, size);
  sizes[0] = 64;
  k<<<sizes[0] / 32, 64>>>(p, largest);
  std::vector<int> grown = {1, 2};
  grown.push_back(3);
  k<<<(int)grown.size(), 128>>>(p, grown[0]);
  return 0;
})");
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 5u);
  std::vector<std::string> Shapes;
  for (const LaunchConfig &C : Cs)
    Shapes.push_back(C.Block.str() + " " + (C.GridKnown ? C.Grid.str() : "unknown") + " " +
                     (integerArgument(C, "n") ? std::to_string(*integerArgument(C, "n"))
                                              : std::string("unknown")));
  EXPECT_EQ(Shapes, (std::vector<std::string>{
                        "(32, 1, 1) (4, 1, 1) 128", "(32, 1, 1) (8, 1, 1) 256",
                        "(32, 1, 1) (16, 1, 1) 512", "(64, 1, 1) (2, 1, 1) 512",
                        "(128, 1, 1) unknown unknown"}));
}

// A run that spends its steps on a branch only a command-line option takes
// (a shmoo over every shape) never reaches the launch on the other arm:
// the run without arguments does, and its launch is analysed, said so.
TEST(HostEvaluator, LaunchesPastAnExhaustedRunComeFromTheRunWithoutArguments) {
  Unit U(std::string(Kernels) + R"(
__global__ void big(float *p, int n) {}
__global__ void both(float *p, int n) {}
static void runBoth(float *p, int blocks, int threads) { both<<<blocks, threads>>>(p, blocks); }
static void shmoo(float *p) {
  runBoth(p, 2, 32);
  for (int a = 1; a < 200; ++a)
    for (int b = 1; b < 200; ++b)
      for (int c = 1; c < 200; ++c)
        big<<<a, b>>>(p, c);
}
int main(int argc, char **argv) {
  float *p;
  bool runShmoo = argc > 1;
  if (runShmoo)
    shmoo(p);
  else {
    k<<<64, 128>>>(p, 7);
    runBoth(p, 16, 256);
  }
  return 0;
})");
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Source, LaunchSource::LaunchSite);
  EXPECT_EQ(Cs[0].Block.str(), "(128, 1, 1)");
  EXPECT_EQ(Cs[0].Grid.str(), "(64, 1, 1)");
  EXPECT_EQ(integerArgument(Cs[0], "n"), std::optional<std::int64_t>(7));
  ASSERT_FALSE(Cs[0].Context.empty());
  EXPECT_EQ(Cs[0].Context.front(),
            "a run without command-line arguments (the run with them was too long to follow)");
  // A launch site the cut run did reach (in the shmoo) gets the run without
  // arguments' launches there too.
  EXPECT_EQ(blocks(U.configs("both")), (std::vector<std::string>{"(32, 1, 1)", "(256, 1, 1)"}));
}
