//===- Simulation.cpp - one launch simulated, its accesses totalled -------===//

#include "Simulation.h"

#include "warpcheck/model/GlobalMemory.h"
#include "warpcheck/model/SharedMemory.h"

#include <algorithm>

using namespace clang;

namespace warpcheck::analysis {

namespace {

class Aggregator {
public:
  explicit Aggregator(const model::SharedMemoryGeometry &G) : Geometry(G) {}

  void add(const RecordedRequest &R) {
    SiteTotals &T = Sites[{R.Site.Expr, R.Site.Op}];
    if (T.Requests == 0 && T.UnknownRequests == 0)
      T.Site = R.Site;
    T.Site.BytesPerLane = std::max(T.Site.BytesPerLane, R.Site.BytesPerLane);
    if (R.Site.SharedVar)
      T.Site.SharedVar = R.Site.SharedVar;
    T.Uncertain |= R.UnderUncertainMask;
    T.StructCopy |= R.StructCopy;
    if (!R.Addresses) {
      fold(T.AddressDigest, ~std::uint64_t(0));
      ++T.UnknownRequests;
      return;
    }
    fold(T.AddressDigest, R.Addresses->activeMask());
    fold(T.AddressDigest, R.Addresses->bytesPerLane());
    for (unsigned L = 0; L < model::WarpSize; ++L)
      if (R.Addresses->isActive(L))
        fold(T.AddressDigest, R.Addresses->address(L));
    ++T.Requests;
    if (R.Site.Space == MemorySpace::Shared) {
      model::SharedAccessKind Kind = R.Site.Op == AccessOp::Load    ? model::SharedAccessKind::Load
                                     : R.Site.Op == AccessOp::Store ? model::SharedAccessKind::Store
                                                                    : model::SharedAccessKind::Atomic;
      const model::SharedRequestCost &C = sharedCost(*R.Addresses, Kind);
      T.Wavefronts += C.Wavefronts;
      T.IdealWavefronts += C.IdealWavefronts;
      if (keepIfWorst(T, double(C.Wavefronts) - C.IdealWavefronts, *R.Addresses))
        T.WorstShared = C;
    } else {
      // An atomic the compiler aggregates is one lane's request (cheap, not
      // cached); any other is costed per shape.
      bool Aggregated = R.Site.Op == AccessOp::Atomic &&
                        model::isAggregatedRequest(*R.Addresses, R.Site.Atomic);
      T.AggregatedRequests += Aggregated;
      const model::GlobalRequestCost &C =
          Aggregated ? (OneLane = model::computeAtomicRequestCost(*R.Addresses, R.Site.Atomic))
                     : globalCost(*R.Addresses, R.Site.Op == AccessOp::Atomic
                                                    ? model::GlobalAccessKind::Atomic
                                                    : model::GlobalAccessKind::LoadOrStore);
      T.Sectors += C.Sectors;
      T.IdealSectors += C.IdealSectors;
      T.Lines += C.Lines;
      T.IdealLines += C.IdealLines;
      if (keepIfWorst(T, double(C.Sectors) - C.IdealSectors, *R.Addresses))
        T.WorstGlobal = C;
    }
  }

