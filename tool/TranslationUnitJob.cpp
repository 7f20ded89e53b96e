//===- TranslationUnitJob.cpp - checks and engine on one TU ---------------===//

#include "TranslationUnitJob.h"
#include "CrossUnitLaunches.h"
#include "JobOptions.h"
#include "KernelEntryBuilder.h"

#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/analysis/RegisterUsage.h"
#include "warpcheck/analysis/TranslationUnitSession.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"

#include "CheckSessions.h"
#include "CudaCheckSupport.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <optional>
#include <set>

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

/// Forwards every diagnostic to clang-tidy's consumer and keeps the
/// compiler's errors with their locations: the engine uses them to tell
/// kernels that compile from kernels that do not (SourceErrors.h).
class ErrorRecorder : public DiagnosticConsumer {
public:
  explicit ErrorRecorder(DiagnosticConsumer &Next) : Next(Next) {}
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Next.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Next.EndSourceFile(); }
  void finish() override { Next.finish(); }
  bool IncludeInDiagnosticCounts() const override { return Next.IncludeInDiagnosticCounts(); }
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level >= DiagnosticsEngine::Error) {
      llvm::SmallString<256> Message;
      Info.FormatDiagnostic(Message);
      Errors.push_back({Info.getLocation(), Message.str().str()});
      if (Level == DiagnosticsEngine::Fatal && Fatal.empty())
        Fatal = Message.str().str();
    }
    Next.HandleDiagnostic(Level, Info);
  }

  std::vector<analysis::CompilerError> Errors;
  /// The first fatal error (the parse stopped there), or empty.
  std::string Fatal;

private:
  DiagnosticConsumer &Next;
};

/// What the report consumer learnt about the parse.
struct ParseOutcome {
  /// An AST was built and handed to the consumers.
  bool Parsed = false;
  /// Kernels reported with an error in their body.
  unsigned KernelsWithErrors = 0;
  /// Kernels analysed (each counted once, whatever its launch shapes).
  unsigned KernelsAnalysed = 0;
  /// Kernels whose analysis failed inside warpcheck (contained), each
  /// "'name': why".
  std::vector<std::string> KernelFailures;
  /// User headers the unit included (not system headers), absolute.
  std::set<std::string> Headers;
  /// Launches this unit evaluated of kernels it only declares, and the
  /// kernels it defines but whose launches it could not evaluate (by
  /// crossUnitName): for CrossUnitLaunches.h.
  analysis::CrossUnitLaunches LaunchesOfOtherUnitsKernels;
  std::vector<std::string> KernelsWithoutLaunch;
  /// The same for host functions: calls of functions this unit only
  /// declares, and the launching functions it defines with no caller here.
  analysis::CrossUnitCalls CallsOfOtherUnitsFunctions;
  std::vector<std::string> FunctionsWithoutCaller;
  /// What other units launch of this unit's kernels and call of its
  /// functions.
  const OtherUnitsTable *OtherUnits = nullptr;
  /// Every file the parse read, when the job records them.
  std::vector<FileDigest> Dependencies;
};

/// Every file the parse read, absolute, with the digest of the very bytes
/// it parsed (not of the file read again later: an edit made during the
/// analysis must not be stored as analysed), in path order.
std::vector<FileDigest> filesRead(const SourceManager &SM, llvm::StringRef Directory) {
  std::vector<FileDigest> Files;
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
    if (!It->second)
      continue;
    std::optional<llvm::StringRef> Data = It->second->getBufferDataIfLoaded();
    if (!Data)
      continue;
    llvm::SmallString<256> Path(It->first.getName());
    llvm::sys::fs::make_absolute(Directory, Path);
    // Only "." is removed: "a/../b" is not "b" when a is a symbolic link.
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
    Files.push_back({Path.str().str(), contentDigest(*Data)});
  }
  llvm::sort(Files, [](const FileDigest &A, const FileDigest &B) { return A.File < B.File; });
  Files.erase(std::unique(Files.begin(), Files.end(),
                          [](const FileDigest &A, const FileDigest &B) {
                            return A.File == B.File && A.Digest == B.Digest;
                          }),
              Files.end());
  return Files;
}

