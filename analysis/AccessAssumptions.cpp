//===- AccessAssumptions.cpp - what an access's numbers rest on -----------===//

#include "AccessAssumptions.h"
#include "AccessEmission.h"
#include "ClaimText.h"
#include "IndexSource.h"

#include "warpcheck/model/SharedMemory.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// What a sweep varied, as its sentences say it: "'n', not known at a
/// launch site", "values read from memory ('*n'; ...)", or both.
std::string sweptNames(const std::vector<std::string> &Symbols,
                       const std::vector<std::string> &Reads) {
  std::string Out;
  if (!Symbols.empty())
    Out = quotedList(Symbols) + ", not known at a launch site";
  if (!Reads.empty())
    Out += (Out.empty() ? "" : ", and on ") + std::string("values read from memory (") +
           quotedList(Reads) + ")";
  return Out;
}

/// "the numbers depend on 'size', not known at a launch site: 2 wavefronts
/// per request when 'size' <= 16, 1 otherwise (values 1 to 65536 tried)".
std::string dependenceSentence(const ValueDependence &D, MemorySpace Space,
                               const SampleValues &Primary, const LaunchConfig &Launch) {
  std::string Names = sweptNames(D.Symbols, D.MemoryReads);
  const char *Unit = Space == MemorySpace::Shared ? " wavefronts" : " sectors";
  auto Number = [](double V) {
    std::string S = std::to_string(std::round(V * 100) / 100);
    S.erase(S.find_last_not_of('0') + 1);
    if (!S.empty() && S.back() == '.')
      S.pop_back();
    return S;
  };
  bool Everywhere = D.WorstCondition == "for every value tried";
  // "1 sector", "1.5 sectors", "1 to 2 sectors".
  std::string One = std::string(Unit).substr(0, std::strlen(Unit) - 1);
  std::string Range =
      D.Best < D.Worst - 1e-9
          ? Number(D.Best) + " to " + Number(D.Worst) + Unit + " per request"
          : Number(D.Worst) + (std::fabs(D.Worst - 1) < 1e-9 ? One : std::string(Unit)) +
                " per request";
  if (Everywhere)
    Range += ", the same efficiency for every value";
  else if (llvm::StringRef(D.WorstCondition).starts_with("reached "))
    Range += ", " + D.WorstCondition;
  else
    Range += ", the lowest efficiency " + D.WorstCondition;
  std::int64_t Lo = D.Samples.empty() ? Primary.UnboundInteger : D.Samples.front().Value;
  std::int64_t Hi = D.Samples.empty() ? Primary.UnboundInteger : D.Samples.back().Value;
  std::string Given;
  if (!D.CommandLineDefaults.empty())
    Given = "; the numbers given are those of a run without command-line arguments, which "
            "passes " + commandLineDefaultsText(D);
  if (D.RepresentativeValue)
    Given = "; the numbers given are those with the values read taken as " +
            std::to_string(*D.RepresentativeValue) +
            (D.MemoryReads.size() > 1 ? " (element e of an array as e + 1 times it)" : "");
  // Parameters the host code passes multiples of (a pitch in elements),
  // or a known amount more than multiples of, take each value rounded up
  // to one such.
  std::string Multiples;
  for (const auto &[Param, Arg] : Launch.Arguments)
    if (Arg.Multiple && llvm::is_contained(D.Symbols, Param->getNameAsString()))
      Multiples += (Multiples.empty() ? "; " : ", ") + ("'" + Param->getNameAsString() + "' " +
                   (Arg.Residue ? std::to_string(Arg.Residue) + " more than " : "") +
                   "a multiple of " + std::to_string(*Arg.Multiple));
  if (!Multiples.empty())
    Multiples += " as the host code passes it, each value rounded up to one";
  return "the numbers depend on " + Names + ": " + Range +
         " (values " + std::to_string(Lo) + " to " + std::to_string(Hi) + " tried" +
         (D.Truncated ? ", the sweep cut short" : "") + Multiples + ")" + Given;
}

