#include "Reporters.h"

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
  for (const llvm::json::Value &V : R.Findings) {
    const llvm::json::Object *F = V.getAsObject();
    if (!F)
      continue;
    renderMessage(*F, F->getString("severity").value_or("warning"),
                  F->getString("check").value_or(""), OS, Color);
    if (const llvm::json::Array *Notes = F->getArray("notes"))
      for (const llvm::json::Value &N : *Notes)
        if (const llvm::json::Object *NO = N.getAsObject())
          renderMessage(*NO, "note", "", OS, Color);
  }
}

/// A copy of O without Key. (json::Object::erase leaves a tombstone whose
/// key still owns its string; copying such an object in LLVM 19 revives the
/// key with an uninitialised value, so objects are rebuilt, never erased.)
static llvm::json::Object without(const llvm::json::Object &O, llvm::StringRef Key) {
  llvm::json::Object Out;
  for (const auto &[K, V] : O) {
    if (llvm::StringRef(K) == Key)
      continue;
    if (llvm::StringRef(K) == "notes" && V.getAsArray()) {
      llvm::json::Array Notes;
      for (const llvm::json::Value &N : *V.getAsArray())
        Notes.push_back(N.getAsObject() ? llvm::json::Value(without(*N.getAsObject(), Key))
                                        : N);
      Out[K] = std::move(Notes);
      continue;
    }
    Out[K] = V;
  }
  return Out;
}

void renderJson(const RunResult &R, llvm::raw_ostream &OS) {
  llvm::json::Array Findings;
  for (const llvm::json::Value &V : R.Findings)
    if (const llvm::json::Object *F = V.getAsObject())
      Findings.push_back(without(*F, "source_line"));
  llvm::json::Object Root{{"version", 1},
                          {"kernels", llvm::json::Array(R.Kernels)},
                          {"findings", std::move(Findings)},
                          {"errors", llvm::json::Array(R.Errors)}};
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Root))) << "\n";
}

} // namespace warpcheck::tool
