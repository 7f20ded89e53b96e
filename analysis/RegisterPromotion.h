//===- RegisterPromotion.h - accesses nvcc keeps in a register in a loop --===//
//
// Private to analysis/. Without the compiled kernel's listing
// (EmittedInstructions.h reads it when a toolkit is there), what nvcc's
// optimizer does to a loop's global accesses is predicted from the source,
// for the case measured on the H200 (test/inputs/compiler-transformations.cu,
// records test/hw/inputs/): an access whose addresses are the same in every
// iteration is kept in a register across the loop when nothing else in it
// may write the memory it reads (a load: LLVM's LICM and store-to-load
// forwarding, as `tmp[i] += A[i * n + j] * x[j]`'s load of tmp[i], made once
// before the loop with or without __restrict__), or read the memory it
// writes (a store through a __restrict__ pointer: sunk after the loop; a
// plain pointer's store stays in every iteration when the loop reads A or
// x, which may alias tmp, and is sunk when the loop reads nothing through a
// pointer: test/inputs/generated/, measured likewise). Whether the addresses
// repeat is seen in the simulation; this reads only the source: the loop's
// stores and the pointers they go through.
//
// A nest whose loops nvcc unrolls completely (UnrolledMerges.h,
// completeUnrollTripCount, at most 32 iterations in all) is straight-line
// code: GVN and dead-store elimination then remove every repeat of an
// address, not only one that the loop's counters leave unchanged. Under
// the same conditions on what else the nest reads and writes, an execution
// of an access with the addresses of any earlier one (of the warp's one
// execution of the nest) makes no request. Measured on the H200
// (test/inputs/generated/): gen-1.cu line 215, `out[(j * 2 + i) ^ 16]` over
// 8 x 4 iterations, 14 stores per warp, one per distinct address; gen-5.cu
// line 252, `in[j].n` over 2 x 3, 3 loads.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_REGISTERPROMOTION_H
#define WARPCHECK_ANALYSIS_REGISTERPROMOTION_H

#include "warpcheck/analysis/AccessKinds.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <map>
#include <utility>

namespace warpcheck::analysis {

/// The global accesses of Kernel's own loop nests (not those of the
/// functions it calls; each loop with no loop around it, read with the
/// loops inside it) that nvcc may keep in a register across their loop,
/// each with its innermost loop. A load qualifies when every other store
/// of the nest goes through a different pointer parameter and one of the
/// two pointers is __restrict__ (or to a local or __shared__ array); a
/// store when its pointer parameter is __restrict__ and no other access of
/// the nest goes through it, or, through a plain pointer, when the store is
/// made in every iteration and no other access of the nest goes through a
/// pointer parameter or a pointer this model does not name. A nest with a
/// call, an atomic, a barrier, inline assembly, a volatile access or a
/// store through anything but a pointer parameter or an array of its own
/// keeps all its accesses. In a nest unrolled completely, the accesses
/// under no branch qualify by the same rules whatever their addresses. An
/// access through a local pointer initialized from a pointer parameter and
/// never written after (`const float *row = in + r * n; row[k]`) goes
/// through that parameter (pointerParameterThrough, SourceMemory.h).
struct KeptAccess {
  /// The innermost loop around the access.
  const clang::Stmt *Loop = nullptr;
  /// In a nest unrolled completely: an execution with the addresses of any
  /// earlier one is served, not only of the previous one.
  bool RepeatsRemoved = false;
  /// A load of an address the nest never writes, made in every iteration
  /// (under no branch), the same in all of them (in a nest unrolled
  /// completely too: LICM runs before the full unroll): LICM moves it
  /// before the nest's outermost loop,
  /// this (or, the address changing with an outer loop, before the
  /// outermost inner loop in which it does not: its line is then that
  /// loop's, attention_backward.cu's `att_bth[t3]` in test/hw/realcode),
  /// and drops its debug location (LLVM's hoist(): "apply line 0
  /// debug locations when we are moving instructions to different basic
  /// blocks"), so that the line table gives it the line of the instruction
  /// before it, its address's computation: HoistedLine, the line of the
  /// local variable its address names that was declared last before the
  /// nest (`int i = ...`: the seven kernels of test/inputs/hoisted-loads.cu,
  /// with bounds constant or known at run time only, read-only pointers
  /// (LDG.E.CONSTANT) or not, and cuda-occupancy.cu's two, measured). An
  /// address naming no local variable is computed after the test that
  /// enters a loop whose bound is known at run time only: the loop's line
  /// (the corpus's listings, test/hw/realcode/: MC_SingleAsianOptionP's
  /// `option->spot` and its kin, on their `for` line); 0 (unknown) before a
  /// loop entered untested (but see ScheduledAfter). A load the loop also stores through (an
  /// accumulator, `tmp[i] += ...`) is promoted instead: its load keeps its
  /// own line (compiler-transformations.cu line 15).
  const clang::Stmt *HoistedBefore = nullptr;
  unsigned HoistedLine = 0;
  /// When a store, an atomic or a barrier lies between the address's
  /// computation and the nest (its line, this): the line is ptxas's
  /// schedule's, which the source does not tell. Measured on the H200
  /// (test/inputs/generated/): in gen-3.cu's gen3_10 the load stays after
  /// the `__syncthreads()` and the atomicAdd before its loop (their lines);
  /// in gen-1.cu's gen1_14 and gen-4.cu's gen4_14 it is scheduled above
  /// barriers and shared stores, onto the line of its index's computation.
  /// HoistedLine is then 0 and the load is reported on its own line, its
  /// numbers assumed (scheduled_line).
  unsigned ScheduledAfter = 0;
};

std::map<std::pair<const clang::Expr *, AccessOp>, KeptAccess>
accessesKeptInRegisters(const clang::FunctionDecl *Kernel);

} // namespace warpcheck::analysis

#endif
