//===- ModelInvariantsFuzzer.cpp - laws the hardware model must obey ------===//
//
// Every number warpcheck prints comes from the model (model/), so the
// model's functions are fuzzed on their own: random warp requests and
// random launches, each checked against laws that hold whatever the
// hardware details (bounds, symmetries, monotonicity), and against each
// other. The input, read in order (a byte past the end reads as 0, so any
// input decodes):
//
//  A warp request
//   [0]      width: bits 0-2 mod 5 -> 1, 2, 4, 8 or 16 bytes; bit 3: the
//            G80's banks (16 banks served per half-warp) instead of sm_50's
//            and later (32 per warp); bit 4: no passes merged for lane
//            pairs; bits 5-7: the window the lanes' addresses fall in,
//            32 << n bytes (32 bytes to 4 KB), small so that lanes collide
//   [1..4]   active-lane mask, little-endian
//   [5]      base: bits 0-1 pick 0, 64 KB, 2 GB - 64 KB or 2^47; bits 2-7,
//            times 16, are added (the base stays 16-byte aligned)
//   [6..69]  per lane, a 16-bit slot: the lane's address is
//            base + (slot mod (window / width)) x width
//   [70]     shift k - 1: the request is moved by k x 128, k x 32 and
//            k x 4 bytes
//   [71..102]  a permutation of the 32 lanes (Fisher-Yates, byte i draws
//              for position i)
//   [103..134] a permutation within the shared-memory passes (the same
//              draw over the pass's lanes or lane quads; bits 6-7 of
//              byte i renumber the lanes of quad i by an exclusive-or)
//  A launch
//   [135]    architecture: every name knownArchNames() lists, looked up
//            with findArch, then the seeds' textbook G80 and the default
//            textbook SM
//   [136]    bit 0: also check maxRegistersForBlocks; bit 1: also check
//            maxDynamicSharedForBlocks (both walk many launches)
//   [137]    registers per thread (0..255)
//   [138..139] threads per block: value mod 1024, plus 1
//   [140..141] static shared bytes
//   [142..144] dynamic shared bytes, mod 256 KB
//   [145]    carveout: 0..100 percent, 101 the runtime's -1, 102 an invalid
//            150 percent, above 102 none
//   [146]    bit 0: a cudaFuncAttributeMaxDynamicSharedMemorySize, in
//   [147..149] bytes mod 256 KB
//   [150]    barriers per block, mod 18
//   [151]    registers added, plus 1
//   [152..153] static shared bytes added, plus 1
//   [154..155] dynamic shared bytes added, plus 1
//   [156]    barriers added, mod 4, plus 1
//   [157]    suggestBlockSize's dynamic shared bytes per thread: 0 below
//            128, else the byte less 128
//   [158..159] suggestBlockSize's largest block: mod 1200 (0: no cap)
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "warpcheck/model/Arch.h"
#include "warpcheck/model/GlobalMemory.h"
#include "warpcheck/model/Occupancy.h"
#include "warpcheck/model/SharedMemory.h"
#include "warpcheck/model/WarpAddressSet.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace warpcheck;
using namespace warpcheck::model;

