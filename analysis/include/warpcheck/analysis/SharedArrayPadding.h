//===- SharedArrayPadding.h - the padding that removes a bank conflict ----===//
//
// A 2-D __shared__ tile read down a column puts every lane of a warp in one
// bank when its row is a multiple of 32 words long (32 banks of 4 bytes on
// every architecture since sm_50: CUDA C++ Programming Guide, "Shared
// Memory"). Padding each row by a few elements spreads the column over the
// banks. Which padding works is not guessed: each candidate layout is
// simulated again (AnalysisOptions::LayoutOverrides), and the smallest one
// under which the conflicting access needs no more wavefronts than its
// ideal, and no access to the array in any launch needs more than before,
// is the answer. cuda-shared-bank-conflict turns it into a message and a
// fix-it.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_SHAREDARRAYPADDING_H
#define WARPCHECK_ANALYSIS_SHAREDARRAYPADDING_H

#include "warpcheck/analysis/AccessReport.h"
#include "warpcheck/analysis/ArrayLayout.h"
#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/model/Arch.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::analysis {

class TranslationUnitSession;

/// Dimensions of a constant array type, outermost first, and its element
/// size; nullopt for anything else (or an incomplete element type).
std::optional<ArrayLayout> arrayLayoutOf(clang::QualType T, clang::ASTContext &Ctx);
/// Rows of an array: the product of every dimension but the last.
std::uint64_t rowsOf(const ArrayLayout &L);
/// Bytes of the whole array.
std::uint64_t arrayBytes(const ArrayLayout &L);

/// Why the layout of Var (of Rank dimensions) may not be changed, or empty
/// when every use of it is a full subscript `a[i][j]` (the only use a
/// padded row keeps meaning; the address of an element may be handed to an
/// atomic function, which reads that element alone).
std::string layoutDependentUse(const clang::VarDecl *Var, clang::ASTContext &Ctx,
                               unsigned Rank);

/// A bank conflict whose array may be padded.
struct PaddingQuestion {
  const clang::FunctionDecl *Kernel = nullptr;
  /// The options the conflict was found with, and the kernel's launches
  /// under them.
  AnalysisOptions Options;
  const std::vector<KernelLaunchAnalysis> *Launches = nullptr;
  /// The conflicting access, in (*Launches)[LaunchIndex].
  std::size_t LaunchIndex = 0;
  const AccessResult *Conflict = nullptr;
  /// The array (Conflict's shared variable) and its layout, 2-D or more.
  const clang::VarDecl *Var = nullptr;
  ArrayLayout Layout;
  /// Largest padding tried, in elements of the last dimension.
  unsigned MaxPadding = 32;
  /// The target, whose cap on static shared memory a padding must respect;
  /// null: no cap.
  const model::ArchSpec *Arch = nullptr;
};

struct PaddingAnswer {
  /// Elements added to the last dimension; nullopt when none works.
  std::optional<unsigned> Elements;
  /// Bytes the padding adds to the array.
  std::uint64_t AddedBytes = 0;
  /// Why no padding is offered, when none is.
  std::string WhyNone;
};

/// The smallest padding of Q.Var's last dimension, 1 to Q.MaxPadding
/// elements, under which Q.Conflict is conflict-free and no access to Q.Var
/// got worse; each candidate is simulated afresh through Session.
PaddingAnswer findConflictFreePadding(TranslationUnitSession &Session,
                                      const PaddingQuestion &Q);

} // namespace warpcheck::analysis

#endif
