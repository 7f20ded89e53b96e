//===- ValueSweep.cpp - numbers under every value the source leaves open --===//

#include "ValueSweep.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace warpcheck::analysis {

const std::vector<std::int64_t> &sweepValues() {
  // In the order they are tried, so that a sweep its budget cuts short
  // still spans the range: the powers of two from the ends inwards, then
  // their odd neighbours in the same order.
  static const std::vector<std::int64_t> Values = [] {
    const std::int64_t Pow2[] = {1,   65536, 256,  16,   4096, 4,    64,   1024, 16384,
                                 2,   8,     32,   128,  512,  2048, 8192, 32768};
    std::vector<std::int64_t> V(std::begin(Pow2), std::end(Pow2));
    for (std::int64_t P : Pow2)
      for (std::int64_t X : {P - 1, P + 1})
        if (X > 2 && std::find(V.begin(), V.end(), X) == V.end())
          V.push_back(X);
    return V;
  }();
  return Values;
}

namespace {

/// E, through parentheses and implicit casts, names a parameter of one of
/// the functions whose code is read.
bool namesParameter(const clang::Expr *E) {
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref && llvm::isa<clang::ParmVarDecl>(Ref->getDecl());
}

class TestedValues {
public:
  explicit TestedValues(const clang::ASTContext &Ctx) : Ctx(Ctx) {}

  void function(const clang::FunctionDecl *F, unsigned Depth) {
    if (!F || Depth > 4 || !Seen.insert(F).second)
      return;
    if (const clang::FunctionDecl *Def = F->getDefinition())
      if (const clang::Stmt *Body = Def->getBody())
        statement(Body, Depth);
  }

  std::vector<std::int64_t> Values;
  /// Names of parameters met on the larger side of an order comparison:
  /// `n` of `i < n`, `i + tid < n`, `n > i`.
  std::set<std::string> Limits;

private:
  static constexpr size_t MaxValues = 8;
  const clang::ASTContext &Ctx;
  std::set<const clang::FunctionDecl *> Seen;

  void add(std::int64_t V) {
    if (V > 0 && V <= 65536 && Values.size() < MaxValues &&
        std::find(Values.begin(), Values.end(), V) == Values.end())
      Values.push_back(V);
  }

  void statement(const clang::Stmt *S, unsigned Depth) {
    if (!S)
      return;
    if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(S))
      binary(B);
    if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(S))
      function(Call->getDirectCallee(), Depth + 1);
    for (const clang::Stmt *Child : S->children())
      statement(Child, Depth);
  }

  /// Every parameter E names, through any arithmetic.
  void parametersIn(const clang::Expr *E, std::set<std::string> &Into) {
    if (!E)
      return;
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E))
      if (llvm::isa<clang::ParmVarDecl>(Ref->getDecl()))
        Into.insert(Ref->getDecl()->getNameAsString());
    for (const clang::Stmt *Child : E->children())
      if (const auto *CE = llvm::dyn_cast_or_null<clang::Expr>(Child))
        parametersIn(CE, Into);
  }

  void binary(const clang::BinaryOperator *B) {
    if (B->getOpcode() == clang::BO_LT || B->getOpcode() == clang::BO_LE)
      parametersIn(B->getRHS(), Limits);
    else if (B->getOpcode() == clang::BO_GT || B->getOpcode() == clang::BO_GE)
      parametersIn(B->getLHS(), Limits);
    const clang::Expr *Constant = nullptr;
    if (namesParameter(B->getLHS()))
      Constant = B->getRHS();
    else if (namesParameter(B->getRHS()))
      Constant = B->getLHS();
    if (!Constant || Constant->isValueDependent())
      return;
    clang::Expr::EvalResult R;
    if (!Constant->EvaluateAsInt(R, Ctx) || R.Val.getInt().getSignificantBits() > 63)
      return;
    std::int64_t K = R.Val.getInt().getSExtValue();
    switch (B->getOpcode()) {
    case clang::BO_And:
    case clang::BO_EQ:
    case clang::BO_NE:
      add(K);
      break;
    case clang::BO_LT:
    case clang::BO_LE:
    case clang::BO_GT:
    case clang::BO_GE:
      add(K);
      add(K + 1);
      break;
    default:
      break;
    }
  }
};

/// The names as a message says them: 'n', 'n' and 'm', 'a', 'b' and 'c';
/// 'n' and the values read from memory.
std::string quotedNames(const std::vector<std::string> &Symbols, bool MemoryReads) {
  std::vector<std::string> Names;
  for (const std::string &S : Symbols)
    Names.push_back("'" + S + "'");
  if (MemoryReads)
    Names.push_back("the values read from memory");
  std::string Out;
  for (size_t I = 0; I < Names.size(); ++I) {
    if (I > 0)
      Out += I + 1 == Names.size() ? " and " : ", ";
    Out += Names[I];
  }
  return Out;
}

double metricOf(const AccessCost &C, MemorySpace Space) {
  return Space == MemorySpace::Shared ? C.WavefrontsPerRequest : C.SectorsPerRequest;
}

} // namespace

