//===- ArchTest.cpp - the architecture table and its lookup ---------------===//
#include "warpcheck/model/Arch.h"

#include "ArchLookup.h"

#include <gtest/gtest.h>

#include <set>

using namespace warpcheck::model;

namespace {

using warpcheck::testing::arch;

TEST(ArchTest, KnowsEveryRequestedArchitecture) {
  std::vector<std::string> Expected = {
      "g80",   "sm_50", "sm_52", "sm_53",  "sm_60",  "sm_61",
      "sm_62", "sm_70", "sm_72", "sm_75",  "sm_80",  "sm_86",
      "sm_87", "sm_89", "sm_90", "sm_100", "sm_103", "sm_110",
      "sm_120", "sm_121"};
  EXPECT_EQ(knownArchNames(), Expected);
  for (const std::string &Name : Expected) {
    const ArchSpec *A = findArch(Name);
    ASSERT_NE(A, nullptr) << Name;
    EXPECT_EQ(A->Name, Name);
  }
}

TEST(ArchTest, AcceptsTheUsualSpellings) {
  const ArchSpec *Sm90 = findArch("sm_90");
  ASSERT_NE(Sm90, nullptr);
  for (const char *Spelling : {"sm_90a", "90", "compute_90", "compute_90a",
                               "9.0", "SM_90", " sm_90 ", "sm90"})
    EXPECT_EQ(findArch(Spelling), Sm90) << Spelling;
  EXPECT_EQ(findArch("sm_100a"), findArch("sm_100"));
  EXPECT_EQ(findArch("sm_100f"), findArch("sm_100"));
  EXPECT_EQ(findArch("100"), findArch("sm_100"));
  EXPECT_EQ(findArch("10.3"), findArch("sm_103"));
  EXPECT_EQ(findArch("compute_120"), findArch("sm_120"));
  EXPECT_EQ(findArch("11.0"), findArch("sm_110"));
  EXPECT_EQ(findArch("sm_121a"), findArch("sm_121"));
  // The G80 is compute capability 1.0.
  EXPECT_EQ(findArch("sm_10"), findArch("g80"));
  EXPECT_EQ(findArch("1.0"), findArch("g80"));
  EXPECT_EQ(findArch("G80"), findArch("g80"));
}

TEST(ArchTest, RejectsUnknownNames) {
  for (const char *Name : {"", "sm_", "sm_91", "sm_35", "compute_", "9",
                           "sm_9000", "9.", "9.00", "gt200", "sm_90b"})
    EXPECT_EQ(findArch(Name), nullptr) << Name;
}

TEST(ArchTest, UnknownNamesFallBackToTheDefaultArchitecture) {
  // A compile command naming an architecture the model has no table for is
  // analysed as the default one (the H200's sm_90); a known name is itself.
  EXPECT_EQ(&findArchOrDefault("sm_91"), findArch(DefaultArchName));
  EXPECT_EQ(&findArchOrDefault(""), findArch(DefaultArchName));
  EXPECT_EQ(findArchOrDefault("sm_91").Name, "sm_90");
  EXPECT_EQ(&findArchOrDefault("sm_80"), findArch("sm_80"));
  EXPECT_EQ(findArchOrDefault("compute_75").Name, "sm_75");
}

TEST(ArchTest, EveryBuiltInArchIsConsistent) {
  std::set<std::string> Names;
  for (const ArchSpec &A : knownArchs()) {
    SCOPED_TRACE(A.Name);
    EXPECT_EQ(validateArch(A), "");
    EXPECT_TRUE(Names.insert(A.Name).second);
    EXPECT_EQ(A.MaxWarpsPerSM * A.WarpSize, A.MaxThreadsPerSM);
    EXPECT_LE(A.MaxThreadsPerBlock, A.MaxThreadsPerSM);
    EXPECT_LE(A.MaxRegistersPerBlock, A.RegistersPerSM);
    EXPECT_LE(A.SharedMemoryPerBlock, A.SharedMemoryPerBlockOptin);
    // The opt-in maximum plus the reservation fits the largest carveout.
    EXPECT_LE(A.SharedMemoryPerBlockOptin + A.ReservedSharedMemoryPerBlock,
              A.SharedMemoryPerSM);
    if (A.hasConfigurableCarveout()) {
      EXPECT_EQ(A.SharedCarveoutSteps.back(), A.SharedMemoryPerSM);
    }
    EXPECT_FALSE(A.Part.Name.empty());
    EXPECT_FALSE(A.Part.Source.empty());
    EXPECT_GT(A.Part.MemoryBandwidthGBps, 0);
  }
}

TEST(ArchTest, ModernArchesShareTheirAllocationRules) {
  for (const ArchSpec &A : knownArchs()) {
    if (A.ComputeMajor < 5)
      continue;
    SCOPED_TRACE(A.Name);
    // cuda_occupancy.h: 256 registers per warp, 255 per thread, 32 banks.
    EXPECT_EQ(A.RegisterAllocation, RegisterAllocationScope::PerWarp);
    EXPECT_EQ(A.RegisterAllocationUnit, 256u);
    EXPECT_EQ(A.MaxRegistersPerThread, 255u);
    EXPECT_EQ(A.RegistersPerSM, 65536u);
    EXPECT_EQ(A.WarpAllocationGranularity, A.Name == "sm_60" ? 2u : 4u);
    EXPECT_EQ(A.SharedAllocationUnit, A.ComputeMajor >= 8 ? 128u : 256u);
    EXPECT_EQ(A.ReservedSharedMemoryPerBlock, A.ComputeMajor >= 8 ? 1024u : 0u);
    EXPECT_EQ(A.SharedMemoryPerBlock, 48u * 1024);
    EXPECT_EQ(A.MaxThreadsPerBlock, 1024u);
    EXPECT_EQ(A.MaxBarriersPerBlock, 16u);
    EXPECT_EQ(A.SharedBanks.Banks, 32u);
    EXPECT_EQ(A.SharedBanks.LanesPerPass, 32u);
    EXPECT_EQ(A.hasConfigurableCarveout(), A.ComputeMajor >= 7);
    EXPECT_EQ(A.BlockBarriersPerSM > 0, A.ComputeMajor >= 9);
  }
}

TEST(ArchTest, Hopper) {
  const ArchSpec &A = arch("sm_90");
  EXPECT_EQ(A.computeCapability(), "9.0");
  EXPECT_EQ(A.MaxThreadsPerSM, 2048u);
  EXPECT_EQ(A.MaxWarpsPerSM, 64u);
  EXPECT_EQ(A.MaxBlocksPerSM, 32u);
  EXPECT_EQ(A.SharedMemoryPerSM, 233472u);         // 228 KB
  EXPECT_EQ(A.SharedMemoryPerBlockOptin, 232448u); // 227 KB
  EXPECT_EQ(A.ReservedSharedMemoryPerBlock, 1024u);
  std::vector<std::uint64_t> Steps = {0,      8192,   16384,  32768,  65536,
                                      102400, 135168, 167936, 200704, 233472};
  EXPECT_EQ(A.SharedCarveoutSteps, Steps);
  EXPECT_EQ(A.BlockBarriersPerSM, 64u);
  // cudaDeviceProp::maxThreadsDim and maxGridSize by [PG] for cc 9.0.
  EXPECT_EQ(A.MaxBlockDim, (std::array<unsigned, 3>{1024, 1024, 64}));
  EXPECT_EQ(A.MaxGridDim, (std::array<unsigned, 3>{2147483647u, 65535, 65535}));
  EXPECT_EQ(A.Part.Name, "H200 SXM");
  EXPECT_EQ(A.Part.SMCount, 132u);
  EXPECT_EQ(A.Part.BoostClockMHz, 1980u);
  EXPECT_DOUBLE_EQ(A.Part.MemoryBandwidthGBps, 4800);
}

TEST(ArchTest, PerArchLimits) {
  struct Row {
    const char *Name;
    unsigned Threads, Blocks, RegsPerBlock;
    std::uint64_t SharedPerSM, Optin;
  };
  const Row Rows[] = {
      {"sm_50", 2048, 32, 65536, 65536, 49152},
      {"sm_52", 2048, 32, 65536, 98304, 49152},
      {"sm_53", 2048, 32, 32768, 65536, 49152},
      {"sm_60", 2048, 32, 65536, 65536, 49152},
      {"sm_61", 2048, 32, 65536, 98304, 49152},
      {"sm_62", 2048, 32, 32768, 65536, 49152},
      {"sm_70", 2048, 32, 65536, 98304, 98304},
      {"sm_72", 2048, 32, 65536, 98304, 98304},
      {"sm_75", 1024, 16, 65536, 65536, 65536},
      {"sm_80", 2048, 32, 65536, 167936, 166912},
      {"sm_86", 1536, 16, 65536, 102400, 101376},
      {"sm_87", 1536, 16, 65536, 167936, 166912},
      {"sm_89", 1536, 24, 65536, 102400, 101376},
      {"sm_90", 2048, 32, 65536, 233472, 232448},
      {"sm_100", 2048, 32, 65536, 233472, 232448},
      {"sm_103", 2048, 32, 65536, 233472, 232448},
      {"sm_110", 1536, 24, 65536, 233472, 232448},
      {"sm_120", 1536, 24, 65536, 102400, 101376},
      {"sm_121", 1536, 24, 65536, 102400, 101376},
  };
  for (const Row &R : Rows) {
    SCOPED_TRACE(R.Name);
    const ArchSpec &A = arch(R.Name);
    EXPECT_EQ(A.MaxThreadsPerSM, R.Threads);
    EXPECT_EQ(A.MaxBlocksPerSM, R.Blocks);
    EXPECT_EQ(A.MaxRegistersPerBlock, R.RegsPerBlock);
    EXPECT_EQ(A.SharedMemoryPerSM, R.SharedPerSM);
    EXPECT_EQ(A.SharedMemoryPerBlockOptin, R.Optin);
  }
}

TEST(ArchTest, TheG80IsAHistoricalArchWithItsOwnRules) {
  const ArchSpec &G80 = arch("g80");
  EXPECT_EQ(G80.computeCapability(), "1.0");
  EXPECT_EQ(G80.RegistersPerSM, 8192u);
  EXPECT_EQ(G80.MaxThreadsPerSM, 768u);
  EXPECT_EQ(G80.MaxWarpsPerSM, 24u);
  EXPECT_EQ(G80.MaxBlocksPerSM, 8u);
  EXPECT_EQ(G80.MaxThreadsPerBlock, 512u);
  EXPECT_EQ(G80.SharedMemoryPerSM, 16384u);
  EXPECT_EQ(G80.RegisterAllocation, RegisterAllocationScope::PerBlock);
  // Seed 003: 16 banks, conflicts only within a half-warp.
  EXPECT_EQ(G80.SharedBanks.Banks, 16u);
  EXPECT_EQ(G80.SharedBanks.LanesPerPass, 16u);
  EXPECT_EQ(G80.SharedBanks.BankWidthBytes, 4u);
}

TEST(ArchTest, TextbookArchesHaveNoGranularity) {
  TextbookArchParams P;
  P.Name = "seed-001";
  P.RegistersPerSM = 65536;
  P.MaxThreadsPerSM = 2048;
  ArchSpec A = makeTextbookArch(P);
  EXPECT_EQ(validateArch(A), "");
  EXPECT_EQ(A.Name, "seed-001");
  EXPECT_EQ(A.MaxWarpsPerSM, 64u);
  EXPECT_EQ(A.RegisterAllocationUnit, 1u);
  EXPECT_EQ(A.WarpAllocationGranularity, 1u);
  EXPECT_EQ(A.SharedAllocationUnit, 1u);
  EXPECT_EQ(A.ReservedSharedMemoryPerBlock, 0u);
  EXPECT_FALSE(A.hasConfigurableCarveout());
  // Custom arches are not registered by name.
  EXPECT_EQ(findArch("seed-001"), nullptr);

  ArchSpec G80 = makeTextbookG80();
  EXPECT_EQ(validateArch(G80), "");
  EXPECT_EQ(G80.RegistersPerSM, 8192u);
  EXPECT_EQ(G80.MaxThreadsPerSM, 768u);
  EXPECT_EQ(G80.MaxBlocksPerSM, 8u);
  EXPECT_EQ(G80.SharedBanks.Banks, 16u);
  EXPECT_EQ(G80.SharedBanks.LanesPerPass, 16u);
}

TEST(ArchTest, ValidateArchNamesTheProblem) {
  ArchSpec A = *findArch("sm_90");
  A.RegisterAllocationUnit = 0;
  EXPECT_NE(validateArch(A).find("register allocation unit"),
            std::string::npos);
  A = *findArch("sm_90");
  A.MaxWarpsPerSM = 63;
  EXPECT_NE(validateArch(A), "");
  EXPECT_NE(validateArch(ArchSpec{}), "");
}

} // namespace
