//===- WarpUniformity.h - values the compiler proves the same in a warp ---===//
//
// Whether the compiler can prove that an expression has one value for all
// lanes of a warp: a static divergence analysis of the source, of the kind
// nvcc's warp aggregation of atomics rests on (docs/hardware-model.md,
// "Atomics the compiler aggregates"). The interpreter knows each lane's
// value, but not whether the compiler could know they agree:
// `threadIdx.x / 32` is the same for a warp's lanes at run time and not to
// the compiler, which aggregates `atomicAdd(&c[blockIdx.x], 1)` and not
// `atomicAdd(&c[threadIdx.x / 32], 1)`.
//
// Uniform: constants, kernel parameters, blockIdx, blockDim, gridDim,
// addresses of __device__, __constant__ and __shared__ variables, warp
// votes, and what is computed from them alone; a variable is uniform when
// every assignment to it is, and none is made under a condition (or in a
// loop with an exit) that is not, unless the use is inside that same
// region. Divergent: threadIdx, the lane id, values read from memory, the
// results of atomics and of calls not seen through, a variable whose address
// is taken. A parameter of a __device__ function is what its argument is at
// the call the interpreter inlined.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_WARPUNIFORMITY_H
#define WARPCHECK_ANALYSIS_WARPUNIFORMITY_H

#include "warpcheck/model/GlobalMemory.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include "llvm/ADT/ArrayRef.h"

#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace warpcheck::analysis {

/// One call the interpreter ran inline on the way to an expression: its
/// argument ArgOffset + I binds the callee's parameter I.
struct InlinedCall {
  const clang::CallExpr *Call = nullptr;
  unsigned ArgOffset = 0;
};

class WarpUniformity {
public:
  explicit WarpUniformity(clang::ASTContext &Ctx);
  ~WarpUniformity();

  /// E's value is the same for every active lane. Calls: the inlined calls
  /// that reached E's function, innermost first.
  bool isUniform(const clang::Expr *E, llvm::ArrayRef<InlinedCall> Calls);

  /// What decides the warp aggregation of the atomic function call CE of
  /// Callee (atomicAdd, atomicCAS_block, ...).
  model::AtomicTraits atomicTraits(const clang::CallExpr *CE, const clang::FunctionDecl *Callee,
                                   llvm::ArrayRef<InlinedCall> Calls);

  /// The value of CE is used (not a statement of its own nor cast to void;
  /// through a `return`, the inlined call's value).
  bool isResultUsed(const clang::Expr *CE, llvm::ArrayRef<InlinedCall> Calls);

private:
  struct Def {
    const clang::Expr *Value; ///< null: the variable's own value updated (++, +=)
    const clang::Stmt *Site;
  };
  struct VarDefs {
    std::vector<Def> Defs;
    bool Opaque = false; ///< its address taken: assignments not seen
  };
  using FunctionDefs = std::map<const clang::VarDecl *, VarDefs>;

  bool value(const clang::Expr *E, llvm::ArrayRef<InlinedCall> Calls, const clang::Stmt *Use);
  bool storedValue(const clang::Expr *LValue, llvm::ArrayRef<InlinedCall> Calls,
                   const clang::Stmt *Use);
  bool address(const clang::Expr *LValue, llvm::ArrayRef<InlinedCall> Calls,
               const clang::Stmt *Use);
  bool variable(const clang::VarDecl *V, llvm::ArrayRef<InlinedCall> Calls, const clang::Stmt *Use);
  /// The argument that binds P at the innermost inlined call, if that call is P's.
  const clang::Expr *argumentFor(const clang::ParmVarDecl *P, llvm::ArrayRef<InlinedCall> Calls);
  bool argumentOf(const clang::ParmVarDecl *P, llvm::ArrayRef<InlinedCall> Calls, bool AsLValue);
  bool call(const clang::CallExpr *CE, llvm::ArrayRef<InlinedCall> Calls, const clang::Stmt *Use);
  /// Defs under a condition that is not uniform, or in a loop whose exits
  /// are not, make V divergent for uses outside that region.
  bool uniformControl(const clang::Stmt *Site, const clang::Stmt *Use,
                      llvm::ArrayRef<InlinedCall> Calls);
  bool loopExitsUniform(const clang::Stmt *Loop, llvm::ArrayRef<InlinedCall> Calls);
  const FunctionDefs &defsOf(const clang::FunctionDecl *F);
  const clang::Stmt *parentOf(const clang::Stmt *S);

  /// The same call is asked about once per simulated warp request.
  using CallChain = std::vector<const clang::CallExpr *>;
  static CallChain chainOf(llvm::ArrayRef<InlinedCall> Calls);

  clang::ASTContext &Ctx;
  std::map<const clang::FunctionDecl *, FunctionDefs> Defs;
  std::map<std::pair<const clang::CallExpr *, CallChain>, model::AtomicTraits> Atomics;
  /// Variables known divergent at a use, through a chain of calls (a
  /// uniform verdict may rest on an assumption made inside a cycle and is
  /// kept only when none was open).
  std::map<std::tuple<const clang::VarDecl *, CallChain, const clang::Stmt *>, bool> Variables;
  /// (variable, call depth) being decided: assumed uniform meanwhile.
  std::set<std::pair<const clang::VarDecl *, size_t>> InProgress;
  unsigned Depth = 0;
};

} // namespace warpcheck::analysis

#endif
