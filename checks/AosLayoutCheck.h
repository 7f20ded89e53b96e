//===--- AosLayoutCheck.h - clang-tidy --------------------------*- C++ -*-===//
#ifndef WARPCHECK_CHECKS_AOSLAYOUTCHECK_H
#define WARPCHECK_CHECKS_AOSLAYOUTCHECK_H

#include "CudaKernelCheck.h"

#include "warpcheck/analysis/AosAccesses.h"
#include "warpcheck/analysis/SoaRewrite.h"

#include <map>
#include <memory>

namespace clang::tidy::cuda {

/// Finds arrays of structs whose fields a kernel's lanes read or write one
/// struct apart, and weighs the layout against structure of arrays and a
/// vector load per element: one warning per struct, pointer and launch.
/// Where it is safe, a note carries the structure-of-arrays rewrite of the
/// kernel's parameter as a fix-it (applied with --fix-notes: the launches
/// must change too, by hand).
///
/// For the user-facing documentation see:
/// docs/checks/cuda-aos-layout.rst
class AosLayoutCheck : public CudaKernelCheck {
public:
  AosLayoutCheck(StringRef Name, ClangTidyContext *Context,
                 std::shared_ptr<CheckSessions> Sessions);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void onEndOfTranslationUnit() override;

private:
  void checkKernel(const FunctionDecl *Kernel, ASTContext &Ctx) override;
  /// The notes of the structure-of-arrays rewrite of G's pointer, the
  /// fix-it with the first warning of each kernel parameter.
  void offerRewrite(const FunctionDecl *Kernel, const warpcheck::analysis::AosGroup &G,
                    const Expr *Access, SourceLocation WarningLoc, ASTContext &Ctx);

  /// SoA's L1 sectors over the layout's, in percent, below which a struct
  /// is reported.
  const unsigned MinEfficiency;
  /// Structs smaller than this are left alone.
  const unsigned MinStructBytes;
  /// Report layouts whose DRAM bytes equal SoA's (every field used), whose
  /// waste is in L1 sectors only.
  const bool ReportL1Only;
  /// Offer the structure-of-arrays rewrite as a fix-it on a note.
  const bool OfferSoAFix;

  // Per translation unit, reset at its end.
  std::unique_ptr<warpcheck::analysis::FunctionReferences> References;
  /// The plan of each kernel parameter, and the line of the warning its
  /// fix-it was offered with (once: clang-tidy applies none of two
  /// identical fix-its).
  std::map<const ParmVarDecl *, warpcheck::analysis::SoaRewritePlan> Plans;
  std::map<const ParmVarDecl *, unsigned> FixOfferedAtLine;
  /// The kernel whose fix-it declares each struct's view (one declaration
  /// per unit: the later fix-its use it).
  std::map<const RecordDecl *, std::string> ViewDeclaredBy;
};

} // namespace clang::tidy::cuda

#endif
