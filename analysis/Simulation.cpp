//===- Simulation.cpp - one launch simulated, its accesses totalled -------===//

#include "Simulation.h"
#include "EmittedInstructions.h"
#include "LoadReuse.h"
#include "RegisterPromotion.h"
#include "UnrolledMerges.h"

#include "warpcheck/model/GlobalMemory.h"
#include "warpcheck/model/SharedMemory.h"

#include <algorithm>
#include <set>
#include <unordered_set>

using namespace clang;

namespace warpcheck::analysis {

namespace {

class Aggregator {
public:
  explicit Aggregator(const model::SharedMemoryGeometry &G) : Geometry(G) {}

  /// The warp being simulated, and whether its block is the first one.
  unsigned Warp = 0;
  bool InFirstBlock = false;

  /// Without a listing: the accesses nvcc keeps in a register across
  /// their loop (RegisterPromotion.h), and the addresses each had in the
  /// warp being simulated (the last only, unless its repeats are removed).
  std::map<std::pair<const Expr *, AccessOp>, KeptAccess> Kept;
  std::map<std::pair<const Expr *, AccessOp>, std::vector<model::WarpAddressSet>> EarlierKept;
  /// Without a listing: the loads nvcc takes from an earlier access's
  /// register (LoadReuse.h), and the addresses each such earlier access had
  /// when the warp being simulated last made it.
  std::map<const Expr *, ReusedValue> Reused;
  std::set<const Expr *> ReusedSources, HoistedSources;
  std::map<const Expr *, model::WarpAddressSet> LastOfSource;
  /// A hoisted access's execution waiting for the later read it serves.
  std::map<const Expr *, RecordedRequest> Pending;

  void add(const RecordedRequest &R) {
    record(R);
    costAsExecuted(R);
  }

  /// Costs R as the model of the compiler executes it (kept in a register,
  /// or a request of its own); R was recorded already.
  void costAsExecuted(const RecordedRequest &R) {
    if (!R.Addresses) {
      if (conflictFree(R) || R.OneLane) {
        // Whatever the offsets, the ideal: costed as one lane's request
        // (1 wavefront, ideal 1, with passes of a whole warp; one lane's
        // element, naturally aligned, is in one 32-byte sector).
        SiteTotals &T = Sites[{R.Site.Expr, R.Site.Op}];
        if (R.OneLane) {
          ++T.OneLaneRequests;
        } else {
          ++T.FootprintRequests;
          T.FootprintBytes = std::max(T.FootprintBytes, R.FootprintBytes);
        }
        model::WarpAddressSet OneLane(R.Site.BytesPerLane);
        OneLane.setLane(0, 0);
        cost(T, R, OneLane);
      }
      return;
    }
    SiteTotals &T = Sites[{R.Site.Expr, R.Site.Op}];
    if (servedByEarlierAccess(R, T))
      return;
    if (HoistedSources.count(R.Site.Expr)) {
      flushPending(R.Site.Expr);
      Pending.insert_or_assign(R.Site.Expr, R);
      return;
    }
    costOwn(R, T);
  }

  /// Costs R as a request of its own, unless the register its loop keeps
  /// serves it.
  void costOwn(const RecordedRequest &R, SiteTotals &T) {
    auto K = Kept.find({R.Site.Expr, R.Site.Op});
    if (K != Kept.end()) {
      // An execution with the addresses of the access's previous one in
      // this warp (of any earlier one, in a nest unrolled completely) is
      // served by the register, also when fewer lanes make it: the
      // register holds each lane's value since the earlier execution (a
      // loop whose lanes leave it at different iterations, llm.c's
      // `for (t2 = 0; t2 <= t; t2++)` with t per lane).
      std::vector<model::WarpAddressSet> &Earlier = EarlierKept[K->first];
      bool Served = K->second.RepeatsRemoved
                        ? std::any_of(Earlier.begin(), Earlier.end(),
                                      [&](const model::WarpAddressSet &A) {
                                        return R.Addresses->servedBy(A);
                                      })
                        : !Earlier.empty() && R.Addresses->servedBy(Earlier.back());
      if (Served) {
        ++T.KeptInRegister;
        T.HoistedBefore = K->second.HoistedBefore;
        T.HoistedLine = K->second.HoistedLine;
        T.ScheduledAfter = K->second.ScheduledAfter;
        T.RepeatsRemoved |= K->second.RepeatsRemoved;
        return;
      }
      if (!K->second.RepeatsRemoved)
        Earlier.clear();
      Earlier.push_back(*R.Addresses);
    }
    cost(T, R, *R.Addresses);
  }

