//===- HostEqualQuantitiesTest.cpp - copies of a value a test settles -----===//
//
// A value known only at run time, copied before a test that settles it
// (a switch's case, `v == C` taken): the copies take the value too. The
// SDK's reduction builds `dim3 dimBlock(threads, 1, 1)` and then switches
// on `threads` to pick the template instance: each instance's launch has
// its case's block.
//
//===----------------------------------------------------------------------===//

#include "HostLaunchUnit.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace warpcheck::analysis;
using warpcheck::testing::blocks;
using warpcheck::testing::HostUnit;

namespace {

TEST(HostEqualQuantities, ASwitchsCaseSettlesTheCopiesOfItsValue) {
  HostUnit U(R"(
#include <cstdlib>
template <unsigned Threads> __global__ void reduce(const int *in, int *out) {}
void run(const int *in, int *out, int threads) {
  dim3 dimBlock(threads, 1, 1);
  switch (threads) {
  case 256: reduce<256><<<64, dimBlock>>>(in, out); break;
  case 32: reduce<32><<<64, dimBlock>>>(in, out); break;
  }
}
int main(int argc, char **argv) {
  run(nullptr, nullptr, atoi(argv[1]));
  return 0;
})");
  auto Wide = U.configs("reduce<256>");
  ASSERT_EQ(Wide.size(), 1u);
  EXPECT_EQ(Wide[0].Block.str(), "(256, 1, 1)");
  auto Narrow = U.configs("reduce<32>");
  ASSERT_EQ(Narrow.size(), 1u);
  EXPECT_EQ(Narrow[0].Block.str(), "(32, 1, 1)");
}

TEST(HostEqualQuantities, AnEqualityTakenSettlesExactCopiesOnly) {
  HostUnit U(std::string(warpcheck::testing::Kernels) + R"(
#include <cstdlib>
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  int copy = n;
  int shifted = n + 32;
  int rest = n % 64;
  if (n == 128) {
    k<<<1, copy>>>(nullptr, shifted);
    k<<<2, copy>>>(nullptr, rest);
  }
  return 0;
})");
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 2u);
  EXPECT_EQ(blocks(Cs), (std::vector<std::string>{"(128, 1, 1)", "(128, 1, 1)"}));
  // An offset or a remainder of the quantity is not settled here.
  EXPECT_FALSE(warpcheck::testing::integerArgument(Cs[0], "n"));
  EXPECT_FALSE(warpcheck::testing::integerArgument(Cs[1], "n"));
}

TEST(HostEqualQuantities, ACaseNoWayOfAChoiceReachesRunsNot) {
  // threadFenceReduction: the caller's branch makes threads 128 or 1; the
  // switch's case 32 is on no way, case 128 on one, where blocks is 2.
  HostUnit U(R"(
#include <cstdlib>
template <unsigned Threads> __global__ void reduce(const int *in, int *out) {}
void run(const int *in, int *out, int threads, int blocks) {
  dim3 dimBlock(threads, 1, 1);
  switch (threads) {
  case 128: reduce<128><<<blocks, dimBlock>>>(in, out); break;
  case 32: reduce<32><<<blocks, dimBlock>>>(in, out); break;
  }
}
int main(int argc, char **argv) {
  int threads = 1, blocks = 64;
  if (argc > 1) { threads = 128; blocks = 2; }
  run(nullptr, nullptr, threads, blocks);
  return 0;
})");
  auto Wide = U.configs("reduce<128>");
  ASSERT_EQ(Wide.size(), 1u);
  EXPECT_EQ(Wide[0].Block.str(), "(128, 1, 1)");
  EXPECT_EQ(Wide[0].Grid.str(), "(2, 1, 1)");
  auto Narrow = U.configs("reduce<32>");
  ASSERT_EQ(Narrow.size(), 1u);
  EXPECT_EQ(Narrow[0].Source, LaunchSource::Default);
}

} // namespace
