#include "warpcheck/model/GlobalMemory.h"

#include <set>

namespace warpcheck::model {

static unsigned ceilDiv(std::uint64_t A, std::uint64_t B) {
  return static_cast<unsigned>((A + B - 1) / B);
}

GlobalRequestCost computeGlobalRequestCost(const WarpAddressSet &Request,
                                           const GlobalMemoryGeometry &Geometry) {
  GlobalRequestCost Cost;
  if (Request.empty())
    return Cost;
  std::set<std::uint64_t> Sectors, Lines;
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane) {
    if (!Request.isActive(Lane))
      continue;
    // A lane's access may straddle a sector (or line) boundary when it is
    // misaligned for its width; every unit it touches is fetched.
    std::uint64_t First = Request.address(Lane);
    std::uint64_t Last = First + Request.bytesPerLane() - 1;
    for (std::uint64_t S = First / Geometry.SectorBytes;
         S <= Last / Geometry.SectorBytes; ++S)
      Sectors.insert(S);
    for (std::uint64_t L = First / Geometry.LineBytes;
         L <= Last / Geometry.LineBytes; ++L)
      Lines.insert(L);
  }
  Cost.Sectors = static_cast<unsigned>(Sectors.size());
  Cost.Lines = static_cast<unsigned>(Lines.size());
  Cost.UsefulBytes = Request.uniqueBytes();
  Cost.IdealSectors = ceilDiv(Cost.UsefulBytes, Geometry.SectorBytes);
  Cost.IdealLines = ceilDiv(Cost.UsefulBytes, Geometry.LineBytes);
  return Cost;
}

} // namespace warpcheck::model