  std::map<SiteKey, SiteTotals> Sites;

private:
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

/// Blocks to simulate: all when the launch is small, else evenly spaced ones
/// including the first and the last.
std::vector<std::uint64_t> chooseBlocks(std::uint64_t TotalBlocks,
                                        unsigned WarpsPerBlock, unsigned MaxWarps) {
  std::vector<std::uint64_t> Blocks;
  std::uint64_t Budget = std::max<std::uint64_t>(1, MaxWarps / std::max(1u, WarpsPerBlock));
  if (TotalBlocks <= Budget) {
    for (std::uint64_t B = 0; B < TotalBlocks; ++B)
      Blocks.push_back(B);
    return Blocks;
  }
  if (Budget == 1)
    return {0};
  for (std::uint64_t K = 0; K < Budget; ++K) {
    std::uint64_t B = static_cast<std::uint64_t>(
        (static_cast<unsigned __int128>(K) * (TotalBlocks - 1) + (Budget - 1) / 2) /
        (Budget - 1));
    if (Blocks.empty() || Blocks.back() != B)
      Blocks.push_back(B);
  }
  return Blocks;
}

/// Warps of one block to simulate: all of them, or evenly spaced ones with
/// the first and the last when a block alone has more than MaxWarps.
std::vector<unsigned> chooseWarps(std::uint64_t WarpsPerBlock, unsigned MaxWarps) {
  std::vector<unsigned> Warps;
  for (std::uint64_t B : chooseBlocks(WarpsPerBlock, 1, std::max(1u, MaxWarps)))
    Warps.push_back(static_cast<unsigned>(B));
  return Warps;
}

/// Lane-steps all the warps of one launch may take in one simulation. A
/// warp alone may take InterpreterLimits::MaxSteps; kernels whose warps
/// each need many (unrolled loops, nested loops bounded by sampled
/// parameters, each cut at MaxLoopIterations) are simulated on fewer
/// blocks, evenly spread with the first and the last, so that the analysis
/// of a unit stays in proportion to its parsing (the interpreter runs about
/// 400 million lane-steps a second; parsing a CUDA unit takes 0.5 s or
/// more: bench/analysis_overhead.py). Every warp of the first block is
/// always simulated, up to LaunchStepLimit.
constexpr std::uint64_t LaunchStepBudget = 2'000'000;
/// Where the simulation of a launch stops even inside its first block.
constexpr std::uint64_t LaunchStepLimit = 8 * LaunchStepBudget;

} // namespace

AccessCost costOf(const SiteTotals &T) {
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
  WarpInterpreter Interp(Kernel->getASTContext(), Launch, Samples, Limits, Layouts,
                         [&Agg](const RecordedRequest &Req) { Agg.add(Req); });
  Dim3 Grid = Launch.GridKnown ? Launch.Grid : Samples.AssumedGrid;
  std::uint64_t TotalBlocks = std::max<std::uint64_t>(1, saturatingCount(Grid));
  std::uint64_t WarpsPerBlock = std::max<std::uint64_t>(
      1, (saturatingCount(Launch.Block) + model::WarpSize - 1) / model::WarpSize);
  unsigned MaxWarps = std::max(1u, Options.MaxSimulatedWarps);
  std::vector<unsigned> Warps =
      FixedPlan ? FixedPlan->Warps : chooseWarps(WarpsPerBlock, MaxWarps);
  std::vector<std::uint64_t> Blocks =
      FixedPlan ? FixedPlan->Blocks
                : chooseBlocks(TotalBlocks, static_cast<unsigned>(Warps.size()), MaxWarps);
  Out.Plan.Warps = Warps;
  std::uint64_t Steps = 0;
  std::size_t Planned = Blocks.size() * Warps.size();
  bool Reduced = false, Cut = false;
  for (std::size_t I = 0; I < Blocks.size(); ++I) {
    std::uint64_t B = Blocks[I];
    Out.Plan.Blocks.push_back(B);
    WarpPosition Where;
    Where.BlockIdx.X = static_cast<std::uint32_t>(B % Grid.X);
    Where.BlockIdx.Y = static_cast<std::uint32_t>((B / Grid.X) % Grid.Y);
    Where.BlockIdx.Z = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(B / (std::uint64_t(Grid.X) * Grid.Y), Grid.Z - 1));
    for (unsigned W : Warps) {
      Where.WarpInBlock = W;
      Interp.runWarp(Kernel, Where);
      Steps += Interp.stepsOfLastWarp();
      ++Out.SimulatedWarps;
      if (Steps > LaunchStepLimit) {
        Cut = true;
        break;
      }
    }
    if (Cut)
      break;
    if (I == 0 && Blocks.size() > 1 && Steps > 0 && !FixedPlan) {
      // What the first block cost says how many blocks the budget allows;
      // they are spread over the grid again (block 0 is always the first).
      // At least the first and the last block: a partial last block (an
      // `if (i < n)` tail) is where a grid's warps differ most.
      std::uint64_t Affordable = std::max<std::uint64_t>(2, LaunchStepBudget / Steps);
      if (Affordable < Blocks.size()) {
        Blocks = chooseBlocks(TotalBlocks, 1, static_cast<unsigned>(Affordable));
        Reduced = true;
      }
    }
  }
  Out.Sites = std::move(Agg.Sites);
  Out.Steps = Steps;
  Out.TotalWarps = TotalBlocks * WarpsPerBlock;
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
  return Out;
}

} // namespace warpcheck::analysis
