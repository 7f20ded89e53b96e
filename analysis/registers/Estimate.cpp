//===- Estimate.cpp - registers per thread without starting a program -----===//
//
// clang CodeGen -> LLVM -O3 for NVPTX -> live 32-bit values
// (DeviceCodeGen.cpp, PressureModel.cpp) -> the calibrated count and the
// caps (model/RegisterEstimate.h). A host-side AST is parsed again for the
// device, in-process.
//
//===----------------------------------------------------------------------===//

#include "DeviceCodeGen.h"
#include "ParsedFlags.h"
#include "Options.h"
#include "PressureModel.h"

#include "warpcheck/analysis/LaunchBounds.h"
#include "warpcheck/analysis/RegisterUsage.h"

#include "warpcheck/model/Arch.h"
#include "warpcheck/model/RegisterEstimate.h"

#include "clang/AST/Attr.h"
#include "clang/Basic/LangStandard.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace clang;

namespace warpcheck::analysis {

using registers::appendMacroFlags;
using registers::archOrDefault;
using registers::fileExists;
using registers::FirstErrorConsumer;
using registers::includeFlags;
using registers::isSystemIncludeDir;
using registers::KernelCollector;
using registers::lowerMaxRegisterCount;
using registers::PressureModel;

// The calibrated formula (slopes, rounding, tiers) is pure arithmetic on the
// two counts: model/RegisterEstimate.cpp.
unsigned estimateRegisterCount(const LiveValueMeasures &Live, std::optional<unsigned> MaxThreads) {
  return model::estimateRegisterCount(Live.InOrder, Live.Scheduled, MaxThreads);
}

namespace {

/// The cap ptxas applies: __launch_bounds__ and -maxrregcount.
unsigned applyCaps(unsigned Registers, const FunctionDecl *Kernel, ASTContext &Ctx,
                   const model::ArchSpec &Arch, std::optional<unsigned> MaxRegisterCount,
                   std::string &CappedBy) {
  std::optional<std::uint64_t> Threads, Blocks;
  if (std::optional<LaunchBounds> Bounds = launchBounds(Kernel, Ctx)) {
    Threads = Bounds->MaxThreads;
    Blocks = Bounds->MinBlocks;
  }
  model::CappedRegisters Capped =
      model::capRegisterCount(Registers, Arch, Threads, Blocks, MaxRegisterCount);
  switch (Capped.CappedBy) {
  case model::RegisterCapSource::None:
    CappedBy.clear();
    break;
  case model::RegisterCapSource::LaunchBounds:
    CappedBy = "__launch_bounds__(" + std::to_string(*Threads) +
               (Blocks ? ", " + std::to_string(*Blocks) : std::string()) + ")";
    break;
  case model::RegisterCapSource::MaxRegisterCount:
    CappedBy = "-maxrregcount=" + std::to_string(*MaxRegisterCount);
    break;
  }
  return Capped.Registers;
}

/// An estimate of no kernels yet, for the options' architecture.
TranslationUnitRegisters emptyEstimate(const RegisterOptions &Options) {
  TranslationUnitRegisters R;
  R.Source = RegisterSource::Estimate;
  R.Arch = archOrDefault(Options.Arch);
  return R;
}

/// The estimate on a device-side AST.
TranslationUnitRegisters estimateOnDeviceAST(ASTContext &Ctx, const RegisterOptions &Options,
                                             const Preprocessor *PP) {
  TranslationUnitRegisters R = emptyEstimate(Options);
  KernelCollector Found;
  Found.TraverseDecl(Ctx.getTranslationUnitDecl());
  if (Found.Kernels.empty())
    return R;
  llvm::LLVMContext LLCtx;
  std::string Error;
  std::unique_ptr<llvm::Module> M = lowerForEstimate(Ctx, LLCtx, Options, PP, Error);
  if (!M) {
    R.FallbackReason = Error;
    return R;
  }
  const model::ArchSpec *Arch = &model::findArchOrDefault(R.Arch);
  SanitizedFlags Flags = sanitizeCompileFlags(Options.CompileFlags, Options.WorkingDirectory);
  std::optional<unsigned> MaxReg =
      lowerMaxRegisterCount(Options.MaxRegisterCount, Flags.MaxRegisterCount);
  PressureModel InOrder(M->getDataLayout(), /*Scheduled=*/false);
  PressureModel Scheduled(M->getDataLayout(), /*Scheduled=*/true);
  for (const FunctionDecl *K : Found.Kernels) {
    std::string Name = deviceMangledName(K, Ctx);
    const llvm::Function *F = M->getFunction(Name);
    if (!F || F->isDeclaration())
      continue;
    FunctionRegisters FR;
    FR.Source = RegisterSource::Estimate;
    FR.Arch = R.Arch;
    LiveValueMeasures Live;
    Live.InOrder = InOrder.functionPressure(*F);
    Live.Scheduled = Scheduled.functionPressure(*F);
    FR.InOrderLiveValues = Live.InOrder;
    FR.ScheduledLiveValues = Live.Scheduled;
    // A bound no block of this architecture can have is no bound ptxas
    // could honour: the estimate ignores it.
    std::optional<unsigned> MaxThreads;
    if (std::optional<LaunchBounds> Bounds = launchBounds(K, Ctx);
        Bounds && Bounds->MaxThreads <= Arch->MaxThreadsPerBlock)
      MaxThreads = Bounds->MaxThreads;
    FR.UncappedRegisters = estimateRegisterCount(Live, MaxThreads);
    FR.Registers = applyCaps(FR.UncappedRegisters, K, Ctx, *Arch, MaxReg, FR.CappedBy);
    R.ByMangledName[Name] = FR;
  }
  return R;
}

/// The estimate for a host-side AST: the source is parsed again for the
/// device in-process (no program is started) with the same include paths
/// and macros.
TranslationUnitRegisters estimateByDeviceReparse(ASTContext &Ctx, const RegisterOptions &Options,
                                                 const Preprocessor *PP) {
  TranslationUnitRegisters R = emptyEstimate(Options);
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Source = Options.SourceFile;
  if (Source.empty())
    if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
      Source = Main->getName().str();
  if (Source.empty()) {
    R.FallbackReason = "the main file of the translation unit has no name";
    return R;
  }
  // clang 19 knows GPU architectures up to sm_90a; newer ones are parsed as
  // sm_90 (the device code rarely differs).
  std::string ClangArch(model::DefaultArchName);
  if (auto SMName = nvccArchName(R.Arch)) {
    unsigned Number = 0;
    llvm::StringRef(*SMName).drop_front(3).take_while(llvm::isDigit).getAsInteger(10, Number);
    if (Number >= 50 && Number <= 90)
      ClangArch = *SMName;
  }
  std::vector<std::string> Args = {"-x", "cuda", "--cuda-device-only",
                                   "--cuda-gpu-arch=" + ClangArch, "-nocudalib", "-w",
                                   "-Wno-unknown-cuda-version"};
  std::string CudaRoot;
  if (PP) {
    const HeaderSearchOptions &HS = PP->getHeaderSearchInfo().getHeaderSearchOpts();
    if (!HS.ResourceDir.empty())
      Args.push_back("-resource-dir=" + HS.ResourceDir);
    std::vector<std::string> Includes = includeFlags(HS, [&](llvm::StringRef P) {
      if (CudaRoot.empty() && toolchain::isCudaToolkitIncludeDir(P, CudaRoot))
        return true;
      // the driver adds these itself
      return P.starts_with(HS.ResourceDir) || P.ends_with("/cuda_wrappers") ||
             isSystemIncludeDir(P);
    });
    Args.insert(Args.end(), Includes.begin(), Includes.end());
    appendMacroFlags(PP->getPreprocessorOpts(), Args);
    // Forced includes (-include): without a toolkit, the bundled
    // declarations of __global__, threadIdx and the rest come in so.
    for (const std::string &Include : PP->getPreprocessorOpts().Includes) {
      Args.push_back("-include");
      Args.push_back(Include);
    }
    const LangStandard &Std = LangStandard::getLangStandardForKind(PP->getLangOpts().LangStd);
    Args.push_back(std::string("-std=") + Std.getName());
  } else {
    SanitizedFlags Flags = sanitizeCompileFlags(Options.CompileFlags, Options.WorkingDirectory);
    Args.insert(Args.end(), Flags.Kept.begin(), Flags.Kept.end());
  }
  if (CudaRoot.empty())
    CudaRoot = Options.ToolkitRoot;
  if (!CudaRoot.empty()) {
    Args.push_back("--cuda-path=" + CudaRoot);
  } else {
    Args.push_back("-nocudainc");
    // Without a toolkit clang assumes PTX 4.2, and its code generator then
    // rejects the *_sync warp builtins (PTX 6.0); 8.5 is what clang 19
    // targets for CUDA 12.5, as the warpcheck binary's no-toolkit
    // arguments say too (tool/CudaEnvironment.cpp).
    Args.push_back("--cuda-feature=+ptx85");
  }

  struct Consumer : ASTConsumer {
    Consumer(const RegisterOptions &O, TranslationUnitRegisters &Out, CompilerInstance &CI)
        : Options(O), Out(Out), CI(CI) {}
    void HandleTranslationUnit(ASTContext &DeviceCtx) override {
      Out = estimateOnDeviceAST(DeviceCtx, Options, &CI.getPreprocessor());
      Done = true;
    }
    const RegisterOptions &Options;
    TranslationUnitRegisters &Out;
    CompilerInstance &CI;
    bool Done = false;
  };
  struct Action : ASTFrontendAction {
    Action(const RegisterOptions &O, TranslationUnitRegisters &Out) : Options(O), Out(Out) {}
    std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, llvm::StringRef) override {
      return std::make_unique<Consumer>(Options, Out, CI);
    }
    const RegisterOptions &Options;
    TranslationUnitRegisters &Out;
  };
  struct Factory : tooling::FrontendActionFactory {
    Factory(const RegisterOptions &O, TranslationUnitRegisters &Out) : Options(O), Out(Out) {}
    std::unique_ptr<FrontendAction> create() override {
      return std::make_unique<Action>(Options, Out);
    }
    const RegisterOptions &Options;
    TranslationUnitRegisters &Out;
  };
  std::string Dir = Options.WorkingDirectory;
  if (Dir.empty())
    Dir = llvm::sys::path::parent_path(Source).str();
  tooling::FixedCompilationDatabase Database(Dir.empty() ? "." : Dir, Args);
  tooling::ClangTool Tool(Database, {Source});
  FirstErrorConsumer Quiet;
  Tool.setDiagnosticConsumer(&Quiet);
  Tool.setPrintErrorMessage(false);
  TranslationUnitRegisters Device;
  Device.FallbackReason = "the device-side parse failed";
  Factory F(Options, Device);
  if ((Tool.run(&F) != 0 || Quiet.getNumErrors() > 0) && Device.ByMangledName.empty()) {
    R.FallbackReason = "the source could not be parsed for the device" + Quiet.suffix();
    return R;
  }
  Device.Arch = R.Arch;
  return Device;
}

} // namespace

TranslationUnitRegisters estimateRegisters(ASTContext &Ctx, const RegisterOptions &Options,
                                           const Preprocessor *PP) {
  if (Ctx.getTargetInfo().getTriple().isNVPTX())
    return estimateOnDeviceAST(Ctx, Options, PP);
  return estimateByDeviceReparse(Ctx, Options, PP);
}

} // namespace warpcheck::analysis
