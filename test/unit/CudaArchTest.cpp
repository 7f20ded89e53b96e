//===- CudaArchTest.cpp - architecture names as the toolchain spells them -===//
//
// toolchain/CudaArch.h: clang 19's --cuda-gpu-arch for a requested arch, and
// the normalised sm_XX names.
//
//===----------------------------------------------------------------------===//

#include "warpcheck/toolchain/CudaArch.h"

#include <gtest/gtest.h>

using namespace warpcheck::toolchain;

namespace {

TEST(CompileCommandTest, ParseArchMapping) {
  EXPECT_EQ(clangParseArchFor("sm_80"), "sm_80");
  EXPECT_EQ(clangParseArchFor("sm_90a"), "sm_90a");
  EXPECT_EQ(clangParseArchFor("compute_86"), "sm_86");
  EXPECT_EQ(clangParseArchFor("sm_100"), "sm_90");
  EXPECT_EQ(clangParseArchFor("sm_100a"), "sm_90");
  EXPECT_EQ(clangParseArchFor("sm_103"), "sm_90");
  EXPECT_EQ(clangParseArchFor("sm_120"), "sm_90");
  EXPECT_EQ(clangParseArchFor("sm_110"), "sm_90");
  EXPECT_EQ(clangParseArchFor("sm_121a"), "sm_90");
  EXPECT_EQ(clangParseArchFor("sm_121f"), "sm_90");
  EXPECT_EQ(clangParseArchFor("sm_88"), "sm_87"); // Unknown: newest below.
  EXPECT_EQ(clangParseArchFor("sm_35"), "sm_50"); // Refused with CUDA 12+.
  EXPECT_EQ(clangParseArchFor("native"), "");
  EXPECT_EQ(clangParseArchFor("sm_"), "");
  EXPECT_EQ(clangParseArchFor("sm_8x"), "");
  EXPECT_EQ(normalizeCudaArch("compute_90a"), "sm_90a");
  EXPECT_EQ(normalizeCudaArch("lto_80"), "sm_80");
  EXPECT_EQ(normalizeCudaArch("sm_120f"), "sm_120f");
  EXPECT_EQ(normalizeCudaArch("gfx90a"), "");
  EXPECT_EQ(normalizeCudaArch("sm_90AB"), "");
}

} // namespace