  /// Whether R is a load whose value the register of an earlier access of
  /// its element gives (LoadReuse.h): as the warp last made that access,
  /// with the same address for each lane of R; or, the earlier access
  /// hoisted, its execution still waiting for R (same addresses on the
  /// lanes both have), then made as one request of both lanes, on the
  /// earlier access's site. Notes R's addresses when a later load may take
  /// its value.
  bool servedByEarlierAccess(const RecordedRequest &R, SiteTotals &T) {
    bool Served = false;
    if (auto It = R.Site.Op == AccessOp::Load ? Reused.find(R.Site.Expr) : Reused.end();
        It != Reused.end()) {
      const ReusedValue &V = It->second;
      if (V.Hoisted) {
        auto P = Pending.find(V.Earlier);
        if (P != Pending.end() && agreeOnCommonLanes(*P->second.Addresses, *R.Addresses)) {
          model::WarpAddressSet Both = *R.Addresses;
          const model::WarpAddressSet &Earlier = *P->second.Addresses;
          for (unsigned L = 0; L < model::WarpSize; ++L)
            if (Earlier.isActive(L) && !Both.isActive(L))
              Both.setLane(L, Earlier.address(L));
          RecordedRequest Made = std::move(P->second);
          Pending.erase(P);
          SiteTotals &Site = Sites[{Made.Site.Expr, Made.Site.Op}];
          cost(Site, Made, Both);
          Site.HoistedFor = R.Site.Expr;
          Served = true;
        }
      } else if (auto Last = LastOfSource.find(V.Earlier); Last != LastOfSource.end()) {
        Served = R.Addresses->servedBy(Last->second);
      }
      if (Served) {
        ++T.ReusedEarlier;
        T.ReusedFrom = V.Earlier;
        T.ReusedHoisted = V.Hoisted;
      }
    }
    if (ReusedSources.count(R.Site.Expr))
      LastOfSource.insert_or_assign(R.Site.Expr, *R.Addresses);
    return Served;
  }

  static bool agreeOnCommonLanes(const model::WarpAddressSet &A, const model::WarpAddressSet &B) {
    if (A.bytesPerLane() != B.bytesPerLane())
      return false;
    for (unsigned L = 0; L < model::WarpSize; ++L)
      if (A.isActive(L) && B.isActive(L) && A.address(L) != B.address(L))
        return false;
    return true;
  }

  /// Costs the waiting execution of the hoisted access E as it was made
  /// (no later read of its element came).
  void flushPending(const Expr *E) {
    auto P = Pending.find(E);
    if (P == Pending.end())
      return;
    RecordedRequest Made = std::move(P->second);
    Pending.erase(P);
    costOwn(Made, Sites[{Made.Site.Expr, Made.Site.Op}]);
  }

  void flushAllPending() {
    while (!Pending.empty())
      flushPending(Pending.begin()->first);
  }

  /// A shared load or store with unknown offsets into a variable too small
  /// to hold two words in one bank.
  bool conflictFree(const RecordedRequest &R) const {
    return R.Site.Space == MemorySpace::Shared && R.Site.Op != AccessOp::Atomic &&
           model::isConflictFreeFootprint(R.FootprintBytes, R.Site.BytesPerLane, Geometry);
  }

  /// A new warp: nothing is in its registers.
  void startWarp() {
    flushAllPending();
    EarlierKept.clear();
    LastOfSource.clear();
  }

