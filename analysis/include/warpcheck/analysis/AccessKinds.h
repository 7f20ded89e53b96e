//===- AccessKinds.h - the words that describe one memory access ----------===//
//
// What kind of access it is, how sure its numbers are, and what they rest
// on. Plain C++ with no Clang type: the report's typed entries
// (tool/KernelEntries.h) hold these, and read them back from the names the
// JSON contract writes (docs/json-format.md).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_ACCESSKINDS_H
#define WARPCHECK_ANALYSIS_ACCESSKINDS_H

#include <string>

namespace warpcheck::analysis {

enum class MemorySpace { Global, Shared };
enum class AccessOp { Load, Store, Atomic };

/// exact: every value the addresses depend on is known from the source and
/// the launch site (bases assumed 256-byte aligned, as cudaMalloc returns):
/// an access whose addresses differ for any value of an unbound parameter
/// is never exact; assumed: the numbers rest on an assumption listed with
/// them (a parameter no launch binds, swept over a range of values, a
/// default launch shape, a data-dependent branch, a truncated loop);
/// unknown: an address depends on data read from memory, or on a value the
/// simulation could not follow.
enum class AccessStatus { Exact, Assumed, Unknown };

/// What an access's numbers rest on, one kind per place in the analysis
/// that can make an assumption, so that scripts select by kind (the H200
/// comparison accepts accesses that assume only the launch's shape)
/// instead of reading the sentences.
enum class AssumptionKind {
  /// An address depends on values read from memory (the access is unknown).
  DataDependentAddress,
  /// The block shape comes from the default block, __launch_bounds__ or the
  /// kernel's own code, not from a launch.
  BlockShape,
  /// No launch of the kernel could be evaluated; another shape stands for them.
  UnevaluatedLaunch,
  /// The addresses differ with a kernel parameter no launch binds (the
  /// access has a value dependence: its numbers are the sweep's worst case).
  UnboundValue,
  /// The sweep over the unbound parameters stopped early: the addresses
  /// were the same for the values tried, not for every value.
  TruncatedSweep,
  /// The numbers depend on gridDim, which no launch site gives.
  GridShape,
  /// The access is under a data-dependent condition all lanes were assumed
  /// to take.
  DataDependentBranch,
  /// A whole-struct copy was split into field-sized requests.
  StructCopy,
  /// An enclosing loop was cut short by the simulation budget.
  LoopBudget,
  /// An enclosing loop was simulated for its first iterations only.
  LoopIterations,
  /// nvcc may emit the access in one wider instruction with another.
  MergedInstruction,
  /// The addresses differ with warp-uniform integers read from memory (and
  /// with nothing a launch leaves open): the numbers are those of the
  /// stated value (value_dependence.representative_value).
  MemoryValue,
  /// A shared-memory atomic the compiler emits as a compare-and-swap loop
  /// (floating point, 64-bit): its rounds depend on how the lanes race;
  /// the numbers are those of one round.
  RetryLoop,
  /// A launch's FLOP count leaves out operations that compile to an
  /// instruction sequence (a division, a square root, a math function).
  UncountedOperation,
  /// A launch's counts take the blocks of a class (interior, last along an
  /// axis) to do what the one simulated did, and two simulated blocks
  /// showed otherwise.
  IrregularBlocks,
  /// The simulation of a launch met a construct it does not run (goto).
  IncompleteSimulation,
  /// The compiled kernel's memory instructions were read, and the ones on
  /// the access's line could not be matched with it.
  UnmatchedInstructions,
  /// Without a listing: the access is predicted to be kept in a register
  /// across its loop (RegisterPromotion.h), one request for its repeated
  /// executions.
  KeptInRegister,
  /// Without a listing: a whole struct copied from global to global memory
  /// (`out[i] = in[i]`), every field used, predicted as nvcc emits it: one
  /// load and one store per min(alignment, 16) bytes.
  SplitCopy,
  /// A launch writes sectors of global memory only in part: the L2 reads
  /// such a sector from DRAM before writing it back, which the DRAM reads
  /// leave out.
  PartialSectorWrite,
  /// An address depends on a value the simulation could not follow, and no
  /// read from memory was found in its computation (an opaque call, inline
  /// assembly): the access is unknown, but not data-dependent.
  UnfollowedValue,
  /// The addresses differ with kernel parameters whose values a command-line
  /// option sets: the numbers are those of the program run without
  /// command-line arguments (value_dependence.command_line_defaults), the
  /// sweep's range beside them.
  CommandLineDefault,
  /// Without a listing: a load the compiler makes once before its loop,
  /// whose line in the line table (where Nsight Compute counts it) is that
  /// of the instruction ptxas schedules before it, which the source does
  /// not tell: reported on its own line (RegisterPromotion.h,
  /// KeptAccess::ScheduledAfter).
  ScheduledLine,
};

/// One assumption: its kind, and the sentence the checks' notes and the
/// JSON's "assumptions" say.
struct Assumption {
  AssumptionKind Kind;
  std::string Text;
};

/// The names the JSON contract writes: "global", "load", "exact",
/// "block_shape", ...
const char *spaceName(MemorySpace S);
const char *opName(AccessOp Op);
const char *statusName(AccessStatus S);
const char *assumptionKindName(AssumptionKind K);

/// Every enumerator of each, in order: to read a name back.
inline constexpr MemorySpace AllMemorySpaces[] = {MemorySpace::Global, MemorySpace::Shared};
inline constexpr AccessOp AllAccessOps[] = {AccessOp::Load, AccessOp::Store, AccessOp::Atomic};
inline constexpr AccessStatus AllAccessStatuses[] = {AccessStatus::Exact, AccessStatus::Assumed,
                                                     AccessStatus::Unknown};
inline constexpr AssumptionKind AllAssumptionKinds[] = {
    AssumptionKind::DataDependentAddress, AssumptionKind::BlockShape,
    AssumptionKind::UnevaluatedLaunch,    AssumptionKind::UnboundValue,
    AssumptionKind::TruncatedSweep,       AssumptionKind::GridShape,
    AssumptionKind::DataDependentBranch,  AssumptionKind::StructCopy,
    AssumptionKind::LoopBudget,           AssumptionKind::LoopIterations,
    AssumptionKind::MergedInstruction,    AssumptionKind::MemoryValue,
    AssumptionKind::RetryLoop,
    AssumptionKind::UncountedOperation,   AssumptionKind::IrregularBlocks,
    AssumptionKind::IncompleteSimulation, AssumptionKind::UnmatchedInstructions,
    AssumptionKind::KeptInRegister,       AssumptionKind::SplitCopy,
    AssumptionKind::PartialSectorWrite,   AssumptionKind::UnfollowedValue,
    AssumptionKind::CommandLineDefault,   AssumptionKind::ScheduledLine};

} // namespace warpcheck::analysis

#endif
