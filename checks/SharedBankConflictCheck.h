//===--- SharedBankConflictCheck.h - clang-tidy -----------------*- C++ -*-===//
#ifndef WARPCHECK_CHECKS_SHAREDBANKCONFLICTCHECK_H
#define WARPCHECK_CHECKS_SHAREDBANKCONFLICTCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::cuda {

/// Finds shared-memory accesses whose warp requests need more wavefronts
/// than their width requires (bank conflicts), and offers the smallest
/// padding of the array that removes the conflict without making any other
/// access to the array worse, verified by re-analysing the kernel.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-shared-bank-conflict.rst
class SharedBankConflictCheck : public ClangTidyCheck {
public:
  SharedBankConflictCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  /// Extra wavefronts per request (over the ideal) from which an access is
  /// reported.
  const std::string MinExtraWavefronts;
  /// Largest padding, in elements of the last dimension, that is tried.
  const unsigned MaxPadding;
  const std::string Arch;
  const std::string DefaultBlock;
  ASTContext *LastContext = nullptr;
};

} // namespace clang::tidy::cuda

#endif
