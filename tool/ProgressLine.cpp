//===- ProgressLine.cpp - how far a run of many units is ------------------===//

#include "ProgressLine.h"
#include "ReportSupport.h"

#include <cmath>

namespace warpcheck::tool {

std::string timeLeftText(std::optional<double> Seconds) {
  if (!Seconds || *Seconds < 0 || !std::isfinite(*Seconds))
    return "";
  if (*Seconds < 60)
    return "about " + std::to_string(std::max(1L, std::lround(*Seconds))) + " s left";
  if (*Seconds < 2 * 3600)
    return "about " + std::to_string(std::lround(*Seconds / 60)) + " min left";
  return "about " + std::to_string(std::lround(*Seconds / 3600)) + " h left";
}

ProgressLine::ProgressLine(llvm::raw_ostream &OS, bool Rewrite, unsigned Columns)
    : OS(OS), Rewrite(Rewrite), Columns(Columns) {}

void ProgressLine::begin(size_t N) {
  std::lock_guard<std::mutex> Guard(Lock);
  Total = N;
  Done = Analysed = ReusedCount = 0;
  Start = std::chrono::steady_clock::now();
}

void ProgressLine::finished(llvm::StringRef File, bool Reused) {
  std::lock_guard<std::mutex> Guard(Lock);
  ++Done;
  ++(Reused ? ReusedCount : Analysed);
  std::optional<double> Left;
  if (Analysed > 0 && Done < Total) {
    double Elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    Left = Elapsed / static_cast<double>(Analysed) * static_cast<double>(Total - Done);
  }
  // The name escaped as the report escapes it: a file name cannot send
  // escape sequences to the terminal.
  std::string Line = "[" + std::to_string(Done) + "/" + std::to_string(Total) + "] " +
                     printableText(File);
  if (Reused)
    Line += " (stored result)";
  if (std::string T = timeLeftText(Left); !T.empty())
    Line += ", " + T;
  if (!Rewrite) {
    OS << Line << "\n";
    OS.flush();
    return;
  }
  // Cut to the terminal's width (a wrapped line cannot be rewritten),
  // keeping the count and the start of the name.
  if (Columns > 8 && Line.size() >= Columns)
    Line = Line.substr(0, Columns - 4) + "...";
  OS << "\r" << Line << "\x1b[K";
  OS.flush();
  Shown = true;
}

void ProgressLine::clear() {
  std::lock_guard<std::mutex> Guard(Lock);
  if (Rewrite && Shown) {
    OS << "\r\x1b[K";
    OS.flush();
    Shown = false;
  }
}

void ProgressLine::end() { clear(); }

} // namespace warpcheck::tool
