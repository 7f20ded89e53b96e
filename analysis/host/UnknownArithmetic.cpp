//===- UnknownArithmetic.cpp - what arithmetic keeps known of an unknown --===//
//
// Host code rounds the sizes it reads at run time before it passes them to
// a kernel: `size - size % 512` (transpose's FLOOR), `iAlignUp(width)`
// (`n + m - n % m`, or n itself where `n % m` is 0: HSOpticalFlow's
// stride), `(n + 31) / 32 * 32`, `n & ~31`, `rows << 4`, a pitch
// cudaMallocPitch gives; and then often takes a halo off or adds a pad
// (FDTD3d's `dim / 32 * 32 - 2 * radius`, a tile's `width + 1`). Whatever
// the value, it is then a known amount more than a multiple of a known
// number (a congruence: HostValue::Multiple and Residue), which decides a
// row's alignment and so the sectors each warp touches, or a stride's
// banks: the value sweep tries only such values (LaunchConfig.h,
// BoundArgument::Multiple). These rules are what the C++ semantics of
// integer arithmetic guarantee for every value of the unknown operand: if
// x = a q + r and y = b p + s, then x + y is r + s more than a multiple of
// gcd(a, b), x y is r s more than a multiple of gcd(a b, a s, b r) (a
// constant c is c more than a multiple of 0); `x - x % m` is `(x / m) * m`
// exactly (C++ [expr.mul]/4: `(a/b)*b + a%b == a`), negative x included;
// x / c is (a / c) q + r / c where c divides both a and r (the division is
// then exact). Wrapping past the width of an unsigned type keeps a
// congruence modulo a power of two; others are kept as if the value did
// not wrap (sizes do not).
//
//===----------------------------------------------------------------------===//

#include "HostValue.h"
#include "values/WideIntegers.h"

#include "llvm/ADT/bit.h"

#include <algorithm>

