//===- KernelAnalysis.cpp - simulate warps, cost every access -------------===//

#include "warpcheck/analysis/KernelAnalysis.h"
#include "interp/WarpInterpreter.h"

#include "warpcheck/model/GlobalMemory.h"
#include "warpcheck/model/SharedMemory.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <sstream>
#include <unordered_map>

using namespace clang;

namespace warpcheck::analysis {

const char *spaceName(MemorySpace S) {
  return S == MemorySpace::Shared ? "shared" : "global";
}
const char *opName(AccessOp Op) {
  switch (Op) {
  case AccessOp::Load:
    return "load";
  case AccessOp::Store:
    return "store";
  case AccessOp::Atomic:
    return "atomic";
  }
  return "load";
}
const char *statusName(AccessStatus S) {
  switch (S) {
  case AccessStatus::Exact:
    return "exact";
  case AccessStatus::Assumed:
    return "assumed";
  case AccessStatus::Unknown:
    return "unknown";
  }
  return "unknown";
}

double AccessCost::efficiency(MemorySpace Space) const {
  if (Space == MemorySpace::Shared)
    return WavefrontsPerRequest > 0 ? IdealWavefrontsPerRequest / WavefrontsPerRequest : 1.0;
  return SectorsPerRequest > 0 ? IdealSectorsPerRequest / SectorsPerRequest : 1.0;
}

std::string AnalysisOptions::fingerprint() const {
  std::ostringstream OS;
  OS << Defaults.Block.str() << '|' << SharedGeometry.Banks << ','
     << SharedGeometry.BankWidthBytes << ',' << SharedGeometry.LanesPerPass << '|'
     << MaxSimulatedWarps << '|' << MaxLoopIterations << '|' << LayoutOverrides;
  return OS.str();
}

bool isAnalysableKernel(const FunctionDecl *FD) {
  if (!FD || !FD->hasAttr<CUDAGlobalAttr>() || !FD->doesThisDeclarationHaveABody() ||
      FD->isDependentContext() || FD->isInvalidDecl())
    return false;
  // Library kernels (CUB, Thrust) are not the user's code: the report leaves
  // them out, and clang-tidy would not show a diagnostic in a system header,
  // but the checks matched them and simulated every one of them (seconds
  // for a unit that uses Thrust, and ptxas runs for the occupancy check).
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  return !SM.isInSystemHeader(SM.getFileLoc(FD->getLocation()));
}

std::string sourceText(const Expr *E, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // An expression written in a macro argument is quoted as written there;
  // one produced by a macro body, as the macro's use.
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM, Ctx.getLangOpts());
  if (Range.isInvalid())
    Range = CharSourceRange::getTokenRange(
        SM.getExpansionRange(E->getSourceRange()).getAsRange());
  bool Invalid = false;
  llvm::StringRef Text =
      Lexer::getSourceText(Range, SM, Ctx.getLangOpts(), &Invalid);
  if (Invalid)
    return "";
  // One line, single spaces: messages quote it.
  std::string Out;
  bool Space = false;
  for (char C : Text) {
    if (C == '\n' || C == '\r' || C == '\t' || C == ' ') {
      Space = !Out.empty();
      continue;
    }
    if (Space)
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

namespace {

struct SiteKey {
  const Expr *E;
  AccessOp Op;
  bool operator<(const SiteKey &O) const {
    return E != O.E ? E < O.E : static_cast<int>(Op) < static_cast<int>(O.Op);
  }
};

/// Running totals of one access site over the simulated warps.
struct SiteTotals {
  AccessSite Site;
  unsigned Requests = 0, UnknownRequests = 0, AggregatedRequests = 0;
  double Sectors = 0, IdealSectors = 0, Lines = 0, IdealLines = 0;
  double Wavefronts = 0, IdealWavefronts = 0;
  bool Uncertain = false, StructCopy = false;
  std::optional<model::WarpAddressSet> Worst;
  model::GlobalRequestCost WorstGlobal;
  model::SharedRequestCost WorstShared;
  double WorstScore = -1;
};

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
      ++T.UnknownRequests;
      return;
    }
    ++T.Requests;
    if (R.Site.Space == MemorySpace::Shared) {
      model::SharedAccessKind Kind = R.Site.Op == AccessOp::Load    ? model::SharedAccessKind::Load
                                     : R.Site.Op == AccessOp::Store ? model::SharedAccessKind::Store
                                                                    : model::SharedAccessKind::Atomic;
      const model::SharedRequestCost &C = sharedCost(*R.Addresses, Kind);
      T.Wavefronts += C.Wavefronts;
      T.IdealWavefronts += C.IdealWavefronts;
      double Score = double(C.Wavefronts) - C.IdealWavefronts;
      if (Score > T.WorstScore) {
        T.WorstScore = Score;
        T.Worst = *R.Addresses;
        T.WorstShared = C;
      }
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
      double Score = double(C.Sectors) - C.IdealSectors;
      if (Score > T.WorstScore) {
        T.WorstScore = Score;
        T.Worst = *R.Addresses;
        T.WorstGlobal = C;
      }
    }
  }

