//===- HtmlReport.cpp - one self-contained HTML page ----------------------===//

#include "Reporters.h"
#include "ReportSupport.h"

#include <cstdio>
#include <map>

namespace warpcheck::tool {

/// Text for element content and attribute values: file names, messages and
/// expressions come from the analysed code, which may be hostile.
static std::string escapeHtml(llvm::StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (char C : Text)
    switch (C) {
    case '&': Out += "&amp;"; break;
    case '<': Out += "&lt;"; break;
    case '>': Out += "&gt;"; break;
    case '"': Out += "&quot;"; break;
    case '\'': Out += "&#39;"; break;
    default: Out += C;
    }
  return Out;
}

/// "file:line:col", the file as reportedFile names it; empty when there is
/// no file.
static std::string positionText(const std::optional<std::string> &File,
                                std::optional<std::int64_t> Line,
                                std::optional<std::int64_t> Column, llvm::StringRef Base) {
  if (!File || File->empty())
    return "";
  std::string Out = reportedFile(Base, *File).Path;
  if (Line) {
    Out += ":" + std::to_string(*Line);
    if (Column)
      Out += ":" + std::to_string(*Column);
  }
  return Out;
}

/// The same for a kernel or an access of the JSON kernel objects.
static std::string positionText(const llvm::json::Object &M, llvm::StringRef Base) {
  std::optional<std::string> File;
  if (auto F = M.getString("file"))
    File = F->str();
  return positionText(File, M.getInteger("line"), M.getInteger("column"), Base);
}

/// A number of the JSON report for people: "–" where it is null (a global
/// access has no wavefronts, an unknown access no numbers at all).
static std::string numberText(const llvm::json::Value *V) {
  if (!V || !V->getAsNumber())
    return "–";
  if (auto I = V->getAsInteger())
    return std::to_string(*I);
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.4g", *V->getAsNumber());
  return Text;
}

static std::string percentText(const llvm::json::Value *V) {
  if (!V || !V->getAsNumber())
    return "–";
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.1f%%", *V->getAsNumber() * 100);
  return Text;
}

/// "measured (ideal N)" for a per-request metric and its ideal.
static std::string perRequestText(const llvm::json::Object &A, llvm::StringRef Key) {
  const llvm::json::Value *Actual = A.get(Key);
  if (!Actual || !Actual->getAsNumber())
    return "–";
  return numberText(Actual) + " (ideal " + numberText(A.get(("ideal_" + Key).str())) + ")";
}

/// "(x, y, z)" of a launch's block or grid.
static std::string dimText(const llvm::json::Array *Dims) {
  if (!Dims)
    return "–";
  std::string Out = "(";
  for (const llvm::json::Value &D : *Dims)
    Out += (Out.size() > 1 ? ", " : "") + numberText(&D);
  return Out + ")";
}

namespace {

/// Writes the page; every string that reaches it is escaped here.
class HtmlPage {
public:
  HtmlPage(llvm::raw_ostream &OS, llvm::StringRef Base) : OS(OS), Base(Base) {}

  void raw(llvm::StringRef Markup) { OS << Markup; }
  void text(llvm::StringRef Text) { OS << escapeHtml(Text); }
  void element(llvm::StringRef Tag, llvm::StringRef Text) {
    OS << "<" << Tag << ">" << escapeHtml(Text) << "</" << Tag << ">";
  }
  void cell(llvm::StringRef Text) { element("td", Text); }
  void codeCell(llvm::StringRef Text) { OS << "<td><code>" << escapeHtml(Text) << "</code></td>"; }
  void headerRow(llvm::ArrayRef<llvm::StringRef> Names) {
    OS << "<thead><tr>";
    for (llvm::StringRef N : Names)
      element("th", N);
    OS << "</tr></thead>\n";
  }
  std::string position(const llvm::json::Object &M) const { return positionText(M, Base); }
  std::string position(const ReportedMessage &M) const {
    return positionText(M.File, M.Line, M.Column, Base);
  }
  std::string position(const FixIt &X) const {
    return positionText(X.File, X.Line, X.Column, Base);
  }

