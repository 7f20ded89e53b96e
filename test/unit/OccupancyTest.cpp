//===- OccupancyTest.cpp - the occupancy calculator -----------------------===//
//
// Three kinds of tests:
//  1. the seeds' worked cases on custom (textbook) architectures and the G80;
//  2. real-architecture cases derived by hand from cuda_occupancy.h (the
//     arithmetic is in each test's comment);
//  3. comparisons with references: the toolkit's own cuda_occupancy.h where
//     it is on the include path (WARPCHECK_HAVE_CUDA_OCCUPANCY_H), and the
//     records measured on a real device with
//     cudaOccupancyMaxActiveBlocksPerMultiprocessor
//     ($WARPCHECK_HW_DIR/occupancy_runtime.json, skipped when absent).
//
//===----------------------------------------------------------------------===//
#include "warpcheck/model/Occupancy.h"

#include "ArchLookup.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <variant>

#if defined(WARPCHECK_HAVE_CUDA_OCCUPANCY_H)
#include <cuda_occupancy.h>
#endif

using namespace warpcheck::model;

namespace {

using warpcheck::testing::arch;

KernelResources kernel(unsigned Threads, unsigned Registers,
                       std::uint64_t StaticShared = 0,
                       std::uint64_t DynamicShared = 0) {
  KernelResources K;
  K.ThreadsPerBlock = Threads;
  K.RegistersPerThread = Registers;
  K.StaticSharedBytes = StaticShared;
  K.DynamicSharedBytes = DynamicShared;
  return K;
}

//===----------------------------------------------------------------------===//
// 1. The seeds.
//===----------------------------------------------------------------------===//

ArchSpec seed001Arch() {
  // Seed 001: "an SM that holds 65,536 registers", "max 2048" threads.
  TextbookArchParams P;
  P.Name = "seed-001";
  P.RegistersPerSM = 65536;
  P.MaxThreadsPerSM = 2048;
  return makeTextbookArch(P);
}

TEST(OccupancySeedTest, FortyRegistersGiveThreeBlocksOfFiveTwelve) {
  // 512 x 40 = 20,480 registers per block; floor(65,536 / 20,480) = 3
  // blocks; 1,536 of 2,048 threads = 75%.
  OccupancyResult R = computeOccupancy(seed001Arch(), kernel(512, 40));
  EXPECT_EQ(R.ActiveBlocksPerSM, 3u);
  EXPECT_EQ(R.ActiveThreadsPerSM, 1536u);
  EXPECT_DOUBLE_EQ(R.Theoretical, 0.75);
  EXPECT_EQ(R.Limiter, OccupancyLimiter::Registers);
  EXPECT_EQ(R.BlockLimitRegisters, 3u);
  EXPECT_EQ(R.AllocatedRegistersPerBlock, 20480u);
}

TEST(OccupancySeedTest, ThirtyTwoRegistersGiveFullOccupancy) {
  // 512 x 32 = 16,384; 65,536 / 16,384 = 4 blocks = 2,048 threads = 100%.
  OccupancyResult R = computeOccupancy(seed001Arch(), kernel(512, 32));
  EXPECT_EQ(R.ActiveBlocksPerSM, 4u);
  EXPECT_DOUBLE_EQ(R.Theoretical, 1.0);
  // Registers and warp slots both allow exactly 4.
  EXPECT_TRUE(R.limitedBy(OccupancyLimiter::Registers));
  EXPECT_TRUE(R.limitedBy(OccupancyLimiter::Warps));
  EXPECT_EQ(R.Limiter, OccupancyLimiter::Warps);
}

TEST(OccupancySeedTest, TextbookRuleIsTheFloorOfRegistersOverDemand) {
  // With allocation unit 1 and warp granularity 1 the calculator is exactly
  // floor(registers per SM / (threads x registers)), capped by the thread
  // and block slots.
  ArchSpec A = seed001Arch();
  for (unsigned Threads : {32u, 96u, 128u, 256u, 512u, 1024u})
    for (unsigned Registers = 1; Registers <= 255; ++Registers) {
      unsigned Textbook = A.RegistersPerSM / (Threads * Registers);
      unsigned Expected =
          std::min({Textbook, A.MaxThreadsPerSM / Threads, A.MaxBlocksPerSM});
      if (Threads * Registers > A.RegistersPerSM)
        Expected = 0;
      EXPECT_EQ(
          computeOccupancy(A, kernel(Threads, Registers)).ActiveBlocksPerSM,
          Expected)
          << Threads << " threads x " << Registers << " registers";
    }
}

TEST(OccupancySeedTest, TextbookG80) {
  // Seed 003: 256 x 10 = 2,560; 8,192 / 2,560 = 3 blocks. One more register:
  // 256 x 11 = 2,816; 8,192 / 2,816 = 2 blocks.
  ArchSpec G80 = makeTextbookG80();
  OccupancyResult Ten = computeOccupancy(G80, kernel(256, 10));
  EXPECT_EQ(Ten.ActiveBlocksPerSM, 3u);
  EXPECT_EQ(Ten.BlockLimitRegisters, 3u);
  EXPECT_DOUBLE_EQ(Ten.Theoretical, 1.0); // 768 of 768 threads
  OccupancyResult Eleven = computeOccupancy(G80, kernel(256, 11));
  EXPECT_EQ(Eleven.ActiveBlocksPerSM, 2u);
  EXPECT_EQ(Eleven.Limiter, OccupancyLimiter::Registers);
  EXPECT_NEAR(Eleven.Theoretical, 2.0 / 3.0, 1e-12);
}

TEST(OccupancySeedTest, RealG80RulesAgreeOnTheSeedsCases) {
  // Compute capability 1.0 allocated per block: roundUp(roundUp(8 warps, 2)
  // x 32 x 10, 256) = 2,560 -> 3 blocks; x 11 -> 2,816 -> 2 blocks.
  const ArchSpec &G80 = arch("g80");
  OccupancyResult Ten = computeOccupancy(G80, kernel(256, 10));
  EXPECT_EQ(Ten.ActiveBlocksPerSM, 3u);
  EXPECT_EQ(Ten.AllocatedRegistersPerBlock, 2560u);
  EXPECT_TRUE(Ten.limitedBy(OccupancyLimiter::Registers));
  OccupancyResult Eleven = computeOccupancy(G80, kernel(256, 11));
  EXPECT_EQ(Eleven.ActiveBlocksPerSM, 2u);
  EXPECT_EQ(Eleven.AllocatedRegistersPerBlock, 2816u);
  EXPECT_EQ(Eleven.Limiter, OccupancyLimiter::Registers);
  // Where the two differ: 96 threads (3 warps, rounded to 4) x 10 registers
  // hold 1,280 registers, not 960: 6 blocks instead of the textbook's 8.
  EXPECT_EQ(computeOccupancy(G80, kernel(96, 10)).BlockLimitRegisters, 6u);
  EXPECT_EQ(
      computeOccupancy(makeTextbookG80(), kernel(96, 10)).BlockLimitRegisters,
      8u);
}

//===----------------------------------------------------------------------===//
// 2. Real architectures, by hand from cuda_occupancy.h.
//===----------------------------------------------------------------------===//

TEST(OccupancyTest, Sm90SeventyTwoRegistersGiveThreeBlocksOf256) {
  // 72 x 32 = 2,304 registers per warp (a multiple of 256). Each of the 4
  // schedulers has 16,384: floor(16,384 / 2,304) = 7 warps, 28 per SM;
  // floor(28 / 8 warps per block) = 3 blocks = 24 warps = 37.5%.
  OccupancyResult R = computeOccupancy(arch("sm_90"), kernel(256, 72));
  EXPECT_EQ(R.ActiveBlocksPerSM, 3u);
  EXPECT_EQ(R.ActiveWarpsPerSM, 24u);
  EXPECT_DOUBLE_EQ(R.Theoretical, 0.375);
  EXPECT_EQ(R.Limiter, OccupancyLimiter::Registers);
  EXPECT_EQ(R.LimiterMask, 1u << unsigned(OccupancyLimiter::Registers));
  EXPECT_EQ(R.BlockLimitRegisters, 3u);
  EXPECT_EQ(R.BlockLimitWarps, 8u);
  EXPECT_EQ(R.BlockLimitBlocks, 32u);
  EXPECT_EQ(R.BlockLimitSharedMemory, 228u); // 233,472 / 1,024 reserved
  EXPECT_EQ(R.BlockLimitBarriers, 64u);
  EXPECT_EQ(R.AllocatedRegistersPerBlock, 18432u);
  EXPECT_EQ(R.AllocatedSharedBytesPerBlock, 1024u);
  EXPECT_EQ(limiterName(R.Limiter), "registers");
}

TEST(OccupancyTest, RegisterAdviceForLaunchBounds) {
  // 64 x 32 = 2,048 per warp: 8 warps per scheduler, 32 per SM, 4 blocks of
  // 8 warps = 50%. 65 registers round up to 72 (2,304 per warp): 3 blocks.
  const ArchSpec &Sm90 = arch("sm_90");
  EXPECT_EQ(computeOccupancy(Sm90, kernel(256, 64)).ActiveBlocksPerSM, 4u);
  EXPECT_EQ(computeOccupancy(Sm90, kernel(256, 65)).ActiveBlocksPerSM, 3u);
  EXPECT_EQ(maxRegistersForBlocks(Sm90, kernel(256, 72), 4), 64u);
  EXPECT_EQ(maxRegistersForBlocks(Sm90, kernel(256, 72), 3), 80u);
  EXPECT_EQ(maxRegistersForBlocks(Sm90, kernel(256, 72), 8), 32u);
  // 9 blocks of 8 warps exceed the 64 warp slots: no register count helps.
  EXPECT_EQ(maxRegistersForBlocks(Sm90, kernel(256, 72), 9), std::nullopt);
  EXPECT_EQ(occupancyWithRegisters(Sm90, kernel(256, 72), 40).ActiveBlocksPerSM,
            6u);
  EXPECT_EQ(registerLimitedBlocks(Sm90, 72, 256), 3u);
  EXPECT_EQ(registerLimitedBlocks(Sm90, 0, 256), OccupancyResult::Unlimited);

  std::optional<RegisterAdvice> Advice = adviseRegisters(Sm90, kernel(256, 72));
  ASSERT_TRUE(Advice.has_value());
  EXPECT_EQ(Advice->TargetBlocks, 4u);
  EXPECT_EQ(Advice->MaxRegistersPerThread, 64u);
  EXPECT_EQ(Advice->AtTarget.ActiveBlocksPerSM, 4u);
  EXPECT_EQ(Advice->Message,
            "72 registers per thread limit sm_90 to 3 blocks of 256 threads "
            "(37.5% occupancy); at most 64 registers would allow 4 blocks "
            "(50%)");
  // No advice when registers are not the limit.
  EXPECT_FALSE(adviseRegisters(Sm90, kernel(256, 32)).has_value());
  EXPECT_FALSE(adviseRegisters(Sm90, kernel(1025, 32)).has_value());
}

TEST(OccupancyTest, AllocationGranularityCostsABlockTheTextbookRuleDoesNotSee) {
  // 256 x 36: textbook floor(65,536 / 9,216) = 7 blocks. Real: 36 x 32 =
  // 1,152 rounds to 1,280 per warp; floor(16,384 / 1,280) = 12 warps per
  // scheduler, 48 per SM, 6 blocks.
  EXPECT_EQ(computeOccupancy(seed001Arch(), kernel(256, 36)).ActiveBlocksPerSM,
            7u);
  EXPECT_EQ(computeOccupancy(arch("sm_90"), kernel(256, 36)).ActiveBlocksPerSM,
            6u);
  // The seed's own case agrees under both rules: 40 registers = 1,280 per
  // warp exactly; 12 warps per scheduler, 48 per SM, 3 blocks of 16 warps.
  EXPECT_EQ(computeOccupancy(arch("sm_90"), kernel(512, 40)).ActiveBlocksPerSM,
            3u);
}

TEST(OccupancyTest, Sm80FortyEightKilobytesOfStaticShared) {
  // 49,152 + 1,024 reserved = 50,176 (a multiple of 128) per block;
  // floor(167,936 / 50,176) = 3 blocks = 24 warps = 37.5%.
  OccupancyResult R =
      computeOccupancy(arch("sm_80"), kernel(256, 32, 48 * 1024, 0));
  EXPECT_EQ(R.ActiveBlocksPerSM, 3u);
  EXPECT_EQ(R.AllocatedSharedBytesPerBlock, 50176u);
  EXPECT_EQ(R.SharedBytesPerSM, 167936u);
  EXPECT_EQ(R.Limiter, OccupancyLimiter::SharedMemory);
  EXPECT_DOUBLE_EQ(R.Theoretical, 0.375);
  EXPECT_EQ(limiterName(R.Limiter), "shared memory");
}

TEST(OccupancyTest, TheReservedKilobyteCostsABlock) {
  // sm_90, 32 KB dynamic: (32,768 + 1,024) = 33,792 per block;
  // floor(233,472 / 33,792) = 6, where 32 KB alone would give 7.
  OccupancyResult R =
      computeOccupancy(arch("sm_90"), kernel(128, 32, 0, 32 * 1024));
  EXPECT_EQ(R.ActiveBlocksPerSM, 6u);
  EXPECT_EQ(R.Limiter, OccupancyLimiter::SharedMemory);
  // sm_70 reserves nothing and allocates in 256-byte units: 1,000 bytes
  // take 1,024; floor(98,304 / 1,024) = 96, so warps (16) limit.
  OccupancyResult V = computeOccupancy(arch("sm_70"), kernel(128, 32, 1000, 0));
  EXPECT_EQ(V.AllocatedSharedBytesPerBlock, 1024u);
  EXPECT_EQ(V.BlockLimitSharedMemory, 96u);
  EXPECT_EQ(V.ActiveBlocksPerSM, 16u);
  // sm_80 allocates in 128-byte units: 1,000 + 1,024 = 2,024 -> 2,048.
  EXPECT_EQ(computeOccupancy(arch("sm_80"), kernel(128, 32, 1000, 0))
                .AllocatedSharedBytesPerBlock,
            2048u);
}

TEST(OccupancyTest, CarveoutPreference) {
  // sm_90, 16 KB static: 16,384 + 1,024 = 17,408 per block.
  const ArchSpec &Sm90 = arch("sm_90");
  KernelResources K = kernel(128, 32, 16 * 1024, 0);
  // Default: the whole 228 KB: floor(233,472 / 17,408) = 13.
  OccupancyResult Default = computeOccupancy(Sm90, K);
  EXPECT_EQ(Default.ActiveBlocksPerSM, 13u);
  EXPECT_EQ(Default.SharedBytesPerSM, 233472u);
  // 50%: 50 x 233,472 / 100 = 116,736 -> the 132 KB carveout (135,168):
  // floor(135,168 / 17,408) = 7.
  K.CarveoutPercent = 50;
  OccupancyResult Half = computeOccupancy(Sm90, K);
  EXPECT_EQ(Half.SharedBytesPerSM, 135168u);
  EXPECT_EQ(Half.ActiveBlocksPerSM, 7u);
  // 25%: 58,368 -> 64 KB: 3 blocks.
  K.CarveoutPercent = 25;
  EXPECT_EQ(computeOccupancy(Sm90, K).ActiveBlocksPerSM, 3u);
  // 0%: the 0 KB carveout holds no block, so the SM takes the smallest
  // carveout that holds one (32 KB): 1 block.
  K.CarveoutPercent = 0;
  OccupancyResult None = computeOccupancy(Sm90, K);
  EXPECT_EQ(None.SharedBytesPerSM, 32768u);
  EXPECT_EQ(None.ActiveBlocksPerSM, 1u);
  // 100% is the default; -1 is the runtime's "no preference".
  K.CarveoutPercent = 100;
  EXPECT_EQ(computeOccupancy(Sm90, K).ActiveBlocksPerSM, 13u);
  K.CarveoutPercent = -1;
  EXPECT_EQ(computeOccupancy(Sm90, K).ActiveBlocksPerSM, 13u);
  K.CarveoutPercent = 101;
  OccupancyResult Bad = computeOccupancy(Sm90, K);
  EXPECT_EQ(Bad.Limiter, OccupancyLimiter::Invalid);
  EXPECT_FALSE(Bad.Error.empty());
}

TEST(OccupancyTest, TuringHasNoZeroCarveout) {
  // Turing's shared memory is 32 KB or 64 KB: 0% gives 32 KB. 8 KB blocks
  // (256-byte units, no reservation): 4 blocks.
  KernelResources K = kernel(64, 32, 8 * 1024, 0);
  K.CarveoutPercent = 0;
  OccupancyResult R = computeOccupancy(arch("sm_75"), K);
  EXPECT_EQ(R.SharedBytesPerSM, 32768u);
  EXPECT_EQ(R.ActiveBlocksPerSM, 4u);
}

TEST(OccupancyTest, PreVoltaIgnoresTheCarveout) {
  KernelResources K = kernel(64, 32, 8 * 1024, 0);
  K.CarveoutPercent = 0;
  OccupancyResult R = computeOccupancy(arch("sm_61"), K);
  EXPECT_EQ(R.SharedBytesPerSM, 98304u);
  EXPECT_EQ(R.ActiveBlocksPerSM, 12u); // 98,304 / 8,192
}

TEST(OccupancyTest, BlocksOf1024) {
  // sm_90, 1024 threads = 32 warps: 2 blocks by warp slots (100%).
  OccupancyResult Full = computeOccupancy(arch("sm_90"), kernel(1024, 32));
  EXPECT_EQ(Full.ActiveBlocksPerSM, 2u);
  EXPECT_DOUBLE_EQ(Full.Theoretical, 1.0);
  EXPECT_EQ(Full.Limiter, OccupancyLimiter::Warps);
  // 64 registers: 2,048 per warp x 32 warps = 65,536, exactly the block
  // limit; 8 warps per scheduler = 32 per SM = 1 block (50%).
  OccupancyResult Half = computeOccupancy(arch("sm_90"), kernel(1024, 64));
  EXPECT_EQ(Half.ActiveBlocksPerSM, 1u);
  EXPECT_EQ(Half.Limiter, OccupancyLimiter::Registers);
  EXPECT_DOUBLE_EQ(Half.Theoretical, 0.5);
  // 65 registers round to 72: 2,304 x 32 = 73,728 > 65,536: cannot launch.
  OccupancyResult TooMany = computeOccupancy(arch("sm_90"), kernel(1024, 65));
  EXPECT_EQ(TooMany.Limiter, OccupancyLimiter::Invalid);
  EXPECT_EQ(TooMany.ActiveBlocksPerSM, 0u);
  EXPECT_EQ(TooMany.BlockLimitRegisters, 0u);
  EXPECT_NE(TooMany.Error.find("65536"), std::string::npos) << TooMany.Error;
  // sm_75 holds 1,024 threads per SM: one such block, 100%.
  OccupancyResult Turing = computeOccupancy(arch("sm_75"), kernel(1024, 32));
  EXPECT_EQ(Turing.ActiveBlocksPerSM, 1u);
  EXPECT_DOUBLE_EQ(Turing.Theoretical, 1.0);
  // sm_86 holds 48 warps: one block of 32 warps, 66.7%.
  OccupancyResult Ampere = computeOccupancy(arch("sm_86"), kernel(1024, 32));
  EXPECT_EQ(Ampere.ActiveBlocksPerSM, 1u);
  EXPECT_EQ(formatPercent(Ampere.Theoretical), "66.7%");
}

TEST(OccupancyTest, TooManyThreads) {
  OccupancyResult R = computeOccupancy(arch("sm_90"), kernel(1025, 32));
  EXPECT_EQ(R.Limiter, OccupancyLimiter::Invalid);
  EXPECT_EQ(R.BlockLimitWarps, 0u);
  EXPECT_NE(R.Error.find("1025"), std::string::npos) << R.Error;
  EXPECT_EQ(limiterName(R.Limiter), "invalid");
  EXPECT_FALSE(R.valid());
  EXPECT_EQ(computeOccupancy(arch("sm_90"), kernel(0, 32)).Limiter,
            OccupancyLimiter::Invalid);
  // The G80 allowed 512.
  EXPECT_EQ(computeOccupancy(arch("g80"), kernel(513, 8)).Limiter,
            OccupancyLimiter::Invalid);
}

TEST(OccupancyTest, TwoFiftyFiveRegisters) {
  // 255 x 32 = 8,160 -> 8,192 per warp; 2 warps per scheduler, 8 per SM.
  const ArchSpec &Sm90 = arch("sm_90");
  OccupancyResult Small = computeOccupancy(Sm90, kernel(128, 255));
  EXPECT_EQ(Small.ActiveBlocksPerSM, 2u);
  EXPECT_DOUBLE_EQ(Small.Theoretical, 0.125);
  EXPECT_EQ(computeOccupancy(Sm90, kernel(256, 255)).ActiveBlocksPerSM, 1u);
  // 9 warps x 8,192 = 73,728 > 65,536.
  EXPECT_EQ(computeOccupancy(Sm90, kernel(288, 255)).Limiter,
            OccupancyLimiter::Invalid);
  OccupancyResult Over = computeOccupancy(Sm90, kernel(32, 256));
  EXPECT_EQ(Over.Limiter, OccupancyLimiter::Invalid);
  EXPECT_NE(Over.Error.find("255"), std::string::npos) << Over.Error;
}

TEST(OccupancyTest, TheHardwareCheckRoundsWarpsToTheSchedulers) {
  // sm_90, 800 threads = 25 warps x 80 registers (2,560 per warp): 64,000
  // registers fit the 65,536 of a block, but the launch check counts 28
  // warps (a multiple of 4): 71,680 > 65,536, so it cannot launch; the
  // textbook rule (800 x 80 = 64,000) says 1 block.
  OccupancyResult R = computeOccupancy(arch("sm_90"), kernel(800, 80));
  EXPECT_EQ(R.Limiter, OccupancyLimiter::Invalid);
  EXPECT_EQ(R.AllocatedRegistersPerBlock, 64000u);
  EXPECT_NE(R.Error.find("71680"), std::string::npos) << R.Error;
  EXPECT_EQ(computeOccupancy(seed001Arch(), kernel(800, 80)).ActiveBlocksPerSM,
            1u);
}

TEST(OccupancyTest, Sm60HasTwoSchedulersButIsCheckedAsGP10x) {
  // 32 threads x 192 registers = 6,144 per warp. sm_60 (2 x 32,768):
  // 5 warps each = 10 blocks; sm_61 (4 x 16,384): 2 each = 8 blocks.
  EXPECT_EQ(computeOccupancy(arch("sm_60"), kernel(32, 192)).ActiveBlocksPerSM,
            10u);
  EXPECT_EQ(computeOccupancy(arch("sm_61"), kernel(32, 192)).ActiveBlocksPerSM,
            8u);
  // 704 threads = 22 warps x 88 registers (2,816 per warp) = 61,952: fits
  // GP100's check (22 warps, a multiple of 2) but not GP10x's (24 warps =
  // 67,584), and cuda_occupancy.h refuses it on every Pascal.
  EXPECT_EQ(computeOccupancy(arch("sm_60"), kernel(704, 88)).Limiter,
            OccupancyLimiter::Invalid);
}

TEST(OccupancyTest, SharedMemoryLimits) {
  const ArchSpec &Sm90 = arch("sm_90");
  // The whole opt-in maximum: 232,448 + 1,024 = 233,472: one block.
  OccupancyResult Max = computeOccupancy(Sm90, kernel(128, 32, 0, 232448));
  EXPECT_EQ(Max.ActiveBlocksPerSM, 1u);
  EXPECT_EQ(Max.Limiter, OccupancyLimiter::SharedMemory);
  // One byte more cannot launch.
  OccupancyResult Over = computeOccupancy(Sm90, kernel(128, 32, 0, 232449));
  EXPECT_EQ(Over.Limiter, OccupancyLimiter::Invalid);
  EXPECT_EQ(Over.BlockLimitSharedMemory, 0u);
  EXPECT_NE(Over.Error.find("233472"), std::string::npos) << Over.Error;
  // sm_86: 99 KB is its opt-in maximum.
  EXPECT_EQ(computeOccupancy(arch("sm_86"), kernel(128, 32, 0, 99 * 1024))
                .ActiveBlocksPerSM,
            1u);
  EXPECT_FALSE(
      computeOccupancy(arch("sm_86"), kernel(128, 32, 0, 100 * 1024)).valid());
  // sm_61 has no opt-in: 48 KB per block.
  EXPECT_EQ(computeOccupancy(arch("sm_61"), kernel(128, 32, 0, 48 * 1024))
                .ActiveBlocksPerSM,
            2u);
  EXPECT_FALSE(
      computeOccupancy(arch("sm_61"), kernel(128, 32, 0, 48 * 1024 + 1))
          .valid());
  // Static shared memory above 48 KB is a compile error.
  OccupancyResult Static =
      computeOccupancy(Sm90, kernel(128, 32, 48 * 1024 + 4, 0));
  EXPECT_EQ(Static.Limiter, OccupancyLimiter::Invalid);
  EXPECT_NE(Static.Error.find("static"), std::string::npos) << Static.Error;
  // A program that never raised cudaFuncAttributeMaxDynamicSharedMemorySize
  // cannot launch with 64 KB dynamic.
  KernelResources K = kernel(128, 32, 0, 64 * 1024);
  K.MaxDynamicSharedBytes = 48 * 1024;
  OccupancyResult NotOptedIn = computeOccupancy(Sm90, K);
  EXPECT_EQ(NotOptedIn.Limiter, OccupancyLimiter::Invalid);
  EXPECT_NE(NotOptedIn.Error.find("MaxDynamicSharedMemorySize"),
            std::string::npos);
}

TEST(OccupancyTest, MaxDynamicSharedForBlocks) {
  // sm_90, 4 blocks: 233,472 / 4 = 58,368 per block (a multiple of 128),
  // less the 1,024 reserved = 57,344.
  const ArchSpec &Sm90 = arch("sm_90");
  EXPECT_EQ(maxDynamicSharedForBlocks(Sm90, kernel(128, 32), 4), 57344u);
  EXPECT_EQ(computeOccupancy(Sm90, kernel(128, 32, 0, 57344)).ActiveBlocksPerSM,
            4u);
  EXPECT_EQ(computeOccupancy(Sm90, kernel(128, 32, 0, 57345)).ActiveBlocksPerSM,
            3u);
  // With 8 KB static: 58,368 - 8,192 - 1,024.
  EXPECT_EQ(maxDynamicSharedForBlocks(Sm90, kernel(128, 32, 8192), 4), 49152u);
  // One block: the opt-in maximum.
  EXPECT_EQ(maxDynamicSharedForBlocks(Sm90, kernel(128, 32), 1), 232448u);
  // 17 blocks of 4 warps exceed the 64 warp slots.
  EXPECT_EQ(maxDynamicSharedForBlocks(Sm90, kernel(128, 32), 17), std::nullopt);
  // A cudaFuncAttributeMaxDynamicSharedMemorySize of 50,000 bytes ends inside
  // a 128-byte unit: 50,000 + 1,024 allocates 51,072, 4 blocks still fit,
  // and the cap itself is the answer (the unit boundary below it, 49,920,
  // is 80 bytes short); one byte more is refused.
  KernelResources Capped = kernel(128, 32);
  Capped.MaxDynamicSharedBytes = 50000;
  EXPECT_EQ(maxDynamicSharedForBlocks(Sm90, Capped, 4), 50000u);
  Capped.DynamicSharedBytes = 50001;
  EXPECT_EQ(computeOccupancy(Sm90, Capped).Limiter, OccupancyLimiter::Invalid);
}

TEST(OccupancyTest, BlockSlots) {
  // 32-thread blocks with few registers: sm_90 holds 32 blocks (50%),
  // sm_75 16, sm_89 24.
  OccupancyResult Hopper = computeOccupancy(arch("sm_90"), kernel(32, 16));
  EXPECT_EQ(Hopper.ActiveBlocksPerSM, 32u);
  EXPECT_EQ(Hopper.Limiter, OccupancyLimiter::Blocks);
  EXPECT_DOUBLE_EQ(Hopper.Theoretical, 0.5);
  EXPECT_EQ(limiterName(Hopper.Limiter), "blocks");
  EXPECT_EQ(computeOccupancy(arch("sm_75"), kernel(32, 16)).ActiveBlocksPerSM,
            16u);
  EXPECT_EQ(computeOccupancy(arch("sm_89"), kernel(32, 16)).ActiveBlocksPerSM,
            24u);
}

TEST(OccupancyTest, Barriers) {
  // sm_90: 64 block barriers per SM ([OCC]: 2 per block slot).
  KernelResources K = kernel(32, 16);
  K.BarriersPerBlock = 3;
  OccupancyResult R = computeOccupancy(arch("sm_90"), K);
  EXPECT_EQ(R.ActiveBlocksPerSM, 21u);
  EXPECT_EQ(R.Limiter, OccupancyLimiter::Barriers);
  EXPECT_EQ(limiterName(R.Limiter), "barriers");
  // sm_120: 1 per block slot: a tie with the 24 block slots.
  OccupancyResult Gb = computeOccupancy(arch("sm_120"), kernel(32, 16));
  EXPECT_EQ(Gb.ActiveBlocksPerSM, 24u);
  EXPECT_EQ(Gb.Limiter, OccupancyLimiter::Blocks);
  EXPECT_TRUE(Gb.limitedBy(OccupancyLimiter::Barriers));
  // Before sm_90 no barrier limit applies.
  K.BarriersPerBlock = 16;
  EXPECT_EQ(computeOccupancy(arch("sm_80"), K).BlockLimitBarriers,
            OccupancyResult::Unlimited);
  K.BarriersPerBlock = 17;
  EXPECT_FALSE(computeOccupancy(arch("sm_80"), K).valid());
}

TEST(OccupancyTest, ZeroRegistersAndNoSharedMemorySetNoLimit) {
  OccupancyResult R = computeOccupancy(arch("sm_61"), kernel(64, 0));
  EXPECT_EQ(R.BlockLimitRegisters, OccupancyResult::Unlimited);
  EXPECT_EQ(R.BlockLimitSharedMemory, OccupancyResult::Unlimited);
  EXPECT_EQ(R.ActiveBlocksPerSM, 32u);
}

TEST(OccupancyTest, FormatPercentAndNames) {
  EXPECT_EQ(formatPercent(0.375), "37.5%");
  EXPECT_EQ(formatPercent(0.5), "50%");
  EXPECT_EQ(formatPercent(1.0), "100%");
  EXPECT_EQ(formatPercent(2.0 / 3.0), "66.7%");
  EXPECT_EQ(formatPercent(0), "0%");
  EXPECT_EQ(limiterName(OccupancyLimiter::Warps), "warps");
  EXPECT_EQ(limiterName(OccupancyLimiter::None), "none");
}

TEST(OccupancyTest, InvalidCustomArch) {
  ArchSpec Broken = seed001Arch();
  Broken.RegisterAllocationUnit = 0;
  OccupancyResult R = computeOccupancy(Broken, kernel(128, 32));
  EXPECT_EQ(R.Limiter, OccupancyLimiter::Invalid);
  EXPECT_NE(R.Error.find("seed-001"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// 3a. The toolkit's own calculator, where it is on the include path.
//===----------------------------------------------------------------------===//

#if defined(WARPCHECK_HAVE_CUDA_OCCUPANCY_H)
/// The device as cuda_occupancy.h describes it, from the architecture table.
cudaOccDeviceProp headerProperties(const ArchSpec &A) {
  cudaOccDeviceProp Prop;
  Prop.computeMajor = int(A.ComputeMajor);
  Prop.computeMinor = int(A.ComputeMinor);
  Prop.maxThreadsPerBlock = int(A.MaxThreadsPerBlock);
  Prop.maxThreadsPerMultiprocessor = int(A.MaxThreadsPerSM);
  Prop.regsPerBlock = int(A.MaxRegistersPerBlock);
  Prop.regsPerMultiprocessor = int(A.RegistersPerSM);
  Prop.warpSize = int(A.WarpSize);
  Prop.sharedMemPerBlock = A.SharedMemoryPerBlock;
  Prop.sharedMemPerMultiprocessor = A.SharedMemoryPerSM;
  Prop.numSms = 1;
  Prop.sharedMemPerBlockOptin = A.SharedMemoryPerBlockOptin;
  Prop.reservedSharedMemPerBlock = A.ReservedSharedMemoryPerBlock;
  return Prop;
}

/// The kernel's attributes as the runtime gives them, the dynamic opt-in
/// raised as far as MaxDynamic (what KernelResources assumes).
cudaOccFuncAttributes headerAttributes(const ArchSpec &A, unsigned Registers,
                                       std::uint64_t Static, std::uint64_t MaxDynamic) {
  cudaOccFuncAttributes Attr;
  Attr.maxThreadsPerBlock = 1024;
  Attr.numRegs = int(Registers);
  Attr.sharedSizeBytes = Static;
  Attr.partitionedGCConfig = PARTITIONED_GC_OFF;
  Attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  Attr.maxDynamicSharedSizeBytes = std::max<std::uint64_t>(
      MaxDynamic, A.SharedMemoryPerBlock > Static ? A.SharedMemoryPerBlock - Static : 0);
  Attr.numBlockBarriers = 1;
  Attr.virtualResourceCount = 0;
  return Attr;
}

TEST(OccupancyReferenceTest, MatchesCudaOccupancyHeader) {
  const unsigned ThreadCounts[] = {1,   32,  64,  96,  128, 160,  192,
                                   224, 256, 288, 384, 512, 640,  672,
                                   704, 768, 800, 960, 992, 1024, 1056};
  const unsigned RegisterCounts[] = {0,  1,  8,   16,  24,  32, 33,
                                     40, 48, 56,  64,  65,  72, 80,
                                     88, 96, 128, 168, 192, 255};
  const std::uint64_t StaticSizes[] = {0, 1, 4096, 16384, 49152};
  const std::uint64_t DynamicSizes[] = {0,      1000,   16384,  32768, 65536,
                                        100000, 163840, 232448, 240000};
  const int Carveouts[] = {-1, 0, 10, 25, 50, 100};
  unsigned long Compared = 0;
  unsigned Mismatches = 0;
  // The header writes INT_MAX where a resource sets no limit.
  auto fromHeader = [](int Limit) {
    return Limit == INT_MAX ? OccupancyResult::Unlimited : unsigned(Limit);
  };
  for (const ArchSpec &A : knownArchs()) {
    if (A.ComputeMajor < 5)
      continue; // cuda_occupancy.h starts at compute capability 3.0
    cudaOccDeviceProp Prop = headerProperties(A);
    for (unsigned Threads : ThreadCounts)
      for (unsigned Registers : RegisterCounts)
        for (std::uint64_t Static : StaticSizes)
          for (std::uint64_t Dynamic : DynamicSizes)
            for (int Carveout : Carveouts) {
              KernelResources K = kernel(Threads, Registers, Static, Dynamic);
              if (Carveout >= 0)
                K.CarveoutPercent = Carveout;
              // The runtime's attributes, with the dynamic opt-in raised as
              // far as the launch needs (what KernelResources assumes).
              cudaOccFuncAttributes Attr = headerAttributes(A, Registers, Static, Dynamic);
              cudaOccDeviceState State;
              State.carveoutConfig = Carveout;
              cudaOccResult Expected{};
              cudaOccError Status = cudaOccMaxActiveBlocksPerMultiprocessor(
                  &Expected, &Prop, &Attr, &State, int(Threads), Dynamic);
              OccupancyResult Got = computeOccupancy(A, K);
              ++Compared;
              auto Where = [&] {
                return A.Name + " " + std::to_string(Threads) + "t x " +
                       std::to_string(Registers) + "r static " +
                       std::to_string(Static) + " dynamic " +
                       std::to_string(Dynamic) + " carveout " +
                       std::to_string(Carveout) + " (" + Got.Error + ")";
              };
              if (Status != CUDA_OCC_SUCCESS) {
                if (Got.valid()) {
                  ++Mismatches;
                  ADD_FAILURE() << Where() << ": the header refuses it";
                }
                continue;
              }
              bool Same = Got.ActiveBlocksPerSM ==
                          unsigned(Expected.activeBlocksPerMultiprocessor);
              if (Got.valid())
                Same = Same &&
                       Got.BlockLimitRegisters ==
                           fromHeader(Expected.blockLimitRegs) &&
                       Got.BlockLimitSharedMemory ==
                           fromHeader(Expected.blockLimitSharedMem) &&
                       Got.BlockLimitWarps ==
                           fromHeader(Expected.blockLimitWarps) &&
                       Got.BlockLimitBlocks ==
                           fromHeader(Expected.blockLimitBlocks) &&
                       Got.BlockLimitBarriers ==
                           fromHeader(Expected.blockLimitBarriers) &&
                       Got.AllocatedSharedBytesPerBlock ==
                           Expected.allocatedSharedMemPerBlock;
              if (!Same) {
                ++Mismatches;
                ADD_FAILURE()
                    << Where() << ": blocks " << Got.ActiveBlocksPerSM << " vs "
                    << Expected.activeBlocksPerMultiprocessor
                    << "; limits regs " << Got.BlockLimitRegisters << "/"
                    << Expected.blockLimitRegs << " smem "
                    << Got.BlockLimitSharedMemory << "/"
                    << Expected.blockLimitSharedMem << " warps "
                    << Got.BlockLimitWarps << "/" << Expected.blockLimitWarps
                    << " blocks " << Got.BlockLimitBlocks << "/"
                    << Expected.blockLimitBlocks << " barriers "
                    << Got.BlockLimitBarriers << "/"
                    << Expected.blockLimitBarriers << " smem/block "
                    << Got.AllocatedSharedBytesPerBlock << "/"
                    << Expected.allocatedSharedMemPerBlock;
              }
              ASSERT_LT(Mismatches, 20u) << "stopping after 20 mismatches";
            }
  }
  EXPECT_GT(Compared, 100000ul);
}

// cudaOccMaxPotentialOccupancyBlockSize, dynamic shared memory a function
// of the block size (bytes per thread; a plain function, as the header
// takes, reading this).
std::uint64_t BytesPerThread = 0;
size_t dynamicSharedFor(int BlockSize) { return size_t(BytesPerThread) * BlockSize; }

TEST(OccupancyReferenceTest, SuggestedBlockSizeMatchesCudaOccupancyHeader) {
  const unsigned RegisterCounts[] = {0, 16, 24, 32, 40, 48, 56, 64, 72, 96, 128, 168, 255};
  const std::uint64_t StaticSizes[] = {0, 4096, 16384, 40000};
  const std::uint64_t PerThread[] = {0, 4, 16, 48, 100};
  unsigned Compared = 0, Differ = 0;
  for (const ArchSpec &A : knownArchs()) {
    if (A.ComputeMajor < 5)
      continue;
    cudaOccDeviceProp Prop = headerProperties(A);
    for (unsigned Registers : RegisterCounts)
      for (std::uint64_t Static : StaticSizes)
        for (std::uint64_t Bytes : PerThread) {
          BytesPerThread = Bytes;
          cudaOccFuncAttributes Attr =
              headerAttributes(A, Registers, Static, Bytes * A.MaxThreadsPerBlock);
          cudaOccDeviceState State;
          int MinGrid = 0, Block = 0;
          if (cudaOccMaxPotentialOccupancyBlockSize(&MinGrid, &Block, &Prop, &Attr, &State,
                                                    dynamicSharedFor, 0) != CUDA_OCC_SUCCESS)
            continue;
          BlockSizeSuggestion Got = suggestBlockSize(A, kernel(0, Registers, Static), Bytes);
          ++Compared;
          if (Got.BlockSize != unsigned(Block) || Got.ActiveBlocksPerSM != unsigned(MinGrid)) {
            ++Differ;
            ADD_FAILURE() << A.Name << " " << Registers << "r static " << Static << " "
                          << Bytes << " B/thread: block " << Got.BlockSize << " x "
                          << Got.ActiveBlocksPerSM << ", header " << Block << " x " << MinGrid;
          }
          ASSERT_LT(Differ, 10u);
        }
  }
  EXPECT_GT(Compared, 1000u);
}
#else
TEST(OccupancyReferenceTest, MatchesCudaOccupancyHeader) {
  GTEST_SKIP() << "cuda_occupancy.h not on the include path (define "
                  "WARPCHECK_HAVE_CUDA_OCCUPANCY_H and add the CUDA include "
                  "directory to compare with it)";
}
#endif

//===----------------------------------------------------------------------===//
// 3b. Records measured on a real device.
//
// $WARPCHECK_HW_DIR/occupancy_runtime.json (or the compile definition
// WARPCHECK_HW_DIR) holds rows measured with
// cudaOccupancyMaxActiveBlocksPerMultiprocessor, either as a top-level array
// or under "rows", one flat object per row. Keys are matched without case
// or underscores: numRegs, staticShared (sharedSizeBytes), block
// (blockSize, threads), dynamicShared, carveout (-1 or null = none),
// activeBlocks (negative, or "error": true, for a failed runtime call:
// expected 0); an optional "arch" per row or at the top (default "sm_90",
// the H200).
//===----------------------------------------------------------------------===//

/// A JSON value, enough for flat records.
struct JsonValue {
  std::variant<std::nullptr_t, bool, double, std::string,
               std::vector<JsonValue>, std::map<std::string, JsonValue>>
      Data;
};

class JsonParser {
public:
  explicit JsonParser(std::string Text) : Text(std::move(Text)) {}

  bool parse(JsonValue &Out) {
    if (!value(Out))
      return false;
    skipSpace();
    return Pos == Text.size();
  }

private:
  std::string Text;
  std::size_t Pos = 0;

  void skipSpace() {
    while (Pos < Text.size() &&
           std::isspace(static_cast<unsigned char>(Text[Pos])))
      ++Pos;
  }
  bool literal(const char *Word) {
    std::string_view W(Word);
    if (Text.compare(Pos, W.size(), W) != 0)
      return false;
    Pos += W.size();
    return true;
  }
  bool string(std::string &Out) {
    if (Pos >= Text.size() || Text[Pos] != '"')
      return false;
    ++Pos;
    while (Pos < Text.size() && Text[Pos] != '"') {
      char C = Text[Pos++];
      if (C == '\\' && Pos < Text.size()) {
        char E = Text[Pos++];
        if (E == 'u') { // keys and arch names are ASCII; keep a placeholder
          Pos += 4;
          C = '?';
        } else {
          C = E == 'n' ? '\n' : E == 't' ? '\t' : E;
        }
      }
      Out.push_back(C);
    }
    if (Pos >= Text.size())
      return false;
    ++Pos;
    return true;
  }
  bool value(JsonValue &Out) {
    skipSpace();
    if (Pos >= Text.size())
      return false;
    char C = Text[Pos];
    if (C == '{') {
      ++Pos;
      std::map<std::string, JsonValue> Object;
      skipSpace();
      if (Pos < Text.size() && Text[Pos] == '}') {
        ++Pos;
        Out.Data = std::move(Object);
        return true;
      }
      while (true) {
        skipSpace();
        std::string Key;
        if (!string(Key))
          return false;
        skipSpace();
        if (Pos >= Text.size() || Text[Pos++] != ':')
          return false;
        if (!value(Object[Key]))
          return false;
        skipSpace();
        if (Pos < Text.size() && Text[Pos] == ',') {
          ++Pos;
          continue;
        }
        if (Pos < Text.size() && Text[Pos] == '}') {
          ++Pos;
          break;
        }
        return false;
      }
      Out.Data = std::move(Object);
      return true;
    }
    if (C == '[') {
      ++Pos;
      std::vector<JsonValue> Array;
      skipSpace();
      if (Pos < Text.size() && Text[Pos] == ']') {
        ++Pos;
        Out.Data = std::move(Array);
        return true;
      }
      while (true) {
        Array.emplace_back();
        if (!value(Array.back()))
          return false;
        skipSpace();
        if (Pos < Text.size() && Text[Pos] == ',') {
          ++Pos;
          continue;
        }
        if (Pos < Text.size() && Text[Pos] == ']') {
          ++Pos;
          break;
        }
        return false;
      }
      Out.Data = std::move(Array);
      return true;
    }
    if (C == '"') {
      std::string S;
      if (!string(S))
        return false;
      Out.Data = std::move(S);
      return true;
    }
    if (literal("true")) {
      Out.Data = true;
      return true;
    }
    if (literal("false")) {
      Out.Data = false;
      return true;
    }
    if (literal("null")) {
      Out.Data = nullptr;
      return true;
    }
    const char *Begin = Text.c_str() + Pos;
    char *End = nullptr;
    double Number = std::strtod(Begin, &End);
    if (End == Begin)
      return false;
    Pos += static_cast<std::size_t>(End - Begin);
    Out.Data = Number;
    return true;
  }
};

std::string normalizedKey(const std::string &Key) {
  std::string Out;
  for (char C : Key)
    if (C != '_' && C != '-' && C != ' ')
      Out.push_back(
          static_cast<char>(std::tolower(static_cast<unsigned char>(C))));
  return Out;
}

/// The field of Row whose normalized key is one of Names.
const JsonValue *field(const std::map<std::string, JsonValue> &Row,
                       std::initializer_list<const char *> Names) {
  for (const auto &[Key, Value] : Row) {
    std::string Normal = normalizedKey(Key);
    for (const char *Name : Names)
      if (Normal == Name)
        return &Value;
  }
  return nullptr;
}

std::optional<double> number(const JsonValue *V) {
  if (!V)
    return std::nullopt;
  if (const double *D = std::get_if<double>(&V->Data))
    return *D;
  if (const std::string *S = std::get_if<std::string>(&V->Data)) {
    char *End = nullptr;
    double D = std::strtod(S->c_str(), &End);
    if (End && *End == '\0' && !S->empty())
      return D;
  }
  return std::nullopt;
}

std::string hardwareDirectory() {
  if (const char *Env = std::getenv("WARPCHECK_HW_DIR"))
    return Env;
#if defined(WARPCHECK_HW_DIR)
  return WARPCHECK_HW_DIR;
#else
  return {};
#endif
}

TEST(OccupancyHardwareTest, MatchesRecordsMeasuredOnTheDevice) {
  std::string Directory = hardwareDirectory();
  if (Directory.empty())
    GTEST_SKIP()
        << "set WARPCHECK_HW_DIR to the folder of occupancy_runtime.json";
  std::string Path = Directory + "/occupancy_runtime.json";
  std::ifstream In(Path);
  if (!In)
    GTEST_SKIP() << Path << " not present";
  std::stringstream Buffer;
  Buffer << In.rdbuf();
  JsonValue Root;
  ASSERT_TRUE(JsonParser(Buffer.str()).parse(Root)) << Path << " is not JSON";

  const std::vector<JsonValue> *Rows =
      std::get_if<std::vector<JsonValue>>(&Root.Data);
  std::string DefaultArch = "sm_90";
  if (const auto *Object =
          std::get_if<std::map<std::string, JsonValue>>(&Root.Data)) {
    if (const JsonValue *R = field(*Object, {"rows", "records", "data"}))
      Rows = std::get_if<std::vector<JsonValue>>(&R->Data);
    if (const JsonValue *A =
            field(*Object, {"arch", "sm", "computecapability"}))
      if (const auto *S = std::get_if<std::string>(&A->Data))
        DefaultArch = *S;
  }
  ASSERT_NE(Rows, nullptr) << Path << ": no array of rows";

  // Columnar records ({"columns": [...], "rows": [[...], ...]}, as
  // test/hw/scripts/microbench_to_records.py writes them) become objects.
  std::vector<JsonValue> ColumnRows;
  if (const auto *Object = std::get_if<std::map<std::string, JsonValue>>(&Root.Data))
    if (const JsonValue *C = field(*Object, {"columns"}))
      if (const auto *Names = std::get_if<std::vector<JsonValue>>(&C->Data)) {
        for (const JsonValue &R : *Rows) {
          const auto *Cells = std::get_if<std::vector<JsonValue>>(&R.Data);
          if (!Cells)
            break;
          std::map<std::string, JsonValue> Obj;
          for (std::size_t K = 0; K < Names->size() && K < Cells->size(); ++K)
            if (const auto *N = std::get_if<std::string>(&(*Names)[K].Data))
              Obj[*N] = (*Cells)[K];
          JsonValue V;
          V.Data = std::move(Obj);
          ColumnRows.push_back(std::move(V));
        }
        if (ColumnRows.size() == Rows->size())
          Rows = &ColumnRows;
      }

  unsigned Checked = 0;
  for (std::size_t I = 0; I < Rows->size(); ++I) {
    const auto *Row =
        std::get_if<std::map<std::string, JsonValue>>(&(*Rows)[I].Data);
    ASSERT_NE(Row, nullptr) << "row " << I << " is not an object";
    std::string ArchName = DefaultArch;
    if (const JsonValue *A = field(*Row, {"arch", "sm", "computecapability"}))
      if (const auto *S = std::get_if<std::string>(&A->Data))
        ArchName = *S;
    const ArchSpec *Arch = findArch(ArchName);
    ASSERT_NE(Arch, nullptr) << "row " << I << ": unknown arch " << ArchName;

    std::optional<double> Registers = number(
        field(*Row, {"numregs", "regs", "registers", "registersperthread"}));
    std::optional<double> Threads = number(
        field(*Row, {"block", "blocksize", "threads", "threadsperblock"}));
    std::optional<double> Static = number(
        field(*Row, {"staticshared", "staticsharedbytes", "sharedsizebytes",
                     "staticsmem", "staticsmembytes", "static"}));
    std::optional<double> Dynamic = number(
        field(*Row, {"dynamicshared", "dynamicsharedbytes", "dynamicsmem",
                     "dynamicsmembytes", "dynamicsmemsize", "dynamic", "dynsmem"}));
    std::optional<double> Carveout = number(
        field(*Row, {"carveout", "carveoutpercent", "preferredcarveout"}));
    std::optional<double> Active =
        number(field(*Row, {"activeblocks", "activeblockspersm",
                            "maxactiveblocks", "numblocks", "blockspersm"}));
    ASSERT_TRUE(Registers && Threads && Active)
        << "row " << I << " lacks numRegs, block or active blocks";

    KernelResources K = kernel(unsigned(*Threads), unsigned(*Registers),
                               std::uint64_t(Static.value_or(0)),
                               std::uint64_t(Dynamic.value_or(0)));
    if (Carveout && *Carveout >= 0)
      K.CarveoutPercent = int(*Carveout);
    // The dynamic shared limit the program set (cudaFuncAttribute
    // MaxDynamicSharedMemorySize): above it the runtime answers 0 blocks.
    if (std::optional<double> Limit = number(
            field(*Row, {"maxdynsmemattr", "maxdynamicsharedbytes"})))
      K.MaxDynamicSharedBytes = std::uint64_t(*Limit);
    // A row whose runtime call failed (negative count or "error": true)
    // is a configuration that cannot launch: 0 blocks.
    bool RuntimeFailed = *Active < 0;
    if (const JsonValue *E = field(*Row, {"error"}))
      if (const bool *B = std::get_if<bool>(&E->Data))
        RuntimeFailed = RuntimeFailed || *B;
    unsigned Expected = RuntimeFailed ? 0u : unsigned(*Active);
    OccupancyResult Got = computeOccupancy(*Arch, K);
    EXPECT_EQ(Got.ActiveBlocksPerSM, Expected)
        << "row " << I << ": " << Arch->Name << " " << K.ThreadsPerBlock
        << " threads x " << K.RegistersPerThread << " registers, static "
        << K.StaticSharedBytes << ", dynamic " << K.DynamicSharedBytes
        << ", carveout " << (Carveout ? *Carveout : -1) << " ("
        << limiterName(Got.Limiter) << (Got.Error.empty() ? "" : ": ")
        << Got.Error << ")";
    ++Checked;
  }
  EXPECT_GT(Checked, 0u) << Path << " has no rows";
}

TEST(OccupancyHardwareTest, JsonParserReadsFlatRecords) {
  JsonValue Root;
  ASSERT_TRUE(JsonParser(R"({"arch": "sm_90", "rows": [
      {"numRegs": 72, "static_shared": 0, "block": 256, "dynamicShared": 0,
       "carveout": null, "activeBlocks": 3},
      {"numRegs": 32.0, "block": 128, "dynamic_shared": 1e3, "carveout": -1,
       "active_blocks": 16, "note": "a \"quoted\" word", "ok": true}]})")
                  .parse(Root));
  const auto &Object = std::get<std::map<std::string, JsonValue>>(Root.Data);
  const auto &Rows =
      std::get<std::vector<JsonValue>>(field(Object, {"rows"})->Data);
  ASSERT_EQ(Rows.size(), 2u);
  const auto &Second = std::get<std::map<std::string, JsonValue>>(Rows[1].Data);
  EXPECT_EQ(number(field(Second, {"dynamicshared"})), 1000.0);
  EXPECT_EQ(number(field(Second, {"activeblocks"})), 16.0);
  EXPECT_FALSE(JsonParser("[1, 2").parse(Root));
  EXPECT_FALSE(JsonParser("{\"a\": }").parse(Root));
}

} // namespace

// cudaOccupancyMaxPotentialBlockSize's choice, worked by hand on sm_90
// (2048 threads, 65536 registers, 32 blocks per SM).
TEST(SuggestedBlockSizeTest, WorkedExamples) {
  const ArchSpec &H = arch("sm_90");
  // 32 registers: two blocks of 1024 fill the SM; the first size tried wins.
  BlockSizeSuggestion Full = suggestBlockSize(H, kernel(0, 32));
  EXPECT_EQ(Full.BlockSize, 1024u);
  EXPECT_EQ(Full.ActiveBlocksPerSM, 2u);
  // 128 registers: 512 threads per SM at most (65536 / 128); 512 x 1 ties
  // 256 x 2 and 128 x 4, and the larger block is kept.
  BlockSizeSuggestion Heavy = suggestBlockSize(H, kernel(0, 128));
  EXPECT_EQ(Heavy.BlockSize, 512u);
  EXPECT_EQ(Heavy.ActiveBlocksPerSM, 1u);
  // A block size cap, as cudaOccupancyMaxPotentialBlockSize's blockSizeLimit.
  EXPECT_EQ(suggestBlockSize(H, kernel(0, 32), 0, 256).BlockSize, 256u);
}