namespace {

/// The fuzz bytes in order; past the end, zeros.
class ByteReader {
public:
  ByteReader(const std::uint8_t *Data, std::size_t Size) : Data(Data), Size(Size) {}
  std::uint8_t byte() { return Position < Size ? Data[Position++] : (++Position, 0); }
  /// An unsigned little-endian number of Bytes bytes.
  std::uint32_t number(unsigned Bytes) {
    std::uint32_t Value = 0;
    for (unsigned I = 0; I < Bytes; ++I)
      Value |= std::uint32_t(byte()) << (8 * I);
    return Value;
  }
  std::array<std::uint8_t, WarpSize> block() {
    std::array<std::uint8_t, WarpSize> Bytes;
    for (std::uint8_t &B : Bytes)
      B = byte();
    return Bytes;
  }

private:
  const std::uint8_t *Data;
  std::size_t Size;
  std::size_t Position = 0;
};

using LaneMap = std::array<unsigned, WarpSize>;

/// A permutation of Count items drawn with Fisher-Yates, byte I of Draw
/// choosing the item for position I.
std::vector<unsigned> drawPermutation(unsigned Count, const std::uint8_t *Draw) {
  std::vector<unsigned> Items(Count);
  for (unsigned I = 0; I < Count; ++I)
    Items[I] = I;
  for (unsigned I = 0; I + 1 < Count; ++I)
    std::swap(Items[I], Items[I + (Draw[I] & 0x7f) % (Count - I)]);
  return Items;
}

/// Lane L's address and activity go to lane To[L].
WarpAddressSet permuted(const WarpAddressSet &Request, const LaneMap &To) {
  WarpAddressSet Result(Request.bytesPerLane());
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
    if (Request.isActive(Lane))
      Result.setLane(To[Lane], Request.address(Lane));
  return Result;
}

WarpAddressSet shifted(const WarpAddressSet &Request, std::uint64_t By) {
  WarpAddressSet Result(Request.bytesPerLane());
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
    if (Request.isActive(Lane))
      Result.setLane(Lane, Request.address(Lane) + By);
  return Result;
}

std::string hex(std::uint64_t Value) {
  char Text[24];
  std::snprintf(Text, sizeof(Text), "0x%llx", static_cast<unsigned long long>(Value));
  return Text;
}

std::string describe(const WarpAddressSet &Request, const SharedMemoryGeometry &G) {
  std::string Text = std::to_string(Request.bytesPerLane()) + "-byte request, mask " +
                     hex(Request.activeMask()) + ", " + std::to_string(G.Banks) +
                     " banks, passes of " + std::to_string(G.LanesPerPass) + " lanes" +
                     (G.MergeEqualLanePairs ? "" : ", no merged pairs") + ":";
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
    if (Request.isActive(Lane))
      Text += " " + std::to_string(Lane) + "=" + hex(Request.address(Lane));
  return Text;
}

void require(bool Holds, const char *What, const std::string &Case) {
  if (!Holds)
    fuzz::invariantBroken(What, Case);
}

//===--- Global memory ----------------------------------------------------===//

bool sameGlobal(const GlobalRequestCost &A, const GlobalRequestCost &B) {
  return A.Sectors == B.Sectors && A.Lines == B.Lines && A.IdealSectors == B.IdealSectors &&
         A.IdealLines == B.IdealLines && A.UsefulBytes == B.UsefulBytes;
}

void checkGlobal(const WarpAddressSet &Request, unsigned Shift, const LaneMap &Permutation,
                 const std::string &Case) {
  const GlobalMemoryGeometry G;
  GlobalRequestCost Cost = computeGlobalRequestCost(Request, G);
  GlobalRequestCost Atomic = computeGlobalRequestCost(Request, G, GlobalAccessKind::Atomic);
  if (Request.empty()) {
    require(sameGlobal(Cost, GlobalRequestCost{}) && sameGlobal(Atomic, GlobalRequestCost{}),
            "an empty global request costs something", Case);
    return;
  }
  unsigned Lanes = Request.activeLanes(), Width = Request.bytesPerLane();
  require(Cost.IdealSectors >= 1, "a global request needs no sector", Case);
  require(Cost.Sectors >= Cost.IdealSectors, "fewer sectors than the ideal", Case);
  require(Cost.IdealLines >= 1 && Cost.Lines >= Cost.IdealLines, "fewer lines than the ideal",
          Case);
  // A 128-byte line holds four 32-byte sectors.
  require(Cost.Lines <= Cost.Sectors && Cost.Sectors <= 4 * Cost.Lines,
          "sectors and lines disagree", Case);
  require(Cost.UsefulBytes >= Width && Cost.UsefulBytes <= std::uint64_t(Lanes) * Width,
          "useful bytes outside one lane's to every lane's", Case);
  // A lane's access, aligned to its width, spans ceil(width / 32) sectors.
  unsigned SectorsPerLane = (Width + G.SectorBytes - 1) / G.SectorBytes;
  require(Cost.Sectors <= Lanes * SectorsPerLane, "more sectors than the lanes touch", Case);
  // Moving the request by whole sectors moves every sector, by whole lines
  // every line.
  require(sameGlobal(computeGlobalRequestCost(shifted(Request, 128ull * Shift), G), Cost),
          "a request moved by whole lines costs differently", Case);
  require(computeGlobalRequestCost(shifted(Request, 32ull * Shift), G).Sectors == Cost.Sectors,
          "a request moved by whole sectors touches a different number of sectors", Case);
  // Loads and stores are served per distinct sector: which lane names
  // which address does not matter.
  WarpAddressSet Permuted = permuted(Request, Permutation);
  require(sameGlobal(computeGlobalRequestCost(Permuted, G), Cost),
          "permuting the lanes changes a global request's cost", Case);

  // Atomics: round k serves the k-th lane of each address; the first round
  // is the load's request, each round costs at most its lanes' sectors.
  require(Atomic.Sectors >= Cost.Sectors, "an atomic costs fewer sectors than a load", Case);
  require(Atomic.Sectors <= Lanes * SectorsPerLane, "an atomic costs more sectors than lanes",
          Case);
  require(Atomic.UsefulBytes == Cost.UsefulBytes && Atomic.IdealSectors == Cost.IdealSectors,
          "an atomic's useful bytes differ from a load's", Case);
  std::set<std::uint64_t> Addresses;
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
    if (Request.isActive(Lane))
      Addresses.insert(Request.address(Lane));
  if (Addresses.size() == Lanes)
    require(Atomic.Sectors == Cost.Sectors && Atomic.Lines == Cost.Lines,
            "an atomic over distinct addresses costs more than a load", Case);
  // Round k holds the addresses named more than k times, whichever lanes
  // name them.
  require(sameGlobal(computeGlobalRequestCost(Permuted, G, GlobalAccessKind::Atomic), Atomic),
          "permuting the lanes changes an atomic's cost", Case);
}

//===--- Shared memory ----------------------------------------------------===//

bool sameShared(const SharedRequestCost &A, const SharedRequestCost &B) {
  return A.Wavefronts == B.Wavefronts && A.IdealWavefronts == B.IdealWavefronts &&
         A.ActivePhases == B.ActivePhases &&
         A.ConflictDegree == B.ConflictDegree;
}

/// Lanes served in one pass before lane pairs are merged: consecutive lanes
/// requesting at most one row of the banks (SharedMemory.h).
unsigned lanesPerPass(unsigned Width, const SharedMemoryGeometry &G) {
  unsigned PerPass = std::max(1u, G.bytesPerWavefront() / std::max(Width, G.BankWidthBytes));
  return std::min(PerPass, G.LanesPerPass);
}

/// A permutation that keeps every lane in its pass. For accesses wider than
/// a bank word, whole quads of lanes move, their lanes renumbered by one
/// exclusive-or: whether lane k names the address of lane k ^ 1 or k ^ 2
/// decides how long a pass of a load is (SharedMemory.h), an exclusive-or
/// keeps both relations, and moving a lane out of its quad would not.
LaneMap permutationWithinPasses(unsigned Width, const SharedMemoryGeometry &G,
                                const std::array<std::uint8_t, WarpSize> &Draw) {
  LaneMap To;
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
    To[Lane] = Lane;
  unsigned Pass = lanesPerPass(Width, G);
  bool Quads = Width > G.BankWidthBytes;
  if (Quads && Pass % 4)
    return To;
  unsigned Unit = Quads ? 4 : 1, Units = Pass / Unit;
  for (unsigned First = 0; First < WarpSize; First += Pass) {
    std::vector<unsigned> Order = drawPermutation(Units, Draw.data() + First / Unit);
    for (unsigned U = 0; U < Units; ++U) {
      unsigned Flip = Quads ? (Draw[(First / Unit + U) % WarpSize] >> 6) : 0;
      for (unsigned I = 0; I < Unit; ++I)
        To[First + U * Unit + I] = First + Order[U] * Unit + (I ^ Flip);
    }
  }
  return To;
}

void checkSharedCost(const WarpAddressSet &Request, const SharedMemoryGeometry &G,
                     const SharedRequestCost &Cost, const std::string &Case) {
  if (Request.empty()) {
    require(Cost.Wavefronts == 0 && Cost.IdealWavefronts == 0 && Cost.ConflictDegree == 0,
            "an empty shared request costs something", Case);
    return;
  }
  require(Cost.IdealWavefronts >= 1, "a shared request needs no wavefront", Case);
  require(Cost.Wavefronts >= Cost.IdealWavefronts, "fewer wavefronts than the ideal", Case);
  // A phase serves at most one bank row of distinct bytes, and takes at
  // least one wavefront.
  require(Cost.IdealWavefronts <= Cost.ActivePhases && Cost.ActivePhases <= Cost.Wavefronts,
          "the phases with an active lane are not between the ideal and the wavefronts", Case);
  require(Cost.ConflictDegree >= 1 && Cost.ConflictDegree <= WarpSize &&
              Cost.ConflictDegree <= Cost.Wavefronts,
          "conflict degree outside 1..32 or above the wavefronts", Case);
  // An aligned access of at most one bank row touches a bank at most once,
  // so each lane adds at most one wavefront to its pass.
  require(Cost.Wavefronts <= Request.activeLanes(), "more wavefronts than active lanes", Case);
  // A wavefront serves at most one word per bank, a pass at most one bank
  // row of distinct bytes.
  std::set<std::uint64_t> Words;
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
    if (Request.isActive(Lane)) {
      WarpAddressSet::UnitRange R = Request.unitsOfLane(Lane, G.BankWidthBytes);
      for (std::uint64_t W = R.First; W <= R.Last; ++W)
        Words.insert(W);
    }
  require(std::uint64_t(Cost.Wavefronts) * G.Banks >= Words.size(),
          "fewer wavefronts than the distinct words need", Case);
  require(std::uint64_t(Cost.IdealWavefronts) * G.bytesPerWavefront() >= Request.uniqueBytes(),
          "fewer ideal wavefronts than the bytes need", Case);
  // The worst bank's lanes: one per word (or per lane of an atomic served
  // per lane), each touching that bank.
  require(Cost.WorstBank < G.Banks && Cost.WorstBankLanes.size() == Cost.ConflictDegree,
          "the worst bank's lanes do not match the conflict degree", Case);
  for (unsigned Lane : Cost.WorstBankLanes) {
    bool Touches = false;
    if (Lane < WarpSize && Request.isActive(Lane)) {
      WarpAddressSet::UnitRange R = Request.unitsOfLane(Lane, G.BankWidthBytes);
      for (std::uint64_t W = R.First; W <= R.Last; ++W)
        Touches |= bankOf(W * G.BankWidthBytes, G) == Cost.WorstBank;
    }
    require(Touches, "a lane of the worst bank does not touch it", Case);
  }
}

void checkShared(const WarpAddressSet &Request, const SharedMemoryGeometry &G, unsigned Shift,
                 const LaneMap &Permutation, const std::string &Case) {
  const SharedAccessKind Kinds[] = {SharedAccessKind::Load, SharedAccessKind::Store,
                                    SharedAccessKind::Atomic, SharedAccessKind::AtomicPerLane};
  SharedRequestCost Costs[4];
  for (unsigned K = 0; K < 4; ++K) {
    Costs[K] = computeSharedRequestCost(Request, G, Kinds[K]);
    checkSharedCost(Request, G, Costs[K], Case);
    // Moving the request by whole bank words rotates the banks: every bank's
    // words move to one other bank, and pairs of lanes that named one
    // address still do. (A move by less than a word can split or join
    // words, so it may change the cost.)
    require(sameShared(computeSharedRequestCost(shifted(Request, std::uint64_t(G.BankWidthBytes) *
                                                                     Shift),
                                                G, Kinds[K]),
                       Costs[K]),
            "a request moved by whole bank words costs differently", Case);
    require(sameShared(computeSharedRequestCost(shifted(Request, 128ull * Shift), G, Kinds[K]),
                       Costs[K]),
            "a request moved by whole 128-byte rows costs differently", Case);
    // Within a pass, which lane names which word does not matter (SharedMemory.h).
    require(sameShared(computeSharedRequestCost(permuted(Request, Permutation), G, Kinds[K]),
                       Costs[K]),
            "permuting lanes within a pass changes a shared request's cost", Case);
  }
  const SharedRequestCost &Load = Costs[0], &Store = Costs[1], &Atomic = Costs[2],
                          &PerLane = Costs[3];
  // A load's merged pass is two of a store's passes: its busiest bank has
  // at most the words of both.
  require(Load.Wavefronts <= Store.Wavefronts, "a load costs more wavefronts than a store", Case);
  if (Request.bytesPerLane() <= G.BankWidthBytes || !G.MergeEqualLanePairs)
    require(sameShared(Load, Store), "a load and a store are served differently", Case);
  require(sameShared(Atomic, Store), "an atomic served per word differs from a store", Case);
  require(PerLane.Wavefronts >= Atomic.Wavefronts && PerLane.Wavefronts <= Request.activeLanes(),
          "an atomic served per lane costs less than per word, or more than its lanes", Case);
  // One pass for the whole warp: the cost is the busiest bank's distinct
  // words, computed here on its own.
  if (lanesPerPass(Request.bytesPerLane(), G) >= WarpSize && !Request.empty()) {
    std::vector<std::set<std::uint64_t>> PerBank(G.Banks);
    for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
      if (Request.isActive(Lane)) {
        WarpAddressSet::UnitRange R = Request.unitsOfLane(Lane, G.BankWidthBytes);
        for (std::uint64_t W = R.First; W <= R.Last; ++W)
          PerBank[W % G.Banks].insert(W);
      }
    std::size_t Busiest = 0;
    for (const auto &Words : PerBank)
      Busiest = std::max(Busiest, Words.size());
    require(Store.Wavefronts == Busiest && Store.IdealWavefronts == 1,
            "a one-pass request is not its busiest bank's words", Case);
  }
}

void checkRequests(ByteReader &In) {
  static const unsigned Widths[] = {1, 2, 4, 8, 16};
  std::uint8_t Shape = In.byte();
  unsigned Width = Widths[(Shape & 7) % 5];
  SharedMemoryGeometry G;
  if (Shape & 8)
    G = SharedMemoryGeometry{16, 4, 16};
  G.MergeEqualLanePairs = !(Shape & 16);
  std::uint64_t Window = 32ull << (Shape >> 5);
  std::uint32_t Mask = In.number(4);
  std::uint8_t BaseByte = In.byte();
  static const std::uint64_t Bases[] = {0, 1ull << 16, (1ull << 31) - (1ull << 16), 1ull << 47};
  std::uint64_t Base = Bases[BaseByte & 3] + std::uint64_t(BaseByte >> 2) * 16;
  WarpAddressSet Request(Width);
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane) {
    std::uint32_t Slot = In.number(2);
    if ((Mask >> Lane) & 1)
      Request.setLane(Lane, Base + (Slot % (Window / Width)) * Width);
  }
  unsigned Shift = In.byte() + 1u;
  std::array<std::uint8_t, WarpSize> GlobalDraw = In.block(), SharedDraw = In.block();
  std::vector<unsigned> Order = drawPermutation(WarpSize, GlobalDraw.data());
  LaneMap GlobalPermutation;
  std::copy(Order.begin(), Order.end(), GlobalPermutation.begin());
  std::string Case = describe(Request, G);
  checkGlobal(Request, Shift, GlobalPermutation, Case);
  checkShared(Request, G, Shift, permutationWithinPasses(Width, G, SharedDraw), Case);
}

