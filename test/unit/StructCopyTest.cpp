//===- StructCopyTest.cpp - the loads nvcc makes of a copied struct -------===//

#include "warpcheck/model/StructCopy.h"

#include <gtest/gtest.h>

using namespace warpcheck::model;

namespace {

using Pieces = std::vector<CopyPiece>;

TEST(StructCopy, WholeCopiesInPiecesOfTheAlignment) {
  // float4: one LDG.128. A 12-byte struct of floats: three 4-byte loads.
  EXPECT_EQ(structCopyPieces(16, 16), (Pieces{{0, 16}}));
  EXPECT_EQ(structCopyPieces(12, 4), (Pieces{{0, 4}, {4, 4}, {8, 4}}));
  // double4 (16-byte aligned in CUDA 13): two LDG.128; a 32-byte aligned
  // one too (no load is wider than 16 bytes).
  EXPECT_EQ(structCopyPieces(32, 16), (Pieces{{0, 16}, {16, 16}}));
  EXPECT_EQ(structCopyPieces(32, 32), (Pieces{{0, 16}, {16, 16}}));
}

TEST(StructCopy, OnlyTheBytesReadAreLoaded) {
  // SHOC MD's double4 ipos, x, y, z read: LDG.128 and LDG.64 (measured).
  std::vector<ByteRange> XYZ = {{0, 8}, {8, 16}, {16, 24}};
  EXPECT_EQ(structCopyPieces(32, 16, &XYZ), (Pieces{{0, 16}, {16, 8}}));
  // Its float4 instance: x, y, z span 12 bytes of the one 16-byte piece,
  // one LDG.128 (measured).
  std::vector<ByteRange> FloatXYZ = {{0, 4}, {4, 8}, {8, 12}};
  EXPECT_EQ(structCopyPieces(16, 16, &FloatXYZ), (Pieces{{0, 16}}));
  // w of a double4 alone: one 8-byte load at 24; x of a float4: 4 bytes.
  std::vector<ByteRange> W = {{24, 32}};
  EXPECT_EQ(structCopyPieces(32, 16, &W), (Pieces{{24, 8}}));
  std::vector<ByteRange> X = {{0, 4}};
  EXPECT_EQ(structCopyPieces(16, 16, &X), (Pieces{{0, 4}}));
  // y and z of a float4 span 8 bytes from offset 4: no aligned 8-byte load
  // starts there; two 4-byte loads (measured, struct-copy-fields.cu).
  std::vector<ByteRange> YZ = {{4, 8}, {8, 12}};
  EXPECT_EQ(structCopyPieces(16, 16, &YZ), (Pieces{{4, 4}, {8, 4}}));
  // y, z, w of a float4: 4 bytes at 4, then 8 at 8.
  std::vector<ByteRange> YZW = {{4, 8}, {8, 12}, {12, 16}};
  EXPECT_EQ(structCopyPieces(16, 16, &YZW), (Pieces{{4, 4}, {8, 8}}));
  // A 24-byte struct of floats, fields 0 and 2 read: their two pieces.
  std::vector<ByteRange> AC = {{0, 4}, {8, 12}};
  EXPECT_EQ(structCopyPieces(24, 4, &AC), (Pieces{{0, 4}, {8, 4}}));
  // Nothing read: nothing loaded.
  std::vector<ByteRange> None;
  EXPECT_TRUE(structCopyPieces(32, 16, &None).empty());
}

} // namespace