  std::map<SiteKey, SiteTotals> Sites;

private:
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

bool sameCost(const AccessCost &A, const AccessCost &B) {
  auto Eq = [](double X, double Y) { return std::fabs(X - Y) < 1e-9; };
  return Eq(A.SectorsPerRequest, B.SectorsPerRequest) &&
         Eq(A.LinesPerRequest, B.LinesPerRequest) &&
         Eq(A.WavefrontsPerRequest, B.WavefrontsPerRequest);
}

std::optional<std::int64_t> laneStride(const model::WarpAddressSet &S) {
  std::optional<std::int64_t> Stride;
  std::optional<std::uint64_t> Prev;
  for (unsigned L = 0; L < model::WarpSize; ++L) {
    if (!S.isActive(L))
      continue;
    if (Prev) {
      std::int64_t D = static_cast<std::int64_t>(S.address(L) - *Prev);
      if (Stride && *Stride != D)
        return std::nullopt;
      Stride = D;
    }
    Prev = S.address(L);
  }
  return Stride;
}

/// Finds `a * b` (or `a << b`) in an index where `a` differs between lanes
/// and `b` is the same for all of them and larger than one: the term that
/// puts consecutive lanes far apart.
std::string findSpreadingTerm(
    const Expr *E, const std::map<const Expr *, std::vector<std::int64_t>> &Values,
    const ASTContext &Ctx) {
  if (!E)
    return "";
  E = E->IgnoreParenImpCasts();
  auto Varies = [&](const Expr *X) -> std::optional<bool> {
    auto It = Values.find(X);
    if (It == Values.end()) {
      // Captured values are keyed by the expression as evaluated, which may
      // be the cast around it.
      for (const auto &[K, V] : Values)
        if (K->IgnoreParenImpCasts() == X->IgnoreParenImpCasts()) {
          It = Values.find(K);
          break;
        }
      if (It == Values.end())
        return std::nullopt;
    }
    const auto &V = It->second;
    for (std::int64_t I : V)
      if (I != V.front())
        return true;
    return false;
  };
  auto ValueOf = [&](const Expr *X) -> std::optional<std::int64_t> {
    for (const auto &[K, V] : Values)
      if (K->IgnoreParenImpCasts() == X->IgnoreParenImpCasts() && !V.empty())
        return V.front();
    return std::nullopt;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Mul || BO->getOpcode() == BO_Shl) {
      const Expr *L = BO->getLHS()->IgnoreParenImpCasts();
      const Expr *R = BO->getRHS()->IgnoreParenImpCasts();
      for (int Swap = 0; Swap < 2; ++Swap) {
        const Expr *V = Swap ? R : L, *U = Swap ? L : R;
        if (BO->getOpcode() == BO_Shl && Swap)
          break;
        auto VV = Varies(V), UV = Varies(U);
        auto Scale = ValueOf(U);
        if (VV && *VV && UV && !*UV && Scale) {
          std::int64_t Factor = BO->getOpcode() == BO_Shl ? (std::int64_t(1) << *Scale) : *Scale;
          if (Factor > 1 || Factor < -1) {
            std::string Text = "'" + sourceText(V, Ctx) + "' (which differs between adjacent lanes) is " +
                               (BO->getOpcode() == BO_Shl ? "shifted by '" : "multiplied by '") +
                               sourceText(U, Ctx) + "'";
            if (!isa<IntegerLiteral>(U))
              Text += " (= " + std::to_string(*Scale) + ")";
            return Text;
          }
        }
      }
    }
    std::string Found = findSpreadingTerm(BO->getLHS(), Values, Ctx);
    if (Found.empty())
      Found = findSpreadingTerm(BO->getRHS(), Values, Ctx);
    return Found;
  }
  return "";
}

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

