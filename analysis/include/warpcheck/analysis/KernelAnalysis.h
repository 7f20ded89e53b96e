//===- KernelAnalysis.h - per-kernel, per-launch access analysis ----------===//
//
// The entry point of the engine for both front doors: for a __global__
// function, find its launch configurations, simulate its warps and attach
// the hardware model's cost to every global and shared access.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_KERNELANALYSIS_H
#define WARPCHECK_ANALYSIS_KERNELANALYSIS_H

#include "warpcheck/analysis/AccessReport.h"
#include "warpcheck/analysis/ArrayLayout.h"
#include "warpcheck/analysis/LaunchConfig.h"
#include "warpcheck/analysis/RegisterUsage.h"
#include "warpcheck/analysis/SassListing.h"
#include "warpcheck/model/SharedMemory.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::analysis {

struct AnalysisOptions {
  LaunchDefaults Defaults;
  /// Bank geometry of the target architecture.
  model::SharedMemoryGeometry SharedGeometry;
  /// At most this many warps are simulated per launch; larger launches are
  /// sampled (first, last and evenly spaced blocks).
  unsigned MaxSimulatedWarps = 128;
  unsigned MaxLoopIterations = 64;
  /// Padded layouts to try for shared arrays (bank-conflict fix-its).
  std::map<const clang::VarDecl *, ArrayLayout> *LayoutOverrides = nullptr;
  /// The nvcc run whose listing gives the kernels' memory instructions (the
  /// register count's: RegisterUsage.h; read only when its mode resolves to
  /// ptxas and the toolkit has nvdisasm). None: every access is costed as
  /// the source writes it.
  std::optional<RegisterOptions> InstructionsFrom;
  /// The analysed kernel's memory instructions (SassListing.h), or null.
  /// TranslationUnitSession::analyze sets it from InstructionsFrom.
  const std::vector<SassMemoryInstruction> *Instructions = nullptr;

  /// Identifies the options for caching.
  std::string fingerprint() const;
};

/// True for __global__ functions with a body that can be analysed (not an
/// uninstantiated template).
bool isAnalysableKernel(const clang::FunctionDecl *FD);

/// Source text of an expression as the user wrote it (macros expanded to the
/// user's spelling location).
std::string sourceText(const clang::Expr *E, const clang::ASTContext &Ctx);

/// The command-line defaults the numbers of D are those of, as messages say
/// them: "'wA' = 320, 'wB' = 640" (empty when there are none).
std::string commandLineDefaultsText(const ValueDependence &D);

/// What every number of a launch rests on because of its shape: a block
/// shape assumed from the kernel's code, __launch_bounds__ or the default
/// block, and a shape standing for launches that could not be evaluated.
std::vector<Assumption> launchShapeAssumptions(const LaunchConfig &Launch);

/// One result per launch configuration of Kernel (Launches, in their
/// order), simulated afresh. Whoever asks often asks a
/// TranslationUnitSession, which keeps the results and checks that the
/// kernel compiles first.
std::vector<KernelLaunchAnalysis> analyzeKernel(const clang::FunctionDecl *Kernel,
                                                const std::vector<LaunchConfig> &Launches,
                                                const AnalysisOptions &Options);

} // namespace warpcheck::analysis

#endif
