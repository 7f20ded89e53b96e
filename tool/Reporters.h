//===- Reporters.h - text, JSON, SARIF and HTML output of a warpcheck run -===//
//
// One writer per file: TextReport.cpp, JsonReport.cpp, SarifReport.cpp and
// HtmlReport.cpp; what they share is in ReportSupport.h.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_REPORTERS_H
#define WARPCHECK_TOOL_REPORTERS_H

#include "RunResult.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace warpcheck::tool {

/// clang-style: file:line:col: warning: message [check], the source line and
/// a caret, then the notes.
void renderText(const RunResult &R, llvm::raw_ostream &OS, bool Color);

/// What the reports say about the run beyond its results.
struct ReportContext {
  /// warpcheck's version, as --version prints it.
  std::string ToolVersion;
  /// Absolute; files under it are named relative to it (SARIF: %SRCROOT%):
  /// --source-root, else the current directory.
  std::string BaseDirectory;
  /// The summary line (summaryLine()).
  std::string Summary;
  /// Absolute; relative file names of the results are relative to it.
  std::string WorkingDirectory;
};

/// The --format=json contract (docs/json-format.md): {"version": 1,
/// "kernels": [...], "findings": [...], "errors": [...], "inputs": [...],
/// "summary": {...}}.
void renderJson(const RunResult &R, const ReportContext &Ctx, llvm::raw_ostream &OS);

/// SARIF 2.1.0 (docs/report-formats.md): one run; a rule per check with
/// findings; each finding a result with its notes as related locations and
/// its fix-its as fixes; inputs that could not be analysed are error
/// notifications of the invocation.
void renderSarif(const RunResult &R, const ReportContext &Ctx, llvm::raw_ostream &OS);

/// The audit report, one self-contained HTML page (HtmlPage.h names its
/// parts): the verdict, a sortable table of the launches, charts, the
/// findings with their source, each launch's details. All text is escaped.
void renderHtml(const RunResult &R, const ReportContext &Ctx, llvm::raw_ostream &OS);

} // namespace warpcheck::tool

#endif
