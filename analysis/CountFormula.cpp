//===- CountFormula.cpp - a launch's FLOPs as a formula in its parameters -===//

#include "warpcheck/analysis/CountFormula.h"

#include "values/WideIntegers.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace warpcheck::analysis {

namespace {

using values::Wide;

/// Magnitudes past this are given up on (far below __int128's 2^127, so
/// that one product of two checked values cannot wrap before the check).
constexpr Wide Limit = Wide(1) << 62;

Wide absolute(Wide V) { return V < 0 ? -V : V; }
Wide gcdOf(Wide A, Wide B) { return static_cast<Wide>(values::gcd(A, B)); }

/// An exact fraction; Overflow once any result left the limit.
struct Rational {
  Wide N = 0, D = 1;
  bool Overflow = false;

  static Rational of(Wide N, Wide D = 1) {
    Rational R;
    R.N = N;
    R.D = D;
    R.normalise();
    return R;
  }
  void normalise() {
    if (D < 0) {
      N = -N;
      D = -D;
    }
    Wide G = gcdOf(N, D);
    if (G > 1) {
      N /= G;
      D /= G;
    }
    if (absolute(N) > Limit || D > Limit)
      Overflow = true;
  }
  Rational combined(Wide NewN, Wide NewD, const Rational &O) const {
    Rational R;
    R.Overflow = Overflow || O.Overflow;
    if (R.Overflow)
      return R;
    R.N = NewN;
    R.D = NewD;
    R.normalise();
    return R;
  }
  Rational operator+(const Rational &O) const { return combined(N * O.D + O.N * D, D * O.D, O); }
  Rational operator-(const Rational &O) const { return combined(N * O.D - O.N * D, D * O.D, O); }
  Rational operator*(const Rational &O) const { return combined(N * O.N, D * O.D, O); }
  Rational operator/(const Rational &O) const { return combined(N * O.D, D * O.N, O); }
  bool isZero() const { return N == 0; }
};

/// The counts fitted: of each precision (fp16, fp32, fp64), its adds,
/// multiplies, FMAs and FLOPs.
constexpr unsigned Quantities = 12;
using Sample = std::array<Wide, Quantities>;

Sample sampleOf(const model::FlopCounts &C) {
  Sample S;
  for (model::FloatPrecision P : model::AllFloatPrecisions) {
    const model::PrecisionOps &O = C[P];
    unsigned At = 4 * static_cast<unsigned>(P);
    S[At] = O.Add;
    S[At + 1] = O.Mul;
    S[At + 2] = O.Fma;
    S[At + 3] = O.Flops;
  }
  return S;
}

/// The polynomial quantity Q of Sample's order is fitted into.
CountPolynomial &quantity(FlopFormula &F, unsigned Q) {
  PrecisionFormula &P = F.PerThread[Q / 4];
  switch (Q % 4) {
  case 0:
    return P.Add;
  case 1:
    return P.Mul;
  case 2:
    return P.Fma;
  default:
    return P.Flops;
  }
}

/// The finite differences of Y (equally spaced) of order Order are all 0.
bool differencesVanish(std::vector<Wide> Y, unsigned Order) {
  for (unsigned K = 0; K < Order; ++K) {
    for (std::size_t I = 0; I + 1 < Y.size(); ++I)
      Y[I] = Y[I + 1] - Y[I];
    Y.pop_back();
  }
  return std::all_of(Y.begin(), Y.end(), [](Wide V) { return V == 0; });
}

/// Solves A c = B exactly (A square, non-singular); nullopt on overflow
/// or a singular system.
std::optional<std::vector<Rational>> solve(std::vector<std::vector<Rational>> A,
                                           std::vector<Rational> B) {
  std::size_t N = B.size();
  for (std::size_t Col = 0; Col < N; ++Col) {
    std::size_t Pivot = Col;
    while (Pivot < N && A[Pivot][Col].isZero())
      ++Pivot;
    if (Pivot == N)
      return std::nullopt;
    std::swap(A[Pivot], A[Col]);
    std::swap(B[Pivot], B[Col]);
    for (std::size_t Row = 0; Row < N; ++Row) {
      if (Row == Col || A[Row][Col].isZero())
        continue;
      Rational F = A[Row][Col] / A[Col][Col];
      for (std::size_t K = Col; K < N; ++K)
        A[Row][K] = A[Row][K] - F * A[Col][K];
      B[Row] = B[Row] - F * B[Col];
    }
  }
  std::vector<Rational> C(N);
  for (std::size_t I = 0; I < N; ++I) {
    C[I] = B[I] / A[I][I];
    if (C[I].Overflow)
      return std::nullopt;
  }
  return C;
}

Wide power(Wide X, unsigned E) {
  Wide R = 1;
  while (E--)
    R *= X;
  return R;
}

unsigned degreeOf(const FormulaTerm &T) {
  return std::accumulate(T.Powers.begin(), T.Powers.end(), 0u);
}

} // namespace

