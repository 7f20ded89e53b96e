//===- TextReport.cpp - clang-style text output ---------------------------===//

#include "Reporters.h"
#include "ReportSupport.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/WithColor.h"

namespace warpcheck::tool {

static void renderMessage(const ReportedMessage &M, llvm::StringRef Severity,
                          llvm::StringRef Check, llvm::raw_ostream &OS, bool Color) {
  const std::optional<std::string> &File = M.File;
  const std::optional<std::int64_t> &Line = M.Line;
  const std::optional<std::int64_t> &Column = M.Column;
  if (Color)
    OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
  if (File && Line && Column)
    OS << printableText(*File) << ":" << *Line << ":" << *Column << ": ";
  if (Color)
    OS.changeColor(Severity == "note" ? llvm::raw_ostream::BLACK
                   : Severity == "error" ? llvm::raw_ostream::RED
                                         : llvm::raw_ostream::MAGENTA,
                   true);
  OS << Severity << ": ";
  if (Color)
    OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
  OS << printableText(M.Message);
  if (!Check.empty())
    OS << " [" << printableText(Check) << "]";
  if (Color)
    OS.resetColor();
  OS << "\n";
  const std::optional<std::string> &Source = M.SourceLine;
  if (Source && Line && Column) {
    OS << llvm::format("%5d", static_cast<int>(*Line)) << " | "
       << printableText(*Source, /*KeepTabs=*/true) << "\n";
    OS << "      | " << caretIndent(*Source, *Column);
    if (Color)
      OS.changeColor(llvm::raw_ostream::GREEN, true);
    OS << "^";
    if (Color)
      OS.resetColor();
    OS << "\n";
  }
}

void renderText(const RunResult &R, llvm::raw_ostream &OS, bool Color) {
  for (const Finding &F : R.Findings) {
    renderMessage(F, F.Severity, F.Check, OS, Color);
    for (const ReportedMessage &N : F.Notes)
      renderMessage(N, "note", "", OS, Color);
  }
}

} // namespace warpcheck::tool
