//===- LaunchLimitsTest.cpp - launches that cannot run --------------------===//
#include "warpcheck/model/LaunchLimits.h"

#include "ArchLookup.h"

#include <gtest/gtest.h>

using namespace warpcheck::model;

namespace {

using warpcheck::testing::arch;

LaunchRequest launch(std::array<std::uint64_t, 3> Block,
                     std::optional<std::array<std::uint64_t, 3>> Grid = std::nullopt,
                     std::uint64_t Shared = 0) {
  LaunchRequest L;
  L.Block = Block;
  L.Grid = Grid;
  L.DynamicSharedBytes = Shared;
  return L;
}

TEST(LaunchLimits, ValidLaunchesRun) {
  const ArchSpec &A = arch("sm_90");
  EXPECT_EQ(whyLaunchCannotRun(A, launch({1024, 1, 1}, {{2147483647u, 65535, 65535}})), "");
  EXPECT_EQ(whyLaunchCannotRun(A, launch({16, 1, 64})), "");
  EXPECT_EQ(whyLaunchCannotRun(A, launch({128, 1, 1}, std::nullopt, 227 * 1024)), "");
}

TEST(LaunchLimits, EachLimitIsNamed) {
  const ArchSpec &A = arch("sm_90");
  EXPECT_EQ(whyLaunchCannotRun(A, launch({2048, 1, 1})),
            "the block (2048, 1, 1) has 2048 threads along x, over the 1024 a block may have "
            "along x on sm_90");
  EXPECT_EQ(whyLaunchCannotRun(A, launch({64, 32, 1})),
            "the block (64, 32, 1) has 2048 threads, over the 1024 a block may have on sm_90");
  EXPECT_EQ(whyLaunchCannotRun(A, launch({1024, 1024, 64})),
            "the block (1024, 1024, 64) has 67108864 threads, over the 1024 a block may have "
            "on sm_90");
  EXPECT_EQ(whyLaunchCannotRun(A, launch({1, 1, 128})),
            "the block (1, 1, 128) has 128 threads along z, over the 64 a block may have along "
            "z on sm_90");
  EXPECT_EQ(whyLaunchCannotRun(A, launch({0, 1, 1}, {{0, 1, 1}})),
            "the block (0, 1, 1) has a zero extent");
  EXPECT_EQ(whyLaunchCannotRun(A, launch({32, 1, 1}, {{0, 1, 1}})),
            "the grid (0, 1, 1) has a zero extent");
  // <<<-1, -1>>>: dim3 holds -1 as 4294967295.
  EXPECT_EQ(whyLaunchCannotRun(A, launch({4294967295u, 1, 1}, {{4294967295u, 1, 1}})),
            "the block (4294967295, 1, 1) has 4294967295 threads along x, over the 1024 a block "
            "may have along x on sm_90");
  EXPECT_EQ(whyLaunchCannotRun(A, launch({32, 1, 1}, {{1, 65536, 1}})),
            "the grid (1, 65536, 1) has 65536 blocks along y, over the 65535 a grid may have "
            "along y on sm_90");
  EXPECT_EQ(whyLaunchCannotRun(A, launch({128, 1, 1}, std::nullopt, ~std::uint64_t(0))),
            "18446744073709551615 bytes of dynamic shared memory are over the 232448 a block may "
            "use on sm_90 (after opting in with cudaFuncSetAttribute)");
}

} // namespace
