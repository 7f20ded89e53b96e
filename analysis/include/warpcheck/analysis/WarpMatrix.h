//===- WarpMatrix.h - calls of the warp matrix functions ------------------===//
//
// nvcuda::wmma::store_matrix_sync(p, fragment, ldm, layout) of an
// accumulator fragment, recognised from its call: the fragment's shape and
// element size (model/MatrixFragment.h), and the layout and leading
// dimension where they are constants. The interpreter models the stores
// (interp/WarpMatrix.cpp); the bank-conflict check suggests a leading
// dimension.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_WARPMATRIX_H
#define WARPCHECK_ANALYSIS_WARPMATRIX_H

#include "warpcheck/model/MatrixFragment.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <cstdint>
#include <optional>

namespace warpcheck::analysis {

struct WarpMatrixStore {
  model::AccumulatorFragment Fragment;
  /// The layout and the leading dimension (in elements), when constants.
  std::optional<bool> RowMajor;
  std::optional<std::int64_t> LeadingDimension;
};

/// The store of an accumulator fragment CE is, or nullopt for any other
/// call (another function, a fragment that is not an accumulator, an
/// element type whose size is not known).
std::optional<WarpMatrixStore> warpMatrixStore(const clang::CallExpr *CE,
                                               const clang::ASTContext &Ctx);

} // namespace warpcheck::analysis

#endif