//===--- Occupancy --------------------------------------------------------===//

/// Every architecture the model knows, found by name, and the seeds'
/// textbook SMs.
const std::vector<ArchSpec> &archs() {
  static const std::vector<ArchSpec> All = [] {
    std::vector<ArchSpec> List;
    for (const std::string &Name : knownArchNames()) {
      const ArchSpec *Arch = findArch(Name);
      if (!Arch || Arch->Name != Name)
        fuzz::invariantBroken("findArch does not find a known architecture", Name);
      List.push_back(*Arch);
    }
    List.push_back(makeTextbookG80());
    List.push_back(makeTextbookArch({}));
    return List;
  }();
  return All;
}

std::string describe(const ArchSpec &Arch, const KernelResources &K) {
  return Arch.Name + ": " + std::to_string(K.RegistersPerThread) + " registers, " +
         std::to_string(K.ThreadsPerBlock) + " threads, static " +
         std::to_string(K.StaticSharedBytes) + ", dynamic " + std::to_string(K.DynamicSharedBytes) +
         ", carveout " + (K.CarveoutPercent ? std::to_string(*K.CarveoutPercent) : "none") +
         ", max dynamic " +
         (K.MaxDynamicSharedBytes ? std::to_string(*K.MaxDynamicSharedBytes) : "none") + ", " +
         std::to_string(K.BarriersPerBlock) + " barriers";
}