  /// A list of the strings in A (assumptions, limitations); nothing when empty.
  void stringList(const llvm::json::Array *A) {
    if (!A || A->empty())
      return;
    OS << "<ul>";
    for (const llvm::json::Value &V : *A)
      element("li", V.getAsString().value_or(""));
    OS << "</ul>";
  }

private:
  llvm::raw_ostream &OS;
  llvm::StringRef Base;
};

} // namespace

static constexpr llvm::StringLiteral HtmlStyle = R"(
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.5em; text-align: left; vertical-align: top; }
th { background: #eee; }
code { font-family: monospace; white-space: pre-wrap; }
td ul { margin: 0; padding-left: 1.2em; }
tr.finding td:first-child, td.warning { color: #8a4b00; }
td.error { color: #b00020; font-weight: bold; }
tr.poor { background: #fff3e0; }
section { margin-bottom: 2em; }
)";

static void htmlSummary(const RunResult &R, HtmlPage &Page) {
  std::map<std::string, unsigned> PerCheck = findingsPerCheck(R);
  size_t Accesses = 0;
  for (const llvm::json::Object *K : objectsIn(&R.Kernels))
    Accesses += objectsIn(K->getArray("accesses")).size();
  RunCounts C = countRun(R);
  Page.raw("<h2>Summary</h2>\n<table>\n");
  auto Row = [&](llvm::StringRef Name, size_t Value) {
    Page.raw("<tr>");
    Page.element("th", Name);
    Page.cell(std::to_string(Value));
    Page.raw("</tr>\n");
  };
  Row("Inputs analysed", C.Analysed);
  Row("Inputs analysed with errors (kernels that compile still analysed)",
      C.AnalysedWithErrors);
  Row("Inputs not analysed", C.NotAnalysed);
  Row("Kernels analysed", C.KernelsAnalysed);
  Row("Kernels that do not compile", C.KernelsWithErrors);
  Row("Launch shapes", C.LaunchShapes);
  Row("Accesses analysed", Accesses);
  Row("Findings", C.Findings);
  Page.raw("</table>\n");
  if (PerCheck.empty())
    return;
  Page.raw("<table>\n");
  Page.headerRow({"Check", "Findings", "What it reports"});
  for (const auto &[Check, Count] : PerCheck) {
    Page.raw("<tr>");
    Page.codeCell(Check);
    Page.cell(std::to_string(Count));
    Page.cell(checkSummary(Check));
    Page.raw("</tr>\n");
  }
  Page.raw("</table>\n");
}

static void htmlErrors(const RunResult &R, HtmlPage &Page) {
  if (R.Errors.empty())
    return;
  Page.raw("<h2>Errors</h2>\n<table>\n");
  Page.headerRow({"Location", "Message"});
  for (const ReportedError &E : R.Errors) {
    Page.raw("<tr>");
    Page.codeCell(Page.position(E));
    Page.cell(E.Message);
    Page.raw("</tr>\n");
  }
  Page.raw("</table>\n");
}

static void htmlFindings(const RunResult &R, HtmlPage &Page) {
  Page.raw("<h2>Findings</h2>\n");
  if (R.Findings.empty()) {
    Page.element("p", "No findings.");
    return;
  }
  Page.raw("<table>\n");
  Page.headerRow({"Location", "Check", "Severity", "Message", "Notes", "Fix-it"});
  for (const Finding &F : R.Findings) {
    llvm::StringRef Severity = F.Severity;
    Page.raw("<tr class=\"finding\">");
    Page.codeCell(Page.position(F));
    Page.codeCell(F.Check);
    Page.raw(Severity == "error" ? "<td class=\"error\">" : "<td class=\"warning\">");
    Page.text(Severity);
    Page.raw("</td>");
    Page.cell(F.Message);
    Page.raw("<td>");
    if (!F.Notes.empty()) {
      Page.raw("<ul>");
      for (const ReportedMessage &N : F.Notes) {
        Page.raw("<li>");
        if (std::string Where = Page.position(N); !Where.empty()) {
          Page.element("code", Where);
          Page.raw(": ");
        }
        Page.text(N.Message);
        Page.raw("</li>");
      }
      Page.raw("</ul>");
    }
    Page.raw("</td><td>");
    if (!F.Fixes.empty()) {
      Page.raw("<ul>");
      for (const FixIt &X : F.Fixes) {
        Page.raw("<li>");
        Page.element("code", Page.position(X));
        Page.raw(": replace ");
        Page.text(std::to_string(X.Length));
        Page.raw(" bytes with ");
        Page.element("code", X.Replacement);
        Page.raw("</li>");
      }
      Page.raw("</ul>");
    }
    Page.raw("</td></tr>\n");
  }
  Page.raw("</table>\n");
}

/// Registers, shared memory and occupancy of a launch, when they could be had.
static void htmlOccupancy(const llvm::json::Object &K, HtmlPage &Page) {
  const llvm::json::Object *Occupancy = K.getObject("occupancy");
  if (!K.getInteger("registers") || !Occupancy) {
    Page.element("p", "Registers and occupancy: not available (no register count).");
    return;
  }
  Page.element("p", "Registers: " + numberText(K.get("registers")) + " per thread (" +
                        K.getString("registers_source").value_or("").str() +
                        "); shared memory: " + numberText(K.get("shared_bytes_static")) +
                        " bytes static, " + numberText(K.get("shared_bytes_dynamic")) +
                        " bytes dynamic.");
  Page.raw("<table>\n");
  Page.headerRow({"Architecture", "Registers", "Occupancy", "Blocks per SM", "Warps per SM",
                  "Limited by"});
  auto Row = [&](const llvm::json::Object &O, const llvm::json::Value *Registers) {
    Page.raw("<tr>");
    Page.cell(O.getString("arch").value_or(""));
    Page.cell(numberText(Registers));
    Page.cell(percentText(O.get("theoretical")));
    Page.cell(numberText(O.get("active_blocks_per_sm")));
    Page.cell(numberText(O.get("active_warps_per_sm")));
    Page.cell(O.getString("limiter").value_or(""));
    Page.raw("</tr>\n");
  };
  // With an --arch list, occupancy_by_arch holds the target first.
  if (auto ByArch = objectsIn(K.getArray("occupancy_by_arch")); !ByArch.empty())
    for (const llvm::json::Object *A : ByArch)
      Row(*A, A->get("registers"));
  else
    Row(*Occupancy, K.get("registers"));
  Page.raw("</table>\n");
}

static void htmlKernel(const llvm::json::Object &K, HtmlPage &Page) {
  Page.raw("<section>\n<h3><code>");
  Page.text(K.getString("name").value_or(""));
  Page.raw("</code> ");
  Page.text(Page.position(K));
  Page.raw("</h3>\n");
  if (K.getString("status") == "error") {
    // A kernel that does not compile: its error, nothing analysed.
    Page.stringList(K.getArray("limitations"));
    Page.raw("</section>\n");
    return;
  }
  if (const llvm::json::Object *L = K.getObject("launch"))
    Page.element("p", "Block " + dimText(L->getArray("block")) + ", grid " +
                          dimText(L->getArray("grid")) + ", from " +
                          L->getString("description").value_or("").str() + " (" +
                          L->getString("source").value_or("").str() + "); " +
                          numberText(K.get("simulated_warps")) + " of " +
                          numberText(K.get("total_warps")) + " warps simulated.");
  if (const llvm::json::Array *Limits = K.getArray("limitations"); Limits && !Limits->empty()) {
    Page.element("p", "Limitations:");
    Page.stringList(Limits);
  }
  if (const llvm::json::Array *Sampled = K.getArray("sampled_symbols");
      Sampled && !Sampled->empty()) {
    Page.element("p", "Sampled symbols:");
    Page.stringList(Sampled);
  }
  htmlOccupancy(K, Page);

  auto Accesses = objectsIn(K.getArray("accesses"));
  if (Accesses.empty()) {
    Page.element("p", "No memory accesses analysed.");
    Page.raw("</section>\n");
    return;
  }
  Page.raw("<table>\n");
  Page.headerRow({"Location", "Expression", "Space", "Op", "Sectors/request",
                  "Wavefronts/request", "Efficiency", "Status"});
  for (const llvm::json::Object *A : Accesses) {
    auto Efficiency = A->getNumber("efficiency");
    // Marked where half the bandwidth or more is wasted (the default
    // MinEfficiency of cuda-uncoalesced-global-access).
    Page.raw(Efficiency && *Efficiency < 0.5 ? "<tr class=\"poor\">" : "<tr>");
    Page.codeCell(Page.position(*A));
    Page.codeCell(A->getString("expression").value_or(""));
    Page.cell(A->getString("space").value_or(""));
    Page.cell(A->getString("op").value_or(""));
    Page.cell(perRequestText(*A, "sectors_per_request"));
    Page.cell(perRequestText(*A, "wavefronts_per_request"));
    Page.cell(percentText(A->get("efficiency")));
    Page.raw("<td>");
    Page.text(A->getString("status").value_or(""));
    Page.stringList(A->getArray("assumptions"));
    Page.raw("</td></tr>\n");
  }
  Page.raw("</table>\n</section>\n");
}

void renderHtml(const RunResult &R, const ReportContext &Ctx, llvm::raw_ostream &OS) {
  HtmlPage Page(OS, Ctx.BaseDirectory);
  Page.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<title>warpcheck report</title>\n<style>");
  Page.raw(HtmlStyle);
  Page.raw("</style>\n</head>\n<body>\n<h1>warpcheck report</h1>\n");
  Page.element("p", "warpcheck " + Ctx.ToolVersion + "; files are named relative to " +
                        Ctx.BaseDirectory + ".");
  htmlSummary(R, Page);
  htmlErrors(R, Page);
  htmlFindings(R, Page);
  Page.raw("<h2>Kernel launches</h2>\n");
  if (R.Kernels.empty())
    Page.element("p", "No kernel launches analysed.");
  for (const llvm::json::Object *K : objectsIn(&R.Kernels))
    htmlKernel(*K, Page);
  Page.raw("</body>\n</html>\n");
}

} // namespace warpcheck::tool
