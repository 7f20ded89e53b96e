//===- WarpInterpreter.h - executes a kernel for the 32 lanes of a warp ---===//
//
// Index expressions are evaluated by running the kernel body in SIMT
// lockstep for one warp at a time: every variable holds 32 lane values,
// branches split the active mask, loops run until their lanes leave. Values
// read from memory are unknown (never guessed); a memory access records the
// byte address of every active lane, which is exactly what the memory system
// sees. This gives reaching definitions, loop induction variables, guards,
// partial warps and device-function calls with bound parameters for free.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_INTERP_WARPINTERPRETER_H
#define WARPCHECK_ANALYSIS_INTERP_WARPINTERPRETER_H

#include "warpcheck/analysis/AccessReport.h"
#include "warpcheck/analysis/ArrayLayout.h"
#include "warpcheck/analysis/LaunchConfig.h"
#include "warpcheck/model/Roofline.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <vector>

namespace warpcheck::analysis {

struct InterpreterLimits {
  unsigned MaxLoopIterations = 64;
  /// Iterations after which a loop some of whose lanes stay on a
  /// data-dependent condition is cut (as MaxLoopIterations cuts): a loop
  /// run to the end (a large MaxLoopIterations) would otherwise run to the
  /// step budget when its exit depends on data.
  unsigned MaxUncertainLoopIterations = ~0u;
  unsigned MaxCallDepth = 12;
  std::uint64_t MaxSteps = 4'000'000; ///< lane-steps per warp
};

/// Values assumed for what the source does not fix.
struct SampleValues {
  /// Every unbound integer parameter; a warp-uniform integer read from
  /// memory takes a multiple of it (Expressions.cpp, sweepUniformRead).
  std::int64_t UnboundInteger = 4096;
  /// Unbound integer parameters that take a value of their own instead
  /// (the FLOP formula's fit, LaunchWork.cpp, moves one at a time).
  std::map<const clang::ParmVarDecl *, std::int64_t> ParameterValues;
  /// Warp-uniform integer reads from memory take the swept value; false:
  /// they are unknown, and the branches they decide are taken both ways.
  bool SweepMemoryReads = true;
  /// Stop a warp at its first access outside a __shared__ array of fixed
  /// size: the values that led there are ones the program cannot take
  /// (ValueSweep runs of values a feasible primary already bounds).
  bool StopAtOutOfBounds = false;
  Dim3 AssumedGrid{64, 64, 1};
};

/// Position of the warp being simulated.
struct WarpPosition {
  Dim3 BlockIdx{0, 0, 0};
  unsigned WarpInBlock = 0;
};

/// One warp request of one access site.
struct RecordedRequest {
  AccessSite Site;
  /// Addresses of the active lanes; nullopt when any address is unknown.
  std::optional<model::WarpAddressSet> Addresses;
  /// Addresses unknown, every lane's inside one shared variable: its size
  /// in bytes (0 otherwise). It bounds what the request can cost
  /// (model::isConflictFreeFootprint).
  std::uint64_t FootprintBytes = 0;
  /// Addresses unknown, but one lane makes the request (not under a
  /// data-dependent branch): whatever its address, one lane's request.
  bool OneLane = false;
  /// Executed under a data-dependent branch or loop exit.
  bool UnderUncertainMask = false;
  /// A whole-struct copy split into field-sized requests (the compiler may
  /// drop unused fields).
  bool StructCopy = false;
  /// Of a StructCopy: one side of an assignment whose other side is memory
  /// too (`out[i] = in[i]`), so that every field is copied.
  bool MemoryToMemory = false;
  /// Of a StructCopy: how many requests of its width one copy makes
  /// (model::structCopyPieces), each an instruction of its own.
  unsigned CopyPiecesOfWidth = 0;
  /// The calls run inline to reach the access, outermost (the kernel's
  /// own) first: its executions through each are costed apart too
  /// (SiteTotals::ByCallSite).
  std::vector<const clang::CallExpr *> CallSites;
};

/// Receives each request as it is executed.
using RequestSink = std::function<void(const RecordedRequest &)>;

class WarpInterpreter {
public:
  WarpInterpreter(clang::ASTContext &Ctx, const LaunchConfig &Launch,
                  const SampleValues &Samples, const InterpreterLimits &Limits,
                  const std::map<const clang::VarDecl *, ArrayLayout> &Layouts,
                  RequestSink Sink);
  ~WarpInterpreter();

  /// Runs Kernel for one warp.
  void runWarp(const clang::FunctionDecl *Kernel, const WarpPosition &Where);

  /// Lane-steps the last runWarp took (at most about MaxSteps).
  std::uint64_t stepsOfLastWarp() const;
  /// True once signed arithmetic overflowed, or a shift count reached the
  /// width of its type, in any simulated warp: undefined behaviour a valid
  /// program never executes, so the sampled values were implausible.
  bool sawUndefinedArithmetic() const;
  /// True once a lane outside any data-dependent branch addressed a
  /// __shared__ array of fixed size outside its bytes: undefined behaviour
  /// as well (C++ [expr.add]), so the values sampled were ones the program
  /// never takes: `s_list[num_threads - 1]` bounds num_threads by the
  /// array's extent.
  bool sawOutOfBoundsShared() const;

  /// Parameters (and gridDim) whose sampled value was read.
  const std::set<std::string> &sampledSymbolsRead() const;
  /// Integer reads from memory, one address for the whole warp, that took
  /// the sampled value (their source text).
  const std::vector<std::string> &sweptReads() const;
  /// Loops that were cut at MaxLoopIterations (their source ranges).
  const std::vector<clang::SourceRange> &truncatedLoops() const;
  /// Loops among those that were cut earlier, when the warp had used half
  /// of MaxSteps.
  const std::vector<clang::SourceRange> &budgetTruncatedLoops() const;
  /// The floating-point instructions the last runWarp executed, one per
  /// active lane (FloatOperations.h).
  const model::FlopCounts &flopsOfLastWarp() const;
  /// Floating-point operations met whose instructions are not counted
  /// (divisions, square roots, math functions): their source text.
  const std::set<std::string> &uncountedFloatOperations() const;
  /// Whether any counted operation ran for lanes under a data-dependent
  /// condition (so the counts assume every lane took it).
  bool flopsUnderUncertainMask() const;
  /// The FLOPs executed inside each loop statement, per lane, summed over
  /// every warp run (for the loop's arithmetic intensity).
  const std::map<const clang::Stmt *, double> &flopsPerLoop() const;
  /// Unsupported constructs met (goto, ...), and the step budget's cut.
  const std::set<std::string> &limitations() const;
  /// Some warp stopped at MaxSteps; its limitation is this sentence.
  bool stepBudgetExhausted() const;
  static constexpr const char *StepBudgetExhausted =
      "the simulation step budget was exhausted; later accesses of this warp were not "
      "simulated";
  /// Per access site: the values of the index sub-expressions the first time
  /// the access was executed, for explaining which term spreads lanes.
  const std::map<const clang::Expr *,
                 std::map<const clang::Expr *, std::vector<std::int64_t>>> &
  capturedSubexpressions() const;

private:
  class Impl;
  Impl *P;
};

/// Whether E is a call of cuRAND's curand_init (a library function), whose
/// writes of the generator state it is given the interpreter records as a
/// store of the whole state (WarpInterpreter::Impl::randomStateInitCall).
bool isRandomStateInit(const clang::Expr *E);

} // namespace warpcheck::analysis

#endif
