//===- HtmlReport.cpp - one self-contained HTML page ----------------------===//

#include "Reporters.h"
#include "ReportSupport.h"

#include <cmath>
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

/// A number for people: "–" where there is none (a global access has no
/// wavefronts, an unknown access no numbers at all); a whole number without
/// decimals, else four significant digits.
static std::string numberText(std::optional<double> V) {
  if (!V)
    return "–";
  double Whole;
  if (std::modf(*V, &Whole) == 0.0 && std::abs(Whole) < 9.0e18)
    return std::to_string(static_cast<std::int64_t>(Whole));
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.4g", *V);
  return Text;
}

static std::string percentText(std::optional<double> V) {
  if (!V)
    return "–";
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.1f%%", *V * 100);
  return Text;
}

/// "measured (ideal N)" for a per-request metric and its ideal.
static std::string perRequestText(std::optional<double> Actual, std::optional<double> Ideal) {
  if (!Actual)
    return "–";
  return numberText(Actual) + " (ideal " + numberText(Ideal) + ")";
}

static std::string numberText(std::int64_t V) { return std::to_string(V); }

/// "(x, y, z)" of a launch's block or grid; "–" for a grid no launch gives.
static std::string dimText(const Dims &D) {
  return "(" + std::to_string(D[0]) + ", " + std::to_string(D[1]) + ", " +
         std::to_string(D[2]) + ")";
}
static std::string dimText(const std::optional<Dims> &D) { return D ? dimText(*D) : "–"; }

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
  std::string position(const KernelEntry &K) const {
    return positionText(K.File, K.Line, std::nullopt, Base);
  }
  std::string position(const AccessEntry &A) const {
    return positionText(A.File, A.Line, A.Column, Base);
  }
  std::string position(const ReportedMessage &M) const {
    return positionText(M.File, M.Line, M.Column, Base);
  }
  std::string position(const FixIt &X) const {
    return positionText(X.File, X.Line, X.Column, Base);
  }
  std::string position(const AosEntry &A) const {
    return positionText(A.File, A.Line, A.Column, Base);
  }

  /// A list of the strings (limitations, assumptions); nothing when empty.
  void stringList(llvm::ArrayRef<std::string> Items) {
    if (Items.empty())
      return;
    OS << "<ul>";
    for (const std::string &Item : Items)
      element("li", Item);
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
  for (const KernelEntry &K : R.Kernels)
    Accesses += K.Accesses.size();
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
  Row("Kernels that could not be analysed", C.KernelsFailed);
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
static void htmlOccupancy(const KernelEntry &K, HtmlPage &Page) {
  if (!K.Resources) {
    Page.element("p", "Registers and occupancy: not available (no register count).");
    return;
  }
  const LaunchResourcesEntry &R = *K.Resources;
  Page.element("p", "Registers: " + numberText(R.Occupancy.Registers) + " per thread (" +
                        R.Occupancy.RegistersSource + "); shared memory: " +
                        numberText(R.SharedBytesStatic) + " bytes static, " +
                        numberText(R.SharedBytesDynamic) + " bytes dynamic.");
  Page.raw("<table>\n");
  Page.headerRow({"Architecture", "Registers", "Occupancy", "Blocks per SM", "Warps per SM",
                  "Limited by"});
  // An architecture without a register count has no numbers.
  auto Row = [&](llvm::StringRef Arch, const std::optional<OccupancyEntry> &O) {
    Page.raw("<tr>");
    Page.cell(Arch);
    Page.cell(O ? numberText(O->Registers) : "–");
    Page.cell(O ? percentText(O->Theoretical) : "–");
    Page.cell(O ? numberText(O->ActiveBlocksPerSM) : "–");
    Page.cell(O ? numberText(O->ActiveWarpsPerSM) : "–");
    Page.cell(O ? O->Limiter : "");
    Page.raw("</tr>\n");
  };
  // With an --arch list, OccupancyByArch holds the target first.
  if (K.OccupancyByArch && !K.OccupancyByArch->empty())
    for (const ArchOccupancyEntry &A : *K.OccupancyByArch)
      Row(A.Arch, A.Occupancy);
  else
    Row(R.Occupancy.Arch, R.Occupancy);
  Page.raw("</table>\n");
}

/// The arrays of structs of a launch: each struct reached through one
/// pointer, the sectors and DRAM bytes per warp as laid out and as
/// structure of arrays, in total and per field.
static void htmlAos(const KernelEntry &K, HtmlPage &Page) {
  if (K.Aos.empty())
    return;
  Page.element("p", "Arrays of structures (per warp, as laid out and as structure of arrays):");
  Page.raw("<table>\n");
  Page.headerRow({"Location", "Struct", "Through", "L1 sectors", "DRAM bytes", "L1 efficiency",
                  "Fields", "Status"});
  auto Both = [](std::int64_t Layout, std::int64_t Soa) {
    return numberText(Layout) + " (" + numberText(Soa) + " as SoA)";
  };
  for (const AosEntry &A : K.Aos) {
    // Marked below the default MinEfficiency of cuda-aos-layout (60%).
    Page.raw(A.L1Efficiency < 0.6 ? "<tr class=\"poor\">" : "<tr>");
    Page.codeCell(Page.position(A));
    Page.cell(A.Struct + " (" + numberText(A.StructBytes) + " bytes)");
    Page.codeCell(A.Pointer);
    Page.cell(Both(A.Loads.L1Sectors + A.Stores.L1Sectors,
                   A.Loads.SoaL1Sectors + A.Stores.SoaL1Sectors));
    Page.cell(Both(A.Loads.DramBytes + A.Stores.DramBytes,
                   A.Loads.SoaDramBytes + A.Stores.SoaDramBytes));
    Page.cell(percentText(A.L1Efficiency));
    std::vector<std::string> Fields;
    for (const AosFieldEntry &F : A.Fields)
      Fields.push_back(F.Name + (F.Loaded && F.Stored ? " (read, written): "
                                 : F.Stored           ? " (written): "
                                                      : " (read): ") +
                       Both(F.Loads.L1Sectors + F.Stores.L1Sectors,
                            F.Loads.SoaL1Sectors + F.Stores.SoaL1Sectors) +
                       " sectors");
    Page.raw("<td>");
    Page.stringList(Fields);
    Page.raw("</td><td>");
    Page.text(A.Exact ? "exact" : "assumed");
    std::vector<std::string> Assumptions;
    for (const analysis::Assumption &X : A.Assumptions)
      Assumptions.push_back(X.Text);
    Page.stringList(Assumptions);
    Page.raw("</td></tr>\n");
  }
  Page.raw("</table>\n");
}

static void htmlKernel(const KernelEntry &K, HtmlPage &Page) {
  Page.raw("<section>\n<h3><code>");
  Page.text(K.Name);
  Page.raw("</code> ");
  Page.text(Page.position(K));
  Page.raw("</h3>\n");
  if (K.Status != KernelStatus::Analysed) {
    // A kernel that does not compile, or whose analysis failed: why,
    // nothing analysed.
    Page.stringList(K.Limitations);
    Page.raw("</section>\n");
    return;
  }
  if (const std::optional<LaunchEntry> &L = K.Launch)
    Page.element("p", "Block " + dimText(L->Block) + ", grid " + dimText(L->Grid) + ", from " +
                          L->Description + " (" + L->Source + "); " +
                          numberText(K.SimulatedWarps) + " of " + numberText(K.TotalWarps) +
                          " warps simulated.");
  if (!K.Limitations.empty()) {
    Page.element("p", "Limitations:");
    Page.stringList(K.Limitations);
  }
  if (!K.SampledSymbols.empty()) {
    Page.element("p", "Sampled symbols:");
    Page.stringList(K.SampledSymbols);
  }
  htmlOccupancy(K, Page);

  if (K.Accesses.empty()) {
    Page.element("p", "No memory accesses analysed.");
    Page.raw("</section>\n");
    return;
  }
  Page.raw("<table>\n");
  Page.headerRow({"Location", "Expression", "Space", "Op", "Sectors/request",
                  "Wavefronts/request", "Efficiency", "Status"});
  for (const AccessEntry &A : K.Accesses) {
    // Marked where half the bandwidth or more is wasted (the default
    // MinEfficiency of cuda-uncoalesced-global-access).
    Page.raw(A.Efficiency && *A.Efficiency < 0.5 ? "<tr class=\"poor\">" : "<tr>");
    Page.codeCell(Page.position(A));
    Page.codeCell(A.Expression);
    Page.cell(analysis::spaceName(A.Space));
    Page.cell(analysis::opName(A.Op));
    Page.cell(perRequestText(A.SectorsPerRequest, A.IdealSectorsPerRequest));
    Page.cell(perRequestText(A.WavefrontsPerRequest, A.IdealWavefrontsPerRequest));
    Page.cell(percentText(A.Efficiency));
    Page.raw("<td>");
    Page.text(analysis::statusName(A.Status));
    std::vector<std::string> Assumptions;
    for (const analysis::Assumption &X : A.Assumptions)
      Assumptions.push_back(X.Text);
    Page.stringList(Assumptions);
    Page.raw("</td></tr>\n");
  }
  Page.raw("</table>\n");
  htmlAos(K, Page);
  Page.raw("</section>\n");
}


void renderHtml(const RunResult &R, const ReportContext &Ctx, llvm::raw_ostream &OS) {
  // Names as the text report gives them, from the current directory
  // (--source-root is for code scanning and fingerprints).
  HtmlPage Page(OS, Ctx.WorkingDirectory);
  Page.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<title>warpcheck report</title>\n<style>");
  Page.raw(HtmlStyle);
  Page.raw("</style>\n</head>\n<body>\n<h1>warpcheck report</h1>\n");
  Page.element("p", "warpcheck " + Ctx.ToolVersion + "; files are named relative to " +
                        Ctx.WorkingDirectory + ".");
  htmlSummary(R, Page);
  htmlErrors(R, Page);
  htmlFindings(R, Page);
  Page.raw("<h2>Kernel launches</h2>\n");
  if (R.Kernels.empty())
    Page.element("p", "No kernel launches analysed.");
  for (const KernelEntry &K : R.Kernels)
    htmlKernel(K, Page);
  Page.raw("</body>\n</html>\n");
}

} // namespace warpcheck::tool
