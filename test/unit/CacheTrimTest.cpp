// trimCache and markCacheEntryUsed (CacheTrim.h): which entries a cache over
// its limit loses, and that a reused entry is kept.
#include "TempDir.h"

#include "warpcheck/toolchain/CacheTrim.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <chrono>

using namespace warpcheck::toolchain;
using warpcheck::test::exists;
using warpcheck::test::TempDir;

namespace {

/// A file of Bytes bytes whose modification time is AgeSeconds ago.
std::string entry(const TempDir &T, const std::string &Name, size_t Bytes, int AgeSeconds) {
  std::string Path = T.write(Name, std::string(Bytes, 'x'));
  int FD = -1;
  EXPECT_FALSE(llvm::sys::fs::openFileForWrite(Path, FD, llvm::sys::fs::CD_OpenExisting,
                                               llvm::sys::fs::OF_Append));
  EXPECT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(
      FD, std::chrono::system_clock::now() - std::chrono::seconds(AgeSeconds)));
  llvm::sys::fs::closeFile(FD);
  return Path;
}

TEST(CacheTrimTest, UnderTheLimitNothingIsRemoved) {
  TempDir T;
  entry(T, "a.json", 100, 30);
  entry(T, "b.json", 100, 20);
  CacheTrimResult R = trimCache(T.Path, ".json", 200);
  EXPECT_EQ(R.Removed, 0u);
  EXPECT_EQ(R.BytesBefore, 200u);
  EXPECT_EQ(R.BytesAfter, 200u);
}

TEST(CacheTrimTest, OldestGoFirstDownToThreeQuartersOfTheLimit) {
  // 5 entries of 100 bytes, limit 400: over by 100; trimmed to <= 300, so
  // the two oldest go.
  TempDir T;
  std::string Oldest = entry(T, "e.json", 100, 500);
  std::string Second = entry(T, "a.json", 100, 400);
  std::string Third = entry(T, "d.json", 100, 300);
  std::string Fourth = entry(T, "b.json", 100, 200);
  std::string Newest = entry(T, "c.json", 100, 100);
  CacheTrimResult R = trimCache(T.Path, ".json", 400);
  EXPECT_EQ(R.Removed, 2u);
  EXPECT_EQ(R.BytesBefore, 500u);
  EXPECT_EQ(R.BytesAfter, 300u);
  EXPECT_FALSE(exists(Oldest));
  EXPECT_FALSE(exists(Second));
  EXPECT_TRUE(exists(Third));
  EXPECT_TRUE(exists(Fourth));
  EXPECT_TRUE(exists(Newest));
}

TEST(CacheTrimTest, AReusedEntryIsKept) {
  TempDir T;
  std::string Old = entry(T, "old.json", 100, 500);
  std::string Other = entry(T, "other.json", 100, 400);
  entry(T, "new.json", 100, 10);
  markCacheEntryUsed(Old);
  // Limit 280: trimmed to <= 210, one entry goes.
  CacheTrimResult R = trimCache(T.Path, ".json", 280);
  EXPECT_EQ(R.Removed, 1u);
  EXPECT_TRUE(exists(Old));
  EXPECT_FALSE(exists(Other));
}

TEST(CacheTrimTest, OnlyEntriesCountAndStaleTemporaryFilesGo) {
  TempDir T;
  std::string Foreign = entry(T, "README", 10000, 900);
  std::string Stale = entry(T, "k.json.tmp-abcdefgh", 50, 7200);
  std::string Writing = entry(T, "k.json.tmp-ijklmnop", 50, 5);
  std::string Kept = entry(T, "k.json", 100, 900);
  CacheTrimResult R = trimCache(T.Path, ".json", 100);
  EXPECT_EQ(R.Removed, 0u);
  EXPECT_EQ(R.BytesBefore, 100u);
  EXPECT_TRUE(exists(Foreign));
  EXPECT_FALSE(exists(Stale)); // a killed writer's, over an hour old
  EXPECT_TRUE(exists(Writing)); // another run may be writing it now
  EXPECT_TRUE(exists(Kept));
}

TEST(CacheTrimTest, AMissingFolderIsAnEmptyCache) {
  CacheTrimResult R = trimCache("/nonexistent/warpcheck-cache", ".json", 1);
  EXPECT_EQ(R.Removed, 0u);
  EXPECT_EQ(R.BytesBefore, 0u);
}

} // namespace
