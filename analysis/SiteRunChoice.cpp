//===- SiteRunChoice.cpp - the run each site of a launch is reported from -===//

#include "SiteRunChoice.h"

#include "clang/AST/Decl.h"

using namespace clang;

namespace warpcheck::analysis {

// A sweep run covers the sweep's few warps (the first and the last block's
// edges, or four of one block's warps): a site's worst value is simulated
// again on the primary's plan, so that its numbers average the same warps
// as every other site's (a scan tree's levels leave whole warps idle, and
// four warps of eight weigh them unevenly). At most MaxFullWorstRuns values
// per launch; past them, the sweep's numbers, said so by their warp count.
static constexpr std::size_t MaxFullWorstRuns = 3;

const Simulation *SiteRunChooser::fullPlanRun(std::size_t Run) {
  const SweepRun &Swept = Runs.Values.Runs[Run];
  if (Swept.Sim.SimulatedWarps >= Primary.Sim.SimulatedWarps || !Swept.OnlyFor.empty())
    return nullptr;
  // The stated value is the primary's own run (unless the primary gave
  // some parameters their command-line defaults).
  if (Swept.Value == Primary.Samples.UnboundInteger && Primary.CommandLineDefaulted.empty())
    return &Primary.Sim;
  if (auto It = FullWorst.find(Run); It != FullWorst.end())
    return &It->second;
  if (FullWorst.size() == MaxFullWorstRuns)
    return nullptr;
  SampleValues Try = Primary.Samples;
  Try.UnboundInteger = Swept.Value;
  Try.ParameterValues.clear();
  return &FullWorst
              .emplace(Run, simulateLaunch(Kernel, Launch, Try, Limits, Layouts, Options, nullptr))
              .first->second;
}

SiteRun SiteRunChooser::choose(const SiteKey &Key) {
  const Sweep &Values = Runs.Values;
  const Simulation &PrimarySim = Primary.Sim;
  SiteRun Out;
  // A site that depends on the swept values reports the sweep's worst run
  // (on the sweep's plan); any other the full primary.
  std::size_t From = 0;
  std::optional<ValueDependence> &Dependence = Out.Dependence;
  if (!Values.Symbols.empty() || !Values.Reads.empty())
    Dependence = dependenceOf(Key, Values, From);
  // The numbers of a run without command-line arguments: every value the
  // site depends on is an option's default (the sweep's range said beside
  // them), and that run reached it. Values read from memory or a parameter
  // with no default leave the sweep's worst case.
  if (Dependence && !Primary.CommandLineDefaulted.empty() && Values.Reads.empty() &&
      PrimarySim.Sites.count(Key) &&
      llvm::all_of(Values.Symbols,
                   [&](const std::string &S) { return Primary.CommandLineDefaulted.count(S); }))
    for (const auto &[Param, Arg] : Launch.Arguments)
      if (Arg.CommandLineDefault && !Arg.Integer)
        Dependence->CommandLineDefaults.push_back(
            {Param->getNameAsString(), *Arg.CommandLineDefault});
  // A representative value is the primary's: its full plan is used when it
  // reached the site; so are the command-line defaults.
  bool AtStatedValues =
      Dependence && (Dependence->RepresentativeValue || !Dependence->CommandLineDefaults.empty());
  bool FromSweep = Dependence && (!AtStatedValues || !PrimarySim.Sites.count(Key));
  Out.Sim = FromSweep ? &Values.Runs[From].Sim : &PrimarySim;
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
    const Simulation *Full = fullPlanRun(From);
    if (Full && !Full->infeasible() && OnFullPlan(*Full, Values.Runs[From].Value) && FromSweep)
      Out.Sim = Full;
    if (Primary.CommandLineDefaulted.empty())
      OnFullPlan(PrimarySim, Primary.Samples.UnboundInteger);
  }
  // A site no swept value reaches (the arm of `if (tid < offset)` that
  // offset = 4096 never takes) is reported as the data leaves it: from the
  // simulation that kept the reads unknown, both arms taken.
  if (!Out.Sim->Sites.count(Key) && Runs.Unswept && Runs.Unswept->Sites.count(Key)) {
    Out.Sim = &*Runs.Unswept;
    Dependence.reset();
  }
  for (const BoundedRun &Run : Runs.Bounded)
    if (!Out.Sim->Sites.count(Key) && Run.Sim.Sites.count(Key)) {
      Out.Sim = &Run.Sim;
      Dependence.reset();
      Out.OnlyBounded = &Run;
    }
  return Out;
}

} // namespace warpcheck::analysis
