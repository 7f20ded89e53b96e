//===- DeclaredVariables.h - the variables a declaration statement declares ===//
//
// A DeclStmt holds every declaration of one statement, typedefs, records
// and static_asserts included; the warp interpreter and the host evaluator
// declare, and their loop and place analyses collect, only its variables.
// Private to analysis/.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_DECLAREDVARIABLES_H
#define WARPCHECK_ANALYSIS_DECLAREDVARIABLES_H

#include "clang/AST/Stmt.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/SmallVector.h"

namespace warpcheck::analysis {

/// The variables DS declares, in source order.
inline llvm::SmallVector<const clang::VarDecl *, 4>
declaredVariables(const clang::DeclStmt *DS) {
  llvm::SmallVector<const clang::VarDecl *, 4> Vars;
  for (const clang::Decl *D : DS->decls())
    if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(D))
      Vars.push_back(VD);
  return Vars;
}

} // namespace warpcheck::analysis

#endif
