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
      if (!Request.isActive(Lane))
        continue;
      // The second lane of a merged pair rides with the first.
      if (MergedPairs && Lane % 2 == 1 && Request.isActive(Lane - 1))
        continue;
      ++Units;
    }
    if (Units == 0)
      continue;
    Ideal += static_cast<unsigned>((Units * Width + G.bytesPerWavefront() - 1) /
                                   G.bytesPerWavefront());
  }
  return Ideal;
}

static bool lanePairsShareAddresses(const WarpAddressSet &Request) {
  for (unsigned Lane = 0; Lane + 1 < WarpSize; Lane += 2)
    if (Request.isActive(Lane) && Request.isActive(Lane + 1) &&
        Request.address(Lane) != Request.address(Lane + 1))
      return false;
  return true;
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
                     G.MergeEqualLanePairs && lanePairsShareAddresses(Request);
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