  /// What every request says of its site, whichever instruction serves it:
  /// its shape, flags and addresses (the digest the value sweep compares).
  void record(const RecordedRequest &R) {
    SiteTotals &T = Sites[{R.Site.Expr, R.Site.Op}];
    if (R.Addresses)
      T.LaneAccesses += R.Addresses->activeLanes();
    if (T.Requests == 0 && T.UnknownRequests == 0 && !T.Site.Expr)
      T.Site = R.Site;
    T.Site.BytesPerLane = std::max(T.Site.BytesPerLane, R.Site.BytesPerLane);
    if (R.Site.SharedVar)
      T.Site.SharedVar = R.Site.SharedVar;
    T.Uncertain |= R.UnderUncertainMask;
    T.StructCopy |= R.StructCopy;
    T.PartialStructCopy |= R.StructCopy && !R.MemoryToMemory;
    if (!R.Addresses) {
      fold(T.AddressDigest, ~std::uint64_t(0));
      if (!conflictFree(R) && !R.OneLane)
        ++T.UnknownRequests;
      return;
    }
    fold(T.AddressDigest, R.Addresses->activeMask());
    fold(T.AddressDigest, R.Addresses->bytesPerLane());
    for (unsigned L = 0; L < model::WarpSize; ++L)
      if (R.Addresses->isActive(L))
        fold(T.AddressDigest, R.Addresses->address(L));
    // Reuse is a property of the elements the source reads, whichever
    // instruction reads them.
    if (InFirstBlock && R.Site.Space != MemorySpace::Shared && R.Site.Op == AccessOp::Load)
      noteBlockReads(R.Site.Expr, *R.Addresses);
  }

  /// One request an instruction makes (EmittedInstructions.h), counted
  /// with its first access.
  void addEmitted(const EmittedRequest &E) {
    const RecordedRequest &R = *E.Leader;
    SiteTotals &T = Sites[{R.Site.Expr, R.Site.Op}];
    RequestCost C = cost(T, R, E.Addresses);
    // Not matched with an instruction: costed as written, listed nowhere.
    if (!E.Slot || E.Opcode.empty())
      return;
    std::vector<const Expr *> Serves;
    for (const RecordedRequest *M : E.Members)
      if (std::find(Serves.begin(), Serves.end(), M->Site.Expr) == Serves.end())
        Serves.push_back(M->Site.Expr);
    auto Totals = [&](SiteTotals &Site, const Expr *CountedWith) -> InstructionTotals & {
      for (InstructionTotals &I : Site.Instructions)
        if (I.Opcode == E.Opcode && I.BytesPerLane == E.Addresses.bytesPerLane() &&
            I.Line == E.Slot->Line && I.File == E.Slot->File && I.Merged == E.Merged &&
            I.Split == E.Split && I.Hoisted == E.Hoisted &&
            I.RepeatsRemoved == E.RepeatsRemoved && I.Serves == Serves &&
            I.CountedWith == CountedWith)
          return I;
      InstructionTotals &I = Site.Instructions.emplace_back();
      I.Opcode = E.Opcode;
      I.BytesPerLane = E.Addresses.bytesPerLane();
      I.File = E.Slot->File;
      I.Line = E.Slot->Line;
      I.OtherLines = E.Slot->OtherLines;
      I.Merged = E.Merged;
      I.Split = E.Split;
      I.Moved = E.Moved;
      I.Hoisted = E.Hoisted;
      I.RepeatsRemoved = E.RepeatsRemoved;
      I.Serves = Serves;
      I.CountedWith = CountedWith;
      return I;
    };
    InstructionTotals &Own = Totals(T, nullptr);
    addRequest(Own, C);
    for (const RecordedRequest *M : E.Members) {
      SiteKey Key{M->Site.Expr, M->Site.Op};
      if (M->Site.Expr == R.Site.Expr && M->Site.Op == R.Site.Op) {
        ++Own.ServedExecutions;
        continue;
      }
      SiteTotals &Other = Sites[Key];
      ++Other.ServedByOthers;
      ++Totals(Other, R.Site.Expr).ServedExecutions;
    }
  }

  /// An execution an earlier request of a hoisted instruction served, or
  /// a repeat removed after unrolling.
  void addServed(const RecordedRequest &R) {
    SiteTotals &T = Sites[{R.Site.Expr, R.Site.Op}];
    for (InstructionTotals &I : T.Instructions)
      if ((I.Hoisted || I.RepeatsRemoved) && !I.CountedWith) {
        ++I.ServedExecutions;
        return;
      }
  }

  std::map<SiteKey, SiteTotals> Sites;

  /// Sets each global load's FirstBlockReuse from the reads noted.
  void finishReuse() {
    for (auto &[Key, T] : Sites) {
      auto It = BlockReads.find(Key.E);
      if (It == BlockReads.end() || Key.Op != AccessOp::Load || It->second.Elements.empty())
        continue;
      T.FirstBlockReuse =
          double(It->second.ElementThreads.size()) / double(It->second.Elements.size());
      T.FirstBlockElementsPerThread =
          double(It->second.ElementThreads.size()) / double(It->second.Threads.size());
      T.FirstBlockSectorFetches =
          double(It->second.SectorFetches) / double(It->second.Sectors.size());
    }
  }

