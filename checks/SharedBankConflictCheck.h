//===--- SharedBankConflictCheck.h - clang-tidy -----------------*- C++ -*-===//
#ifndef WARPCHECK_CHECKS_SHAREDBANKCONFLICTCHECK_H
#define WARPCHECK_CHECKS_SHAREDBANKCONFLICTCHECK_H

#include "CudaCheckSupport.h"

#include "CudaKernelCheck.h"

#include "warpcheck/analysis/LaunchConfig.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang::tidy::cuda {

/// Finds shared-memory accesses whose warp requests need more wavefronts
/// than their width requires (bank conflicts), and offers the smallest
/// padding of the array that removes the conflict without making any other
/// access to the array worse, verified by re-analysing the kernel.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-shared-bank-conflict.rst
class SharedBankConflictCheck : public CudaKernelCheck {
public:
  SharedBankConflictCheck(StringRef Name, ClangTidyContext *Context,
                          std::shared_ptr<CheckSessions> Sessions);
  ~SharedBankConflictCheck() override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void onEndOfTranslationUnit() override;

private:
  void checkKernel(const FunctionDecl *Kernel, ASTContext &Ctx) override;

  /// One finding, assembled while the matchers run and emitted at the end
  /// of the translation unit: the occupancy cost of a padding needs the
  /// kernel's registers, and the register estimate runs clang's code
  /// generator, which is not done while the matchers walk the AST.
  struct PendingConflict {
    SourceLocation Loc;
    std::string Message;
    std::optional<FixItHint> Fix;
    /// The padded array, its note and the bytes the padding adds.
    const VarDecl *PaddedVar = nullptr;
    /// The new last dimension: "33", "TILE + 1".
    std::string PaddedSize;
    std::string PaddingNote;
    std::uint64_t AddedBytes = 0;
    const FunctionDecl *Kernel = nullptr;
    warpcheck::analysis::LaunchConfig Launch;
    /// Further notes, in order.
    std::vector<std::pair<SourceLocation, std::string>> Notes;
  };
  /// The finding for a wide access whose extra wavefronts come from active
  /// lanes spread over its phases, no bank used twice: no padding helps.
  PendingConflict phaseSplit(const warpcheck::analysis::AccessResult &A,
                             const FunctionDecl *Kernel,
                             const warpcheck::analysis::KernelLaunchAnalysis &Launch,
                             const char *Verb, ASTContext &Ctx);
  /// "the padding costs occupancy on sm_90: ..." when the padded array lets
  /// fewer blocks of the launch reside on an SM (or none), else nullopt.
  std::optional<std::string> occupancyCostOfPadding(const PendingConflict &P, ASTContext &Ctx);

  /// Extra wavefronts per request (over the ideal) from which an access is
  /// reported.
  const std::string MinExtraWavefronts;
  /// MinExtraWavefronts as a number; 1 (the default) when the option is
  /// not a finite number >= 0 (said by a configuration diagnostic).
  double MinExtraWavefrontsValue = 1.0;
  /// Largest padding, in elements of the last dimension, that is tried.
  const unsigned MaxPadding;
  /// Reports shared accesses whose address is computed from data read at
  /// run time (a scatter by rank, a histogram's bins), without numbers.
  const bool ReportDataDependent;
  std::vector<PendingConflict> Pending;
};

} // namespace clang::tidy::cuda

#endif