std::string describeValues(const std::vector<std::string> &Symbols,
                           const std::vector<std::int64_t> &Worst,
                           const std::vector<std::int64_t> &All, bool MemoryReads) {
  if (Worst.size() == All.size())
    return "for every value tried";
  std::string Names = quotedNames(Symbols, MemoryReads);
  bool One = Symbols.size() == 1 && !MemoryReads;
  std::string Is = One ? " is " : " are ";
  std::size_t Count = Symbols.size() + (MemoryReads ? 1 : 0);
  std::string Each = One ? "" : Count == 2 ? " both" : " all";
  auto IsPrefix = [](const std::vector<std::int64_t> &Part, const std::vector<std::int64_t> &Of) {
    return !Part.empty() && Part.size() <= Of.size() && std::equal(Part.begin(), Part.end(), Of.begin());
  };
  auto IsSuffix = [](const std::vector<std::int64_t> &Part, const std::vector<std::int64_t> &Of) {
    return !Part.empty() && Part.size() <= Of.size() &&
           std::equal(Part.rbegin(), Part.rend(), Of.rbegin());
  };
  auto Select = [&](auto Pred) {
    std::vector<std::int64_t> Out;
    for (std::int64_t V : All)
      if (Pred(V))
        Out.push_back(V);
    return Out;
  };
  // A threshold.
  if (IsPrefix(Worst, All))
    return "when " + Names + Each + " <= " + std::to_string(Worst.back());
  if (IsSuffix(Worst, All))
    return "when " + Names + Each + " >= " + std::to_string(Worst.front());
  // Alignment: the worst case is exactly the values that are (or are not)
  // multiples of some power of two, the largest that fits.
  for (std::int64_t M = 65536; M >= 2; M /= 2) {
    std::vector<std::int64_t> Multiples = Select([M](std::int64_t V) { return V % M == 0; });
    std::vector<std::int64_t> Others = Select([M](std::int64_t V) { return V % M != 0; });
    if (Multiples.empty() || Others.empty())
      continue;
    if (Worst == Others)
      return "unless " + Names + Is + (One ? "a multiple" : "multiples") + " of " +
             std::to_string(M);
    if (Worst == Multiples)
      return "when " + Names + Is + (One ? "a multiple" : "multiples") + " of " +
             std::to_string(M);
  }
  // Powers of two up to or from a threshold (a loop doubling a size).
  auto IsPow2 = [](std::int64_t V) { return V > 0 && (V & (V - 1)) == 0; };
  std::vector<std::int64_t> Pow2 = Select(IsPow2);
  std::vector<std::int64_t> WorstPow2, WorstOther;
  for (std::int64_t V : Worst)
    (IsPow2(V) ? WorstPow2 : WorstOther).push_back(V);
  std::vector<std::int64_t> Other = Select([&](std::int64_t V) { return !IsPow2(V); });
  if (WorstOther.empty() || WorstOther == Other) {
    std::string Rest = WorstOther.empty() ? "" : " or not a power of two";
    std::string Pow = WorstOther.empty() ? " a power of two" : "";
    if (IsPrefix(WorstPow2, Pow2))
      return "when " + Names + Is + (Pow.empty() ? "" : Pow.substr(1) + " ") + "<= " +
             std::to_string(WorstPow2.back()) + Rest;
    if (IsSuffix(WorstPow2, Pow2))
      return "when " + Names + Is + (Pow.empty() ? "" : Pow.substr(1) + " ") + ">= " +
             std::to_string(WorstPow2.front()) + Rest;
  }
  auto ListOf = [](const std::vector<std::int64_t> &Values) {
    std::vector<std::string> Texts;
    for (std::int64_t V : Values)
      Texts.push_back(std::to_string(V));
    return Texts.size() == 1 ? Texts[0]
                             : llvm::join(llvm::ArrayRef(Texts).drop_back(), ", ") + " or " +
                                   Texts.back();
  };
  if (Worst.size() <= 3)
    return "when " + Names + Is + ListOf(Worst);
  // The worst case is the rule and a few values the exception (a short
  // tail, a value too small for a whole warp): say which values escape it.
  std::vector<std::int64_t> Spared =
      Select([&](std::int64_t V) { return !std::binary_search(Worst.begin(), Worst.end(), V); });
  if (!Spared.empty() && Spared.size() <= 3)
    return "unless " + Names + Is + ListOf(Spared);
  // Otherwise how often, so that "some" is not read as "rarely".
  return "for " + std::to_string(Worst.size()) + " of the " + std::to_string(All.size()) +
         " values" + (Symbols.empty() ? std::string() : " of " + Names) +
         " tried (such as " + std::to_string(Worst[0]) + " and " +
         std::to_string(Worst[1]) + ")";
}

void replaceSample(ValueDependence &D, std::int64_t Value, const AccessCost &Cost,
                   MemorySpace Space) {
  D.Worst = -1;
  D.Best = 1e300;
  for (ValueDependence::Sample &Sample : D.Samples) {
    if (Sample.Value == Value && Sample.Reached)
      Sample.Cost = Cost;
    if (!Sample.Reached)
      continue;
    D.Worst = std::max(D.Worst, metricOf(Sample.Cost, Space));
    D.Best = std::min(D.Best, metricOf(Sample.Cost, Space));
  }
}

