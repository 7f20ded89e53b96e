//===- OccupancySvg.cpp - the occupancy curve as SVG ----------------------===//
#include "OccupancySvg.h"

#include "HtmlSvg.h"

#include <cstdio>

namespace warpcheck::tool {

/// The panel's size in SVG units; the HTML report scales it to its column.
static constexpr double Width = 380, Height = 250, X0 = 52, X1 = 366, Y0 = 24, Y1 = 204;

static void drawCurve(HtmlPage &Page, const model::ArchSpec &Arch,
                      const model::KernelResources &Resources, const OccupancySweep &Sweep,
                      llvm::ArrayRef<OccupancyMark> Marks, llvm::StringRef Placement) {
  double MaxBlock = Arch.MaxThreadsPerBlock;
  auto X = [&](double Block) { return X0 + Block / MaxBlock * (X1 - X0); };
  auto Y = [&](double Occupancy) { return Y1 - Occupancy * (Y1 - Y0); };
  Page.raw("<svg class=\"chart chart-occupancy\"" + Placement.str() + " viewBox=\"0 0 " +
           coord(Width) + " " + coord(Height) +
           "\" role=\"img\" aria-label=\"occupancy against block size\">");
  for (int P = 0; P <= 100; P += 25) {
    svgLine(Page, X0, Y(P / 100.0), X1, Y(P / 100.0), "grid");
    svgText(Page, X0 - 6, Y(P / 100.0) + 4, "class=\"tick\" text-anchor=\"end\"",
            std::to_string(P) + "%");
  }
  for (unsigned B = 0; B <= Arch.MaxThreadsPerBlock; B += 256) {
    svgLine(Page, X(B), Y1, X(B), Y1 + 4, "axisline");
    svgText(Page, X(B), Y1 + 17, "class=\"tick\" text-anchor=\"middle\"", std::to_string(B));
  }
  svgText(Page, (X0 + X1) / 2, Height - 8, "class=\"axis\" text-anchor=\"middle\"",
          "Threads per block");
  svgText(Page, 12, (Y0 + Y1) / 2,
          "class=\"axis\" text-anchor=\"middle\" transform=\"rotate(-90 12 " +
              coord((Y0 + Y1) / 2) + ")\"",
          "Occupancy");
  std::string Points;
  for (const OccupancySweep::Point &P : Sweep.Points)
    Points += coord(X(P.Resources.ThreadsPerBlock)) + "," + coord(Y(P.Result.Theoretical)) + " ";
  Page.raw("<polyline class=\"curve\" points=\"" + Points + "\"/>");
  if (unsigned S = Sweep.Suggested.BlockSize) {
    svgLine(Page, X(S), Y0, X(S), Y1, "suggested");
    svgText(Page, X(S) + (S > MaxBlock / 2 ? -4 : 4), Y0 - 6,
            std::string("class=\"tick\" text-anchor=\"") + (S > MaxBlock / 2 ? "end" : "start") +
                "\"",
            "suggested " + std::to_string(S));
  }
  // Labels placed where no earlier one is: [left, right] at each height.
  LabelPlacer Labels;
  for (const OccupancyMark &M : Marks) {
    if (M.Block < 1 || M.Block > Arch.MaxThreadsPerBlock)
      continue;
    model::KernelResources At = Resources;
    At.ThreadsPerBlock = static_cast<unsigned>(M.Block);
    model::OccupancyResult R = model::computeOccupancy(Arch, At);
    char Occupancy[16];
    std::snprintf(Occupancy, sizeof Occupancy, "%.4f", R.Theoretical);
    Page.raw("<g class=\"mark\" data-block=\"" + std::to_string(M.Block) +
             "\" data-occupancy=\"" + Occupancy + "\"");
    Page.attribute("data-launches", M.Launches);
    Page.raw("><circle cx=\"" + coord(X(M.Block)) + "\" cy=\"" + coord(Y(R.Theoretical)) +
             "\" r=\"5\"/>");
    bool Right = X(M.Block) < (X0 + X1) / 2;
    std::string Label = shortened(M.Launches, 20) + ": " + model::formatPercent(R.Theoretical);
    double TextWidth = labelWidth(Label);
    bool Below = R.Theoretical > 0.7;
    double LabelY = Labels.place(Right ? X(M.Block) + 7 : X(M.Block) - 7 - TextWidth, TextWidth,
                                 Below ? Y(R.Theoretical) + 18 : Y(R.Theoretical) - 9,
                                 Below ? 14 : -14, Below ? Height : 0);
    svgText(Page, X(M.Block) + (Right ? 7 : -7), LabelY,
            std::string("class=\"label\" text-anchor=\"") + (Right ? "start" : "end") + "\"",
            Label);
    Page.raw("</g>");
  }
  Page.raw("</svg>");
}

void drawOccupancyCurve(HtmlPage &Page, const model::ArchSpec &Arch,
                        const model::KernelResources &Resources, const OccupancySweep &Sweep,
                        llvm::ArrayRef<OccupancyMark> Marks) {
  drawCurve(Page, Arch, Resources, Sweep, Marks, "");
}

void writeOccupancySweepSvg(llvm::raw_ostream &OS, llvm::ArrayRef<OccupancySweepPanel> Panels) {
  // Each panel under a 24-unit band for its title.
  const double Title = 24, PanelHeight = Title + Height;
  HtmlPage Page(OS, "");
  Page.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
           "width=\"" + coord(Width) + "\" height=\"" +
           coord(PanelHeight * static_cast<double>(Panels.size())) + "\" viewBox=\"0 0 " +
           coord(Width) + " " + coord(PanelHeight * static_cast<double>(Panels.size())) +
           "\" font-family=\"system-ui, sans-serif\">\n<style>");
  Page.raw(SvgChartStyle);
  Page.raw("svg .title { font-size: 13px; font-weight: 600; fill: #223; }\n</style>\n"
           "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");
  double Top = 0;
  for (const OccupancySweepPanel &P : Panels) {
    svgText(Page, 8, Top + 16, "class=\"title\"", P.Title);
    Page.raw("\n");
    drawCurve(Page, *P.Arch, P.Resources, P.Sweep, {},
              " x=\"0\" y=\"" + coord(Top + Title) + "\" width=\"" + coord(Width) +
                  "\" height=\"" + coord(Height) + "\"");
    Page.raw("\n");
    Top += PanelHeight;
  }
  Page.raw("</svg>\n");
}

} // namespace warpcheck::tool
