//===- KernelAnalysis.cpp - simulate warps, cost every access -------------===//

#include "warpcheck/analysis/KernelAnalysis.h"
#include "AccessAssumptions.h"
#include "AccessEmission.h"
#include "ClaimText.h"
#include "MemoryInstructions.h"
#include "SourceMemory.h"
#include "Simulation.h"
#include "interp/WarpInterpreter.h"

#include "warpcheck/model/GlobalMemory.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <optional>
#include <sstream>

using namespace clang;

namespace warpcheck::analysis {

double AccessCost::efficiency(MemorySpace Space) const {
  if (Space == MemorySpace::Shared)
    return WavefrontsPerRequest > 0 ? IdealWavefrontsPerRequest / WavefrontsPerRequest : 1.0;
  return SectorsPerRequest > 0 ? IdealSectorsPerRequest / SectorsPerRequest : 1.0;
}

std::string AnalysisOptions::fingerprint() const {
  std::ostringstream OS;
  OS << Defaults.Block.str() << '|' << Defaults.Arch << '|' << SharedGeometry.Banks << ','
     << SharedGeometry.BankWidthBytes << ',' << SharedGeometry.LanesPerPass << '|'
     << MaxSimulatedWarps << '|' << MaxLoopIterations << '|' << LayoutOverrides << '|'
     << (InstructionsFrom ? InstructionsFrom->fingerprint() : std::string("-")) << '|'
     << Instructions;
  return OS.str();
}

bool isAnalysableKernel(const FunctionDecl *FD) {
  // An invalid kernel is analysable in this sense: it is reported, with
  // the error that stops it (SourceErrors.h), never silently left out; so
  // is an instance of a kernel template whose body clang dropped for an
  // error in it (one it may not even report: SourceErrors.cpp).
  if (!FD || !FD->hasAttr<CUDAGlobalAttr>() || FD->isDependentContext())
    return false;
  if (!FD->doesThisDeclarationHaveABody() &&
      !(FD->isInvalidDecl() && FD->isTemplateInstantiation()))
    return false;
  // Library kernels (CUB, Thrust) are not the user's code: the report leaves
  // them out, and clang-tidy would not show a diagnostic in a system header,
  // but the checks matched them and simulated every one of them (seconds
  // for a unit that uses Thrust, and ptxas runs for the occupancy check).
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  return !SM.isInSystemHeader(SM.getFileLoc(FD->getLocation()));
}

std::string commandLineDefaultsText(const ValueDependence &D) {
  std::vector<std::string> Each;
  for (const auto &[Name, Value] : D.CommandLineDefaults)
    Each.push_back("'" + Name + "' = " + std::to_string(Value));
  return llvm::join(Each, ", ");
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
  // One line, single spaces: messages quote it. A line break inside
  // brackets or before a subscript leaves no space (`in[i * 32 +` / `k` /
  // `]` quoted 'in[i * 32 + k]', `in` / `[i]` 'in[i]').
  std::string Out;
  bool Space = false, Break = false;
  for (char C : Text) {
    if (C == '\n' || C == '\r' || C == '\t' || C == ' ') {
      Space = !Out.empty();
      Break |= Space && (C == '\n' || C == '\r');
      continue;
    }
    bool Tight = Break && (C == ']' || C == ')' || C == '[' || Out.back() == '[' ||
                           Out.back() == '(');
    if (Space && !Tight)
      Out += ' ';
    Space = Break = false;
    Out += C;
  }
  return Out;
}

/// 'a', 'a' and 'b', 'a', 'b' and 'c'.
std::string quotedList(const std::vector<std::string> &Names) {
  std::string Out;
  for (size_t I = 0; I < Names.size(); ++I)
    Out += (I ? (I + 1 == Names.size() ? " and '" : ", '") : "'") + Names[I] + "'";
  return Out;
}

namespace {

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

} // namespace

std::vector<Assumption> launchShapeAssumptions(const LaunchConfig &Launch) {
  std::vector<Assumption> Out;
  if (Launch.Source == LaunchSource::Default || Launch.Source == LaunchSource::LaunchBounds ||
      Launch.Source == LaunchSource::Inferred) {
    // Parameters the launches pass as the block's own extent follow the
    // assumed shape (BlockExtentArguments.h): say which, since their values
    // are the assumption's too.
    std::string Follow;
    const std::uint32_t Extents[3] = {Launch.Block.X, Launch.Block.Y, Launch.Block.Z};
    for (const auto &[Param, Arg] : Launch.Arguments)
      if (Arg.BlockExtentAxis && Arg.Integer)
        Follow += std::string(Follow.empty() ? "" : ", ") + "'" + Param->getNameAsString() +
                  "' = " + std::to_string(Extents[*Arg.BlockExtentAxis]) + " (the launches pass " +
                  "the block's extent along " + "xyz"[*Arg.BlockExtentAxis] + ")";
    Out.push_back({AssumptionKind::BlockShape,
                   "the block shape " + Launch.Block.str() + " is assumed from " +
                       Launch.Description + (Follow.empty() ? "" : "; with it " + Follow)});
  }
  // Launches not evaluated are listed beside evaluated ones too; only a
  // shape that stands in for them (no launch evaluated) rests on them.
  if (!Launch.Unevaluated.empty() && Launch.Source != LaunchSource::LaunchSite) {
    std::string Why;
    for (const std::string &U : Launch.Unevaluated)
      Why += (Why.empty() ? "" : "; ") + U;
    Out.push_back({AssumptionKind::UnevaluatedLaunch,
                   "no launch of the kernel could be evaluated, so " + Launch.Description +
                       " stands for them: " + Why});
  }
  return Out;
}

std::vector<KernelLaunchAnalysis> analyzeKernel(const FunctionDecl *Kernel,
                                                const std::vector<LaunchConfig> &Launches,
                                                const AnalysisOptions &Options) {
  std::vector<KernelLaunchAnalysis> Results;
  ASTContext &Ctx = Kernel->getASTContext();
  static const std::map<const VarDecl *, ArrayLayout> NoLayouts;
  const auto &Layouts = Options.LayoutOverrides ? *Options.LayoutOverrides : NoLayouts;
  InterpreterLimits Limits;
  Limits.MaxLoopIterations = Options.MaxLoopIterations;
  const SourceManager &SM = Ctx.getSourceManager();
  // The kernel's writes, for the read-only data path: one walk of its body
  // on the first load that asks, not one per load.
  std::optional<KernelMemoryWrites> Writes;
  auto ReadOnlyPath = [&](const Expr *Load) {
    if (!Writes)
      Writes = memoryWritesOf(Kernel);
    return readThroughConstantPath(Load, *Writes);
  };

  for (const LaunchConfig &Launch : Launches) {
    KernelLaunchAnalysis R;
    R.Kernel = Kernel;
    R.Launch = Launch;

    const PrimaryRun PrimaryOfLaunch = runPrimary(Kernel, Launch, Limits, Layouts, Options);
    const Simulation &Primary = PrimaryOfLaunch.Sim;
    R.SimulatedWarps = Primary.SimulatedWarps;
    R.TotalWarps = Primary.TotalWarps;
    R.SimulatedBlocks = static_cast<unsigned>(Primary.Plan.Blocks.size());
    R.TotalBlocks = Primary.TotalBlocks;
    R.SampledSymbols = Primary.SampledSymbols;
    R.Limitations = Primary.Limitations;
    R.SampledInteger = PrimaryOfLaunch.Samples.UnboundInteger;
    R.LoopFlops = Primary.LoopFlops;
    R.BudgetCuts = Primary.BudgetCuts;
    R.StepBudgetExhausted = Primary.StepBudgetExhausted;

    // Every other run of the launch: the sweep over what the source leaves
    // open, the run with swept reads unknown, the run with upper bounds
    // large, the grid run (LaunchRuns.h).
    const LaunchRuns Runs = runBeyondPrimary(Kernel, Launch, Primary, PrimaryOfLaunch.Samples,
                                             Limits, Layouts, Options);
    for (const std::string &L : Runs.Limitations)
      R.Limitations.push_back(L);
    SiteRunChooser Chooser(Kernel, Launch, PrimaryOfLaunch, Runs, Limits, Layouts, Options);
    const LaunchClaims Claims{Kernel, Launch, PrimaryOfLaunch, Runs, Options.MaxLoopIterations};
    for (const SiteKey &Key : Runs.Keys) {
      SiteRun Run = Chooser.choose(Key);
      const Simulation &Sim = *Run.Sim;
      auto Found = Sim.Sites.find(Key);
      if (Found == Sim.Sites.end())
        continue;
      const SiteTotals &T = Found->second;
      AccessResult A;
      A.Site = T.Site;
      A.Cost = costOf(T);
      for (const auto &[Call, Totals] : T.ByCallSite)
        A.CallSites.push_back({Call, costOf(Totals)});
      llvm::sort(A.CallSites, [&](const CallSiteCost &X, const CallSiteCost &Y) {
        return SM.isBeforeInTranslationUnit(X.Call->getBeginLoc(), Y.Call->getBeginLoc());
      });
      A.WorstGlobal = T.WorstGlobal;
      A.WorstShared = T.WorstShared;
      A.WorstRequest = T.Worst;
      A.AggregatedRequests = T.AggregatedRequests;
      A.LaneAccesses = T.LaneAccesses;
      A.FirstBlockReuse = T.FirstBlockReuse;
      A.FirstBlockElementsPerThread = T.FirstBlockElementsPerThread;
      A.FirstBlockSectorFetches = T.FirstBlockSectorFetches;
      if (T.Worst)
        A.LaneStrideBytes = laneStride(*T.Worst);
      // Where a prediction of the compiler's instructions comes from: no
      // listing, or one that does not explain the access.
      const std::string Predicted =
          T.Unmatched.empty() || T.FromListing
              ? "no listing of the compiled kernel was read"
              : "the listing of the compiled kernel does not explain this access";
      if (T.UnknownRequests > 0 ||
          (T.Requests == 0 && T.ServedByOthers == 0 && T.ReusedEarlier == 0))
        noteUnknownAddress(A, T, Run, Claims);
      else
        noteCostAssumptions(A, Key, T, Run, Claims, Predicted);
      A.Dependence = std::move(Run.Dependence);
      noteMergedInstructions(A, T, Ctx, Predicted);
      listInstructions(A, T, Ctx, ReadOnlyPath);
      // Name the index term that spreads the lanes.
      auto CapIt = Sim.Captured.find(T.Site.Expr);
      if (CapIt != Sim.Captured.end())
        if (const auto *AS = dyn_cast<ArraySubscriptExpr>(T.Site.Expr))
          A.SpreadingTerm = findSpreadingTerm(AS->getIdx(), CapIt->second, Ctx);
      R.Accesses.push_back(std::move(A));
    }
    // Accesses nvcc may emit as one wider instruction are not exact.
    noteMergeableAccesses(R.Accesses, Primary.Captured, Ctx);
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
