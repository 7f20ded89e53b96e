//===- LaunchRuns.cpp - the simulations of a launch beyond the primary ----===//
//
// What the source leaves open is simulated more than once: the sweep over
// the unbound values, the run with swept reads left unknown, the run with
// the upper bounds large and the rest small, and a second grid shape.
// KernelAnalysis.cpp reports every site from the run that reached it.
//
//===----------------------------------------------------------------------===//

#include "LaunchRuns.h"

#include "clang/AST/Decl.h"

#include <algorithm>
#include <limits>

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// Lane-steps all the runs of one launch's value sweep may take together
/// (on top of the primary): two launch budgets, about ten milliseconds of
/// simulation (bench/analysis_overhead.py).
constexpr std::uint64_t SweepStepBudget = 4'000'000;

/// Every site the primary simulation or a run of the sweep reached.
std::set<SiteKey> sitesReached(const Simulation &Primary, const std::vector<SweepRun> &Runs) {
  std::set<SiteKey> Out;
  for (const auto &[Key, T] : Primary.Sites)
    Out.insert(Key);
  for (const SweepRun &Run : Runs)
    for (const auto &[Key, T] : Run.Sim.Sites)
      Out.insert(Key);
  return Out;
}

/// Moves to From the power of two strictly between Inside and Outside
/// (Inside < Outside) nearest their geometric middle, when Order holds it
/// at or after From: halving the gap between the largest value that stays
/// inside the shared arrays and the smallest that leaves them finds the
/// largest the program can take, a scan tree's worst case (a count of 512
/// in a 513-element list), in a few runs.
void tryBetweenNext(std::int64_t Inside, std::int64_t Outside, std::vector<std::int64_t> &Order,
                    std::size_t From) {
  std::vector<std::int64_t> Between;
  for (std::int64_t P = 2; P < Outside && P <= (std::int64_t(1) << 30); P *= 2)
    if (P > Inside)
      Between.push_back(P);
  if (Between.empty())
    return;
  auto It = std::find(Order.begin() + From, Order.end(), Between[(Between.size() - 1) / 2]);
  if (It != Order.end())
    std::rotate(Order.begin() + From, It, It + 1);
}

/// At most this many variants of the bounded run are probed (one small
/// parameter at one tested value each).
constexpr unsigned MaxBoundedVariants = 24;

