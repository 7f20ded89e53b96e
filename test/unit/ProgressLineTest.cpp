//===- ProgressLineTest.cpp - the progress line's words -------------------===//

#include "ProgressLine.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace warpcheck::tool;

TEST(ProgressLine, TimeLeftIsRoundedNeverFalselyPrecise) {
  EXPECT_EQ(timeLeftText(std::nullopt), "");
  EXPECT_EQ(timeLeftText(-1.0), "");
  EXPECT_EQ(timeLeftText(0.2), "about 1 s left");
  EXPECT_EQ(timeLeftText(42.4), "about 42 s left");
  EXPECT_EQ(timeLeftText(59.4), "about 59 s left");
  EXPECT_EQ(timeLeftText(60.0), "about 1 min left");
  EXPECT_EQ(timeLeftText(185.0), "about 3 min left");
  EXPECT_EQ(timeLeftText(7199.0), "about 120 min left");
  EXPECT_EQ(timeLeftText(3 * 3600.0 + 100), "about 3 h left");
}

TEST(ProgressLine, OneLinePerUnitOffATerminal) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  ProgressLine P(OS, /*Rewrite=*/false, 80);
  P.begin(3);
  P.finished("a.cu", /*Reused=*/true);
  P.finished("b.cu", /*Reused=*/false);
  P.finished("c.cu", /*Reused=*/false);
  P.end();
  // The first unit was reused: no estimate until one is analysed; none
  // once all are done. Nothing to clear off a terminal.
  llvm::StringRef Lines(OS.str());
  EXPECT_TRUE(Lines.starts_with("[1/3] a.cu (stored result)\n[2/3] b.cu, about "));
  EXPECT_TRUE(Lines.ends_with(" s left\n[3/3] c.cu\n")) << Lines.str();
  EXPECT_EQ(Lines.count('\r'), 0u);
}

TEST(ProgressLine, RewrittenOnATerminalCutToItsWidthAndCleared) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  ProgressLine P(OS, /*Rewrite=*/true, 20);
  P.begin(2);
  P.finished("a-rather-long-name-of-a-file.cu", /*Reused=*/true);
  P.clear();
  P.clear(); // nothing shown: nothing to clear
  P.finished("b.cu", /*Reused=*/true);
  P.end();
  // Cut to 16 characters and "...": the line never wraps, or it could not
  // be rewritten.
  EXPECT_EQ(OS.str(), "\r[1/2] a-rather-l...\x1b[K\r\x1b[K"
                      "\r[2/2] b.cu (stor...\x1b[K\r\x1b[K");
}

TEST(ProgressLine, FileNamesAreEscaped) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  ProgressLine P(OS, /*Rewrite=*/false, 0);
  P.begin(1);
  P.finished("b\x1b[2Jx.cu", /*Reused=*/false);
  // A file name's escape sequence is printed escaped, never sent to the
  // terminal.
  EXPECT_EQ(OS.str(), "[1/1] b<U+001B>[2Jx.cu\n");
}
