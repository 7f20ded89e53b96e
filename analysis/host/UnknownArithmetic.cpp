//===- UnknownArithmetic.cpp - what arithmetic keeps known of an unknown --===//
//
// Host code rounds the sizes it reads at run time before it passes them to
// a kernel: `size - size % 512` (transpose's FLOOR), `iAlignUp(width)`
// (`n + m - n % m`, or n itself where `n % m` is 0: HSOpticalFlow's
// stride), `(n + 31) / 32 * 32`, `n & ~31`, `rows << 4`, a pitch
// cudaMallocPitch gives. Whatever the value, it is then a multiple of a
// known number, which decides a row's alignment and so the sectors each
// warp touches: the value sweep tries only such values
// (LaunchConfig.h, BoundArgument::Multiple). These rules are what the C++
// semantics of integer arithmetic guarantee for every value of the unknown
// operand: a product is a multiple of each factor; `x - x % m` is
// `(x / m) * m` exactly (C++ [expr.mul]/4: `(a/b)*b + a%b == a`), negative
// x included; a sum of multiples of a and b is one of gcd(a, b). Wrapping
// past the width of an unsigned type keeps a multiple of a power of two a
// multiple; other multiples are kept as if the value did not wrap (sizes
// do not).
//
//===----------------------------------------------------------------------===//

#include "HostValue.h"

#include "llvm/ADT/bit.h"

#include <cstdlib>
#include <numeric>

namespace warpcheck::analysis::host {

using namespace clang;

namespace {

/// Multiples past this are not followed (a product of sizes).
constexpr std::uint64_t LargestMultiple = std::uint64_t(1) << 40;

std::int64_t signedValue(const HostValue &V) { return static_cast<std::int64_t>(V.Bits); }

std::uint64_t magnitude(std::int64_t X) {
  return X < 0 ? 0 - static_cast<std::uint64_t>(X) : static_cast<std::uint64_t>(X);
}

/// The number V is known to be a multiple of: an integer's magnitude (0,
/// a multiple of every number), an unknown's Multiple, else 1.
std::uint64_t multipleOf(const HostValue &V) {
  if (V.K == HostValue::Int)
    return magnitude(signedValue(V));
  return !V.Modulus && V.Multiple ? V.Multiple : 1;
}

/// A multiple worth keeping: more than 1, not past LargestMultiple.
std::uint64_t kept(std::uint64_t M) { return M > 1 && M <= LargestMultiple ? M : 0; }

/// Whether V is an unknown quantity plus an offset (not a remainder).
bool isOffsetQuantity(const HostValue &V) {
  return V.K == HostValue::Unknown && V.Atom && !V.Modulus;
}

} // namespace

HostValue unknownArithmetic(BinaryOperatorKind Op, const HostValue &L, const HostValue &R) {
  bool LeftUnknown = L.K == HostValue::Unknown;
  const HostValue &U = LeftUnknown ? L : R;
  const HostValue &Other = LeftUnknown ? R : L;
  if (Other.K != HostValue::Int && Other.K != HostValue::Unknown)
    return HostValue::unknown("");
  bool OtherInt = Other.K == HostValue::Int;
  HostValue Result = U;
  Result.Multiple = 0;
  Result.Atom = 0;
  Result.Offset = 0;
  Result.Modulus = 0;
  switch (Op) {
  case BO_Add:
  case BO_Sub: {
    bool Subtract = Op == BO_Sub;
    // `n - n % m`, `n + m - n % m`: (n + a) - (n + b) % m is
    // ((n + b) / m) * m + (a - b), a multiple of gcd(m, a - b).
    if (Subtract && isOffsetQuantity(L) && R.K == HostValue::Unknown && R.Modulus &&
        R.Atom == L.Atom) {
      Result.Multiple = kept(std::gcd(R.Modulus, magnitude(L.Offset - R.Offset)));
      return Result;
    }
    // `n - n`, `(n + 4) - n`: the offsets' difference, whatever n is.
    if (Subtract && isOffsetQuantity(L) && isOffsetQuantity(R) && L.Atom == R.Atom)
      return HostValue::integer(static_cast<std::uint64_t>(L.Offset - R.Offset));
    Result.Multiple = kept(std::gcd(multipleOf(L), multipleOf(R)));
    if (OtherInt && isOffsetQuantity(U) && (LeftUnknown || !Subtract)) {
      Result.Atom = U.Atom;
      Result.Offset = Subtract ? U.Offset - signedValue(Other) : U.Offset + signedValue(Other);
    }
    return Result;
  }
  case BO_Mul: {
    if (OtherInt && Other.Bits == 0)
      return HostValue::integer(0);
    std::uint64_t A = multipleOf(L), B = multipleOf(R);
    Result.Multiple = A && B && A <= LargestMultiple / B ? kept(A * B) : 0;
    return Result;
  }
  case BO_Div:
    // A multiple of M divided by a divisor of M: `pitch / sizeof(float)`.
    if (LeftUnknown && OtherInt && signedValue(Other) > 0 && U.Multiple &&
        U.Multiple % Other.Bits == 0)
      Result.Multiple = kept(U.Multiple / Other.Bits);
    return Result;
  case BO_Rem:
    if (LeftUnknown && OtherInt && signedValue(Other) > 0) {
      // A multiple of the divisor leaves none: `pitch % 32` is 0.
      if (U.Multiple && U.Multiple % Other.Bits == 0)
        return HostValue::integer(0);
      if (isOffsetQuantity(U)) {
        Result.Atom = U.Atom;
        Result.Offset = U.Offset;
        Result.Modulus = Other.Bits;
      }
    }
    return Result;
  case BO_Shl:
    if (LeftUnknown && OtherInt && Other.Bits < 40)
      Result.Multiple = kept(multipleOf(U) << Other.Bits);
    return Result;
  case BO_And: {
    if (OtherInt && Other.Bits == 0)
      return HostValue::integer(0);
    // The low bits clear in either operand are clear in the result:
    // `n & ~31` is a multiple of 32.
    auto LowZeros = [](const HostValue &V) -> unsigned {
      std::uint64_t M = multipleOf(V);
      return M ? llvm::countr_zero(M) : 63;
    };
    unsigned Zeros = std::max(LowZeros(L), LowZeros(R));
    Result.Multiple = Zeros > 0 && Zeros < 40 ? kept(std::uint64_t(1) << Zeros) : 0;
    return Result;
  }
  default:
    return Result;
  }
}

} // namespace warpcheck::analysis::host
