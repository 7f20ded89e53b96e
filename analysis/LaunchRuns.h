//===- LaunchRuns.h - the simulations of a launch beyond the primary ------===//
//
// Private to analysis/. A launch is simulated once with the stated values
// (the primary run, KernelAnalysis.cpp) and again wherever the source
// leaves something open: every unbound integer over the sweep's values
// (ValueSweep.h), the warp-uniform reads from memory left unknown so that
// both sides of the branches they decide are taken, the parameters compared
// as upper bounds large and the others small, and another grid shape when
// none is known. Each site is then reported from the run that says the most
// about it.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_LAUNCHRUNS_H
#define WARPCHECK_ANALYSIS_LAUNCHRUNS_H

#include "Simulation.h"
#include "ValueSweep.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warpcheck::analysis {

/// One run with the upper bounds large (LaunchRuns::Bounded).
struct BoundedRun {
  Simulation Sim;
  /// At the primary value: the parameters compared as upper bounds.
  std::vector<std::string> Large;
  /// At 1.
  std::vector<std::string> Small;
  /// A parameter at a value the code tests it against, or none.
  std::string Tested;
  std::int64_t TestedValue = 0;
  /// The bool parameters at false: a run with the flags off, made from the
  /// primary's values (Large and Small then empty) or from a bounded run's.
  std::vector<std::string> False;
  /// The values it was simulated with.
  SampleValues Samples;
};

/// The primary run: the launch simulated with the values it states, an
/// integer no launch site fixes at the sample value (4096, or the first
/// smaller one that keeps the kernel's arithmetic defined) and a parameter
/// the program passes a command-line option's default at that default.
struct PrimaryRun {
  Simulation Sim;
  /// The values it was simulated with.
  SampleValues Samples;
  /// The parameters at a command-line option's default.
  std::set<std::string> CommandLineDefaulted;
};

struct LaunchRuns {
  /// The sweep over the unbound values and the swept reads.
  Sweep Values;
  /// With the swept reads unknown (both arms of what they decide taken).
  std::optional<Simulation> Unswept;
  /// The runs with the parameters compared as upper bounds large: the
  /// first with the others at 1, each further one with one of those at a
  /// value the code tests (a mode flag's bit). Kept only when it reaches a
  /// site no earlier run does; a site is reported from the first that
  /// reaches it. Last, the runs with the unbound bool parameters false,
  /// one from the primary's values and one from each bounded run's, kept
  /// on the same terms.
  std::vector<BoundedRun> Bounded;
  /// Each site's address digest under another grid shape, when the grid is
  /// sampled (GridRun).
  std::map<SiteKey, std::uint64_t> GridDigests;
  bool GridRun = false;
  /// Every site any run (the primary's among them) reached.
  std::set<SiteKey> Keys;
  /// For the launch's limitations (a sweep cut short by its budget).
  std::vector<std::string> Limitations;
};

/// The primary run of Launch.
PrimaryRun runPrimary(const clang::FunctionDecl *Kernel, const LaunchConfig &Launch,
                      const InterpreterLimits &Limits,
                      const std::map<const clang::VarDecl *, ArrayLayout> &Layouts,
                      const AnalysisOptions &Options);

/// The runs of Launch beyond Primary, simulated with PrimarySamples.
LaunchRuns runBeyondPrimary(const clang::FunctionDecl *Kernel, const LaunchConfig &Launch,
                            const Simulation &Primary, const SampleValues &PrimarySamples,
                            const InterpreterLimits &Limits,
                            const std::map<const clang::VarDecl *, ArrayLayout> &Layouts,
                            const AnalysisOptions &Options);

} // namespace warpcheck::analysis

#endif
