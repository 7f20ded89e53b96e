//===--- UncoalescedGlobalAccessCheck.h - clang-tidy ------------*- C++ -*-===//
#ifndef WARPCHECK_CHECKS_UNCOALESCEDGLOBALACCESSCHECK_H
#define WARPCHECK_CHECKS_UNCOALESCEDGLOBALACCESSCHECK_H

#include "CudaKernelCheck.h"

namespace clang::tidy::cuda {

/// Finds global loads, stores and atomics whose warp requests touch more
/// 32-byte sectors than the bytes they use need.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-uncoalesced-global-access.rst
class UncoalescedGlobalAccessCheck : public CudaKernelCheck {
public:
  UncoalescedGlobalAccessCheck(StringRef Name, ClangTidyContext *Context,
                               std::shared_ptr<CheckSessions> Sessions);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkKernel(const FunctionDecl *Kernel, ASTContext &Ctx) override;

  /// Sector efficiency, in percent, below which an access is reported.
  const unsigned MinEfficiency;
  /// Report contiguous accesses whose only waste is a misaligned start.
  const bool ReportMisaligned;
  /// Report gathers and scatters whose address is computed from data read
  /// at run time (no sector count is claimed for them).
  const bool ReportDataDependent;
};

} // namespace clang::tidy::cuda

#endif