std::string CountPolynomial::text(const std::vector<std::string> &Symbols) const {
  if (Terms.empty())
    return "0";
  std::string Out;
  for (std::size_t I = 0; I < Terms.size(); ++I) {
    const FormulaTerm &T = Terms[I];
    std::int64_t N = T.Numerator;
    if (I > 0)
      Out += N < 0 ? " - " : " + ";
    else if (N < 0)
      Out += "-";
    std::uint64_t Magnitude = N < 0 ? 0 - static_cast<std::uint64_t>(N) : N;
    std::string Product;
    for (std::size_t S = 0; S < T.Powers.size() && S < Symbols.size(); ++S)
      for (unsigned E = 0; E < T.Powers[S]; ++E)
        Product += (Product.empty() ? "" : "*") + Symbols[S];
    if (Product.empty())
      Out += std::to_string(Magnitude);
    else if (Magnitude == 1)
      Out += Product;
    else
      Out += std::to_string(Magnitude) + "*" + Product;
    if (T.Denominator != 1)
      Out += "/" + std::to_string(T.Denominator);
  }
  return Out;
}

std::optional<std::int64_t> CountPolynomial::evaluate(const std::vector<std::int64_t> &Values,
                                                      std::int64_t Times) const {
  Rational Sum = Rational::of(0);
  for (const FormulaTerm &T : Terms) {
    Rational Term = Rational::of(T.Numerator, T.Denominator);
    for (std::size_t S = 0; S < T.Powers.size(); ++S) {
      if (S >= Values.size())
        return std::nullopt;
      for (unsigned E = 0; E < T.Powers[S]; ++E)
        Term = Term * Rational::of(Values[S]);
    }
    Sum = Sum + Term;
  }
  Sum = Sum * Rational::of(Times);
  if (Sum.Overflow || Sum.D != 1)
    return std::nullopt;
  return static_cast<std::int64_t>(Sum.N);
}

