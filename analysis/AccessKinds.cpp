//===- AccessKinds.cpp - the words that describe one memory access --------===//

#include "warpcheck/analysis/AccessKinds.h"

#include <iterator>

namespace warpcheck::analysis {

namespace {

/// The names, in the order of each enum's enumerators (AccessKinds.h lists
/// them all, in order, for reading a name back).
constexpr const char *SpaceNames[] = {"global", "shared"};
constexpr const char *OpNames[] = {"load", "store", "atomic"};
constexpr const char *StatusNames[] = {"exact", "assumed", "unknown"};
constexpr const char *AssumptionKindNames[] = {
    "data_dependent_address", "block_shape",     "unevaluated_launch",
    "unbound_value",          "truncated_sweep", "grid_shape",
    "data_dependent_branch",  "struct_copy",     "loop_budget",
    "loop_iterations",        "merged_instruction", "memory_value",
    "retry_loop",
    "uncounted_operation",    "irregular_blocks",   "incomplete_simulation",
    "unmatched_instructions", "kept_in_register",   "split_copy",
    "partial_sector_write",   "unfollowed_value",   "command_line_default",
    "scheduled_line"};

static_assert(std::size(SpaceNames) == std::size(AllMemorySpaces));
static_assert(std::size(OpNames) == std::size(AllAccessOps));
static_assert(std::size(StatusNames) == std::size(AllAccessStatuses));
static_assert(std::size(AssumptionKindNames) == std::size(AllAssumptionKinds));

} // namespace

const char *spaceName(MemorySpace S) { return SpaceNames[static_cast<int>(S)]; }
const char *opName(AccessOp Op) { return OpNames[static_cast<int>(Op)]; }
const char *statusName(AccessStatus S) { return StatusNames[static_cast<int>(S)]; }
const char *assumptionKindName(AssumptionKind K) {
  return AssumptionKindNames[static_cast<int>(K)];
}

} // namespace warpcheck::analysis
