//===- KernelAnalysis.cpp - simulate warps, cost every access -------------===//

#include "warpcheck/analysis/KernelAnalysis.h"
#include "AccessEmission.h"
#include "ClaimText.h"
#include "IndexSource.h"
#include "LaunchRuns.h"
#include "MemoryInstructions.h"
#include "SourceMemory.h"
#include "Simulation.h"
#include "ValueSweep.h"
#include "interp/WarpInterpreter.h"

#include "warpcheck/model/GlobalMemory.h"
#include "warpcheck/model/SharedMemory.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>

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

/// What a sweep varied, as its sentences say it: "'n', not known at a
/// launch site", "values read from memory ('*n'; ...)", or both.
std::string sweptNames(const std::vector<std::string> &Symbols,
                       const std::vector<std::string> &Reads) {
  std::string Out;
  if (!Symbols.empty())
    Out = quotedList(Symbols) + ", not known at a launch site";
  if (!Reads.empty())
    Out += (Out.empty() ? "" : ", and on ") + std::string("values read from memory (") +
           quotedList(Reads) + ")";
  return Out;
}

/// "the numbers depend on 'size', not known at a launch site: 2 wavefronts
/// per request when 'size' <= 16, 1 otherwise (values 1 to 65536 tried)".
std::string dependenceSentence(const ValueDependence &D, MemorySpace Space,
                               const SampleValues &Primary, const LaunchConfig &Launch) {
  std::string Names = sweptNames(D.Symbols, D.MemoryReads);
  const char *Unit = Space == MemorySpace::Shared ? " wavefronts" : " sectors";
  auto Number = [](double V) {
    std::string S = std::to_string(std::round(V * 100) / 100);
    S.erase(S.find_last_not_of('0') + 1);
    if (!S.empty() && S.back() == '.')
      S.pop_back();
    return S;
  };
  bool Everywhere = D.WorstCondition == "for every value tried";
  // "1 sector", "1.5 sectors", "1 to 2 sectors".
  std::string One = std::string(Unit).substr(0, std::strlen(Unit) - 1);
  std::string Range =
      D.Best < D.Worst - 1e-9
          ? Number(D.Best) + " to " + Number(D.Worst) + Unit + " per request"
          : Number(D.Worst) + (std::fabs(D.Worst - 1) < 1e-9 ? One : std::string(Unit)) +
                " per request";
  if (Everywhere)
    Range += ", the same efficiency for every value";
  else if (llvm::StringRef(D.WorstCondition).starts_with("reached "))
    Range += ", " + D.WorstCondition;
  else
    Range += ", the lowest efficiency " + D.WorstCondition;
  std::int64_t Lo = D.Samples.empty() ? Primary.UnboundInteger : D.Samples.front().Value;
  std::int64_t Hi = D.Samples.empty() ? Primary.UnboundInteger : D.Samples.back().Value;
  std::string Given;
  if (!D.CommandLineDefaults.empty())
    Given = "; the numbers given are those of a run without command-line arguments, which "
            "passes " + commandLineDefaultsText(D);
  if (D.RepresentativeValue)
    Given = "; the numbers given are those with the values read taken as " +
            std::to_string(*D.RepresentativeValue) +
            (D.MemoryReads.size() > 1 ? " (element e of an array as e + 1 times it)" : "");
  // Parameters the host code passes multiples of (a pitch in elements),
  // or a known amount more than multiples of, take each value rounded up
  // to one such.
  std::string Multiples;
  for (const auto &[Param, Arg] : Launch.Arguments)
    if (Arg.Multiple && llvm::is_contained(D.Symbols, Param->getNameAsString()))
      Multiples += (Multiples.empty() ? "; " : ", ") + ("'" + Param->getNameAsString() + "' " +
                   (Arg.Residue ? std::to_string(Arg.Residue) + " more than " : "") +
                   "a multiple of " + std::to_string(*Arg.Multiple));
  if (!Multiples.empty())
    Multiples += " as the host code passes it, each value rounded up to one";
  return "the numbers depend on " + Names + ": " + Range +
         " (values " + std::to_string(Lo) + " to " + std::to_string(Hi) + " tried" +
         (D.Truncated ? ", the sweep cut short" : "") + Multiples + ")" + Given;
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

    auto Simulate = [&](const SampleValues &Samples, const SimulationPlan *Plan) {
      return simulateLaunch(Kernel, Launch, Samples, Limits, Layouts, Options, Plan);
    };

    // Integer parameters no launch site fixes are sampled (4096). When that
    // value makes the kernel's signed arithmetic overflow or shift past
    // the width (B * NH * T * T in an int), the addresses are garbage and
    // guards such as `idx < B * NH * T * T` go false for every lane: the
    // simulation is repeated with smaller values, and the first one that
    // keeps the arithmetic defined is used. So is a value that indexes a
    // __shared__ array of fixed size past its end (`s_list[count - 1]`
    // with a count read from memory, in a 513-element list): the
    // program's own arrays bound it.
    static const std::int64_t SampleLadder[] = {4096, 256, 32, 8};
    SampleValues PrimarySamples;
    // A parameter the program passes a command-line option's default when
    // run without arguments takes that default in the primary simulation
    // (the sweep still gives it every value).
    std::set<std::string> CommandLineDefaulted;
    for (const auto &[Param, Arg] : Launch.Arguments)
      if (Arg.CommandLineDefault && !Arg.Integer) {
        PrimarySamples.ParameterValues[Param] = *Arg.CommandLineDefault;
        CommandLineDefaulted.insert(Param->getNameAsString());
      }
    const SampleValues Defaulted = PrimarySamples;
    Simulation Primary = Simulate(PrimarySamples, nullptr);
    if (Primary.infeasible() &&
        (!Primary.SampledSymbols.empty() || !Primary.SweptReads.empty())) {
      for (std::int64_t Smaller : llvm::ArrayRef(SampleLadder).drop_front()) {
        SampleValues Try = Defaulted;
        Try.UnboundInteger = Smaller;
        Simulation Retry = Simulate(Try, nullptr);
        if (!Retry.infeasible()) {
          Primary = std::move(Retry);
          PrimarySamples = Try;
          break;
        }
      }
    }
    R.SimulatedWarps = Primary.SimulatedWarps;
    R.TotalWarps = Primary.TotalWarps;
    R.SimulatedBlocks = static_cast<unsigned>(Primary.Plan.Blocks.size());
    R.TotalBlocks = Primary.TotalBlocks;
    R.SampledSymbols = Primary.SampledSymbols;
    R.Limitations = Primary.Limitations;
    R.SampledInteger = PrimarySamples.UnboundInteger;
    R.LoopFlops = Primary.LoopFlops;
    R.BudgetCuts = Primary.BudgetCuts;
    R.StepBudgetExhausted = Primary.StepBudgetExhausted;

    // Every other run of the launch: the sweep over what the source leaves
    // open, the run with swept reads unknown, the run with upper bounds
    // large, the grid run (LaunchRuns.h).
    LaunchRuns Runs = runBeyondPrimary(Kernel, Launch, Primary, PrimarySamples, Limits,
                                       Layouts, Options);
    for (const std::string &L : Runs.Limitations)
      R.Limitations.push_back(L);
    const Sweep &Values = Runs.Values;
    const std::optional<Simulation> &Unswept = Runs.Unswept;
    // What a site only a bounded run reaches says of the values.
    auto BoundedValues = [&](const BoundedRun &Run) {
      std::string Primary = std::to_string(PrimarySamples.UnboundInteger);
      if (Run.Large.empty())
        return "reached only when " + quotedList(Run.False) +
               (Run.False.size() == 1 ? " is false, not" : " are false, none") +
               " known at a launch site (every value the sweep tries makes a bool true): "
               "simulated with " + (Run.False.size() == 1 ? "it" : "them") +
               " false and the other values at " +
               std::to_string(Run.Samples.UnboundInteger);
      std::vector<std::string> Clauses = {
          quotedList(Run.Large) + " (compared as " +
          (Run.Large.size() == 1 ? "an upper bound) is" : "upper bounds) are") + " large"};
      std::vector<std::string> With = {Primary};
      if (!Run.Tested.empty()) {
        Clauses.push_back("'" + Run.Tested + "' is " + std::to_string(Run.TestedValue) +
                          " (a value the code tests)");
        With.push_back(std::to_string(Run.TestedValue));
      }
      if (!Run.Small.empty()) {
        Clauses.push_back(quotedList(Run.Small) + " small");
        With.push_back("1");
      }
      if (!Run.False.empty()) {
        Clauses.push_back(quotedList(Run.False) + " false");
        With.push_back("false");
      }
      auto Join = [](const std::vector<std::string> &Parts) {
        std::string Out;
        for (std::size_t I = 0; I < Parts.size(); ++I)
          Out += (I == 0 ? "" : I + 1 == Parts.size() ? " and " : ", ") + Parts[I];
        return Out;
      };
      return "reached only when " + Join(Clauses) +
             ", none known at a launch site (no one value for all of them reaches it): "
             "simulated with " + Join(With);
    };
    const std::map<SiteKey, std::uint64_t> &GridDigests = Runs.GridDigests;
    const bool GridRun = Runs.GridRun;
    const std::set<SiteKey> &Keys = Runs.Keys;
    // A sweep run covers the sweep's few warps (the first and the last
    // block's edges, or four of one block's warps): a site's worst value is
    // simulated again on the primary's plan, so that its numbers average
    // the same warps as every other site's (a scan tree's levels leave
    // whole warps idle, and four warps of eight weigh them unevenly). At
    // most MaxFullWorstRuns values per launch; past them, the sweep's
    // numbers, said so by their warp count.
    constexpr std::size_t MaxFullWorstRuns = 3;
    std::map<std::size_t, Simulation> FullWorst;
    auto FullPlanRun = [&](std::size_t Run) -> const Simulation * {
      const SweepRun &Swept = Values.Runs[Run];
      if (Swept.Sim.SimulatedWarps >= Primary.SimulatedWarps || !Swept.OnlyFor.empty())
        return nullptr;
      // The stated value is the primary's own run (unless the primary
      // gave some parameters their command-line defaults).
      if (Swept.Value == PrimarySamples.UnboundInteger && CommandLineDefaulted.empty())
        return &Primary;
      if (auto It = FullWorst.find(Run); It != FullWorst.end())
        return &It->second;
      if (FullWorst.size() == MaxFullWorstRuns)
        return nullptr;
      SampleValues Try = PrimarySamples;
      Try.UnboundInteger = Swept.Value;
      Try.ParameterValues.clear();
      return &FullWorst.emplace(Run, Simulate(Try, nullptr)).first->second;
    };
    for (const SiteKey &Key : Keys) {
      // A site that depends on the swept values reports the sweep's worst
      // run (on the sweep's plan); any other the full primary.
      std::size_t From = 0;
      std::optional<ValueDependence> Dependence;
      if (!Values.Symbols.empty() || !Values.Reads.empty())
        Dependence = dependenceOf(Key, Values, From);
      // The numbers of a run without command-line arguments: every value
      // the site depends on is an option's default (the sweep's range said
      // beside them), and that run reached it. Values read from memory or
      // a parameter with no default leave the sweep's worst case.
      if (Dependence && !CommandLineDefaulted.empty() && Values.Reads.empty() &&
          Primary.Sites.count(Key) &&
          llvm::all_of(Values.Symbols,
                       [&](const std::string &S) { return CommandLineDefaulted.count(S); }))
        for (const auto &[Param, Arg] : Launch.Arguments)
          if (Arg.CommandLineDefault && !Arg.Integer)
            Dependence->CommandLineDefaults.push_back(
                {Param->getNameAsString(), *Arg.CommandLineDefault});
      // A representative value is the primary's: its full plan is used
      // when it reached the site; so are the command-line defaults.
      bool AtStatedValues =
          Dependence && (Dependence->RepresentativeValue || !Dependence->CommandLineDefaults.empty());
      bool FromSweep = Dependence && (!AtStatedValues || !Primary.Sites.count(Key));
      const Simulation *SimOf = FromSweep ? &Values.Runs[From].Sim : &Primary;
      // The range's ends on the primary's plan: the worst value's (and the
      // numbers reported, when they are the worst's) and the primary's.
      auto OnFullPlan = [&](const Simulation &Full, std::int64_t Value) {
        auto It = Full.Sites.find(Key);
        if (It == Full.Sites.end() || !It->second.Requests || It->second.UnknownRequests)
          return false;
        replaceSample(*Dependence, Value, costOf(It->second), It->second.Site.Space);
        return true;
      };
      if (Dependence) {
        const Simulation *Full = FullPlanRun(From);
        if (Full && !Full->infeasible() && OnFullPlan(*Full, Values.Runs[From].Value) &&
            FromSweep)
          SimOf = Full;
        if (CommandLineDefaulted.empty())
          OnFullPlan(Primary, PrimarySamples.UnboundInteger);
      }
      // A site no swept value reaches (the arm of `if (tid < offset)` that
      // offset = 4096 never takes) is reported as the data leaves it: from
      // the simulation that kept the reads unknown, both arms taken.
      if (!SimOf->Sites.count(Key) && Unswept && Unswept->Sites.count(Key)) {
        SimOf = &*Unswept;
        Dependence.reset();
      }
      const BoundedRun *OnlyBounded = nullptr;
      for (const BoundedRun &Run : Runs.Bounded)
        if (!SimOf->Sites.count(Key) && Run.Sim.Sites.count(Key)) {
          SimOf = &Run.Sim;
          Dependence.reset();
          OnlyBounded = &Run;
        }
      const Simulation &Sim = *SimOf;
      auto Found = Sim.Sites.find(Key);
      if (Found == Sim.Sites.end())
        continue;
      const SiteTotals &T = Found->second;
      AccessResult A;
      A.Site = T.Site;
      A.Cost = costOf(T);
      for (const auto &[Call, Totals] : T.ByCallSite)
        A.CallSites.push_back({Call, costOf(Totals)});
      const SourceManager &SM = Kernel->getASTContext().getSourceManager();
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
          (T.Requests == 0 && T.ServedByOthers == 0 && T.ReusedEarlier == 0)) {
        A.Status = AccessStatus::Unknown;
        if (const Expr *Read = memoryReadInAddress(T.Site.Expr, Kernel)) {
          A.Assumptions.push_back({AssumptionKind::DataDependentAddress,
                                   "the address depends on values read from memory"});
          A.DataSource = sourceText(Read, Ctx);
        } else {
          // Said as what it is: no read of memory is in the address's
          // computation, so its values are not the data's.
          A.Assumptions.push_back(
              {AssumptionKind::UnfollowedValue,
               "the address depends on a value the simulation could not follow (no read "
               "from memory is in its computation: a call it does not run, inline "
               "assembly, a loop it cut short)"});
        }
        if (OnlyBounded)
          A.Assumptions.push_back({AssumptionKind::UnboundValue, BoundedValues(*OnlyBounded)});
      } else {
        A.Assumptions = launchShapeAssumptions(Launch);
        if (T.FootprintRequests > 0) {
          std::string Var = T.Site.SharedVar ? "'" + T.Site.SharedVar->getNameAsString() + "'"
                                             : std::string("the shared array");
          A.Assumptions.push_back(
              {AssumptionKind::DataDependentAddress,
               "the address depends on values read from memory, but " + Var + " spans " +
                   std::to_string(T.FootprintBytes) +
                   " bytes, no more than one row of the banks: lanes that meet in a bank meet "
                   "at one word, so 1 wavefront per request whatever the values"});
          if (const Expr *Read = memoryReadInAddress(T.Site.Expr, Kernel))
            A.DataSource = sourceText(Read, Ctx);
        }
        if (T.OneLaneRequests > 0) {
          A.Assumptions.push_back(
              {AssumptionKind::DataDependentAddress,
               "the address is not known, but one lane alone makes each such request (" +
                   std::to_string(T.OneLaneRequests) + " in all): " +
                   (T.Site.Space == MemorySpace::Shared ? "1 wavefront" : "1 sector") +
                   " per request whatever the address (its element naturally aligned)"});
          if (const Expr *Read = memoryReadInAddress(T.Site.Expr, Kernel))
            A.DataSource = sourceText(Read, Ctx);
        }
        if (OnlyBounded)
          A.Assumptions.push_back({AssumptionKind::UnboundValue,
                                   BoundedValues(*OnlyBounded) + "; simulated on " +
                                       std::to_string(Sim.SimulatedWarps) + " warps"});
        if (Dependence)
          A.Assumptions.push_back({Dependence->RepresentativeValue ? AssumptionKind::MemoryValue
                                   : !Dependence->CommandLineDefaults.empty()
                                       ? AssumptionKind::CommandLineDefault
                                       : AssumptionKind::UnboundValue,
                                  dependenceSentence(*Dependence, T.Site.Space, PrimarySamples, Launch) +
                                  "; simulated on " + std::to_string(Sim.SimulatedWarps) +
                                  " warps"});
        else if (Values.Truncated)
          A.Assumptions.push_back({AssumptionKind::TruncatedSweep,
                                  "the numbers may depend on " +
                                  sweptNames(Values.Symbols, Values.Reads) + ": "
                                  "its addresses were the same for the " +
                                  std::to_string(Values.Runs.size()) +
                                  " values the simulation budget allowed, not every value"});
        if (GridRun) {
          auto G = GridDigests.find(Key);
          auto P = Primary.Sites.find(Key);
          if (G == GridDigests.end() || P == Primary.Sites.end() ||
              G->second != P->second.AddressDigest)
            A.Assumptions.push_back({AssumptionKind::GridShape,
                                    "the numbers depend on gridDim, not known at a launch "
                                    "site (assumed (64, 64, 1))"});
        }
        if (T.Uncertain)
          A.Assumptions.push_back({AssumptionKind::DataDependentBranch,
                                  "the access is under a data-dependent condition; "
                                  "all lanes were assumed to take it"});
        // The loop's read of the old values (a load the atomic's call
        // makes: its traits are the atomic's) repeats with its rounds too.
        if (T.Site.Space == MemorySpace::Shared && T.Site.Op != AccessOp::Store &&
            model::isSharedAtomicRetryLoop(T.Site.Atomic))
          A.Assumptions.push_back({AssumptionKind::RetryLoop,
                                  std::string("the compiler emits this atomic as a "
                                              "compare-and-swap loop (ATOMS.CAST.SPIN") +
                                      (T.Site.Op == AccessOp::Load
                                           ? ", which reads the old values with this load "
                                             "each round"
                                           : "") +
                                      ") whose rounds depend on how the lanes race; the "
                                      "numbers are those of one round"});
        noteEmissionAssumptions(A, T, Ctx, Predicted);
        SourceLocation Loc = SM.getFileLoc(T.Site.Expr->getBeginLoc());
        // A loop an instruction was hoisted out of repeats no request of
        // it, however many of its iterations were simulated.
        auto Within = [&](const SourceRange &Loop) {
          // A load kept before its nest is made once, whatever the
          // iterations of the nest's loops.
          if (T.KeptInRegister > 0 && T.HoistedBefore &&
              SM.isPointWithin(SM.getFileLoc(Loop.getBegin()),
                               SM.getFileLoc(T.HoistedBefore->getBeginLoc()),
                               SM.getFileLoc(T.HoistedBefore->getEndLoc())))
            return false;
          return std::find(T.HoistedOutOf.begin(), T.HoistedOutOf.end(), Loop) ==
                     T.HoistedOutOf.end() &&
                 SM.isPointWithin(Loc, SM.getFileLoc(Loop.getBegin()),
                                  SM.getFileLoc(Loop.getEnd()));
        };
        if (std::any_of(Sim.BudgetTruncatedLoops.begin(), Sim.BudgetTruncatedLoops.end(),
                        Within))
          A.Assumptions.push_back({AssumptionKind::LoopBudget,
                                  "an enclosing loop was simulated for fewer than " +
                                  std::to_string(Options.MaxLoopIterations) +
                                  " iterations, to stay within the simulation budget"});
        else if (std::any_of(Sim.TruncatedLoops.begin(), Sim.TruncatedLoops.end(), Within))
          A.Assumptions.push_back({AssumptionKind::LoopIterations,
                                  "the enclosing loop was simulated for its first " +
                                  std::to_string(Options.MaxLoopIterations) +
                                  " iterations"});
        A.Status = A.Assumptions.empty() ? AccessStatus::Exact : AccessStatus::Assumed;
      }
      A.Dependence = std::move(Dependence);
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
