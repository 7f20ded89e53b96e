//===- KernelAnnotations.h - `// warpcheck:` comments above kernels --------===//
//
// A kernel whose launches cannot be evaluated may be given its launch
// shape by a comment directly above it:
//
//   // warpcheck: block(32, 8) grid(64, 64) shared(8192)
//
// grid and shared (the launch's dynamic shared memory, in bytes) are
// optional. An annotation is its own kernel's only, and one that is not
// understood is a problem to report, never skipped for an older one.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_KERNELANNOTATIONS_H
#define WARPCHECK_ANALYSIS_KERNELANNOTATIONS_H

#include "warpcheck/analysis/LaunchConfig.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <optional>
#include <string>

namespace warpcheck::analysis {

/// What a `// warpcheck:` annotation above a kernel says, or why it says
/// nothing usable.
struct KernelAnnotation {
  /// The shape it gives (Source: LaunchSource::Annotation); none when there
  /// is no annotation or it is not understood.
  std::optional<LaunchConfig> Config;
  /// "the annotation at k.cu:3 is not understood: ..."; empty when none.
  std::string Problem;
  /// The line of an annotation that is not understood.
  clang::SourceLocation Where;
};

/// The annotation in the comment lines directly above \p Kernel (or its
/// template header), at most ten lines up; only comment lines are read, so
/// an annotation above other code (the previous kernel's) is not this
/// kernel's.
KernelAnnotation annotationFor(const clang::FunctionDecl *Kernel, clang::ASTContext &Ctx);

} // namespace warpcheck::analysis

#endif