/// Whether findings and kernels located in File are reported: the main file
/// always; a user header when it matches the header filter (clang-tidy's
/// HeaderFilterRegex semantics); system headers never.
class ReportedFiles {
public:
  ReportedFiles(const SourceManager &SM, const std::optional<std::string> &HeaderFilter)
      : SM(SM) {
    if (HeaderFilter && !HeaderFilter->empty())
      Filter.emplace(*HeaderFilter);
  }
  bool reports(SourceLocation Loc) const {
    Loc = SM.getFileLoc(Loc);
    if (SM.isWrittenInMainFile(Loc))
      return true;
    if (SM.isInSystemHeader(Loc) || !Filter)
      return false;
    return Filter->match(SM.getFilename(Loc));
  }

private:
  const SourceManager &SM;
  std::optional<llvm::Regex> Filter;
};

/// Reports every kernel of the translation unit (not only findings): the
/// JSON contract lists each analysed access, and each kernel that does not
/// compile with the error that stops it.
class KernelReportConsumer : public ASTConsumer {
public:
  KernelReportConsumer(const TranslationUnitJob &Job, const cuda::RegisterCountOptions &Registers,
                       const ErrorRecorder &Recorder, analysis::TranslationUnitSession &Session,
                       std::vector<KernelEntry> &Kernels, ParseOutcome &Outcome,
                       const Preprocessor *PP)
      : Job(Job), Registers(Registers), Recorder(Recorder), Session(Session),
        Kernels(Kernels), Outcome(Outcome), PP(PP) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    Outcome.Parsed = true;
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
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      FileEntryRef File = It->first;
      SourceLocation Loc = SM.translateFileLineCol(File, 1, 1);
      if (Loc.isValid() && !SM.isInSystemHeader(Loc) && !SM.isWrittenInMainFile(Loc)) {
        llvm::SmallString<256> Path(File.getName());
        llvm::sys::fs::make_absolute(Job.Directory, Path);
        llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
        Outcome.Headers.insert(Path.str().str());
      }
    }
    if (Job.RecordDependencies)
      Outcome.Dependencies = filesRead(SM, Job.Directory);
    ReportedFiles Reported(SM, Job.HeaderFilter);
    analysis::AnalysisOptions Options =
        cuda::makeAnalysisOptions(Job.Arch, Job.DefaultBlock, Ctx);
    // As the checks do (CudaKernelCheck::analysisOptions): the memory
    // instructions of the register count's nvcc run.
    Options.InstructionsFrom = Registers.registerOptions(cuda::resolveArch(Job.Arch, Ctx), PP);
    // The checks, which run after this consumer in the same session, see
    // the same errors and the same launches from other units.
    Session.setCompilerErrors(Recorder.Errors);
    Session.setHostRegisterOptions(*Options.InstructionsFrom);
    if (Outcome.OtherUnits) {
      Session.setOtherUnitLaunches(&Outcome.OtherUnits->Launches);
      Session.setOtherUnitCalls(&Outcome.OtherUnits->Calls);
    }
    const analysis::LaunchSiteIndex &Sites = Session.launchSites();
    Outcome.LaunchesOfOtherUnitsKernels = Sites.launchesOfExternalKernels(Options.Defaults);
    Outcome.CallsOfOtherUnitsFunctions = Sites.callsOfExternalFunctions(Options.Defaults);
    Outcome.FunctionsWithoutCaller = Sites.launchingFunctionsWithoutCaller(Options.Defaults);
    if (Job.LaunchesOnly)
      return;
    for (const FunctionDecl *K : Finder.Kernels) {
      if (!Reported.reports(K->getLocation()))
        continue;
      // The kernel's entries are built contained (a crash or a stack
      // overflow in its analysis returns here) and handed over whole at
      // the end: a failed run leaves nothing half-built in the report.
      struct KernelWork {
        std::vector<KernelEntry> Entries;
        bool DoesNotCompile = false, WithoutLaunch = false;
      };
      std::unique_ptr<KernelWork> Done;
      bool Contained = Session.contain(K, [&] {
        auto Work = std::make_unique<KernelWork>();
        if (const std::optional<analysis::KernelError> &E = Session.errorIn(K)) {
          Work->Entries.push_back(kernelErrorEntry(K, *E, Ctx));
          Work->DoesNotCompile = true;
        } else {
          const auto &Launches = Session.analyze(K, Options);
          Work->WithoutLaunch = !Launches.empty() && Launches.front().Launch.Source !=
                                                         analysis::LaunchSource::LaunchSite;
          const auto &LaunchWork = Session.work(K, Options);
          for (std::size_t I = 0; I < Launches.size(); ++I)
            Work->Entries.push_back(kernelLaunchEntry(Launches[I], Session,
                                                      cuda::resolveArch(Job.Arch, Ctx), PP,
                                                      Registers, LaunchWork[I], Job.CompareArchs));
        }
        Done = std::move(Work);
      });
      if (!Contained || !Done) {
        const std::string *Why = Session.failureIn(K);
        std::string Text = Why ? *Why : "no result";
        Kernels.push_back(kernelFailureEntry(K, Text, Ctx));
        Outcome.KernelFailures.push_back("'" + K->getNameAsString() + "': " + Text);
        continue;
      }
      if (Done->DoesNotCompile) {
        ++Outcome.KernelsWithErrors;
      } else {
        ++Outcome.KernelsAnalysed;
        if (Done->WithoutLaunch)
          Outcome.KernelsWithoutLaunch.push_back(analysis::crossUnitName(K));
      }
      for (KernelEntry &E : Done->Entries)
        Kernels.push_back(std::move(E));
    }
  }