  /// Whether a global load of the first block had known addresses.
  bool readsInFirstBlock() const { return !BlockReads.empty(); }

  /// A global load's request in the first block, by warp W of it, that
  /// counts for the reuse only (completeFirstBlockReads).
  void noteReuseOnly(const RecordedRequest &R, unsigned W) {
    if (R.Addresses && R.Site.Space != MemorySpace::Shared && R.Site.Op == AccessOp::Load) {
      unsigned Saved = Warp;
      Warp = W;
      noteBlockReads(R.Site.Expr, *R.Addresses);
      Warp = Saved;
    }
  }

private:
  /// Which elements the threads of the first block read through a site.
  struct BlockReadSet {
    std::unordered_set<std::uint64_t> Elements;
    /// Element address x 1024 + the thread's index in the block (< 1024).
    std::unordered_set<std::uint64_t> ElementThreads;
    std::unordered_set<unsigned> Threads;
    /// The 32-byte sectors the requests fetch, each request's counted once,
    /// and the distinct ones among them.
    std::uint64_t SectorFetches = 0;
    std::unordered_set<std::uint64_t> Sectors;
  };
  std::map<const clang::Expr *, BlockReadSet> BlockReads;

  void noteBlockReads(const clang::Expr *Site, const model::WarpAddressSet &A) {
    BlockReadSet &Set = BlockReads[Site];
    std::unordered_set<std::uint64_t> RequestSectors;
    for (unsigned L = 0; L < model::WarpSize; ++L) {
      if (!A.isActive(L))
        continue;
      std::uint64_t Address = A.address(L);
      unsigned Thread = (Warp * model::WarpSize + L) % 1024;
      Set.Elements.insert(Address);
      Set.ElementThreads.insert(Address * 1024 + Thread);
      Set.Threads.insert(Thread);
      RequestSectors.insert(Address / model::GlobalMemoryGeometry().SectorBytes);
    }
    Set.SectorFetches += RequestSectors.size();
    Set.Sectors.insert(RequestSectors.begin(), RequestSectors.end());
  }

  struct RequestCost {
    double Sectors = 0, IdealSectors = 0, Lines = 0, IdealLines = 0;
    double Wavefronts = 0, IdealWavefronts = 0;
  };

  /// Costs the request R's site makes with the addresses A (R's own, or
  /// those of the instruction that serves it), into T.
  RequestCost cost(SiteTotals &T, const RecordedRequest &R, const model::WarpAddressSet &A) {
    RequestCost Out;
    ++T.Requests;
    if (R.Site.Space == MemorySpace::Shared) {
      // A shared atomic nvcc aggregates is one lane's, as in global memory
      // (measured on the H200: REDUX, then one ATOMS by an elected lane).
      bool Aggregated = R.Site.Op == AccessOp::Atomic &&
                        model::isAggregatedRequest(A, R.Site.Atomic);
      T.AggregatedRequests += Aggregated;
      model::SharedAccessKind Kind = R.Site.Op == AccessOp::Load    ? model::SharedAccessKind::Load
                                     : R.Site.Op == AccessOp::Store ? model::SharedAccessKind::Store
                                                                    : model::sharedAtomicKind(R.Site.Atomic);
      const model::SharedRequestCost &C =
          sharedCost(Aggregated ? model::leaderLaneRequest(A) : A, Kind);
      T.Wavefronts += C.Wavefronts;
      T.IdealWavefronts += C.IdealWavefronts;
      Out.Wavefronts = C.Wavefronts;
      Out.IdealWavefronts = C.IdealWavefronts;
      if (keepIfWorst(T, double(C.Wavefronts) - C.IdealWavefronts, A))
        T.WorstShared = C;
    } else {
      // An atomic the compiler aggregates is one lane's request (cheap, not
      // cached); any other is costed per shape.
      bool Aggregated = R.Site.Op == AccessOp::Atomic &&
                        model::isAggregatedRequest(A, R.Site.Atomic);
      T.AggregatedRequests += Aggregated;
      const model::GlobalRequestCost &C =
          Aggregated ? (OneLane = model::computeAtomicRequestCost(A, R.Site.Atomic))
                     : globalCost(A, R.Site.Op == AccessOp::Atomic
                                         ? model::GlobalAccessKind::Atomic
                                         : model::GlobalAccessKind::LoadOrStore);
      T.Sectors += C.Sectors;
      T.IdealSectors += C.IdealSectors;
      T.Lines += C.Lines;
      T.IdealLines += C.IdealLines;
      Out.Sectors = C.Sectors;
      Out.IdealSectors = C.IdealSectors;
      Out.Lines = C.Lines;
      Out.IdealLines = C.IdealLines;
      if (keepIfWorst(T, double(C.Sectors) - C.IdealSectors, A))
        T.WorstGlobal = C;
    }
    for (const CallExpr *Call : R.CallSites)
      addRequest(T.ByCallSite[Call], Out);
    return Out;
  }

