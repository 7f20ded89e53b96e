//===--- AosLayoutCheck.h - clang-tidy --------------------------*- C++ -*-===//
#ifndef WARPCHECK_CHECKS_AOSLAYOUTCHECK_H
#define WARPCHECK_CHECKS_AOSLAYOUTCHECK_H

#include "CudaKernelCheck.h"

namespace clang::tidy::cuda {

/// Finds arrays of structs whose fields a kernel's lanes read or write one
/// struct apart, and weighs the layout against structure of arrays and a
/// vector load per element: one warning per struct, pointer and launch.
///
/// For the user-facing documentation see:
/// docs/checks/cuda-aos-layout.rst
class AosLayoutCheck : public CudaKernelCheck {
public:
  AosLayoutCheck(StringRef Name, ClangTidyContext *Context,
                 std::shared_ptr<CheckSessions> Sessions);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkKernel(const FunctionDecl *Kernel, ASTContext &Ctx) override;

  /// SoA's L1 sectors over the layout's, in percent, below which a struct
  /// is reported.
  const unsigned MinEfficiency;
  /// Structs smaller than this are left alone.
  const unsigned MinStructBytes;
  /// Report layouts whose DRAM bytes equal SoA's (every field used), whose
  /// waste is in L1 sectors only.
  const bool ReportL1Only;
};

} // namespace clang::tidy::cuda

#endif
