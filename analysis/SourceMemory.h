//===- SourceMemory.h - the memory an access of the source goes through ---===//
//
// Private to analysis/. What the source alone says about memory, for the
// models of what nvcc's optimizer does with it without a listing
// (RegisterPromotion.h, LoadReuse.h): which pointer parameter or array an
// access goes through, whether two of them may be the same memory, and
// which calls touch no memory at all. The rules are those LLVM's alias
// analysis can prove from the kernel's declarations: distinct arrays of the
// function's own (local, __shared__) never overlap each other nor a pointer
// parameter; two pointer parameters may overlap unless one is __restrict__.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_SOURCEMEMORY_H
#define WARPCHECK_ANALYSIS_SOURCEMEMORY_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <vector>

namespace warpcheck::analysis {

/// The pointer parameter Base names (through casts and parentheses), or
/// null.
const clang::ParmVarDecl *pointerParameter(const clang::Expr *Base);

/// Whether the lvalue E names memory: an element, a field of one, or what
/// a pointer points to (through `*` or `->`).
bool namesMemory(const clang::Expr *E);

/// Whether the local Var is written anywhere in its function after its
/// declaration (assigned, incremented, its address taken).
bool writtenAfterDeclaration(const clang::VarDecl *Var);

/// The pointer parameter an access's Base goes through: named (`in[i]`), or
/// through a local pointer initialized from it and never written after
/// (`const float *row = in + r * n; row[k]`), which LLVM's alias analysis
/// sees through as well; null otherwise.
const clang::ParmVarDecl *pointerParameterThrough(const clang::Expr *Base);

/// An array declared in the function (local or __shared__).
bool ownArray(const clang::Expr *Base);

bool isRestrict(const clang::ParmVarDecl *P);

/// A call the memory around it does not see: its arguments are values (no
/// pointer, no reference) and its callee is a vector constructor of the
/// CUDA headers (make_float4 ...) or a function of the program whose body
/// touches no memory (an index helper, say).
bool isPureCall(const clang::CallExpr *Call, unsigned Depth = 0);

/// Whether S (a function's body) touches no memory: no element, no
/// dereference, no member through a pointer, no inline assembly, and no
/// call but to such functions (Depth bounds the chain).
bool touchesNoMemory(const clang::Stmt *S, unsigned Depth);

/// The line where nvcc's line table puts a load it moved to another block
/// and whose source location LLVM dropped (a load hoisted before its loop
/// or before a branch): that of the instruction before it, its address's
/// computation, which is the line of the local variable Access's address
/// names that was declared last before Before (`int i = ...`); 0 when it
/// names none. Measured: RegisterPromotion.h, LoadReuse.h.
unsigned addressComputationLine(const clang::Expr *Access, clang::SourceLocation Before,
                                const clang::SourceManager &SM);

/// The line nvcc's line table gives an element access written over
/// several lines, when it is not the line the access starts on: the line
/// where its index ends. nvdisasm -gi of nvcc 13 -O3 -arch=sm_90 for
/// test/inputs/multi-line-accesses.cu, every load and store: `in[i * 32 +`
/// / `k]` on the second line, `in[i * 32 +` / `k` / `]` on the line of `k`
/// (not the `]`'s), `in` / `[i * 32]` on the second, `in[i * 32` / `+ k]`
/// on the second; a compound assignment's load and store alike. Measured on
/// the H200 (test/hw/realcode): SHOC sort's `offsets[threadIdx.x *
/// totalBlocks +` / `blockId]` and SGEMM_CUDA's `reinterpret_cast<float4
/// *>(` / `&C[...])[0]`, counted on their second lines. nullopt for an
/// access on one line, or not an element of an array or pointer.
std::optional<unsigned> indexEndLine(const clang::Expr *Access, const clang::SourceManager &SM);

/// The line of the last statement of Body that ends before Before and
/// orders memory: a store (to an element, through a pointer), or a call
/// that is not pure (a barrier, an atomic, a function that touches
/// memory); 0 when there is none. Whether a load the compiler moves before
/// a loop is scheduled above such a statement is ptxas's choice
/// (RegisterPromotion.h, KeptAccess::ScheduledAfter).
unsigned lastOrderingLine(const clang::Stmt *Body, clang::SourceLocation Before,
                          const clang::SourceManager &SM);
/// The same, in two steps: Body's statements that order memory (one walk,
/// kept for all the loops of a kernel), then the last of them before
/// Before.
std::vector<const clang::Stmt *> orderingStatements(const clang::Stmt *Body);
unsigned lastOrderingLine(const std::vector<const clang::Stmt *> &Ordering,
                          clang::SourceLocation Before, const clang::SourceManager &SM);

/// Whether nvcc reads Access (a global load) with the read-only data path,
/// LDG.E.CONSTANT: through a pointer parameter to const that the kernel
/// never writes through, in a kernel that writes global memory only
/// through __restrict__ pointer parameters (at least once). Measured on the
/// H200, every LDG of test/hw/sass/ and test/hw/generated/sass/: the
/// CONSTANT loads are those of accumulateRestrict, hoisted-loads.cu's
/// `const float *in` beside `float *__restrict__ out`, index-engine.cu's
/// readOnlyPaths (its `const float *in2` too), load-reuse.cu's restrict
/// kernels; a kernel with a plain pointer written (hoisted-loads.cu's
/// mayBeWritten, every generated program) reads them all with LDG.E. Only
/// the opcode's name differs: the cost is the same.
bool readThroughConstantPath(const clang::Expr *Access, const clang::FunctionDecl *Kernel);

/// The kernel-wide half of readThroughConstantPath, made once per kernel
/// (one walk of its body, each local pointer's assignments looked up once)
/// and asked for each load.
struct KernelMemoryWrites {
  /// Every write to memory other than the kernel's own, __shared__ or
  /// dynamic shared arrays goes through a __restrict__ pointer parameter,
  /// no call may write elsewhere, and there is at least one.
  bool OnlyThroughRestrict = false;
  /// The pointer parameters written through.
  std::vector<const clang::ParmVarDecl *> Written;
};
KernelMemoryWrites memoryWritesOf(const clang::FunctionDecl *Kernel);
bool readThroughConstantPath(const clang::Expr *Access, const KernelMemoryWrites &Writes);

/// The memory an lvalue's address starts from, as far as declarations
/// tell: a pointer parameter, a variable (an array of the function's own,
/// a __shared__ or __device__ variable), or nothing known.
struct MemoryRoot {
  enum Kind { Unknown, Parameter, Variable, DynamicShared } K = Unknown;
  const clang::VarDecl *Decl = nullptr;
  bool operator==(const MemoryRoot &O) const { return K == O.K && Decl == O.Decl; }
};

/// The root of the lvalue E (`a[i]`, `p->f`, `*p`, `s.f`): a local pointer
/// that Unassigned says is never assigned after its declaration is read
/// through to its initializer (`const float *row = in + r * n`, root `in`).
template <typename Pred>
MemoryRoot memoryRootOf(const clang::Expr *E, Pred Unassigned, unsigned Depth = 0);

/// Whether a store through one root may write memory read through the
/// other.
bool mayAlias(const MemoryRoot &A, const MemoryRoot &B);

// ---------------------------------------------------------------------------

template <typename Pred>
MemoryRoot memoryRootOf(const clang::Expr *E, Pred Unassigned, unsigned Depth) {
  using namespace clang;
  MemoryRoot None;
  if (!E || Depth > 8)
    return None;
  E = E->IgnoreParenCasts();
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return memoryRootOf(A->getBase(), Unassigned, Depth + 1);
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return memoryRootOf(M->getBase(), Unassigned, Depth + 1);
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf)
      return memoryRootOf(U->getSubExpr(), Unassigned, Depth + 1);
    return None;
  }
  // Pointer arithmetic: the pointer's side.
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAdditiveOp()) {
    if (B->getLHS()->getType()->isPointerType())
      return memoryRootOf(B->getLHS(), Unassigned, Depth + 1);
    if (B->getRHS()->getType()->isPointerType())
      return memoryRootOf(B->getRHS(), Unassigned, Depth + 1);
    return None;
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V)
    return None;
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    return P->getType()->isPointerType() ? MemoryRoot{MemoryRoot::Parameter, P} : None;
  if (V->getType()->isPointerType() || V->getType()->isReferenceType()) {
    if (V->hasLocalStorage() && V->getType()->isPointerType() && V->getInit() &&
        Unassigned(V))
      return memoryRootOf(V->getInit(), Unassigned, Depth + 1);
    return None;
  }
  // Every `extern __shared__` array starts at the block's dynamic shared
  // memory: they are one memory.
  if (V->hasExternalStorage() && V->getType()->isIncompleteArrayType())
    return {MemoryRoot::DynamicShared, nullptr};
  // An array or object of the function's own, or a __shared__ or
  // __device__ variable.
  return {MemoryRoot::Variable, V};
}

} // namespace warpcheck::analysis

#endif
