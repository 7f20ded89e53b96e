//===- OccupancySvg.h - the occupancy curve as SVG ------------------------===//
//
// One drawing of the curve CUDA's occupancy calculator draws (occupancy
// against the block size for one kernel's registers and shared memory, the
// size cudaOccupancyMaxPotentialBlockSize suggests dashed), used by the HTML
// report (each launch marked at its block size) and by `warpcheck occupancy
// --sweep --format=svg` (a standalone SVG document, one panel per
// architecture).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_OCCUPANCYSVG_H
#define WARPCHECK_TOOL_OCCUPANCYSVG_H

#include "HtmlPage.h"
#include "OccupancySweep.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace warpcheck::tool {

/// Launches drawn at one block size: "#3 #7", the report's launch numbers.
struct OccupancyMark {
  std::int64_t Block = 0;
  std::string Launches;
};

/// One <svg class="chart chart-occupancy"> element: the sweep's curve, its
/// suggestion, and each mark with its label placed apart from the others.
/// Resources are the kernel's (the block size of each mark replaces its
/// ThreadsPerBlock).
void drawOccupancyCurve(HtmlPage &Page, const model::ArchSpec &Arch,
                        const model::KernelResources &Resources, const OccupancySweep &Sweep,
                        llvm::ArrayRef<OccupancyMark> Marks);

/// A sweep of `warpcheck occupancy`: the panel's title and what it drew.
struct OccupancySweepPanel {
  const model::ArchSpec *Arch = nullptr;
  model::KernelResources Resources;
  OccupancySweep Sweep;
  std::string Title;
};

/// A standalone SVG document (its own styles, no script), the panels one
/// above the other.
void writeOccupancySweepSvg(llvm::raw_ostream &OS, llvm::ArrayRef<OccupancySweepPanel> Panels);

} // namespace warpcheck::tool

#endif
