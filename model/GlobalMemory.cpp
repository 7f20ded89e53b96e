#include "warpcheck/model/GlobalMemory.h"

#include <map>
#include <set>
#include <vector>

namespace warpcheck::model {

static unsigned ceilDiv(std::uint64_t A, std::uint64_t B) {
  return static_cast<unsigned>((A + B - 1) / B);
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
