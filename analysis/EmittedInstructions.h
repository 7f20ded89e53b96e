//===- EmittedInstructions.h - the accesses as the compiler emitted them --===//
//
// Private to analysis/. The warp interpreter records the accesses the
// source writes, one request per execution. With the compiled kernel's
// memory instructions read from the toolkit's listing (SassListing.h), the
// requests of each warp are reshaped into the ones its instructions make,
// before they are costed:
//
//  merged   accesses of one line whose per-lane addresses are contiguous and
//           aligned to their sum, where the listing has an instruction of
//           that width on the line: s[i], s[i + 1] as one LDS.64 (the
//           reduction of cuda-shared-bank-conflict.cu at s = 1), As[ty][k]
//           for k..k+3 of an unrolled loop as one LDS.128 (the tiled
//           matrix multiply of shared-memory-shapes.cu). ptxas merges
//           exactly such runs (contiguous, aligned, same predicate): the
//           PTX nvcc hands it still has one ld.shared per element
//           (UnrolledMerges.h);
//  split    an access wider than every instruction of its line: chunks of
//           the widest one that divides it, when the line has as many of
//           them as the access has chunks (with fewer, the compiler reads
//           only the fields it uses: nvcc-dialect-device.cu's `int4 v =
//           __ldcs(p)` of which only v.x is used is one 4-byte LDG, at an
//           offset the listing does not say);
//  moved    an access whose line has no instruction of its kind, paired with
//           the instructions of a line that has no access of that kind (the
//           int4 copy of shared-memory-shapes.cu's strided<int4> is read by an
//           LDS.128 attributed to the line of its first use), or, when no
//           such line fits, merged with the accesses of the nearest line
//           whose instructions are wide enough (merged-accesses.cu's
//           s[i0] = ... and s[i1] = ... on two lines, one STS.64 on the
//           second), a line whose access lies next to it in memory first
//           (vector-halves.cu: a float2's .y merged into its .x's LDG.E.64
//           two lines up, past another array's); several lines' accesses
//           that could each be only one line's instructions take them
//           together when there is one per access, all of one width
//           (one-lane-walks.cu: a rotated loop's two loads of lval, lines
//           17 and 21, both LDG.E on line 19, its first use); several
//           lines' accesses that could each be several lines' instructions
//           are paired with them by order, each instruction line between
//           its access and the previous (or next) one
//           (MovedInstructionOrder.h: gen-3.cu's gen3_10, two loads hoisted
//           onto the lines of the barrier and the atomicAdd before their
//           loops); an instruction placed in a header no access is in (an
//           atomic's inlined code) also counts, for a line no instruction
//           of its file could serve and for the pairing by order, as at its
//           innermost position in the accesses' file (a wmma store's own
//           instructions are the call's: they pair with nothing else);
//  hoisted  moved outside a loop the access is written in (in[i] of
//           cuda-occupancy.cu's sharedBound, a loop-invariant load nvcc
//           hoists before its loop of constant trip count, on the line of
//           `int i = ...` before it; a load invariant in its innermost
//           loop only, to that loop's line, once per run of the loop:
//           llm.c's att_bth[t3] inside `for (t2 ...)`, inside `for (t ...)`,
//           where the listing has a load on the inner `for` line no access
//           of that line explains), or kept on its line but outside the
//           loop the listing still has there (the accumulator tmp[i] of
//           `tmp[i] += A[i * n + j] * x[j]` in compiler-transformations.cu:
//           its load before the loop, and with __restrict__ its store after
//           it; the loop's instructions step one register per access that
//           varies, none is the accumulator's): an execution whose lanes
//           are lanes of the access's previous one, at the same addresses,
//           makes no request (the loop's last iterations, which fewer lanes
//           reach, included);
//  repeats  removed after unrolling: a line none of whose instructions is
//  removed  inside a loop of the listing executes each of them at most once
//           per warp, so a warp that executes the line's accesses more
//           often than its instructions could serve, even merged to their
//           widest, had its repeats removed (a load of an address loaded
//           before kept in a register, a store that a later one to the same
//           address overwrites dropped): an execution with the addresses of
//           any earlier one of the access makes no request, unless another
//           access of the same memory came between them that may write
//           what the load reads, or read what the store writes
//           (test/inputs/generated/gen-1.cu line 16: 16 stores of one float4
//           address in a loop nest of 8 x 2, one STG.E.128, one request per
//           warp on the H200);
//  selected the accesses of a branch's two arms with no instruction on
//           their lines, and one instruction after the branch that fits
//           both (compiler-transformations.cu's branchArms: one LDS of the
//           address the condition selects, a 2-way conflict neither arm
//           has): one request for the lanes of both. In a loop nvcc
//           unrolled, the copies of that instruction may be spread by the
//           line table over several lines, one arm's included, that no
//           other access could explain (llm.c's attention_softmax_kernel1:
//           16 STG of the selected value on its `for`, `if` and first
//           arm's lines): one group, reported on the arm's line with the
//           others as its other lines.
//
// What the listing does not explain (a line whose instructions no access
// explains and that could be any of several lines' accesses) is costed as
// without a listing, by the model of what the compiler does (merges of
// unrolled iterations, values kept in registers), with an
// unmatched_instructions assumption; a width no reshaping produces leaves
// the access with its source-level numbers and that assumption.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_EMITTEDINSTRUCTIONS_H
#define WARPCHECK_ANALYSIS_EMITTEDINSTRUCTIONS_H