/// What a site only a bounded run reaches says of the values.
std::string boundedValues(const BoundedRun &Run, std::int64_t PrimaryValue) {
  std::string Primary = std::to_string(PrimaryValue);
  if (Run.Large.empty())
    return "reached only when " + quotedList(Run.False) +
           (Run.False.size() == 1 ? " is false, not" : " are false, none") +
           " known at a launch site (every value the sweep tries makes a bool true): "
           "simulated with " + (Run.False.size() == 1 ? "it" : "them") +
           " false and the other values at " + std::to_string(Run.Samples.UnboundInteger);
  std::vector<std::string> Clauses = {
      quotedList(Run.Large) + " (compared as " +
      (Run.Large.size() == 1 ? "an upper bound) is" : "upper bounds) are") + " large"};
  std::vector<std::string> With = {Primary};
  if (!Run.Tested.empty()) {
    Clauses.push_back("'" + Run.Tested + "' is " + std::to_string(Run.TestedValue) +
                      " (a value the code tests)");
    With.push_back(std::to_string(Run.TestedValue));
  }
  if (!Run.Small.empty()) {
    Clauses.push_back(quotedList(Run.Small) + " small");
    With.push_back("1");
  }
  if (!Run.False.empty()) {
    Clauses.push_back(quotedList(Run.False) + " false");
    With.push_back("false");
  }
  auto Join = [](const std::vector<std::string> &Parts) {
    std::string Out;
    for (std::size_t I = 0; I < Parts.size(); ++I)
      Out += (I == 0 ? "" : I + 1 == Parts.size() ? " and " : ", ") + Parts[I];
    return Out;
  };
  return "reached only when " + Join(Clauses) +
         ", none known at a launch site (no one value for all of them reaches it): "
         "simulated with " + Join(With);
}

} // namespace

void noteUnknownAddress(AccessResult &A, const SiteTotals &T, const SiteRun &Run,
                        const LaunchClaims &C) {
  A.Status = AccessStatus::Unknown;
  if (const Expr *Read = memoryReadInAddress(T.Site.Expr, C.Kernel)) {
    A.Assumptions.push_back({AssumptionKind::DataDependentAddress,
                             "the address depends on values read from memory"});
    A.DataSource = sourceText(Read, C.Kernel->getASTContext());
  } else {
    // Said as what it is: no read of memory is in the address's
    // computation, so its values are not the data's.
    A.Assumptions.push_back(
        {AssumptionKind::UnfollowedValue,
         "the address depends on a value the simulation could not follow (no read "
         "from memory is in its computation: a call it does not run, inline "
         "assembly, a loop it cut short)"});
  }
  if (Run.OnlyBounded)
    A.Assumptions.push_back({AssumptionKind::UnboundValue,
                             boundedValues(*Run.OnlyBounded, C.Primary.Samples.UnboundInteger)});
}