OccupancyResult checkedOccupancy(const ArchSpec &Arch, const KernelResources &K) {
  OccupancyResult R = computeOccupancy(Arch, K);
  std::string Case = describe(Arch, K);
  require(R.Theoretical >= 0 && R.Theoretical <= 1, "occupancy outside 0..1", Case);
  if (!R.valid()) {
    require(R.ActiveBlocksPerSM == 0 && R.ActiveWarpsPerSM == 0 && R.ActiveThreadsPerSM == 0 &&
                R.Theoretical == 0 && !R.Error.empty(),
            "a launch that cannot run has blocks, or no reason", Case);
    return R;
  }
  unsigned Blocks = R.ActiveBlocksPerSM;
  require(R.Error.empty() && Blocks >= 1, "a launch that runs has no block, or an error", Case);
  require(K.ThreadsPerBlock <= Arch.MaxThreadsPerBlock &&
              K.RegistersPerThread <= Arch.MaxRegistersPerThread,
          "a launch above a per-block limit runs", Case);
  require(R.WarpsPerBlock == (K.ThreadsPerBlock + Arch.WarpSize - 1) / Arch.WarpSize,
          "warps per block are not the threads' warps", Case);
  require(Blocks <= Arch.MaxBlocksPerSM, "more blocks than the SM's block slots", Case);
  require(std::uint64_t(Blocks) * R.WarpsPerBlock <= Arch.MaxWarpsPerSM &&
              R.ActiveWarpsPerSM == Blocks * R.WarpsPerBlock,
          "more warps than the SM holds", Case);
  require(R.ActiveThreadsPerSM == Blocks * K.ThreadsPerBlock &&
              R.ActiveThreadsPerSM <= Arch.MaxThreadsPerSM,
          "more threads than the SM holds", Case);
  require(R.Theoretical > 0 && R.Theoretical == double(R.ActiveWarpsPerSM) / Arch.MaxWarpsPerSM,
          "occupancy is not the active warps' share", Case);
  // What the resident blocks hold fits in the SM.
  require(std::uint64_t(Blocks) * R.AllocatedRegistersPerBlock <= Arch.RegistersPerSM,
          "the blocks hold more registers than the SM has", Case);
  require(R.AllocatedSharedBytesPerBlock >=
                  K.StaticSharedBytes + K.DynamicSharedBytes + Arch.ReservedSharedMemoryPerBlock &&
              Blocks * R.AllocatedSharedBytesPerBlock <= R.SharedBytesPerSM &&
              R.SharedBytesPerSM <= Arch.SharedMemoryPerSM,
          "the blocks hold more shared memory than the SM has", Case);
  const std::pair<OccupancyLimiter, unsigned> Limits[] = {
      {OccupancyLimiter::Warps, R.BlockLimitWarps},
      {OccupancyLimiter::Blocks, R.BlockLimitBlocks},
      {OccupancyLimiter::Registers, R.BlockLimitRegisters},
      {OccupancyLimiter::SharedMemory, R.BlockLimitSharedMemory},
      {OccupancyLimiter::Barriers, R.BlockLimitBarriers}};
  bool LimiterDecides = false;
  for (const auto &[Limiter, Limit] : Limits) {
    require(Limit >= Blocks, "a resource's limit is below the block count", Case);
    LimiterDecides |= Limiter == R.Limiter && Limit == Blocks;
  }
  require(LimiterDecides && R.limitedBy(R.Limiter), "the limiter does not decide the block count",
          Case);
  return R;
}

