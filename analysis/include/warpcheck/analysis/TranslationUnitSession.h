//===- TranslationUnitSession.h - what is known about one parsed unit -----===//
//
// Everything the analysis computes about one translation unit, each part on
// first use and kept while the unit is: its launch sites, the compiler's
// errors and the kernels they stop, each kernel's analyses per options, and
// the register counts of its kernels. Several consumers of one parse ask
// the same questions (the three cuda-* checks, the JSON report), and
// simulating a kernel or counting its registers (an nvcc run, or clang's
// code generator for the estimate) is what costs: the session answers each
// once.
//
// A session belongs to whoever parses the unit and is dropped with the AST:
// the warpcheck binary's translation-unit job owns one per unit; in
// clang-tidy the cuda-* checks of the unit hold one together
// (checks/CheckSessions.h). Nothing in it is global.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_TRANSLATIONUNITSESSION_H
#define WARPCHECK_ANALYSIS_TRANSLATIONUNITSESSION_H

#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/analysis/LaunchConfig.h"
#include "warpcheck/analysis/LaunchWork.h"
#include "warpcheck/analysis/RegisterUsage.h"
#include "warpcheck/analysis/SassListing.h"
#include "warpcheck/analysis/SourceErrors.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace warpcheck::analysis {

class TranslationUnitSession {
public:
  explicit TranslationUnitSession(clang::ASTContext &Ctx);
  ~TranslationUnitSession();
  TranslationUnitSession(const TranslationUnitSession &) = delete;
  TranslationUnitSession &operator=(const TranslationUnitSession &) = delete;

  clang::ASTContext &context() { return Ctx; }

  /// The compiler errors of the parse, for errorIn(): whoever parses the
  /// unit and sees its diagnostics sets them before the first analysis.
  void setCompilerErrors(std::vector<CompilerError> Errors);
  /// Launches other units make of this unit's kernels (not owned; null for
  /// none): every analysis of the unit uses them where the unit's own
  /// launches cannot be evaluated (the warpcheck binary over several units).
  void setOtherUnitLaunches(const CrossUnitLaunches *Launches) { OtherUnits = Launches; }
  /// Calls other units make of this unit's host functions (not owned; null
  /// for none): the host evaluation runs the functions no function of this
  /// unit calls with the arguments those calls pass. Set before the first
  /// use of launchSites().
  void setOtherUnitCalls(const CrossUnitCalls *Calls) { OtherCalls = Calls; }
  /// The register counts host code's occupancy calls
  /// (cudaOccupancyMaxPotentialBlockSize) see, as the occupancy report
  /// counts them; before the first launchSites() (later calls change
  /// nothing). Unset: the estimate.
  void setHostRegisterOptions(const RegisterOptions &Options) {
    if (!Launches)
      HostRegisters = Options;
  }
  /// The first error inside Kernel or a function it calls (computed once);
  /// such a kernel is not analysed (analyze() gives no launches).
  const std::optional<KernelError> &errorIn(const clang::FunctionDecl *Kernel);

  /// Every kernel launch of the unit, found on first use.
  const LaunchSiteIndex &launchSites();

  /// One result per launch configuration of Kernel, computed once per
  /// options. None for a kernel whose body holds an error (errorIn).
  const std::vector<KernelLaunchAnalysis> &analyze(const clang::FunctionDecl *Kernel,
                                                   const AnalysisOptions &Options);
  /// The FLOPs and DRAM bytes of each of those launches (LaunchWork.h), in
  /// the same order, computed once per options (the roofline of the
  /// reports; a few blocks of each launch run whole).
  const std::vector<LaunchWork> &work(const clang::FunctionDecl *Kernel,
                                      const AnalysisOptions &Options);
  /// The same, computed afresh and not kept: for trying layouts.
  std::vector<KernelLaunchAnalysis> analyzeUncached(const clang::FunctionDecl *Kernel,
                                                    const AnalysisOptions &Options);

  /// The register counts of the unit's kernels.
  RegisterUsage &registers() { return Registers; }

  /// A listing of the build's cubin (the warpcheck binary's --sass-listing):
  /// every analysis of the unit takes its kernels' memory instructions from
  /// it, whatever its options' InstructionsFrom. Set before the first
  /// analysis.
  void setListing(std::shared_ptr<const SassListing> L) { Listing = std::move(L); }
  /// Runs Fn, one consumer's work on Kernel (a check's findings, the
  /// report's entries, and the analyses they ask for), contained
  /// (ContainedRun.h): on a stack of its own, a crash or a stack overflow
  /// inside it returns here. False when it failed, or when an earlier run
  /// on Kernel did: failureIn() then says why, and Kernel is not tried
  /// again. Every consumer of the unit runs its work on a kernel through
  /// it, so that one kernel's failure never takes down the others, nor
  /// clang-tidy.
  ///
  /// For the tests only: when the environment variable
  /// WARPCHECK_TEST_CRASH_KERNEL names Kernel (its plain name), the run
  /// faults (a write through a null pointer) before Fn. The analysed code cannot set it.
  bool contain(const clang::FunctionDecl *Kernel, llvm::function_ref<void()> Fn);
  /// Why the work on Kernel failed, or null: "internal error: ...; please
  /// report it with this file", or "the code is nested too deeply (...)".
  const std::string *failureIn(const clang::FunctionDecl *Kernel) const;
  /// True for the first caller only, for a kernel whose work failed: the
  /// consumer that reports the failure, once per unit.
  bool takeFailureReport(const clang::FunctionDecl *Kernel);
  /// True the first time What is asked about Kernel: for what the checks of
  /// a unit say about a kernel once, whichever of them meets it first.
  bool firstToSay(const clang::FunctionDecl *Kernel, const std::string &What) {
    return Said.insert({Kernel, What}).second;
  }

private:
  clang::ASTContext &Ctx;
  std::unique_ptr<LaunchSiteIndex> Launches;
  std::map<std::pair<const clang::FunctionDecl *, std::string>,
           std::vector<KernelLaunchAnalysis>>
      Analyses;
  std::map<std::pair<const clang::FunctionDecl *, std::string>, std::vector<LaunchWork>> Works;
  std::vector<CompilerError> CompilerErrors;
  std::map<const clang::FunctionDecl *, std::optional<KernelError>> Errors;
  /// Per kernel: the launches from device code clang dropped (firstErrorIn).
  std::map<const clang::FunctionDecl *, std::vector<clang::SourceLocation>> DroppedLaunches;
  RegisterUsage Registers;
  const CrossUnitLaunches *OtherUnits = nullptr;
  const CrossUnitCalls *OtherCalls = nullptr;
  std::optional<RegisterOptions> HostRegisters;
  /// What Kernel asks of an SM, for the host evaluation's occupancy calls.
  std::optional<KernelOccupancyInputs> occupancyInputs(const clang::FunctionDecl *Kernel,
                                                       std::string &WhyNot);
  std::shared_ptr<const SassListing> Listing;
  /// Each kernel's instructions from Listing (none: not in it).
  std::map<const clang::FunctionDecl *, std::optional<std::vector<SassMemoryInstruction>>>
      ListedInstructions;

  /// Kernel's memory instructions: Listing's, else those of the nvcc run
  /// Options names; null for none.
  const std::vector<SassMemoryInstruction> *instructionsOf(const clang::FunctionDecl *Kernel,
                                                           const AnalysisOptions &Options);
  struct Failure {
    std::string Why;
    bool Reported = false;
  };
  std::map<const clang::FunctionDecl *, Failure> Failures;
  std::set<std::pair<const clang::FunctionDecl *, std::string>> Said;
};

} // namespace warpcheck::analysis

#endif
