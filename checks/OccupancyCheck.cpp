//===--- OccupancyCheck.cpp - clang-tidy ----------------------------------===//

#include "OccupancyCheck.h"
#include "CudaCheckSupport.h"

#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/analysis/KernelResources.h"
#include "warpcheck/analysis/LaunchConfig.h"
#include "warpcheck/analysis/RegisterUsage.h"
#include "warpcheck/model/Arch.h"
#include "warpcheck/model/Occupancy.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <set>
#include <tuple>

using namespace clang::ast_matchers;
using namespace warpcheck::analysis;
namespace model = warpcheck::model;

namespace clang::tidy::cuda {

OccupancyCheck::OccupancyCheck(StringRef Name, ClangTidyContext *Context,
                               std::shared_ptr<CheckSessions> Sessions)
    : CudaKernelCheck(Name, Context, std::move(Sessions), RegisterCounts::Needed),
      MinOccupancy(Options.get("MinOccupancy", 50U)), Archs(Options.get("Archs", "")) {
  if (MinOccupancy > 101)
    configurationDiag("%0: MinOccupancy %1 is not a percentage (0 to 100, or 101 to report "
                      "every launch)")
        << Name << MinOccupancy;
  llvm::SmallVector<StringRef, 4> Names;
  StringRef(Archs).split(Names, ',', -1, false);
  for (StringRef N : Names)
    if (!model::findArch(N.trim()))
      configurationDiag("unknown architecture '%0' in %1.Archs; known: %2")
          << N.trim() << Name << llvm::join(model::knownArchNames(), ", ");
}

OccupancyCheck::~OccupancyCheck() = default;

void OccupancyCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MinOccupancy", MinOccupancy);
  Options.store(Opts, "Archs", Archs);
  CudaKernelCheck::storeOptions(Opts);
}

void OccupancyCheck::checkKernel(const FunctionDecl *Kernel, ASTContext &) {
  // The work happens at the end of the translation unit: the estimate runs
  // clang's code generator over the AST, which is better not done while
  // the matchers are still walking it.
  Kernels.push_back(Kernel);
}

namespace {

std::string blocksText(unsigned N) {
  return std::to_string(N) + (N == 1 ? " block" : " blocks");
}

double percent(const model::OccupancyResult &R) { return R.valid() ? R.Theoretical * 100 : 0; }

/// The block count to aim for: the fewest blocks that reach the threshold,
/// if some value of Lever reaches them; else one block more than now.
/// Lever(blocks) gives the resource value that allows that many blocks.
template <typename Value, typename LeverFn>
std::optional<std::pair<unsigned, Value>> chooseTarget(const model::ArchSpec &Arch,
                                                       const model::OccupancyResult &Now,
                                                       unsigned MinOccupancy, LeverFn Lever) {
  unsigned WarpsPerBlock = Now.WarpsPerBlock ? Now.WarpsPerBlock : 1;
  unsigned MaxBlocks = std::min(Arch.MaxBlocksPerSM, Arch.MaxWarpsPerSM / WarpsPerBlock);
  for (unsigned B = Now.ActiveBlocksPerSM + 1; B <= MaxBlocks; ++B) {
    double P = 100.0 * B * WarpsPerBlock / Arch.MaxWarpsPerSM;
    if (P + 1e-9 < MinOccupancy)
      continue;
    if (std::optional<Value> V = Lever(B))
      return std::make_pair(B, *V);
    break;
  }
  if (std::optional<Value> V = Lever(Now.ActiveBlocksPerSM + 1))
    return std::make_pair(Now.ActiveBlocksPerSM + 1, *V);
  return std::nullopt;
}

/// "N bytes of spill stores and M of spill loads" (ptxas -v), after Lead;
/// empty without spills.
std::string spillText(const FunctionRegisters &R, llvm::StringRef Lead) {
  if (!R.SpillStoreBytes && !R.SpillLoadBytes)
    return "";
  return Lead.str() + std::to_string(R.SpillStoreBytes) + " bytes of spill stores and " +
         std::to_string(R.SpillLoadBytes) + " of spill loads";
}

/// Spill stores ptxas may add under a register cap and the fix-it still be
/// offered: 32 bytes, 8 registers' worth (cuda-occupancy.cu's registerBound
/// spills 8 at the cap __launch_bounds__(256, 4) sets, for 37.5% -> 50%).
constexpr std::uint64_t SmallSpillStoreBytes = 32;

/// What ptxas does under a register cap of Cap, when it spills more than
/// now: the kernel compiled again with -maxrregcount=Cap. Text is empty
/// when it does not spill more, or when the count is not ptxas's (the
/// estimate says nothing about spills); Blocks when the spills are more
/// than a few registers' worth.
struct CapSpills {
  std::string Text;
  bool Blocks = false;
};

CapSpills spillsUnderCap(const FunctionDecl *Kernel, const KernelOccupancyReport &Current,
                         const RegisterOptions &Options, unsigned Cap,
                         TranslationUnitSession &Session) {
  if (Current.RegistersSource != "ptxas")
    return {};
  RegisterOptions Capped = Options;
  Capped.MaxRegisterCount = Options.MaxRegisterCount ? std::min(*Options.MaxRegisterCount, Cap)
                                                     : Cap;
  std::optional<FunctionRegisters> After = Session.registers().lookup(Kernel, Capped);
  if (!After || After->Source != RegisterSource::Ptxas)
    return {};
  const FunctionRegisters &Before = Current.RegisterDetails;
  if (After->SpillStoreBytes + After->SpillLoadBytes <=
      Before.SpillStoreBytes + Before.SpillLoadBytes)
    return {};
  std::string Now = spillText(Before, "");
  std::string Figures = std::to_string(After->Registers) + " registers, " +
                        spillText(*After, "") + "; " + (Now.empty() ? "none" : Now) + " now";
  CapSpills Out;
  Out.Blocks = After->SpillStoreBytes > Before.SpillStoreBytes + SmallSpillStoreBytes;
  Out.Text = Out.Blocks ? "but ptxas then spills (" + Figures +
                              "): no __launch_bounds__ fix-it offered"
                        : "ptxas then spills a little (" + Figures + ")";
  return Out;
}

} // namespace

