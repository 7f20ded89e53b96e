//===- GlobalMemory.h - sectors and lines of a global-memory request ------===//
//
// Hardware fact (sm_70 and later; CUDA C++ Best Practices Guide, "Coalesced
// Access to Global Memory", and Nsight Compute's l1tex__t_sectors metrics):
// a warp's global load or store is served in 32-byte sectors; a 128-byte
// cache line holds four sectors. The cost of one warp request is the number
// of distinct 32-byte sectors its active lanes touch. The classic model (and
// the seeds in shared/seeds) counts 128-byte transactions (lines); both are
// reported and every number says which one it is.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_MODEL_GLOBALMEMORY_H
#define WARPCHECK_MODEL_GLOBALMEMORY_H

#include "warpcheck/model/WarpAddressSet.h"

#include <cstdint>

namespace warpcheck::model {

struct GlobalMemoryGeometry {
  unsigned SectorBytes = 32;
  unsigned LineBytes = 128;
};

/// The row pitch cudaMallocPitch gives a row of WidthBytes: the width
/// rounded up to 512 bytes. Measured on the H200 for widths of 1 to 10000
/// bytes and heights of 1 to 1024 (test/hw/malloc_pitch.txt, made by
/// test/hw/scripts/malloc_pitch.cu): 1 -> 512, 513 -> 1024, 2052 -> 2560,
/// 10000 -> 10240, whatever the height. That is the device's
/// textureAlignment (512), not its texturePitchAlignment (32).
constexpr std::uint64_t MallocPitchAlignmentBytes = 512;
inline std::uint64_t mallocPitchBytes(std::uint64_t WidthBytes) {
  std::uint64_t Rows = (WidthBytes + MallocPitchAlignmentBytes - 1) / MallocPitchAlignmentBytes;
  return (Rows ? Rows : 1) * MallocPitchAlignmentBytes;
}

/// What one warp-wide global request costs.
struct GlobalRequestCost {
  /// Distinct 32-byte sectors touched by the active lanes (SectorCount).
  unsigned Sectors = 0;
  /// The fewest sectors that could deliver the bytes requested:
  /// ceil(unique bytes / 32).
  unsigned IdealSectors = 0;
  /// Distinct 128-byte lines touched (the seeds' "transactions").
  unsigned Lines = 0;
  /// ceil(unique bytes / 128).
  unsigned IdealLines = 0;
  /// Bytes the lanes asked for, each counted once.
  std::uint64_t UsefulBytes = 0;

  /// Ideal sectors over sectors moved: bytes used / bytes moved at sector
  /// granularity (a broadcast of one word costs its single sector: 100%).
  double sectorEfficiency() const {
    return Sectors ? double(IdealSectors) / double(Sectors) : 1.0;
  }
  /// The same at 128-byte-line granularity (the seeds' efficiency).
  double lineEfficiency() const {
    return Lines ? double(IdealLines) / double(Lines) : 1.0;
  }
};

/// Loads and stores are served once per distinct sector. Atomics and
/// reductions (ATOMG, REDG) are serialised over lanes that name the same
/// address: measured on the H200 (test/hw/global_patterns.json), 32 lanes
/// adding to one word cost 32 sectors, pairs of lanes sharing addresses over
/// 64 bytes cost 4 (2 rounds of 2 sectors).
enum class GlobalAccessKind { LoadOrStore, Atomic };

GlobalRequestCost computeGlobalRequestCost(const WarpAddressSet &Request,
                                           const GlobalMemoryGeometry &Geometry = {},
                                           GlobalAccessKind Kind = GlobalAccessKind::LoadOrStore);

/// What nvcc decides warp aggregation of a global atomic by.
enum class AtomicOperation {
  Add, Sub, Min, Max, And, Or, Xor, Exchange, CompareAndSwap, Increment, Decrement, Other
};
/// The value an atomic updates: a 32-bit integer (int, unsigned), a 64-bit
/// integer, floating point (float, double, __half, __half2, float2, ...).
enum class AtomicValueType { Int32, Int64, FloatingPoint, Other };

struct AtomicTraits {
  AtomicOperation Operation = AtomicOperation::Other;
  AtomicValueType Type = AtomicValueType::Other;
  /// The old value the call returns is used.
  bool ResultUsed = true;
  /// The compiler can prove that every lane names the same address (it
  /// depends on kernel parameters, blockIdx, constants, not on threadIdx or
  /// on values read from memory).
  bool UniformAddress = false;
  /// ... and the same operand (a constant or such a value).
  bool UniformOperand = false;
  /// The operand is the integer constant 1 (shared memory's ATOMS.POPC.INC).
  bool UnitOperand = false;
};

/// Hardware and compiler fact (test/hw/atomics/sass_census.csv: nvcc 13.0
/// -O3 for sm_90, 111 cases of test/hw/microbench/atomic_patterns.cu; the
/// requests and sectors of test/hw/atomic_patterns.json, measured on the
/// H200: 109 of the 111 as the census expects, the other two __half CAS
/// loops with no expectation): on
/// an address the compiler proves warp-uniform, nvcc replaces the lanes'
/// atomics by one, issued by one lane that a vote elects (VOTEU.ANY,
/// UFLO), for the sum of the active lanes' operands (POPC of the vote times
/// a uniform operand, REDUX of a per-lane one) -- whatever the branch or
/// scope around it:
///   - 32-bit integer add and sub, the old value ignored, or used with a
///     uniform operand (each lane's old value rebuilt with SHFL and POPC);
///   - 32-bit integer min, max, and, or, xor whose old value is ignored;
///   - 64-bit integer add of a uniform operand.
/// A 32-bit add or sub whose old value is used with a per-lane operand is
/// aggregated (an SHFL scan, one atomic by lane 31) only when all 32 lanes
/// are active; otherwise every lane issues its own. Nothing else is
/// aggregated: floating point of any width, exchange, compare-and-swap,
/// inc, dec, 64-bit min/max/and/or/xor, a per-lane 64-bit add, a used min or
/// max, nor an address that is uniform only at run time (threadIdx.x / 32).
enum class AtomicAggregation { None, Warp, FullWarpOnly };
AtomicAggregation atomicAggregation(const AtomicTraits &Traits);

/// Why an atomic is not aggregated, a phrase for messages ("floating-point
/// atomics are not aggregated"); null when it is (for FullWarpOnly, the
/// reason a partial warp's is not).
const char *whyNotAggregated(const AtomicTraits &Traits);

/// Whether this warp request of a global atomic is issued by one lane for
/// the whole warp (its active lanes then name one address).
bool isAggregatedRequest(const WarpAddressSet &Request, const AtomicTraits &Traits);

/// The request of the one lane that issues an aggregated atomic (the last
/// active lane; which one the vote elects does not change the cost).
WarpAddressSet leaderLaneRequest(const WarpAddressSet &Request);

/// The cost of a warp request of a global atomic: one lane's request when
/// it is aggregated (1 sector), else the lanes served per address in rounds
/// (GlobalAccessKind::Atomic).
GlobalRequestCost computeAtomicRequestCost(const WarpAddressSet &Request, const AtomicTraits &Traits,
                                           const GlobalMemoryGeometry &Geometry = {});

} // namespace warpcheck::model

#endif
