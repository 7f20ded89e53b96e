//===- Roofline.h - arithmetic intensity and the roofline verdict --------===//
//
// The roofline model (shared/seeds/000 and 002, "Compute-bound vs
// bandwidth-bound"): a kernel that does F floating-point operations and
// moves B bytes to and from DRAM has the arithmetic intensity I = F / B
// FLOP/byte. A machine with peak P FLOP/s and bandwidth W bytes/s attains
// at most min(P, W x I): below the ridge point I* = P / W the memory slope
// is the ceiling (memory-bound), above it the peak (compute-bound). The
// launch can take no less than max(F / P, B / W) seconds.
//
// The seeds' worked numbers are unit tests (test/unit/RooflineTest.cpp):
// on a 20 TFLOP/s, 1 TB/s machine the ridge is 20 FLOP/byte; the naive
// matrix multiply (I = 0.25) and the tiled one (T = 32, I = 8) are
// memory-bound, the tiled one attains 8 TFLOP/s, a register-blocked one
// (I = 25) the full 20; a fully coalesced kernel with a 90% cache hit rate
// at 80% occupancy on 2 TB/s is fed 1.44 TB/s (0.72 of it), 7.2 TFLOP/s at
// I = 5.
//
// Pure arithmetic: what a kernel's F and B are is the analysis's
// (analysis/LaunchWork.h); peaks per architecture are in Arch.h.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_MODEL_ROOFLINE_H
#define WARPCHECK_MODEL_ROOFLINE_H

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>

namespace warpcheck::model {

/// The floating-point formats whose operations are counted apart, as the
/// SASS instructions Nsight Compute counts them apart (HADD/HMUL/HFMA,
/// FADD/FMUL/FFMA, DADD/DMUL/DFMA). Half covers __half and __nv_bfloat16.
enum class FloatPrecision { Half, Single, Double };
inline constexpr FloatPrecision AllFloatPrecisions[] = {
    FloatPrecision::Half, FloatPrecision::Single, FloatPrecision::Double};
/// "fp16", "fp32", "fp64": the names the JSON contract writes.
const char *precisionName(FloatPrecision P);

/// Floating-point instructions of one precision executed by the threads
/// of a launch (one per active lane, as Nsight Compute's
/// smsp__sass_thread_inst_executed_op_*_pred_on counts them), and the
/// operations they do: an add or a multiply is 1 FLOP per element, a fused
/// multiply-add 2; a packed half2 instruction works on two elements.
struct PrecisionOps {
  std::uint64_t Add = 0, Mul = 0, Fma = 0;
  std::uint64_t Flops = 0;

  PrecisionOps &operator+=(const PrecisionOps &O);
  PrecisionOps scaled(std::uint64_t Times) const;
  bool operator==(const PrecisionOps &O) const {
    return Add == O.Add && Mul == O.Mul && Fma == O.Fma && Flops == O.Flops;
  }
  bool operator!=(const PrecisionOps &O) const { return !(*this == O); }
};

/// The operations of every precision.
struct FlopCounts {
  std::array<PrecisionOps, 3> ByPrecision{};

  PrecisionOps &operator[](FloatPrecision P) { return ByPrecision[static_cast<int>(P)]; }
  const PrecisionOps &operator[](FloatPrecision P) const {
    return ByPrecision[static_cast<int>(P)];
  }
  std::uint64_t totalFlops() const;
  /// The precision with the most FLOPs (Single when there are none): the
  /// one whose peak the roofline verdict uses.
  FloatPrecision dominantPrecision() const;
  FlopCounts &operator+=(const FlopCounts &O);
  FlopCounts scaled(std::uint64_t Times) const;
  bool operator==(const FlopCounts &O) const { return ByPrecision == O.ByPrecision; }
  bool operator!=(const FlopCounts &O) const { return !(*this == O); }
};

/// One machine as the roofline sees it: a compute ceiling and a memory
/// slope.
struct RooflineMachine {
  double PeakFlopsPerSecond = 0;
  double BandwidthBytesPerSecond = 0;
};

enum class RooflineBound { Memory, Compute };
/// "memory", "compute".
const char *boundName(RooflineBound B);

/// I = FLOPs / bytes, in FLOP/byte; 0 when no bytes move.
double arithmeticIntensity(double Flops, double Bytes);

/// The ridge point I* = peak / bandwidth, in FLOP/byte: where the memory
/// slope meets the compute ceiling.
double ridgePoint(const RooflineMachine &M);

/// min(peak, bandwidth x intensity), in FLOP/s.
double attainableFlopsPerSecond(const RooflineMachine &M, double Intensity);

/// Memory-bound below the ridge point, compute-bound at or above it (at
/// the ridge both ceilings are reached at once).
RooflineBound boundAt(const RooflineMachine &M, double Intensity);

/// The least time a launch doing Flops operations and moving Bytes bytes
/// can take: max(Flops / peak, Bytes / bandwidth), in seconds.
double timeBoundSeconds(const RooflineMachine &M, double Flops, double Bytes);

/// The bandwidth a kernel is fed when efficiencies (each 0 to 1: sector
/// coalescing, cache hit rate, occupancy) each trim the usable bandwidth
/// independently: peak x their product (seed 002, "Effective throughput").
double effectiveBandwidth(double PeakBytesPerSecond, std::initializer_list<double> Efficiencies);

/// Everything the verdict says about one kernel on one machine.
struct RooflineVerdict {
  double Intensity = 0;
  double Ridge = 0;
  double AttainableFlopsPerSecond = 0;
  RooflineBound Bound = RooflineBound::Memory;
  double TimeBoundSeconds = 0;
};
RooflineVerdict rooflineVerdict(const RooflineMachine &M, double Flops, double Bytes);

/// The seeds' matrix multiply C = A x B of N x N matrices of ElementBytes
/// each (shared/seeds/000, "Tiling with Shared Memory"): every output
/// element takes 2N FLOPs (N multiply-adds) and, with T x T tiles staged in
/// shared memory, 2N / T global element reads (T = 1: the naive kernel's
/// 2N). So 2N^3 FLOPs, 2N^3 x ElementBytes / T bytes (8N^3 / T for
/// floats), and the intensity T / ElementBytes FLOP/byte: 0.25 for the
/// naive float kernel, T / 4 tiled.
struct MatmulTraffic {
  double Flops = 0;
  double GlobalBytes = 0;
  double intensity() const { return arithmeticIntensity(Flops, GlobalBytes); }
};
MatmulTraffic tiledMatmulTraffic(double N, unsigned Tile, unsigned ElementBytes);

/// The global traffic of a loop whose reused loads are staged through a
/// shared tile: ReusedBytes (the bytes per iteration of loads whose
/// elements Tile threads of a block each read) shrink by the factor Tile,
/// OtherBytes do not. The intensities are FLOPs per byte of global
/// traffic before and after; the reduction is of the loop's whole traffic
/// (Tile when every load is reused, as in the matrix multiply).
struct TilingGain {
  double IntensityBefore = 0, IntensityAfter = 0;
  double TrafficReduction = 1;
};
TilingGain tilingGain(double FlopsPerIteration, double ReusedBytes, double OtherBytes,
                      unsigned Tile);

} // namespace warpcheck::model

#endif
