//===- WideIntegers.h - 128-bit integers for exact arithmetic -*- C++ -*-===//
//
// Products and differences of 64-bit values, exactly: the congruences the
// host evaluator keeps of sizes (host/UnknownArithmetic.cpp) and the
// fractions of a launch's FLOP formula (CountFormula.cpp) are computed in
// 128 bits, where no product of two checked 64-bit values can wrap.
// Private to analysis/.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_VALUES_WIDEINTEGERS_H
#define WARPCHECK_ANALYSIS_VALUES_WIDEINTEGERS_H

namespace warpcheck::analysis::values {

using Wide = __int128;
using UWide = unsigned __int128;

/// |V|, as an unsigned number (the magnitude of the most negative value
/// too).
inline UWide magnitude(Wide V) { return V < 0 ? UWide(0) - UWide(V) : UWide(V); }

/// The greatest common divisor of |A| and |B| (gcd(0, B) = |B|).
inline UWide gcd(Wide A, Wide B) {
  UWide X = magnitude(A), Y = magnitude(B);
  while (Y) {
    UWide T = X % Y;
    X = Y;
    Y = T;
  }
  return X;
}

} // namespace warpcheck::analysis::values

#endif
