//===- ValueSweep.h - numbers under every value the source leaves open ----===//
//
// Private to analysis/. A kernel parameter no launch site binds has no one
// value; sampling one (4096, say) and calling the result exact is wrong
// for code such as `2 * tid - (tid & (size - 1))`, which has one wavefront
// at 4096 and a 2-way conflict at 4. The sweep simulates the launch once
// per value of a fixed set (powers of two up to 65536 and their
// neighbours), on the same warps, and per access: whether its addresses
// change with the value (then it is not exact), the range of its numbers
// and the values that give the worst case, said in words.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_VALUESWEEP_H
#define WARPCHECK_ANALYSIS_VALUESWEEP_H

#include "Simulation.h"

#include "clang/AST/Decl.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace warpcheck::analysis {

/// The values every unbound integer parameter takes, one simulation each,
/// in the order they are tried: 1 to 65537, the powers of two and their
/// neighbours (alignment and bank patterns change at powers of two; an odd
/// neighbour breaks them).
const std::vector<std::int64_t> &sweepValues();

/// Values the kernel's own code singles out for its parameters, in the
/// order met: the mask of `p & 0x10` (a mode flag: only a value with that
/// bit takes the branch), the constant of `p == K` / `p != K`, and K and
/// K + 1 of `p < K` and the other comparisons (the two sides of the test).
/// Read from Kernel and the functions it calls (their bodies, four calls
/// deep); positive values up to 65536, at most eight. The sweep tries them
/// right after the primary value: a budget that cuts it short after a few
/// values still takes both sides of such a branch.
std::vector<std::int64_t> valuesTheCodeTests(const clang::FunctionDecl *Kernel);

/// Names of the parameters the code of Kernel and of the functions it calls
/// (four calls deep) compares as upper bounds: `n` of `i < n`, `i + tid <=
/// n`, `n > i`. The sweep gives every unbound parameter one value at a time,
/// so that `for (i = blockIdx.x * nodes + rank; i < count; ...)` is never
/// entered (whatever the value, i starts at or past count): one more run
/// gives these parameters a large value and the others 1, and reports what
/// only it reaches (KernelAnalysis.cpp).
std::set<std::string> limitParameters(const clang::FunctionDecl *Kernel);

/// One simulation of the sweep.
struct SweepRun {
  std::int64_t Value = 0;
  Simulation Sim;
  /// For a value that indexes a __shared__ array past its end (one the
  /// program cannot take), kept only because it alone reaches some
  /// accesses: those accesses. Its numbers count for them alone; empty
  /// for every other run (its numbers count for every access).
  std::set<SiteKey> OnlyFor;
};

/// The primary simulation's value and the sweep's runs (the primary among
/// them, at its value). Runs whose arithmetic overflowed are not in Runs.
struct Sweep {
  std::vector<std::string> Symbols;
  /// Warp-uniform integer reads from memory swept with the parameters
  /// (their source text).
  std::vector<std::string> Reads;
  /// The primary simulation's value: of runs equally worst, its numbers
  /// are the ones reported.
  std::int64_t PrimaryValue = 0;
  std::vector<SweepRun> Runs;
  bool Truncated = false;
};

/// How Site's numbers vary over the sweep; nullopt when its addresses are
/// the same under every value (it does not depend on them). The worst case
/// is the lowest efficiency; WorstRun is the index in S.Runs of the run
/// that gives it.
std::optional<ValueDependence> dependenceOf(const SiteKey &Site, const Sweep &S,
                                            std::size_t &WorstRun);

/// Gives D's sample of Value the numbers Cost (the same value simulated on
/// more warps) and its range (Worst, Best) the samples' again.
void replaceSample(ValueDependence &D, std::int64_t Value, const AccessCost &Cost,
                   MemorySpace Space);

/// Words for the values in Worst among All (both ascending): "when 'size'
/// <= 16" (a threshold), "unless 'offset' is a multiple of 8" (an
/// alignment), "when 'size' is a power of two <= 16", "when 'size' is 4, 8
/// or 16", "for some values of 'size' (such as 4 and 8)", or "for every
/// value tried".
/// With MemoryReads, "the values read from memory" are named after the
/// symbols.
std::string describeValues(const std::vector<std::string> &Symbols,
                           const std::vector<std::int64_t> &Worst,
                           const std::vector<std::int64_t> &All,
                           bool MemoryReads = false);

} // namespace warpcheck::analysis

#endif
