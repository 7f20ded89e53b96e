//===- UnrolledMerges.h - accesses the compiler merges into wider ones ---===//
//
// Private to analysis/. Without the compiled kernel's listing
// (EmittedInstructions.h reads it when a toolkit is there), what the
// compiler makes of a fully unrolled loop's __shared__ accesses is
// predicted from the source. NVVM unrolls a loop with a constant trip count
// completely (with `#pragma unroll`, or when the unrolled body stays small)
// and leaves each iteration's access a scalar ld.shared in the PTX; ptxas
// then merges the loads (or stores) at consecutive offsets from one
// address into one LDS.64/LDS.128 (STS) per lane, when it knows the array
// aligned to that width. It knows when it places the array itself: always
// without relocatable device code; with -rdc=true only for the dynamic
// `extern __shared__` array and an array declared `__align__(16)`.
// Measured on the H200 (cuobjdump -sass of nvcc 13 -arch=sm_90, the kernels
// of test/inputs/unrolled-shared-loads.cu): a tiled matrix multiply's
// As[ty * T + k] for k < T (T = 4 to 32, with and without the pragma) is
// T/4 LDS.128 per tile in whole-program mode, T scalar LDS with -rdc=true,
// T/4 LDS.128 again with -rdc=true and `__align__(16)`; cuda-samples'
// matrixMul (built with -rdc=true) reads As[ty][k] with LDS, sgemm_cuda
// (built without) reads `As[... + threadRowInWarp * TM + i]` for i < 8
// with two LDS.128 (2 wavefronts per request, ideal 2: no conflict, where
// eight 4-byte loads would have a 2-way one), test/hw/realcode/.
//
// Source conditions (what keeps the iterations in one basic block, with
// nothing between them that may write what a load reads): the access's
// innermost loop is a `for` with a constant trip count of at most 32
// (any, up to 1024, under `#pragma unroll` with no smaller count), whose
// body has no branch, loop, call, barrier, jump or inline assembly, and
// whose counter is written only by its increment; the access indexes an
// array or pointer with a non-volatile 4- or 8-byte scalar element. The
// simulation then decides per access, over all its runs, as the compiler
// decides once for the code: each run's executions (its trip count of
// them) must follow each other lane by lane with the same lanes active,
// and the request is as wide as every run's first addresses are aligned
// to, up to 16 bytes per lane and to the largest power of two that divides
// one run's bytes, and no wider than the index as written lets the compiler
// prove aligned (IndexAlignment.h: `threadIdx.x * stride + k` with `stride`
// a kernel parameter is proved nothing, whatever the values passed). A store to the same __shared__ variable between two
// loads of a run (or any other shared access between two stores) breaks
// the chain: nothing is merged.
//
// Two adjacent elements outside such a loop, `s[i0]` and `s[i1]` with
// `int i1 = i0 + 1` (adjacentPartner), both read or both written, are a run
// of two, under the same rules: merged-accesses.cu's pairs are one LDS.64
// and two STS.64, measured. ptxas puts a merged store on the line of the
// second store and, there, a merged load on the line of the first load
// (fastWalshTransform's LDS.64 is on its second line: not predicted).
//
// Every field of one vector-like element (a struct of 8 or 16 bytes aligned
// to its size, without padding: float2, uint4, double2), read or written
// through one expression in one statement, or in statements next to each
// other that keep one basic block and call nothing (but functions inlined
// as straight-line code that touch no memory), is a run too
// (fieldGroup): in global memory as well as in __shared__, since the type
// tells the compiler the element's alignment. LLVM's load-store vectorizer makes them
// one access of the element: merged-accesses.cu's `p[i].x * p[i].y` of a
// float2 is one LDG.E.64, `v.x + v.y + v.z + v.w` of a `const uint4 &v =
// in[i]` one LDG.E.128 (measured, 8 and 16 sectors per request as one
// access of the element has); `o[i].x = a; o[i].y = b;` one st.global.v2
// in nvcc 13.0's PTX (fieldGroup). A global store between two of the
// group's loads, or any global access between two of its stores, breaks it.
//
// The loads of a branch's two arms that the compiler makes one load of the
// address the condition selects (SelectedLoads.h) are predicted here too:
// a request of one arm and the other arm's next, their lanes disjoint, are
// one request, on the line of the statement after the branch.
//
// Not modelled: merges across the iterations of an outer loop, adjacent
// global elements (a global pointer's alignment is not known to the
// compiler: two LDG.E stay two), some fields of an element only, local
// memory, the aligned superset ptxas reads for a run that starts past a
// boundary.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_UNROLLEDMERGES_H
#define WARPCHECK_ANALYSIS_UNROLLEDMERGES_H

#include "EmittedInstructions.h"
#include "LoopUnrolling.h"
#include "SelectedLoads.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace warpcheck::analysis {

/// What the source says of one access's unrolled loop.
struct UnrolledLoopAccess {
  /// Executions of the access per run of its loop.
  unsigned TripCount = 0;
  /// The widest request a chain of its executions may become, in bytes per
  /// lane (8 or 16).
  unsigned MaxBytes = 0;
};

/// The other of two adjacent elements of one array accessed alike, when
/// Site is one (`s[i0]` and `s[i1]` with `int i1 = i0 + 1`, both read or
/// both written, of 4 or 8 bytes, in one function): the pair ptxas merges
/// into one 8- or 16-byte access per lane when the first is aligned to it
/// (fastWalshTransform's LDS.64 and STS.64, measured) and its index as
/// written proves that alignment (IndexAlignment.h); null otherwise.
const clang::Expr *adjacentPartner(const clang::Expr *Site, AccessOp Op, clang::ASTContext &Ctx);

