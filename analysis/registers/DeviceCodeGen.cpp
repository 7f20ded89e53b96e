//===- DeviceCodeGen.cpp - clang CodeGen to optimized NVPTX IR ------------===//
//
// The device code generation of the estimate: every kernel of a
// device-side AST lowered by clang's code generator, the toolkit's
// libdevice linked when there is one, LLVM's -O3 pipeline for NVPTX.
//
//===----------------------------------------------------------------------===//

#include "DeviceCodeGen.h"
#include "Options.h"

#include "warpcheck/analysis/RegisterUsage.h"
#include "warpcheck/toolchain/CudaToolkit.h"

#include "clang/AST/ASTDiagnostic.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/CodeGen/ModuleBuilder.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

#include <mutex>

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();

using namespace clang;

namespace warpcheck::analysis {

using registers::FirstErrorConsumer;
using registers::KernelCollector;

namespace {

void initializeNVPTX() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
  });
}

/// -O3 for NVPTX, as clang's device compilation runs it.
bool optimizeModule(llvm::Module &M, llvm::StringRef CPU, std::string &Error) {
  initializeNVPTX();
  std::string Triple = M.getTargetTriple();
  if (Triple.empty())
    Triple = "nvptx64-nvidia-cuda";
  const llvm::Target *T = llvm::TargetRegistry::lookupTarget(Triple, Error);
  if (!T)
    return false;
  llvm::TargetOptions TO;
  std::unique_ptr<llvm::TargetMachine> TM(T->createTargetMachine(
      Triple, CPU, "", TO, std::nullopt, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!TM) {
    Error = "no NVPTX target machine";
    return false;
  }
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  llvm::PassBuilder PB(TM.get());
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  llvm::ModulePassManager MPM = PB.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  MPM.run(M, MAM);
  return true;
}

/// Links the toolkit's libdevice (math functions) the way clang's
/// -mlink-builtin-bitcode does, so that they are inlined and counted.
void linkLibdevice(llvm::Module &M, llvm::StringRef ToolkitRoot) {
  if (ToolkitRoot.empty())
    return;
  auto Buffer = llvm::MemoryBuffer::getFile(toolchain::cudaToolkitLibdevice(ToolkitRoot));
  if (!Buffer)
    return;
  bool NeedsLibdevice = llvm::any_of(M.functions(), [](const llvm::Function &F) {
    return F.isDeclaration() && F.getName().starts_with("__nv_");
  });
  if (!NeedsLibdevice)
    return;
  llvm::Expected<std::unique_ptr<llvm::Module>> Lib =
      llvm::parseBitcodeFile((*Buffer)->getMemBufferRef(), M.getContext());
  if (!Lib) {
    llvm::consumeError(Lib.takeError());
    return;
  }
  (*Lib)->setTargetTriple(M.getTargetTriple());
  (*Lib)->setDataLayout(M.getDataLayout());
  if (llvm::Linker::linkModules(M, std::move(*Lib), llvm::Linker::Flags::LinkOnlyNeeded))
    return;
  for (llvm::Function &F : M)
    if (F.getName().starts_with("__nv_") && !F.isDeclaration())
      F.setLinkage(llvm::GlobalValue::InternalLinkage);
}

/// Device-side LLVM IR for every kernel of a device-side AST.
std::unique_ptr<llvm::Module> emitDeviceModule(ASTContext &Ctx, const KernelCollector &Found,
                                               llvm::LLVMContext &LLCtx,
                                               const HeaderSearchOptions &HSOpts,
                                               const PreprocessorOptions &PPOpts,
                                               std::string &Error) {
  FirstErrorConsumer Errors;
  IntrusiveRefCntPtr<DiagnosticIDs> IDs(new DiagnosticIDs());
  IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts(new DiagnosticOptions());
  DiagnosticsEngine Diags(IDs, DiagOpts, &Errors, /*ShouldOwnClient=*/false);
  Diags.setSourceManager(&Ctx.getSourceManager());
  Diags.SetArgToStringFn(&FormatASTNodeDiagnosticArgument, &Ctx); // names in messages
  CodeGenOptions CGO;
  CGO.OptimizationLevel = 3;
  CGO.setInlining(CodeGenOptions::NormalInlining);
  CGO.UnrollLoops = true;
  CGO.DiscardValueNames = true;
  std::unique_ptr<CodeGenerator> Gen(CreateLLVMCodeGen(
      Diags, "warpcheck-register-estimate", llvm::vfs::getRealFileSystem(), HSOpts, PPOpts,
      CGO, LLCtx));
  Gen->Initialize(Ctx);
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!Diags.hasErrorOccurred())
      Gen->HandleTopLevelDecl(DeclGroupRef(D));
  for (FunctionDecl *FD : Found.Instantiations)
    if (!Diags.hasErrorOccurred())
      Gen->HandleTopLevelDecl(DeclGroupRef(FD));
  Gen->HandleTranslationUnit(Ctx);
  if (Diags.hasErrorOccurred()) {
    Error = "clang's code generator could not lower the device code" + Errors.suffix();
    return nullptr;
  }
  std::unique_ptr<llvm::Module> M(Gen->ReleaseModule());
  if (!M)
    Error = "clang's code generator produced no module";
  return M;
}

} // namespace

std::unique_ptr<llvm::Module> lowerForEstimate(ASTContext &Ctx, llvm::LLVMContext &LLCtx,
                                               const RegisterOptions &Options,
                                               const Preprocessor *PP, std::string &Error) {
  if (!Ctx.getTargetInfo().getTriple().isNVPTX()) {
    Error = "the AST is not a device-side one";
    return nullptr;
  }
  if (Ctx.getDiagnostics().hasErrorOccurred()) {
    Error = "the translation unit has errors";
    return nullptr;
  }
  KernelCollector Found;
  Found.TraverseDecl(Ctx.getTranslationUnitDecl());
  HeaderSearchOptions DefaultHS;
  PreprocessorOptions DefaultPP;
  const HeaderSearchOptions &HS =
      PP ? PP->getHeaderSearchInfo().getHeaderSearchOpts() : DefaultHS;
  const PreprocessorOptions &PPO = PP ? PP->getPreprocessorOpts() : DefaultPP;
  std::unique_ptr<llvm::Module> M = emitDeviceModule(Ctx, Found, LLCtx, HS, PPO, Error);
  if (!M)
    return nullptr;
  linkLibdevice(*M, Options.ToolkitRoot);
  std::string CPU = Ctx.getTargetInfo().getTargetOpts().CPU;
  if (!optimizeModule(*M, registers::archOrDefault(CPU), Error))
    return nullptr;
  return M;
}

} // namespace warpcheck::analysis
