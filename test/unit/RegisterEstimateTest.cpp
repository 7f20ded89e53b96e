//===- RegisterEstimateTest.cpp - the register estimate's arithmetic ------===//
//
// The calibrated formula and the caps on their own, from live-value counts
// (the analysis's measures are tested in RegisterUsageTest). Each number is
// worked out in its comment: in-order = round(0.8 x in-order count),
// scheduled = round(1.1 x scheduled count + 3) rounded up to even, on sm_90.
//
//===----------------------------------------------------------------------===//
#include "warpcheck/model/RegisterEstimate.h"

#include <gtest/gtest.h>

using namespace warpcheck::model;

namespace {

const ArchSpec &sm90() {
  const ArchSpec *A = findArch("sm_90");
  if (!A)
    ADD_FAILURE() << "unknown arch sm_90";
  static const ArchSpec Empty;
  return A ? *A : Empty;
}

} // namespace

TEST(RegisterEstimate, Floors) {
  // Nothing live: an empty kernel, 4. Anything live: at least 8.
  EXPECT_EQ(estimateRegisterCount(0, 0), 4u);
  EXPECT_EQ(estimateRegisterCount(0, 1), 8u);
}

TEST(RegisterEstimate, RoundedUpToEven) {
  // 1.1 x 6 + 3 = 9.6 is 10; 1.1 x 7 + 3 = 10.7 is 11, becomes 12.
  EXPECT_EQ(estimateRegisterCount(3, 6), 10u);
  EXPECT_EQ(estimateRegisterCount(3, 7), 12u);
  // 1.1 x 60 + 3 = 69, becomes 70; 1.1 x 150 + 3 = 168.
  EXPECT_EQ(estimateRegisterCount(60, 60), 70u);
  EXPECT_EQ(estimateRegisterCount(100, 150), 168u);
}

TEST(RegisterEstimate, SoftTargetWithoutLaunchBounds) {
  // In-order 0.8 x 40 = 32 fits in 32: the scheduled 47 (48) is held to 32.
  EXPECT_EQ(estimateRegisterCount(40, 40), 32u);
  EXPECT_EQ(estimateRegisterCount(20, 60), 32u);
  // In-order 0.8 x 41 = 32.8 is 33: no soft target, 1.1 x 41 + 3 = 48.1 is 48.
  EXPECT_EQ(estimateRegisterCount(41, 41), 48u);
  // 1.1 x 400 + 3 = 443: the most a thread can have.
  EXPECT_EQ(estimateRegisterCount(400, 400), 255u);
}

TEST(RegisterEstimate, TiersUnderLaunchBounds) {
  // Need = max(in-order, 0.8 x scheduled count). 256 threads: 0.8 x 80 =
  // 64 allows 4 blocks, which hold up to 64 registers (the scheduled 91,
  // 92 even, is capped).
  EXPECT_EQ(estimateRegisterCount(75, 80, 256u), 64u);
  // In-order 40 alone would allow 6 blocks; 0.8 x 70 = 56 allows 4: 64.
  EXPECT_EQ(estimateRegisterCount(50, 70, 256u), 64u);
  // 0.8 x 200 = 160 allows one block: no cap below 255; 1.1 x 200 + 3 =
  // 223, 224 even.
  EXPECT_EQ(estimateRegisterCount(75, 200, 256u), 224u);
  // 384 threads (12 warps), need 40: 4 blocks (48 warps, 12 per scheduler,
  // 16384 / 12 = 1365 registers a warp, 1280 after rounding to 256): 40.
  EXPECT_EQ(estimateRegisterCount(40, 50, 384u), 40u);
  // 128 threads, need 8: 16 blocks (the warp slots), up to 32 registers;
  // the scheduled 14 is below.
  EXPECT_EQ(estimateRegisterCount(10, 10, 128u), 14u);
  // 1024 threads, need 80: not even one block fits, so the tier sets no
  // cap (1.1 x 100 + 3 = 113, 114 even); capRegisterCount applies the
  // launch bounds' own cap.
  EXPECT_EQ(estimateRegisterCount(30, 100, 1024u), 114u);
}

TEST(RegisterEstimate, Caps) {
  const ArchSpec &A = sm90();
  // __launch_bounds__(256, 4): 4 blocks of 8 warps, 8 warps a scheduler,
  // 2048 registers a warp: 64.
  CappedRegisters C = capRegisterCount(100, A, 256u, 4u, std::nullopt);
  EXPECT_EQ(C.Registers, 64u);
  EXPECT_EQ(C.CappedBy, RegisterCapSource::LaunchBounds);
  // Below the cap: nothing named.
  C = capRegisterCount(40, A, 256u, 4u, std::nullopt);
  EXPECT_EQ(C.Registers, 40u);
  EXPECT_EQ(C.CappedBy, RegisterCapSource::None);
  // -maxrregcount below the launch bounds' cap is the one named; equal to
  // it, the launch bounds stay named.
  C = capRegisterCount(100, A, 256u, 4u, 32u);
  EXPECT_EQ(C.Registers, 32u);
  EXPECT_EQ(C.CappedBy, RegisterCapSource::MaxRegisterCount);
  C = capRegisterCount(100, A, 256u, 4u, 64u);
  EXPECT_EQ(C.Registers, 64u);
  EXPECT_EQ(C.CappedBy, RegisterCapSource::LaunchBounds);
  // (1024, 4) cannot be reached (128 warps): ptxas keeps one block of 32
  // warps, 64 registers.
  C = capRegisterCount(100, A, 1024u, 4u, std::nullopt);
  EXPECT_EQ(C.Registers, 64u);
  EXPECT_EQ(C.CappedBy, RegisterCapSource::LaunchBounds);
  // No minimum given: one block of 512 threads, 128 registers.
  C = capRegisterCount(200, A, 512u, std::nullopt, std::nullopt);
  EXPECT_EQ(C.Registers, 128u);
  EXPECT_EQ(C.CappedBy, RegisterCapSource::LaunchBounds);
  // More threads than a block can have set no cap; the architecture's 255
  // still holds, unnamed.
  C = capRegisterCount(300, A, 2048u, std::nullopt, std::nullopt);
  EXPECT_EQ(C.Registers, 255u);
  EXPECT_EQ(C.CappedBy, RegisterCapSource::None);
  C = capRegisterCount(100, A, std::nullopt, std::nullopt, 48u);
  EXPECT_EQ(C.Registers, 48u);
  EXPECT_EQ(C.CappedBy, RegisterCapSource::MaxRegisterCount);
}