void noteCostAssumptions(AccessResult &A, const SiteKey &Key, const SiteTotals &T,
                         const SiteRun &Run, const LaunchClaims &C, const std::string &Predicted) {
  ASTContext &Ctx = C.Kernel->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  const Simulation &Sim = *Run.Sim;
  const Sweep &Values = C.Runs.Values;
  const std::optional<ValueDependence> &Dependence = Run.Dependence;
  A.Assumptions = launchShapeAssumptions(C.Launch);
  if (T.FootprintRequests > 0) {
    std::string Var = T.Site.SharedVar ? "'" + T.Site.SharedVar->getNameAsString() + "'"
                                       : std::string("the shared array");
    A.Assumptions.push_back(
        {AssumptionKind::DataDependentAddress,
         "the address depends on values read from memory, but " + Var + " spans " +
             std::to_string(T.FootprintBytes) +
             " bytes, no more than one row of the banks: lanes that meet in a bank meet "
             "at one word, so 1 wavefront per request whatever the values"});
    if (const Expr *Read = memoryReadInAddress(T.Site.Expr, C.Kernel))
      A.DataSource = sourceText(Read, Ctx);
  }
  if (T.OneLaneRequests > 0) {
    A.Assumptions.push_back(
        {AssumptionKind::DataDependentAddress,
         "the address is not known, but one lane alone makes each such request (" +
             std::to_string(T.OneLaneRequests) + " in all): " +
             (T.Site.Space == MemorySpace::Shared ? "1 wavefront" : "1 sector") +
             " per request whatever the address (its element naturally aligned)"});
    if (const Expr *Read = memoryReadInAddress(T.Site.Expr, C.Kernel))
      A.DataSource = sourceText(Read, Ctx);
  }
  if (Run.OnlyBounded)
    A.Assumptions.push_back({AssumptionKind::UnboundValue,
                             boundedValues(*Run.OnlyBounded, C.Primary.Samples.UnboundInteger) + "; simulated on " +
                                 std::to_string(Sim.SimulatedWarps) + " warps"});
  if (Dependence)
    A.Assumptions.push_back({Dependence->RepresentativeValue ? AssumptionKind::MemoryValue
                             : !Dependence->CommandLineDefaults.empty()
                                 ? AssumptionKind::CommandLineDefault
                                 : AssumptionKind::UnboundValue,
                            dependenceSentence(*Dependence, T.Site.Space, C.Primary.Samples, C.Launch) +
                            "; simulated on " + std::to_string(Sim.SimulatedWarps) +
                            " warps"});
  else if (Values.Truncated)
    A.Assumptions.push_back({AssumptionKind::TruncatedSweep,
                            "the numbers may depend on " +
                            sweptNames(Values.Symbols, Values.Reads) + ": "
                            "its addresses were the same for the " +
                            std::to_string(Values.Runs.size()) +
                            " values the simulation budget allowed, not every value"});
  if (C.Runs.GridRun) {
    auto G = C.Runs.GridDigests.find(Key);
    auto P = C.Primary.Sim.Sites.find(Key);
    if (G == C.Runs.GridDigests.end() || P == C.Primary.Sim.Sites.end() ||
        G->second != P->second.AddressDigest)
      A.Assumptions.push_back({AssumptionKind::GridShape,
                              "the numbers depend on gridDim, not known at a launch "
                              "site (assumed (64, 64, 1))"});
  }
  if (T.Uncertain)
    A.Assumptions.push_back({AssumptionKind::DataDependentBranch,
                            "the access is under a data-dependent condition; "
                            "all lanes were assumed to take it"});
  // The loop's read of the old values (a load the atomic's call
  // makes: its traits are the atomic's) repeats with its rounds too.
  if (T.Site.Space == MemorySpace::Shared && T.Site.Op != AccessOp::Store &&
      model::isSharedAtomicRetryLoop(T.Site.Atomic))
    A.Assumptions.push_back({AssumptionKind::RetryLoop,
                            std::string("the compiler emits this atomic as a "
                                        "compare-and-swap loop (ATOMS.CAST.SPIN") +
                                (T.Site.Op == AccessOp::Load
                                     ? ", which reads the old values with this load "
                                       "each round"
                                     : "") +
                                ") whose rounds depend on how the lanes race; the "
                                "numbers are those of one round"});
  noteEmissionAssumptions(A, T, Ctx, Predicted);
  SourceLocation Loc = SM.getFileLoc(T.Site.Expr->getBeginLoc());
  // A loop an instruction was hoisted out of repeats no request of
  // it, however many of its iterations were simulated.
  auto Within = [&](const SourceRange &Loop) {
    // A load kept before its nest is made once, whatever the
    // iterations of the nest's loops.
    if (T.KeptInRegister > 0 && T.HoistedBefore &&
        SM.isPointWithin(SM.getFileLoc(Loop.getBegin()),
                         SM.getFileLoc(T.HoistedBefore->getBeginLoc()),
                         SM.getFileLoc(T.HoistedBefore->getEndLoc())))
      return false;
    return std::find(T.HoistedOutOf.begin(), T.HoistedOutOf.end(), Loop) ==
               T.HoistedOutOf.end() &&
           SM.isPointWithin(Loc, SM.getFileLoc(Loop.getBegin()),
                            SM.getFileLoc(Loop.getEnd()));
  };
  if (std::any_of(Sim.BudgetTruncatedLoops.begin(), Sim.BudgetTruncatedLoops.end(),
                  Within))
    A.Assumptions.push_back({AssumptionKind::LoopBudget,
                            "an enclosing loop was simulated for fewer than " +
                            std::to_string(C.MaxLoopIterations) +
                            " iterations, to stay within the simulation budget"});
  else if (std::any_of(Sim.TruncatedLoops.begin(), Sim.TruncatedLoops.end(), Within))
    A.Assumptions.push_back({AssumptionKind::LoopIterations,
                            "the enclosing loop was simulated for its first " +
                            std::to_string(C.MaxLoopIterations) +
                            " iterations"});
  A.Status = A.Assumptions.empty() ? AccessStatus::Exact : AccessStatus::Assumed;
}

} // namespace warpcheck::analysis