  /// Counts one request of cost C in the totals of an instruction or of a
  /// call site.
  template <typename Totals> static void addRequest(Totals &T, const RequestCost &C) {
    ++T.Requests;
    T.Sectors += C.Sectors;
    T.IdealSectors += C.IdealSectors;
    T.Lines += C.Lines;
    T.IdealLines += C.IdealLines;
    T.Wavefronts += C.Wavefronts;
    T.IdealWavefronts += C.IdealWavefronts;
  }

  /// Keeps the request as the site's worst (for messages: its lanes, banks
  /// and sectors) when it wastes more than any before it.
  static bool keepIfWorst(SiteTotals &T, double Waste, const model::WarpAddressSet &A) {
    if (Waste <= T.WorstScore)
      return false;
    T.WorstScore = Waste;
    T.Worst = A;
    return true;
  }

  /// FNV-1a over the 8 bytes of V.
  static void fold(std::uint64_t &Digest, std::uint64_t V) {
    if (Digest == 0)
      Digest = 1469598103934665603ULL;
    for (unsigned I = 0; I < 8; ++I) {
      Digest ^= (V >> (8 * I)) & 0xff;
      Digest *= 1099511628211ULL;
    }
  }

  /// The costs depend on the addresses only up to a shift by a multiple of
  /// 4096 bytes (a multiple of every sector, line and bank row), and loops
  /// repeat the same request shapes: they are computed once per shape.
  static std::string shapeKey(const model::WarpAddressSet &S, int Kind) {
    std::uint64_t Base = ~std::uint64_t(0);
    for (unsigned L = 0; L < model::WarpSize; ++L)
      if (S.isActive(L))
        Base = std::min(Base, S.address(L));
    Base &= ~std::uint64_t(4095);
    std::string Key;
    Key.reserve(12 + 8 * model::WarpSize);
    auto Put = [&Key](std::uint64_t V, unsigned Bytes) {
      for (unsigned I = 0; I < Bytes; ++I)
        Key.push_back(static_cast<char>((V >> (8 * I)) & 0xff));
    };
    Put(S.activeMask(), 4);
    Put(S.bytesPerLane(), 4);
    Put(static_cast<std::uint64_t>(Kind), 1);
    for (unsigned L = 0; L < model::WarpSize; ++L)
      if (S.isActive(L))
        Put(S.address(L) - Base, 8);
    return Key;
  }
  static constexpr std::size_t MaxCachedShapes = 1 << 16;

  const model::SharedRequestCost &sharedCost(const model::WarpAddressSet &S,
                                             model::SharedAccessKind Kind) {
    std::string Key = shapeKey(S, static_cast<int>(Kind));
    auto It = SharedCosts.find(Key);
    if (It != SharedCosts.end())
      return It->second;
    if (SharedCosts.size() >= MaxCachedShapes)
      SharedCosts.clear();
    return SharedCosts[Key] = model::computeSharedRequestCost(S, Geometry, Kind);
  }
  const model::GlobalRequestCost &globalCost(const model::WarpAddressSet &S,
                                             model::GlobalAccessKind Kind) {
    std::string Key = shapeKey(S, 16 + static_cast<int>(Kind));
    auto It = GlobalCosts.find(Key);
    if (It != GlobalCosts.end())
      return It->second;
    if (GlobalCosts.size() >= MaxCachedShapes)
      GlobalCosts.clear();
    return GlobalCosts[Key] = model::computeGlobalRequestCost(S, {}, Kind);
  }

