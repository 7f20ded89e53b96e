//===- AosEntries.h - a kernel's arrays of structs, typed -----------------===//
//
// The "aos" entries of a kernel in the --format=json contract
// (docs/json-format.md): each struct reached through one pointer, its
// fields, its traffic per warp as laid out and as structure of arrays, and
// the alternatives (analysis/AosAccesses.h). Written and read only here.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_AOSENTRIES_H
#define WARPCHECK_TOOL_AOSENTRIES_H

#include "warpcheck/analysis/AccessKinds.h"

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// One direction's traffic per warp (model::LayoutTraffic).
struct AosTrafficEntry {
  std::int64_t Instructions = 0;
  std::int64_t L1Sectors = 0, SoaL1Sectors = 0;
  std::int64_t DramBytes = 0, SoaDramBytes = 0, UsefulBytes = 0;
};

struct AosFieldEntry {
  std::string Name;
  std::int64_t Offset = 0, Bytes = 0;
  bool Loaded = false, Stored = false;
  /// The traffic of the instructions that touch the field.
  AosTrafficEntry Loads, Stores;
};

/// One element moved whole by one vector access (model::VectorAlternative).
struct AosVectorEntry {
  std::int64_t VectorBytes = 0, PaddingBytes = 0, L1Sectors = 0, DramBytes = 0;
};

struct AosEntry {
  std::optional<std::string> File;
  std::optional<std::int64_t> Line, Column;
  std::string Struct;
  std::int64_t StructBytes = 0;
  std::string Pointer;
  std::vector<AosFieldEntry> Fields;
  bool WholeCopy = false;
  AosTrafficEntry Loads, Stores;
  /// SoA's sectors (bytes) over the layout's, rounded to four decimals.
  double L1Efficiency = 1, DramEfficiency = 1;
  std::optional<AosVectorEntry> Vector;
  /// "exact" when every access of the struct is, else "assumed" (the
  /// figures rest on Assumptions).
  bool Exact = true;
  std::vector<analysis::Assumption> Assumptions;
};

llvm::json::Object toJson(const AosEntry &E);
AosEntry aosFromJson(const llvm::json::Object &O);

} // namespace warpcheck::tool

#endif