/// The runs with the upper bounds large (LaunchRuns::Bounded): the base
/// run, then, when it reached more than the sweep, one variant per small
/// parameter and value the code tests. A loop dealing work over processes
/// with a mode flag tested inside it (SHOC's QT clustering: `if (mask &
/// FULL_STORAGE_MATRIX)` in `for (i = block * nodes + rank; i < count;
/// ...)`) takes the flag's arm only with the flag's bit set and the loop
/// entered: no single swept value does both, nor the base run, whose flag
/// is 1. Each is tried on the sweep's few warps first; only one that
/// reaches a new site pays for the full plan.
std::vector<BoundedRun> boundedRuns(const FunctionDecl *Kernel, const LaunchConfig &Launch,
                                    const SampleValues &PrimarySamples,
                                    const std::vector<std::string> &Swept,
                                    const std::set<SiteKey> &Reached,
                                    const InterpreterLimits &Limits,
                                    const InterpreterLimits &ProbeLimits,
                                    const SimulationPlan &ProbePlan,
                                    const std::map<const VarDecl *, ArrayLayout> &Layouts,
                                    const AnalysisOptions &Options) {
  std::vector<BoundedRun> Out;
  std::set<std::string> Bounds = limitParameters(Kernel);
  SampleValues Mixed = PrimarySamples;
  std::vector<std::string> Large, Small;
  std::vector<const ParmVarDecl *> SmallParams;
  for (const ParmVarDecl *P : Kernel->parameters()) {
    std::string Name = P->getNameAsString();
    if (std::find(Swept.begin(), Swept.end(), Name) == Swept.end())
      continue;
    if (Bounds.count(Name)) {
      Large.push_back(Name);
    } else {
      Small.push_back(Name);
      SmallParams.push_back(P);
      Mixed.ParameterValues[P] = 1;
    }
  }
  if (Large.empty() || Small.empty())
    return Out;
  std::set<SiteKey> Keys = Reached;
  // Probed on the sweep's warps; run in full when it reaches a new site.
  auto TryRun = [&](const SampleValues &Samples, const std::string &Tested,
                    std::int64_t TestedValue) {
    Simulation Probe =
        simulateLaunch(Kernel, Launch, Samples, ProbeLimits, Layouts, Options, &ProbePlan);
    bool ReachesMore = std::any_of(Probe.Sites.begin(), Probe.Sites.end(),
                                   [&](const auto &Site) { return !Keys.count(Site.first); });
    if (!ReachesMore)
      return false;
    BoundedRun Run;
    Run.Sim = simulateLaunch(Kernel, Launch, Samples, Limits, Layouts, Options, nullptr);
    Run.Samples = Samples;
    for (const auto &[Key, T] : Run.Sim.Sites)
      Keys.insert(Key);
    Run.Large = Large;
    for (const std::string &S : Small)
      if (S != Tested)
        Run.Small.push_back(S);
    Run.Tested = Tested;
    Run.TestedValue = TestedValue;
    Out.push_back(std::move(Run));
    return true;
  };
  if (!TryRun(Mixed, "", 0))
    return Out;
  // The parameters the loop's body reads only the base run sees (the flag
  // of a branch inside the loop): they kept the primary value there, and
  // are tried at the tested values too.
  std::vector<const ParmVarDecl *> Varied = SmallParams;
  const std::vector<std::string> &Seen = Out.front().Sim.SampledSymbols;
  for (const ParmVarDecl *P : Kernel->parameters()) {
    std::string Name = P->getNameAsString();
    if (std::find(Seen.begin(), Seen.end(), Name) != Seen.end() && !Bounds.count(Name) &&
        std::find(Small.begin(), Small.end(), Name) == Small.end())
      Varied.push_back(P);
  }
  unsigned Variants = 0;
  for (std::int64_t V : valuesTheCodeTests(Kernel)) {
    if (V == 1 || V == PrimarySamples.UnboundInteger)
      continue;
    for (const ParmVarDecl *P : Varied) {
      if (Variants++ == MaxBoundedVariants)
        return Out;
      SampleValues Variant = Mixed;
      Variant.ParameterValues[P] = V;
      TryRun(Variant, P->getNameAsString(), V);
    }
  }
  return Out;
}

/// At most this many runs with the flags off are probed.
constexpr std::size_t MaxFlagsOffProbes = 8;

/// The runs with the flags off (LaunchRuns::Bounded, its last): a bool
/// parameter no launch site binds takes the sweep's integers, every one of
/// which converts to true, so the arm a false flag takes would be reached
/// by no run (SHOC's QT clustering: `if (can_use_texture) tex2D(...); else
/// work[pnt2_indx * N0 + latest_point];`, measured with the flag false,
/// inside a branch on a mode flag's bit only a bounded run takes). Every
/// such parameter false, the others as the primary has them, as each
/// sweep run that reached a site the primary did not has them (a value
/// with the mode's bit), and as each bounded run has them; at most
/// MaxFlagsOffProbes of them, each probed on the sweep's warps, and run in
/// full only when it reaches a new site.
std::vector<BoundedRun> flagsOffRuns(const FunctionDecl *Kernel, const LaunchConfig &Launch,
                                     const Simulation &Primary,
                                     const SampleValues &PrimarySamples, const Sweep &Values,
                                     const std::vector<BoundedRun> &Bounded,
                                     std::set<SiteKey> &Reached, const InterpreterLimits &Limits,
                                     const InterpreterLimits &ProbeLimits,
                                     const SimulationPlan &ProbePlan,
                                     const std::map<const VarDecl *, ArrayLayout> &Layouts,
                                     const AnalysisOptions &Options) {
  std::vector<BoundedRun> Out;
  std::vector<const ParmVarDecl *> Flags;
  std::vector<std::string> Names;
  // Every bool parameter the launch leaves unbound, whether or not the
  // primary reads it (a flag inside a mode's branch is read only by the
  // values that take the branch).
  for (const ParmVarDecl *P : Kernel->parameters())
    if (auto Bound = Launch.Arguments.find(P);
        P->getType()->isBooleanType() &&
        (Bound == Launch.Arguments.end() || !Bound->second.Integer)) {
      Flags.push_back(P);
      Names.push_back(P->getNameAsString());
    }
  if (Flags.empty())
    return Out;
  std::vector<BoundedRun> FromSweep(1);
  FromSweep.front().Samples = PrimarySamples;
  for (const SweepRun &Run : Values.Runs) {
    if (Run.Value == PrimarySamples.UnboundInteger || !Run.OnlyFor.empty() ||
        std::all_of(Run.Sim.Sites.begin(), Run.Sim.Sites.end(),
                    [&](const auto &Site) { return Primary.Sites.count(Site.first) != 0; }))
      continue;
    FromSweep.emplace_back();
    FromSweep.back().Samples = PrimarySamples;
    FromSweep.back().Samples.UnboundInteger = Run.Value;
  }
  std::vector<const BoundedRun *> Bases;
  for (const BoundedRun &Run : FromSweep)
    Bases.push_back(&Run);
  for (const BoundedRun &Run : Bounded)
    Bases.push_back(&Run);
  if (Bases.size() > MaxFlagsOffProbes)
    Bases.resize(MaxFlagsOffProbes);
  for (const BoundedRun *Base : Bases) {
    BoundedRun Run;
    Run.Large = Base->Large;
    Run.Small = Base->Small;
    Run.Tested = Base->Tested;
    Run.TestedValue = Base->TestedValue;
    Run.False = Names;
    Run.Samples = Base->Samples;
    for (const ParmVarDecl *P : Flags)
      Run.Samples.ParameterValues[P] = 0;
    Simulation Probe =
        simulateLaunch(Kernel, Launch, Run.Samples, ProbeLimits, Layouts, Options, &ProbePlan);
    if (std::none_of(Probe.Sites.begin(), Probe.Sites.end(),
                     [&](const auto &Site) { return !Reached.count(Site.first); }))
      continue;
    Run.Sim = simulateLaunch(Kernel, Launch, Run.Samples, Limits, Layouts, Options, nullptr);
    for (const auto &[Key, T] : Run.Sim.Sites)
      Reached.insert(Key);
    Out.push_back(std::move(Run));
  }
  return Out;
}

} // namespace