  const model::SharedMemoryGeometry &Geometry;
  model::GlobalRequestCost OneLane;
  std::unordered_map<std::string, model::SharedRequestCost> SharedCosts;
  std::unordered_map<std::string, model::GlobalRequestCost> GlobalCosts;
};

/// Runs the warps of the first block that Plan leaves out, for the reuse
/// of global loads only (how many threads of a block read each element is
/// a property of the whole block: MissedDataReuseCheck), on an interpreter
/// of their own so that nothing else of theirs is counted. Returns the
/// lane-steps taken, stopping past Limit.
std::uint64_t completeFirstBlockReads(const FunctionDecl *Kernel, const LaunchConfig &Launch,
                                      const SampleValues &Samples,
                                      const InterpreterLimits &Limits,
                                      const std::map<const VarDecl *, ArrayLayout> &Layouts,
                                      const SimulationPlan &Plan, unsigned WarpsPerBlock,
                                      WarpPosition Where, std::uint64_t Limit,
                                      Aggregator &Agg) {
  unsigned Current = 0;
  WarpInterpreter Reads(Kernel->getASTContext(), Launch, Samples, Limits, Layouts,
                        [&](const RecordedRequest &R) { Agg.noteReuseOnly(R, Current); });
  std::uint64_t Steps = 0;
  const std::vector<unsigned> &Done = Plan.Warps.front();
  for (unsigned W = 0; W < WarpsPerBlock && Steps <= Limit; ++W) {
    if (std::binary_search(Done.begin(), Done.end(), W))
      continue;
    Current = W;
    Where.WarpInBlock = W;
    Reads.runWarp(Kernel, Where);
    Steps += Reads.stepsOfLastWarp();
  }
  return Steps;
}

/// Lane-steps all the warps of one launch may take in one simulation. A
/// warp alone may take InterpreterLimits::MaxSteps; kernels whose warps
/// each need many (unrolled loops, nested loops bounded by sampled
/// parameters, each cut at MaxLoopIterations) are simulated on fewer
/// blocks, evenly spread with the first and the last, so that the analysis
/// of a unit stays in proportion to its parsing (the interpreter runs about
/// 400 million lane-steps a second; parsing a CUDA unit takes 0.5 s or
/// more: bench/analysis_overhead.py). The first block's planned warps are
/// always simulated, up to LaunchStepLimit.
constexpr std::uint64_t LaunchStepBudget = 2'000'000;
/// Where the simulation of a launch stops even inside its first block.
constexpr std::uint64_t LaunchStepLimit = 8 * LaunchStepBudget;

} // namespace

namespace {

/// Per-request averages of the sums of a site or of one of its instructions.
template <typename Totals> AccessCost perRequest(const Totals &T) {
  AccessCost C;
  C.Requests = T.Requests;
  if (T.Requests == 0)
    return C;
  double N = T.Requests;
  C.SectorsPerRequest = T.Sectors / N;
  C.IdealSectorsPerRequest = T.IdealSectors / N;
  C.LinesPerRequest = T.Lines / N;
  C.IdealLinesPerRequest = T.IdealLines / N;
  C.WavefrontsPerRequest = T.Wavefronts / N;
  C.IdealWavefrontsPerRequest = T.IdealWavefronts / N;
  return C;
}

} // namespace

AccessCost costOf(const InstructionTotals &T) { return perRequest(T); }

AccessCost costOf(const SiteTotals &T) { return perRequest(T); }

AccessCost costOf(const CallSiteTotals &T) { return perRequest(T); }

std::uint64_t saturatingCount(const Dim3 &D) {
  unsigned __int128 N = static_cast<unsigned __int128>(D.X) * D.Y * D.Z;
  constexpr std::uint64_t Max = std::uint64_t(1) << 56;
  return N > Max ? Max : static_cast<std::uint64_t>(N);
}

Simulation simulateLaunch(const FunctionDecl *Kernel, const LaunchConfig &Launch,
                          const SampleValues &Samples, const InterpreterLimits &Limits,
                          const std::map<const VarDecl *, ArrayLayout> &Layouts,
                          const AnalysisOptions &Options, const SimulationPlan *FixedPlan) {
  Simulation Out;
  Aggregator Agg(Options.SharedGeometry);
  // With the kernel's listing, each warp's requests are kept until every
  // access is known, then reshaped into the instructions' (and costed).
  std::optional<InstructionReconciler> Reconciler;
  std::vector<RecordedRequest> WarpRequests;
  // Without one, what the compiler does is predicted: values kept in a
  // register, unrolled iterations merged. With one, so are the accesses
  // the listing does not explain (EmittedInstructions.h), after it.
  UnrolledMergePredictor Merges(Kernel->getASTContext());
  if (Options.Instructions)
    Reconciler.emplace(*Options.Instructions, Kernel);
  Agg.Kept = accessesKeptInRegisters(Kernel);
  Agg.Reused = loadsReusingEarlierValues(Kernel);
  for (const auto &[Load, Value] : Agg.Reused)
    (Value.Hoisted ? Agg.HoistedSources : Agg.ReusedSources).insert(Value.Earlier);
  WarpInterpreter Interp(Kernel->getASTContext(), Launch, Samples, Limits, Layouts,
                         [&](const RecordedRequest &Req) {
                           if (!Reconciler)
                             return Merges.add(
                                 Req, [&Agg](const RecordedRequest &R) { Agg.add(R); },
                                 [&Agg](const RecordedRequest &R) { Agg.record(R); });
                           Agg.record(Req);
                           WarpRequests.push_back(Req);
                         });
  Dim3 Grid = Launch.GridKnown ? Launch.Grid : Samples.AssumedGrid;
  std::uint64_t TotalBlocks = std::max<std::uint64_t>(1, saturatingCount(Grid));
  unsigned WarpsPerBlock = static_cast<unsigned>(std::clamp<std::uint64_t>(
      (saturatingCount(Launch.Block) + model::WarpSize - 1) / model::WarpSize, 1, 1u << 26));
  unsigned MaxWarps = std::max(1u, Options.MaxSimulatedWarps);
  SimulationPlan Plan =
      FixedPlan ? *FixedPlan : representativePlan(TotalBlocks, WarpsPerBlock, MaxWarps);
  std::uint64_t Steps = 0;
  std::size_t Planned = Plan.warpCount();
  bool Reduced = false, Cut = false;
  auto PositionOf = [&Grid](std::uint64_t B) {
    WarpPosition Where;
    Where.BlockIdx.X = static_cast<std::uint32_t>(B % Grid.X);
    Where.BlockIdx.Y = static_cast<std::uint32_t>((B / Grid.X) % Grid.Y);
    Where.BlockIdx.Z = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(B / (std::uint64_t(Grid.X) * Grid.Y), Grid.Z - 1));
    return Where;
  };
  for (std::size_t I = 0; I < Plan.Blocks.size(); ++I) {
    std::uint64_t B = Plan.Blocks[I];
    Out.Plan.Blocks.push_back(B);
    Out.Plan.Warps.emplace_back();
    WarpPosition Where = PositionOf(B);
    for (unsigned W : Plan.Warps[I]) {
      Out.Plan.Warps.back().push_back(W);
      Where.WarpInBlock = W;
      Agg.Warp = W;
      Agg.InFirstBlock = I == 0;
      Agg.startWarp();
      Interp.runWarp(Kernel, Where);
      if (!Reconciler)
        Merges.finishWarp();
      Out.Flops += Interp.flopsOfLastWarp();
      if (Reconciler)
        Reconciler->addWarp(std::move(WarpRequests));
      WarpRequests.clear();
      Steps += Interp.stepsOfLastWarp();
      ++Out.SimulatedWarps;
      if (Steps > LaunchStepLimit) {
        Cut = true;
        break;
      }
    }
    if (Cut)
      break;
    if (I != 0 || FixedPlan)
      continue;
    std::uint64_t FirstBlockSteps = Steps;
    // A block has at most 1024 threads (CUDA C++ Programming Guide,
    // "Thread Hierarchy"): a launch asking for more fails, and its first
    // block is not completed warp by warp.
    if (!Plan.wholeBlock(0, WarpsPerBlock) && Agg.readsInFirstBlock() &&
        WarpsPerBlock <= 1024 / model::WarpSize)
      Steps += completeFirstBlockReads(Kernel, Launch, Samples, Limits, Layouts, Plan,
                                       WarpsPerBlock, PositionOf(B), LaunchStepLimit - Steps,
                                       Agg);
    if (Plan.Blocks.size() > 1 && FirstBlockSteps > 0) {
      // What the first block's warps cost says how many warps the budget
      // allows; they are planned again over the grid as a smaller budget
      // plans them (SimulationPlan.h: at least 16 blocks while 16 warps
      // fit, fewer warps of each), block 0 staying the first. At least the
      // first and the last block: a partial last block (an `if (i < n)`
      // tail) is where a grid's warps differ most.
      std::uint64_t PerWarp = std::max<std::uint64_t>(1, FirstBlockSteps / Plan.Warps[0].size());
      std::uint64_t Affordable = std::max<std::uint64_t>(2, LaunchStepBudget / PerWarp);
      if (Affordable < Plan.warpCount()) {
        Plan = representativePlan(TotalBlocks, WarpsPerBlock,
                                  static_cast<unsigned>(std::min<std::uint64_t>(Affordable, MaxWarps)));
        Reduced = true;
      }
    }
  }
  Agg.flushAllPending();
  Agg.finishReuse();
  if (Reconciler) {
    // The requests the listing does not explain, warp by warp as the
    // simulation made them, through the model (recorded already).
    size_t UnexplainedWarp = 0;
    Reconciler->finish(
        [&Agg](const EmittedRequest &E) { Agg.addEmitted(E); },
        [&Agg](const RecordedRequest &R) { Agg.addServed(R); },
        [&](const RecordedRequest &R, size_t W) {
          if (W != UnexplainedWarp) {
            Merges.finishWarp();
            Agg.startWarp();
            UnexplainedWarp = W;
          }
          Merges.add(
              R, [&Agg](const RecordedRequest &Q) { Agg.costAsExecuted(Q); },
              [](const RecordedRequest &) {});
        });
    Merges.finishWarp();
    Agg.flushAllPending();
    for (auto &[Key, T] : Agg.Sites) {
      auto Plan = Reconciler->plans().find({Key.E, Key.Op});
      if (Plan == Reconciler->plans().end() || Plan->second.Unlisted)
        continue;
      if (!Plan->second.Slot) {
        // Costed by the model: a prediction, with what the listing did
        // not explain.
        T.Unmatched = Plan->second.Unmatched;
        continue;
      }
      T.FromListing = true;
      T.CopyComplete = Reconciler->complete({Key.E, Key.Op});
      T.HoistedOutOf = Plan->second.HoistedOutOf;
      T.Unmatched = Plan->second.Unmatched;
      auto Why = Reconciler->mismatches().find({Key.E, Key.Op});
      if (T.Unmatched.empty() && Why != Reconciler->mismatches().end())
        T.Unmatched = Why->second;
    }
  }
  // The model's kept requests, as the instructions it predicts make them.
  Merges.finish([&Agg](const EmittedRequest &E) { Agg.addEmitted(E); });
  for (const auto &[Id, Kind] : Merges.mergedSites()) {
    SiteTotals &T = Agg.Sites[{Id.first, Id.second}];
    T.PredictedMerge = true;
    T.PredictedMergeKind = Kind;
  }
  for (const auto &Id : Merges.unalignedSites())
    Agg.Sites[{Id.first, Id.second}].MayMergeUnaligned = true;
  Out.Sites = std::move(Agg.Sites);
  Out.LoopFlops = Interp.flopsPerLoop();
  Out.Steps = Steps;
  Out.TotalWarps = TotalBlocks * WarpsPerBlock;
  Out.TotalBlocks = TotalBlocks;
  Out.SampledSymbols.assign(Interp.sampledSymbolsRead().begin(),
                            Interp.sampledSymbolsRead().end());
  Out.SweptReads = Interp.sweptReads();
  Out.Limitations.assign(Interp.limitations().begin(), Interp.limitations().end());
  if (Interp.stepBudgetExhausted()) {
    Out.StepBudgetExhausted = true;
    Out.BudgetCuts.push_back(WarpInterpreter::StepBudgetExhausted);
  }
  if (Reduced || Cut) {
    Out.Limitations.push_back(
        "the simulation budget of the launch allowed " +
        std::to_string(Out.SimulatedWarps) + " of the " + std::to_string(Planned) +
        " warps otherwise sampled; the numbers average those");
    Out.BudgetCuts.push_back(Out.Limitations.back());
  }
  Out.Captured = Interp.capturedSubexpressions();
  Out.TruncatedLoops = Interp.truncatedLoops();
  Out.BudgetTruncatedLoops = Interp.budgetTruncatedLoops();
  Out.UndefinedArithmetic = Interp.sawUndefinedArithmetic();
  Out.OutOfBoundsShared = Interp.sawOutOfBoundsShared();
  return Out;
}

} // namespace warpcheck::analysis