private:
  const TranslationUnitJob &Job;
  const cuda::RegisterCountOptions &Registers;
  const ErrorRecorder &Recorder;
  analysis::TranslationUnitSession &Session;
  std::vector<KernelEntry> &Kernels;
  ParseOutcome &Outcome;
  const Preprocessor *PP;
};

class JobAction : public ASTFrontendAction {
public:
  JobAction(ClangTidyASTConsumerFactory &Tidy, const TranslationUnitJob &Job,
            const cuda::RegisterCountOptions &Registers, const ErrorRecorder &Recorder,
            std::vector<KernelEntry> &Kernels, ParseOutcome &Outcome)
      : Tidy(Tidy), Job(Job), Registers(Registers), Recorder(Recorder), Kernels(Kernels),
        Outcome(Outcome) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    // Every error of the unit is wanted, and none may stop the parse: the
    // kernels after the twentieth error in host code are as good as the
    // ones before it.
    Diags.setErrorLimit(0);
    // A header of the build machine that is not here (<helper_cuda.h>,
    // <mpi.h>): an error of the lines that use it, not of the whole file.
    analysis::continueAfterMissingHeaders(Diags);
    // The errors are reported per input by warpcheck itself; no "N errors
    // generated" line from the compiler.
    CI.getDiagnosticOpts().ShowCarets = false;
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef File) override {
    // The unit's session: the report asks it first, and it is lent to the
    // checks of the same parse, which reuse its analyses.
    Session = std::make_shared<analysis::TranslationUnitSession>(CI.getASTContext());
    // --sass-listing: the build's instructions replace the toolkit's.
    if (!Job.SassListing.empty())
      if (auto Text = llvm::MemoryBuffer::getFile(Job.SassListing))
        Session->setListing(std::make_shared<const analysis::SassListing>(
            analysis::parseNvdisasmListing((*Text)->getBuffer())));
    SessionLoan.emplace(Session);
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(std::make_unique<KernelReportConsumer>(
        Job, Registers, Recorder, *Session, Kernels, Outcome, &CI.getPreprocessor()));
    // A unit parsed for its launches only runs no check.
    if (!Job.LaunchesOnly)
      Consumers.push_back(Tidy.createASTConsumer(CI, File));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

  // Before the AST is destroyed: the session describes it.
  void EndSourceFileAction() override {
    SessionLoan.reset();
    Session.reset();
  }

private:
  ClangTidyASTConsumerFactory &Tidy;
  const TranslationUnitJob &Job;
  const cuda::RegisterCountOptions &Registers;
  const ErrorRecorder &Recorder;
  std::vector<KernelEntry> &Kernels;
  ParseOutcome &Outcome;
  std::shared_ptr<analysis::TranslationUnitSession> Session;
  std::optional<cuda::CheckSessions::Loan> SessionLoan;
};

class JobActionFactory : public tooling::FrontendActionFactory {
public:
  JobActionFactory(ClangTidyContext &Context, const TranslationUnitJob &Job,
                   const ErrorRecorder &Recorder, std::vector<KernelEntry> &Kernels,
                   ParseOutcome &Outcome)
      : Tidy(Context), Job(Job), Registers(reportRegisterOptions(Context, Job.File)),
        Recorder(Recorder), Kernels(Kernels), Outcome(Outcome) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<JobAction>(Tidy, Job, Registers, Recorder, Kernels, Outcome);
  }

private:
  ClangTidyASTConsumerFactory Tidy;
  const TranslationUnitJob &Job;
  cuda::RegisterCountOptions Registers;
  const ErrorRecorder &Recorder;
  std::vector<KernelEntry> &Kernels;
  ParseOutcome &Outcome;
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