PrimaryRun runPrimary(const FunctionDecl *Kernel, const LaunchConfig &Launch,
                      const InterpreterLimits &Limits,
                      const std::map<const VarDecl *, ArrayLayout> &Layouts,
                      const AnalysisOptions &Options) {
  auto Simulate = [&](const SampleValues &Samples) {
    return simulateLaunch(Kernel, Launch, Samples, Limits, Layouts, Options, nullptr);
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
  PrimaryRun Out;
  // A parameter the program passes a command-line option's default when
  // run without arguments takes that default in the primary simulation
  // (the sweep still gives it every value).
  for (const auto &[Param, Arg] : Launch.Arguments)
    if (Arg.CommandLineDefault && !Arg.Integer) {
      Out.Samples.ParameterValues[Param] = *Arg.CommandLineDefault;
      Out.CommandLineDefaulted.insert(Param->getNameAsString());
    }
  const SampleValues Defaulted = Out.Samples;
  Out.Sim = Simulate(Out.Samples);
  if (Out.Sim.infeasible() &&
      (!Out.Sim.SampledSymbols.empty() || !Out.Sim.SweptReads.empty())) {
    for (std::int64_t Smaller : llvm::ArrayRef(SampleLadder).drop_front()) {
      SampleValues Try = Defaulted;
      Try.UnboundInteger = Smaller;
      Simulation Retry = Simulate(Try);
      if (!Retry.infeasible()) {
        Out.Sim = std::move(Retry);
        Out.Samples = Try;
        break;
      }
    }
  }
  return Out;
}

LaunchRuns runBeyondPrimary(const FunctionDecl *Kernel, const LaunchConfig &Launch,
                            const Simulation &Primary, const SampleValues &PrimarySamples,
                            const InterpreterLimits &Limits,
                            const std::map<const VarDecl *, ArrayLayout> &Layouts,
                            const AnalysisOptions &Options) {
  auto Simulate = [&](const SampleValues &Samples, const SimulationPlan *Plan) {
    return simulateLaunch(Kernel, Launch, Samples, Limits, Layouts, Options, Plan);
  };
  // A sweep run's warps get a quarter of a warp's usual lane-steps: the
  // sweep compares addresses between values, and all its runs stop alike.
  InterpreterLimits SweepLimits = Limits;
  SweepLimits.MaxSteps = Limits.MaxSteps / 4;

  // What the source leaves open is swept: every unbound integer takes
  // each value of the sweep, on the primary's warps; an unknown grid is
  // tried once more with another shape.
  LaunchRuns Out;
  Sweep &Values = Out.Values;
  bool GridSampled = false;
  for (const std::string &S : Primary.SampledSymbols) {
    if (S == "gridDim")
      GridSampled = true;
    else
      Values.Symbols.push_back(S);
  }
  Values.Reads = Primary.SweptReads;
  Values.PrimaryValue = PrimarySamples.UnboundInteger;
  // The sweep runs on a smaller plan than the primary (the first and the
  // last block, four warps in all), so that its
  // many values fit its budget; all its runs, the primary value's among
  // them, are compared on that plan.
  SimulationPlan SweepPlan;
  const SimulationPlan &Planned = Primary.Plan;
  if (Planned.Blocks.size() > 1) {
    // Two blocks, the first and the last, with the lowest and the highest
    // warp of the plan (the launch's edges) each.
    unsigned Lowest = ~0u, Highest = 0;
    for (const std::vector<unsigned> &Warps : Planned.Warps)
      if (!Warps.empty()) {
        Lowest = std::min(Lowest, Warps.front());
        Highest = std::max(Highest, Warps.back());
      }
    std::vector<unsigned> Edges = {Lowest};
    if (Highest != Lowest)
      Edges.push_back(Highest);
    SweepPlan.Blocks = {Planned.Blocks.front(), Planned.Blocks.back()};
    SweepPlan.Warps = {Edges, Edges};
  } else if (!Planned.Blocks.empty()) {
    // One block: four of its warps, evenly spread, the first and the last.
    const std::vector<unsigned> &AllWarps = Planned.Warps.front();
    std::vector<unsigned> Four;
    for (size_t K = 0; K < std::min<size_t>(4, AllWarps.size()); ++K) {
      size_t At = AllWarps.size() <= 4 ? K : K * (AllWarps.size() - 1) / 3;
      if (Four.empty() || Four.back() != AllWarps[At])
        Four.push_back(AllWarps[At]);
    }
    SweepPlan.Blocks = Planned.Blocks;
    SweepPlan.Warps = {Four};
  }
  if (!Values.Symbols.empty() || !Values.Reads.empty()) {
    // When the primary value stays inside the shared arrays, a value
    // that leaves them is one the program cannot take: its run stops
    // there and is left out. When even the primary leaves them, the
    // access is outside whatever the values (a flattened index past an
    // inner extent), and bounds tell nothing.
    bool BoundsBind = !Primary.OutOfBoundsShared;
    std::vector<SweepRun> LeftOut;
    std::uint64_t Steps = 0;
    // The values the code tests its parameters against come first (a
    // mode flag's bit, a size's threshold): a budget that stops the
    // sweep after a few runs still takes both sides of their branches.
    std::vector<std::int64_t> Order = {PrimarySamples.UnboundInteger};
    for (std::int64_t V : valuesTheCodeTests(Kernel))
      if (std::find(Order.begin(), Order.end(), V) == Order.end())
        Order.push_back(V);
    for (std::int64_t V : sweepValues())
      if (std::find(Order.begin(), Order.end(), V) == Order.end())
        Order.push_back(V);
    // The largest value tried that stayed inside the shared arrays and the
    // smallest that left them.
    std::int64_t Inside = PrimarySamples.UnboundInteger;
    std::int64_t Outside = std::numeric_limits<std::int64_t>::max();
    for (std::size_t Next = 0; Next < Order.size(); ++Next) {
      std::int64_t V = Order[Next];
      // At least three values, whatever they cost: with fewer nothing
      // could be told apart.
      if (Steps > SweepStepBudget && Values.Runs.size() >= 3) {
        Values.Truncated = true;
        break;
      }
      SampleValues Try;
      Try.UnboundInteger = V;
      Try.StopAtOutOfBounds = BoundsBind;
      Simulation Run =
          simulateLaunch(Kernel, Launch, Try, SweepLimits, Layouts, Options, &SweepPlan);
      Steps += Run.Steps;
      // A read another value's control flow reaches is swept too.
      for (const std::string &Read : Run.SweptReads)
        if (std::find(Values.Reads.begin(), Values.Reads.end(), Read) == Values.Reads.end())
          Values.Reads.push_back(Read);
      if (Run.UndefinedArithmetic)
        continue;
      if (BoundsBind && Run.OutOfBoundsShared) {
        Outside = std::min(Outside, V);
        LeftOut.push_back({V, std::move(Run)});
      } else {
        if (V < Outside)
          Inside = std::max(Inside, V);
        Values.Runs.push_back({V, std::move(Run)});
      }
      if (Outside != std::numeric_limits<std::int64_t>::max() && Inside < Outside)
        tryBetweenNext(Inside, Outside, Order, Next + 1);
    }
    // A value left out for leaving a shared array may be the only one to
    // reach some access (a branch on a flag parameter whose other side
    // indexes a shared array by a block wider than it): the out-of-bounds
    // access then need not depend on the value at all. Such a run is
    // simulated again to its end and kept, so that no access any value
    // reaches is dropped.
    std::set<SiteKey> Reached = sitesReached(Primary, Values.Runs);
    for (const SweepRun &Out : LeftOut) {
      bool ReachesMore = std::any_of(Out.Sim.Sites.begin(), Out.Sim.Sites.end(),
                                     [&](const auto &Site) { return !Reached.count(Site.first); });
      if (!ReachesMore)
        continue;
      SampleValues Try;
      Try.UnboundInteger = Out.Value;
      Simulation Whole =
          simulateLaunch(Kernel, Launch, Try, SweepLimits, Layouts, Options, &SweepPlan);
      // Its numbers count only where no feasible value reaches: elsewhere
      // they are those of a value the program cannot take (a scan tree
      // over a count of 65536 in a 513-element list reads 32-way
      // conflicts the program never makes).
      std::set<SiteKey> OnlyFor;
      for (const auto &[Key, T] : Whole.Sites)
        if (Reached.insert(Key).second)
          OnlyFor.insert(Key);
      if (OnlyFor.empty())
        continue;
      Values.Runs.push_back({Out.Value, std::move(Whole), std::move(OnlyFor)});
    }
    if (Values.Truncated)
      Out.Limitations.push_back("the sweep over the values of the unbound parameters stopped "
                              "at " + std::to_string(Values.Runs.size()) + " of " +
                              std::to_string(Order.size()) +
                              " values, to stay within the simulation budget");
  }
  if (GridSampled) {
    SampleValues Other = PrimarySamples;
    Other.AssumedGrid = Dim3{61, 67, 1};
    for (auto &[Key, T] : Simulate(Other, nullptr).Sites)
      Out.GridDigests[Key] = T.AddressDigest;
    Out.GridRun = true;
  }
  std::sort(Values.Runs.begin(), Values.Runs.end(),
            [](const SweepRun &X, const SweepRun &Y) { return X.Value < Y.Value; });

  std::set<SiteKey> &Keys = Out.Keys;
  Keys = sitesReached(Primary, Values.Runs);
  // Swept reads decide branches that unknown data left open: the launch
  // is simulated once more with them unknown, so that an access only
  // some data reaches is never dropped.
  std::optional<Simulation> &Unswept = Out.Unswept;
  if (!Values.Reads.empty()) {
    SampleValues KeepUnknown = PrimarySamples;
    KeepUnknown.SweepMemoryReads = false;
    Unswept = Simulate(KeepUnknown, nullptr);
    for (const auto &[Key, T] : Unswept->Sites)
      Keys.insert(Key);
  }

  // The sweep gives every unbound parameter the same value, and a loop
  // such as `for (i = blockIdx.x * nodes + rank; i < count; ...)` starts
  // at or past `count` under each of them: its accesses would be dropped.
  // One more run gives the parameters the code compares as upper bounds
  // the primary value and the others 1 (ValueSweep.h, limitParameters);
  // the sites only it reaches are reported from it, said so.
  if (Values.Symbols.size() >= 2)
    Out.Bounded = boundedRuns(Kernel, Launch, PrimarySamples, Values.Symbols, Keys, Limits,
                              SweepLimits, SweepPlan, Layouts, Options);
  for (const BoundedRun &Run : Out.Bounded)
    for (const auto &[Key, T] : Run.Sim.Sites)
      Keys.insert(Key);
  for (BoundedRun &Off : flagsOffRuns(Kernel, Launch, Primary, PrimarySamples, Values, Out.Bounded,
                                      Keys, Limits, SweepLimits, SweepPlan, Layouts, Options))
    Out.Bounded.push_back(std::move(Off));
  return Out;
}

} // namespace warpcheck::analysis