void checkRegisterSearch(const ArchSpec &Arch, const KernelResources &K, const OccupancyResult &R,
                         const std::string &Case) {
  unsigned Target = R.ActiveBlocksPerSM + 1;
  std::optional<unsigned> Most = maxRegistersForBlocks(Arch, K, Target);
  if (!Most) {
    require(occupancyWithRegisters(Arch, K, 1).ActiveBlocksPerSM < Target,
            "maxRegistersForBlocks finds nothing where 1 register reaches the target", Case);
    require(!adviseRegisters(Arch, K), "register advice without a register count", Case);
    return;
  }
  require(*Most <= Arch.MaxRegistersPerThread &&
              occupancyWithRegisters(Arch, K, *Most).ActiveBlocksPerSM >= Target,
          "maxRegistersForBlocks's count misses the target", Case);
  if (*Most < Arch.MaxRegistersPerThread)
    require(occupancyWithRegisters(Arch, K, *Most + 1).ActiveBlocksPerSM < Target,
            "one register more than maxRegistersForBlocks's count also reaches the target", Case);
  std::optional<RegisterAdvice> Advice = adviseRegisters(Arch, K);
  if (Advice)
    require(R.Limiter == OccupancyLimiter::Registers && Advice->TargetBlocks == Target &&
                Advice->MaxRegistersPerThread == *Most && *Most < K.RegistersPerThread &&
                Advice->AtTarget.ActiveBlocksPerSM >= Target,
            "register advice that does not follow", Case);
}

