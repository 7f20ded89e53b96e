//===- KernelEntries.h - kernels, launches and accesses of a run, typed ---===//
//
// What the translation-unit job found for each kernel: built once from the
// analysis (KernelEntryBuilder.h), merged and counted by RunResult, shown
// by the HTML writer, and written as JSON by toJson here, the one writer of
// the --format=json contract for kernels (docs/json-format.md): fields are
// only ever added, never renamed. A worker process hands its kernels over
// as that JSON; kernelFromJson reads it back, and toJson gives the same
// bytes again.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_KERNELENTRIES_H
#define WARPCHECK_TOOL_KERNELENTRIES_H

#include "AosEntries.h"
#include "WorkEntries.h"

#include "warpcheck/analysis/AccessKinds.h"

#include "llvm/Support/JSON.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// A block or grid: x, y, z.
using Dims = std::array<std::int64_t, 3>;

/// The launch shape an entry was analysed with, and where it came from.
struct LaunchEntry {
  Dims Block{1, 1, 1};
  /// nullopt: no launch gives the grid.
  std::optional<Dims> Grid;
  /// "launch", "annotation", "inferred", "launch_bounds" or "default".
  std::string Source;
  /// "the launch at main.cu:40", "the default block (256, 1, 1)".
  std::string Description;
  std::optional<std::int64_t> DynamicSharedBytes;
  /// "main.cu:40"; empty (no "location") for inferred shapes,
  /// __launch_bounds__ and the default block.
  std::string Location;
  /// The calls, loop iterations and cases that led to the launch.
  std::vector<std::string> Context;
  /// Why each launch of the kernel that could not be evaluated was not.
  std::vector<std::string> UnevaluatedLaunches;
  /// A launch on branch ways: whether the program run without command-line
  /// arguments makes it (analysis::LaunchConfig::WithoutArguments).
  std::optional<bool> WithoutArguments;
};

/// How an access's numbers vary with a parameter no launch binds
/// (analysis::ValueDependence, rounded as reported).
struct ValueDependenceEntry {
  std::vector<std::string> Symbols;
  /// Warp-uniform integer reads from memory swept with the symbols.
  std::vector<std::string> MemoryReads;
  /// Only memory reads were swept: the access's numbers are this value's.
  std::optional<std::int64_t> RepresentativeValue;
  /// Every swept parameter's command-line default: the access's numbers are
  /// those of a run without command-line arguments.
  std::vector<std::pair<std::string, std::int64_t>> CommandLineDefaults;
  /// The metric: sectors per request (global) or wavefronts (shared).
  double Worst = 0, Best = 0;
  std::string Condition;
  bool Truncated = false;
  struct Sample {
    std::int64_t Value = 0;
    bool Reached = false;
    /// nullopt when the value does not reach the access.
    std::optional<double> Metric;
  };
  std::vector<Sample> Samples;
};

/// The requests an access in a device function run inline made through
/// one call on the way to it (analysis::CallSiteCost, rounded as
/// reported): the call's position and the numbers of those requests.
struct CallSiteEntry {
  std::optional<std::string> File;
  std::int64_t Line = 0, Column = 0;
  std::int64_t RequestsSimulated = 0;
  std::optional<double> SectorsPerRequest, IdealSectorsPerRequest;
  std::optional<double> WavefrontsPerRequest, IdealWavefrontsPerRequest;
};

/// One kind of instruction that executes an access, as read from the
/// compiled kernel's listing (analysis::EmittedInstruction, rounded as
/// reported).
struct InstructionEntry {
  std::string Opcode;
  std::int64_t BytesPerLane = 0;
  std::optional<std::string> File;
  std::int64_t Line = 0;
  /// The other lines of File the listing puts copies of it on.
  std::vector<std::int64_t> OtherLines;
  /// "merged", "split", "moved", "hoisted"; empty: as written.
  std::vector<std::string> Changes;
  /// The source text of the accesses it serves.
  std::vector<std::string> Serves;
  /// The access its requests are counted with, when another.
  std::optional<std::string> CountedWith;
  std::int64_t RequestsSimulated = 0, ServedExecutions = 0;
  std::optional<double> SectorsPerRequest, IdealSectorsPerRequest;
  std::optional<double> WavefrontsPerRequest, IdealWavefrontsPerRequest;
};

