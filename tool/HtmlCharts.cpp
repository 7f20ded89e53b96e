//===- HtmlCharts.cpp - the HTML report's charts, as inline SVG -----------===//
//
// Three charts, drawn here without any library: global memory efficiency
// per launch (bars), theoretical occupancy against the block size for each
// configuration of registers and shared memory (the curve of CUDA's
// occupancy calculator, from the same model `warpcheck occupancy --sweep`
// prints), and the roofline (log-log) with every launch a point at its
// arithmetic intensity. Every label is escaped: kernel names come from the
// analysed code.
//
//===----------------------------------------------------------------------===//

#include "HtmlSvg.h"
#include "OccupancySvg.h"
#include "OccupancySweep.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace warpcheck::tool {

/// Bars: the traffic-weighted global efficiency of each launch, the worst
/// access marked on it.
static void efficiencyChart(const std::vector<LaunchView> &Launches, HtmlPage &Page) {
  std::vector<const LaunchView *> Rows;
  for (const LaunchView &V : Launches)
    if (V.WorstGlobalEfficiency)
      Rows.push_back(&V);
  // The least efficient first: what a reviewer looks for.
  llvm::stable_sort(Rows, [](const LaunchView *A, const LaunchView *B) {
    auto Key = [](const LaunchView *V) {
      return std::make_pair(V->WeightedGlobalEfficiency.value_or(*V->WorstGlobalEfficiency),
                            *V->WorstGlobalEfficiency);
    };
    return Key(A) < Key(B);
  });
  Page.raw("<figure class=\"chart-box\"><figcaption>Global memory efficiency per launch: the "
           "sectors its requests need over the sectors they move. Bar: all its global "
           "accesses together, each weighted by its traffic; dark mark: its worst access; "
           "dashed: 50%, where cuda-uncoalesced-global-access reports by default. The least "
           "efficient first.</figcaption>\n");
  if (Rows.empty()) {
    Page.element("p", "No launch has a global access with numbers.");
    Page.raw("</figure>\n");
    return;
  }
  const double Width = 1180, Left = 370, Right = 190, Top = 10, RowHeight = 24;
  const double PlotWidth = Width - Left - Right, Bottom = Top + Rows.size() * RowHeight;
  const double Height = Bottom + 48;
  Page.raw("<svg class=\"chart chart-efficiency\" viewBox=\"0 0 " + coord(Width) + " " +
           coord(Height) + "\" role=\"img\" aria-label=\"global memory efficiency per launch\">\n");
  auto X = [&](double Fraction) { return Left + Fraction * PlotWidth; };
  for (int P = 0; P <= 100; P += 10) {
    svgLine(Page, X(P / 100.0), Top, X(P / 100.0), Bottom, P == 50 ? "threshold" : "grid");
    svgText(Page, X(P / 100.0), Bottom + 16, "class=\"tick\" text-anchor=\"middle\"",
            std::to_string(P) + "%");
  }
  svgText(Page, X(0.5), Bottom + 40, "class=\"axis\" text-anchor=\"middle\"",
          "Global memory efficiency (%, useful sectors over sectors moved)");
  for (size_t I = 0; I < Rows.size(); ++I) {
    const LaunchView &V = *Rows[I];
    double Y = Top + I * RowHeight;
    Page.raw("<a href=\"#" + V.Id + "\"><title>");
    Page.text("#" + std::to_string(V.Number) + " " + V.Label);
    Page.raw("</title>");
    svgText(Page, Left - 8, Y + RowHeight * 0.68, "class=\"label\" text-anchor=\"end\"",
            "#" + std::to_string(V.Number) + " " + shortened(V.Label, 48));
    std::string Numbers = "worst " + percentText(V.WorstGlobalEfficiency);
    if (V.WeightedGlobalEfficiency) {
      Page.raw("<rect class=\"bar\" x=\"" + coord(Left) + "\" y=\"" + coord(Y + 4) +
               "\" width=\"" + coord(*V.WeightedGlobalEfficiency * PlotWidth) + "\" height=\"" +
               coord(RowHeight - 8) + "\"/>");
      Numbers = "all " + percentText(V.WeightedGlobalEfficiency) + " · " + Numbers;
    }
    Page.raw("<rect class=\"worst\" x=\"" + coord(X(*V.WorstGlobalEfficiency) - 2) +
             "\" y=\"" + coord(Y + 2) + "\" width=\"4\" height=\"" + coord(RowHeight - 4) +
             "\"/>");
    svgText(Page, Width - Right + 10, Y + RowHeight * 0.68, "class=\"label\"", Numbers);
    Page.raw("</a>\n");
  }
  Page.raw("</svg></figure>\n");
}