#include "interp/WarpInterpreter.h"

#include "warpcheck/analysis/SassListing.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warpcheck::analysis {

/// The listing's instructions of one source line for one kind of access.
struct InstructionSlot {
  std::string File;
  unsigned Line = 0;
  /// Other lines of File whose instructions are of the same group (copies
  /// of one unrolled instruction the line table spreads over several
  /// lines: "selected" below), in order.
  std::vector<unsigned> OtherLines;
  /// Their widths in bytes per lane, and the first opcode of each width.
  std::map<unsigned, std::string> OpcodeOfWidth;
  /// How many instructions of each width the listing has there.
  std::map<unsigned, unsigned> CountOfWidth;
};

/// How one access site is executed.
struct SitePlan {
  /// Where its instructions are; null when none was matched (Unmatched
  /// says why).
  const InstructionSlot *Slot = nullptr;
  bool Moved = false, Hoisted = false;
  /// Executions with the addresses of an earlier one of the same warp are
  /// served by it ("repeats removed" above).
  bool RepeatsRemoved = false;
  /// Accesses in the two arms of one branch that one instruction after it
  /// serves, from a selected address (the statement that branches): a
  /// request of one arm and the next of the other, whose lanes do not
  /// overlap, are one request.
  const clang::Stmt *SelectedAt = nullptr;
  /// The loops (their statements' ranges) the instruction was moved out of.
  std::vector<clang::SourceRange> HoistedOutOf;
  std::string Unmatched;
  /// The listing has no line of the access's file at all (a cubin compiled
  /// without -lineinfo, or from another copy of the file): the access is
  /// costed as written, as without a listing.
  bool Unlisted = false;
};

/// One request as an instruction makes it.
struct EmittedRequest {
  /// The access it is counted with (the first of Members: the one at the
  /// lowest address) and the lanes' addresses, BytesPerLane wide.
  const RecordedRequest *Leader = nullptr;
  model::WarpAddressSet Addresses{4};
  /// Null for a request of an access with no plan: costed as recorded.
  const InstructionSlot *Slot = nullptr;
  std::string Opcode;
  bool Merged = false, Split = false, Moved = false, Hoisted = false;
  bool RepeatsRemoved = false;
  /// Every access whose execution it serves, in address order.
  std::vector<const RecordedRequest *> Members;
};

/// The opcode nvdisasm prints for a plain access of Bytes per lane, for
/// an instruction the model predicts without a listing: LDG.E, STS.64,
/// LDS.U8 (a 32-bit access is named by its opcode alone).
std::string modelOpcode(MemorySpace Space, AccessOp Op, unsigned Bytes);

/// The one request of a selected address ("selected" above): First's
/// lanes and, when the other arm ran too, Second's, counted with First.
EmittedRequest selectedRequest(const RecordedRequest &First, const RecordedRequest *Second);

class InstructionReconciler {
public:
  /// Instructions: the kernel's (kernelMemoryInstructions), with the
  /// source positions of the listing.
  InstructionReconciler(const std::vector<SassMemoryInstruction> &Instructions,
                        const clang::FunctionDecl *Kernel);
  ~InstructionReconciler();

  /// One warp's requests, in the order it made them.
  void addWarp(std::vector<RecordedRequest> Requests);

  /// Matches the accesses seen with the listing, then gives every request
  /// the instructions make to Sink, warp by warp, and every request an
  /// earlier one of a hoisted instruction serves to Served. A request the
  /// listing does not explain (its access has no instruction: Unmatched or
  /// Unlisted; or its addresses are unknown) goes to Unexplained with the
  /// index of its warp, for the model of what the compiler does without a
  /// listing (UnrolledMerges.h, RegisterPromotion.h): sgemm_cuda's
  /// `As[... + i]` of an unrolled loop, whose LDS.128 the reconciliation
  /// cannot tell from another line's, is the no-toolkit model's merge
  /// (measured 1 wavefront per request), not eight 4-byte loads.
  void finish(llvm::function_ref<void(const EmittedRequest &)> Sink,
              llvm::function_ref<void(const RecordedRequest &)> Served,
              llvm::function_ref<void(const RecordedRequest &, size_t Warp)> Unexplained);

  /// The plan of each access site (after finish).
  const std::map<std::pair<const clang::Expr *, AccessOp>, SitePlan> &plans() const {
    return Plans;
  }
  /// Accesses some of whose requests had a width no instruction of their
  /// line has (after finish): why.
  const std::map<std::pair<const clang::Expr *, AccessOp>, std::string> &mismatches() const {
    return Mismatches;
  }
  /// Accesses served as written whose line has an instruction for each of
  /// their requests of one execution (a struct copy none of whose fields
  /// the compiler dropped).
  bool complete(const std::pair<const clang::Expr *, AccessOp> &Id) const {
    return CompleteCopies.count(Id) && !Mismatches.count(Id);
  }

private:
  struct Impl;
  std::unique_ptr<Impl> P;
  std::map<std::pair<const clang::Expr *, AccessOp>, SitePlan> Plans;
  std::map<std::pair<const clang::Expr *, AccessOp>, std::string> Mismatches;
  std::set<std::pair<const clang::Expr *, AccessOp>> CompleteCopies;
};

} // namespace warpcheck::analysis

#endif