namespace warpcheck::analysis::host {

using namespace clang;

namespace {

/// Multiples past this are not followed (a product of sizes).
constexpr std::uint64_t LargestMultiple = std::uint64_t(1) << 40;

std::int64_t signedValue(const HostValue &V) { return static_cast<std::int64_t>(V.Bits); }

using values::Wide;

/// What V is known to be: Residue more than a multiple of Multiple. An
/// integer is exactly itself (Multiple 0); an unknown with no congruence
/// (or a remainder) is only a multiple of 1.
struct Known {
  Wide Multiple, Residue;
};

Known knownOf(const HostValue &V) {
  if (V.K == HostValue::Int)
    return {0, signedValue(V)};
  if (V.K == HostValue::Unknown && !V.Modulus && V.Multiple > 1)
    return {V.Multiple, static_cast<Wide>(V.Residue)};
  return {1, 0};
}

/// The greatest common divisor of three numbers, as a modulus.
Wide gcdOf(Wide A, Wide B, Wide C = 0) {
  return static_cast<Wide>(values::gcd(static_cast<Wide>(values::gcd(A, B)), C));
}

/// The congruence worth keeping: a modulus more than 1, not past
/// LargestMultiple, the residue reduced into [0, Multiple); else none.
Congruence kept(Wide Multiple, Wide Residue) {
  if (Multiple <= 1 || Multiple > Wide(LargestMultiple))
    return {};
  Wide R = Residue % Multiple;
  if (R < 0)
    R += Multiple;
  return {static_cast<std::uint64_t>(Multiple), static_cast<std::uint64_t>(R)};
}

Congruence sumOf(const Known &A, const Known &B, bool Subtract) {
  return kept(gcdOf(A.Multiple, B.Multiple),
              Subtract ? A.Residue - B.Residue : A.Residue + B.Residue);
}

Congruence productOf(const Known &A, const Known &B) {
  // (a q + r)(b p + s) = a b q p + a s q + b r p + r s. The residues are
  // at most 2^63 and the multiples 2^40, so each product fits.
  Wide M = gcdOf(A.Multiple * B.Multiple, A.Multiple * B.Residue, B.Multiple * A.Residue);
  if (M <= 1 || M > Wide(LargestMultiple))
    return {};
  return kept(M, (A.Residue % M) * (B.Residue % M));
}

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
  Result.setCongruence({});
  Result.Atom = 0;
  Result.Offset = 0;
  Result.Modulus = 0;
  Known KL = knownOf(L), KR = knownOf(R), KU = knownOf(U);
  switch (Op) {
  case BO_Add:
  case BO_Sub: {
    bool Subtract = Op == BO_Sub;
    // `n - n % m`, `n + m - n % m`: (n + a) - (n + b) % m is
    // ((n + b) / m) * m + (a - b), a - b more than a multiple of m.
    if (Subtract && isOffsetQuantity(L) && R.K == HostValue::Unknown && R.Modulus &&
        R.Atom == L.Atom) {
      Result.setCongruence(kept(R.Modulus, static_cast<Wide>(L.Offset) - R.Offset));
      return Result;
    }
    // `n - n`, `(n + 4) - n`: the offsets' difference, whatever n is.
    if (Subtract && isOffsetQuantity(L) && isOffsetQuantity(R) && L.Atom == R.Atom)
      return HostValue::integer(static_cast<std::uint64_t>(L.Offset - R.Offset));
    Result.setCongruence(sumOf(KL, KR, Subtract));
    if (OtherInt && isOffsetQuantity(U) && (LeftUnknown || !Subtract)) {
      Result.Atom = U.Atom;
      Result.Offset = Subtract ? U.Offset - signedValue(Other) : U.Offset + signedValue(Other);
    }
    return Result;
  }
  case BO_Mul:
    if (OtherInt && Other.Bits == 0)
      return HostValue::integer(0);
    Result.setCongruence(productOf(KL, KR));
    return Result;
  case BO_Div:
    // Where the divisor divides both the modulus and the residue the
    // division is exact: `pitch / sizeof(float)`, `(32 q + 8) / 4`.
    if (LeftUnknown && OtherInt && signedValue(Other) > 0 && U.Multiple &&
        U.Multiple % Other.Bits == 0 && U.Residue % Other.Bits == 0)
      Result.setCongruence(kept(U.Multiple / Other.Bits, U.Residue / Other.Bits));
    return Result;
  case BO_Rem:
    if (LeftUnknown && OtherInt && signedValue(Other) > 0) {
      // A multiple of the divisor leaves none: `pitch % 32` is 0.
      if (U.Multiple && U.Multiple % Other.Bits == 0 && U.Residue == 0)
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
      Result.setCongruence(productOf(KU, Known{0, Wide(1) << Other.Bits}));
    return Result;
  case BO_And: {
    if (OtherInt && Other.Bits == 0)
      return HostValue::integer(0);
    // The low bits clear in either operand are clear in the result:
    // `n & ~31` is a multiple of 32. A value r more than a multiple of
    // 2^k has as many low bits clear as r, up to k.
    auto LowZeros = [](const Known &V) -> unsigned {
      if (V.Multiple == 1)
        return 0;
      unsigned OfResidue =
          V.Residue ? llvm::countr_zero(static_cast<std::uint64_t>(values::magnitude(V.Residue)))
                    : 63;
      unsigned OfMultiple =
          V.Multiple ? llvm::countr_zero(static_cast<std::uint64_t>(V.Multiple)) : 63;
      return std::min(OfResidue, OfMultiple);
    };
    unsigned Zeros = std::max(LowZeros(KL), LowZeros(KR));
    Result.setCongruence(Zeros > 0 && Zeros < 40 ? kept(Wide(1) << Zeros, 0) : Congruence{});
    return Result;
  }
  default:
    return Result;
  }
}

Congruence commonCongruence(const HostValue &A, const HostValue &B) {
  auto Describable = [](const HostValue &V) {
    return V.K == HostValue::Int || (V.K == HostValue::Unknown && !V.isChoice());
  };
  if (!Describable(A) || !Describable(B))
    return {};
  // Both are r_A + a q or r_B + b p: both are r_A more than a multiple of
  // gcd(a, b, r_A - r_B).
  Known KA = knownOf(A), KB = knownOf(B);
  return kept(gcdOf(KA.Multiple, KB.Multiple, KA.Residue - KB.Residue), KA.Residue);
}

} // namespace warpcheck::analysis::host