/// One simulation of a launch under one set of sampled values.
struct Simulation {
  std::map<SiteKey, SiteTotals> Sites;
  unsigned SimulatedWarps = 0;
  std::uint64_t TotalWarps = 0;
  std::vector<std::string> SampledSymbols, Limitations;
  std::map<const Expr *, std::map<const Expr *, std::vector<std::int64_t>>> Captured;
  std::vector<SourceRange> TruncatedLoops, BudgetTruncatedLoops;
  bool UndefinedArithmetic = false;
};

std::uint64_t saturatingCount(const Dim3 &D) {
  unsigned __int128 N = static_cast<unsigned __int128>(D.X) * D.Y * D.Z;
  constexpr std::uint64_t Max = std::uint64_t(1) << 56;
  return N > Max ? Max : static_cast<std::uint64_t>(N);
}

Simulation simulateLaunch(const FunctionDecl *Kernel, const LaunchConfig &Launch,
                          const SampleValues &Samples, const InterpreterLimits &Limits,
                          const std::map<const VarDecl *, ArrayLayout> &Layouts,
                          const AnalysisOptions &Options) {
  Simulation Out;
  Aggregator Agg(Options.SharedGeometry);
  WarpInterpreter Interp(Kernel->getASTContext(), Launch, Samples, Limits, Layouts,
                         [&Agg](const RecordedRequest &Req) { Agg.add(Req); });
  Dim3 Grid = Launch.GridKnown ? Launch.Grid : Samples.AssumedGrid;
  std::uint64_t TotalBlocks = std::max<std::uint64_t>(1, saturatingCount(Grid));
  std::uint64_t WarpsPerBlock = std::max<std::uint64_t>(
      1, (saturatingCount(Launch.Block) + model::WarpSize - 1) / model::WarpSize);
  unsigned MaxWarps = std::max(1u, Options.MaxSimulatedWarps);
  std::vector<unsigned> Warps = chooseWarps(WarpsPerBlock, MaxWarps);
  std::vector<std::uint64_t> Blocks =
      chooseBlocks(TotalBlocks, static_cast<unsigned>(Warps.size()), MaxWarps);
  std::uint64_t Steps = 0;
  std::size_t Planned = Blocks.size() * Warps.size();
  bool Reduced = false, Cut = false;
  for (std::size_t I = 0; I < Blocks.size(); ++I) {
    std::uint64_t B = Blocks[I];
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
    if (I == 0 && Blocks.size() > 1 && Steps > 0) {
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
  Out.TotalWarps = TotalBlocks * WarpsPerBlock;
  Out.SampledSymbols.assign(Interp.sampledSymbolsRead().begin(),
                            Interp.sampledSymbolsRead().end());
  Out.Limitations.assign(Interp.limitations().begin(), Interp.limitations().end());
  if (Reduced || Cut)
    Out.Limitations.push_back(
        "the simulation budget of the launch allowed " +
        std::to_string(Out.SimulatedWarps) + " of the " + std::to_string(Planned) +
        " warps otherwise sampled; the numbers average those");
  Out.Captured = Interp.capturedSubexpressions();
  Out.TruncatedLoops = Interp.truncatedLoops();
  Out.BudgetTruncatedLoops = Interp.budgetTruncatedLoops();
  Out.UndefinedArithmetic = Interp.sawUndefinedArithmetic();
  return Out;
}

} // namespace

TranslationUnitAnalysis::TranslationUnitAnalysis(ASTContext &Ctx)
    : Ctx(Ctx), Launches(std::make_unique<LaunchSiteIndex>(Ctx)) {}
TranslationUnitAnalysis::~TranslationUnitAnalysis() = default;

static std::mutex CacheMutex;
static std::map<const ASTContext *, std::unique_ptr<TranslationUnitAnalysis>> &cacheMap() {
  static std::map<const ASTContext *, std::unique_ptr<TranslationUnitAnalysis>> M;
  return M;
}

TranslationUnitAnalysis &TranslationUnitAnalysis::get(ASTContext &Ctx) {
  std::lock_guard<std::mutex> Lock(CacheMutex);
  auto &Slot = cacheMap()[&Ctx];
  if (!Slot)
    Slot = std::make_unique<TranslationUnitAnalysis>(Ctx);
  return *Slot;
}

void TranslationUnitAnalysis::release(ASTContext &Ctx) {
  std::lock_guard<std::mutex> Lock(CacheMutex);
  cacheMap().erase(&Ctx);
}

void TranslationUnitAnalysis::setCompilerErrors(std::vector<CompilerError> E) {
  CompilerErrors = std::move(E);
  Errors.clear();
}

const std::optional<KernelError> &
TranslationUnitAnalysis::errorIn(const FunctionDecl *Kernel) {
  auto It = Errors.find(Kernel);
  if (It != Errors.end())
    return It->second;
  return Errors[Kernel] = firstErrorIn(Kernel, CompilerErrors);
}

const std::vector<KernelLaunchAnalysis> &
TranslationUnitAnalysis::analyze(const FunctionDecl *Kernel,
                                 const AnalysisOptions &Options) {
  auto Key = std::make_pair(Kernel, Options.fingerprint());
  auto It = Cache.find(Key);
  if (It != Cache.end())
    return It->second;
  return Cache[Key] = analyzeUncached(Kernel, Options);
}

std::vector<KernelLaunchAnalysis>
TranslationUnitAnalysis::analyzeUncached(const FunctionDecl *Kernel,
                                         const AnalysisOptions &Options) {
  std::vector<KernelLaunchAnalysis> Results;
  if (!isAnalysableKernel(Kernel) || errorIn(Kernel))
    return Results;
  static const std::map<const VarDecl *, ArrayLayout> NoLayouts;
  const auto &Layouts = Options.LayoutOverrides ? *Options.LayoutOverrides : NoLayouts;
  InterpreterLimits Limits;
  Limits.MaxLoopIterations = Options.MaxLoopIterations;
  const SourceManager &SM = Ctx.getSourceManager();

  for (const LaunchConfig &Launch : Launches->configsFor(Kernel, Options.Defaults)) {
    KernelLaunchAnalysis R;
    R.Kernel = Kernel;
    R.Launch = Launch;

    auto Simulate = [&](const SampleValues &Samples) {
      return simulateLaunch(Kernel, Launch, Samples, Limits, Layouts, Options);
    };

    // Integer parameters no launch site fixes are sampled (4096). When that
    // value makes the kernel's signed arithmetic overflow or shift past
    // the width (B * NH * T * T in an int), the addresses are garbage and
    // guards such as `idx < B * NH * T * T` go false for every lane: the
    // simulation is repeated with smaller values, and the first one that
    // keeps the arithmetic defined is used.
    static const std::int64_t SampleLadder[] = {4096, 256, 32, 8};
    SampleValues PrimarySamples;
    Simulation Primary = Simulate(PrimarySamples);
    if (Primary.UndefinedArithmetic && !Primary.SampledSymbols.empty()) {
      for (std::int64_t Smaller : llvm::ArrayRef(SampleLadder).drop_front()) {
        SampleValues Try;
        Try.UnboundInteger = Smaller;
        Simulation Retry = Simulate(Try);
        if (!Retry.UndefinedArithmetic) {
          Primary = std::move(Retry);
          PrimarySamples = Try;
          break;
        }
      }
    }
    R.SimulatedWarps = Primary.SimulatedWarps;
    R.TotalWarps = Primary.TotalWarps;
    R.SampledSymbols = Primary.SampledSymbols;
    R.Limitations = Primary.Limitations;
    Captured = std::move(Primary.Captured);
    TruncatedLoops = std::move(Primary.TruncatedLoops);
    std::vector<SourceRange> BudgetTruncatedLoops = std::move(Primary.BudgetTruncatedLoops);

    // What the source leaves open was sampled; a second run with other
    // values tells whether the numbers depend on it.
    std::map<SiteKey, SiteTotals> AlternateSites;
    if (!R.SampledSymbols.empty()) {
      SampleValues Other;
      // odd: breaks any alignment a power of two gave
      Other.UnboundInteger = PrimarySamples.UnboundInteger + 3;
      Other.AssumedGrid = Dim3{61, 67, 1};
      AlternateSites = std::move(Simulate(Other).Sites);
    }

    for (auto &[Key, T] : Primary.Sites) {
      AccessResult A;
      A.Site = T.Site;
      A.Cost = costOf(T);
      A.WorstGlobal = T.WorstGlobal;
      A.WorstShared = T.WorstShared;
      A.WorstRequest = T.Worst;
      A.AggregatedRequests = T.AggregatedRequests;
      if (T.Worst)
        A.LaneStrideBytes = laneStride(*T.Worst);
      if (T.UnknownRequests > 0 || T.Requests == 0) {
        A.Status = AccessStatus::Unknown;
        A.Assumptions.push_back("the address depends on values read from memory");
      } else {
        if (Launch.Source == LaunchSource::Default ||
            Launch.Source == LaunchSource::LaunchBounds)
          A.Assumptions.push_back("the block shape " + Launch.Block.str() +
                                  " is assumed from " + Launch.Description);
        if (!R.SampledSymbols.empty()) {
          auto Alt = AlternateSites.find(Key);
          if (Alt == AlternateSites.end() || !sameCost(costOf(Alt->second), A.Cost)) {
            std::string Names;
            for (const std::string &S : R.SampledSymbols)
              Names += (Names.empty() ? "" : ", ") + S;
            A.Assumptions.push_back(
                "the numbers depend on " + Names + ", not known at a launch site (" +
                "assumed " + std::to_string(PrimarySamples.UnboundInteger) +
                " for integer parameters" +
                (PrimarySamples.UnboundInteger != SampleValues().UnboundInteger
                     ? std::string(", as larger values overflow its arithmetic")
                     : std::string()) +
                (Launch.GridKnown ? std::string() : std::string(", grid (64, 64, 1)")) + ")");
          }
        }
        if (T.Uncertain)
          A.Assumptions.push_back("the access is under a data-dependent condition; "
                                  "all lanes were assumed to take it");
        if (T.StructCopy)
          A.Assumptions.push_back("a whole-struct copy was split into field-sized "
                                  "requests; the compiler may drop unused fields");
        SourceLocation Loc = SM.getFileLoc(T.Site.Expr->getBeginLoc());
        auto Within = [&](const SourceRange &Loop) {
          return SM.isPointWithin(Loc, SM.getFileLoc(Loop.getBegin()),
                                  SM.getFileLoc(Loop.getEnd()));
        };
        if (std::any_of(BudgetTruncatedLoops.begin(), BudgetTruncatedLoops.end(), Within))
          A.Assumptions.push_back("an enclosing loop was simulated for fewer than " +
                                  std::to_string(Options.MaxLoopIterations) +
                                  " iterations, to stay within the simulation budget");
        else if (std::any_of(TruncatedLoops.begin(), TruncatedLoops.end(), Within))
          A.Assumptions.push_back("the enclosing loop was simulated for its first " +
                                  std::to_string(Options.MaxLoopIterations) +
                                  " iterations");
        A.Status = A.Assumptions.empty() ? AccessStatus::Exact : AccessStatus::Assumed;
      }
      // Name the index term that spreads the lanes.
      auto CapIt = Captured.find(T.Site.Expr);
      if (CapIt != Captured.end())
        if (const auto *AS = dyn_cast<ArraySubscriptExpr>(T.Site.Expr))
          A.SpreadingTerm = findSpreadingTerm(AS->getIdx(), CapIt->second, Ctx);
      R.Accesses.push_back(std::move(A));
    }
    // Source order.
    std::stable_sort(R.Accesses.begin(), R.Accesses.end(),
                     [&SM](const AccessResult &X, const AccessResult &Y) {
                       SourceLocation LX = SM.getFileLoc(X.Site.Expr->getBeginLoc());
                       SourceLocation LY = SM.getFileLoc(Y.Site.Expr->getBeginLoc());
                       if (LX != LY)
                         return SM.isBeforeInTranslationUnit(LX, LY);
                       return static_cast<int>(X.Site.Op) < static_cast<int>(Y.Site.Op);
                     });
    Results.push_back(std::move(R));
  }
  return Results;
}

} // namespace warpcheck::analysis