void OccupancyCheck::diagnoseKernel(const FunctionDecl *Kernel, ASTContext &Ctx) {
  RegisterOptions RO = registerOptions(Ctx);
  const model::ArchSpec *Spec = model::findArch(RO.Arch);
  if (!Spec)
    return;

  LaunchDefaults Defaults;
  if (auto Block = parseDim3(DefaultBlock))
    Defaults.Block = *Block;
  Defaults.Arch = Spec->Name;
  TranslationUnitSession &Session = *unitSession();
  std::vector<LaunchConfig> Configs = Session.launchSites().configsFor(Kernel, Defaults);

  // One diagnostic per launch shape.
  std::vector<LaunchConfig> Shapes;
  std::set<std::tuple<unsigned, unsigned, unsigned, std::uint64_t, bool>> Seen;
  for (const LaunchConfig &C : Configs)
    if (Seen.insert({C.Block.X, C.Block.Y, C.Block.Z, C.DynamicSharedBytes.value_or(0),
                     C.DynamicSharedBytes.has_value()})
            .second)
      Shapes.push_back(C);
  // A fix-it may set __launch_bounds__ only when every launch of the kernel
  // is known and uses the same number of threads.
  bool OneBlockSize =
      !Configs.empty() && llvm::all_of(Configs, [&](const LaunchConfig &C) {
        return C.Source == LaunchSource::LaunchSite &&
               C.Block.count() == Configs.front().Block.count();
      });

  SourceLocation Loc = Kernel->getLocation();
  std::string Name = kernelName(Kernel, Ctx);
  // A launch no block of this architecture can run has no occupancy: it
  // fails (cudaErrorInvalidConfiguration). Said at the launch, never
  // replaced silently by another shape's numbers.
  if (!Configs.empty())
    for (const InvalidLaunch &I : Configs.front().CannotRun)
      diag(I.Site ? I.Site->getBeginLoc() : Loc,
           "this launch of kernel '%0' cannot run on %1: %2 (cudaErrorInvalidConfiguration)")
          << Name << Spec->Name << I.Reason;
  if (!Configs.empty() && !Configs.front().AnnotationProblem.empty())
    diag(Configs.front().AnnotationProblemAt.isValid() ? Configs.front().AnnotationProblemAt
                                                       : Loc,
         "kernel '%0': %1")
        << Name << Configs.front().AnnotationProblem;
  bool SaidUnavailable = false;
  for (const LaunchConfig &C : Shapes) {
    std::string WhyNot;
    std::optional<KernelOccupancyReport> Rep =
        occupancyFor(Kernel, C, Session, RO, Registers.defaultDynamicSharedBytes(), &WhyNot);
    if (!Rep) {
      // Never a silently missing report: once per kernel, say why.
      if (!SaidUnavailable)
        diag(Loc, "occupancy of kernel '%0' not computed on %1: %2")
            << Name << Spec->Name << WhyNot;
      SaidUnavailable = true;
      continue;
    }
    const model::OccupancyResult &R = Rep->Result;
    bool Below = !R.valid() || percent(R) + 1e-9 < MinOccupancy;
    if (!Below)
      continue;
    const model::KernelResources &K = Rep->Resources;
    bool Estimated = Rep->RegistersSource == "estimate";
    std::string Regs = std::to_string(Rep->Registers) + " registers per thread" +
                       (Estimated ? " (estimated)" : "");
    std::string Prefix = "kernel '" + Name + "' with block " + C.Block.str() + " from " +
                         C.Description + ": ";
    std::string Shape = blocksText(R.ActiveBlocksPerSM) + " of " +
                        std::to_string(K.ThreadsPerBlock) + " threads (" +
                        model::formatPercent(R.Theoretical) + " occupancy)";
    std::string Message;
    std::optional<FixItHint> Fix;

    if (!R.valid()) {
      Message = Prefix + Regs + ": the launch cannot run on " + Spec->Name + ": " + R.Error;
    } else if (R.Limiter == model::OccupancyLimiter::Registers) {
      Message = Prefix + Regs + " limit " + Spec->Name + " to " + Shape;
      auto Target = chooseTarget<unsigned>(*Spec, R, MinOccupancy, [&](unsigned B) {
        return model::maxRegistersForBlocks(*Spec, K, B);
      });
      if (Target && Target->second < K.RegistersPerThread) {
        model::OccupancyResult At = model::occupancyWithRegisters(*Spec, K, Target->second);
        Message += "; at most " + std::to_string(Target->second) +
                   " registers would allow " + blocksText(At.ActiveBlocksPerSM) + " (" +
                   model::formatPercent(At.Theoretical) + ")";
        bool Template = Kernel->isTemplateInstantiation() ||
                        Kernel->getDescribedFunctionTemplate() != nullptr;
        // A cap that makes ptxas spill more than it does now trades
        // occupancy for local-memory traffic: said, and beyond a few
        // registers' worth no fix-it offered (a 255-register kernel spilling
        // 3,856 bytes became a 64-register one spilling 7,860 and reloading
        // 8,076). Checked by compiling the unit again with the cap, where the
        // count came from ptxas.
        CapSpills Spills = spillsUnderCap(Kernel, *Rep, RO, Target->second, Session);
        if (!Spills.Text.empty())
          Message += "; " + Spills.Text;
        if (!Spills.Blocks && !Rep->Bounds && !Template && OneBlockSize && Loc.isFileID())
          Fix = FixItHint::CreateInsertion(
              Loc, "__launch_bounds__(" + std::to_string(K.ThreadsPerBlock) + ", " +
                       std::to_string(At.ActiveBlocksPerSM) + ") ");
      }
    } else if (R.Limiter == model::OccupancyLimiter::SharedMemory) {
      Message = Prefix + std::to_string(K.StaticSharedBytes) + " bytes of static and " +
                std::to_string(K.DynamicSharedBytes) +
                " bytes of dynamic shared memory per block (" +
                std::to_string(R.AllocatedSharedBytesPerBlock) + " allocated) limit " +
                Spec->Name + " to " + Shape;
      model::KernelResources Total = K;
      Total.StaticSharedBytes = 0;
      auto Target = chooseTarget<std::uint64_t>(*Spec, R, MinOccupancy, [&](unsigned B) {
        return model::maxDynamicSharedForBlocks(*Spec, Total, B);
      });
      if (Target && Target->second < K.StaticSharedBytes + K.DynamicSharedBytes) {
        Total.DynamicSharedBytes = Target->second;
        model::OccupancyResult At = model::computeOccupancy(*Spec, Total);
        Message += "; at most " + std::to_string(Target->second) +
                   " bytes of shared memory per block would allow " +
                   blocksText(At.ActiveBlocksPerSM) + " (" + model::formatPercent(At.Theoretical) +
                   ")";
      }
    } else if (R.Limiter == model::OccupancyLimiter::Blocks) {
      Message = Prefix + "blocks of " + std::to_string(K.ThreadsPerBlock) +
                " threads limit " + Spec->Name + " to its " + blocksText(R.ActiveBlocksPerSM) +
                " per SM (" + model::formatPercent(R.Theoretical) + " occupancy)";
      for (unsigned Threads = (K.ThreadsPerBlock / Spec->WarpSize + 1) * Spec->WarpSize;
           Threads <= Spec->MaxThreadsPerBlock; Threads += Spec->WarpSize) {
        model::KernelResources Bigger = K;
        Bigger.ThreadsPerBlock = Threads;
        model::OccupancyResult At = model::computeOccupancy(*Spec, Bigger);
        if (At.valid() && percent(At) + 1e-9 >= MinOccupancy) {
          Message += "; blocks of " + std::to_string(Threads) + " threads would reach " +
                     model::formatPercent(At.Theoretical);
          break;
        }
      }
    } else {
      Message = Prefix + Regs + " and " +
                std::to_string(K.StaticSharedBytes + K.DynamicSharedBytes) +
                " bytes of shared memory per block give " + Spec->Name + " " + Shape +
                ", limited by " + model::limiterName(R.Limiter);
    }

    {
      auto D = diag(Loc, "%0");
      D << Message;
      if (Fix)
        D << *Fix;
    }

    diag(Loc, "%0 registers per thread (%1, %2)%3", DiagnosticIDs::Note)
        << Rep->Registers << (Estimated ? "estimated" : "ptxas") << Spec->Name
        << spillText(Rep->RegisterDetails, ", ");

    // Other architectures.
    llvm::SmallVector<StringRef, 4> Others;
    StringRef(Archs).split(Others, ',', -1, false);
    for (StringRef Other : Others) {
      const model::ArchSpec *OtherSpec = model::findArch(Other.trim());
      if (!OtherSpec || OtherSpec->Name == Spec->Name)
        continue;
      RegisterOptions OO = RO;
      OO.Arch = OtherSpec->Name;
      std::optional<KernelOccupancyReport> ORep =
          occupancyFor(Kernel, C, Session, OO, Registers.defaultDynamicSharedBytes());
      if (!ORep) {
        diag(Loc, "on %0: no register count", DiagnosticIDs::Note) << OtherSpec->Name;
        continue;
      }
      const model::OccupancyResult &OR = ORep->Result;
      std::string ORegs = std::to_string(ORep->Registers) + " registers per thread" +
                          (ORep->RegistersSource == "estimate" ? " (estimated)" : "");
      std::string Text;
      if (!OR.valid())
        Text = ORegs + "; the launch cannot run: " + OR.Error;
      else
        Text = ORegs + ", " + blocksText(OR.ActiveBlocksPerSM) + " of " +
               std::to_string(ORep->Resources.ThreadsPerBlock) + " threads (" +
               model::formatPercent(OR.Theoretical) + " occupancy), limited by " +
               model::limiterName(OR.Limiter) +
               (OR.valid() && R.valid() &&
                        model::formatPercent(OR.Theoretical) == model::formatPercent(R.Theoretical)
                    ? " (as on " + Spec->Name + ")"
                    : "");
      diag(Loc, "on %0: %1", DiagnosticIDs::Note) << OtherSpec->Name << Text;
    }
    for (const std::string &A : Rep->Assumptions)
      diag(Loc, "assumed: %0", DiagnosticIDs::Note) << A;
  }
}

void OccupancyCheck::onEndOfTranslationUnit() {
  // A translation unit that does not compile has no register counts: nvcc
  // would fail on it too (after seconds), and the estimate needs code
  // generation, which clang never runs on an AST with errors.
  TranslationUnitSession *Session = unitSession();
  if (Session && !Session->context().getDiagnostics().hasErrorOccurred()) {
    Session->registers().setPreprocessor(PP);
    for (const FunctionDecl *Kernel : Kernels)
      containedOnKernel(Kernel, Session->context(),
                        [&] { diagnoseKernel(Kernel, Session->context()); });
  }
  Kernels.clear();
  CudaKernelCheck::onEndOfTranslationUnit();
}

} // namespace clang::tidy::cuda
