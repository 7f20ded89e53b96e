//===- TranslationUnitJob.cpp - checks and engine on one TU ---------------===//

#include "TranslationUnitJob.h"
#include "KernelReportJson.h"

#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/analysis/RegisterUsage.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"

#include "CudaCheckSupport.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <optional>

using namespace clang;
using namespace clang::tidy;

namespace warpcheck::tool {

namespace {

/// The register options of the JSON report: read as cuda-occupancy reads
/// them (its own option, else the global one), so that the report's
/// "registers" and the check's message come from the same nvcc run or
/// estimate.
cuda::RegisterCountOptions reportRegisterOptions(ClangTidyContext &Context,
                                                 llvm::StringRef File) {
  ClangTidyOptions Options = Context.getOptionsForFile(File);
  ClangTidyCheck::OptionsView View("cuda-occupancy", Options.CheckOptions, &Context);
  return cuda::RegisterCountOptions(View);
}

/// Reports every kernel of the translation unit (not only findings): the
/// JSON contract lists each analysed access.
class KernelReportConsumer : public ASTConsumer {
public:
  KernelReportConsumer(const TranslationUnitJob &Job, const cuda::RegisterCountOptions &Registers,
                       llvm::json::Array &Kernels, const Preprocessor *PP)
      : Job(Job), Registers(Registers), Kernels(Kernels), PP(PP) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return; // a broken AST is reported as an error, not analysed
    struct KernelFinder : RecursiveASTVisitor<KernelFinder> {
      const SourceManager &SM;
      std::vector<const FunctionDecl *> Kernels;
      explicit KernelFinder(const SourceManager &SM) : SM(SM) {}
      bool shouldVisitTemplateInstantiations() const { return true; }
      // Library kernels (CUB, Thrust) are not the user's code: system
      // headers are not walked.
      bool TraverseDecl(Decl *D) {
        if (D && !isa<TranslationUnitDecl>(D) && !isa<NamespaceDecl>(D) &&
            !isa<LinkageSpecDecl>(D) &&
            SM.isInSystemHeader(SM.getFileLoc(D->getLocation())))
          return true;
        return RecursiveASTVisitor::TraverseDecl(D);
      }
      bool VisitFunctionDecl(FunctionDecl *FD) {
        if (analysis::isAnalysableKernel(FD))
          Kernels.push_back(FD);
        return true;
      }
    } Finder(Ctx.getSourceManager());
    Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
    const SourceManager &SM = Ctx.getSourceManager();
    analysis::AnalysisOptions Options =
        cuda::makeAnalysisOptions(Job.Arch, Job.DefaultBlock, Ctx);
    auto &Analysis = analysis::TranslationUnitAnalysis::get(Ctx);
    for (const FunctionDecl *K : Finder.Kernels) {
      if (SM.isInSystemHeader(SM.getFileLoc(K->getLocation())))
        continue; // library kernels (CUB, Thrust) are not the user's code
      for (const analysis::KernelLaunchAnalysis &L : Analysis.analyze(K, Options))
        Kernels.push_back(kernelLaunchToJson(L, Ctx, cuda::resolveArch(Job.Arch, Ctx), PP,
                                             Registers, Job.CompareArchs));
    }
  }

private:
  const TranslationUnitJob &Job;
  const cuda::RegisterCountOptions &Registers;
  llvm::json::Array &Kernels;
  const Preprocessor *PP;
};

class JobAction : public ASTFrontendAction {
public:
  JobAction(ClangTidyASTConsumerFactory &Tidy, const TranslationUnitJob &Job,
            const cuda::RegisterCountOptions &Registers, llvm::json::Array &Kernels)
      : Tidy(Tidy), Job(Job), Registers(Registers), Kernels(Kernels) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef File) override {
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    // The report runs first: it fills the analysis cache the checks reuse,
    // before the checks release it at the end of the translation unit.
    Consumers.push_back(std::make_unique<KernelReportConsumer>(Job, Registers, Kernels,
                                                               &CI.getPreprocessor()));
    Consumers.push_back(Tidy.createASTConsumer(CI, File));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

private:
  ClangTidyASTConsumerFactory &Tidy;
  const TranslationUnitJob &Job;
  const cuda::RegisterCountOptions &Registers;
  llvm::json::Array &Kernels;
};

class JobActionFactory : public tooling::FrontendActionFactory {
public:
  JobActionFactory(ClangTidyContext &Context, const TranslationUnitJob &Job,
                   llvm::json::Array &Kernels)
      : Tidy(Context), Job(Job),
        Registers(reportRegisterOptions(Context, Job.File)),
        Kernels(Kernels) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<JobAction>(Tidy, Job, Registers, Kernels);
  }

private:
  ClangTidyASTConsumerFactory Tidy;
  const TranslationUnitJob &Job;
  cuda::RegisterCountOptions Registers;
  llvm::json::Array &Kernels;
};