/// Every field of a vector-like element accessed in one statement or in
/// neighbouring straight-line ones (the conditions above): the first field's expression (the group's key), the
/// number of fields and the element's size.
struct FieldGroup {
  const clang::Expr *First = nullptr;
  unsigned Fields = 0;
  unsigned Bytes = 0;
};
std::optional<FieldGroup> fieldGroup(const clang::Expr *Site, AccessOp Op,
                                     clang::ASTContext &Ctx);

/// What a predicted merge joins: iterations of an unrolled loop, two
/// adjacent elements, the fields of one element, or the loads of a
/// branch's two arms (SelectedLoads.h).
enum class MergeKind { UnrolledLoop, AdjacentElements, ElementFields, SelectedArms };

/// The alignment ptxas knows a __shared__ array to have, in bytes (16 at
/// most; 0 for an unknown array): any without relocatable device code, the
/// dynamic array's, else the declared one (`__align__(16)`).
unsigned knownSharedAlignment(const clang::VarDecl *Var, const clang::ASTContext &Ctx);

/// Whether the source lets nvcc merge Site's consecutive executions (the
/// conditions above), and how far.
std::optional<UnrolledLoopAccess> unrolledLoopAccess(const clang::Expr *Site,
                                                     clang::ASTContext &Ctx);

/// The requests of a simulation in, the requests the predicted
/// instructions make out (EmittedRequest, as the listing's reconciliation
/// makes them). The width is decided per access over all its runs, as the
/// compiler decides it once for the code: the largest the first addresses
/// of every run are aligned to (sgemm_cuda's `Bs[dotIdx * (BN + 5) + ...]`
/// is aligned to 16 bytes at even dotIdx only: LDS, measured, not LDS.128),
/// none when a run's iterations do not follow each other or a chain is
/// broken once.
class UnrolledMergePredictor {
public:
  explicit UnrolledMergePredictor(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// Takes one request: a request no merge can take is given to Pass at
  /// once; one that may be merged is kept (and given to Held at once, for
  /// what does not depend on how it executes) until finish.
  void add(const RecordedRequest &R, llvm::function_ref<void(const RecordedRequest &)> Pass,
           llvm::function_ref<void(const RecordedRequest &)> Held);

  /// The end of a warp's simulation.
  void finishWarp();

  /// Every kept request, as the requests its instructions make.
  void finish(llvm::function_ref<void(const EmittedRequest &)> Emit);

  /// The sites some of whose executions were merged (after finish), with
  /// what the merge joined.
  const std::map<std::pair<const clang::Expr *, AccessOp>, MergeKind> &mergedSites() const {
    return Merged;
  }

  /// The sites whose loop qualifies and whose runs follow each other, but
  /// not from addresses aligned as a merge needs (after finish): ptxas may
  /// still read them wider (an aligned superset of a misaligned run, a
  /// parity an outer loop's unrolling makes known), so their numbers as
  /// written are not exact.
  const std::set<std::pair<const clang::Expr *, AccessOp>> &unalignedSites() const {
    return Unaligned;
  }

private:
  using SiteId = std::pair<const clang::Expr *, AccessOp>;
  struct SitePlan {
    UnrolledLoopAccess Loop;
    /// The widest request every run's first addresses allow.
    unsigned Width = 0;
    bool Broken = false;
    /// Whether the last run is this warp's.
    bool InThisWarp = false;
    /// Two adjacent elements accessed alike (adjacentPartner), not a loop.
    bool Pair = false;
    /// The fields of one element (fieldGroup), not a loop.
    bool Group = false;
    /// Per run of a pair, the access its instruction is counted with
    /// (finish).
    std::vector<const RecordedRequest *> CountedWith;
    /// Each run of the loop: the access's executions in it.
    std::vector<std::vector<const RecordedRequest *>> Runs;
  };

  /// One execution of a branch whose arms' loads are one instruction
  /// (SelectedLoads.h): the request of the arm run first, and the other
  /// arm's when its lanes ran it too.
  struct SelectedRun {
    const RecordedRequest *First = nullptr, *Second = nullptr;
    unsigned Line = 0;
  };

  /// Line: where the instruction is, when not on the access's line.
  const InstructionSlot *slotFor(const RecordedRequest &R, unsigned Bytes, unsigned Line = 0);
  const std::optional<SelectedLoad> &selectionOf(const RecordedRequest &R);

  clang::ASTContext &Ctx;
  std::map<const clang::Expr *, std::optional<UnrolledLoopAccess>> Known;
  std::map<SiteId, const clang::Expr *> Partners;
  std::map<SiteId, std::optional<FieldGroup>> Groups;
  std::map<SiteId, SitePlan> Sites;
  /// This warp's executions of each site so far (their position in the
  /// runs of its loop).
  std::map<SiteId, unsigned> Executions;
  /// The requests kept (stable addresses).
  std::deque<RecordedRequest> Kept;
  std::deque<InstructionSlot> Slots;
  std::map<std::tuple<const clang::Expr *, AccessOp, unsigned, unsigned>, const InstructionSlot *>
      SlotOf;
  std::map<const clang::Expr *, std::optional<SelectedLoad>> Selections;
  std::vector<SelectedRun> SelectedRuns;
  /// This warp's last run, while its other arm may still come: the next
  /// request of the warp completes it or leaves it alone.
  std::optional<size_t> OpenSelected;
  std::map<SiteId, MergeKind> Merged;
  std::set<SiteId> Unaligned;
};

} // namespace warpcheck::analysis

#endif
