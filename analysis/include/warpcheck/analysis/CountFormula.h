//===- CountFormula.h - a launch's FLOPs as a formula in its parameters ---===//
//
// A loop whose trip count is a kernel parameter that no launch site binds
// (`for (int i = 0; i < k; ++i) acc += a[i] * b[i]`) has no one FLOP count:
// the simulation runs it at a sampled value (4096) and says so. What the
// user wants is the count as the kernel's parameters give it, "2*k per
// thread", to evaluate at the sizes the program runs with.
//
// The formula is found by running the count at several values of each
// parameter and fitting a polynomial with rational coefficients through
// them, exactly: the degree in each parameter (at most 2) from finite
// differences at four values, the cross terms from a grid of values, and a
// check at a point the fit did not use. The values are multiples of a
// quarter of the sampled one (1024, 2048, 3072, 4096), so that divisions
// by tile sizes and block extents up to 1024 are exact and the guards of a
// launch shaped for the sampled size still hold; a count that is not such
// a polynomial there (a guard that turns threads off as the parameter
// shrinks, a data-dependent exit) gets no formula. The formula is exact at
// every value it was fitted and checked at; between them it is what the
// polynomial says (rounding of divisions by other values not shown).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_COUNTFORMULA_H
#define WARPCHECK_ANALYSIS_COUNTFORMULA_H

#include "warpcheck/model/Roofline.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::analysis {

/// Numerator / Denominator (in lowest terms, Denominator > 0) times each
/// symbol of the formula raised to its power.
struct FormulaTerm {
  std::int64_t Numerator = 0, Denominator = 1;
  std::vector<unsigned> Powers;
  bool operator==(const FormulaTerm &O) const {
    return Numerator == O.Numerator && Denominator == O.Denominator && Powers == O.Powers;
  }
};

/// A polynomial in the symbols of its formula; no terms is 0.
struct CountPolynomial {
  /// Highest degree first; no zero coefficients.
  std::vector<FormulaTerm> Terms;

  /// C-like: "2*k", "n*n/256 + 3*n", "1/2", "0".
  std::string text(const std::vector<std::string> &Symbols) const;
  /// Times the value with symbol I at Values[I]; nullopt when it is not
  /// a whole number or does not fit.
  std::optional<std::int64_t> evaluate(const std::vector<std::int64_t> &Values,
                                       std::int64_t Times = 1) const;
};

/// What one thread of a precision executes: instructions and FLOPs
/// (model::PrecisionOps).
struct PrecisionFormula {
  CountPolynomial Add, Mul, Fma, Flops;
};

/// The FLOPs of each thread of a launch (its total over the threads it
/// launches), as a polynomial in the parameters they depend on.
struct FlopFormula {
  /// The kernel's parameters, in the kernel's order.
  std::vector<std::string> Symbols;
  /// fp16, fp32, fp64 (model::FloatPrecision's order).
  std::array<PrecisionFormula, 3> PerThread;
  /// The FLOPs of every precision.
  CountPolynomial PerThreadTotal;
  /// Fitted and checked at multiples of Step up to Base of each symbol.
  std::int64_t Step = 0, Base = 0;

  /// The counts of Threads threads with symbol I at Values[I]; nullopt
  /// when one is not a whole number or does not fit.
  std::optional<model::FlopCounts> countsAt(const std::vector<std::int64_t> &Values,
                                            std::uint64_t Threads) const;
};

/// The launch's FLOPs with Symbols[I] at Values[I] (nullopt when they are
/// not counted there).
using FlopCounter =
    std::function<std::optional<model::FlopCounts>(const std::vector<std::int64_t> &Values)>;

/// Fits the formula of a launch of Threads threads whose FLOPs are AtBase
/// with every symbol at Base (Count gives them when AtBase is nullopt, and
/// all the others). nullopt when Base is
/// not a multiple of 4 of at least 64, there are more than three symbols,
/// a count is missing, the counts are not a polynomial of degree at most 2
/// in each symbol at the values tried, or the FLOPs depend on none of them.
std::optional<FlopFormula> fitFlopFormula(const std::vector<std::string> &Symbols,
                                          std::int64_t Base, std::uint64_t Threads,
                                          std::optional<model::FlopCounts> AtBase,
                                          const FlopCounter &Count);

} // namespace warpcheck::analysis

#endif
