//===- HtmlReport.cpp - the audit report: one self-contained HTML page ----===//
//
// What a reviewer reads first: the verdict in numbers, the inputs that
// could not be analysed and why, a sortable table of every kernel launch,
// then the charts (HtmlCharts.cpp), the findings with their source
// (HtmlSource.cpp) and each launch's details (HtmlKernels.cpp). No network:
// the style, the SVG and the one small script (sorting, the filter box, and
// the layout self-check a browser test reads) are inline; nothing from the
// analysed code reaches the page unescaped.
//
//===----------------------------------------------------------------------===//

#include "HtmlPage.h"
#include "HtmlSvg.h"
#include "Reporters.h"
#include "ReportSupport.h"

#include <map>

namespace warpcheck::tool {

static constexpr llvm::StringLiteral HtmlStyle = R"(
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; color: #1d2330; margin: 0 auto; max-width: 1280px;
       padding: 12px 20px 40px; }
h1 { font-size: 22px; margin: 4px 0; } h2 { font-size: 18px; margin: 28px 0 8px;
  border-bottom: 2px solid #d8dde6; padding-bottom: 3px; } h3 { font-size: 15px; margin: 18px 0 4px; }
h4 { font-size: 13px; margin: 10px 0 4px; color: #445; }
code, pre { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; }
code { overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; padding: 6px 8px;
      background: #f6f8fa; border: 1px solid #e1e4e8; border-radius: 4px; tab-size: 8; }
table { border-collapse: collapse; margin: 6px 0 14px; max-width: 100%; }
th, td { border: 1px solid #d0d5dd; padding: 3px 6px; text-align: left; vertical-align: top;
         overflow-wrap: break-word; }
#launches td { overflow-wrap: anywhere; }
th { background: #eef1f5; }
td.n, th.n { text-align: right; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th[aria-sort=ascending]::after { content: " ▲"; }
table.sortable th[aria-sort=descending]::after { content: " ▼"; }
#launches { width: 100%; font-size: 12.5px; table-layout: fixed; }
#launches th { font-size: 12px; }
#launches col.num { width: 3%; } #launches col.kernel { width: 20%; }
#launches col.shape { width: 11%; } #launches col.from { width: 15%; }
#launches col.regs { width: 8%; } #launches col.shared { width: 7%; }
#launches col.occ { width: 6%; } #launches col.limiter { width: 8%; }
#launches col.metric { width: 5.5%; }
tr.poor, td.poor { background: #fff1e0; }
td.bad { background: #ffe3e3; }
td ul, li ul { margin: 0; padding-left: 1.2em; }
.meta { color: #556; margin: 0 0 8px; }
.sub { color: #556; font-size: 11.5px; }
.tiles { display: flex; flex-wrap: wrap; gap: 10px; margin: 8px 0; }
.tile { flex: 1 1 200px; border: 1px solid #d0d5dd; border-radius: 6px; padding: 8px 12px;
        background: #fafbfc; }
.tile .n { font-size: 26px; font-weight: 600; display: block; }
.tile .sub { color: #556; font-size: 12.5px; }
.tile.alert { border-color: #d93025; background: #fff4f3; }
#filter { font: inherit; padding: 4px 8px; width: 360px; max-width: 100%; }
.chart-box { margin: 10px 0 24px; }
figcaption { color: #445; margin-bottom: 6px; }
svg.chart { width: 100%; height: auto; display: block; font-family: system-ui, sans-serif; }
.panels { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 12px; }
.panel { border: 1px solid #e1e4e8; border-radius: 6px; padding: 4px 8px; min-width: 0; }
.panel h4 { margin: 2px 0; }
ul.key { font-size: 12.5px; margin: 4px 0; padding-left: 1.2em; }
ul.key.columns { columns: 2; }
.swatch { display: inline-block; width: 14px; height: 4px; vertical-align: middle; }
.finding { border-left: 4px solid #e69f00; padding: 2px 10px; margin: 8px 0 14px; }
.finding.error { border-left-color: #d93025; }
.finding .where { margin: 2px 0; } .finding .severity { font-weight: 600; color: #8a4b00; }
.finding.error .severity { color: #b00020; }
.snippet .hit { background: #fff5c2; display: inline-block; width: 100%; }
.snippet .caret { color: #0a7d32; font-weight: 700; }
.diff .del { color: #b00020; } .diff .add { color: #0a7d32; } .diff .hunk { color: #6f42c1; }
.applies { font-size: 12.5px; color: #445; }
details.launch { border: 1px solid #e1e4e8; border-radius: 6px; margin: 6px 0; padding: 4px 10px; }
details.launch > summary { cursor: pointer; }
[hidden] { display: none !important; }
)";

/// Sorting, the filter box, opening a launch's details when a link names
/// it, and with #selfcheck in the URL, the layout check the browser test
/// reads: every element within the page's width, written on <body>.
static constexpr llvm::StringLiteral HtmlScript = R"(
(function () {
  'use strict';
  function value(row, i) {
    var c = row.cells[i];
    if (!c) return '';
    var v = c.getAttribute('data-v');
    return v !== null && v !== '' ? parseFloat(v) : c.textContent.trim().toLowerCase();
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    table.querySelectorAll('thead th').forEach(function (th, i) {
      th.addEventListener('click', function () {
        var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
        var up = th.getAttribute('aria-sort') !== 'ascending';
        table.querySelectorAll('thead th').forEach(function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
        rows.sort(function (a, b) {
          var x = value(a, i), y = value(b, i), t;
          if (typeof x === typeof y) t = x < y ? -1 : x > y ? 1 : 0;
          else t = typeof x === 'number' ? -1 : 1;
          return up ? t : -t;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  var box = document.getElementById('filter');
  if (box) box.addEventListener('input', function () {
    var q = box.value.trim().toLowerCase();
    document.querySelectorAll('[data-filter]').forEach(function (e) {
      e.hidden = q !== '' && e.textContent.toLowerCase().indexOf(q) < 0;
    });
  });
  function reveal() {
    var t = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (t && t.tagName === 'DETAILS') t.open = true;
  }
  window.addEventListener('hashchange', reveal);
  reveal();
  if (location.hash === '#selfcheck') {
    document.body.setAttribute('data-selfcheck-folded-height',
                               String(document.documentElement.scrollHeight));
    document.querySelectorAll('details').forEach(function (d) { d.open = true; });
    var width = document.documentElement.clientWidth, wide = [];
    document.querySelectorAll('body *').forEach(function (e) {
      var r = e.getBoundingClientRect();
      if (r.width > 0 && (r.right > width + 1 || r.left < -1))
        wide.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' +
                  Math.round(r.left) + '..' + Math.round(r.right));
    });
    var page = document.documentElement.scrollWidth;
    if (page > width + 1) wide.unshift('page ' + page + 'px wide');
    document.body.setAttribute('data-selfcheck-width', String(width));
    document.body.setAttribute('data-selfcheck-overflow', String(wide.length));
    document.body.setAttribute('data-selfcheck-wide', wide.slice(0, 20).join('; '));
    // Chart labels as drawn (the font's real widths): no two of one chart
    // may cover each other.
    var covered = [];
    document.querySelectorAll('svg.chart').forEach(function (svg) {
      var boxes = Array.prototype.map.call(svg.querySelectorAll('text.label'), function (t) {
        return { r: t.getBoundingClientRect(), s: t.textContent };
      });
      for (var i = 0; i < boxes.length; ++i)
        for (var j = i + 1; j < boxes.length; ++j) {
          var a = boxes[i].r, b = boxes[j].r;
          if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 &&
              b.top < a.bottom - 1)
            covered.push(boxes[i].s + ' / ' + boxes[j].s);
        }
    });
    document.body.setAttribute('data-selfcheck-label-overlaps', String(covered.length));
    document.body.setAttribute('data-selfcheck-labels', covered.slice(0, 20).join('; '));
  }
})();
)";

static void tile(HtmlPage &Page, llvm::StringRef Key, std::int64_t N, llvm::StringRef What,
                 llvm::StringRef Sub, bool Alert = false) {
  Page.raw(Alert ? "<div class=\"tile alert\"" : "<div class=\"tile\"");
  Page.attribute("data-count", Key);
  Page.raw("><span class=\"n\">" + std::to_string(N) + "</span>");
  Page.text(What);
  Page.raw("<br><span class=\"sub\">");
  Page.text(Sub);
  Page.raw("</span></div>\n");
}

/// The verdict in numbers: inputs by state (a failed input is never
/// counted as analysed), kernels, launch shapes, findings by check and
/// severity.
static void htmlVerdict(const RunResult &R, const ReportContext &Ctx, HtmlPage &Page) {
  RunCounts C = countRun(R);
  Page.raw("<section id=\"verdict\"><h2>Verdict</h2>\n<div class=\"tiles\">\n");
  tile(Page, "inputs", C.Inputs, C.Inputs == 1 ? " input" : " inputs",
       std::to_string(C.Analysed) + " analysed, " + std::to_string(C.AnalysedWithErrors) +
           " analysed with errors (kernels that compile still analysed), " +
           std::to_string(C.NotAnalysed) + " not analysed",
       C.AnalysedWithErrors + C.NotAnalysed > 0);
  tile(Page, "kernels", C.KernelsAnalysed, " kernels analysed",
       std::to_string(C.KernelsWithErrors) + " do not compile, " +
           std::to_string(C.KernelsFailed) + " could not be analysed",
       C.KernelsWithErrors + C.KernelsFailed > 0);
  tile(Page, "launches", C.LaunchShapes, " launch shapes",
       C.RooflineArch.empty()
           ? std::string("no roofline verdict")
           : "on " + C.RooflineArch + ": " + std::to_string(C.MemoryBound) + " memory-bound, " +
                 std::to_string(C.ComputeBound) + " compute-bound, " +
                 std::to_string(C.RooflineNotKnown) + " not known");
  tile(Page, "findings", C.Findings, " findings",
       std::to_string(C.FindingsAsErrors) + " as errors; " +
           std::to_string(C.SuppressedByBaseline) + " in the baseline, " +
           std::to_string(C.OutsideLineFilter) + " outside the line filter, not shown",
       C.FindingsAsErrors > 0);
  Page.raw("</div>\n");
  Page.element("p", Ctx.Summary);
  std::map<std::string, std::pair<unsigned, unsigned>> PerCheck;
  for (const Finding &F : R.Findings)
    ++(F.Severity == "error" ? PerCheck[F.Check].second : PerCheck[F.Check].first);
  if (!PerCheck.empty()) {
    Page.raw("<table id=\"per-check\">\n<thead><tr><th>Check</th><th class=\"n\">Warnings</th>"
             "<th class=\"n\">Errors</th><th>What it reports</th></tr></thead>\n");
    for (const auto &[Check, Counts] : PerCheck) {
      Page.raw("<tr>");
      Page.codeCell(Check);
      Page.raw("<td class=\"n\">" + std::to_string(Counts.first) + "</td><td class=\"n\">" +
               std::to_string(Counts.second) + "</td>");
      Page.cell(checkSummary(Check));
      Page.raw("</tr>\n");
    }
    Page.raw("</table>\n");
  }
  // The inputs not analysed cleanly, and every error with its place.
  bool AnyInput = false;
  for (const InputOutcome &I : R.Inputs) {
    if (I.Status == "analysed" || I.Status == "included")
      continue;
    if (!AnyInput)
      Page.raw("<h3>Inputs with errors</h3>\n<table id=\"inputs\">\n<thead><tr><th>Input</th>"
               "<th>State</th><th>Why</th></tr></thead>\n");
    AnyInput = true;
    Page.raw("<tr>");
    Page.codeCell(Page.fileName(I.File));
    Page.cell(I.Status == "analysed_with_errors"
                  ? "analysed with errors: its kernels that compile are reported"
                  : "not analysed");
    Page.cell(I.Cause ? *I.Cause
                      : std::to_string(I.Errors.value_or(0)) + " compiler errors, listed below");
    Page.raw("</tr>\n");
  }
  if (AnyInput)
    Page.raw("</table>\n");
  // The compiler errors; an input not analysed at all is an error with
  // no position and its cause as the message, said in the table above.
  auto SaidAbove = [&](const ReportedError &E) {
    return !E.Line && llvm::any_of(R.Inputs, [&](const InputOutcome &I) {
             return I.Status == "not_analysed" && E.File && *E.File == I.File &&
                    I.Cause && *I.Cause == E.Message;
           });
  };
  bool AnyError = false;
  for (const ReportedError &E : R.Errors) {
    if (SaidAbove(E))
      continue;
    if (!AnyError) {
      Page.raw("<table id=\"errors\">\n");
      Page.headerRow({"Error at", "Message"});
    }
    AnyError = true;
    Page.raw("<tr>");
    Page.codeCell(Page.position(E.File, E.Line, E.Column));
    Page.cell(E.Message);
    Page.raw("</tr>\n");
  }
  if (AnyError)
    Page.raw("</table>\n");
  Page.raw("</section>\n");
}

/// A cell sorted by a number: data-v holds it, empty where there is none.
static void numberCell(HtmlPage &Page, std::optional<double> Sort, llvm::StringRef Text,
                       llvm::StringRef Class = "") {
  Page.raw("<td class=\"n" + (Class.empty() ? std::string() : " " + Class.str()) + "\"");
  Page.attribute("data-v", Sort ? numberText(*Sort) : "");
  Page.raw(">");
  Page.text(Text);
  Page.raw("</td>");
}

/// The table of every kernel entry: one row per launch shape, and one per
/// kernel that does not compile or could not be analysed.
static void htmlLaunchTable(const std::vector<LaunchView> &Launches, HtmlPage &Page) {
  Page.raw("<section id=\"launch-table\"><h2>Kernel launches</h2>\n");
  Page.raw("<p><label>Filter launches and findings: <input id=\"filter\" type=\"search\" "
           "placeholder=\"kernel, file, check, text\"></label> · click a column to sort</p>\n");
  if (Launches.empty()) {
    Page.element("p", "No kernel launches analysed.");
    Page.raw("</section>\n");
    return;
  }
  Page.raw("<table id=\"launches\" class=\"sortable\">\n<colgroup><col class=\"num\">"
           "<col class=\"kernel\"><col class=\"shape\"><col class=\"from\">"
           "<col class=\"regs\"><col class=\"shared\"><col class=\"occ\"><col class=\"limiter\">"
           "<col class=\"metric\"><col class=\"metric\"><col class=\"metric\"><col class=\"metric\">"
           "</colgroup>\n<thead><tr><th class=\"n\">#</th>"
           "<th>Kernel, defined at</th><th>Block</th><th>Shape from</th>"
           "<th class=\"n\">Registers</th><th class=\"n\">Shared bytes</th>"
           "<th class=\"n\">Occu&shy;pancy</th><th>Limited by</th><th class=\"n\">Global eff. "
           "worst</th><th class=\"n\">Global eff. all</th><th class=\"n\">Worst con&shy;flict</th>"
           "<th class=\"n\">Find&shy;ings</th></tr></thead>\n<tbody>\n");
  for (const LaunchView &V : Launches) {
    const KernelEntry &K = *V.Kernel;
    Page.raw("<tr data-filter");
    Page.attribute("data-launch", V.Id);
    Page.raw(">");
    Page.raw("<td class=\"n\" data-v=\"" + std::to_string(V.Number) + "\"><a href=\"#" + V.Id +
             "\">" + std::to_string(V.Number) + "</a></td>");
    Page.raw("<td><a href=\"#" + V.Id + "\"><code>");
    Page.text(K.Name);
    Page.raw("</code></a><br><span class=\"sub\">");
    Page.text(Page.position(K.File, K.Line));
    Page.raw("</span></td>");
    if (K.Status != KernelStatus::Analysed || !K.Launch) {
      Page.cell(K.Status == KernelStatus::Error ? "does not compile" : "could not be analysed");
      for (int I = 0; I < 9; ++I)
        Page.cell("–");
      Page.raw("</tr>\n");
      continue;
    }
    const LaunchEntry &L = *K.Launch;
    // Sorted by the threads per block.
    Page.raw("<td data-v=\"" + std::to_string(L.Block[0] * L.Block[1] * L.Block[2]) + "\">");
    Page.text(dimText(L.Block));
    Page.raw("<br><span class=\"sub\">grid ");
    Page.text(dimText(L.Grid));
    Page.raw("</span></td>");
    llvm::StringRef From = L.Description;
    From.consume_front("the ");
    Page.cell(From);
    const std::optional<LaunchResourcesEntry> &R = K.Resources;
    if (R) {
      numberCell(Page, R->Occupancy.Registers,
                 numberText(R->Occupancy.Registers) + " (" + R->Occupancy.RegistersSource + ")");
      numberCell(Page, R->SharedBytesStatic + R->SharedBytesDynamic,
                 numberText(R->SharedBytesStatic) + " + " + numberText(R->SharedBytesDynamic));
      numberCell(Page, R->Occupancy.Theoretical, percentText(R->Occupancy.Theoretical),
                 R->Occupancy.Theoretical < 0.5 ? "poor" : "");
      Page.cell(R->Occupancy.Limiter);
    } else {
      for (int I = 0; I < 4; ++I)
        numberCell(Page, std::nullopt, "–");
    }
    auto Efficiency = [&](std::optional<double> E) {
      // Marked below the default MinEfficiency of cuda-uncoalesced-global-access.
      numberCell(Page, E, percentText(E), E && *E < 0.5 ? "bad" : "");
    };
    Efficiency(V.WorstGlobalEfficiency);
    Efficiency(V.WeightedGlobalEfficiency);
    std::optional<double> Degree;
    if (V.WorstConflictDegree)
      Degree = static_cast<double>(*V.WorstConflictDegree);
    numberCell(Page, Degree, Degree ? numberText(*V.WorstConflictDegree) + "-way" : "–",
               Degree && *Degree > 1 ? "bad" : "");
    numberCell(Page, static_cast<double>(V.Findings.size()), std::to_string(V.Findings.size()));
    Page.raw("</tr>\n");
  }
  Page.raw("</tbody></table>\n</section>\n");
}

void renderHtml(const RunResult &R, const ReportContext &Ctx, llvm::raw_ostream &OS) {
  // Names as the text report gives them, from the current directory
  // (--source-root is for code scanning and fingerprints).
  HtmlPage Page(OS, Ctx.WorkingDirectory);
  std::vector<LaunchView> Launches = launchViews(R, Ctx.WorkingDirectory);
  Page.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
           "<title>warpcheck report</title>\n<style>");
  Page.raw(HtmlStyle);
  Page.raw(SvgChartStyle);
  Page.raw("</style>\n</head>\n<body>\n<h1>warpcheck audit report</h1>\n<p class=\"meta\">");
  Page.text("warpcheck " + Ctx.ToolVersion + "; files are named relative to " +
            Ctx.WorkingDirectory + ".");
  Page.raw("</p>\n");
  htmlVerdict(R, Ctx, Page);
  htmlLaunchTable(Launches, Page);
  htmlCharts(Launches, Page);
  htmlFindings(R, Launches, Ctx.WorkingDirectory, Page);
  Page.raw("<section id=\"details\"><h2>Launch details</h2>\n");
  for (const LaunchView &V : Launches)
    htmlKernel(V, Page);
  Page.raw("</section>\n<script>");
  Page.raw(HtmlScript);
  Page.raw("</script>\n</body>\n</html>\n");
}

} // namespace warpcheck::tool
