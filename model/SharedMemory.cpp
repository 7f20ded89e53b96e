#include "warpcheck/model/SharedMemory.h"

#include "warpcheck/model/GlobalMemory.h"

#include <algorithm>
#include <map>
#include <set>

namespace warpcheck::model {

unsigned bankOf(std::uint64_t ByteAddress, const SharedMemoryGeometry &Geometry) {
  return static_cast<unsigned>((ByteAddress / Geometry.BankWidthBytes) %
                               Geometry.Banks);
}

namespace {
struct PhaseCost {
  unsigned Degree = 0;
  unsigned Bank = 0;
  std::vector<unsigned> Lanes;
  bool LanesShareWords = false;
};

// Within one phase each bank serves one word per wavefront; lanes reading
// the same word share it. The phase needs as many wavefronts as the busiest
// bank has distinct words.
PhaseCost costOfPhase(const WarpAddressSet &Request, unsigned FirstLane,
                      unsigned LaneCount, const SharedMemoryGeometry &G, bool PerLane) {
  // PerLane: a word counts once per lane that names it (the key's low
  // bits); otherwise once.
  std::map<unsigned, std::set<std::uint64_t>> WordsPerBank;
  std::map<unsigned, std::map<std::uint64_t, unsigned>> FirstLanePerWord;
  for (unsigned Lane = FirstLane; Lane < FirstLane + LaneCount && Lane < WarpSize;
       ++Lane) {
    if (!Request.isActive(Lane))
      continue;
    WarpAddressSet::UnitRange Words = Request.unitsOfLane(Lane, G.BankWidthBytes);
    for (std::uint64_t Word = Words.First; Word <= Words.Last; ++Word) {
      unsigned Bank = static_cast<unsigned>(Word % G.Banks);
      std::uint64_t Key = PerLane ? Word * WarpSize + Lane : Word;
      WordsPerBank[Bank].insert(Key);
      FirstLanePerWord[Bank].emplace(Key, Lane);
    }
  }
  PhaseCost Cost;
  for (const auto &[Bank, Words] : WordsPerBank) {
    if (Words.size() > Cost.Degree) {
      Cost.Degree = static_cast<unsigned>(Words.size());
      Cost.Bank = Bank;
      Cost.Lanes.clear();
      std::set<std::uint64_t> Distinct;
      for (const auto &[Key, Lane] : FirstLanePerWord[Bank]) {
        Cost.Lanes.push_back(Lane);
        Distinct.insert(PerLane ? Key / WarpSize : Key);
      }
      std::sort(Cost.Lanes.begin(), Cost.Lanes.end());
      Cost.LanesShareWords = Distinct.size() < Words.size();
    }
  }
  return Cost;
}
} // namespace

// Whether an active lane reads the address of lane Lane ^ 1 (its pair) or
// of lane Lane ^ 2 (the same place in the other pair of its quad). A lane
// whose pair is inactive counts as matching, as before any quad was
// measured; an inactive lane Lane ^ 2 does not.
static bool sharesWithinQuad(const WarpAddressSet &Request, unsigned Lane) {
  unsigned Pair = Lane ^ 1u, Across = Lane ^ 2u;
  if (!Request.isActive(Pair) || Request.address(Pair) == Request.address(Lane))
    return true;
  return Request.isActive(Across) && Request.address(Across) == Request.address(Lane);
}

// Measured on the H200 (test/hw/shared_patterns.json, LDS.64 and LDS.128):
// a wide load is served in passes of twice as many lanes when every active
// lane shares its address with lane ^ 1 or lane ^ 2: pairs (AABB), quads,
// alternating lanes (ABAB: 2 wavefronts for a warp of LDS.128, 1 of
// LDS.64) and broadcasts, but not one lane in four apart (BAAA: 4), a
// period of 3 or 4 (ABCABC, ABCD: 4) or scattered repeats (4).
static bool lanesShareWithinQuads(const WarpAddressSet &Request) {
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
    if (Request.isActive(Lane) && !sharesWithinQuad(Request, Lane))
      return false;
  return true;
}

// What the lanes of one quad (First .. First + 3) of such a pass request,
// in lane-sized units: the distinct addresses of its two pairs (0, 1 and 2,
// 3) or of its two columns (0, 2 and 1, 3), whichever are fewer. Pairs
// (AABB) and quads (AAAA) count 2, as alternating lanes (ABAB) do: the
// ideal ncu measured for a warp of LDS.128 of each is 2 wavefronts (16
// units of 16 bytes). Either grouping is kept by renumbering a quad's lanes
// by an exclusive-or, so the count does not depend on that order.
static unsigned unitsOfQuad(const WarpAddressSet &Request, unsigned First) {
  auto Distinct = [&](unsigned A, unsigned B) -> unsigned {
    bool InA = Request.isActive(A), InB = Request.isActive(B);
    if (InA && InB)
      return Request.address(A) == Request.address(B) ? 1 : 2;
    return (InA ? 1 : 0) + (InB ? 1 : 0);
  };
  unsigned Pairs = Distinct(First, First + 1) + Distinct(First + 2, First + 3);
  unsigned Columns = Distinct(First, First + 2) + Distinct(First + 1, First + 3);
  return std::min(Pairs, Columns);
}

// The wavefronts a request needs with no conflict, as Nsight Compute's
// source counters count them (L1 Wavefronts Shared Ideal): the bytes its
// lanes request over one bank row (Banks * width = 128 bytes), rounded up,
// per hardware pass of LanesPerPass lanes with an active lane; a wide load
// whose lane pairs read one address (MergedPairs) counts each pair once.
// Not one per phase of a wide access: measured on the H200, 8 lanes (0-3
// and 16-19) storing 16 bytes each take 2 wavefronts, one per quarter-warp
// phase, against an ideal of 1 (test/inputs/shared-wide-partial-warps.cu).
// Not the distinct bytes either: a full warp of 16-byte loads whose lane
// pairs share an address, with only 8 addresses in all, has an ideal of 2
// (sgemm_cuda's warp-tiled loads, test/hw/realcode; line 24 of
// test/inputs/unrolled-shared-loads.cu).
static unsigned idealWavefronts(const WarpAddressSet &Request, const SharedMemoryGeometry &G,
                                bool MergedPairs) {
  unsigned Width = std::max(Request.bytesPerLane(), 1u);
  unsigned Ideal = 0;
  for (unsigned First = 0; First < WarpSize; First += G.LanesPerPass) {
    std::uint64_t Units = 0;
    for (unsigned Lane = First; Lane < First + G.LanesPerPass && Lane < WarpSize; ++Lane) {
      if (MergedPairs && Lane % 4 == 0 && Lane + 3 < WarpSize) {
        Units += unitsOfQuad(Request, Lane);
        Lane += 3;
      } else if (Request.isActive(Lane)) {
        ++Units;
      }
    }
    if (Units == 0)
      continue;
    Ideal += static_cast<unsigned>((Units * Width + G.bytesPerWavefront() - 1) /
                                   G.bytesPerWavefront());
  }
  return Ideal;
}

bool isConflictFreeFootprint(std::uint64_t ArrayBytes, unsigned BytesPerLane,
                             const SharedMemoryGeometry &Geometry) {
  return ArrayBytes > 0 && ArrayBytes <= Geometry.bytesPerWavefront() && BytesPerLane > 0 &&
         BytesPerLane <= Geometry.BankWidthBytes && Geometry.LanesPerPass == 32;
}

SharedRequestCost computeSharedRequestCost(const WarpAddressSet &Request,
                                           const SharedMemoryGeometry &G,
                                           SharedAccessKind Kind) {
  SharedRequestCost Cost;
  if (Request.empty())
    return Cost;
  // Passes: consecutive lanes requesting at most one bank row (Banks *
  // width = 128 bytes) together: 32 lanes up to 4 bytes, 16 lanes of 8
  // bytes, 8 lanes of 16 bytes. Measured on the H200: a wide load whose
  // lane pairs (2k, 2k+1) read the same address (a lane with an inactive
  // partner counts as matching) is served in passes of twice as many lanes;
  // stores never are.
  unsigned Width = std::max(Request.bytesPerLane(), G.BankWidthBytes);
  unsigned LanesPerPhase = std::max(1u, G.bytesPerWavefront() / Width);
  bool MergedPairs = Width > G.BankWidthBytes && Kind == SharedAccessKind::Load &&
                     G.MergeEqualLanePairs && lanesShareWithinQuads(Request);
  if (MergedPairs)
    LanesPerPhase *= 2;
  LanesPerPhase = std::min(LanesPerPhase, G.LanesPerPass);
  for (unsigned First = 0; First < WarpSize; First += LanesPerPhase) {
    PhaseCost Phase =
        costOfPhase(Request, First, LanesPerPhase, G, Kind == SharedAccessKind::AtomicPerLane);
    Cost.Wavefronts += Phase.Degree;
    if (Phase.Degree > Cost.ConflictDegree) {
      Cost.ConflictDegree = Phase.Degree;
      Cost.WorstBank = Phase.Bank;
      Cost.WorstBankLanes = Phase.Lanes;
      Cost.WorstBankLanesShareWords = Phase.LanesShareWords;
    }
    if (Phase.Degree > 0)
      Cost.ActivePhases += 1;
  }
  Cost.IdealWavefronts = idealWavefronts(Request, G, MergedPairs);
  return Cost;
}

SharedAccessKind sharedAtomicKind(const AtomicTraits &T) {
  // atomicInc(p, limit) wraps at its limit: ATOMS.INC, served per lane.
  if (T.Operation == AtomicOperation::Add && T.Type == AtomicValueType::Int32 && T.UnitOperand &&
      !T.ResultUsed)
    return SharedAccessKind::Atomic;
  return SharedAccessKind::AtomicPerLane;
}

bool isSharedAtomicRetryLoop(const AtomicTraits &T) {
  // Measured on the H200 (shared-atomics.json, lines 34, 35 and 55): float
  // adds, and 64-bit integer adds even when aggregated to one lane, are
  // ATOMS.CAST.SPIN loops; exchange and compare-and-swap are single
  // instructions.
  if (T.Operation == AtomicOperation::Exchange || T.Operation == AtomicOperation::CompareAndSwap)
    return false;
  return T.Type == AtomicValueType::FloatingPoint || T.Type == AtomicValueType::Int64;
}

} // namespace warpcheck::model
