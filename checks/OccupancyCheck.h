//===--- OccupancyCheck.h - clang-tidy --------------------------*- C++ -*-===//
#ifndef WARPCHECK_CHECKS_OCCUPANCYCHECK_H
#define WARPCHECK_CHECKS_OCCUPANCYCHECK_H

#include "CudaCheckSupport.h"

#include "CudaKernelCheck.h"

#include <memory>
#include <string>
#include <vector>

namespace clang::tidy::cuda {

/// Finds kernel launches whose theoretical occupancy (resident warps per SM
/// over the SM's maximum, as cudaOccupancyMaxActiveBlocksPerMultiprocessor
/// computes it) is below a threshold, says which resource limits it, and
/// where registers are the lever offers __launch_bounds__ as a fix-it.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-occupancy.rst
class OccupancyCheck : public CudaKernelCheck {
public:
  OccupancyCheck(StringRef Name, ClangTidyContext *Context,
                 std::shared_ptr<CheckSessions> Sessions);
  ~OccupancyCheck() override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void onEndOfTranslationUnit() override;

private:
  void checkKernel(const FunctionDecl *Kernel, ASTContext &Ctx) override;
  void diagnoseKernel(const FunctionDecl *Kernel, ASTContext &Ctx);

  /// Theoretical occupancy, in percent, below which a launch is reported.
  const unsigned MinOccupancy;
  /// Other architectures to compare with (comma list).
  const std::string Archs;

  std::vector<const FunctionDecl *> Kernels;
};

} // namespace clang::tidy::cuda

#endif