struct LineInfo {
  unsigned Line = 0, Column = 0;
  std::string Text;
};

/// Line, column and the text of the line for a byte offset of a file.
class SourceLines {
public:
  LineInfo at(const std::string &Path, unsigned Offset) {
    auto &Buffer = Files[Path];
    if (!Buffer) {
      auto B = llvm::MemoryBuffer::getFile(Path);
      if (!B)
        return {};
      Buffer = std::move(*B);
    }
    llvm::StringRef Data = Buffer->getBuffer();
    if (Offset > Data.size())
      return {};
    LineInfo Info;
    llvm::StringRef Before = Data.take_front(Offset);
    Info.Line = static_cast<unsigned>(Before.count('\n')) + 1;
    size_t LineStart = Before.rfind('\n');
    LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
    Info.Column = Offset - static_cast<unsigned>(LineStart) + 1;
    Info.Text = Data.substr(LineStart).take_until([](char C) {
      return C == '\n' || C == '\r';
    }).str();
    return Info;
  }

private:
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Files;
};

llvm::json::Object messageToJson(const tooling::DiagnosticMessage &M,
                                 SourceLines &Lines) {
  llvm::json::Object O;
  O["message"] = M.Message;
  if (M.FilePath.empty()) {
    O["file"] = nullptr;
    O["line"] = nullptr;
    O["column"] = nullptr;
    return O;
  }
  LineInfo Info = Lines.at(M.FilePath, M.FileOffset);
  O["file"] = M.FilePath;
  O["line"] = Info.Line;
  O["column"] = Info.Column;
  O["source_line"] = Info.Text;
  return O;
}

} // namespace

