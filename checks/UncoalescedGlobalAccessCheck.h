//===--- UncoalescedGlobalAccessCheck.h - clang-tidy ------------*- C++ -*-===//
#ifndef WARPCHECK_CHECKS_UNCOALESCEDGLOBALACCESSCHECK_H
#define WARPCHECK_CHECKS_UNCOALESCEDGLOBALACCESSCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::cuda {

/// Finds global loads, stores and atomics whose warp requests touch more
/// 32-byte sectors than the bytes they use need.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-uncoalesced-global-access.rst
class UncoalescedGlobalAccessCheck : public ClangTidyCheck {
public:
  UncoalescedGlobalAccessCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  /// Sector efficiency, in percent, below which an access is reported.
  const unsigned MinEfficiency;
  /// Report contiguous accesses whose only waste is a misaligned start.
  const bool ReportMisaligned;
  const std::string Arch;
  const std::string DefaultBlock;
  ASTContext *LastContext = nullptr;
};

} // namespace clang::tidy::cuda

#endif
