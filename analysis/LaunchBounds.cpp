//===- LaunchBounds.cpp - a kernel's __launch_bounds__, from the AST ------===//

#include "warpcheck/analysis/LaunchBounds.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// A launch-bounds argument as a count: a constant from 0 to 2^31 - 1 (the
/// non-negative range of the int the CUDA runtime takes for block sizes and
/// block counts); anything else is no count.
std::optional<unsigned> evaluateCount(const Expr *E, ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || !R.Val.isInt() || R.Val.getInt().isNegative() ||
      R.Val.getInt().getActiveBits() > 31)
    return std::nullopt;
  return static_cast<unsigned>(R.Val.getInt().getZExtValue());
}

} // namespace

std::optional<LaunchBounds> launchBounds(const FunctionDecl *Kernel, ASTContext &Ctx) {
  const auto *A = Kernel ? Kernel->getAttr<CUDALaunchBoundsAttr>() : nullptr;
  if (!A)
    return std::nullopt;
  std::optional<unsigned> Threads = evaluateCount(A->getMaxThreads(), Ctx);
  if (!Threads || *Threads == 0)
    return std::nullopt;
  LaunchBounds B;
  B.MaxThreads = *Threads;
  B.MinBlocks = evaluateCount(A->getMinBlocks(), Ctx);
  B.MaxBlocksPerCluster = evaluateCount(A->getMaxBlocks(), Ctx);
  return B;
}

} // namespace warpcheck::analysis
