//===- JsonReport.cpp - the --format=json report --------------------------===//

#include "Reporters.h"
#include "ReportSupport.h"

#include "llvm/Support/FormatVariadic.h"

namespace warpcheck::tool {

void renderJson(const RunResult &R, const ReportContext &Ctx, llvm::raw_ostream &OS) {
  // The report names a finding's place by file, line and column; the text
  // of the line is for the text and SARIF output only.
  llvm::json::Array Kernels, Findings, Errors, Inputs;
  for (const KernelEntry &K : R.Kernels)
    Kernels.push_back(toJson(K));
  for (const Finding &F : R.Findings)
    Findings.push_back(toJson(F, /*WithSourceLine=*/false));
  for (const ReportedError &E : R.Errors)
    Errors.push_back(toJson(E));
  for (const InputOutcome &I : R.Inputs)
    Inputs.push_back(toJson(I));
  RunCounts C = countRun(R);
  llvm::json::Object Summary{{"inputs", C.Inputs},
                             {"inputs_analysed", C.Analysed},
                             {"inputs_analysed_with_errors", C.AnalysedWithErrors},
                             {"inputs_not_analysed", C.NotAnalysed},
                             {"kernels_analysed", C.KernelsAnalysed},
                             {"kernels_with_errors", C.KernelsWithErrors},
                             {"kernels_failed", C.KernelsFailed},
                             {"launch_shapes", C.LaunchShapes},
                             {"findings", C.Findings},
                             {"suppressed_by_baseline", C.SuppressedByBaseline},
                             {"outside_line_filter", C.OutsideLineFilter},
                             {"memory_bound", C.MemoryBound},
                             {"compute_bound", C.ComputeBound},
                             {"roofline_not_known", C.RooflineNotKnown},
                             {"text", Ctx.Summary}};
  llvm::json::Object Root{{"version", 1},
                          {"kernels", std::move(Kernels)},
                          {"findings", std::move(Findings)},
                          {"errors", std::move(Errors)},
                          {"inputs", std::move(Inputs)},
                          {"summary", std::move(Summary)}};
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Root))) << "\n";
}

} // namespace warpcheck::tool
