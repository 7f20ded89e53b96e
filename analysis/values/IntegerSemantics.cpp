//===- IntegerSemantics.cpp - C++ integer arithmetic at a type's width ----===//

#include "IntegerSemantics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Type.h"

using namespace clang;

namespace warpcheck::analysis::values {

std::uint64_t IntegerType::normalize(std::uint64_t Bits) const {
  if (K == Bool)
    return Bits != 0;
  if (K != Integer || Width >= 64 || Width == 0)
    return Bits;
  std::uint64_t Mask = (std::uint64_t(1) << Width) - 1;
  Bits &= Mask;
  if (Signed && (Bits >> (Width - 1)) & 1u)
    Bits |= ~Mask;
  return Bits;
}

__int128 IntegerType::minimum() const {
  if (K == Bool || !Signed || Width == 0 || Width > 64)
    return 0;
  return -(__int128(1) << (Width - 1));
}

__int128 IntegerType::maximum() const {
  if (K == Bool)
    return 1;
  if (Width == 0 || Width > 64)
    return (__int128(1) << 64) - 1;
  return Signed ? (__int128(1) << (Width - 1)) - 1 : (__int128(1) << Width) - 1;
}

bool IntegerType::represents(__int128 Exact) const {
  return Exact >= minimum() && Exact <= maximum();
}

IntegerType integerTypeOf(QualType T, const ASTContext &Ctx) {
  if (T.isNull())
    return IntegerType{};
  T = T.getCanonicalType();
  if (T->isBooleanType())
    return IntegerType::boolean();
  if (!T->isIntegralOrEnumerationType() || T->isDependentType())
    return IntegerType{};
  const auto *ET = T->getAs<EnumType>();
  if (ET && !ET->getDecl()->isComplete())
    return IntegerType{};
  return IntegerType::integer(Ctx.getIntWidth(T), T->isSignedIntegerOrEnumerationType());
}

const char *describe(Undefined U) {
  switch (U) {
  case Undefined::None:
    return "no undefined behaviour";
  case Undefined::SignedOverflow:
    return "signed overflow";
  case Undefined::DivisionByZero:
    return "division by zero";
  case Undefined::ShiftCount:
    return "a shift count out of range";
  }
  return "undefined behaviour";
}

namespace {

/// The signed value of bits normalised to a signed type.
std::int64_t asSigned(std::uint64_t Bits) { return static_cast<std::int64_t>(Bits); }

/// Signed overflow of an exact result at the operand's width.
Undefined overflowOf(__int128 Exact, IntegerType Operand) {
  if (Operand.K != IntegerType::Integer || !Operand.Signed || Operand.Width == 0 ||
      Operand.Width > 64)
    return Undefined::None;
  return Operand.represents(Exact) ? Undefined::None : Undefined::SignedOverflow;
}

} // namespace

IntegerResult binary(BinaryOperatorKind Op, std::uint64_t X, std::uint64_t Y,
                     IntegerType Operand, IntegerType Result) {
  IntegerResult R;
  bool Signed = Operand.K == IntegerType::Integer && Operand.Signed;
  std::int64_t SX = asSigned(X), SY = asSigned(Y);
  std::uint64_t V = 0;
  switch (Op) {
  case BO_Add:
    V = X + Y;
    if (Signed)
      R.UB = overflowOf(__int128(SX) + SY, Operand);
    break;
  case BO_Sub:
    V = X - Y;
    if (Signed)
      R.UB = overflowOf(__int128(SX) - SY, Operand);
    break;
  case BO_Mul:
    V = X * Y;
    if (Signed)
      R.UB = overflowOf(__int128(SX) * SY, Operand);
    break;
  case BO_Div:
  case BO_Rem:
    if (Y == 0) {
      R.UB = Undefined::DivisionByZero;
      return R;
    }
    if (Signed && SY == -1) {
      // The quotient of the most negative value does not fit (and traps
      // on x86 at 64 bits): its two's-complement wrap is the value itself.
      V = Op == BO_Div ? 0 - X : 0;
      if (__int128(SX) == Operand.minimum())
        R.UB = Undefined::SignedOverflow;
      break;
    }
    if (Op == BO_Div)
      V = Signed ? static_cast<std::uint64_t>(SX / SY) : X / Y;
    else
      V = Signed ? static_cast<std::uint64_t>(SX % SY) : X % Y;
    break;
  case BO_Shl:
  case BO_Shr: {
    // Y is the count's bits: a negative count of a signed type is a huge
    // unsigned one, out of range either way.
    unsigned W = Operand.K == IntegerType::Integer ? Operand.Width : 64;
    if (W == 0 || W > 64)
      W = 64;
    if (Y >= W)
      R.UB = Undefined::ShiftCount;
    if (Y >= 64)
      return R;
    if (Op == BO_Shl)
      V = X << Y;
    else
      V = Signed ? static_cast<std::uint64_t>(SX >> Y) : X >> Y;
    break;
  }
  case BO_And:
    V = X & Y;
    break;
  case BO_Or:
    V = X | Y;
    break;
  case BO_Xor:
    V = X ^ Y;
    break;
  case BO_LT:
    V = Signed ? SX < SY : X < Y;
    break;
  case BO_GT:
    V = Signed ? SX > SY : X > Y;
    break;
  case BO_LE:
    V = Signed ? SX <= SY : X <= Y;
    break;
  case BO_GE:
    V = Signed ? SX >= SY : X >= Y;
    break;
  case BO_EQ:
    V = X == Y;
    break;
  case BO_NE:
    V = X != Y;
    break;
  default:
    return R; // not integer arithmetic (comma, assignment, member pointers)
  }
  R.Bits = Result.normalize(V);
  return R;
}

IntegerResult unary(UnaryOperatorKind Op, std::uint64_t X, IntegerType Operand,
                    IntegerType Result) {
  IntegerResult R;
  std::uint64_t V;
  switch (Op) {
  case UO_Minus:
    V = 0 - X;
    if (Operand.K == IntegerType::Integer && Operand.Signed)
      R.UB = overflowOf(-__int128(asSigned(X)), Operand);
    break;
  case UO_Plus:
    V = X;
    break;
  case UO_Not:
    V = ~X;
    break;
  case UO_LNot:
    V = X == 0;
    break;
  default:
    return R;
  }
  R.Bits = Result.normalize(V);
  return R;
}

IntegerResult increment(std::uint64_t X, IntegerType T, bool Increment) {
  if (T.K == IntegerType::Integer && T.Width < 32) {
    // Promoted to int, where it cannot overflow; the conversion back
    // truncates.
    IntegerResult R;
    R.Bits = T.normalize(Increment ? X + 1 : X - 1);
    return R;
  }
  if (T.K == IntegerType::Bool) {
    // ++ on a bool is gone since C++17; what older code meant: true.
    IntegerResult R;
    R.Bits = Increment ? 1 : T.normalize(X - 1);
    return R;
  }
  return binary(Increment ? BO_Add : BO_Sub, X, 1, T, T);
}

std::uint64_t convert(std::uint64_t Bits, IntegerType To, bool BooleanToSigned) {
  if (BooleanToSigned)
    Bits = Bits ? ~std::uint64_t(0) : 0;
  return To.normalize(Bits);
}

} // namespace warpcheck::analysis::values
