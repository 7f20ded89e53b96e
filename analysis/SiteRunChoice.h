//===- SiteRunChoice.h - the run each site of a launch is reported from ---===//
//
// Private to analysis/. A launch is simulated several times (LaunchRuns.h):
// the primary run, the sweep over the values the source leaves open, the
// run with the swept reads unknown, the runs with the upper bounds large.
// Each site is reported from the one that says the most about it: a site
// whose addresses depend on the swept values from the sweep's worst value,
// simulated again on the primary's warps; a site only the run with the reads
// unknown reaches from that run; one only a bounded run reaches from it; any
// other from the primary.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_SITERUNCHOICE_H
#define WARPCHECK_ANALYSIS_SITERUNCHOICE_H

#include "LaunchRuns.h"

#include <map>
#include <optional>

namespace warpcheck::analysis {

/// The run a site is reported from.
struct SiteRun {
  /// The simulation whose numbers the site reports (it may not hold the
  /// site: then no run reached it).
  const Simulation *Sim = nullptr;
  /// How the site's numbers depend on the swept values, when they do.
  std::optional<ValueDependence> Dependence;
  /// The bounded run the site is reported from, when only one reaches it.
  const BoundedRun *OnlyBounded = nullptr;
};

class SiteRunChooser {
public:
  SiteRunChooser(const clang::FunctionDecl *Kernel, const LaunchConfig &Launch,
                 const PrimaryRun &Primary, const LaunchRuns &Runs,
                 const InterpreterLimits &Limits,
                 const std::map<const clang::VarDecl *, ArrayLayout> &Layouts,
                 const AnalysisOptions &Options)
      : Kernel(Kernel), Launch(Launch), Primary(Primary), Runs(Runs), Limits(Limits),
        Layouts(Layouts), Options(Options) {}

  SiteRun choose(const SiteKey &Key);

private:
  /// The sweep's run Run on the primary's plan, or null.
  const Simulation *fullPlanRun(std::size_t Run);

  const clang::FunctionDecl *Kernel;
  const LaunchConfig &Launch;
  const PrimaryRun &Primary;
  const LaunchRuns &Runs;
  const InterpreterLimits &Limits;
  const std::map<const clang::VarDecl *, ArrayLayout> &Layouts;
  const AnalysisOptions &Options;
  /// The sweep's worst values simulated on the primary's plan, by run.
  std::map<std::size_t, Simulation> FullWorst;
};

} // namespace warpcheck::analysis

#endif
