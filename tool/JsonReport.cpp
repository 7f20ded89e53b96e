//===- JsonReport.cpp - the --format=json report --------------------------===//

#include "Reporters.h"
#include "ReportSupport.h"

#include "llvm/Support/FormatVariadic.h"

namespace warpcheck::tool {

/// A copy of O without Key. (json::Object::erase leaves a tombstone whose
/// key still owns its string; copying such an object in LLVM 19 revives the
/// key with an uninitialised value, so objects are rebuilt, never erased.)
static llvm::json::Object without(const llvm::json::Object &O, llvm::StringRef Key) {
  llvm::json::Object Out;
  for (const auto &[K, V] : O) {
    if (llvm::StringRef(K) == Key)
      continue;
    if (llvm::StringRef(K) == "notes" && V.getAsArray()) {
      llvm::json::Array Notes;
      for (const llvm::json::Value &N : *V.getAsArray())
        Notes.push_back(N.getAsObject() ? llvm::json::Value(without(*N.getAsObject(), Key))
                                        : N);
      Out[K] = std::move(Notes);
      continue;
    }
    Out[K] = V;
  }
  return Out;
}

void renderJson(const RunResult &R, const ReportContext &Ctx, llvm::raw_ostream &OS) {
  llvm::json::Array Findings;
  for (const llvm::json::Value &V : R.Findings)
    if (const llvm::json::Object *F = V.getAsObject())
      Findings.push_back(without(*F, "source_line"));
  RunCounts C = countRun(R);
  llvm::json::Object Summary{{"inputs", C.Inputs},
                             {"inputs_analysed", C.Analysed},
                             {"inputs_analysed_with_errors", C.AnalysedWithErrors},
                             {"inputs_not_analysed", C.NotAnalysed},
                             {"kernels_analysed", C.KernelsAnalysed},
                             {"kernels_with_errors", C.KernelsWithErrors},
                             {"launch_shapes", C.LaunchShapes},
                             {"findings", C.Findings},
                             {"text", Ctx.Summary}};
  llvm::json::Object Root{{"version", 1},
                          {"kernels", llvm::json::Array(R.Kernels)},
                          {"findings", std::move(Findings)},
                          {"errors", llvm::json::Array(R.Errors)},
                          {"inputs", llvm::json::Array(R.Inputs)},
                          {"summary", std::move(Summary)}};
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Root))) << "\n";
}

} // namespace warpcheck::tool
