//===- AccessReport.h - what the analysis found for each memory access ----===//
#ifndef WARPCHECK_ANALYSIS_ACCESSREPORT_H
#define WARPCHECK_ANALYSIS_ACCESSREPORT_H

#include "warpcheck/analysis/AccessKinds.h"
#include "warpcheck/analysis/LaunchConfig.h"
#include "warpcheck/model/GlobalMemory.h"
#include "warpcheck/model/SharedMemory.h"
#include "warpcheck/model/WarpAddressSet.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::analysis {

/// One memory access in the source: an expression and what it does.
struct AccessSite {
  const clang::Expr *Expr = nullptr;
  AccessOp Op = AccessOp::Load;
  MemorySpace Space = MemorySpace::Global;
  unsigned BytesPerLane = 0;
  /// The __shared__ variable the access goes through, when it is one.
  const clang::VarDecl *SharedVar = nullptr;
  /// An atomic: what decides whether the compiler aggregates it per warp.
  model::AtomicTraits Atomic;
};

/// Averages over all simulated warp requests of one access site.
struct AccessCost {
  unsigned Requests = 0;
  double SectorsPerRequest = 0, IdealSectorsPerRequest = 0;
  double LinesPerRequest = 0, IdealLinesPerRequest = 0;
  double WavefrontsPerRequest = 0, IdealWavefrontsPerRequest = 0;

  /// Global: ideal sectors / sectors. Shared: ideal wavefronts / wavefronts.
  double efficiency(MemorySpace Space) const;
  double lineEfficiency() const {
    return LinesPerRequest > 0 ? IdealLinesPerRequest / LinesPerRequest : 1.0;
  }
};

/// How an access's numbers vary with values the source leaves open (kernel
/// parameters no launch site binds): the launch is simulated once per value
/// of a sweep, every unbound integer parameter taking that value, and an
/// access whose addresses differ between two values depends on them.
struct ValueDependence {
  /// The unbound parameters the kernel read ("size", "n").
  std::vector<std::string> Symbols;
  /// The warp-uniform integer reads from memory swept with them (their
  /// source text: "*n", "row_start[row + 1]").
  std::vector<std::string> MemoryReads;
  struct Sample {
    std::int64_t Value = 0;
    /// The access was executed under this value.
    bool Reached = false;
    AccessCost Cost;
  };
  /// Ascending by Value; values under which the kernel's arithmetic
  /// overflows are left out (no valid program executes them).
  std::vector<Sample> Samples;
  /// The access's metric (sectors per request for a global access,
  /// wavefronts for a shared one): its largest and smallest value over the
  /// samples that reached it.
  double Worst = 0, Best = 0;
  /// Where the worst case, the lowest efficiency, is: "when 'size' <= 16",
  /// "unless 'offset' is a multiple of 8", "when 'n' is 4, 8 or 16", "for
  /// every value tried"; "reached only when ..." when some values do not
  /// reach the access. The access's Cost is that of the worst case.
  std::string WorstCondition;
  /// The sweep stopped early (its budget of lane-steps).
  bool Truncated = false;
  /// Set when only values read from memory were swept: the access's Cost
  /// is then that of this value (the primary), not the worst case, which
  /// WorstCondition still locates.
  std::optional<std::int64_t> RepresentativeValue;
  /// Set when every swept parameter has a default the host code passes
  /// when the program runs without command-line arguments (LaunchConfig.h,
  /// BoundArgument::CommandLineDefault): the access's Cost is that run's,
  /// not the worst case; (parameter, value) in the kernel's order.
  std::vector<std::pair<std::string, std::int64_t>> CommandLineDefaults;
};

/// Where an access's instructions come from.
enum class InstructionOrigin {
  /// Costed as the source writes it: one instruction of its own width per
  /// execution (no listing was read).
  Source,
  /// Matched with the memory instructions of the compiled kernel, read from
  /// the toolkit's listing (SassListing.h, EmittedInstructions.h).
  Listing,
  /// No listing; the source's accesses reshaped as the compiler is
  /// predicted to emit them (RegisterPromotion.h, UnrolledMerges.h): said
  /// by an assumption; merged instructions are listed as predicted.
  Model,
};

/// The requests an access in a device function run inline made through
/// one call on the way to it (a call in the kernel, or in a function
/// between): where nvcc's line table puts their instructions on the call's
/// line, what Nsight Compute counts there.
struct CallSiteCost {
  const clang::CallExpr *Call = nullptr;
  AccessCost Cost;
};

