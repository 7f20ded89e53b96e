//===- KernelAnalysis.cpp - simulate warps, cost every access -------------===//

#include "warpcheck/analysis/KernelAnalysis.h"
#include "WarpInterpreter.h"

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
  return FD && FD->hasAttr<CUDAGlobalAttr>() && FD->doesThisDeclarationHaveABody() &&
         !FD->isDependentContext() && !FD->isInvalidDecl();
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
  unsigned Requests = 0, UnknownRequests = 0;
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
      model::SharedRequestCost C = model::computeSharedRequestCost(*R.Addresses, Geometry, Kind);
      T.Wavefronts += C.Wavefronts;
      T.IdealWavefronts += C.IdealWavefronts;
      double Score = double(C.Wavefronts) - C.IdealWavefronts;
      if (Score > T.WorstScore) {
        T.WorstScore = Score;
        T.Worst = *R.Addresses;
        T.WorstShared = C;
      }
    } else {
      model::GlobalRequestCost C = model::computeGlobalRequestCost(
          *R.Addresses, {},
          R.Site.Op == AccessOp::Atomic ? model::GlobalAccessKind::Atomic
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
  const model::SharedMemoryGeometry &Geometry;
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
    std::uint64_t B = (K * (TotalBlocks - 1) + (Budget - 1) / 2) / (Budget - 1);
    if (Blocks.empty() || Blocks.back() != B)
      Blocks.push_back(B);
  }
  return Blocks;
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
  if (!isAnalysableKernel(Kernel))
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

    auto Simulate = [&](const SampleValues &Samples, Aggregator &Agg,
                        KernelLaunchAnalysis *Out) {
      WarpInterpreter Interp(Ctx, Launch, Samples, Limits, Layouts,
                             [&Agg](const RecordedRequest &Req) { Agg.add(Req); });
      Dim3 Grid = Launch.GridKnown ? Launch.Grid : Samples.AssumedGrid;
      unsigned WarpsPerBlock = static_cast<unsigned>(
          (Launch.Block.count() + model::WarpSize - 1) / model::WarpSize);
      std::vector<std::uint64_t> Blocks =
          chooseBlocks(Grid.count(), WarpsPerBlock, Options.MaxSimulatedWarps);
      unsigned Simulated = 0;
      for (std::uint64_t B : Blocks) {
        WarpPosition Where;
        Where.BlockIdx.X = static_cast<std::uint32_t>(B % Grid.X);
        Where.BlockIdx.Y = static_cast<std::uint32_t>((B / Grid.X) % Grid.Y);
        Where.BlockIdx.Z = static_cast<std::uint32_t>(B / (std::uint64_t(Grid.X) * Grid.Y));
        for (unsigned W = 0; W < WarpsPerBlock; ++W) {
          Where.WarpInBlock = W;
          Interp.runWarp(Kernel, Where);
          ++Simulated;
        }
      }
      if (Out) {
        Out->SimulatedWarps = Simulated;
        Out->TotalWarps = Grid.count() * WarpsPerBlock;
        Out->SampledSymbols.assign(Interp.sampledSymbolsRead().begin(),
                                   Interp.sampledSymbolsRead().end());
        Out->Limitations.assign(Interp.limitations().begin(),
                                Interp.limitations().end());
        Captured = Interp.capturedSubexpressions();
        TruncatedLoops = Interp.truncatedLoops();
      }
    };

    Aggregator Primary(Options.SharedGeometry);
    SampleValues PrimarySamples;
    Simulate(PrimarySamples, Primary, &R);

    // What the source leaves open was sampled; a second run with other
    // values tells whether the numbers depend on it.
    std::map<SiteKey, SiteTotals> AlternateSites;
    if (!R.SampledSymbols.empty()) {
      Aggregator Alternate(Options.SharedGeometry);
      SampleValues Other;
      Other.UnboundInteger = 4099; // odd: breaks any alignment a power of two gave
      Other.AssumedGrid = Dim3{61, 67, 1};
      auto SavedCaptured = Captured;
      auto SavedLoops = TruncatedLoops;
      Simulate(Other, Alternate, nullptr);
      Captured = std::move(SavedCaptured);
      TruncatedLoops = std::move(SavedLoops);
      AlternateSites = std::move(Alternate.Sites);
    }

    for (auto &[Key, T] : Primary.Sites) {
      AccessResult A;
      A.Site = T.Site;
      A.Cost = costOf(T);
      A.WorstGlobal = T.WorstGlobal;
      A.WorstShared = T.WorstShared;
      A.WorstRequest = T.Worst;
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
                "assumed 4096 for integer parameters" +
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
        for (const SourceRange &Loop : TruncatedLoops) {
          if (SM.isPointWithin(Loc, SM.getFileLoc(Loop.getBegin()),
                               SM.getFileLoc(Loop.getEnd()))) {
            A.Assumptions.push_back("the enclosing loop was simulated for its first " +
                                    std::to_string(Options.MaxLoopIterations) +
                                    " iterations");
            break;
          }
        }
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
