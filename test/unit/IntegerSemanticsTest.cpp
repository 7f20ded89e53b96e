//===- IntegerSemanticsTest.cpp - the analysis's one integer semantics ----===//
//
// The C++ rules each case follows are named in it ([expr.add], [expr.mul],
// [expr.shift], [conv.integral]); a result is the bit pattern of the
// result type, normalised to 64 bits.
//
//===----------------------------------------------------------------------===//

#include "values/IntegerSemantics.h"

#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

using namespace clang;
using namespace warpcheck::analysis::values;

namespace {

const IntegerType Int = IntegerType::integer(32, true);
const IntegerType Unsigned = IntegerType::integer(32, false);
const IntegerType Long = IntegerType::integer(64, true);
const IntegerType ULong = IntegerType::integer(64, false);
const IntegerType Short = IntegerType::integer(16, true);
const IntegerType UChar = IntegerType::integer(8, false);
const IntegerType Bool = IntegerType::boolean();

std::uint64_t bits(std::int64_t V) { return static_cast<std::uint64_t>(V); }

TEST(IntegerSemantics, NormalizeTruncatesAndExtends) {
  // [conv.integral]: the value modulo 2^N, then sign-extended for a signed type.
  EXPECT_EQ(Int.normalize(0x1'8000'0000ULL), bits(INT32_MIN));
  EXPECT_EQ(Unsigned.normalize(bits(-1)), 0xffff'ffffULL);
  EXPECT_EQ(Short.normalize(40000), bits(40000 - 65536));
  EXPECT_EQ(UChar.normalize(300), 44u);
  EXPECT_EQ(Bool.normalize(256), 1u);
  EXPECT_EQ(Bool.normalize(0), 0u);
  EXPECT_EQ(IntegerType{}.normalize(0xdead'beef'0000ULL), 0xdead'beef'0000ULL);
}

TEST(IntegerSemantics, SignedOverflowIsUndefinedButWraps) {
  IntegerResult R = binary(BO_Add, bits(INT32_MAX), 1, Int, Int);
  EXPECT_EQ(R.UB, Undefined::SignedOverflow);
  EXPECT_EQ(R.Bits, bits(INT32_MIN)); // what the hardware's add gives
  EXPECT_EQ(R.defined(), std::nullopt);
  // 4096 * 4096 * 4096 fits in 64 bits but not in int.
  EXPECT_EQ(binary(BO_Mul, 4096 * 4096, 4096, Int, Int).UB, Undefined::SignedOverflow);
  EXPECT_EQ(binary(BO_Mul, 4096 * 4096, 4096, Long, Long).defined(), 1ULL << 36);
  EXPECT_EQ(binary(BO_Sub, bits(INT64_MIN), 1, Long, Long).UB, Undefined::SignedOverflow);
  EXPECT_EQ(unary(UO_Minus, bits(INT32_MIN), Int, Int).UB, Undefined::SignedOverflow);
  EXPECT_EQ(unary(UO_Minus, 5, Int, Int).defined(), bits(-5));
}

TEST(IntegerSemantics, UnsignedArithmeticWraps) {
  // [basic.fundamental]: unsigned arithmetic is modulo 2^N, never undefined.
  EXPECT_EQ(binary(BO_Sub, 0, 1, Unsigned, Unsigned).defined(), 0xffff'ffffULL);
  EXPECT_EQ(binary(BO_Add, 0xffff'ffffULL, 2, Unsigned, Unsigned).defined(), 1u);
  EXPECT_EQ(binary(BO_Mul, 1ULL << 63, 2, ULong, ULong).defined(), 0u);
  EXPECT_EQ(unary(UO_Minus, 1, Unsigned, Unsigned).defined(), 0xffff'ffffULL);
}

TEST(IntegerSemantics, DivisionTruncatesTowardZero) {
  // [expr.mul]: the quotient is truncated toward zero; (a/b)*b + a%b == a.
  EXPECT_EQ(binary(BO_Div, bits(-7), 2, Int, Int).defined(), bits(-3));
  EXPECT_EQ(binary(BO_Rem, bits(-7), 2, Int, Int).defined(), bits(-1));
  // The same bits as unsigned: 4294967289 / 2.
  EXPECT_EQ(binary(BO_Div, Unsigned.normalize(bits(-7)), 2, Unsigned, Unsigned).defined(),
            2147483644u);
  EXPECT_EQ(binary(BO_Div, 1000, 0, Int, Int).UB, Undefined::DivisionByZero);
  EXPECT_FALSE(binary(BO_Div, 1000, 0, Int, Int).Bits);
  EXPECT_FALSE(binary(BO_Rem, 1000, 0, Unsigned, Unsigned).Bits);
  IntegerResult MinByMinusOne = binary(BO_Div, bits(INT32_MIN), bits(-1), Int, Int);
  EXPECT_EQ(MinByMinusOne.UB, Undefined::SignedOverflow);
  EXPECT_EQ(MinByMinusOne.Bits, bits(INT32_MIN));
  EXPECT_EQ(binary(BO_Rem, bits(INT32_MIN), bits(-1), Int, Int).UB,
            Undefined::SignedOverflow);
  EXPECT_EQ(binary(BO_Div, 12, bits(-1), Int, Int).defined(), bits(-12));
}

TEST(IntegerSemantics, ShiftCountsBelowTheWidth) {
  // [expr.shift]: a count that is negative or not below the promoted left
  // operand's width is undefined.
  EXPECT_EQ(binary(BO_Shl, 1, 10, Int, Int).defined(), 1024u);
  EXPECT_EQ(binary(BO_Shl, 1, 31, Int, Int).defined(), bits(INT32_MIN));
  IntegerResult Wide = binary(BO_Shl, 1, 32, Int, Int);
  EXPECT_EQ(Wide.UB, Undefined::ShiftCount);
  EXPECT_EQ(Wide.Bits, 0u); // 1 << 32 in 64 bits, truncated to int
  EXPECT_EQ(binary(BO_Shl, 1, 32, Long, Long).defined(), 1ULL << 32);
  IntegerResult Negative = binary(BO_Shl, 1, bits(-1), Int, Int);
  EXPECT_EQ(Negative.UB, Undefined::ShiftCount);
  EXPECT_FALSE(Negative.Bits);
  // >> of a negative value is arithmetic; of an unsigned one, logical.
  EXPECT_EQ(binary(BO_Shr, bits(-64), 4, Int, Int).defined(), bits(-4));
  EXPECT_EQ(binary(BO_Shr, 0xffff'ffc0ULL, 4, Unsigned, Unsigned).defined(), 0x0fff'fffcULL);
}

TEST(IntegerSemantics, ComparisonsFollowTheOperandType) {
  // -1 < 1 as int; as unsigned (after the usual arithmetic conversions) -1
  // is 4294967295.
  EXPECT_EQ(binary(BO_LT, bits(-1), 1, Int, Bool).defined(), 1u);
  EXPECT_EQ(binary(BO_LT, Unsigned.normalize(bits(-1)), 1, Unsigned, Bool).defined(), 0u);
  EXPECT_EQ(binary(BO_GE, 256, 256, Int, Int).defined(), 1u);
  EXPECT_EQ(binary(BO_NE, 3, 3, Int, Int).defined(), 0u);
}

TEST(IntegerSemantics, IncrementPromotesNarrowTypes) {
  // short 32767 + 1 is computed in int (no overflow) and truncated back.
  EXPECT_EQ(increment(32767, Short, true).defined(), bits(-32768));
  EXPECT_EQ(increment(255, UChar, true).defined(), 0u);
  EXPECT_EQ(increment(bits(INT32_MAX), Int, true).UB, Undefined::SignedOverflow);
  EXPECT_EQ(increment(0, Unsigned, false).defined(), 0xffff'ffffULL);
}

TEST(IntegerSemantics, Conversions) {
  EXPECT_EQ(convert(bits(-1), Unsigned), 0xffff'ffffULL);
  EXPECT_EQ(convert(0xffff'ffffULL, Int), bits(-1));
  EXPECT_EQ(convert(bits(-1), ULong), ~0ULL);
  EXPECT_EQ(convert(7, Bool), 1u);
  EXPECT_EQ(convert(1, Int, /*BooleanToSigned=*/true), bits(-1));
  EXPECT_EQ(fromSigned(-2, Unsigned), 0xffff'fffeULL);
}

TEST(IntegerSemantics, TypesOfTheTarget) {
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      "enum class Small : unsigned char { A }; enum Plain { B = -1 };",
      {"-std=c++17", "--target=x86_64-linux-gnu"});
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  IntegerType I = integerTypeOf(Ctx.IntTy, Ctx);
  EXPECT_EQ(I.K, IntegerType::Integer);
  EXPECT_EQ(I.Width, 32u);
  EXPECT_TRUE(I.Signed);
  IntegerType L = integerTypeOf(Ctx.UnsignedLongTy, Ctx);
  EXPECT_EQ(L.Width, 64u);
  EXPECT_FALSE(L.Signed);
  EXPECT_EQ(integerTypeOf(Ctx.BoolTy, Ctx).K, IntegerType::Bool);
  EXPECT_EQ(integerTypeOf(Ctx.FloatTy, Ctx).K, IntegerType::NotInteger);
  EXPECT_EQ(integerTypeOf(Ctx.getPointerType(Ctx.IntTy), Ctx).K, IntegerType::NotInteger);
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *E = dyn_cast<EnumDecl>(D)) {
      IntegerType T = integerTypeOf(Ctx.getEnumType(E), Ctx);
      EXPECT_EQ(T.Width, E->getName() == "Small" ? 8u : 32u) << E->getName().str();
      EXPECT_EQ(T.Signed, E->getName() == "Plain") << E->getName().str();
    }
}

} // namespace
