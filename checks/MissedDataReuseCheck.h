//===--- MissedDataReuseCheck.h - clang-tidy --------------------*- C++ -*-===//
#ifndef WARPCHECK_CHECKS_MISSEDDATAREUSECHECK_H
#define WARPCHECK_CHECKS_MISSEDDATAREUSECHECK_H

#include "CudaKernelCheck.h"

namespace clang::tidy::cuda {

/// Finds global loads inside a loop whose elements many threads of one
/// block read (the naive matrix multiply: every thread of a row reads the
/// same elements of A), and says what staging them through a T x T
/// shared-memory tile would save: the load's global traffic divided by T,
/// and the loop's arithmetic intensity after it.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-missed-data-reuse.rst
class MissedDataReuseCheck : public CudaKernelCheck {
public:
  MissedDataReuseCheck(StringRef Name, ClangTidyContext *Context,
                       std::shared_ptr<CheckSessions> Sessions);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkKernel(const FunctionDecl *Kernel, ASTContext &Ctx) override;

  /// The fewest threads of a block that must read each element for a
  /// load to be reported.
  const unsigned MinReuse;
  /// The tile's side; 0: the number of threads of the block that read each
  /// element (the block's side for a matrix multiply).
  const unsigned TileSize;
};

} // namespace clang::tidy::cuda

#endif