/// Occupancy against the block size, one panel per architecture, registers
/// and shared memory; each launch marked at its block size.
static void occupancyChart(const std::vector<LaunchView> &Launches, HtmlPage &Page) {
  using Config = std::tuple<std::string, std::int64_t, std::int64_t, std::int64_t>;
  std::map<Config, std::vector<const LaunchView *>> Configs;
  for (const LaunchView &V : Launches)
    if (const auto &R = V.Kernel->Resources)
      Configs[{R->Occupancy.Arch, R->Occupancy.Registers, R->SharedBytesStatic,
               R->SharedBytesDynamic}]
          .push_back(&V);
  Page.raw("<figure class=\"chart-box\"><figcaption>Theoretical occupancy against the block "
           "size (32 to 1024 threads, by 32), as CUDA's occupancy calculator draws it: one panel "
           "per architecture, registers per thread and shared memory per block (the dynamic "
           "shared memory of the launch kept at every size); each launch marked at its block, "
           "the dashed line at the size cudaOccupancyMaxPotentialBlockSize suggests."
           "</figcaption>\n");
  if (Configs.empty()) {
    Page.element("p", "No launch has a register count, so no occupancy.");
    Page.raw("</figure>\n");
    return;
  }
  Page.raw("<div class=\"panels\">\n");
  for (const auto &[C, Views] : Configs) {
    const auto &[ArchName, Registers, Static, Dynamic] = C;
    const model::ArchSpec *Arch = model::findArch(ArchName);
    Page.raw("<div class=\"panel\">");
    Page.element("h4", ArchName + " · " + std::to_string(Registers) + " registers · " +
                           std::to_string(Static + Dynamic) + " B shared");
    if (!Arch) {
      Page.element("p", "the model has no architecture " + ArchName);
      Page.raw("</div>\n");
      continue;
    }
    model::KernelResources Resources;
    Resources.RegistersPerThread = static_cast<unsigned>(Registers);
    Resources.StaticSharedBytes = static_cast<std::uint64_t>(Static);
    Resources.DynamicSharedBytes = static_cast<std::uint64_t>(Dynamic);
    OccupancySweep Sweep = sweepBlockSizes(*Arch, Resources);
    // Launches of the same block size share a mark.
    std::map<std::int64_t, std::string> ByBlock;
    for (const LaunchView *V : Views)
      if (V->Kernel->Launch) {
        std::string &Numbers = ByBlock[V->Kernel->Launch->Block[0] *
                                       V->Kernel->Launch->Block[1] * V->Kernel->Launch->Block[2]];
        Numbers += (Numbers.empty() ? "#" : " #") + std::to_string(V->Number);
      }
    std::vector<OccupancyMark> Marks;
    for (const auto &[Block, Numbers] : ByBlock)
      Marks.push_back({Block, Numbers});
    drawOccupancyCurve(Page, *Arch, Resources, Sweep, Marks);
    Page.raw("<ul class=\"key\">");
    for (const LaunchView *V : Views) {
      const OccupancyEntry &O = V->Kernel->Resources->Occupancy;
      Page.raw("<li><a href=\"#" + V->Id + "\">#" + std::to_string(V->Number) + "</a> ");
      Page.text(shortened(V->Label, 60) + ": " + model::formatPercent(O.Theoretical) +
                ", limited by " + O.Limiter);
      Page.raw("</li>");
    }
    if (Sweep.Suggested.BlockSize)
      Page.element("li", "suggested " + std::to_string(Sweep.Suggested.BlockSize) + ": " +
                             model::formatPercent(Sweep.Suggested.Occupancy.Theoretical) +
                             ", limited by " +
                             model::limiterName(Sweep.Suggested.Occupancy.Limiter));
    Page.raw("</ul></div>\n");
  }
  Page.raw("</div></figure>\n");
}