/// One kind of instruction that executes an access: an opcode at a source
/// line, serving one or more accesses of the source. An access has one per
/// shape its executions took (an unrolled reduction's s[i] + s[i + s] is one
/// LDS.64 at s = 1 and 4-byte loads after it).
struct EmittedInstruction {
  /// As the listing spells it: "LDS.64", "LDG.E.128".
  std::string Opcode;
  unsigned BytesPerLane = 0;
  /// Where the listing puts it: the access's own line, unless Moved.
  std::string File;
  unsigned Line = 0;
  /// The other lines of File the listing puts copies of it on (a loop
  /// nvcc unrolled, whose copies the line table spreads over several of
  /// the loop's lines), in order; empty for most.
  std::vector<unsigned> OtherLines;
  /// One instruction serves several executions of the source (two
  /// accesses, or consecutive executions of one in an unrolled loop): its
  /// width is theirs together.
  bool Merged = false;
  /// The access is served by several narrower instructions.
  bool Split = false;
  /// The listing puts the instruction on another line than the access's.
  bool Moved = false;
  /// Moved out of a loop the access is written in: the instruction
  /// executes once where the loop executes it with the same addresses again.
  bool Hoisted = false;
  /// In a loop nvcc unrolled: an execution with the addresses of an earlier
  /// one makes no request (a load kept in a register, a store that a later
  /// one overwrites dropped).
  bool RepeatsRemoved = false;
  /// The accesses whose executions it serves, in the order of their
  /// addresses (this access among them).
  std::vector<const clang::Expr *> Serves;
  /// Set when the numbers of these requests are counted with another access
  /// of Serves (the one at the lowest address): Cost then holds none,
  /// ServedExecutions how many of this access's executions it served.
  const clang::Expr *CountedWith = nullptr;
  unsigned ServedExecutions = 0;
  /// The instructions' requests counted with this access, and their averages.
  AccessCost Cost;
};

struct AccessResult {
  AccessSite Site;
  AccessStatus Status = AccessStatus::Exact;
  /// Why the status is not exact, one sentence and its kind each.
  std::vector<Assumption> Assumptions;
  AccessCost Cost;
  /// The most expensive request seen, for messages (lanes, banks).
  std::optional<model::WarpAddressSet> WorstRequest;
  model::GlobalRequestCost WorstGlobal;
  model::SharedRequestCost WorstShared;
  /// Byte distance between consecutive active lanes in the worst request
  /// when it is constant.
  std::optional<std::int64_t> LaneStrideBytes;
  /// Global atomics: requests the compiler aggregates (one lane's for the
  /// warp), of Cost.Requests.
  unsigned AggregatedRequests = 0;
  /// The index term that spreads lanes apart, e.g. "'x' (which varies with
  /// threadIdx.x) is multiplied by 'N' (= 4096)"; empty when not found.
  std::string SpreadingTerm;
  /// An unknown access whose address is computed from a read of memory (a
  /// gather or scatter): that read, e.g. 'col[j]'; empty otherwise.
  std::string DataSource;
  /// Set when the access depends on values the source leaves open: Cost
  /// and the worst request are then the worst case of the sweep, and the
  /// status is assumed.
  std::optional<ValueDependence> Dependence;
  /// The access nvcc may emit in one wider instruction with this one
  /// (MemoryInstructions.h): its numbers are those of separate
  /// instructions, so the checks report nothing on it.
  const clang::Expr *MayMergeWith = nullptr;
  /// Lane accesses in the simulated warps (each lane's element or chunk).
  double LaneAccesses = 0;
  /// Global loads: how many distinct threads of the first simulated block
  /// read each element the access reads, on average (0 when not known),
  /// and how many distinct elements each of them reads (1 when the address
  /// does not change in a loop around it).
  double FirstBlockReuse = 0, FirstBlockElementsPerThread = 0;
  /// Global loads: the requests of the first simulated block that fetch
  /// each sector the load reads, on average (Simulation.h).
  double FirstBlockSectorFetches = 0;
  /// Listing: Cost and the worst request are those of the instructions
  /// that execute the access (requests another access's instruction
  /// serves are counted with that access), each kind listed in
  /// Instructions. Source: Instructions is empty.
  InstructionOrigin InstructionsFrom = InstructionOrigin::Source;
  std::vector<EmittedInstruction> Instructions;
  /// Its requests through each call of the function that holds it, in
  /// the order of the calls' positions; empty for an access of the
  /// kernel's own body.
  std::vector<CallSiteCost> CallSites;
};

struct KernelLaunchAnalysis {
  const clang::FunctionDecl *Kernel = nullptr;
  LaunchConfig Launch;
  std::vector<AccessResult> Accesses;
  /// Simulated warps and total warps of the launch.
  unsigned SimulatedWarps = 0;
  std::uint64_t TotalWarps = 0;
  /// Blocks of which some warps were simulated, and the launch's blocks
  /// (the sample: the analysis's SimulationPlan.h).
  unsigned SimulatedBlocks = 0;
  std::uint64_t TotalBlocks = 0;
  /// Parameters whose values were sampled (not known from a launch site).
  std::vector<std::string> SampledSymbols;
  /// Anything that stopped the analysis early, e.g. an unsupported statement.
  std::vector<std::string> Limitations;
  /// The value every unbound integer parameter took (SampledSymbols).
  std::int64_t SampledInteger = 4096;
  /// FLOPs per lane executed inside each loop statement, summed over the
  /// simulated warps (loops cut short count their simulated iterations).
  std::map<const clang::Stmt *, double> LoopFlops;
  /// What the simulation budget cut in the launch as a whole, each a
  /// sentence also in Limitations: fewer warps simulated than planned (the
  /// numbers average those), a warp stopped at its step budget (its later
  /// accesses are missing). Cuts of one access (a loop cut short, the sweep
  /// stopped) are that access's assumptions.
  std::vector<std::string> BudgetCuts;
  /// Some warp stopped at its step budget: accesses after that point were
  /// not simulated, and may be missing altogether.
  bool StepBudgetExhausted = false;
};

} // namespace warpcheck::analysis

#endif
