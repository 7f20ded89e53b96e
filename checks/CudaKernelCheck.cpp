//===--- CudaKernelCheck.cpp - what every cuda-* check shares -------------===//

#include "CudaKernelCheck.h"
#include "CudaCheckSupport.h"

#include "warpcheck/analysis/NvccDialect.h"
#include "warpcheck/analysis/SourceErrors.h"
#include "warpcheck/model/Arch.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang::ast_matchers;
using namespace warpcheck::analysis;

namespace clang::tidy::cuda {

CudaKernelCheck::CudaKernelCheck(StringRef Name, ClangTidyContext *Context,
                                 std::shared_ptr<CheckSessions> Sessions, RegisterCounts Counts)
    : ClangTidyCheck(Name, Context), Arch(Options.getLocalOrGlobal("Arch", "")),
      DefaultBlock(Options.getLocalOrGlobal("DefaultBlock", "256,1,1")), Registers(Options),
      NeedsRegisterCounts(Counts == RegisterCounts::Needed), Sessions(std::move(Sessions)) {
  if (!Arch.empty() && !warpcheck::model::findArch(Arch))
    configurationDiag("%0: unknown Arch '%1'; known: %2")
        << Name << Arch << llvm::join(warpcheck::model::knownArchNames(), ", ");
  if (!parseDim3(DefaultBlock))
    configurationDiag("%0: malformed DefaultBlock '%1'; expected x[,y[,z]] with positive "
                      "integers")
        << Name << DefaultBlock;
  if (NeedsRegisterCounts)
    if (std::string Problem = Registers.problem(); !Problem.empty())
      configurationDiag("%0: %1") << Name << Problem;
}

void CudaKernelCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "Arch", Arch);
  Options.store(Opts, "DefaultBlock", DefaultBlock);
  if (NeedsRegisterCounts)
    Registers.store(Options, Opts);
}

void CudaKernelCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal)).bind("kernel"),
                     this);
}

void CudaKernelCheck::registerPPCallbacks(const SourceManager &SM, Preprocessor *P,
                                          Preprocessor *) {
  PP = P;
  // Before the main file is lexed: `k << < g, b >> > (...)` and
  // `__shared__ alignas(16)` as nvcc reads them. The respelled text has the
  // original's length, so every location stays valid (the first check of
  // the unit does it; the others find nothing left to respell).
  respellNvccDialectInMainFile(const_cast<SourceManager &>(SM));
  // A missing header must not hide the kernels after it, nor stop the
  // instantiation of template kernels (clang instantiates nothing after a
  // fatal error).
  if (P)
    continueAfterMissingHeaders(P->getDiagnostics());
}

void CudaKernelCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (!isAnalysableKernel(Kernel))
    return;
  ASTContext &Ctx = *Result.Context;
  if (!Session || &Session->context() != &Ctx) {
    Session = Sessions->acquire(Ctx);
    // Host code's occupancy calls see the registers the report counts.
    Session->setHostRegisterOptions(registerOptions(Ctx));
  }
  containedOnKernel(Kernel, Ctx, [&] {
    if (!Session->errorIn(Kernel))
      checkKernel(Kernel, Ctx);
  });
}

bool CudaKernelCheck::containedOnKernel(const FunctionDecl *Kernel, ASTContext &Ctx,
                                        llvm::function_ref<void()> Fn) {
  // A crash or a stack overflow in the work on one kernel (this check's,
  // or the report's before it in the warpcheck binary) is contained: said
  // once, at the kernel, by the first check that meets it, and the other
  // kernels are still checked. clang-tidy goes on.
  if (Session->contain(Kernel, Fn))
    return true;
  if (Session->takeFailureReport(Kernel))
    diag(Kernel->getLocation(), "warpcheck could not analyse kernel '%0': %1")
        << kernelName(Kernel, Ctx) << *Session->failureIn(Kernel);
  return false;
}

void CudaKernelCheck::onEndOfTranslationUnit() {
  Session.reset();
}

void CudaKernelCheck::warnDataDependent(const AccessResult &A, const FunctionDecl *Kernel,
                                        const KernelLaunchAnalysis &Launch, ASTContext &Ctx) {
  bool Shared = A.Site.Space == MemorySpace::Shared;
  diag(A.Site.Expr->getBeginLoc(),
       "%0 %1 '%2' has a data-dependent address (computed from '%3', read at run time): its "
       "%4 per request depend on the data %5")
      << (Shared ? "shared" : "global") << opName(A.Site.Op) << sourceText(A.Site.Expr, Ctx)
      << A.DataSource << (Shared ? "wavefronts" : "sectors")
      << launchClause(Kernel, Launch.Launch, Ctx);
}

void CudaKernelCheck::warnIfAccessesLost(const FunctionDecl *Kernel,
                                         const KernelLaunchAnalysis &Launch, ASTContext &Ctx) {
  if (!Launch.StepBudgetExhausted ||
      !Session->firstToSay(Kernel, "step budget " + Launch.Launch.Block.str() +
                                       Launch.Launch.Description))
    return;
  diag(Kernel->getLocation(), "the simulation of kernel '%0' stopped at its step budget %1: "
                              "accesses after that point were not analysed")
      << kernelName(Kernel, Ctx) << launchClause(Kernel, Launch.Launch, Ctx);
}

std::string CudaKernelCheck::kernelName(const FunctionDecl *Kernel, const ASTContext &Ctx) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  Kernel->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/false);
  OS.flush();
  return Name;
}

std::string CudaKernelCheck::launchClause(const FunctionDecl *Kernel,
                                          const warpcheck::analysis::LaunchConfig &Launch,
                                          const ASTContext &Ctx) {
  std::string Instance = Kernel->isTemplateInstantiation()
                             ? "in '" + kernelName(Kernel, Ctx) + "' "
                             : std::string();
  return Instance + "with block " + Launch.Block.str() + " from " + Launch.Description;
}

std::string CudaKernelCheck::targetArch(const ASTContext &Ctx) const {
  return resolveArch(Arch, Ctx);
}

AnalysisOptions CudaKernelCheck::analysisOptions(const ASTContext &Ctx) const {
  AnalysisOptions Options = makeAnalysisOptions(Arch, DefaultBlock, Ctx);
  // The memory instructions come from the register count's nvcc run: the
  // same options as the JSON report's, so that both front doors cost the
  // same instructions (and share the analysis).
  Options.InstructionsFrom = registerOptions(Ctx);
  return Options;
}

RegisterOptions CudaKernelCheck::registerOptions(const ASTContext &Ctx) const {
  return Registers.registerOptions(targetArch(Ctx), PP);
}

} // namespace clang::tidy::cuda
