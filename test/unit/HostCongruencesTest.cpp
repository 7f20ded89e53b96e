//===- HostCongruencesTest.cpp - sizes known up to a multiple, and a halo -===//
//
// FDTD3d sizes its volume from the device's memory, rounds the edge to 32
// floats and takes the halo off (`dim / 32 * 32 - 2 * radius`), exits
// where the edge is too small, clamps it, and lets three options replace
// it, before it calls the function of another unit that launches. What
// each step keeps known: the edge is 24 more than a multiple of 32 (so the
// row with its halo is a multiple of 32 floats, and every warp's row
// starts on a sector), `exit` ends its path, and a call whose arguments
// choose among more ways than are followed is made, besides, as a run
// without command-line arguments makes it.
//
//===----------------------------------------------------------------------===//

#include "warpcheck/analysis/LaunchConfig.h"

#include "HostLaunchUnit.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

using namespace warpcheck::analysis;
using warpcheck::testing::blocks;
using warpcheck::testing::HostUnit;
using warpcheck::testing::multiplesPassed;

namespace {

using Unit = HostUnit;

// FDTD3d's default edge: `dim / 32 * 32 - 2 * radius`, so that the row
// with its halo (`dim + 2 * radius`) is a multiple of 32 floats; a tile's
// padded row (`width + 1`). Sums, products, shifts and exact divisions
// keep what is known of the unknown size (its residue modulo a known
// number), two sizes that meet keep what both are, and a test that a
// remainder is 0 gives every offset of that quantity its residue.
TEST(HostCongruences, SizesLessAHaloOrPlusAPadKeepTheirResidue) {
  Unit U(R"(
#include <cstdlib>
__global__ void q(float *p, int lessHalo, int padded, int scaled, int halved, int shifted,
                  int joined, int withHalo) {}
__global__ void r(float *p, int settled) {}
int main(int argc, char **argv) {
  int n = std::atoi(argv[1]);
  int m = std::atoi(argv[2]);
  const int radius = 4;
  int dim = n / 32 * 32 - 2 * radius;
  int joined = n / 32 * 32 - 8;
  if (std::atoi(argv[3]))
    joined = m / 64 * 64 + 24;
  q<<<1, 64>>>(nullptr, dim, (n + 31) / 32 * 32 + 1, 4 * (n / 8 * 8 + 3),
               (n / 64 * 64 + 8) / 4, (n / 8 * 8 + 1) << 2, joined, dim + 2 * radius);
  if (n % 32 == 0)
    r<<<1, 64>>>(nullptr, n + 8);
  return 0;
})");
  auto Ms = multiplesPassed(U, "q");
  auto Rs = multiplesPassed(U, "q", /*Residues=*/true);
  ASSERT_EQ(Ms.size(), 1u);
  EXPECT_EQ(Ms[0]["lessHalo"], 32);
  EXPECT_EQ(Rs[0]["lessHalo"], 24);
  EXPECT_EQ(Ms[0]["padded"], 32);
  EXPECT_EQ(Rs[0]["padded"], 1);
  EXPECT_EQ(Ms[0]["scaled"], 32); // 4 (8 q + 3) = 32 q + 12
  EXPECT_EQ(Rs[0]["scaled"], 12);
  EXPECT_EQ(Ms[0]["halved"], 16); // (64 q + 8) / 4 = 16 q + 2
  EXPECT_EQ(Rs[0]["halved"], 2);
  EXPECT_EQ(Ms[0]["shifted"], 32); // (8 q + 1) << 2 = 32 q + 4
  EXPECT_EQ(Rs[0]["shifted"], 4);
  EXPECT_EQ(Ms[0]["joined"], 32); // 32 q - 8 or 64 p + 24
  EXPECT_EQ(Rs[0]["joined"], 24);
  EXPECT_EQ(Ms[0]["withHalo"], 32);
  EXPECT_EQ(Rs[0]["withHalo"], 0);
  auto Settled = multiplesPassed(U, "r");
  auto SettledResidue = multiplesPassed(U, "r", /*Residues=*/true);
  ASSERT_EQ(Settled.size(), 1u);
  EXPECT_EQ(Settled[0]["settled"], 32);
  EXPECT_EQ(SettledResidue[0]["settled"], 8);
}

// The edge too small for the device: the sample prints and exits, and no
// launch follows on that way (before, the launch was made on it too, with
// the block the other way would not have).
TEST(HostCongruences, ExitEndsItsPath) {
  Unit U(R"(
#include <cstdio>
#include <cstdlib>
__global__ void k(float *p, int n) {}
int main(int argc, char **argv) {
  int n = std::atoi(argv[1]);
  int threads = 128;
  if (n < 96) {
    threads = 64;
    std::printf("too small\n");
    std::exit(EXIT_FAILURE);
  }
  k<<<1, threads>>>(nullptr, n);
  return 0;
})");
  EXPECT_EQ(blocks(U.configs("k")), (std::vector<std::string>{"(128, 1, 1)"}));
}

// main.cpp's three edges are each the device's (a choice of the clamp's
// two ways) or an option's (clamped: three ways more): more combinations
// than a call is split into, so the call carries none of them. The run
// without arguments takes no option: its calls, one per way of the
// device's edge, are made too, and say so; the callee's launches on them
// are ones a run without arguments makes.
TEST(HostCongruences, CallsPastTheFollowedWaysAreAlsoMadeAsARunWithoutArgumentsMakesThem) {
  Unit Main(R"(
#include <cstdlib>
int fdtdGPU(int dimx, int dimy, int dimz);
static int clampTo(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }
int main(int argc, char **argv) {
  int edge = std::atoi(std::getenv("MEM")) / 32 * 32 - 8;
  if (edge > 376)
    edge = 376;
  int dimx = edge, dimy = edge, dimz = edge;
  if (argc > 1)
    dimx = clampTo(std::atoi(argv[1]), 96, 376);
  if (argc > 2)
    dimy = clampTo(std::atoi(argv[2]), 96, 376);
  if (argc > 3)
    dimz = clampTo(std::atoi(argv[3]), 96, 376);
  return fdtdGPU(dimx, dimy, dimz);
})");
  CrossUnitCalls Calls = Main.callsOfOtherUnits();
  ASSERT_EQ(Calls.count("_Z7fdtdGPUiii"), 1u);
  const std::vector<CrossUnitCall> &Made = Calls["_Z7fdtdGPUiii"];
  ASSERT_EQ(Made.size(), 3u);
  // The call of every way: nothing known of the edges.
  EXPECT_FALSE(Made[0].WithoutArguments);
  EXPECT_TRUE(Made[0].Arguments.empty());
  // The run without arguments: the device's edge, clamped or not.
  std::vector<std::string> Edges;
  for (unsigned I = 1; I < 3; ++I) {
    EXPECT_TRUE(Made[I].WithoutArguments);
    ASSERT_EQ(Made[I].Arguments.size(), 3u);
    for (unsigned P = 0; P < 3; ++P) {
      const BoundArgument &A = Made[I].Arguments.at(P);
      Edges.push_back(A.Integer ? std::to_string(*A.Integer)
                                : std::to_string(A.Residue) + " mod " +
                                      std::to_string(A.Multiple.value_or(0)));
    }
  }
  std::sort(Edges.begin(), Edges.end());
  EXPECT_EQ(Edges, (std::vector<std::string>{"24 mod 32", "24 mod 32", "24 mod 32", "376", "376",
                                             "376"}));

  // The unit that defines fdtdGPU launches with each call's edges: the
  // launches on the run without arguments' calls say they are its.
  HostUnit Gpu(R"(
__global__ void fdtd(float *out, const float *in, int dimx, int dimy, int dimz) {}
int fdtdGPU(int dimx, int dimy, int dimz) {
  float *out, *in;
  fdtd<<<dim3(12, 24), dim3(32, 16)>>>(out, in, dimx, dimy, dimz);
  return 0;
})",
               &Calls);
  std::vector<LaunchConfig> Cs = Gpu.configs("fdtd");
  ASSERT_EQ(Cs.size(), 3u);
  EXPECT_FALSE(Cs[0].WithoutArguments.value_or(false));
  EXPECT_TRUE(Cs[1].WithoutArguments.value_or(false));
  EXPECT_TRUE(Cs[2].WithoutArguments.value_or(false));
}

} // namespace
