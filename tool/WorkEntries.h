//===- WorkEntries.h - a launch's FLOPs, DRAM bytes and roofline, typed ----===//
//
// The "flops", "dram_bytes", "intensity" and "roofline" fields of a kernel
// in the --format=json contract (docs/json-format.md): what the launch does
// in all (analysis/LaunchWork.h) and the verdict of the roofline model
// (model/Roofline.h) on each architecture reported. Written and read only
// here.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_WORKENTRIES_H
#define WARPCHECK_TOOL_WORKENTRIES_H

#include "warpcheck/analysis/AccessKinds.h"
#include "warpcheck/analysis/CountFormula.h"

#include "llvm/Support/JSON.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// Instructions (per thread, summed over the launch) and FLOPs of one
/// precision (model::PrecisionOps).
struct PrecisionOpsEntry {
  std::int64_t Add = 0, Mul = 0, Fma = 0, Flops = 0;
};

struct FlopsEntry {
  analysis::AccessStatus Status = analysis::AccessStatus::Exact;
  /// fp16, fp32, fp64; all zero when not counted.
  std::array<PrecisionOpsEntry, 3> ByPrecision{};
  /// nullopt when not counted.
  std::optional<std::int64_t> Total;
  std::vector<analysis::Assumption> Assumptions;
  /// Why there is no count; empty when there is one.
  std::string NotCounted;
  /// The counts per thread as a formula in the parameters no launch site
  /// binds (analysis/CountFormula.h), when one fits.
  std::optional<analysis::FlopFormula> PerThread;
};

struct DramBytesEntry {
  analysis::AccessStatus Status = analysis::AccessStatus::Exact;
  std::optional<std::int64_t> Read, Write;
  std::vector<analysis::Assumption> Assumptions;
  std::string NotCounted;
};

/// The roofline verdict on one architecture's part.
struct RooflineEntry {
  std::string Arch, Part;
  /// The precision whose peak is used: the launch's with the most FLOPs.
  std::string Precision;
  double PeakFlopsPerSecond = 0;
  /// "vendor" or "derived" (model/Arch.h, peakFlopsPerSecond).
  std::string PeakSource;
  double BandwidthBytesPerSecond = 0;
  /// FLOP/byte, rounded to four decimals.
  double Ridge = 0;
  /// "memory" or "compute".
  std::string Bound;
  double AttainableFlopsPerSecond = 0;
  double TimeBoundSeconds = 0;
  /// exact when both counts are, else assumed.
  analysis::AccessStatus Status = analysis::AccessStatus::Exact;
};

struct WorkEntry {
  FlopsEntry Flops;
  DramBytesEntry Dram;
  /// FLOPs per DRAM byte, rounded to four decimals; nullopt when either
  /// count is missing or no byte moves.
  std::optional<double> Intensity;
  std::vector<RooflineEntry> Roofline;
  std::int64_t BlocksSimulated = 0, TotalBlocks = 0;
};

/// Adds the entry's fields to a kernel's object, and reads them back
/// (nullopt when the object has none).
void addWorkFields(const WorkEntry &W, llvm::json::Object &Kernel);
std::optional<WorkEntry> workFromJson(const llvm::json::Object &Kernel);

} // namespace warpcheck::tool

#endif
