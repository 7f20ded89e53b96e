//===- HtmlKernels.cpp - the HTML report: each launch's details -----------===//
//
// A launch's shape and where it comes from, its limitations, registers and
// occupancy on each architecture, FLOPs and roofline verdict, each memory
// access with its numbers, and its arrays of structures; folded, opened by
// the table's links.
//
//===----------------------------------------------------------------------===//

#include "HtmlPage.h"

namespace warpcheck::tool {

/// The texts of an access's assumptions, closing its row's last cell.
static void assumptionsCellEnd(const std::vector<analysis::Assumption> &Assumptions,
                               HtmlPage &Page) {
  std::vector<std::string> Texts;
  for (const analysis::Assumption &X : Assumptions)
    Texts.push_back(X.Text);
  Page.stringList(Texts);
  Page.raw("</td></tr>\n");
}

/// "measured (ideal N)" for a per-request metric and its ideal.
static std::string perRequestText(std::optional<double> Actual, std::optional<double> Ideal) {
  if (!Actual)
    return "–";
  return numberText(Actual) + " (ideal " + numberText(Ideal) + ")";
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
    Page.codeCell(Page.position(A.File, A.Line, A.Column));
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
    assumptionsCellEnd(A.Assumptions, Page);
  }
  Page.raw("</table>\n");
}

/// FLOPs, DRAM bytes and the roofline verdict of a launch, when counted.
static void htmlWork(const KernelEntry &K, HtmlPage &Page) {
  if (!K.Work)
    return;
  const WorkEntry &W = *K.Work;
  std::string Flops = W.Flops.Total ? numberText(*W.Flops.Total) + " FLOPs"
                                    : "FLOPs not counted (" + W.Flops.NotCounted + ")";
  if (const std::optional<analysis::FlopFormula> &F = W.Flops.PerThread)
    Flops += " (" + F->PerThreadTotal.text(F->Symbols) + " per thread)";
  std::string Bytes =
      W.Dram.Read && W.Dram.Write
          ? numberText(*W.Dram.Read) + " DRAM bytes read, " + numberText(*W.Dram.Write) +
                " written"
          : "DRAM bytes not counted (" + W.Dram.NotCounted + ")";
  std::string Text = "Work: " + Flops + ", " + Bytes + "; intensity " +
                     (W.Intensity ? numberText(*W.Intensity) + " FLOP/byte" : "not known");
  for (const RooflineEntry &E : W.Roofline)
    Text += "; " + E.Arch + " (" + E.Part + ", " + E.Precision + "): " + E.Bound +
            "-bound, ridge " + numberText(E.Ridge) + " FLOP/byte, at least " +
            siText(E.TimeBoundSeconds) + "s (" + analysis::statusName(E.Status) + ")";
  Page.element("p", Text);
}

void htmlKernel(const LaunchView &V, HtmlPage &Page) {
  const KernelEntry &K = *V.Kernel;
  Page.raw("<details class=\"launch\"");
  Page.attribute("id", V.Id);
  Page.raw("><summary><b>#" + std::to_string(V.Number) + "</b> <code>");
  Page.text(V.Label);
  Page.raw("</code> ");
  Page.text(Page.position(K.File, K.Line));
  if (!V.Findings.empty())
    Page.text(" · " + std::to_string(V.Findings.size()) +
              (V.Findings.size() == 1 ? " finding" : " findings"));
  Page.raw("</summary>\n");
  if (K.Status != KernelStatus::Analysed) {
    // A kernel that does not compile, or whose analysis failed: why,
    // nothing analysed.
    if (K.Error)
      Page.element("p", Page.position(K.Error->File, K.Error->Line, K.Error->Column) + ": " +
                            K.Error->Message);
    Page.stringList(K.Limitations);
    Page.raw("</details>\n");
    return;
  }
  if (const std::optional<LaunchEntry> &L = K.Launch)
    Page.element("p", "Block " + dimText(L->Block) + ", grid " + dimText(L->Grid) + ", from " +
                          L->Description + " (" + L->Source + "); " +
                          numberText(K.SimulatedWarps) + " of " + numberText(K.TotalWarps) +
                          " warps simulated" +
                          (K.SimulatedWarps < K.TotalWarps && K.Work && K.Work->TotalBlocks > 0
                               ? ", in " + numberText(K.SimulatedBlocks) + " of " +
                                     numberText(K.Work->TotalBlocks) + " blocks"
                               : std::string()) +
                          ".");
  if (!K.Limitations.empty()) {
    Page.element("p", "Limitations:");
    Page.stringList(K.Limitations);
  }
  if (!K.SampledSymbols.empty()) {
    Page.element("p", "Sampled symbols:");
    Page.stringList(K.SampledSymbols);
  }
  htmlOccupancy(K, Page);
  htmlWork(K, Page);

  if (K.Accesses.empty()) {
    Page.element("p", "No memory accesses analysed.");
    Page.raw("</details>\n");
    return;
  }
  Page.raw("<table>\n");
  Page.headerRow({"Location", "Expression", "Space", "Op", "Sectors/request",
                  "Wavefronts/request", "Efficiency", "Status"});
  for (const AccessEntry &A : K.Accesses) {
    // Marked where half the bandwidth or more is wasted (the default
    // MinEfficiency of cuda-uncoalesced-global-access).
    Page.raw(A.Efficiency && *A.Efficiency < 0.5 ? "<tr class=\"poor\">" : "<tr>");
    Page.codeCell(Page.position(A.File, A.Line, A.Column));
    Page.codeCell(A.Expression);
    Page.cell(analysis::spaceName(A.Space));
    Page.cell(analysis::opName(A.Op));
    Page.cell(perRequestText(A.SectorsPerRequest, A.IdealSectorsPerRequest));
    Page.cell(perRequestText(A.WavefrontsPerRequest, A.IdealWavefrontsPerRequest));
    Page.cell(percentText(A.Efficiency));
    Page.raw("<td>");
    Page.text(analysis::statusName(A.Status));
    assumptionsCellEnd(A.Assumptions, Page);
  }
  Page.raw("</table>\n");
  htmlAos(K, Page);
  Page.raw("</details>\n");
}


} // namespace warpcheck::tool