/// Into Out: the message and where it points (file, line and column null
/// when it names no file).
void readDiagnostic(const tooling::DiagnosticMessage &M, SourceLines &Lines,
                    ReportedMessage &Out) {
  Out.Message = M.Message;
  if (M.FilePath.empty())
    return;
  LineInfo Info = Lines.at(M.FilePath, M.FileOffset);
  // Without "." and "..": a header found through -I../include is named
  // alike whichever unit reports it (and is reported once).
  llvm::SmallString<256> Path(M.FilePath);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  Out.File = Path.str().str();
  Out.Line = Info.Line;
  Out.Column = Info.Column;
  Out.SourceLine = Info.Text;
}

} // namespace

int runTranslationUnitJob(const TranslationUnitJob &Job, JobResult &Result) {
  Result.File = Job.File;
  // The toolkit whose nvcc may be started is the one warpcheck located,
  // never one named by the analysed project (see RegisterUsage.h).
  analysis::setTrustedToolkitRoot(Job.ToolkitRoot);

  // The options of the checks (JobOptions.h): the .clang-tidy files of
  // the unit under the command line's.
  ClangTidyContext Context(jobOptionsProvider(Job));
  ClangTidyDiagnosticConsumer DiagConsumer(Context);
  // The engine takes shared ownership of its options.
  DiagnosticsEngine DE(new DiagnosticIDs(), new DiagnosticOptions(), &DiagConsumer,
                       /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(&DE);

  tooling::FixedCompilationDatabase Database(Job.Directory, Job.ClangArgs);
  tooling::ClangTool Tool(Database, {Job.File});
  ErrorRecorder Recorder(DiagConsumer);
  Tool.setDiagnosticConsumer(&Recorder);
  // Errors are reported per input, by name; not clang's "Error while
  // processing" line.
  Tool.setPrintErrorMessage(false);
  ParseOutcome Outcome;
  OtherUnitsTable OtherUnits;
  if (!Job.OtherUnitsFile.empty()) {
    std::string Why;
    if (readOtherUnitsTable(Job.OtherUnitsFile, OtherUnits, Why))
      Outcome.OtherUnits = &OtherUnits;
    else // the table is warpcheck's own file: a bug, not the input's fault
      llvm::errs() << "warpcheck: warning: " << Job.File
                   << ": launches and calls of other units not used: " << Why << "\n";
  }
  // The report's kernels with the architecture and default block the
  // checks use (a .clang-tidy may set them).
  TranslationUnitJob Configured = withConfiguredTarget(Job, Context);
  JobActionFactory Factory(Context, Configured, Recorder, Result.Kernels, Outcome);
  int ToolStatus = Tool.run(&Factory);

  SourceLines Lines;
  unsigned CompilerErrors = 0;
  for (const ClangTidyError &E : DiagConsumer.take()) {
    bool IsCompilerError = E.DiagLevel == ClangTidyError::Error &&
                           llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic");
    if (IsCompilerError) {
      ++CompilerErrors;
      ReportedError Error;
      readDiagnostic(E.Message, Lines, Error);
      // An error of the driver or of the arguments (an unknown flag of the
      // compile command) has no location: it is still this input's.
      if (!Error.File || Error.File->empty()) {
        Error.File = Job.File;
        Error.HasPosition = false;
      }
      Error.Check = E.DiagnosticName;
      Result.Errors.push_back(std::move(Error));
      continue;
    }
    // A value a check refuses is a problem of the configuration, said
    // once by the verification before the jobs (ConfigVerification.h):
    // never a finding of this unit.
    if (E.DiagnosticName == ConfigurationDiagnostic)
      continue;
    Finding F;
    readDiagnostic(E.Message, Lines, F);
    F.Check = E.DiagnosticName;
    F.Severity = (E.DiagLevel == ClangTidyError::Error || E.IsWarningAsError) ? "error"
                                                                               : "warning";
    auto FixesOf = [&](const tooling::DiagnosticMessage &M) {
      std::vector<FixIt> Fixes;
      for (const auto &[File, Replacements] : M.Fix)
        for (const tooling::Replacement &R : Replacements) {
          LineInfo At = Lines.at(R.getFilePath().str(), R.getOffset());
          llvm::SmallString<256> FixPath(R.getFilePath());
          llvm::sys::path::remove_dots(FixPath, /*remove_dot_dot=*/true);
          Fixes.push_back({FixPath.str().str(), R.getOffset(), R.getLength(), At.Line,
                           At.Column, R.getReplacementText().str()});
        }
      return Fixes;
    };
    for (const tooling::DiagnosticMessage &N : E.Notes) {
      readDiagnostic(N, Lines, F.Notes.emplace_back());
      F.Notes.back().Fixes = FixesOf(N);
    }
    F.Fixes = FixesOf(E.Message);
    Result.Findings.push_back(std::move(F));
  }

  // What became of the input: analysed (no compiler error), analysed with
  // errors (an AST was built and its kernels that compile were analysed),
  // or not analysed (no AST: the driver refused the arguments, the file
  // could not be read).
  std::string Status = "analysed", Cause;
  if (!Outcome.Parsed) {
    Status = "not_analysed";
    Cause = Recorder.Errors.empty() ? "the file could not be parsed"
                                    : Recorder.Errors.front().Message;
  } else if (CompilerErrors > 0 || ToolStatus != 0 || !Recorder.Errors.empty()) {
    Status = "analysed_with_errors";
    if (!Recorder.Fatal.empty())
      Cause = "the parse stopped at a fatal error (" + Recorder.Fatal +
              "): kernels after it were not seen";
  }
  // A kernel whose analysis failed (contained) is not a finding about the
  // code: the input is not fully analysed, and says which kernel and why.
  if (Outcome.Parsed && !Outcome.KernelFailures.empty()) {
    Status = "analysed_with_errors";
    std::string Failures = "warpcheck could not analyse kernel " +
                           llvm::join(Outcome.KernelFailures, "; kernel ");
    Cause = Cause.empty() ? Failures : Cause + "; " + Failures;
  }
  if (Status == "not_analysed" && Result.Errors.empty())
    Result.Errors.push_back(unanalysedInput(Job.File, Cause));
  InputOutcome Input;
  Input.File = Job.File;
  Input.Status = Status;
  Input.Errors = static_cast<std::int64_t>(Result.Errors.size());
  Input.KernelsAnalysed = Outcome.KernelsAnalysed;
  Input.KernelsWithErrors = Outcome.KernelsWithErrors;
  if (!Cause.empty())
    Input.Cause = Cause;
  Result.Input = std::move(Input);
  Result.Headers.assign(Outcome.Headers.begin(), Outcome.Headers.end());
  Result.LaunchesOfOtherUnitsKernels = std::move(Outcome.LaunchesOfOtherUnitsKernels);
  Result.KernelsWithoutLaunch = std::move(Outcome.KernelsWithoutLaunch);
  Result.CallsOfOtherUnitsFunctions = std::move(Outcome.CallsOfOtherUnitsFunctions);
  Result.FunctionsWithoutCaller = std::move(Outcome.FunctionsWithoutCaller);
  Result.Dependencies = std::move(Outcome.Dependencies);
  return Status == "analysed" ? 0 : 3;
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
  if (Job.HeaderFilter)
    Args.push_back("--header-filter=" + *Job.HeaderFilter);
  if (!Job.OtherUnitsFile.empty())
    Args.push_back("--other-units=" + Job.OtherUnitsFile);
  if (!Job.SassListing.empty())
    Args.push_back("--sass-listing=" + Job.SassListing);
  for (const std::string &O : Job.CheckOptions)
    Args.push_back("--check-option=" + O);
  if (Job.RecordDependencies)
    Args.push_back("--record-dependencies");
  if (Job.LaunchesOnly)
    Args.push_back("--launches-only");
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
    if (A == "--record-dependencies") {
      Job.RecordDependencies = true;
      continue;
    }
    if (A == "--launches-only") {
      Job.LaunchesOnly = true;
      continue;
    }
    if (Value("--worker-file=", Job.File) || Value("--worker-dir=", Job.Directory) ||
        Value("--worker-out=", OutputPath) || Value("--checks=", Job.Checks) ||
        Value("--arch=", Job.Arch) || Value("--default-block=", Job.DefaultBlock) ||
        Value("--warnings-as-errors=", Job.WarningsAsErrors) ||
        Value("--toolkit-root=", Job.ToolkitRoot) ||
        Value("--other-units=", Job.OtherUnitsFile) ||
        Value("--sass-listing=", Job.SassListing))
      continue;
    if (Value("--compare-archs=", Option)) {
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      llvm::StringRef(Option).split(Parts, ',', -1, false);
      Job.CompareArchs.assign(Parts.begin(), Parts.end());
      continue;
    }
    if (Value("--header-filter=", Option)) {
      Job.HeaderFilter = Option;
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
