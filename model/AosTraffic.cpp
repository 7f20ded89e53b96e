#include "warpcheck/model/AosTraffic.h"
#include "warpcheck/model/SectorSet.h"

#include <set>
#include <utility>

namespace warpcheck::model {

namespace {

/// Apart from each other: every SoA array starts at its own 256-byte
/// aligned allocation, far from the others, so no two share a sector.
constexpr std::uint64_t SoaArraySpacing = std::uint64_t(1) << 40;

/// Lane L at Base + (its element's index) * Bytes + Offset: the addresses of
/// one instruction, as laid out (Bytes = the struct's size) or in an SoA
/// array (Bytes = the scalar's size).
WarpAddressSet laneAddresses(const StructAccessPattern &P, std::uint64_t Base, std::uint64_t Bytes,
                             std::uint64_t Offset, unsigned Width) {
  WarpAddressSet Set(Width);
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
    if (P.Elements.isActive(Lane))
      Set.setLane(Lane, Base + P.Elements.address(Lane) / P.StructBytes * Bytes + Offset);
  return Set;
}

/// The scalars (by index) an instruction's bytes overlap.
std::vector<unsigned> scalarsOf(const StructAccessPattern &P, const StructInstruction &I) {
  std::vector<unsigned> Out;
  for (unsigned S = 0; S < P.Scalars.size(); ++S) {
    const StructScalar &Sc = P.Scalars[S];
    if (Sc.Offset < I.Offset + I.Bytes && I.Offset < Sc.Offset + Sc.Bytes)
      Out.push_back(S);
  }
  return Out;
}

LayoutTraffic directionTraffic(const StructAccessPattern &P, bool Stores,
                               const GlobalMemoryGeometry &G) {
  LayoutTraffic T;
  std::set<std::uint64_t> AosSectors, SoaSectors;
  std::set<unsigned> UsedScalars;
  for (const StructInstruction &I : P.Instructions) {
    if (I.Store != Stores)
      continue;
    ++T.Instructions;
    WarpAddressSet Aos = laneAddresses(P, 0, P.StructBytes, I.Offset, I.Bytes);
    T.L1Sectors += computeGlobalRequestCost(Aos, G).Sectors;
    std::set<std::uint64_t> S = touchedSectors(Aos, G);
    AosSectors.insert(S.begin(), S.end());
    // As SoA, the instruction becomes one per scalar it covers, each on the
    // scalar's own array.
    for (unsigned Scalar : scalarsOf(P, I)) {
      const StructScalar &Sc = P.Scalars[Scalar];
      WarpAddressSet Soa = laneAddresses(P, (Scalar + 1) * SoaArraySpacing, Sc.Bytes, 0, Sc.Bytes);
      T.SoaL1Sectors += computeGlobalRequestCost(Soa, G).Sectors;
      std::set<std::uint64_t> SS = touchedSectors(Soa, G);
      SoaSectors.insert(SS.begin(), SS.end());
      if (UsedScalars.insert(Scalar).second)
        T.UsefulBytes += Soa.uniqueBytes();
    }
  }
  T.DramBytes = AosSectors.size() * std::uint64_t(G.SectorBytes);
  T.SoaDramBytes = SoaSectors.size() * std::uint64_t(G.SectorBytes);
  return T;
}

} // namespace

std::optional<unsigned> vectorBytesFor(std::uint64_t StructBytes) {
  // LDG.64 and LDG.128 need their width's alignment (CUDA C++ Programming
  // Guide, "Size and Alignment Requirement"): a 12-byte struct is padded to
  // 16 (__align__(16)) to be read with one.
  if (StructBytes <= 4 || StructBytes > 16)
    return std::nullopt;
  return StructBytes <= 8 ? 8u : 16u;
}

double AosTraffic::l1Efficiency() const {
  return l1Sectors() ? double(soaL1Sectors()) / double(l1Sectors()) : 1.0;
}

double AosTraffic::dramEfficiency() const {
  return dramBytes() ? double(soaDramBytes()) / double(dramBytes()) : 1.0;
}

AosTraffic computeAosTraffic(const StructAccessPattern &P, const GlobalMemoryGeometry &G) {
  AosTraffic T;
  if (P.StructBytes == 0)
    return T;
  T.Loads = directionTraffic(P, false, G);
  T.Stores = directionTraffic(P, true, G);
  if (std::optional<unsigned> V = vectorBytesFor(P.StructBytes)) {
    VectorAlternative Alt;
    Alt.VectorBytes = *V;
    Alt.PaddingBytes = static_cast<unsigned>(*V - P.StructBytes);
    // One instruction per direction moves every element whole; its sectors
    // are each fetched once, so L1 and DRAM see the same ones.
    for (const LayoutTraffic *D : {&T.Loads, &T.Stores}) {
      if (D->empty())
        continue;
      WarpAddressSet Whole = laneAddresses(P, 0, *V, 0, *V);
      unsigned Sectors = computeGlobalRequestCost(Whole, G).Sectors;
      Alt.L1Sectors += Sectors;
      Alt.DramBytes += Sectors * std::uint64_t(G.SectorBytes);
    }
    T.Vector = Alt;
  }
  return T;
}

} // namespace warpcheck::model
