//===- ProgressLine.h - how far a run of many units is --------------------===//
//
// "[12/340] src/file.cu, about 3 min left" on standard error, never in the
// report: on a terminal one line, rewritten as each unit finishes and
// cleared at the end; elsewhere (--progress into a CI log) one line per
// unit. The estimate is the time so far per unit analysed (reused results
// cost nothing) times the units left.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_PROGRESSLINE_H
#define WARPCHECK_TOOL_PROGRESSLINE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <mutex>
#include <optional>
#include <string>

namespace warpcheck::tool {

/// "about 2 min left" (rounded, never a false precision: seconds under a
/// minute, minutes under two hours, then hours), "" for none.
std::string timeLeftText(std::optional<double> Seconds);

class ProgressLine {
public:
  /// Rewrite: one line, rewritten in place (a terminal), else a line per
  /// unit. Columns: the terminal's width (the line is cut to it: a line
  /// that wraps cannot be rewritten).
  ProgressLine(llvm::raw_ostream &OS, bool Rewrite, unsigned Columns);

  /// A batch of Total units starts.
  void begin(size_t Total);
  /// One unit finished: analysed, or its stored result Reused.
  void finished(llvm::StringRef File, bool Reused);
  /// Clears the rewritten line (before other output, and at the end).
  void clear();
  /// The batch is over.
  void end();

private:
  std::mutex Lock;
  llvm::raw_ostream &OS;
  bool Rewrite;
  unsigned Columns;
  size_t Total = 0, Done = 0, Analysed = 0, ReusedCount = 0;
  bool Shown = false;
  std::chrono::steady_clock::time_point Start;
};

} // namespace warpcheck::tool

#endif
