//===- GatesTest.cpp - fingerprints, line filters, git diffs, check docs --===//

#include "CheckDocs.h"
#include "Fingerprint.h"
#include "GitDiff.h"
#include "LineFilter.h"

#include "gtest/gtest.h"

using namespace warpcheck::tool;

namespace {

FingerprintParts storeInKernel() {
  FingerprintParts P;
  P.Check = "cuda-uncoalesced-global-access";
  P.File = "src/a.cu";
  P.Kernel = "strided";
  P.LineBefore = "  int i = blockIdx.x * blockDim.x + threadIdx.x;";
  P.Line = "  out[i] = in[i * 32];";
  P.LineAfter = "}";
  P.Column = 12;
  return P;
}

TEST(Fingerprint, NormalisedLineCollapsesBlanks) {
  EXPECT_EQ(normalisedSourceLine("  out[i]   =\tin[i * 32];  \r"), "out[i] = in[i * 32];");
  EXPECT_EQ(normalisedSourceLine(" \t "), "");
}

TEST(Fingerprint, HexSha256StableUnderReindenting) {
  FingerprintParts P = storeInKernel();
  std::string Print = fingerprint(P);
  EXPECT_EQ(Print.size(), 64u);
  EXPECT_EQ(Print.find_first_not_of("0123456789abcdef"), std::string::npos);
  FingerprintParts Reindented = P;
  Reindented.Line = "\t\tout[i]  =  in[i * 32];";
  Reindented.Column = 14; // The same 'in' after the new blanks.
  Reindented.LineBefore = "int i = blockIdx.x * blockDim.x + threadIdx.x;";
  EXPECT_EQ(fingerprint(Reindented), Print);
}

TEST(Fingerprint, EachPartCounts) {
  std::string Print = fingerprint(storeInKernel());
  FingerprintParts P = storeInKernel();
  P.Column = 3; // 'out', not 'in'.
  EXPECT_NE(fingerprint(P), Print);
  P = storeInKernel();
  P.Kernel = "other";
  EXPECT_NE(fingerprint(P), Print);
  P = storeInKernel();
  P.LineAfter = "  out[i + 1] = 0;";
  EXPECT_NE(fingerprint(P), Print);
  P = storeInKernel();
  P.File = "src/b.cu";
  EXPECT_NE(fingerprint(P), Print);
  // Parts are separated: moving text from one to the next changes it.
  P = storeInKernel();
  P.Check = "cuda-uncoalesced-global-acces";
  P.File = "ssrc/a.cu";
  EXPECT_NE(fingerprint(P), Print);
}

TEST(LineFilter, ClangTidySyntax) {
  llvm::Expected<LineFilter> F =
      parseLineFilter(R"([{"name":"a.cu","lines":[[1,3],[8,8]]},{"name":"b.cuh"}])");
  ASSERT_TRUE(static_cast<bool>(F)) << llvm::toString(F.takeError());
  std::string A[] = {"src/a.cu"}, B[] = {"/x/b.cuh"}, C[] = {"c.cu"};
  EXPECT_TRUE(F->keeps(A, 2));
  EXPECT_TRUE(F->keeps(A, 8));
  EXPECT_FALSE(F->keeps(A, 5));
  EXPECT_TRUE(F->keeps(B, 500));
  EXPECT_FALSE(F->keeps(C, 1));
}

TEST(LineFilter, MalformedSaysWhat) {
  for (const char *Bad : {"{}", "[{\"lines\":[[1,2]]}]", "[{\"name\":\"a\",\"lines\":[[2,1]]}]",
                          "[{\"name\":\"a\",\"lines\":[1,2]}]", "[{\"name\":\"a\",\"lines\":3}]"}) {
    llvm::Expected<LineFilter> F = parseLineFilter(Bad);
    ASSERT_FALSE(static_cast<bool>(F)) << Bad;
    EXPECT_NE(llvm::toString(F.takeError()).find("malformed --line-filter"), std::string::npos);
  }
}

TEST(GitDiff, AddedLinesPerFile) {
  const char *Diff = "diff --git a/src/x.cu b/src/x.cu\n"
                     "--- a/src/x.cu\n"
                     "+++ b/src/x.cu\n"
                     "@@ -3,0 +4,2 @@ void f() {\n"
                     "+a\n+b\n"
                     "@@ -10 +12 @@\n"
                     "-c\n+d\n"
                     "diff --git a/gone.cu b/gone.cu\n"
                     "--- a/gone.cu\n"
                     "+++ /dev/null\n"
                     "@@ -1,2 +0,0 @@\n"
                     "--- a/\"sp\\303\\251cial name.cu\"\n"
                     "+++ \"b/sp\\303\\251cial name.cu\"\n"
                     "@@ -5,2 +4,0 @@\n";
  LineFilter F = parseUnifiedDiff(Diff, "/repo");
  ASSERT_EQ(F.Files.size(), 2u);
  EXPECT_EQ(F.Files[0].Name, "/repo/src/x.cu");
  std::vector<std::pair<int64_t, int64_t>> Want = {{4, 5}, {12, 12}};
  EXPECT_EQ(F.Files[0].Lines, Want);
  EXPECT_EQ(F.Files[1].Name, "/repo/sp\xc3\xa9" "cial name.cu");
  // Only deletions: the file is listed and keeps no line.
  std::string Special[] = {F.Files[1].Name};
  EXPECT_FALSE(F.keeps(Special, 4));
  std::string X[] = {"/repo/src/x.cu"};
  EXPECT_TRUE(F.keeps(X, 5));
  EXPECT_FALSE(F.keeps(X, 6));
}

TEST(GitDiff, RevisionIsNeverAnOption) {
  llvm::Expected<LineFilter> F = changedLinesSince("--output=/tmp/x", {"/repo/a.cu"});
  ASSERT_FALSE(static_cast<bool>(F));
  EXPECT_NE(llvm::toString(F.takeError()).find("is not a revision"), std::string::npos);
}

const char *Page = ".. title:: clang-tidy - cuda-demo\n"
                   "\n"
                   "cuda-demo\n"
                   "=========\n"
                   "\n"
                   "Finds ``__global__`` code that\n"
                   "does `Things`_ badly::\n"
                   "\n"
                   "  int x;\n"
                   "\n"
                   "Options\n"
                   "-------\n"
                   "\n"
                   ".. code-block:: c++\n"
                   "\n"
                   "   f<<<1, 32>>>();\n"
                   "\n"
                   "See `the guide <https://example.com/g>`_ and :doc:`cuda-occupancy`.\n";

TEST(CheckDocs, FirstParagraphAsPlainText) {
  EXPECT_EQ(firstParagraph(Page), "Finds __global__ code that does Things badly:");
}

TEST(CheckDocs, Markdown) {
  EXPECT_EQ(rstToMarkdown(Page), "# cuda-demo\n"
                                 "\n"
                                 "Finds `__global__` code that\n"
                                 "does Things badly:\n"
                                 "\n"
                                 "```\n"
                                 "int x;\n"
                                 "```\n"
                                 "\n"
                                 "## Options\n"
                                 "\n"
                                 "```cpp\n"
                                 "f<<<1, 32>>>();\n"
                                 "```\n"
                                 "\n"
                                 "See [the guide](https://example.com/g) and `cuda-occupancy`.\n"
                                 "\n");
}

TEST(CheckDocs, EveryCheckHasItsPageEmbedded) {
  for (const char *Check :
       {"cuda-uncoalesced-global-access", "cuda-shared-bank-conflict", "cuda-occupancy"}) {
    llvm::StringRef Text = checkDocPage(Check);
    EXPECT_TRUE(Text.starts_with(".. title:: clang-tidy - ")) << Check;
    EXPECT_TRUE(Text.contains(std::string(Check) + "\n===")) << Check;
    EXPECT_TRUE(llvm::StringRef(checkDocUri(Check)).ends_with(std::string("/") + Check + ".rst"));
  }
  EXPECT_TRUE(checkDocPage("clang-diagnostic-unused").empty());
}

} // namespace
