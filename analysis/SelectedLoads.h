//===- SelectedLoads.h - one load of the address a branch selects --------===//
//
// Private to analysis/. Without the compiled kernel's listing, the loads of
// a branch's two arms that the compiler makes one load of the address the
// condition selects are predicted from the source (with a listing,
// EmittedInstructions.h reads them: "selected").
//
//  if (threadIdx.x & 1)           // each arm only assigns one variable
//    v = s[threadIdx.x / 2];      // the value of a load, of one width
//  else
//    v = s[32 + threadIdx.x / 2];
//  out[threadIdx.x] = v;          // a statement after the if, in its block
//
// LLVM's SimplifyCFG sinks the two loads, identical but for their address,
// into the block after the branch, with a phi of the addresses: one LDS of
// the selected address for the lanes of both arms, whose cost neither arm
// has alone. Measured on the H200 (test/inputs/compiler-transformations.cu's
// branchArms: odd lanes word k, even lanes word 32 + k, one LDS of 2
// wavefronts, a conflict neither arm has; partitioned-loops.cu's ownedRows:
// one LDG of the row or the column the flag selects; selected-loads.cu:
// lanes 0-15 a row, 16-31 a column, one LDG of 18 sectors), where the line
// table puts the instruction on the line of the statement after the if,
// whether it uses the value or not (selected-loads.cu's storeBetween: on
// the line of an unrelated store). Loads of two widths stay two
// (selected-loads.cu's twoWidths).
// (A conditional operator whose arms are loads of one type, `v = c ? s[a] :
// s[b]`, is an lvalue that clang loads once: the simulation records it as
// one access already, conditional-lvalues.cu.)
//
// Not modelled: arms that do more than the one assignment (their loads
// stay in them), a chain of `else if`, an assignment before an `if`
// without an else, loads of two memory spaces (a generic load).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_SELECTEDLOADS_H
#define WARPCHECK_ANALYSIS_SELECTEDLOADS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>

namespace warpcheck::analysis {

/// The load of the other arm, and where the one instruction of both is.
struct SelectedLoad {
  const clang::Expr *Partner = nullptr;
  /// The if statement that branches.
  const clang::Stmt *Branch = nullptr;
  /// The line the compiler's instruction is on.
  unsigned Line = 0;
};

/// Site, a load written as an array element or a dereference, when it is
/// one arm of a branch the compiler makes one load of (the conditions
/// above); nullopt otherwise.
std::optional<SelectedLoad> selectedLoad(const clang::Expr *Site, clang::ASTContext &Ctx);

} // namespace warpcheck::analysis

#endif
