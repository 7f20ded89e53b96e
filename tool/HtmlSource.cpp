//===- HtmlSource.cpp - the HTML report's findings, with their source -----===//
//
// The findings grouped by check, then by file, each with the lines around
// it as the file is on disk now (the line the analysis read when the file
// is gone), a caret under its column, its notes, its fix-its as a diff, and
// the launches it applies to. Source text is shown as the text report shows
// it (printableText: control characters named) and then escaped.
//
//===----------------------------------------------------------------------===//

#include "HtmlPage.h"
#include "ReportSupport.h"
#include "SourceLookup.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <map>

namespace warpcheck::tool {

namespace {

/// Lines of the findings' files, named as the run names them.
class Sources {
public:
  explicit Sources(const RunResult &R, llvm::StringRef WorkingDirectory)
      : Locator(R, WorkingDirectory) {}
  std::string absolute(const std::optional<std::string> &File) const {
    return File ? Locator.absolute(*File) : std::string();
  }
  SourceLines Lines;
  KernelLocator Locator;
};

/// "  41 | text" as a line of a snippet or diff, escaped.
void numberedLine(HtmlPage &Page, llvm::StringRef Marker, std::int64_t Line,
                  llvm::StringRef Text, llvm::StringRef Class = "") {
  std::string Number;
  llvm::raw_string_ostream(Number) << llvm::format("%5lld", static_cast<long long>(Line));
  Page.raw(Class.empty() ? "<span>" : "<span class=\"" + Class.str() + "\">");
  Page.text(Marker.str() + Number + " | " + printableText(Text, /*KeepTabs=*/true));
  Page.raw("</span>\n");
}

/// The finding's line and two neighbours each side, and the caret.
void snippet(const ReportedMessage &M, Sources &S, HtmlPage &Page) {
  if (!M.File || !M.Line)
    return;
  std::string File = S.absolute(M.File);
  std::int64_t Line = *M.Line, Count = S.Lines.lineCount(File);
  Page.raw("<pre class=\"snippet\">");
  // The line the caret points into: as on disk, or as the analysis read it
  // when the file is gone or shorter now.
  bool OnDisk = Line <= Count;
  std::string Text = OnDisk ? S.Lines.line(File, Line).str() : M.SourceLine.value_or("");
  auto Caret = [&] {
    if (!M.Column || (!OnDisk && !M.SourceLine))
      return;
    Page.raw("<span class=\"caret\">");
    Page.text("       | " + caretIndent(Text, *M.Column) + "^");
    Page.raw("</span>\n");
  };
  if (!OnDisk) {
    if (M.SourceLine)
      numberedLine(Page, " ", Line, *M.SourceLine, "hit");
    else
      Page.text("(the file cannot be read now)\n");
    Caret();
  } else {
    for (std::int64_t N = std::max<std::int64_t>(1, Line - 2);
         N <= std::min(Count, Line + 2); ++N) {
      numberedLine(Page, " ", N, S.Lines.line(File, N), N == Line ? "hit" : "");
      if (N == Line)
        Caret();
    }
  }
  Page.raw("</pre>");
}

/// The fix-its of a message as a unified diff: for each line a fix-it
/// starts on, the lines it spans before and after the replacements.
void fixDiff(const std::vector<FixIt> &Fixes, Sources &S, HtmlPage &Page) {
  if (Fixes.empty())
    return;
  std::map<std::string, std::map<std::int64_t, std::vector<const FixIt *>>> ByFile;
  for (const FixIt &X : Fixes)
    ByFile[X.File][X.Line].push_back(&X);
  Page.raw("<pre class=\"diff\">");
  for (const auto &[FileName, ByLine] : ByFile) {
    std::string File = S.absolute(FileName);
    std::string Shown = Page.fileName(FileName);
    Page.text("--- " + Shown + "\n+++ " + Shown + " (fixed)\n");
    std::int64_t Count = S.Lines.lineCount(File);
    for (const auto &[Line, Here] : ByLine) {
      // The text from the fix-its' line to the line their ends reach,
      // joined by line breaks; each fix-it's offset is its column there.
      std::string Before;
      std::int64_t Last = Line - 1;
      size_t End = 0;
      bool Placed = true;
      for (const FixIt *X : Here) {
        Placed &= X->Column >= 1 && X->Length >= 0;
        End = std::max(End, static_cast<size_t>(std::max<std::int64_t>(X->Column - 1, 0) +
                                                std::max<std::int64_t>(X->Length, 0)));
      }
      while (Last < Count && (Last < Line || Before.size() < End)) {
        if (Last >= Line)
          Before += "\n";
        Before += S.Lines.line(File, ++Last).str();
      }
      if (!Placed || Line < 1 || Line > Count || Before.size() < End) {
        // The file changed or is gone: say what the fix-it replaces.
        for (const FixIt *X : Here)
          Page.text("@@ line " + std::to_string(X->Line) + ", column " +
                    std::to_string(X->Column) + ": replace " + std::to_string(X->Length) +
                    " bytes with\n+" + printableText(X->Replacement, true) + "\n");
        continue;
      }
      std::string After = Before;
      std::vector<const FixIt *> Ordered = Here;
      llvm::sort(Ordered, [](const FixIt *A, const FixIt *B) { return A->Column > B->Column; });
      for (const FixIt *X : Ordered)
        After.replace(static_cast<size_t>(X->Column - 1), static_cast<size_t>(X->Length),
                      X->Replacement);
      llvm::SmallVector<llvm::StringRef, 4> Old, New;
      llvm::StringRef(Before).split(Old, '\n');
      llvm::StringRef(After).split(New, '\n');
      Page.raw("<span class=\"hunk\">");
      Page.text("@@ -" + std::to_string(Line) + "," + std::to_string(Old.size()) + " +" +
                std::to_string(Line) + "," + std::to_string(New.size()) + " @@");
      Page.raw("</span>\n");
      for (size_t I = 0; I < Old.size(); ++I)
        numberedLine(Page, "-", Line + static_cast<std::int64_t>(I), Old[I], "del");
      for (size_t I = 0; I < New.size(); ++I)
        numberedLine(Page, "+", Line + static_cast<std::int64_t>(I), New[I], "add");
    }
  }
  Page.raw("</pre>");
}

void finding(const Finding &F, size_t Index, const std::vector<const LaunchView *> &Launches,
             Sources &S, HtmlPage &Page) {
  Page.raw("<div class=\"finding " + std::string(F.Severity == "error" ? "error" : "warning") +
           "\" data-filter");
  Page.attribute("id", "finding-" + std::to_string(Index + 1));
  Page.attribute("data-check", F.Check);
  Page.attribute("data-file", F.File ? Page.fileName(*F.File) : "");
  Page.attribute("data-line", std::to_string(F.Line.value_or(0)));
  Page.attribute("data-column", std::to_string(F.Column.value_or(0)));
  Page.raw("><p class=\"where\"><code>");
  Page.text(Page.position(F.File, F.Line, F.Column));
  Page.raw("</code> <span class=\"severity\">");
  Page.text(F.Severity);
  Page.raw("</span> <span class=\"message\">");
  Page.text(F.Message);
  Page.raw("</span></p>");
  snippet(F, S, Page);
  if (!F.Notes.empty()) {
    Page.raw("<ul class=\"notes\">");
    for (const ReportedMessage &N : F.Notes) {
      Page.raw("<li>");
      if (std::string Where = Page.position(N.File, N.Line, N.Column); !Where.empty()) {
        Page.element("code", Where);
        Page.raw(": ");
      }
      Page.text(N.Message);
      if (!N.Fixes.empty()) {
        Page.element("p", "Fix-it of the note (--fix-notes applies it):");
        fixDiff(N.Fixes, S, Page);
      }
      Page.raw("</li>");
    }
    Page.raw("</ul>");
  }
  if (!F.Fixes.empty()) {
    Page.element("p", "Fix-it (--fix applies it):");
    fixDiff(F.Fixes, S, Page);
  }
  Page.raw("<p class=\"applies\">Applies to: ");
  if (Launches.empty())
    Page.text("no launch analysed");
  for (const LaunchView *V : Launches) {
    Page.raw("<a href=\"#" + V->Id + "\">#" + std::to_string(V->Number) + " ");
    Page.text(V->Label);
    Page.raw("</a> ");
  }
  Page.raw("</p></div>\n");
}

} // namespace

void htmlFindings(const RunResult &R, const std::vector<LaunchView> &Launches,
                  llvm::StringRef WorkingDirectory, HtmlPage &Page) {
  Page.raw("<section id=\"findings\"><h2>Findings</h2>\n");
  if (R.Findings.empty()) {
    Page.element("p", "No findings.");
    Page.raw("</section>\n");
    return;
  }
  Sources S(R, WorkingDirectory);
  std::vector<std::vector<const LaunchView *>> PerFinding = launchesPerFinding(R, Launches);
  // Check -> file -> findings in line order.
  std::map<std::string, std::map<std::string, std::vector<size_t>>> Groups;
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    const Finding &F = R.Findings[I];
    Groups[F.Check][F.File ? Page.fileName(*F.File) : ""].push_back(I);
  }
  for (auto &[Check, Files] : Groups) {
    size_t Count = 0;
    for (const auto &[File, Indices] : Files)
      Count += Indices.size();
    Page.raw("<section class=\"check\"><h3><code>");
    Page.text(Check);
    Page.raw("</code> ");
    Page.text("(" + std::to_string(Count) + ")");
    Page.raw("</h3>");
    if (llvm::StringRef Summary = checkSummary(Check); !Summary.empty())
      Page.element("p", Summary);
    for (auto &[File, Indices] : Files) {
      llvm::stable_sort(Indices, [&](size_t A, size_t B) {
        return std::make_pair(R.Findings[A].Line.value_or(0), R.Findings[A].Column.value_or(0)) <
               std::make_pair(R.Findings[B].Line.value_or(0), R.Findings[B].Column.value_or(0));
      });
      Page.raw("<h4><code>");
      Page.text(File.empty() ? "(no file)" : File);
      Page.raw("</code></h4>\n");
      for (size_t I : Indices)
        finding(R.Findings[I], I, PerFinding[I], S, Page);
    }
    Page.raw("</section>\n");
  }
  Page.raw("</section>\n");
}

} // namespace warpcheck::tool