void checkSharedSearch(const ArchSpec &Arch, const KernelResources &K, const OccupancyResult &R,
                       const std::string &Case) {
  unsigned Target = std::max(1u, R.ActiveBlocksPerSM);
  std::optional<std::uint64_t> Most = maxDynamicSharedForBlocks(Arch, K, Target);
  KernelResources Trial = K;
  if (!Most) {
    Trial.DynamicSharedBytes = 0;
    require(computeOccupancy(Arch, Trial).ActiveBlocksPerSM < Target,
            "maxDynamicSharedForBlocks finds nothing where 0 bytes reach the target", Case);
    return;
  }
  Trial.DynamicSharedBytes = *Most;
  require(computeOccupancy(Arch, Trial).ActiveBlocksPerSM >= Target,
          "maxDynamicSharedForBlocks's size misses the target", Case);
  // Nothing above the answer may reach the target: not one byte more
  // (the cap of cudaFuncAttributeMaxDynamicSharedMemorySize, when it ends
  // inside an allocation unit, is itself the answer).
  Trial.DynamicSharedBytes = *Most + 1;
  require(computeOccupancy(Arch, Trial).ActiveBlocksPerSM < Target,
          "more than maxDynamicSharedForBlocks's size also reaches the target", Case);
}

void checkBlockSize(const ArchSpec &Arch, KernelResources K, std::uint64_t DynamicPerThread,
                    unsigned MaxBlockSize, const std::string &Case) {
  BlockSizeSuggestion Suggested = suggestBlockSize(Arch, K, DynamicPerThread, MaxBlockSize);
  unsigned Largest = MaxBlockSize ? std::min(MaxBlockSize, Arch.MaxThreadsPerBlock)
                                  : Arch.MaxThreadsPerBlock;
  // The sizes tried: the largest allowed and every multiple of the warp
  // size below it. The suggestion has the most resident threads, and is the
  // largest size that has them.
  unsigned MostThreads = 0, LargestWithMost = 0;
  for (unsigned Size = Largest; Size > 0;
       Size = Size % Arch.WarpSize ? Size / Arch.WarpSize * Arch.WarpSize : Size - Arch.WarpSize) {
    K.ThreadsPerBlock = Size;
    if (DynamicPerThread)
      K.DynamicSharedBytes = DynamicPerThread * Size;
    unsigned Threads = checkedOccupancy(Arch, K).ActiveBlocksPerSM * Size;
    if (Threads > MostThreads) {
      MostThreads = Threads;
      LargestWithMost = Size;
    }
  }
  std::string Detail = Case + "; per thread " + std::to_string(DynamicPerThread) + ", at most " +
                       std::to_string(MaxBlockSize) + " threads";
  require(Suggested.BlockSize == LargestWithMost &&
              Suggested.ActiveBlocksPerSM * Suggested.BlockSize == MostThreads,
          "suggestBlockSize's size is not the largest with the most resident threads", Detail);
  if (!Suggested.BlockSize)
    return;
  require(Suggested.BlockSize <= Largest &&
              (Suggested.BlockSize % Arch.WarpSize == 0 || Suggested.BlockSize == Largest),
          "suggestBlockSize's size is above the limit or not a whole number of warps", Detail);
  require(Suggested.Occupancy.ActiveBlocksPerSM == Suggested.ActiveBlocksPerSM,
          "suggestBlockSize's occupancy is not its size's", Detail);
}

