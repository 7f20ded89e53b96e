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
#include "warpcheck/analysis/SourceErrors.h"
#include "warpcheck/model/SharedMemory.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <memory>
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

  /// Identifies the options for caching.
  std::string fingerprint() const;
};

/// True for __global__ functions with a body that can be analysed (not an
/// uninstantiated template).
bool isAnalysableKernel(const clang::FunctionDecl *FD);

/// Source text of an expression as the user wrote it (macros expanded to the
/// user's spelling location).
std::string sourceText(const clang::Expr *E, const clang::ASTContext &Ctx);

/// Analyses kernels of one translation unit; results are cached per kernel
/// and options so that several checks share one simulation.
class TranslationUnitAnalysis {
public:
  explicit TranslationUnitAnalysis(clang::ASTContext &Ctx);
  ~TranslationUnitAnalysis();

  /// The analysis shared by every check of this AST.
  static TranslationUnitAnalysis &get(clang::ASTContext &Ctx);
  /// Drops the shared analysis of this AST (at the end of the translation unit).
  static void release(clang::ASTContext &Ctx);

  /// The compiler errors of the parse, for errorIn(): whoever parses the
  /// unit and sees its diagnostics sets them before the first analysis.
  void setCompilerErrors(std::vector<CompilerError> Errors);
  /// Launches other units make of this unit's kernels (not owned; null for
  /// none): every analysis of the unit uses them where the unit's own
  /// launches cannot be evaluated.
  void setOtherUnitLaunches(const CrossUnitLaunches *Launches) { OtherUnits = Launches; }
  /// Every kernel launch of the unit.
  const LaunchSiteIndex &launchSites() const { return *Launches; }
  /// The first error inside Kernel or a function it calls (cached); such a
  /// kernel is not analysed (analyze() gives no launches).
  const std::optional<KernelError> &errorIn(const clang::FunctionDecl *Kernel);

  /// One result per launch configuration of Kernel (cached). None for a
  /// kernel whose body holds an error (errorIn).
  const std::vector<KernelLaunchAnalysis> &
  analyze(const clang::FunctionDecl *Kernel, const AnalysisOptions &Options);

  /// Uncached analysis, for trying layouts.
  std::vector<KernelLaunchAnalysis>
  analyzeUncached(const clang::FunctionDecl *Kernel, const AnalysisOptions &Options);

  clang::ASTContext &context() { return Ctx; }

private:
  clang::ASTContext &Ctx;
  std::unique_ptr<LaunchSiteIndex> Launches;
  std::map<std::pair<const clang::FunctionDecl *, std::string>,
           std::vector<KernelLaunchAnalysis>>
      Cache;
  std::vector<CompilerError> CompilerErrors;
  std::map<const clang::FunctionDecl *, std::optional<KernelError>> Errors;
  const CrossUnitLaunches *OtherUnits = nullptr;
};

} // namespace warpcheck::analysis

#endif
