//===- AccessEmission.h - what the compiler's instructions add to a claim -===//
//
// The parts of an access's claim (KernelAnalysis.h, AccessResult) that come
// from how nvcc emits it rather than from its addresses: a struct copied in
// pieces, a value kept in a register or reused, accesses merged into wider
// instructions, and the instructions themselves, the listing's or the
// model's. analyzeKernel (KernelAnalysis.cpp) calls them for each site, in
// the order the assumptions are reported.
//
//===----------------------------------------------------------------------===//

#ifndef WARPCHECK_ANALYSIS_ACCESSEMISSION_H
#define WARPCHECK_ANALYSIS_ACCESSEMISSION_H

#include "Simulation.h"
#include "warpcheck/analysis/KernelAnalysis.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace warpcheck::analysis {

/// The assumptions of a claim that a listing or the model's reading of
/// the source makes about the instructions (whole-struct copies, values
/// kept in registers or reused, loads made before their branch, what the
/// listing leaves unexplained). Predicted says where a prediction comes
/// from ("no listing of the compiled kernel was read").
void noteEmissionAssumptions(AccessResult &A, const SiteTotals &T, clang::ASTContext &Ctx,
                             const std::string &Predicted);

/// An access nvcc is predicted to merge with others into wider
/// instructions, or may merge though its runs are not aligned: the claim
/// becomes assumed, saying which.
void noteMergedInstructions(AccessResult &A, const SiteTotals &T, clang::ASTContext &Ctx,
                            const std::string &Predicted);

/// A's instructions: the listing's, the model's merged ones, or the one
/// instruction the model places on another line than the access's (a
/// load kept before its loops, a forwarded copy, an index ending on a
/// later line, a load made before its branch). ReadOnlyPath says whether
/// a global load goes through the read-only data path (.CONSTANT).
void listInstructions(AccessResult &A, const SiteTotals &T, clang::ASTContext &Ctx,
                      llvm::function_ref<bool(const clang::Expr *)> ReadOnlyPath);

} // namespace warpcheck::analysis

#endif // WARPCHECK_ANALYSIS_ACCESSEMISSION_H
