//===- AccessKinds.cpp - the words that describe one memory access --------===//

#include "warpcheck/analysis/AccessKinds.h"

namespace warpcheck::analysis {

const char *spaceName(MemorySpace S) {
  return S == MemorySpace::Shared ? "shared" : "global";
}

const char *opName(AccessOp Op) {
  switch (Op) {
  case AccessOp::Load:
    return "load";
  case AccessOp::Store:
    return "store";
  case AccessOp::Atomic:
    return "atomic";
  }
  return "load";
}

const char *statusName(AccessStatus S) {
  switch (S) {
  case AccessStatus::Exact:
    return "exact";
  case AccessStatus::Assumed:
    return "assumed";
  case AccessStatus::Unknown:
    return "unknown";
  }
  return "unknown";
}

const char *assumptionKindName(AssumptionKind K) {
  switch (K) {
  case AssumptionKind::DataDependentAddress:
    return "data_dependent_address";
  case AssumptionKind::BlockShape:
    return "block_shape";
  case AssumptionKind::UnevaluatedLaunch:
    return "unevaluated_launch";
  case AssumptionKind::UnboundValue:
    return "unbound_value";
  case AssumptionKind::TruncatedSweep:
    return "truncated_sweep";
  case AssumptionKind::GridShape:
    return "grid_shape";
  case AssumptionKind::DataDependentBranch:
    return "data_dependent_branch";
  case AssumptionKind::StructCopy:
    return "struct_copy";
  case AssumptionKind::LoopBudget:
    return "loop_budget";
  case AssumptionKind::LoopIterations:
    return "loop_iterations";
  case AssumptionKind::MergedInstruction:
    return "merged_instruction";
  }
  return "unknown";
}

} // namespace warpcheck::analysis
