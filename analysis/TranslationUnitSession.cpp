//===- TranslationUnitSession.cpp - one unit's analyses, each once --------===//

#include "warpcheck/analysis/TranslationUnitSession.h"
#include "warpcheck/analysis/ContainedRun.h"
#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/analysis/KernelResources.h"

#include <cstdint>
#include <cstdlib>

namespace warpcheck::analysis {

TranslationUnitSession::TranslationUnitSession(clang::ASTContext &Ctx)
    : Ctx(Ctx), Registers(Ctx) {}
TranslationUnitSession::~TranslationUnitSession() = default;

void TranslationUnitSession::setCompilerErrors(std::vector<CompilerError> E) {
  CompilerErrors = std::move(E);
  Errors.clear();
  DroppedLaunches.clear();
}

const std::optional<KernelError> &
TranslationUnitSession::errorIn(const clang::FunctionDecl *Kernel) {
  auto It = Errors.find(Kernel);
  if (It != Errors.end())
    return It->second;
  return Errors[Kernel] = firstErrorIn(Kernel, CompilerErrors, &DroppedLaunches[Kernel]);
}

const LaunchSiteIndex &TranslationUnitSession::launchSites() {
  if (!Launches)
    Launches = std::make_unique<LaunchSiteIndex>(
        Ctx, OtherCalls, [this](const clang::FunctionDecl *Kernel, std::string &WhyNot) {
          return occupancyInputs(Kernel, WhyNot);
        });
  return *Launches;
}

std::optional<KernelOccupancyInputs>
TranslationUnitSession::occupancyInputs(const clang::FunctionDecl *Kernel, std::string &WhyNot) {
  // The occupancy report's own inputs for a one-warp launch: registers,
  // static shared memory and __launch_bounds__ do not depend on the shape.
  const clang::FunctionDecl *Definition = nullptr;
  if (!Kernel->hasBody(Definition) || !isAnalysableKernel(Definition)) {
    WhyNot = "'" + Kernel->getNameAsString() + "', whose body is not here";
    return std::nullopt;
  }
  LaunchConfig OneWarp;
  OneWarp.Block = {32, 1, 1};
  OneWarp.DynamicSharedBytes = 0;
  std::string Why;
  std::optional<KernelOccupancyReport> Report =
      occupancyFor(Definition, OneWarp, *this, HostRegisters.value_or(RegisterOptions()),
                   std::nullopt, &Why);
  if (!Report) {
    WhyNot = "'" + Kernel->getNameAsString() + "' (" + Why + ")";
    return std::nullopt;
  }
  KernelOccupancyInputs In;
  In.Resources = Report->Resources;
  In.MaxThreadsPerBlock = Report->Bounds ? Report->Bounds->MaxThreads : 0;
  In.RegistersSource = Report->RegistersSource;
  return In;
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
  AnalysisOptions WithInstructions = Options;
  if (!Options.Instructions)
    WithInstructions.Instructions = instructionsOf(Kernel, Options);
  std::vector<KernelLaunchAnalysis> Out =
      analyzeKernel(Kernel, launchSites().configsFor(Kernel, Defaults), WithInstructions);
  // nvcc compiles a non-template kernel launched from device code
  // (-rdc=true); clang 19 drops the statement whole, so neither the child
  // nor the parent's reads of its arguments are in the AST. Said, not
  // dropped in silence.
  const clang::SourceManager &SM = Ctx.getSourceManager();
  for (clang::SourceLocation At : DroppedLaunches[Kernel])
    for (KernelLaunchAnalysis &K : Out)
      K.Limitations.push_back("the kernel launch from device code at " +
                              shortLocation(SM, At) +
                              " (dynamic parallelism) is not followed, nor are the reads of its "
                              "launch configuration and arguments counted: clang 19 drops the "
                              "statement");
  return Out;
}

const std::vector<SassMemoryInstruction> *
TranslationUnitSession::instructionsOf(const clang::FunctionDecl *Kernel,
                                       const AnalysisOptions &Options) {
  if (!Listing)
    return Options.InstructionsFrom
               ? Registers.memoryInstructions(Kernel, *Options.InstructionsFrom)
               : nullptr;
  auto [It, New] = ListedInstructions.try_emplace(Kernel);
  if (New) {
    // By the kernel's mangled name; an internal kernel by the one listed
    // kernel of its normalized name (nvcc and clang name them apart).
    std::string Mangled = deviceMangledName(Kernel, Ctx);
    std::string Found;
    if (Listing->Kernels.count(Mangled)) {
      Found = Mangled;
    } else {
      unsigned Matches = 0;
      for (const std::string &K : Listing->Kernels)
        if (normalizedKernelName(K) == normalizedKernelName(Mangled)) {
          Found = K;
          ++Matches;
        }
      if (Matches != 1)
        Found.clear();
    }
    if (!Found.empty())
      It->second = kernelMemoryInstructions(*Listing, Found);
  }
  return It->second ? &*It->second : nullptr;
}

bool TranslationUnitSession::contain(const clang::FunctionDecl *Kernel,
                                     llvm::function_ref<void()> Fn) {
  if (Failures.count(Kernel))
    return false;
  std::optional<RunFailure> Failed = runContained(
      [&] {
        const char *CrashIn = std::getenv("WARPCHECK_TEST_CRASH_KERNEL");
        if (CrashIn && Kernel->getIdentifier() && Kernel->getName() == CrashIn) {
          // A real fault: a write into the first page of the address
          // space, never mapped; the address comes from the run, so that
          // the compiler cannot drop the write.
          std::uintptr_t Nowhere = reinterpret_cast<std::uintptr_t>(CrashIn) % 4096;
          *reinterpret_cast<volatile int *>(Nowhere) = 1;
        }
        Fn();
      },
      KernelStackBytes);
  if (!Failed)
    return true;
  Failures[Kernel].Why = Failed->Why != RunFailure::Cause::Crash
                             ? Failed->What
                             : "internal error: " + Failed->What +
                                   "; please report it with this file";
  return false;
}

const std::string *TranslationUnitSession::failureIn(const clang::FunctionDecl *Kernel) const {
  auto It = Failures.find(Kernel);
  return It == Failures.end() ? nullptr : &It->second.Why;
}

bool TranslationUnitSession::takeFailureReport(const clang::FunctionDecl *Kernel) {
  auto It = Failures.find(Kernel);
  if (It == Failures.end() || It->second.Reported)
    return false;
  It->second.Reported = true;
  return true;
}

} // namespace warpcheck::analysis