std::optional<ValueDependence> dependenceOf(const SiteKey &Site, const Sweep &S,
                                            std::size_t &WorstRun) {
  ValueDependence D;
  D.Symbols = S.Symbols;
  D.MemoryReads = S.Reads;
  bool Reads = !S.Reads.empty();
  D.Truncated = S.Truncated;
  std::optional<std::uint64_t> Digest;
  bool Differs = false, AnyReached = false, AllReached = true;
  MemorySpace Space = MemorySpace::Global;
  // The index in S.Runs of each sample's run.
  std::vector<std::size_t> RunOf;
  for (std::size_t R = 0; R < S.Runs.size(); ++R) {
    const SweepRun &Run = S.Runs[R];
    // A value that leaves a shared array is no value of the program's
    // for the accesses the feasible values reach.
    if (!Run.OnlyFor.empty() && !Run.OnlyFor.count(Site))
      continue;
    RunOf.push_back(R);
    ValueDependence::Sample Sample;
    Sample.Value = Run.Value;
    auto It = Run.Sim.Sites.find(Site);
    if (It != Run.Sim.Sites.end() && (It->second.Requests || It->second.UnknownRequests)) {
      Sample.Reached = true;
      Sample.Cost = costOf(It->second);
      Space = It->second.Site.Space;
      if (Digest && *Digest != It->second.AddressDigest)
        Differs = true;
      Digest = It->second.AddressDigest;
      AnyReached = true;
    } else {
      AllReached = false;
    }
    D.Samples.push_back(Sample);
  }
  if (!AnyReached || (!Differs && AllReached))
    return std::nullopt;
  // The worst case is the lowest efficiency (what the checks report on);
  // Worst and Best give the metric's range.
  std::vector<std::int64_t> Reached, WorstValues;
  D.Worst = -1;
  D.Best = 1e300;
  double LowestEfficiency = 2;
  for (size_t I = 0; I < D.Samples.size(); ++I) {
    if (!D.Samples[I].Reached)
      continue;
    double M = metricOf(D.Samples[I].Cost, Space);
    double E = D.Samples[I].Cost.efficiency(Space);
    Reached.push_back(D.Samples[I].Value);
    if (E < LowestEfficiency - 1e-9) {
      LowestEfficiency = E;
      WorstRun = RunOf[I];
    }
    D.Worst = std::max(D.Worst, M);
    D.Best = std::min(D.Best, M);
  }
  // Of the runs equally worst: the primary's, else the one moving the most.
  double Largest = -1;
  for (size_t I = 0; I < D.Samples.size(); ++I) {
    const ValueDependence::Sample &Sample = D.Samples[I];
    if (!Sample.Reached || std::fabs(Sample.Cost.efficiency(Space) - LowestEfficiency) >= 1e-9)
      continue;
    WorstValues.push_back(Sample.Value);
    double M = Sample.Value == S.PrimaryValue ? 1e300 : metricOf(Sample.Cost, Space);
    if (M > Largest) {
      Largest = M;
      WorstRun = RunOf[I];
    }
  }
  std::vector<std::int64_t> All;
  for (const ValueDependence::Sample &Sample : D.Samples)
    All.push_back(Sample.Value);
  // Values read from memory alone: the data decides, and its worst case
  // (a CSR row five elements long) is not the kernel's typical one. The
  // numbers are those of the primary value (4096: aligned to every power
  // of two up to it, a trip count as long as the loops allow), the worst
  // case said beside them.
  if (S.Symbols.empty() && Reads) {
    for (size_t I = 0; I < D.Samples.size(); ++I)
      if (D.Samples[I].Reached && D.Samples[I].Value == S.PrimaryValue) {
        WorstRun = RunOf[I];
        D.RepresentativeValue = S.PrimaryValue;
      }
  }
  if (!AllReached) {
    // "reached only when 'n' <= 16", "reached unless 'mode' is a multiple
    // of 2" (not "only unless").
    std::string Where = describeValues(D.Symbols, Reached, All, Reads);
    D.WorstCondition = (llvm::StringRef(Where).starts_with("unless") ? "reached " : "reached only ") +
                       Where +
                       (WorstValues.size() == Reached.size()
                            ? std::string()
                            : ", worst " + describeValues(D.Symbols, WorstValues, All, Reads));
  } else
    D.WorstCondition = describeValues(D.Symbols, WorstValues, All, Reads);
  return D;
}

std::vector<std::int64_t> valuesTheCodeTests(const clang::FunctionDecl *Kernel) {
  if (!Kernel)
    return {};
  TestedValues T(Kernel->getASTContext());
  T.function(Kernel, 0);
  return T.Values;
}

std::set<std::string> limitParameters(const clang::FunctionDecl *Kernel) {
  if (!Kernel)
    return {};
  TestedValues T(Kernel->getASTContext());
  T.function(Kernel, 0);
  return T.Limits;
}

} // namespace warpcheck::analysis