void checkLaunches(ByteReader &In) {
  const std::vector<ArchSpec> &All = archs();
  const ArchSpec &Arch = All[In.byte() % All.size()];
  std::uint8_t Searches = In.byte();
  KernelResources K;
  K.RegistersPerThread = In.byte();
  K.ThreadsPerBlock = In.number(2) % 1024 + 1;
  K.StaticSharedBytes = In.number(2);
  K.DynamicSharedBytes = In.number(3) % (256 * 1024);
  std::uint8_t Carveout = In.byte();
  if (Carveout <= 100)
    K.CarveoutPercent = Carveout;
  else if (Carveout == 101)
    K.CarveoutPercent = -1;
  else if (Carveout == 102)
    K.CarveoutPercent = 150;
  bool HasMaxDynamic = In.byte() & 1;
  std::uint32_t MaxDynamic = In.number(3) % (256 * 1024);
  if (HasMaxDynamic)
    K.MaxDynamicSharedBytes = MaxDynamic;
  K.BarriersPerBlock = In.byte() % 18;
  unsigned MoreRegisters = In.byte() + 1u;
  unsigned MoreStatic = In.number(2) + 1u, MoreDynamic = In.number(2) + 1u;
  unsigned MoreBarriers = In.byte() % 4 + 1u;
  std::uint8_t PerThread = In.byte();
  std::uint64_t DynamicPerThread = PerThread < 128 ? 0 : PerThread - 128u;
  unsigned MaxBlockSize = In.number(2) % 1200;

  std::string Case = describe(Arch, K);
  OccupancyResult R = checkedOccupancy(Arch, K);
  // More of a resource never lets more blocks in.
  auto NoMoreBlocks = [&](const KernelResources &More, const char *What) {
    require(checkedOccupancy(Arch, More).ActiveBlocksPerSM <= R.ActiveBlocksPerSM, What,
            Case + " -> " + describe(Arch, More));
  };
  KernelResources More = K;
  More.RegistersPerThread += MoreRegisters;
  NoMoreBlocks(More, "more registers let more blocks in");
  More = K;
  More.StaticSharedBytes += MoreStatic;
  NoMoreBlocks(More, "more static shared memory lets more blocks in");
  More = K;
  More.DynamicSharedBytes += MoreDynamic;
  NoMoreBlocks(More, "more dynamic shared memory lets more blocks in");
  More = K;
  More.BarriersPerBlock += MoreBarriers;
  NoMoreBlocks(More, "more barriers let more blocks in");
  // A carveout preference can only lower the shared memory an SM gives:
  // without one, the SM gives its largest.
  if (K.CarveoutPercent && *K.CarveoutPercent <= 100) {
    KernelResources Unset = K;
    Unset.CarveoutPercent.reset();
    require(checkedOccupancy(Arch, Unset).ActiveBlocksPerSM >= R.ActiveBlocksPerSM,
            "a carveout preference lets more blocks in than none", Case);
  }
  if (Searches & 1)
    checkRegisterSearch(Arch, K, R, Case);
  if (Searches & 2)
    checkSharedSearch(Arch, K, R, Case);
  checkBlockSize(Arch, K, DynamicPerThread, MaxBlockSize, Case);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data, std::size_t Size) {
  ByteReader In(Data, Size);
  checkRequests(In);
  checkLaunches(In);
  return 0;
}
