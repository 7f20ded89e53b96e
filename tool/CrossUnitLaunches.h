//===- CrossUnitLaunches.h - launches one unit makes of another's kernels -===//
//
// A compile database's units are parsed one at a time, each in a worker of
// its own, but a program often launches in main.cu a kernel defined in
// kernels.cu (declared extern in main.cu or in a header). Each worker
// reports the launches it evaluated of kernels it only declares, and the
// kernels it defines but could not see launched; the units that define a
// kernel another unit launches are then analysed once more with those
// launches (LaunchDefaults::OtherUnits). Host functions likewise: main.cpp
// calls `sortArrays(keys, n, 64)`, defined in sort.cu where it launches
// with its parameters; main.cpp reports the call and its integer
// arguments, sort.cu the functions it ran with unknown parameters, and
// sort.cu is analysed once more, the function run once per call
// (LaunchSiteIndex's OtherUnitCalls). Only those units are parsed twice.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_CROSSUNITLAUNCHES_H
#define WARPCHECK_TOOL_CROSSUNITLAUNCHES_H

#include "Workers.h"

#include "warpcheck/analysis/LaunchConfig.h"

#include "llvm/Support/JSON.h"

#include <functional>
#include <vector>

namespace warpcheck::tool {

/// What the units of one run tell each other: launches of kernels and
/// calls of host functions that another unit defines.
struct OtherUnitsTable {
  analysis::CrossUnitLaunches Launches;
  analysis::CrossUnitCalls Calls;
};

llvm::json::Value crossUnitLaunchesToJson(const analysis::CrossUnitLaunches &L);
/// False (and Out partly filled) when V is not such a table.
bool crossUnitLaunchesFromJson(const llvm::json::Value &V, analysis::CrossUnitLaunches &Out);
llvm::json::Value crossUnitCallsToJson(const analysis::CrossUnitCalls &C);
bool crossUnitCallsFromJson(const llvm::json::Value &V, analysis::CrossUnitCalls &Out);

/// Reads the table a job was given (TranslationUnitJob::OtherUnitsFile):
/// {"launches": {...}, "calls": {...}}.
bool readOtherUnitsTable(const std::string &Path, OtherUnitsTable &Out, std::string &Error);

/// Rounds of bindLaunchesAcrossUnits after the first run: a chain of calls
/// through this many units is followed to its launches.
inline constexpr unsigned MaxCrossUnitRounds = 3;

/// After the first run of every job: the launches each unit made of the
/// others' kernels go to the units that define them and saw no launch of
/// their own, and the calls each unit made of the others' host functions
/// (methods with what is known of their object) go to the units that
/// define them and ran them with unknown parameters; those jobs run again
/// (Rerun, with OtherUnitsFile set) and their outcomes replace the first
/// ones. A unit whose run makes new calls passes them on in the next round,
/// up to MaxCrossUnitRounds.
void bindLaunchesAcrossUnits(
    std::vector<TranslationUnitJob> &Jobs, std::vector<JobOutcome> &Outcomes,
    const std::function<std::vector<JobOutcome>(const std::vector<TranslationUnitJob> &)>
        &Rerun);

} // namespace warpcheck::tool

#endif
