//===- FloatOperations.h - which expressions are floating-point instructions ===//
//
// The floating-point operations a kernel executes, as nvcc emits them: an
// expression is classified as the SASS instruction it becomes (an add, a
// multiply, a fused multiply-add, of half, single or double precision), or
// as an operation whose instruction sequence is not modelled (a division,
// a square root, a transcendental function), or as none.
//
// Contraction: nvcc compiles with -fmad=true by default, and then fuses a
// multiply whose result feeds an add or a subtraction into one FMA (CUDA
// C++ Best Practices Guide, "Floating Point Math Is Not Associative";
// "Floating Point and IEEE 754", section 4.3 "Controlling Fused
// Multiply-add"; for f16, the PTX ISA's note that mul/add without a
// rounding modifier may be fused). `a * b + c`, `s += a * b` and
// `c - a * b` are one FMA each; `a * b + c * d` is one FMA and one
// multiply. The intrinsics with an explicit rounding mode (__fmul_rn,
// __fadd_rn, __hadd_rn) are never fused. A product kept in a local
// variable is fused too when every read of the variable is an add (or the
// minuend of a subtraction) in the loop the product is computed in: each
// add is an FMA and the multiply is gone, repeated in each (nvcc 13.0's PTX:
// `float t = a * b; o = t + c;` one fma.rn.f32, two such adds two; read by
// a store as well, or added in a loop the product is computed outside of,
// a mul.f32 and add.f32 stay; `c - t`, a mul.f32 and sub.f32 in the PTX
// that ptxas may still fuse, is counted as written) (docs/hardware-model.md,
// "Floating-point operations").
//
// Private to analysis/interp/.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_INTERP_FLOATOPERATIONS_H
#define WARPCHECK_ANALYSIS_INTERP_FLOATOPERATIONS_H

#include "warpcheck/model/Roofline.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <set>

namespace warpcheck::analysis::interp {

enum class FloatOpKind {
  Add, ///< add or subtract (FADD, DADD, HADD2)
  Mul, ///< FMUL, DMUL, HMUL2
  Fma, ///< FFMA, DFMA, HFMA2
  /// A division, square root or math-library function: a sequence of
  /// instructions (a reciprocal estimate refined by FMAs, a slow path)
  /// that is not counted.
  Uncounted,
};

struct FloatOp {
  FloatOpKind Kind = FloatOpKind::Add;
  model::FloatPrecision Precision = model::FloatPrecision::Single;
  /// Elements per instruction: 2 for the half2 / bfloat162 forms.
  unsigned Elements = 1;
  /// An add or a multiply the compiler may fuse (no explicit rounding).
  bool Contractible = false;
  /// The operands a fused multiply can be (the addends); at most two.
  const clang::Expr *Addends[2] = {nullptr, nullptr};
};

/// The precision of a floating-point (or half, bfloat16, half2) type, and
/// its elements; nullopt for any other type.
std::optional<std::pair<model::FloatPrecision, unsigned>> floatFormatOf(clang::QualType T);

/// What E executes as, when it is a floating-point operation: a built-in
/// operator on floating types, an operator of __half / __nv_bfloat16, or a
/// call of a CUDA intrinsic or math function (fmaf, __fmul_rn, __hfma2,
/// sqrtf, ...). Only the operation of E itself, not of its operands.
std::optional<FloatOp> floatOperationOf(const clang::Expr *E);

/// The multiplies that are fused into an add, and the adds that are FMAs,
/// in the functions analysed so far.
class Contractions {
public:
  /// Finds the contractions in FD's body (once per function).
  void analyse(const clang::FunctionDecl *FD);
  bool isFusedMultiply(const clang::Expr *E) const { return FusedMultiplies.count(E) != 0; }
  bool isFusedAdd(const clang::Expr *E) const { return FusedAdds.count(E) != 0; }

private:
  void visit(const clang::Stmt *S);
  void fuseProductVariables(const clang::FunctionDecl *FD, const clang::Stmt *Body);
  std::set<const clang::FunctionDecl *> Analysed;
  std::set<const clang::Expr *> FusedMultiplies, FusedAdds;
};

} // namespace warpcheck::analysis::interp

#endif
