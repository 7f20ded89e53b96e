//===- TextReport.cpp - clang-style text output ---------------------------===//

#include "Reporters.h"
#include "ReportSupport.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/WithColor.h"

namespace warpcheck::tool {

static void renderMessage(const llvm::json::Object &M, llvm::StringRef Severity,
                          llvm::StringRef Check, llvm::raw_ostream &OS, bool Color) {
  auto File = M.getString("file");
  auto Line = M.getInteger("line");
  auto Column = M.getInteger("column");
  if (Color)
    OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
  if (File && Line && Column)
    OS << *File << ":" << *Line << ":" << *Column << ": ";
  if (Color)
    OS.changeColor(Severity == "note" ? llvm::raw_ostream::BLACK
                   : Severity == "error" ? llvm::raw_ostream::RED
                                         : llvm::raw_ostream::MAGENTA,
                   true);
  OS << Severity << ": ";
  if (Color)
    OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
  OS << M.getString("message").value_or("");
  if (!Check.empty())
    OS << " [" << Check << "]";
  if (Color)
    OS.resetColor();
  OS << "\n";
  auto Source = M.getString("source_line");
  if (Source && Line && Column) {
    OS << llvm::format("%5d", static_cast<int>(*Line)) << " | " << *Source << "\n";
    OS << "      | ";
    // Keep tabs so the caret lines up under the source.
    for (int64_t I = 1; I < *Column && I - 1 < static_cast<int64_t>(Source->size()); ++I)
      OS << ((*Source)[I - 1] == '\t' ? '\t' : ' ');
    if (Color)
      OS.changeColor(llvm::raw_ostream::GREEN, true);
    OS << "^";
    if (Color)
      OS.resetColor();
    OS << "\n";
  }
}

void renderText(const RunResult &R, llvm::raw_ostream &OS, bool Color) {
  for (const llvm::json::Object *F : objectsIn(&R.Findings)) {
    renderMessage(*F, F->getString("severity").value_or("warning"),
                  F->getString("check").value_or(""), OS, Color);
    for (const llvm::json::Object *N : objectsIn(F->getArray("notes")))
      renderMessage(*N, "note", "", OS, Color);
  }
}

} // namespace warpcheck::tool
