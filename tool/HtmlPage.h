//===- HtmlPage.h - what the pieces of the HTML report share ----*- C++ -*-===//
//
// The HTML report (Reporters.h, renderHtml) is one page written by several
// files: HtmlReport.cpp (the page, the verdict and the table of launches),
// HtmlCharts.cpp (the SVG charts), HtmlSource.cpp (the findings with their
// source) and HtmlKernels.cpp (each launch's details). They share the writer
// that escapes every string from the analysed code, the numbers as people
// read them, and one view of each kernel entry (LaunchView), computed once.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_HTMLPAGE_H
#define WARPCHECK_TOOL_HTMLPAGE_H

#include "RunResult.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// Text for element content and attribute values (quoted with "): file
/// names, messages and expressions come from the analysed code, which may
/// be hostile.
std::string escapeHtml(llvm::StringRef Text);

/// A number for people: "–" where there is none; a whole number without
/// decimals, else four significant digits.
std::string numberText(std::optional<double> V);
inline std::string numberText(double V) { return numberText(std::optional<double>(V)); }
std::string numberText(std::int64_t V);
/// "37.5%"; "–" where there is none.
std::string percentText(std::optional<double> V);
/// "(x, y, z)" of a block or grid; "–" for a grid no launch gives.
std::string dimText(const Dims &D);
std::string dimText(const std::optional<Dims> &D);
/// "67 T", "4.8 T", "950 G": a rate with an SI prefix, for axes and labels.
std::string siText(double V);

/// Writes the page; every string that reaches it through text, element
/// and attribute is escaped.
class HtmlPage {
public:
  HtmlPage(llvm::raw_ostream &OS, llvm::StringRef Base) : OS(OS), Base(Base) {}

  void raw(llvm::StringRef Markup) { OS << Markup; }
  void text(llvm::StringRef Text) { OS << escapeHtml(Text); }
  void element(llvm::StringRef Tag, llvm::StringRef Text) {
    OS << "<" << Tag << ">" << escapeHtml(Text) << "</" << Tag << ">";
  }
  /// ` Name="Value"`, the value escaped.
  void attribute(llvm::StringRef Name, llvm::StringRef Value) {
    OS << " " << Name << "=\"" << escapeHtml(Value) << "\"";
  }
  void cell(llvm::StringRef Text) { element("td", Text); }
  void codeCell(llvm::StringRef Text) { OS << "<td><code>" << escapeHtml(Text) << "</code></td>"; }
  void headerRow(llvm::ArrayRef<llvm::StringRef> Names);
  /// A list of the strings (limitations, assumptions); nothing when empty.
  void stringList(llvm::ArrayRef<std::string> Items);

  /// "file:line:col", the file as reportedFile names it from the base
  /// directory; empty when there is no file.
  std::string position(const std::optional<std::string> &File, std::optional<std::int64_t> Line,
                       std::optional<std::int64_t> Column = std::nullopt) const;
  std::string fileName(llvm::StringRef File) const;
  llvm::StringRef base() const { return Base; }

private:
  llvm::raw_ostream &OS;
  llvm::StringRef Base;
};

/// One kernel entry of the run as the report shows it: its row of the
/// table, its point on the charts, its details section.
struct LaunchView {
  const KernelEntry *Kernel = nullptr;
  /// 1-based, in the order of the run's kernels: the table's "#" and the
  /// charts' labels.
  unsigned Number = 0;
  /// "launch-3": the id of its details section.
  std::string Id;
  /// "registerBound (256, 1, 1)".
  std::string Label;
  /// Global accesses with numbers: the lowest efficiency, and the sectors
  /// the requests need over those they move, summed over the accesses
  /// (each access weighted by its simulated traffic).
  std::optional<double> WorstGlobalEfficiency, WeightedGlobalEfficiency;
  /// Shared accesses with numbers: the highest conflict degree.
  std::optional<std::int64_t> WorstConflictDegree;
  /// The findings that apply to it (indices into RunResult::Findings).
  std::vector<size_t> Findings;
};

/// The views of R's kernels, in order, each with the findings that apply to
/// it: the finding's kernel (SourceLookup.h, KernelLocator) and, when the
/// finding names launches ("the launch at main.cu:40", and the notes "the
/// same for the launch at ..."), the entries of those launches.
std::vector<LaunchView> launchViews(const RunResult &R, llvm::StringRef WorkingDirectory);

/// The launches each finding applies to: the inverse of LaunchView::Findings.
std::vector<std::vector<const LaunchView *>> launchesPerFinding(const RunResult &R,
                                                                const std::vector<LaunchView> &V);

/// The parts of the page, each in its file.
void htmlCharts(const std::vector<LaunchView> &Launches, HtmlPage &Page);
void htmlFindings(const RunResult &R, const std::vector<LaunchView> &Launches,
                  llvm::StringRef WorkingDirectory, HtmlPage &Page);
void htmlKernel(const LaunchView &V, HtmlPage &Page);

} // namespace warpcheck::tool

#endif
