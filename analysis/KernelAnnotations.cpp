//===- KernelAnnotations.cpp - `// warpcheck:` comments above kernels ----===//
//
// KernelAnnotations.h: reading the comment lines above a kernel and
// parsing `block(...) grid(...) shared(...)`.
//
//===----------------------------------------------------------------------===//

#include "KernelAnnotations.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <cstdint>

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// One key of an annotation: `block(32, 8)`, `grid=(64, 64)`, `shared(8192)`.
std::string parseAnnotationText(llvm::StringRef Spec, LaunchConfig &C) {
  Spec = Spec.trim();
  Spec.consume_back("*/");
  Spec = Spec.rtrim();
  bool SawBlock = false, SawGrid = false, SawShared = false;
  while (!Spec.empty()) {
    llvm::StringRef Key = Spec.take_while([](char Ch) { return llvm::isAlpha(Ch); });
    Spec = Spec.drop_front(Key.size()).ltrim();
    if (Key != "block" && Key != "grid" && Key != "shared")
      return Key.empty() ? "expected a key at '" + Spec.str() + "'"
                         : "unknown key '" + Key.str() + "'";
    bool &Seen = Key == "block" ? SawBlock : Key == "grid" ? SawGrid : SawShared;
    if (Seen)
      return "'" + Key.str() + "' given twice";
    Seen = true;
    if (Spec.consume_front("="))
      Spec = Spec.ltrim();
    if (!Spec.consume_front("("))
      return "expected '(' after '" + Key.str() + "'";
    size_t Close = Spec.find(')');
    if (Close == llvm::StringRef::npos)
      return "no ')' after '" + Key.str() + "('";
    llvm::StringRef Args = Spec.take_front(Close).trim();
    Spec = Spec.drop_front(Close + 1).ltrim();
    Spec.consume_front(",");
    Spec = Spec.ltrim();
    if (Key == "shared") {
      // The dynamic shared memory of the launch, in bytes (the third
      // <<<>>> argument).
      std::uint64_t Bytes = 0;
      if (Args.getAsInteger(10, Bytes))
        return "shared(" + Args.str() + ") is not a number of bytes";
      C.DynamicSharedBytes = Bytes;
      continue;
    }
    std::optional<Dim3> D = parseDim3(Args);
    if (!D)
      return Key.str() + "(" + Args.str() + ") is not 1 to 3 positive extents";
    if (Key == "block") {
      C.Block = *D;
    } else {
      C.Grid = *D;
      C.GridKnown = true;
    }
  }
  if (!SawBlock)
    return "it gives no block(x, y, z)";
  return "";
}

} // namespace

/// `// warpcheck: block(32, 8) grid(64, 64) shared(8192)` in the comment
/// lines directly above the kernel (or its template header), at most ten;
/// grid and shared (the dynamic shared memory, bytes) are optional. Only
/// comment lines are read: an annotation above other code (the previous
/// kernel's) is not this kernel's, and one that is not understood is a
/// problem to report, never skipped for an older one.
KernelAnnotation annotationFor(const FunctionDecl *Kernel, ASTContext &Ctx) {
  KernelAnnotation Out;
  const SourceManager &SM = Ctx.getSourceManager();
  const Decl *Outer = Kernel;
  if (const FunctionTemplateDecl *T = Kernel->getPrimaryTemplate())
    Outer = T;
  else if (const FunctionTemplateDecl *T = Kernel->getDescribedFunctionTemplate())
    Outer = T;
  SourceLocation Begin = SM.getFileLoc(Outer->getBeginLoc());
  if (Begin.isInvalid())
    return Out;
  FileID File = SM.getFileID(Begin);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return Out;
  unsigned Line = SM.getSpellingLineNumber(Begin);
  for (unsigned L = Line - 1; L >= 1 && L + 10 >= Line; --L) {
    SourceLocation LineStart = SM.translateLineCol(File, L, 1);
    llvm::StringRef Text = Buffer.substr(SM.getFileOffset(LineStart))
                               .take_until([](char C) { return C == '\n'; })
                               .trim();
    if (Text.empty())
      continue;
    if (!Text.consume_front("//") && !Text.consume_front("/*") && !Text.consume_front("*"))
      break; // code: what is above belongs to something else
    Text = Text.ltrim();
    if (!Text.consume_front("warpcheck:"))
      continue;
    PresumedLoc P = SM.getPresumedLoc(LineStart);
    std::string Location =
        llvm::sys::path::filename(P.getFilename()).str() + ":" + std::to_string(P.getLine());
    LaunchConfig C;
    if (std::string Why = parseAnnotationText(Text, C); !Why.empty()) {
      Out.Problem = "the annotation at " + Location + " is not understood (" + Why +
                    "); expected block(x[, y[, z]]) [grid(x[, y[, z]])] [shared(bytes)]";
      Out.Where = LineStart;
      return Out;
    }
    C.Source = LaunchSource::Annotation;
    C.Location = Location;
    C.Description = "the annotation at " + C.Location;
    Out.Config = std::move(C);
    return Out;
  }
  return Out;
}

} // namespace warpcheck::analysis
