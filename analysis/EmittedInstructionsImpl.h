//===- EmittedInstructionsImpl.h - the reconciler's shared state -*- C++ -*-===//
//
// Private to the four files of InstructionReconciler (EmittedInstructions.h),
// split by stage as the Clang Static Analyzer splits ExprEngine by construct:
//   EmittedInstructionsSites.cpp  what the listing and the AST say of one site
//                                 (its line, loops, branches, repeats);
//   EmittedInstructionsPlan.cpp   the plan: which instructions serve which
//                                 access (plan, registers, repeats);
//   EmittedInstructionsMoves.cpp  accesses whose instructions the compiler
//                                 placed on other lines (moved, selected);
//   EmittedInstructions.cpp       the requests the planned instructions make.
//
//===----------------------------------------------------------------------===//

#ifndef WARPCHECK_ANALYSIS_EMITTEDINSTRUCTIONSIMPL_H
#define WARPCHECK_ANALYSIS_EMITTEDINSTRUCTIONSIMPL_H

#include "EmittedInstructions.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/ASTContext.h"

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace warpcheck::analysis {

namespace emitted {

/// One access of the source: its expression and kind.
using SiteId = std::pair<const clang::Expr *, AccessOp>;

inline SassOp sassOpOf(AccessOp Op) {
  return Op == AccessOp::Load    ? SassOp::Load
         : Op == AccessOp::Store ? SassOp::Store
                                 : SassOp::Atomic;
}

/// A generic instruction (LD, ST, ATOM) may serve either space.
inline bool spaceFits(SassSpace S, MemorySpace Space) {
  switch (S) {
  case SassSpace::Global:
    return Space == MemorySpace::Global;
  case SassSpace::Shared:
    return Space == MemorySpace::Shared;
  case SassSpace::Generic:
    return true;
  case SassSpace::Local:
    return false;
  }
  return false;
}

/// Whether R, made between two executions of the access Other (in Space)
/// with the same addresses, keeps the second from being served by the
/// first: a store or atomic of the same memory may change what a load of
/// Other would read again, a load or atomic may read what a store of Other
/// would overwrite (no alias analysis: any address of that memory).
bool breaksRepeats(const RecordedRequest &R, const SiteId &Other, MemorySpace Space);

} // namespace emitted

struct InstructionReconciler::Impl {
  using SiteId = emitted::SiteId;

  const clang::FunctionDecl *Kernel;
  clang::ASTContext &Ctx;
  std::vector<SassMemoryInstruction> Instructions;
  /// The listing's positions, with normalized paths (parallel to
  /// Instructions).
  std::vector<std::vector<std::pair<std::string, unsigned>>> Positions;
  std::vector<std::vector<RecordedRequest>> Warps;
  std::deque<InstructionSlot> Slots;

  /// An access's line and kind (SlotKey: with its space), and an
  /// instruction's line and kind (OrphanKey: with its space as the listing
  /// names it).
  using SlotKey = std::tuple<std::string, unsigned, SassOp, MemorySpace>;
  using OrphanKey = std::tuple<std::string, unsigned, SassOp, SassSpace>;

  /// What one access is: its kind, width and line.
  struct SiteInfo {
    const clang::Expr *E = nullptr;
    AccessOp Op = AccessOp::Load;
    MemorySpace Space = MemorySpace::Global;
    unsigned Bytes = 0;
    std::string File;
    unsigned Line = 0;
  };
  std::map<SiteId, SiteInfo> Sites;

  Impl(const std::vector<SassMemoryInstruction> &Instrs, const clang::FunctionDecl *Kernel);

  /// The site of R's access, its width that of R.
  SiteInfo siteInfo(const RecordedRequest &R);

  /// The file of the expansion location L as the listing's paths are
  /// compared (normalizedPath), empty when there is none.
  std::string fileOf(clang::SourceLocation L) const;

  /// Whether the orphan instructions O, which the accesses of line U and of
  /// other lines could each be, are one instruction per access of all those
  /// lines, every instruction and access of one width, and no line has
  /// another candidate: then each access is one of them, whichever.
  bool sharesOrphansAlike(const SlotKey &U, const OrphanKey &O,
                          const std::map<SlotKey, std::vector<SiteId>> &Unmatched,
                          const std::map<SlotKey, std::vector<OrphanKey>> &Candidates,
                          const std::map<OrphanKey, std::vector<size_t>> &Orphans) const;

  /// The slot of the instructions Indices, on File:Line.
  const InstructionSlot *makeSlot(const std::vector<size_t> &Indices, const std::string &File,
                                  unsigned Line);

  /// Site's ancestors up to the function's body, each with the child the
  /// path came through (innermost first).
  std::vector<std::pair<clang::DynTypedNode, clang::DynTypedNode>>
  ancestors(const clang::Expr *Site);

  /// The loops whose bodies hold Site (innermost first): each loop
  /// statement with its body.
  std::vector<std::pair<const clang::Stmt *, const clang::Stmt *>>
  enclosingLoops(const clang::Expr *Site);

  /// The loops Site is written in whose bodies do not hold Line.
  std::vector<clang::SourceRange> loopsLeft(const clang::Expr *Site, unsigned Line);

  /// The branch (an if with an else, a conditional operator) in one arm of
  /// which A is written and B in the other; null when there is none.
  const clang::Stmt *branchBetween(const clang::Expr *A, const clang::Expr *B);

  /// How a site's executions repeat their addresses within each warp.
  struct AddressRepeats {
    /// Every execution of each warp has the same addresses, and some warp
    /// executes it more than once.
    bool AllSame = false;
    /// Some warp executes it twice in a row with the same addresses:
    /// invariant in its innermost loop (`att_bth[t3]` in `for (t2 ...)`
    /// inside `for (t ...)`), if not in the loops around it.
    bool InARow = false;
  };
  AddressRepeats addressRepeats(const SiteId &Site);

  /// Whether some instruction of File:Line, of any kind, is inside a loop
  /// of the listing (the line's loop is still a loop).
  bool lineInLoop(const std::string &File, unsigned Line) const;

  /// The one group of unexplained loads on the line of the statement of
  /// the innermost loop Site is written in, that could be Site's: nvcc
  /// hoists a load invariant in that loop out of it, to the loop's line
  /// (llm.c's softmax_autoregressive_backward_kernel2: `att_bth[t3]` of
  /// `for (int t2 = 0; t2 <= t; t2++)`'s body, one LDG on the `for` line
  /// per iteration of the loop around it).
  std::optional<OrphanKey> loadOnLoopLine(const SiteId &Id, const clang::Stmt *Loop,
                                          const std::map<OrphanKey, std::vector<size_t>> &Orphans);

  /// Accesses of a loop with the same addresses in every execution that
  /// the compiler keeps in a register across the loop, on their own line
  /// (EmittedInstructions.h, "hoisted"). nvcc keeps the loop where its trip
  /// count is not known (the listing has a backward branch around the
  /// line's instructions); an access of it with no instruction inside it
  /// executes once. Which of the line's instructions are inside the loop
  /// is read from the listing, not whose they are: they are taken to be the
  /// varying accesses' when those are at least as many as the registers
  /// the loop's instructions of this kind address from (each unrolled copy
  /// of one access steps one register by an immediate offset). Otherwise
  /// (the loop reloads the invariant address: a store through another
  /// pointer may change it) nothing changes.
  void planKeptInRegisters(std::map<SiteId, SitePlan> &Plans,
                           const std::map<SlotKey, std::vector<SiteId>> &SitesOfSlot,
                           const std::map<SlotKey, std::vector<size_t>> &SlotInstructions,
                           std::map<OrphanKey, std::vector<size_t>> &Orphans);

  /// Accesses of loops nvcc unrolled whose repeats it removed
  /// (EmittedInstructions.h, "repeats removed"). A line with no instruction
  /// inside a loop of the listing executes each of its instructions at most
  /// once per warp: when some warp executes the line's accesses of one kind
  /// more often than its instructions could serve, merged to their widest,
  /// and its distinct requests fit them, the repeats are served.
  void planRepeatsRemoved(std::map<SiteId, SitePlan> &Plans,
                          const std::map<SlotKey, std::vector<SiteId>> &SitesOfSlot,
                          const std::map<SlotKey, std::vector<size_t>> &SlotInstructions);

  /// Whether some warp makes a request of one of A's sites and one of B's
  /// with the same lanes, each lane's two addresses next to each other (the
  /// pair one wider instruction reads): looked for in the first warps'
  /// first requests.
  bool adjacentRequests(const std::vector<SiteId> &A, const std::vector<SiteId> &B);

  /// The lines of the kernel's body where a load or store is written that
  /// no simulated warp executed (an arm the launch never takes), by line
  /// and kind: an instruction placed there is that access's own, not
  /// another line's moved one. gen-6.cu's gen6_16: `in[j9]` (line 284) in
  /// the arm of `tx >= 31`, which a block of 16 threads never takes, has
  /// its LDG.E.U16 there; the load the next branch's arms select is the
  /// second LDG.E.U16 of line 288.
  std::set<std::tuple<std::string, unsigned, SassOp>> unexecutedAccessLines();

  /// Whether Site is written in the kernel's own body (not in a device
  /// function or lambda it calls, which may run once per call).
  bool inKernelBody(const clang::Expr *Site);

  /// The instructions a line holds beyond what its own accesses can use,
  /// by their line and kind. An access written once in the kernel's body
  /// and in no loop executes at most once per warp: one instruction of its
  /// width. More of that width placed at the line itself (not inlined
  /// onto it) are another line's load, moved there: gen-2.cu's gen2_6,
  /// the invariant load of line 156 hoisted out of its two loops onto line
  /// 151, an LDG.E.128 beside line 151's own; gen2_15, one LDG.E.U8 of the
  /// address line 311's branch selects, beside line 309's own. Which of
  /// the equal instructions is the surplus does not change a request's
  /// cost: the last ones are taken.
  std::map<OrphanKey, std::vector<size_t>>
  surplusInstructions(const std::map<SlotKey, std::vector<SiteId>> &SitesOfSlot,
                      const std::map<SlotKey, std::vector<size_t>> &SlotInstructions);

  /// Accesses with no instruction on their lines that could each be
  /// several lines' unexplained instructions, paired with them by order
  /// (MovedInstructionOrder.h): gen-3.cu's gen3_10, two loads hoisted
  /// before their loops, each on the line of the statement before its loop.
  void planMovedInOrder(std::map<SiteId, SitePlan> &Plans,
                        const std::map<SlotKey, std::vector<SiteId>> &Unmatched,
                        const std::map<SlotKey, std::vector<OrphanKey>> &Candidates,
                        const std::map<OrphanKey, unsigned> &Claims,
                        const std::map<OrphanKey, std::vector<size_t>> &Orphans,
                        const std::map<OrphanKey, std::vector<size_t>> &Spare);

  /// The loads (or stores) of a branch's two arms with no instruction on
  /// their lines, which one group of instructions after the branch fits
  /// and no other line claims (EmittedInstructions.h, "selected").
  void planSelectedLoads(std::map<SiteId, SitePlan> &Plans,
                         const std::map<SlotKey, std::vector<SiteId>> &Unmatched,
                         const std::map<SlotKey, std::vector<OrphanKey>> &Candidates,
                         const std::map<OrphanKey, unsigned> &Claims,
                         const std::map<OrphanKey, std::vector<size_t>> &Orphans);

  /// A branch arm's accesses with no instruction on their line, whose
  /// other arm's line has instructions of their kind, and unexplained
  /// instructions on lines that only they could be: copies of one
  /// instruction of a selected address, in a loop nvcc unrolled, which the
  /// line table spreads over the loop's lines (EmittedInstructions.h,
  /// "selected"). llm.c's attention_softmax_kernel1 stores
  /// `att_bth[t2] *= s` or `att_bth[t2] = 0` by `t2 <= t`; compiled, a loop
  /// of 16 STG of the selected value, on the `for` line, the `if` line and
  /// the first arm's, measured on each of those lines at the arms' 8 sectors
  /// per request.
  void planSelectedAcrossLines(std::map<SiteId, SitePlan> &Plans,
                               const std::map<SlotKey, std::vector<SiteId>> &Unmatched,
                               const std::map<SlotKey, std::vector<OrphanKey>> &Candidates,
                               const std::map<OrphanKey, unsigned> &Claims,
                               const std::map<OrphanKey, std::vector<size_t>> &Orphans,
                               const std::map<SlotKey, std::vector<SiteId>> &SitesOfSlot,
                               const std::map<SlotKey, std::vector<size_t>> &SlotInstructions);

  /// Ids' accesses served by Slot's instructions, on another line; with
  /// LeavesLoops, out of the loops around them whose bodies do not hold
  /// that line.
  void moveTo(std::map<SiteId, SitePlan> &Plans, const std::vector<SiteId> &Ids,
              const InstructionSlot *Slot, bool LeavesLoops);

  /// Which instructions serve each access seen in the warps (SitePlan).
  std::map<SiteId, SitePlan> plan();
};

} // namespace warpcheck::analysis

#endif // WARPCHECK_ANALYSIS_EMITTEDINSTRUCTIONSIMPL_H
