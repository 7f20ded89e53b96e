// The roofline model against the seeds' worked numbers (shared/seeds/000,
// "Tiling with Shared Memory" and "Compute-bound vs bandwidth-bound";
// shared/seeds/002, exercises 3.2, 4.1, 4.2 and the efficiency budget) and
// the H200's vendor figures (model/Arch.cpp).
#include "warpcheck/model/Arch.h"
#include "warpcheck/model/Roofline.h"

#include <gtest/gtest.h>

using namespace warpcheck::model;

namespace {

/// The seeds' hypothetical GPU: 20 TFLOP/s peak, 1 TB/s.
const RooflineMachine SeedMachine{20e12, 1e12};

TEST(RooflineTest, SeedMatmulIntensities) {
  // Naive: 2N^3 FLOPs over 2N^3 float reads = 8N^3 bytes: 0.25 FLOP/byte.
  MatmulTraffic Naive = tiledMatmulTraffic(1024, 1, 4);
  EXPECT_DOUBLE_EQ(Naive.Flops, 2.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(Naive.GlobalBytes, 8.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(Naive.intensity(), 0.25);
  // T = 32: 8N^3 / T = N^3 / 4 bytes, I = T / 4 = 8.
  MatmulTraffic Tiled = tiledMatmulTraffic(1024, 32, 4);
  EXPECT_DOUBLE_EQ(Tiled.GlobalBytes, 1024.0 * 1024 * 1024 / 4);
  EXPECT_DOUBLE_EQ(Tiled.intensity(), 8);
  // The reduction factor is T.
  EXPECT_DOUBLE_EQ(Naive.GlobalBytes / Tiled.GlobalBytes, 32);
  // T / 4 for every T; doubles halve it.
  EXPECT_DOUBLE_EQ(tiledMatmulTraffic(4096, 16, 4).intensity(), 4);
  EXPECT_DOUBLE_EQ(tiledMatmulTraffic(4096, 16, 8).intensity(), 2);
}

TEST(RooflineTest, SeedMachineBalanceAndVerdicts) {
  EXPECT_DOUBLE_EQ(ridgePoint(SeedMachine), 20);
  EXPECT_EQ(boundAt(SeedMachine, 0.25), RooflineBound::Memory);
  EXPECT_EQ(boundAt(SeedMachine, 8), RooflineBound::Memory);
  EXPECT_EQ(boundAt(SeedMachine, 25), RooflineBound::Compute);
  // At the ridge both ceilings are reached.
  EXPECT_EQ(boundAt(SeedMachine, 20), RooflineBound::Compute);
  EXPECT_DOUBLE_EQ(attainableFlopsPerSecond(SeedMachine, 20), 20e12);
}

TEST(RooflineTest, SeedAttainablePerformance) {
  // Tiled (I = 8): 1 TB/s x 8 = 8 TFLOP/s, 40% of peak.
  EXPECT_DOUBLE_EQ(attainableFlopsPerSecond(SeedMachine, 8), 8e12);
  EXPECT_DOUBLE_EQ(attainableFlopsPerSecond(SeedMachine, 8) / SeedMachine.PeakFlopsPerSecond, 0.4);
  // Register-blocked (I = 25): min(20, 25) = 20 TFLOP/s.
  EXPECT_DOUBLE_EQ(attainableFlopsPerSecond(SeedMachine, 25), 20e12);
  // Naive: 0.25 TFLOP/s.
  EXPECT_DOUBLE_EQ(attainableFlopsPerSecond(SeedMachine, 0.25), 0.25e12);
}

TEST(RooflineTest, SeedEfficiencyBudget) {
  // B = 2 TB/s, coalescing 1, cache hit rate 0.9, occupancy 0.8: 0.72 of
  // the bandwidth, 1.44 TB/s; at I = 5 that feeds 7.2 TFLOP/s < 20:
  // bandwidth-bound.
  double Fed = effectiveBandwidth(2e12, {1.0, 0.9, 0.8});
  EXPECT_NEAR(Fed / 2e12, 0.72, 1e-12);
  EXPECT_NEAR(Fed, 1.44e12, 1e-3);
  RooflineMachine Budget{20e12, Fed};
  EXPECT_NEAR(attainableFlopsPerSecond(Budget, 5), 7.2e12, 1e-3);
  EXPECT_EQ(boundAt(Budget, 5), RooflineBound::Memory);
}

TEST(RooflineTest, VerdictAndTimeBound) {
  // 2N^3 FLOPs of a naive N = 1024 multiply moving 8N^3 bytes: 8.6 ms on
  // the memory slope (8.59e9 bytes at 1 TB/s), the compute ceiling only
  // 0.107 ms.
  MatmulTraffic Naive = tiledMatmulTraffic(1024, 1, 4);
  RooflineVerdict V = rooflineVerdict(SeedMachine, Naive.Flops, Naive.GlobalBytes);
  EXPECT_DOUBLE_EQ(V.Intensity, 0.25);
  EXPECT_DOUBLE_EQ(V.Ridge, 20);
  EXPECT_EQ(V.Bound, RooflineBound::Memory);
  EXPECT_DOUBLE_EQ(V.AttainableFlopsPerSecond, 0.25e12);
  EXPECT_DOUBLE_EQ(V.TimeBoundSeconds, 8.0 * 1024 * 1024 * 1024 / 1e12);
  // A compute-bound launch: 4e13 FLOPs and 1e12 bytes take 2 s, not 1.
  RooflineVerdict C = rooflineVerdict(SeedMachine, 4e13, 1e12);
  EXPECT_EQ(C.Bound, RooflineBound::Compute);
  EXPECT_DOUBLE_EQ(C.TimeBoundSeconds, 2);
  // Nothing moved: intensity 0, no division by zero.
  EXPECT_DOUBLE_EQ(arithmeticIntensity(10, 0), 0);
}

TEST(RooflineTest, TilingGainOfAMatmulLoop) {
  // One FMA (2 FLOPs) per iteration reading a float of A and one of B,
  // both reused by T threads: I = 2 / 8 = 0.25 before, T / 4 after, factor T.
  for (unsigned T : {8u, 16u, 32u}) {
    TilingGain G = tilingGain(2, 8, 0, T);
    EXPECT_DOUBLE_EQ(G.IntensityBefore, 0.25);
    EXPECT_DOUBLE_EQ(G.IntensityAfter, T / 4.0);
    EXPECT_DOUBLE_EQ(G.TrafficReduction, T);
  }
  // Half the bytes not reused: 8 bytes become 4 / 16 + 4.
  TilingGain Mixed = tilingGain(2, 4, 4, 16);
  EXPECT_DOUBLE_EQ(Mixed.IntensityAfter, 2 / 4.25);
  EXPECT_DOUBLE_EQ(Mixed.TrafficReduction, 8 / 4.25);
}

TEST(RooflineTest, FlopCountsAddUpAndScale) {
  FlopCounts C;
  C[FloatPrecision::Single] = {3, 2, 5, 3 + 2 + 2 * 5};
  C[FloatPrecision::Double].Fma = 1;
  C[FloatPrecision::Double].Flops = 2;
  EXPECT_EQ(C.totalFlops(), 17u);
  EXPECT_EQ(C.dominantPrecision(), FloatPrecision::Single);
  FlopCounts D = C.scaled(4);
  EXPECT_EQ(D[FloatPrecision::Single].Fma, 20u);
  EXPECT_EQ(D.totalFlops(), 68u);
  D += C;
  EXPECT_EQ(D.totalFlops(), 85u);
  EXPECT_EQ(FlopCounts{}.dominantPrecision(), FloatPrecision::Single);
  EXPECT_STREQ(precisionName(FloatPrecision::Half), "fp16");
  EXPECT_STREQ(precisionName(FloatPrecision::Double), "fp64");
}

TEST(RooflineTest, H200) {
  const ArchSpec *A = findArch("sm_90");
  ASSERT_NE(A, nullptr);
  bool Vendor = false;
  // Vendor figures: 67 TFLOP/s fp32, 34 fp64, 4.8 TB/s.
  EXPECT_DOUBLE_EQ(peakFlopsPerSecond(*A, FloatPrecision::Single, &Vendor), 67e12);
  EXPECT_TRUE(Vendor);
  EXPECT_DOUBLE_EQ(peakFlopsPerSecond(*A, FloatPrecision::Double, &Vendor), 34e12);
  EXPECT_TRUE(Vendor);
  // fp16 derived: 132 SMs x 1980 MHz x 256 results x 2 = 133.816 TFLOP/s.
  EXPECT_DOUBLE_EQ(peakFlopsPerSecond(*A, FloatPrecision::Half, &Vendor), 133.81632e12);
  EXPECT_FALSE(Vendor);
  RooflineMachine M = rooflineMachine(*A, FloatPrecision::Single);
  EXPECT_DOUBLE_EQ(M.BandwidthBytesPerSecond, 4.8e12);
  // The H200's fp32 ridge: 67 / 4.8 = 13.96 FLOP/byte: the naive multiply
  // (0.25) and the T = 32 tiled one (8) are both memory-bound there.
  EXPECT_NEAR(ridgePoint(M), 13.958, 0.001);
  EXPECT_EQ(boundAt(M, 8), RooflineBound::Memory);
  EXPECT_EQ(boundAt(M, 16), RooflineBound::Compute);
}

TEST(RooflineTest, VendorFiguresAgreeWithTheDerivedPeaks) {
  // Every vendor figure of the table is SMs x clock x [PG]'s results per
  // clock x 2 within 2%: the throughput table and the parts agree.
  unsigned Checked = 0;
  for (const ArchSpec &A : knownArchs()) {
    for (FloatPrecision P : AllFloatPrecisions) {
      int I = static_cast<int>(P);
      if (A.Part.VendorPeakGflops[I] <= 0 || A.FmaResultsPerClockPerSM[I] == 0)
        continue;
      SCOPED_TRACE(A.Name + " " + precisionName(P));
      double Derived = 2.0 * A.FmaResultsPerClockPerSM[I] * A.Part.SMCount *
                       A.Part.BoostClockMHz * 1e6;
      EXPECT_NEAR(Derived / (A.Part.VendorPeakGflops[I] * 1e9), 1.0, 0.02);
      EXPECT_FALSE(A.Part.PeakSource.empty());
      ++Checked;
    }
  }
  EXPECT_GE(Checked, 12u);
}

TEST(RooflineTest, EveryModernArchHasAnFp32Throughput) {
  for (const ArchSpec &A : knownArchs()) {
    SCOPED_TRACE(A.Name);
    EXPECT_GT(A.FmaResultsPerClockPerSM[static_cast<int>(FloatPrecision::Single)], 0u);
    // A part with an SM count and a clock has an fp32 peak.
    if (A.Part.SMCount && A.Part.BoostClockMHz) {
      EXPECT_GT(peakFlopsPerSecond(A, FloatPrecision::Single), 0);
    }
  }
}

} // namespace
