//===- WarpMatrix.cpp - calls of the warp matrix functions ----------------===//

#include "warpcheck/analysis/WarpMatrix.h"

#include "clang/AST/DeclTemplate.h"

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// The accumulator fragment a `nvcuda::wmma::fragment<accumulator, M, N,
/// K, T>` type describes (the toolkit's mma.h and the bundled one alike).
std::optional<model::AccumulatorFragment> accumulatorFragment(QualType T,
                                                              const ASTContext &Ctx) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getQualifiedNameAsString() != "nvcuda::wmma::fragment")
    return std::nullopt;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() < 5 || Args[0].getKind() != TemplateArgument::Type ||
      Args[4].getKind() != TemplateArgument::Type)
    return std::nullopt;
  const auto *Use = Args[0].getAsType()->getAsCXXRecordDecl();
  if (!Use || Use->getName() != "accumulator")
    return std::nullopt;
  model::AccumulatorFragment F;
  unsigned *Dims[] = {&F.M, &F.N, &F.K};
  for (unsigned I = 0; I < 3; ++I) {
    if (Args[I + 1].getKind() != TemplateArgument::Integral)
      return std::nullopt;
    *Dims[I] = static_cast<unsigned>(Args[I + 1].getAsIntegral().getZExtValue());
  }
  QualType Element = Args[4].getAsType();
  if (Element->isIncompleteType() || Element->isDependentType())
    return std::nullopt;
  F.ElementBytes = static_cast<unsigned>(Ctx.getTypeSizeInChars(Element).getQuantity());
  return F;
}

} // namespace

std::optional<WarpMatrixStore> warpMatrixStore(const CallExpr *CE, const ASTContext &Ctx) {
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || FD->getName() != "store_matrix_sync" ||
      FD->getQualifiedNameAsString() != "nvcuda::wmma::store_matrix_sync" ||
      CE->getNumArgs() != 4 || !CE->getArg(0)->getType()->isPointerType())
    return std::nullopt;
  std::optional<model::AccumulatorFragment> F =
      accumulatorFragment(CE->getArg(1)->getType(), Ctx);
  if (!F)
    return std::nullopt;
  WarpMatrixStore S;
  S.Fragment = *F;
  Expr::EvalResult R;
  // nvcuda::wmma::layout_t: mem_row_major is 0, mem_col_major 1 (mma.h).
  if (CE->getArg(3)->EvaluateAsInt(R, Ctx) && R.Val.getInt().getZExtValue() <= 1)
    S.RowMajor = R.Val.getInt().getZExtValue() == 0;
  if (CE->getArg(2)->EvaluateAsInt(R, Ctx))
    S.LeadingDimension = R.Val.getInt().getExtValue();
  return S;
}

} // namespace warpcheck::analysis
