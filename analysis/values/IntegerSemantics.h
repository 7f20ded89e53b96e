//===- IntegerSemantics.h - C++ integer arithmetic at a type's width -*- C++ -*-===//
//
// The one integer semantics of the analysis: the warp interpreter (device
// code, per lane) and the host evaluator (launch shapes) both compute
// integers here. A value is the bit pattern of its C++ type, normalised to
// 64 bits (sign-extended for a signed type, zero-extended for an unsigned
// one, 0 or 1 for bool); every operation is the C++ operation on the
// operands' type after the usual arithmetic conversions (which clang has
// already made explicit as casts), its result converted to the result type.
// What C++ leaves undefined is said, not hidden: signed overflow of +, -,
// * and unary -, INT_MIN / -1 and INT_MIN % -1, division by zero, and
// shift counts that are negative or not below the width. What a caller
// does with an undefined result is its own policy (the host evaluator
// takes no value from it; the warp interpreter notes the sampled values as
// implausible and goes on with the two's-complement value).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_VALUES_INTEGERSEMANTICS_H
#define WARPCHECK_ANALYSIS_VALUES_INTEGERSEMANTICS_H

#include "clang/AST/OperationKinds.h"

#include <cstdint>
#include <optional>

namespace clang {
class ASTContext;
class QualType;
} // namespace clang

namespace warpcheck::analysis::values {

/// How a C++ type holds an integer.
struct IntegerType {
  enum Kind : std::uint8_t {
    NotInteger, ///< not an integer type (pointer, floating point): bits kept as they are
    Bool,       ///< bool: 0 or 1
    Integer,    ///< an integer or enumeration type of Width bits
  };
  Kind K = NotInteger;
  unsigned Width = 64;
  bool Signed = false;

  static IntegerType integer(unsigned Width, bool Signed) {
    return IntegerType{Integer, Width, Signed};
  }
  static IntegerType boolean() { return IntegerType{Bool, 1, false}; }
  bool isInteger() const { return K != NotInteger; }

  /// Bits converted to this type: truncated to the width, then sign- or
  /// zero-extended to 64 bits; any non-zero value is 1 for bool.
  std::uint64_t normalize(std::uint64_t Bits) const;
  /// The smallest and largest values of a signed type of this width.
  __int128 minimum() const;
  __int128 maximum() const;
  /// Whether an exact result is a value of this type.
  bool represents(__int128 Exact) const;
};

/// The integer type of T (an enumeration's underlying width and sign); a
/// type that is not an integer gives NotInteger.
IntegerType integerTypeOf(clang::QualType T, const clang::ASTContext &Ctx);

/// What C++ leaves undefined in an integer operation.
enum class Undefined : std::uint8_t {
  None,
  SignedOverflow, ///< the exact result is outside the signed type (+, -, *, unary -, MIN / -1)
  DivisionByZero, ///< x / 0 and x % 0
  ShiftCount,     ///< a shift count that is negative or not below the width
};

/// "signed overflow", "division by zero", "a shift count out of range".
const char *describe(Undefined U);

/// The result of one integer operation.
struct IntegerResult {
  /// The result's bits, normalised to the result type. Set alongside an
  /// undefined operation where two's-complement 64-bit arithmetic gives one
  /// (signed overflow wraps, a shift count below 64 shifts); unset where
  /// no value exists (division by zero, a shift of 64 or more), or for an
  /// operator that is not integer arithmetic.
  std::optional<std::uint64_t> Bits;
  Undefined UB = Undefined::None;

  /// The bits of a defined result only.
  std::optional<std::uint64_t> defined() const {
    return UB == Undefined::None ? Bits : std::nullopt;
  }
};

/// X op Y, both normalised to Operand (for a shift: the promoted left
/// operand's type; for a comparison: the common type), the result
/// converted to Result. The operators: + - * / % << >> & | ^ < > <= >= == !=.
IntegerResult binary(clang::BinaryOperatorKind Op, std::uint64_t X, std::uint64_t Y,
                     IntegerType Operand, IntegerType Result);

/// -X, ~X, !X and +X for X normalised to Operand (the promoted type),
/// the result converted to Result.
IntegerResult unary(clang::UnaryOperatorKind Op, std::uint64_t X, IntegerType Operand,
                    IntegerType Result);

/// ++X and --X on a variable of type T: computed in the promoted type
/// (int for narrower types, which then truncate back without undefined
/// behaviour), so only a type of int's width or wider can overflow.
IntegerResult increment(std::uint64_t X, IntegerType T, bool Increment);

/// A value converted to another integer type (an integral cast, a
/// conversion to bool); `BooleanToSigned` is clang's conversion of a vector
/// bool to a signed integer, where true is -1.
std::uint64_t convert(std::uint64_t Bits, IntegerType To, bool BooleanToSigned = false);

/// The bits of an integer value of type T given as a C++ integer.
inline std::uint64_t fromSigned(std::int64_t V, IntegerType T) {
  return T.normalize(static_cast<std::uint64_t>(V));
}

} // namespace warpcheck::analysis::values

#endif
