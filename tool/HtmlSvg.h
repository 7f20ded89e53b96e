//===- HtmlSvg.h - the pieces the HTML report's charts are drawn with -----===//
//
// Coordinates, colours, escaped labels, and where to put a label so that it
// covers no earlier one (HtmlCharts.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_HTMLSVG_H
#define WARPCHECK_TOOL_HTMLSVG_H

#include "HtmlPage.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// A coordinate of the SVG, one decimal.
inline std::string coord(double V) {
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.1f", V);
  return Text;
}

/// Colours that stay apart for people with the common colour blindnesses
/// (Okabe and Ito's palette).
inline const char *colour(size_t I) {
  static const char *Palette[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                  "#e69f00", "#56b4e9", "#000000", "#f0e442"};
  return Palette[I % (sizeof Palette / sizeof *Palette)];
}

/// At most Max characters (code points) of a label; the full text goes in
/// the element's <title>.
inline std::string shortened(const std::string &Label, size_t Max) {
  size_t CodePoints = 0, Cut = 0;
  for (size_t I = 0; I < Label.size(); ++I)
    if ((static_cast<unsigned char>(Label[I]) & 0xC0) != 0x80 && ++CodePoints == Max)
      Cut = I;
  return CodePoints <= Max ? Label : Label.substr(0, Cut) + "…";
}

/// How the charts' parts are drawn: the HTML report's page and a
/// standalone SVG (`warpcheck occupancy --sweep --format=svg`) share it. A
/// label has a white outline, so that it stays readable where it crosses a
/// curve or a grid line.
inline constexpr llvm::StringLiteral SvgChartStyle = R"(
svg .grid { stroke: #e3e6eb; } svg .axisline { stroke: #889; }
svg .threshold { stroke: #d93025; stroke-dasharray: 5 4; }
svg .tick { font-size: 12px; fill: #556; } svg .axis { font-size: 13px; fill: #223; }
svg .label { font-size: 12px; fill: #223; paint-order: stroke; stroke: #fff;
  stroke-width: 3px; stroke-linejoin: round; }
svg .bar { fill: #56b4e9; } svg .worst { fill: #1d2330; }
svg .curve { fill: none; stroke: #0072b2; stroke-width: 2; }
svg .suggested { stroke: #009e73; stroke-dasharray: 4 3; }
svg .mark circle { fill: #d55e00; stroke: #fff; stroke-width: 1.5; }
svg .roof { fill: none; stroke-width: 2.5; }
svg .point circle { stroke: #fff; stroke-width: 1.5; }
)";

/// <text> at (X, Y) with the given attributes, its content escaped.
inline void svgText(HtmlPage &Page, double X, double Y, llvm::StringRef Attributes,
                    llvm::StringRef Text) {
  Page.raw("<text x=\"" + coord(X) + "\" y=\"" + coord(Y) + "\" " + Attributes.str() + ">");
  Page.text(Text);
  Page.raw("</text>");
}

inline void svgLine(HtmlPage &Page, double X1, double Y1, double X2, double Y2,
                    llvm::StringRef Class) {
  Page.raw("<line x1=\"" + coord(X1) + "\" y1=\"" + coord(Y1) + "\" x2=\"" + coord(X2) +
           "\" y2=\"" + coord(Y2) + "\" class=\"" + Class.str() + "\"/>");
}

/// The width of a label in the charts' 12-unit font: about 7.2 units a
/// character, and a little room.
inline double labelWidth(const std::string &Label) {
  return 7.2 * static_cast<double>(Label.size()) + 4;
}

/// Where labels go: each at the height asked, moved by Step while it would
/// cover an earlier one, but not past Limit.
class LabelPlacer {
public:
  void take(double Left, double Width, double Y) { Taken.push_back({Left, Left + Width, Y}); }
  double place(double Left, double Width, double Y, double Step, double Limit) {
    auto Covers = [&](const Box &B) {
      return std::abs(B.Y - Y) < 13 && Left < B.Right && B.Left < Left + Width;
    };
    while ((Step > 0 ? Y + Step <= Limit : Y + Step >= Limit) && llvm::any_of(Taken, Covers))
      Y += Step;
    take(Left, Width, Y);
    return Y;
  }

private:
  struct Box {
    double Left, Right, Y;
  };
  std::vector<Box> Taken;
};

} // namespace warpcheck::tool

#endif
