//===- Roofline.cpp - arithmetic intensity and the roofline verdict ------===//

#include "warpcheck/model/Roofline.h"

#include <algorithm>

namespace warpcheck::model {

const char *precisionName(FloatPrecision P) {
  switch (P) {
  case FloatPrecision::Half:
    return "fp16";
  case FloatPrecision::Single:
    return "fp32";
  case FloatPrecision::Double:
    return "fp64";
  }
  return "fp32";
}

PrecisionOps &PrecisionOps::operator+=(const PrecisionOps &O) {
  Add += O.Add;
  Mul += O.Mul;
  Fma += O.Fma;
  Flops += O.Flops;
  return *this;
}

PrecisionOps PrecisionOps::scaled(std::uint64_t Times) const {
  return {Add * Times, Mul * Times, Fma * Times, Flops * Times};
}

std::uint64_t FlopCounts::totalFlops() const {
  std::uint64_t Total = 0;
  for (const PrecisionOps &P : ByPrecision)
    Total += P.Flops;
  return Total;
}

FloatPrecision FlopCounts::dominantPrecision() const {
  FloatPrecision Best = FloatPrecision::Single;
  std::uint64_t Most = 0;
  for (FloatPrecision P : AllFloatPrecisions)
    if ((*this)[P].Flops > Most) {
      Most = (*this)[P].Flops;
      Best = P;
    }
  return Best;
}

FlopCounts &FlopCounts::operator+=(const FlopCounts &O) {
  for (std::size_t I = 0; I < ByPrecision.size(); ++I)
    ByPrecision[I] += O.ByPrecision[I];
  return *this;
}

FlopCounts FlopCounts::scaled(std::uint64_t Times) const {
  FlopCounts Out;
  for (std::size_t I = 0; I < ByPrecision.size(); ++I)
    Out.ByPrecision[I] = ByPrecision[I].scaled(Times);
  return Out;
}

const char *boundName(RooflineBound B) {
  return B == RooflineBound::Memory ? "memory" : "compute";
}

double arithmeticIntensity(double Flops, double Bytes) {
  return Bytes > 0 ? Flops / Bytes : 0;
}

double ridgePoint(const RooflineMachine &M) {
  return M.BandwidthBytesPerSecond > 0 ? M.PeakFlopsPerSecond / M.BandwidthBytesPerSecond : 0;
}

double attainableFlopsPerSecond(const RooflineMachine &M, double Intensity) {
  return std::min(M.PeakFlopsPerSecond, M.BandwidthBytesPerSecond * Intensity);
}

RooflineBound boundAt(const RooflineMachine &M, double Intensity) {
  return Intensity < ridgePoint(M) ? RooflineBound::Memory : RooflineBound::Compute;
}

double timeBoundSeconds(const RooflineMachine &M, double Flops, double Bytes) {
  double Compute = M.PeakFlopsPerSecond > 0 ? Flops / M.PeakFlopsPerSecond : 0;
  double Memory = M.BandwidthBytesPerSecond > 0 ? Bytes / M.BandwidthBytesPerSecond : 0;
  return std::max(Compute, Memory);
}

double effectiveBandwidth(double PeakBytesPerSecond, std::initializer_list<double> Efficiencies) {
  double Out = PeakBytesPerSecond;
  for (double E : Efficiencies)
    Out *= E;
  return Out;
}

RooflineVerdict rooflineVerdict(const RooflineMachine &M, double Flops, double Bytes) {
  RooflineVerdict V;
  V.Intensity = arithmeticIntensity(Flops, Bytes);
  V.Ridge = ridgePoint(M);
  V.AttainableFlopsPerSecond = attainableFlopsPerSecond(M, V.Intensity);
  V.Bound = boundAt(M, V.Intensity);
  V.TimeBoundSeconds = timeBoundSeconds(M, Flops, Bytes);
  return V;
}

MatmulTraffic tiledMatmulTraffic(double N, unsigned Tile, unsigned ElementBytes) {
  MatmulTraffic T;
  double Cube = N * N * N;
  T.Flops = 2 * Cube;
  T.GlobalBytes = 2 * Cube * ElementBytes / std::max(1u, Tile);
  return T;
}

TilingGain tilingGain(double FlopsPerIteration, double ReusedBytes, double OtherBytes,
                      unsigned Tile) {
  TilingGain G;
  double Before = ReusedBytes + OtherBytes;
  double After = ReusedBytes / std::max(1u, Tile) + OtherBytes;
  G.IntensityBefore = arithmeticIntensity(FlopsPerIteration, Before);
  G.IntensityAfter = arithmeticIntensity(FlopsPerIteration, After);
  G.TrafficReduction = After > 0 ? Before / After : 1;
  return G;
}

} // namespace warpcheck::model
