//===- TranslationUnitSession.cpp - one unit's analyses, each once --------===//

#include "warpcheck/analysis/TranslationUnitSession.h"

namespace warpcheck::analysis {

TranslationUnitSession::TranslationUnitSession(clang::ASTContext &Ctx)
    : Ctx(Ctx), Registers(Ctx) {}
TranslationUnitSession::~TranslationUnitSession() = default;

void TranslationUnitSession::setCompilerErrors(std::vector<CompilerError> E) {
  CompilerErrors = std::move(E);
  Errors.clear();
}

const std::optional<KernelError> &
TranslationUnitSession::errorIn(const clang::FunctionDecl *Kernel) {
  auto It = Errors.find(Kernel);
  if (It != Errors.end())
    return It->second;
  return Errors[Kernel] = firstErrorIn(Kernel, CompilerErrors);
}

const LaunchSiteIndex &TranslationUnitSession::launchSites() {
  if (!Launches)
    Launches = std::make_unique<LaunchSiteIndex>(Ctx);
  return *Launches;
}

const std::vector<KernelLaunchAnalysis> &
TranslationUnitSession::analyze(const clang::FunctionDecl *Kernel,
                                const AnalysisOptions &Options) {
  auto Key = std::make_pair(Kernel, Options.fingerprint());
  auto It = Analyses.find(Key);
  if (It != Analyses.end())
    return It->second;
  return Analyses[Key] = analyzeUncached(Kernel, Options);
}

const std::vector<LaunchWork> &TranslationUnitSession::work(const clang::FunctionDecl *Kernel,
                                                           const AnalysisOptions &Options) {
  auto Key = std::make_pair(Kernel, Options.fingerprint());
  auto It = Works.find(Key);
  if (It != Works.end())
    return It->second;
  std::vector<LaunchWork> Out;
  for (const KernelLaunchAnalysis &K : analyze(Kernel, Options))
    Out.push_back(analyzeLaunchWork(K));
  return Works[Key] = std::move(Out);
}

std::vector<KernelLaunchAnalysis>
TranslationUnitSession::analyzeUncached(const clang::FunctionDecl *Kernel,
                                        const AnalysisOptions &Options) {
  if (!isAnalysableKernel(Kernel) || errorIn(Kernel))
    return {};
  LaunchDefaults Defaults = Options.Defaults;
  if (!Defaults.OtherUnits)
    Defaults.OtherUnits = OtherUnits;
  return analyzeKernel(Kernel, launchSites().configsFor(Kernel, Defaults), Options);
}

} // namespace warpcheck::analysis