/// The roofline: each architecture's roof for each precision present, and
/// every launch with a known intensity a point on it.
static void rooflineChart(const std::vector<LaunchView> &Launches, HtmlPage &Page) {
  struct Roof {
    const RooflineEntry *Entry;
    size_t Index;
  };
  std::map<std::tuple<std::string, std::string, std::string>, Roof> Roofs;
  struct Point {
    const LaunchView *View;
    double Intensity, Flops;
    size_t Roof;
  };
  std::vector<Point> Points;
  for (const LaunchView &V : Launches) {
    const std::optional<WorkEntry> &W = V.Kernel->Work;
    if (!W)
      continue;
    for (const RooflineEntry &E : W->Roofline) {
      auto [It, New] = Roofs.try_emplace({E.Arch, E.Part, E.Precision}, Roof{&E, Roofs.size()});
      if (W->Intensity && *W->Intensity > 0)
        Points.push_back({&V, *W->Intensity, E.AttainableFlopsPerSecond, It->second.Index});
    }
  }
  Page.raw("<figure class=\"chart-box\"><figcaption>The roofline (log-log): the roof of each "
           "architecture and precision present (the DRAM bandwidth up to the ridge, then the "
           "peak), and each launch a point at its arithmetic intensity, at the performance the "
           "roof allows it.</figcaption>\n");
  if (Roofs.empty()) {
    Page.element("p", "No launch has a roofline verdict.");
    Page.raw("</figure>\n");
    return;
  }
  double MinX = 1e300, MaxX = 0, MinY = 1e300, MaxY = 0;
  for (const Point &P : Points) {
    MinX = std::min(MinX, P.Intensity), MaxX = std::max(MaxX, P.Intensity);
    MinY = std::min(MinY, P.Flops);
  }
  for (const auto &[Key, R] : Roofs) {
    MinX = std::min(MinX, R.Entry->Ridge), MaxX = std::max(MaxX, R.Entry->Ridge);
    MaxY = std::max(MaxY, R.Entry->PeakFlopsPerSecond);
  }
  double Lo = std::floor(std::log10(MinX / 2)), Hi = std::ceil(std::log10(MaxX * 2));
  for (const auto &[Key, R] : Roofs)
    MinY = std::min(MinY, std::pow(10, Lo) * R.Entry->BandwidthBytesPerSecond);
  double YLo = std::floor(std::log10(MinY)), YHi = std::ceil(std::log10(MaxY * 1.5));
  const double Width = 1180, Height = 560, X0 = 110, X1 = 1160, Y0 = 20, Y1 = 500;
  auto X = [&](double I) { return X0 + (std::log10(I) - Lo) / (Hi - Lo) * (X1 - X0); };
  auto Y = [&](double F) { return Y1 - (std::log10(F) - YLo) / (YHi - YLo) * (Y1 - Y0); };
  Page.raw("<svg class=\"chart chart-roofline\" viewBox=\"0 0 " + coord(Width) + " " +
           coord(Height) + "\" role=\"img\" aria-label=\"roofline\"><defs><clipPath "
           "id=\"roofline-plot\"><rect x=\"" + coord(X0) + "\" y=\"" + coord(Y0) + "\" width=\"" +
           coord(X1 - X0) + "\" height=\"" + coord(Y1 - Y0) + "\"/></clipPath></defs>");
  for (double D = Lo; D <= Hi; ++D) {
    svgLine(Page, X(std::pow(10, D)), Y0, X(std::pow(10, D)), Y1, "grid");
    svgText(Page, X(std::pow(10, D)), Y1 + 18, "class=\"tick\" text-anchor=\"middle\"",
            numberText(std::pow(10, D)));
  }
  for (double D = YLo; D <= YHi; ++D) {
    svgLine(Page, X0, Y(std::pow(10, D)), X1, Y(std::pow(10, D)), "grid");
    svgText(Page, X0 - 8, Y(std::pow(10, D)) + 4, "class=\"tick\" text-anchor=\"end\"",
            siText(std::pow(10, D)) + "FLOP/s");
  }
  svgText(Page, (X0 + X1) / 2, Height - 12, "class=\"axis\" text-anchor=\"middle\"",
          "Arithmetic intensity (FLOP per DRAM byte)");
  svgText(Page, 16, (Y0 + Y1) / 2,
          "class=\"axis\" text-anchor=\"middle\" transform=\"rotate(-90 16 " +
              coord((Y0 + Y1) / 2) + ")\"",
          "Attainable performance (FLOP/s)");
  std::vector<double> LabelYs;
  for (const auto &[Key, R] : Roofs) {
    const RooflineEntry &E = *R.Entry;
    Page.raw("<polyline class=\"roof\" clip-path=\"url(#roofline-plot)\" stroke=\"" +
             std::string(colour(R.Index)) + "\" points=\"" + coord(X(std::pow(10, Lo))) + "," +
             coord(Y(std::pow(10, Lo) * E.BandwidthBytesPerSecond)) + " " + coord(X(E.Ridge)) +
             "," + coord(Y(E.PeakFlopsPerSecond)) + " " + coord(X(std::pow(10, Hi))) + "," +
             coord(Y(E.PeakFlopsPerSecond)) + "\"/>");
    svgText(Page, X1 - 4, Y(E.PeakFlopsPerSecond) - 6,
            "class=\"label\" text-anchor=\"end\" fill=\"" + std::string(colour(R.Index)) + "\"",
            E.Arch + " " + E.Precision);
    LabelYs.push_back(Y(E.PeakFlopsPerSecond) - 6);
  }
  // Launches at the same place share one label.
  std::map<std::pair<long, long>, std::vector<const Point *>> Places;
  for (const Point &P : Points)
    Places[{std::lround(X(P.Intensity) / 6), std::lround(Y(P.Flops) / 6)}].push_back(&P);
  std::vector<const RooflineEntry *> ByIndex(Roofs.size());
  for (const auto &[Key, R] : Roofs)
    ByIndex[R.Index] = R.Entry;
  LabelPlacer Labels;
  for (double U : LabelYs)
    Labels.take(X1 - 90, 90, U);
  for (const auto &[Place, Here] : Places) {
    const Point &P = *Here.front();
    std::string Numbers;
    for (const Point *Q : Here)
      Numbers += (Numbers.empty() ? "#" : " #") + std::to_string(Q->View->Number);
    Page.raw("<g class=\"point\" data-launches=\"" + Numbers + "\"><title>");
    for (const Point *Q : Here)
      Page.text("#" + std::to_string(Q->View->Number) + " " + Q->View->Label + ": " +
                numberText(Q->Intensity) + " FLOP/byte\n");
    Page.raw("</title><circle cx=\"" + coord(X(P.Intensity)) + "\" cy=\"" + coord(Y(P.Flops)) +
             "\" r=\"5\" fill=\"" + colour(P.Roof) + "\"/>");
    // Above the roof, where no launch can be: up and to the left of a
    // point on the slope, straight up from one under the peak; moved up
    // while it would cover an earlier label.
    std::string Label = shortened(Numbers, 40);
    double TextWidth = labelWidth(Label);
    bool OnSlope = P.Intensity < ByIndex[P.Roof]->Ridge;
    double Right = OnSlope ? X(P.Intensity) - 6 : X(P.Intensity) + TextWidth / 2;
    double LabelY = Labels.place(Right - TextWidth, TextWidth, Y(P.Flops) - 9, -14, Y0 + 12);
    svgText(Page, Right, LabelY, "class=\"label\" text-anchor=\"end\"", Label);
    Page.raw("</g>");
  }
  Page.raw("</svg>\n<ul class=\"key\">");
  for (const auto &[Key, R] : Roofs) {
    const RooflineEntry &E = *R.Entry;
    Page.raw("<li><span class=\"swatch\" style=\"background:" + std::string(colour(R.Index)) +
             "\"></span> ");
    Page.text(E.Arch + " (" + E.Part + "), " + E.Precision + ": peak " +
              siText(E.PeakFlopsPerSecond) + "FLOP/s (" + E.PeakSource + "), DRAM " +
              siText(E.BandwidthBytesPerSecond) + "B/s, ridge " + numberText(E.Ridge) +
              " FLOP/byte");
    Page.raw("</li>");
  }
  Page.raw("</ul>\n<ul class=\"key columns\">");
  for (const LaunchView &V : Launches) {
    const std::optional<WorkEntry> &W = V.Kernel->Work;
    if (!W || W->Roofline.empty())
      continue;
    const RooflineEntry &E = W->Roofline.front();
    Page.raw("<li><a href=\"#" + V.Id + "\">#" + std::to_string(V.Number) + "</a> ");
    Page.text(shortened(V.Label, 48) + ": " +
              (!W->Intensity ? std::string("intensity not known, not plotted")
               : *W->Intensity <= 0
                   ? std::string("0 FLOP/byte, not plotted on the log scale")
                   : numberText(*W->Intensity) + " FLOP/byte, " + E.Bound + "-bound on " +
                         E.Arch + ", at least " + siText(E.TimeBoundSeconds) + "s"));
    Page.raw("</li>");
  }
  Page.raw("</ul></figure>\n");
}

void htmlCharts(const std::vector<LaunchView> &Launches, HtmlPage &Page) {
  Page.raw("<section id=\"charts\"><h2>Charts</h2>\n");
  efficiencyChart(Launches, Page);
  occupancyChart(Launches, Page);
  rooflineChart(Launches, Page);
  Page.raw("</section>\n");
}

} // namespace warpcheck::tool
