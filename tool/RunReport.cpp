//===- RunReport.cpp - a run's results, gated, reported, its exit code ---===//

#include "RunReport.h"
#include "ReportSupport.h"
#include "Reporters.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>

#ifndef WARPCHECK_VERSION
#define WARPCHECK_VERSION "0.1.0"
#endif

namespace warpcheck::tool {

// A worker's log keeps its lines; a file name or a source excerpt cannot
// forge one or send escape sequences to the terminal.
std::string printableLines(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  Text.split(Lines, '\n');
  std::string Out;
  for (size_t I = 0; I < Lines.size(); ++I)
    Out += (I ? "\n" : "") + printableText(Lines[I]);
  return Out;
}

// The first ten compiler errors of an input, then how many more; file
// names and messages escaped as the text report's are.
void printErrorsAndNotes(const RunResult &R) {
  constexpr unsigned PerInput = 10;
  std::map<std::string, unsigned> Printed, Left;
  for (const ReportedError &E : R.Errors) {
    std::string File = E.File.value_or("");
    if (Printed[File] >= PerInput) {
      ++Left[File];
      continue;
    }
    ++Printed[File];
    std::string Where = printableText(File);
    if (E.Line)
      Where += ":" + std::to_string(*E.Line) + ":" + std::to_string(E.Column.value_or(0));
    error(Where + ": " + printableLines(E.Message));
  }
  for (const auto &[File, N] : Left)
    error(printableText(File) + ": " + std::to_string(N) + " more error" + (N == 1 ? "" : "s") +
          " (--format=json lists them all)");
  for (const InputOutcome &I : R.Inputs) {
    std::string File = printableText(I.File);
    if (I.Status == "analysed_with_errors")
      note(File + ": analysed with errors: the kernels that compile were analysed" +
           (I.Cause ? "; " + printableLines(*I.Cause) : std::string()));
    for (const std::string &N : I.Notes)
      note(File + ": " + printableLines(N));
  }
}

int reportRun(const CommandLine &CL, GateOptions &Gates, llvm::StringRef Cwd, RunResult &Result,
              llvm::ArrayRef<std::string> RunNotes,
              const std::function<bool(const RunResult &)> &AfterReport,
              const FindingStream *Streamed) {
  if (!applyGates(CL, Gates, Cwd, Result))
    return ExitUsage;

  RunCounts Counts = countRun(Result);
  // warpcheck launch: the build's own output is the compiler's; a unit
  // with no finding and no error prints nothing.
  bool Launch = !CL.LaunchCommand.empty();
  if (Launch && !Counts.Findings && !Counts.NotAnalysed && !Counts.AnalysedWithErrors &&
      !Counts.KernelsFailed)
    return exitCodeFor(Counts, CL.FailPolicy);
  std::unique_ptr<llvm::raw_fd_ostream> File;
  llvm::raw_fd_ostream *OS = Launch ? &llvm::errs() : &llvm::outs();
  if (!CL.Output.empty() && CL.Output != "-") {
    std::error_code EC;
    File = std::make_unique<llvm::raw_fd_ostream>(CL.Output, EC);
    if (EC) {
      error("cannot write the report to '" + CL.Output + "': " + EC.message());
      return ExitReportNotWritten;
    }
    OS = File.get();
  }
  ReportContext Context{WARPCHECK_VERSION, Gates.SourceRoot, summaryLine(Counts),
                        Cwd.str()};
  if (CL.Format == "json")
    renderJson(Result, Context, *OS);
  else if (CL.Format == "sarif")
    renderSarif(Result, Context, *OS);
  else if (CL.Format == "html")
    renderHtml(Result, Context, *OS);
  else {
    bool Color = File == nullptr && (Launch ? llvm::sys::Process::StandardErrHasColors()
                                            : llvm::sys::Process::StandardOutHasColors());
    if (Streamed) {
      // The text report reads only the findings.
      RunResult Rest;
      for (const Finding &F : Result.Findings)
        if (!Streamed->printed(F))
          Rest.Findings.push_back(F);
      renderText(Rest, *OS, Color);
    } else {
      renderText(Result, *OS, Color);
    }
  }
  OS->flush();
  // A failed write (a full disk, /dev/full) is said, and cleared: a stream
  // left in error makes LLVM abort when it is destroyed.
  std::error_code WriteError = OS->error();
  OS->clear_error();

  printErrorsAndNotes(Result);
  for (const std::string &N : RunNotes)
    note(N);
  llvm::errs() << Context.Summary << "\n";
  if (WriteError) {
    error("cannot write the report to '" +
          (File ? CL.Output : std::string("standard output")) + "': " + WriteError.message());
    return ExitReportNotWritten;
  }
  if (AfterReport && !AfterReport(Result))
    return ExitReportNotWritten;
  return exitCodeFor(Counts, CL.FailPolicy);
}

} // namespace warpcheck::tool