int runTranslationUnitJob(const TranslationUnitJob &Job, llvm::json::Object &Result) {
  Result["file"] = Job.File;
  // The toolkit whose nvcc may be started is the one warpcheck located,
  // never one named by the analysed project (see RegisterUsage.h).
  analysis::setTrustedToolkitRoot(Job.ToolkitRoot);
  llvm::json::Array Errors, Findings, Kernels;

  ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
  Defaults.Checks = "-*," + Job.Checks;
  ClangTidyOptions Override;
  Override.Checks = "-*," + Job.Checks;
  Override.WarningsAsErrors = Job.WarningsAsErrors;
  // The model's target and default block reach every check as global
  // options; a check's own option in .clang-tidy still wins.
  if (!Job.Arch.empty())
    Override.CheckOptions["Arch"] = ClangTidyOptions::ClangTidyValue(Job.Arch);
  Override.CheckOptions["DefaultBlock"] = ClangTidyOptions::ClangTidyValue(Job.DefaultBlock);
  for (const std::string &KV : Job.CheckOptions) {
    auto [Key, Value] = llvm::StringRef(KV).split('=');
    Override.CheckOptions[Key] = ClangTidyOptions::ClangTidyValue(Value);
  }
  // No toolkit located (none found, or --no-cuda): no program is started,
  // the registers are estimated, whatever RegisterMode the options or the
  // project's .clang-tidy ask for (with RegisterMode=ptxas the checks would
  // otherwise search $CUDA_PATH, $CUDA_HOME and /usr/local/cuda themselves).
  if (Job.ToolkitRoot.empty())
    for (const char *Key : {"RegisterMode", "cuda-occupancy.RegisterMode",
                            "cuda-shared-bank-conflict.RegisterMode"})
      Override.CheckOptions[Key] = ClangTidyOptions::ClangTidyValue("estimate");
  ClangTidyContext Context(std::make_unique<FileOptionsProvider>(
      ClangTidyGlobalOptions(), Defaults, Override));
  ClangTidyDiagnosticConsumer DiagConsumer(Context);
  // The engine takes shared ownership of its options.
  DiagnosticsEngine DE(new DiagnosticIDs(), new DiagnosticOptions(), &DiagConsumer,
                       /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(&DE);

  tooling::FixedCompilationDatabase Database(Job.Directory, Job.ClangArgs);
  tooling::ClangTool Tool(Database, {Job.File});
  Tool.setDiagnosticConsumer(&DiagConsumer);
  JobActionFactory Factory(Context, Job, Kernels);
  int ToolStatus = Tool.run(&Factory);

  SourceLines Lines;
  bool ParseErrors = ToolStatus != 0;
  for (const ClangTidyError &E : DiagConsumer.take()) {
    bool IsCompilerError = E.DiagLevel == ClangTidyError::Error &&
                           llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic");
    llvm::json::Object O = messageToJson(E.Message, Lines);
    O["check"] = E.DiagnosticName;
    if (IsCompilerError) {
      ParseErrors = true;
      Errors.push_back(std::move(O));
      continue;
    }
    O["severity"] = (E.DiagLevel == ClangTidyError::Error || E.IsWarningAsError)
                        ? "error"
                        : "warning";
    llvm::json::Array Notes;
    for (const tooling::DiagnosticMessage &N : E.Notes)
      Notes.push_back(messageToJson(N, Lines));
    O["notes"] = std::move(Notes);
    llvm::json::Array Fixes;
    for (const auto &[File, Replacements] : E.Message.Fix)
      for (const tooling::Replacement &R : Replacements) {
        LineInfo At = Lines.at(R.getFilePath().str(), R.getOffset());
        // Strings are copied: json::Value keeps a StringRef unowned.
        Fixes.push_back(llvm::json::Object{{"file", R.getFilePath().str()},
                                           {"offset", R.getOffset()},
                                           {"length", R.getLength()},
                                           {"line", At.Line},
                                           {"column", At.Column},
                                           {"replacement", R.getReplacementText().str()}});
      }
    O["fixes"] = std::move(Fixes);
    Findings.push_back(std::move(O));
  }
  if (ParseErrors && Errors.empty())
    Errors.push_back(llvm::json::Object{
        {"file", Job.File},
        {"message", "the file could not be parsed (see the compiler's messages)"}});
  Result["errors"] = std::move(Errors);
  Result["findings"] = std::move(Findings);
  Result["kernels"] = std::move(Kernels);
  return ParseErrors ? 3 : 0;
}

std::vector<std::string> jobToArguments(const TranslationUnitJob &Job,
                                        const std::string &OutputPath) {
  std::vector<std::string> Args = {
      "--worker-file=" + Job.File,       "--worker-dir=" + Job.Directory,
      "--worker-out=" + OutputPath,      "--checks=" + Job.Checks,
      "--arch=" + Job.Arch,              "--default-block=" + Job.DefaultBlock,
      "--warnings-as-errors=" + Job.WarningsAsErrors,
      "--toolkit-root=" + Job.ToolkitRoot,
      "--compare-archs=" + llvm::join(Job.CompareArchs, ",")};
  for (const std::string &O : Job.CheckOptions)
    Args.push_back("--check-option=" + O);
  Args.push_back("--");
  Args.insert(Args.end(), Job.ClangArgs.begin(), Job.ClangArgs.end());
  return Args;
}

bool jobFromArguments(const std::vector<std::string> &Args, TranslationUnitJob &Job,
                      std::string &OutputPath, std::string &Error) {
  size_t I = 0;
  for (; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "--") {
      ++I;
      break;
    }
    auto Value = [&](llvm::StringRef Prefix, std::string &Into) {
      if (!A.starts_with(Prefix))
        return false;
      Into = A.drop_front(Prefix.size()).str();
      return true;
    };
    std::string Option;
    if (Value("--worker-file=", Job.File) || Value("--worker-dir=", Job.Directory) ||
        Value("--worker-out=", OutputPath) || Value("--checks=", Job.Checks) ||
        Value("--arch=", Job.Arch) || Value("--default-block=", Job.DefaultBlock) ||
        Value("--warnings-as-errors=", Job.WarningsAsErrors) ||
        Value("--toolkit-root=", Job.ToolkitRoot))
      continue;
    if (Value("--compare-archs=", Option)) {
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      llvm::StringRef(Option).split(Parts, ',', -1, false);
      Job.CompareArchs.assign(Parts.begin(), Parts.end());
      continue;
    }
    if (Value("--check-option=", Option)) {
      Job.CheckOptions.push_back(Option);
      continue;
    }
    Error = "unexpected worker argument '" + A.str() + "'";
    return false;
  }
  Job.ClangArgs.assign(Args.begin() + std::min(I, Args.size()), Args.end());
  if (Job.File.empty() || OutputPath.empty()) {
    Error = "worker needs --worker-file and --worker-out";
    return false;
  }
  return true;
}

} // namespace warpcheck::tool
