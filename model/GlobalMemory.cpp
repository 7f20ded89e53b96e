#include "warpcheck/model/GlobalMemory.h"
#include "warpcheck/model/SectorSet.h"

#include <map>
#include <optional>
#include <set>
#include <vector>

namespace warpcheck::model {

static unsigned ceilDiv(std::uint64_t A, std::uint64_t B) {
  return static_cast<unsigned>((A + B - 1) / B);
}

std::set<std::uint64_t> touchedSectors(const WarpAddressSet &Request,
                                       const GlobalMemoryGeometry &Geometry) {
  std::set<std::uint64_t> Sectors;
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane) {
    if (!Request.isActive(Lane))
      continue;
    // A lane's access may straddle a sector (or line) boundary when it is
    // misaligned for its width; every unit it touches is fetched.
    WarpAddressSet::UnitRange LaneSectors = Request.unitsOfLane(Lane, Geometry.SectorBytes);
    for (std::uint64_t S = LaneSectors.First; S <= LaneSectors.Last; ++S)
      Sectors.insert(S);
  }
  return Sectors;
}

GlobalRequestCost computeGlobalRequestCost(const WarpAddressSet &Request,
                                           const GlobalMemoryGeometry &Geometry,
                                           GlobalAccessKind Kind) {
  GlobalRequestCost Cost;
  if (Request.empty())
    return Cost;
  if (Kind == GlobalAccessKind::Atomic) {
    // Round k holds the k-th lane (in lane order) of every address; each
    // round is served like a request of its own.
    std::map<std::uint64_t, unsigned> Seen;
    std::vector<WarpAddressSet> Rounds;
    for (unsigned Lane = 0; Lane < WarpSize; ++Lane) {
      if (!Request.isActive(Lane))
        continue;
      unsigned Round = Seen[Request.address(Lane)]++;
      if (Round >= Rounds.size())
        Rounds.emplace_back(Request.bytesPerLane());
      Rounds[Round].setLane(Lane, Request.address(Lane));
    }
    for (const WarpAddressSet &R : Rounds) {
      GlobalRequestCost C = computeGlobalRequestCost(R, Geometry);
      Cost.Sectors += C.Sectors;
      Cost.Lines += C.Lines;
    }
    Cost.UsefulBytes = Request.uniqueBytes();
    Cost.IdealSectors = ceilDiv(Cost.UsefulBytes, Geometry.SectorBytes);
    Cost.IdealLines = ceilDiv(Cost.UsefulBytes, Geometry.LineBytes);
    return Cost;
  }
  std::set<std::uint64_t> Sectors = touchedSectors(Request, Geometry), Lines;
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane) {
    if (!Request.isActive(Lane))
      continue;
    WarpAddressSet::UnitRange LaneLines = Request.unitsOfLane(Lane, Geometry.LineBytes);
    for (std::uint64_t L = LaneLines.First; L <= LaneLines.Last; ++L)
      Lines.insert(L);
  }
  Cost.Sectors = static_cast<unsigned>(Sectors.size());
  Cost.Lines = static_cast<unsigned>(Lines.size());
  Cost.UsefulBytes = Request.uniqueBytes();
  Cost.IdealSectors = ceilDiv(Cost.UsefulBytes, Geometry.SectorBytes);
  Cost.IdealLines = ceilDiv(Cost.UsefulBytes, Geometry.LineBytes);
  return Cost;
}

AtomicAggregation atomicAggregation(const AtomicTraits &T) {
  if (!T.UniformAddress)
    return AtomicAggregation::None;
  bool AddOrSub = T.Operation == AtomicOperation::Add || T.Operation == AtomicOperation::Sub;
  bool Bitwise = T.Operation == AtomicOperation::Min || T.Operation == AtomicOperation::Max ||
                 T.Operation == AtomicOperation::And || T.Operation == AtomicOperation::Or ||
                 T.Operation == AtomicOperation::Xor;
  switch (T.Type) {
  case AtomicValueType::Int32:
    if (AddOrSub)
      return !T.ResultUsed || T.UniformOperand ? AtomicAggregation::Warp
                                               : AtomicAggregation::FullWarpOnly;
    return Bitwise && !T.ResultUsed ? AtomicAggregation::Warp : AtomicAggregation::None;
  case AtomicValueType::Int64:
    return T.Operation == AtomicOperation::Add && T.UniformOperand ? AtomicAggregation::Warp
                                                                   : AtomicAggregation::None;
  default:
    return AtomicAggregation::None;
  }
}

const char *whyNotAggregated(const AtomicTraits &T) {
  AtomicAggregation A = atomicAggregation(T);
  if (A == AtomicAggregation::Warp)
    return nullptr;
  if (A == AtomicAggregation::FullWarpOnly)
    return "an add whose old value is used with an operand that differs between lanes is "
           "combined only when all 32 lanes are active";
  if (!T.UniformAddress)
    return "the compiler cannot prove that the lanes name one address";
  switch (T.Operation) {
  case AtomicOperation::Exchange:
  case AtomicOperation::CompareAndSwap:
  case AtomicOperation::Increment:
  case AtomicOperation::Decrement:
  case AtomicOperation::Other:
    return "exchange, compare-and-swap, inc and dec are never combined";
  default:
    break;
  }
  if (T.Type == AtomicValueType::FloatingPoint)
    return "floating-point atomics are never combined";
  if (T.Type == AtomicValueType::Int64)
    return "of 64-bit atomics only an add of a warp-uniform operand is combined";
  if (T.Type == AtomicValueType::Int32)
    return "a min, max, and, or or xor whose old value is used is not combined";
  return "atomics on this type are not combined";
}

bool isAggregatedRequest(const WarpAddressSet &Request, const AtomicTraits &T) {
  if (Request.empty())
    return false;
  AtomicAggregation A = atomicAggregation(T);
  if (A == AtomicAggregation::None ||
      (A == AtomicAggregation::FullWarpOnly && Request.activeLanes() != WarpSize))
    return false;
  // The compiler proved the address uniform; a request whose lanes differ
  // means the proof was wrong: cost it as it is.
  std::optional<std::uint64_t> Address;
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane) {
    if (!Request.isActive(Lane))
      continue;
    if (Address && *Address != Request.address(Lane))
      return false;
    Address = Request.address(Lane);
  }
  return true;
}

GlobalRequestCost computeAtomicRequestCost(const WarpAddressSet &Request, const AtomicTraits &T,
                                           const GlobalMemoryGeometry &Geometry) {
  if (!isAggregatedRequest(Request, T))
    return computeGlobalRequestCost(Request, Geometry, GlobalAccessKind::Atomic);
  return computeGlobalRequestCost(leaderLaneRequest(Request), Geometry);
}

WarpAddressSet leaderLaneRequest(const WarpAddressSet &Request) {
  WarpAddressSet Leader(Request.bytesPerLane());
  for (unsigned Lane = WarpSize; Lane-- > 0;)
    if (Request.isActive(Lane)) {
      Leader.setLane(Lane, Request.address(Lane));
      break;
    }
  return Leader;
}

} // namespace warpcheck::model