std::optional<FlopFormula> fitFlopFormula(const std::vector<std::string> &Symbols,
                                          std::int64_t Base, std::uint64_t Threads,
                                          std::optional<model::FlopCounts> AtBase,
                                          const FlopCounter &Count) {
  if (Base < 64 || Base % 4 != 0 || Symbols.empty() || Symbols.size() > 3 || Threads == 0)
    return std::nullopt;
  const std::int64_t Step = Base / 4;
  // Points in units of Step: 4 is the sampled value, which AtBase counts.
  using Point = std::vector<std::int64_t>;
  std::map<Point, std::optional<Sample>> Known;
  if (AtBase)
    Known[Point(Symbols.size(), 4)] = sampleOf(*AtBase);
  auto at = [&](const Point &X) -> std::optional<Sample> {
    auto It = Known.find(X);
    if (It != Known.end())
      return It->second;
    std::vector<std::int64_t> Values;
    for (std::int64_t V : X)
      Values.push_back(V * Step);
    std::optional<model::FlopCounts> C = Count(Values);
    std::optional<Sample> S;
    if (C)
      S = sampleOf(*C);
    Known[X] = S;
    return S;
  };

  // The degree in each symbol, the others at the sampled value: the
  // smallest whose next finite differences vanish over the four values.
  std::vector<unsigned> Degree(Symbols.size(), 0);
  std::vector<std::size_t> Dependent;
  for (std::size_t S = 0; S < Symbols.size(); ++S) {
    std::array<std::vector<Wide>, Quantities> Series;
    for (std::int64_t X = 1; X <= 4; ++X) {
      Point P(Symbols.size(), 4);
      P[S] = X;
      std::optional<Sample> Y = at(P);
      if (!Y)
        return std::nullopt;
      for (unsigned Q = 0; Q < Quantities; ++Q)
        Series[Q].push_back((*Y)[Q]);
    }
    unsigned D = 0;
    while (D <= 2 && !std::all_of(Series.begin(), Series.end(), [&](const std::vector<Wide> &Y) {
      return differencesVanish(Y, D + 1);
    }))
      ++D;
    if (D > 2)
      return std::nullopt;
    Degree[S] = D;
    if (D > 0)
      Dependent.push_back(S);
  }
  if (Dependent.empty())
    return std::nullopt;

  // Every monomial up to those degrees, and a grid of as many points (the
  // values 4, 3, 2 of each dependent symbol): a non-singular system.
  std::vector<std::vector<unsigned>> Monomials{{}};
  for (std::size_t S : Dependent) {
    std::vector<std::vector<unsigned>> Next;
    for (const auto &M : Monomials)
      for (unsigned E = 0; E <= Degree[S]; ++E) {
        auto With = M;
        With.push_back(E);
        Next.push_back(With);
      }
    Monomials = std::move(Next);
  }
  if (Monomials.size() > 12)
    return std::nullopt;
  std::vector<Point> Grid;
  for (const auto &M : Monomials) {
    Point P(Symbols.size(), 4);
    for (std::size_t I = 0; I < Dependent.size(); ++I)
      P[Dependent[I]] = 4 - static_cast<std::int64_t>(M[I]);
    Grid.push_back(P);
  }
  std::vector<std::vector<Rational>> A;
  std::array<std::vector<Rational>, Quantities> B;
  for (const Point &P : Grid) {
    std::optional<Sample> Y = at(P);
    if (!Y)
      return std::nullopt;
    std::vector<Rational> Row;
    for (const auto &M : Monomials) {
      Wide V = 1;
      for (std::size_t I = 0; I < Dependent.size(); ++I)
        V *= power(P[Dependent[I]], M[I]);
      Row.push_back(Rational::of(V));
    }
    A.push_back(Row);
    for (unsigned Q = 0; Q < Quantities; ++Q)
      B[Q].push_back(Rational::of((*Y)[Q]));
  }
  std::array<std::vector<Rational>, Quantities> Coefficients;
  for (unsigned Q = 0; Q < Quantities; ++Q) {
    std::optional<std::vector<Rational>> C = solve(A, B[Q]);
    if (!C)
      return std::nullopt;
    Coefficients[Q] = *C;
  }

  // The check: every dependent symbol at 1 (a point off the grid when two
  // or more depend), predicted against counted.
  Point Check(Symbols.size(), 4);
  for (std::size_t S : Dependent)
    Check[S] = 1;
  std::optional<Sample> Checked = at(Check);
  if (!Checked)
    return std::nullopt;
  for (unsigned Q = 0; Q < Quantities; ++Q) {
    Rational Predicted = Rational::of(0);
    for (std::size_t M = 0; M < Monomials.size(); ++M) {
      Wide V = 1;
      for (std::size_t I = 0; I < Dependent.size(); ++I)
        V *= power(Check[Dependent[I]], Monomials[M][I]);
      Predicted = Predicted + Coefficients[Q][M] * Rational::of(V);
    }
    if (Predicted.Overflow || Predicted.D != 1 || Predicted.N != (*Checked)[Q])
      return std::nullopt;
  }

  // From units of Step back to the parameters' values (x = s / Step), and
  // from the launch to one thread.
  FlopFormula F;
  F.Step = Step;
  F.Base = Base;
  for (std::size_t S : Dependent)
    F.Symbols.push_back(Symbols[S]);
  std::map<std::vector<unsigned>, Rational> Total;
  for (unsigned Q = 0; Q < Quantities; ++Q) {
    for (std::size_t M = 0; M < Monomials.size(); ++M) {
      const auto &Powers = Monomials[M];
      unsigned Degree = std::accumulate(Powers.begin(), Powers.end(), 0u);
      Rational C = Coefficients[Q][M] /
                   Rational::of(power(Step, Degree) * static_cast<Wide>(Threads));
      if (C.Overflow)
        return std::nullopt;
      if (C.isZero())
        continue;
      quantity(F, Q).Terms.push_back(
          {static_cast<std::int64_t>(C.N), static_cast<std::int64_t>(C.D), Powers});
      if (Q % 4 != 3)
        continue;
      auto [It, New] = Total.try_emplace(Powers, C);
      if (!New)
        It->second = It->second + C;
    }
  }
  for (const auto &[Powers, C] : Total)
    if (!C.isZero() && !C.Overflow)
      F.PerThreadTotal.Terms.push_back(
          {static_cast<std::int64_t>(C.N), static_cast<std::int64_t>(C.D), Powers});
  auto order = [](CountPolynomial &P) {
    std::sort(P.Terms.begin(), P.Terms.end(), [](const FormulaTerm &L, const FormulaTerm &R) {
      unsigned DL = degreeOf(L), DR = degreeOf(R);
      return DL != DR ? DL > DR : L.Powers > R.Powers;
    });
  };
  for (unsigned Q = 0; Q < Quantities; ++Q)
    order(quantity(F, Q));
  order(F.PerThreadTotal);
  return F;
}

std::optional<model::FlopCounts> FlopFormula::countsAt(const std::vector<std::int64_t> &Values,
                                                       std::uint64_t Threads) const {
  model::FlopCounts Out;
  for (model::FloatPrecision P : model::AllFloatPrecisions) {
    const PrecisionFormula &F = PerThread[static_cast<int>(P)];
    model::PrecisionOps &O = Out[P];
    for (auto [Poly, Into] : {std::pair{&F.Add, &O.Add}, std::pair{&F.Mul, &O.Mul},
                              std::pair{&F.Fma, &O.Fma}, std::pair{&F.Flops, &O.Flops}}) {
      std::optional<std::int64_t> V = Poly->evaluate(Values, static_cast<std::int64_t>(Threads));
      if (!V || *V < 0)
        return std::nullopt;
      *Into = static_cast<std::uint64_t>(*V);
    }
  }
  return Out;
}

} // namespace warpcheck::analysis
