//===- PrintableTextTest.cpp - escaping text from the code under review ---===//

#include "ReportSupport.h"

#include <gtest/gtest.h>

using namespace warpcheck::tool;

TEST(PrintableText, ControlCharactersAreEscapedAsClangTidyDoes) {
  EXPECT_EQ(printableText("a\x1b[31mred"), "a<U+001B>[31mred");
  EXPECT_EQ(printableText("two\nlines\r.cu"), "two<U+000A>lines<U+000D>.cu");
  EXPECT_EQ(printableText("bell\x07 del\x7f"), "bell<U+0007> del<U+007F>");
  EXPECT_EQ(printableText("a\tb"), "a<U+0009>b");
  EXPECT_EQ(printableText("a\tb", /*KeepTabs=*/true), "a\tb");
}

TEST(PrintableText, PrintableUnicodeStaysAndOtherBytesAreNamed) {
  // "é" and "→" are printable; U+009B (CSI in C1) is not; 0xFF is no UTF-8.
  EXPECT_EQ(printableText("caf\xc3\xa9 \xe2\x86\x92"), "caf\xc3\xa9 \xe2\x86\x92");
  EXPECT_EQ(printableText("x\xc2\x9by"), "x<U+009B>y");
  EXPECT_EQ(printableText("x\xffy"), "x<FF>y");
  // A sequence cut short at the end of the text.
  EXPECT_EQ(printableText("x\xe2\x86"), "x<E2><86>");
}

TEST(PrintableText, CaretIndentFollowsTheEscapedText) {
  // Column 5 of "\x1b[2Jx" is 'x'; printed, ESC takes 8 columns.
  EXPECT_EQ(caretIndent("\x1b[2Jx", 5), std::string(11, ' '));
  EXPECT_EQ(caretIndent("\tab", 3), "\t ");
  // "é" is two bytes and one column.
  EXPECT_EQ(caretIndent("\xc3\xa9x", 3), " ");
  EXPECT_EQ(caretIndent("abc", 1), "");
}