/// One analysed memory access of a launch. Per-request numbers are
/// averages rounded to four decimals; nullopt where they do not apply (a
/// global access has no wavefronts) or are not known (an unknown access).
struct AccessEntry {
  /// All three nullopt when the access names no file.
  std::optional<std::string> File;
  std::optional<std::int64_t> Line, Column;
  /// The line the access's expression ends on, in the same file (Line for
  /// a one-line expression): nvcc's line table may put its instruction on
  /// any line of a multi-line expression.
  std::optional<std::int64_t> EndLine;
  std::string Expression;
  analysis::MemorySpace Space = analysis::MemorySpace::Global;
  analysis::AccessOp Op = analysis::AccessOp::Load;
  std::int64_t BytesPerLane = 0;
  analysis::AccessStatus Status = analysis::AccessStatus::Exact;
  std::int64_t RequestsSimulated = 0;
  std::optional<double> SectorsPerRequest, IdealSectorsPerRequest;
  std::optional<double> LinesPerRequest, IdealLinesPerRequest, LineEfficiency;
  std::optional<double> WavefrontsPerRequest, IdealWavefrontsPerRequest;
  std::optional<double> Efficiency;
  /// Global atomics with numbers: whether the compiler aggregates every
  /// request per warp; nullopt for every other access.
  std::optional<bool> Aggregated;
  std::optional<std::string> SharedVariable;
  /// Shared accesses with numbers.
  std::optional<std::int64_t> ConflictDegree;
  std::vector<analysis::Assumption> Assumptions;
  std::optional<ValueDependenceEntry> ValueDependence;
  /// An unknown access computed from a read of memory: that read
  /// ("col[j]"); written only when there is one.
  std::optional<std::string> DataSource;
  /// "source" (costed as written) or "listing" (the compiled kernel's
  /// instructions, each kind in Instructions).
  std::string InstructionsFrom = "source";
  std::vector<InstructionEntry> Instructions;
  /// Its requests through each call of the function that holds it.
  std::vector<CallSiteEntry> CallSites;
};

/// Registers and theoretical occupancy of a launch on one architecture.
struct OccupancyEntry {
  std::string Arch;
  std::int64_t Registers = 0;
  /// "ptxas" or "estimate".
  std::string RegistersSource;
  std::int64_t ActiveBlocksPerSM = 0, ActiveWarpsPerSM = 0;
  /// 0 to 1, rounded to four decimals.
  double Theoretical = 0;
  /// "warps", "blocks", "registers", "shared memory", ...
  std::string Limiter;
};

/// What a launch uses on the target architecture.
struct LaunchResourcesEntry {
  OccupancyEntry Occupancy;
  std::int64_t SharedBytesStatic = 0, SharedBytesDynamic = 0;
  /// ptxas's spill stores and loads in bytes per thread; unset for the
  /// estimate, which knows nothing of spills.
  std::optional<std::int64_t> SpillStoreBytes, SpillLoadBytes;
  /// What the numbers rest on when not the plain ptxas count of the unit.
  std::vector<std::string> Assumptions;
};

/// One architecture of an --arch list.
struct ArchOccupancyEntry {
  std::string Arch;
  /// nullopt when no register count could be had; Unavailable says why.
  std::optional<OccupancyEntry> Occupancy;
  std::string Unavailable;
};

/// Where a kernel that does not compile stops; for a kernel whose analysis
/// failed, the kernel itself and why.
struct KernelErrorEntry {
  std::optional<std::string> File;
  std::optional<std::int64_t> Line, Column;
  std::string Message;
  /// The callee the error is in, when not the kernel itself.
  std::optional<std::string> Function;
};

enum class KernelStatus { Analysed, Error, Failed };

/// One kernel launch shape (status analysed), one kernel that does not
/// compile (status error: Error is set, Launch is not, no accesses), or one
/// kernel whose analysis failed inside warpcheck (status failed: a crash
/// or code nested too deeply, contained; as for error).
struct KernelEntry {
  /// Qualified, with template arguments.
  std::string Name;
  std::optional<std::string> File;
  std::optional<std::int64_t> Line;
  KernelStatus Status = KernelStatus::Analysed;
  std::optional<KernelErrorEntry> Error;
  std::optional<LaunchEntry> Launch;
  std::int64_t SimulatedWarps = 0, TotalWarps = 0;
  /// Blocks of which some warps were simulated (the launch's blocks are
  /// Work->TotalBlocks).
  std::int64_t SimulatedBlocks = 0;
  std::vector<std::string> SampledSymbols;
  /// Anything that stopped the analysis early; "occupancy not computed:
  /// ..." when Resources is nullopt.
  std::vector<std::string> Limitations;
  /// The limitations that are cuts of the simulation budget in the launch
  /// as a whole (KernelLaunchAnalysis::BudgetCuts).
  std::vector<std::string> BudgetCuts;
  std::vector<AccessEntry> Accesses;
  /// The arrays of structs the launch reads and writes (AosEntries.h).
  std::vector<AosEntry> Aos;
  std::optional<LaunchResourcesEntry> Resources;
  /// Only with an --arch list: the target first.
  std::optional<std::vector<ArchOccupancyEntry>> OccupancyByArch;
  /// FLOPs, DRAM bytes and the roofline verdict of the launch
  /// (WorkEntries.h); nullopt for a kernel that does not compile.
  std::optional<WorkEntry> Work;
};

/// The contract's object; kernelFromJson(toJson(K)) gives K back, and a
/// field of the wrong type reads as absent.
llvm::json::Object toJson(const KernelEntry &K);
KernelEntry kernelFromJson(const llvm::json::Object &O);

} // namespace warpcheck::tool

#endif
