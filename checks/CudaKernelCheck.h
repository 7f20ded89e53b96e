//===--- CudaKernelCheck.h - what every cuda-* check shares -----*- C++ -*-===//
//
// The base of the cuda-* checks, as clang-tidy's NoexceptFunctionBaseCheck
// is the base of the noexcept checks: it matches kernel definitions, owns
// the options every check reads alike (Arch, DefaultBlock, and for the
// checks that compute occupancy the register options), reports bad values
// of them with configurationDiag, and prepares the source nvcc's
// dialect allows (NvccDialect.h) before the file is lexed. A derived check
// sees each analysable kernel that compiles once, in checkKernel(), and asks
// the unit's TranslationUnitSession, which the checks of one unit share
// (CheckSessions.h), for what it needs.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_CHECKS_CUDAKERNELCHECK_H
#define WARPCHECK_CHECKS_CUDAKERNELCHECK_H

#include "CheckSessions.h"
#include "CudaCheckSupport.h"

#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/analysis/TranslationUnitSession.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <memory>
#include <string>

namespace clang::tidy::cuda {

class CudaKernelCheck : public ClangTidyCheck {
public:
  /// Whether a check computes occupancy (needs register counts): such a
  /// check reads, stores and validates the register options too.
  enum class RegisterCounts { NotNeeded, Needed };
  /// Sessions: the same for every cuda-* check of a run (CudaTidyModule).
  CudaKernelCheck(StringRef Name, ClangTidyContext *Context,
                  std::shared_ptr<CheckSessions> Sessions,
                  RegisterCounts Counts = RegisterCounts::NotNeeded);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) final;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) final;
  /// Drops this check's hold on the unit's session; a derived check that
  /// overrides it calls this last.
  void onEndOfTranslationUnit() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

protected:
  /// An analysable kernel definition whose body, and the functions it
  /// calls, compile (a kernel with an error is the compiler's to report).
  virtual void checkKernel(const FunctionDecl *Kernel, ASTContext &Ctx) = 0;

  /// Runs Fn, this check's work on Kernel, contained (a crash or a stack
  /// overflow in it returns here, TranslationUnitSession::contain): false
  /// when it failed, now or in an earlier consumer's work on Kernel; the
  /// first check to meet the failure reports it at the kernel. checkKernel
  /// runs through it; work a check defers to the end of the unit calls it
  /// itself.
  bool containedOnKernel(const FunctionDecl *Kernel, ASTContext &Ctx,
                         llvm::function_ref<void()> Fn);

  /// For a launch some warp of which stopped at its step budget (its later
  /// accesses were not simulated, so no check can report them), a warning
  /// at the kernel, once per kernel and unit whichever simulating check
  /// meets it first. What else the budget cut is a note of each finding
  /// (KernelLaunchAnalysis::BudgetCuts).
  void warnIfAccessesLost(const FunctionDecl *Kernel,
                          const warpcheck::analysis::KernelLaunchAnalysis &Launch,
                          ASTContext &Ctx);

  /// An access whose address is computed from data read at run time and
  /// whose read is known (AccessResult::DataSource), reported without a
  /// number (the ReportDataDependent option of the memory checks): how many
  /// sectors or wavefronts it takes depends on the data.
  void warnDataDependent(const warpcheck::analysis::AccessResult &A, const FunctionDecl *Kernel,
                         const warpcheck::analysis::KernelLaunchAnalysis &Launch,
                         ASTContext &Ctx);

  /// The target architecture (Arch, else the unit's --cuda-gpu-arch, else
  /// sm_90) and the analysis options for it.
  std::string targetArch(const ASTContext &Ctx) const;
  warpcheck::analysis::AnalysisOptions analysisOptions(const ASTContext &Ctx) const;
  /// The options the unit's register counts are asked with, for the target
  /// architecture (a check that needs register counts).
  warpcheck::analysis::RegisterOptions registerOptions(const ASTContext &Ctx) const;

  /// The kernel as a diagnostic names it: `transpose`, or with its template
  /// arguments, `reduce<float, 256>`.
  static std::string kernelName(const FunctionDecl *Kernel, const ASTContext &Ctx);
  /// Which launch of which kernel a finding's numbers are for, the tail of
  /// every message: "with block (32, 8, 1) from the launch at main.cu:56".
  /// A template instance is named ("in 'reduce<float, 256>' with block
  /// ..."): the instances of one template share the access's line, and
  /// without the name their warnings cannot be told apart.
  static std::string launchClause(const FunctionDecl *Kernel,
                                  const warpcheck::analysis::LaunchConfig &Launch,
                                  const ASTContext &Ctx);

  /// The check's or the global Arch option; empty: the compiled-for GPU.
  const std::string Arch;
  /// The check's or the global DefaultBlock option, "x,y,z".
  const std::string DefaultBlock;
  /// RegisterMode, MaxRegisterCount and DefaultDynamicShared, each the
  /// check's own or the global one, read alike by every check that computes
  /// occupancy (cuda-occupancy, the padding note of
  /// cuda-shared-bank-conflict), so that their numbers agree.
  const RegisterCountOptions Registers;
  /// The session of the unit being checked, from its first analysable
  /// kernel to the end of the unit; null before.
  warpcheck::analysis::TranslationUnitSession *unitSession() const { return Session.get(); }

  Preprocessor *PP = nullptr;

private:
  const bool NeedsRegisterCounts;
  const std::shared_ptr<CheckSessions> Sessions;
  std::shared_ptr<warpcheck::analysis::TranslationUnitSession> Session;
};

} // namespace clang::tidy::cuda

#endif
