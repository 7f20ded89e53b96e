//===- MovedInstructionOrderTest.cpp - which moved instruction is whose ---===//

#include "MovedInstructionOrder.h"

#include <gtest/gtest.h>

using namespace warpcheck::analysis;

namespace {

auto AllFit = [](size_t, size_t) { return true; };

TEST(MovedInstructionOrder, HoistedEachIntoTheGapBeforeItsAccess) {
  // gen-3.cu's gen3_10: loads of lines 215 and 222 on lines 212 and 218.
  auto Pairs = pairMovedInOrder({215, 222}, {212, 218}, AllFit);
  ASSERT_TRUE(Pairs);
  EXPECT_EQ(*Pairs, (std::vector<size_t>{0, 1}));
}

TEST(MovedInstructionOrder, SunkEachIntoTheGapAfterItsAccess) {
  auto Pairs = pairMovedInOrder({10, 20}, {12, 25}, AllFit);
  ASSERT_TRUE(Pairs);
  EXPECT_EQ(*Pairs, (std::vector<size_t>{0, 1}));
}

TEST(MovedInstructionOrder, NoPairingAcrossAnotherAccess) {
  // The second instruction line lies before the first access: the first
  // load would have been moved past the second's.
  EXPECT_FALSE(pairMovedInOrder({215, 222}, {212, 214}, AllFit));
  // One up, one down: no one direction.
  EXPECT_FALSE(pairMovedInOrder({10, 20}, {8, 25}, AllFit));
}

TEST(MovedInstructionOrder, CountsAndFitMustAgree) {
  EXPECT_FALSE(pairMovedInOrder({215, 222}, {212}, AllFit));
  EXPECT_FALSE(pairMovedInOrder({}, {}, AllFit));
  // The second line's instructions are too narrow for the second access.
  EXPECT_FALSE(pairMovedInOrder({215, 222}, {212, 218},
                                [](size_t A, size_t I) { return !(A == 1 && I == 1); }));
}

} // namespace
