//===- FixApplicationTest.cpp - choosing and making fix-its ---------------===//

#include "FixApplication.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace warpcheck::tool;

namespace {

/// A finding in /src/a.cu whose fix-it replaces [Offset, Offset+Length).
Finding findingWithFix(unsigned Offset, unsigned Length, const std::string &Text,
                       const std::string &File = "/src/a.cu") {
  Finding F;
  F.Check = "cuda-shared-bank-conflict";
  F.File = File;
  F.Line = 1;
  F.Column = 1;
  F.Message = "32-way bank conflict";
  F.Fixes.push_back(FixIt{File, Offset, Length, 1, 1 + Offset, Text});
  return F;
}

const std::set<std::string> Writable = {"/src/a.cu", "/src/tile.cuh"};

TEST(FixApplication, SameReplacementFromTwoFindingsIsMadeOnce) {
  std::vector<Finding> Findings = {findingWithFix(10, 2, "33"), findingWithFix(10, 2, "33")};
  FixSelection S = chooseFixes(Findings, false, "/", Writable);
  EXPECT_EQ(S.Offered, 2u);
  EXPECT_TRUE(S.Skipped.empty());
  ASSERT_EQ(S.ByFile.size(), 1u);
  EXPECT_EQ(S.ByFile["/src/a.cu"].size(), 1u);
  ASSERT_EQ(S.Chosen.size(), 2u);
  EXPECT_EQ(S.Chosen[0].Replacements.size(), 1u);
  EXPECT_TRUE(S.Chosen[1].Replacements.empty());
}

TEST(FixApplication, OverlappingFixItsNeverBothMade) {
  std::vector<Finding> Findings = {findingWithFix(10, 2, "33"), findingWithFix(10, 2, "34"),
                                   findingWithFix(11, 3, "x")};
  FixSelection S = chooseFixes(Findings, false, "/", Writable);
  ASSERT_EQ(S.Chosen.size(), 1u);
  EXPECT_EQ(S.Chosen[0].From, &Findings[0]);
  ASSERT_EQ(S.Skipped.size(), 2u);
  EXPECT_EQ(S.Skipped[0].From, &Findings[1]);
  EXPECT_EQ(S.Skipped[0].File, "/src/a.cu");
  EXPECT_EQ(S.Skipped[0].Reason, "it overlaps another fix-it");
  EXPECT_EQ(S.ByFile["/src/a.cu"].size(), 1u);
  EXPECT_EQ(S.ByFile["/src/a.cu"].begin()->getReplacementText(), "33");
}

TEST(FixApplication, TwoInsertionsAtOnePlaceConflict) {
  std::vector<Finding> Findings = {findingWithFix(5, 0, "__launch_bounds__(256, 4) "),
                                   findingWithFix(5, 0, "__launch_bounds__(256, 2) ")};
  FixSelection S = chooseFixes(Findings, false, "/", Writable);
  EXPECT_EQ(S.Chosen.size(), 1u);
  ASSERT_EQ(S.Skipped.size(), 1u);
  EXPECT_EQ(S.Skipped[0].Reason, "it inserts at the same place as another fix-it");
}

TEST(FixApplication, AFixItIsMadeWholeOrNotAtAll) {
  Finding Two = findingWithFix(30, 1, "b");
  Two.Fixes.push_back(FixIt{"/src/tile.cuh", 10, 2, 1, 11, "34"});
  std::vector<Finding> Findings = {findingWithFix(10, 2, "33", "/src/tile.cuh"), Two};
  FixSelection S = chooseFixes(Findings, false, "/", Writable);
  ASSERT_EQ(S.Skipped.size(), 1u);
  EXPECT_EQ(S.Skipped[0].File, "/src/tile.cuh");
  // Its first replacement, in a.cu, is not made either.
  EXPECT_EQ(S.ByFile.count("/src/a.cu"), 0u);
}

TEST(FixApplication, OnlyTheAnalysedFilesAreWritten) {
  std::vector<Finding> Findings = {findingWithFix(10, 2, "33", "/usr/include/cuda/x.h"),
                                   findingWithFix(10, 2, "33", "../src/./a.cu")};
  FixSelection S = chooseFixes(Findings, false, "/src", Writable);
  ASSERT_EQ(S.Skipped.size(), 1u);
  EXPECT_EQ(S.Skipped[0].File, "/usr/include/cuda/x.h");
  ASSERT_EQ(S.ByFile.size(), 1u);
  EXPECT_EQ(S.ByFile.begin()->first, "/src/a.cu");
}

TEST(FixApplication, NotesFixItsOnlyWithFixNotes) {
  Finding F = findingWithFix(0, 0, "");
  F.Fixes.clear();
  ReportedMessage Note;
  Note.Message = "padding it to [33] removes the conflict";
  Note.File = "/src/a.cu";
  Note.Fixes.push_back(FixIt{"/src/a.cu", 10, 2, 1, 11, "33"});
  F.Notes.push_back(Note);
  std::vector<Finding> Findings = {F};
  EXPECT_TRUE(chooseFixes(Findings, false, "/", Writable).Chosen.empty());
  FixSelection S = chooseFixes(Findings, true, "/", Writable);
  ASSERT_EQ(S.Chosen.size(), 1u);
  EXPECT_EQ(S.ByFile["/src/a.cu"].begin()->getReplacementText(), "33");
}

TEST(FixApplication, ExportIsClangTidyYaml) {
  std::vector<Finding> Findings = {findingWithFix(10, 2, "33")};
  FixSelection S = chooseFixes(Findings, false, "/", Writable);
  std::string Yaml = exportFixesYaml(S, "/src/a.cu", "/build");
  EXPECT_NE(Yaml.find("MainSourceFile:  '/src/a.cu'"), std::string::npos) << Yaml;
  EXPECT_NE(Yaml.find("DiagnosticName:  cuda-shared-bank-conflict"), std::string::npos) << Yaml;
  EXPECT_NE(Yaml.find("ReplacementText: '33'"), std::string::npos) << Yaml;
  EXPECT_NE(Yaml.find("Offset:          10"), std::string::npos) << Yaml;
  EXPECT_NE(Yaml.find("Level:           Warning"), std::string::npos) << Yaml;
  EXPECT_NE(Yaml.find("BuildDirectory:  '/build'"), std::string::npos) << Yaml;
}

TEST(FixApplication, WriteFileAtomicallyReplacesTheTargetOfALink) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("fixapply", Dir));
  llvm::SmallString<128> Target(Dir), Link(Dir);
  llvm::sys::path::append(Target, "a.cu");
  llvm::sys::path::append(Link, "link.cu");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Target, EC);
    ASSERT_FALSE(EC);
    OS << "old";
  }
  ASSERT_FALSE(llvm::sys::fs::create_link(Target, Link));
  ASSERT_FALSE(llvm::errorToBool(writeFileAtomically(Link, "new text")));
  auto Buffer = llvm::MemoryBuffer::getFile(Target);
  ASSERT_TRUE(bool(Buffer));
  EXPECT_EQ((*Buffer)->getBuffer(), "new text");
  EXPECT_TRUE(llvm::sys::fs::is_symlink_file(Link));
  std::error_code EC;
  unsigned Entries = 0;
  for (llvm::sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC; I.increment(EC))
    ++Entries;
  EXPECT_EQ(Entries, 2u); // no temporary file left beside it
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
