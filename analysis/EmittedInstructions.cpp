//===- EmittedInstructions.cpp - the accesses as the compiler emitted them ===//

#include "EmittedInstructions.h"
#include "MovedInstructionOrder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <set>
#include <tuple>

using namespace clang;

namespace warpcheck::analysis {

namespace {

using SiteId = std::pair<const Expr *, AccessOp>;

SassOp sassOpOf(AccessOp Op) {
  return Op == AccessOp::Load ? SassOp::Load : Op == AccessOp::Store ? SassOp::Store
                                                                      : SassOp::Atomic;
}

/// A generic instruction (LD, ST, ATOM) may serve either space.
bool spaceFits(SassSpace S, MemorySpace Space) {
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

const char *spaceWords(MemorySpace S) {
  return S == MemorySpace::Shared ? "shared-memory" : "global-memory";
}
const char *opWords(AccessOp Op) {
  return Op == AccessOp::Load ? "load" : Op == AccessOp::Store ? "store" : "atomic";
}

/// The path as the file system names it, for comparing the listing's
/// paths with the parse's.
std::string normalizedPath(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Path, Real))
    return std::string(Real);
  llvm::SmallString<256> Clean(Path);
  llvm::sys::path::remove_dots(Clean, /*remove_dot_dot=*/true);
  return std::string(Clean);
}

/// A line of a file, one kind of access.
using LineKey = std::tuple<std::string, unsigned, SassOp>;

/// Every active lane's address plus Offset is a multiple of Align.
bool alignedAt(const model::WarpAddressSet &A, std::uint64_t Offset, unsigned Align) {
  for (unsigned L = 0; L < model::WarpSize; ++L)
    if (A.isActive(L) && (A.address(L) + Offset) % Align != 0)
      return false;
  return true;
}

model::WarpAddressSet shifted(const model::WarpAddressSet &A, std::uint64_t Offset,
                              unsigned Bytes) {
  model::WarpAddressSet Out(Bytes);
  for (unsigned L = 0; L < model::WarpSize; ++L)
    if (A.isActive(L))
      Out.setLane(L, A.address(L) + Offset);
  return Out;
}

/// Whether R, made between two executions of the access Other (in Space)
/// with the same addresses, keeps the second from being served by the
/// first: a store or atomic of the same memory may change what a load of
/// Other would read again, a load or atomic may read what a store of Other
/// would overwrite (no alias analysis: any address of that memory).
bool breaksRepeats(const RecordedRequest &R, const SiteId &Other, MemorySpace Space) {
  if (SiteId{R.Site.Expr, R.Site.Op} == Other || R.Site.Space != Space)
    return false;
  bool Writes = R.Site.Op != AccessOp::Load, Reads = R.Site.Op != AccessOp::Store;
  return Other.second == AccessOp::Store ? Reads : Writes;
}

unsigned nextPowerOfTwo(unsigned V) {
  unsigned P = 1;
  while (P < V)
    P <<= 1;
  return P;
}

} // namespace

struct InstructionReconciler::Impl {
  const FunctionDecl *Kernel;
  ASTContext &Ctx;
  std::vector<SassMemoryInstruction> Instructions;
  /// The listing's positions, with normalized paths (parallel to
  /// Instructions).
  std::vector<std::vector<std::pair<std::string, unsigned>>> Positions;
  std::vector<std::vector<RecordedRequest>> Warps;
  std::deque<InstructionSlot> Slots;

  struct SiteInfo {
    const Expr *E = nullptr;
    AccessOp Op = AccessOp::Load;
    MemorySpace Space = MemorySpace::Global;
    unsigned Bytes = 0;
    std::string File;
    unsigned Line = 0;
  };
  std::map<SiteId, SiteInfo> Sites;

  Impl(const std::vector<SassMemoryInstruction> &Instrs, const FunctionDecl *Kernel)
      : Kernel(Kernel), Ctx(Kernel->getASTContext()), Instructions(Instrs) {
    std::map<std::string, std::string> Normalized;
    for (const SassMemoryInstruction &I : Instructions) {
      std::vector<std::pair<std::string, unsigned>> P;
      for (const SassPosition &Pos : I.Positions) {
        auto It = Normalized.find(Pos.File);
        if (It == Normalized.end())
          It = Normalized.emplace(Pos.File, normalizedPath(Pos.File)).first;
        P.emplace_back(It->second, Pos.Line);
      }
      Positions.push_back(std::move(P));
    }
  }

  SiteInfo siteInfo(const RecordedRequest &R) {
    SiteInfo S;
    S.E = R.Site.Expr;
    S.Op = R.Site.Op;
    S.Space = R.Site.Space;
    S.Bytes = R.Site.BytesPerLane;
    SourceLocation L = Ctx.getSourceManager().getExpansionLoc(R.Site.Expr->getBeginLoc());
    S.Line = Ctx.getSourceManager().getExpansionLineNumber(L);
    S.File = fileOf(L);
    return S;
  }

  /// The file of the expansion location L as the listing's paths are
  /// compared (normalizedPath), empty when there is none.
  std::string fileOf(SourceLocation L) const {
    const SourceManager &SM = Ctx.getSourceManager();
    OptionalFileEntryRef F = SM.getFileEntryRefForID(SM.getFileID(L));
    if (!F)
      return "";
    llvm::StringRef Real = F->getFileEntry().tryGetRealPathName();
    return Real.empty() ? normalizedPath(F->getName()) : normalizedPath(Real);
  }

  /// The slot of the instructions Indices, on File:Line.
  /// Whether the orphan instructions O, which the accesses of line U and of
  /// other lines could each be, are one instruction per access of all those
  /// lines, every instruction and access of one width, and no line has
  /// another candidate: then each access is one of them, whichever.
  bool sharesOrphansAlike(
      const std::tuple<std::string, unsigned, SassOp, MemorySpace> &U,
      const std::tuple<std::string, unsigned, SassOp, SassSpace> &O,
      const std::map<std::tuple<std::string, unsigned, SassOp, MemorySpace>, std::vector<SiteId>>
          &Unmatched,
      const std::map<std::tuple<std::string, unsigned, SassOp, MemorySpace>,
                     std::vector<std::tuple<std::string, unsigned, SassOp, SassSpace>>>
          &Candidates,
      const std::map<std::tuple<std::string, unsigned, SassOp, SassSpace>, std::vector<size_t>>
          &Orphans) const {
    const std::vector<size_t> &Listed = Orphans.at(O);
    unsigned Width = Instructions[Listed.front()].Shape.BytesPerLane;
    for (size_t I : Listed)
      if (Instructions[I].Shape.BytesPerLane != Width)
        return false;
    size_t Accesses = 0;
    bool HasU = false;
    for (const auto &[Line, C] : Candidates) {
      if (std::find(C.begin(), C.end(), O) == C.end())
        continue;
      if (C.size() != 1)
        return false;
      HasU |= Line == U;
      for (const SiteId &Id : Unmatched.at(Line)) {
        if (Sites.at(Id).Bytes != Width)
          return false;
        ++Accesses;
      }
    }
    return HasU && Accesses == Listed.size();
  }

  const InstructionSlot *makeSlot(const std::vector<size_t> &Indices, const std::string &File,
                                  unsigned Line) {
    InstructionSlot S;
    S.File = File;
    S.Line = Line;
    for (size_t I : Indices) {
      S.OpcodeOfWidth.emplace(Instructions[I].Shape.BytesPerLane, Instructions[I].Opcode);
      ++S.CountOfWidth[Instructions[I].Shape.BytesPerLane];
    }
    Slots.push_back(std::move(S));
    return &Slots.back();
  }

  /// Site's ancestors up to the function's body, each with the child the
  /// path came through (innermost first).
  std::vector<std::pair<DynTypedNode, DynTypedNode>> ancestors(const Expr *Site) {
    std::vector<std::pair<DynTypedNode, DynTypedNode>> Out;
    DynTypedNode Node = DynTypedNode::create(*Site);
    for (unsigned Depth = 0; Depth < 256; ++Depth) {
      DynTypedNodeList Parents = Ctx.getParents(Node);
      if (Parents.empty() || Parents[0].get<FunctionDecl>() || Parents[0].get<LambdaExpr>())
        break;
      Out.emplace_back(Parents[0], Node);
      Node = Parents[0];
    }
    return Out;
  }

  /// The loops whose bodies hold Site (innermost first): each loop
  /// statement with its body.
  std::vector<std::pair<const Stmt *, const Stmt *>> enclosingLoops(const Expr *Site) {
    std::vector<std::pair<const Stmt *, const Stmt *>> Out;
    for (const auto &[Parent, Child] : ancestors(Site)) {
      const Stmt *Body = nullptr;
      if (const auto *F = Parent.get<ForStmt>())
        Body = F->getBody();
      else if (const auto *W = Parent.get<WhileStmt>())
        Body = W->getBody();
      else if (const auto *D = Parent.get<DoStmt>())
        Body = D->getBody();
      else if (const auto *R = Parent.get<CXXForRangeStmt>())
        Body = R->getBody();
      if (Body && Child.get<Stmt>() == Body)
        Out.emplace_back(Parent.get<Stmt>(), Body);
    }
    return Out;
  }

  /// The loops Site is written in whose bodies do not hold Line.
  std::vector<SourceRange> loopsLeft(const Expr *Site, unsigned Line) {
    std::vector<SourceRange> Out;
    const SourceManager &SM = Ctx.getSourceManager();
    for (const auto &[Loop, Body] : enclosingLoops(Site)) {
      unsigned First = SM.getExpansionLineNumber(Body->getBeginLoc());
      unsigned Last = SM.getExpansionLineNumber(Body->getEndLoc());
      if (Line < First || Line > Last)
        Out.push_back(Loop->getSourceRange());
    }
    return Out;
  }

  /// The branch (an if with an else, a conditional operator) in one arm of
  /// which A is written and B in the other; null when there is none.
  const Stmt *branchBetween(const Expr *A, const Expr *B) {
    auto ArmOf = [](const DynTypedNode &Parent, const DynTypedNode &Child) -> int {
      const Stmt *C = Child.get<Stmt>();
      if (const auto *If = Parent.get<IfStmt>()) {
        if (C && C == If->getThen())
          return 1;
        if (C && C == If->getElse())
          return 2;
      } else if (const auto *Cond = Parent.get<ConditionalOperator>()) {
        if (C && C == Cond->getTrueExpr())
          return 1;
        if (C && C == Cond->getFalseExpr())
          return 2;
      }
      return 0;
    };
    std::map<const Stmt *, int> ArmsOfA;
    for (const auto &[Parent, Child] : ancestors(A))
      if (int Arm = ArmOf(Parent, Child))
        ArmsOfA.emplace(Parent.get<Stmt>(), Arm);
    for (const auto &[Parent, Child] : ancestors(B))
      if (int Arm = ArmOf(Parent, Child)) {
        auto It = ArmsOfA.find(Parent.get<Stmt>());
        if (It != ArmsOfA.end())
          return It->second != Arm ? It->first : nullptr;
      }
    return nullptr;
  }

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
  AddressRepeats addressRepeats(const SiteId &Site) {
    AddressRepeats Out;
    bool AllSame = true;
    for (const std::vector<RecordedRequest> &Warp : Warps) {
      const model::WarpAddressSet *First = nullptr, *Last = nullptr;
      for (const RecordedRequest &R : Warp) {
        if (R.Site.Expr != Site.first || R.Site.Op != Site.second)
          continue;
        if (!R.Addresses)
          return {};
        if (Last && Last->sameRequest(*R.Addresses))
          Out.InARow = true;
        if (!First)
          First = &*R.Addresses;
        else
          AllSame &= First->sameRequest(*R.Addresses);
        Last = &*R.Addresses;
      }
    }
    Out.AllSame = AllSame && Out.InARow;
    return Out;
  }

  using SlotKey = std::tuple<std::string, unsigned, SassOp, MemorySpace>;
  using OrphanKey = std::tuple<std::string, unsigned, SassOp, SassSpace>;

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
  /// Whether some instruction of File:Line, of any kind, is inside a loop
  /// of the listing (the line's loop is still a loop).
  bool lineInLoop(const std::string &File, unsigned Line) const {
    for (size_t I = 0; I < Instructions.size(); ++I)
      if (Instructions[I].LoopHead >= 0)
        for (const auto &[F, L] : Positions[I])
          if (F == File && L == Line)
            return true;
    return false;
  }

  /// The one group of unexplained loads on the line of the statement of
  /// the innermost loop Site is written in, that could be Site's: nvcc
  /// hoists a load invariant in that loop out of it, to the loop's line
  /// (llm.c's softmax_autoregressive_backward_kernel2: `att_bth[t3]` of
  /// `for (int t2 = 0; t2 <= t; t2++)`'s body, one LDG on the `for` line
  /// per iteration of the loop around it).
  std::optional<OrphanKey> loadOnLoopLine(const SiteId &Id, const Stmt *Loop,
                                          const std::map<OrphanKey, std::vector<size_t>> &Orphans) {
    const SiteInfo &S = Sites.at(Id);
    const SourceManager &SM = Ctx.getSourceManager();
    unsigned LoopLine = SM.getExpansionLineNumber(Loop->getBeginLoc());
    std::optional<OrphanKey> Found;
    for (const auto &[O, Indices] : Orphans) {
      if (std::get<0>(O) != S.File || std::get<1>(O) != LoopLine ||
          std::get<2>(O) != sassOpOf(S.Op) || !spaceFits(std::get<3>(O), S.Space))
        continue;
      bool Fits = std::any_of(Indices.begin(), Indices.end(), [&](size_t I) {
        unsigned B = Instructions[I].Shape.BytesPerLane;
        return S.Bytes && (B % S.Bytes == 0 || S.Bytes % B == 0);
      });
      if (!Fits)
        continue;
      if (Found)
        return std::nullopt;
      Found = O;
    }
    return Found;
  }

  void planKeptInRegisters(std::map<SiteId, SitePlan> &Plans,
                           const std::map<SlotKey, std::vector<SiteId>> &SitesOfSlot,
                           const std::map<SlotKey, std::vector<size_t>> &SlotInstructions,
                           std::map<OrphanKey, std::vector<size_t>> &Orphans) {
    for (const auto &[SK, Ids] : SitesOfSlot) {
      if (!lineInLoop(std::get<0>(SK), std::get<1>(SK)))
        continue;
      std::map<int, std::set<std::string>> BasesOfLoop;
      bool Named = true;
      for (size_t I : SlotInstructions.at(SK))
        if (Instructions[I].LoopHead >= 0) {
          Named &= !Instructions[I].AddressBase.empty();
          BasesOfLoop[Instructions[I].LoopHead].insert(Instructions[I].AddressBase);
        }
      if (!Named)
        continue;
      size_t Bases = 0;
      for (const auto &[Head, Set] : BasesOfLoop)
        Bases = std::max(Bases, Set.size());
      std::vector<std::pair<SiteId, std::vector<SourceRange>>> Kept;
      // Loads invariant in their innermost loop only, with the unexplained
      // loads on that loop's line that are theirs, and the loop.
      std::vector<std::tuple<SiteId, OrphanKey, SourceRange>> KeptPerRun;
      size_t Varying = 0;
      for (const SiteId &Id : Ids) {
        std::vector<const Stmt *> Loops;
        for (const auto &[Loop, Body] : enclosingLoops(Id.first))
          Loops.push_back(Loop);
        std::optional<OrphanKey> Hoisted;
        AddressRepeats Repeats = Loops.empty() ? AddressRepeats{} : addressRepeats(Id);
        if (Repeats.AllSame) {
          std::vector<SourceRange> Ranges;
          for (const Stmt *Loop : Loops)
            Ranges.push_back(Loop->getSourceRange());
          Kept.emplace_back(Id, std::move(Ranges));
        } else if (Repeats.InARow && Id.second == AccessOp::Load &&
                   (Hoisted = loadOnLoopLine(Id, Loops.front(), Orphans)) &&
                   std::none_of(KeptPerRun.begin(), KeptPerRun.end(),
                                [&](const auto &E) { return std::get<1>(E) == *Hoisted; })) {
          KeptPerRun.emplace_back(Id, *Hoisted, Loops.front()->getSourceRange());
        } else {
          ++Varying;
        }
      }
      // A load with an unexplained load on its loop's line is that load:
      // the listing shows where it went, whatever registers the loop's
      // own instructions step (llm.c's loop, unrolled, steps two).
      for (const auto &[Id, O, Loop] : KeptPerRun) {
        SitePlan &P = Plans[Id];
        P.Slot = makeSlot(Orphans.at(O), std::get<0>(O), std::get<1>(O));
        P.Moved = true;
        P.Hoisted = true;
        P.HoistedOutOf = {Loop};
        Orphans.erase(O);
      }
      if (Kept.empty() || Varying < Bases)
        continue;
      // Each side with the opcodes of its own instructions (with
      // __restrict__, the loop's loads are LDG.E.CONSTANT, the
      // accumulator's LDG.E).
      std::vector<size_t> Inside, Outside;
      for (size_t I : SlotInstructions.at(SK))
        (Instructions[I].LoopHead >= 0 ? Inside : Outside).push_back(I);
      const InstructionSlot *KeptSlot =
          Outside.empty() ? nullptr : makeSlot(Outside, std::get<0>(SK), std::get<1>(SK));
      const InstructionSlot *LoopSlot =
          Inside.empty() ? nullptr : makeSlot(Inside, std::get<0>(SK), std::get<1>(SK));
      for (const SiteId &Id : Ids) {
        SitePlan &P = Plans[Id];
        if (P.Hoisted) // hoisted to its loop's line above
          continue;
        auto K = std::find_if(Kept.begin(), Kept.end(), [&](const auto &E) { return E.first == Id; });
        if (K == Kept.end()) {
          if (LoopSlot)
            P.Slot = LoopSlot;
          continue;
        }
        if (KeptSlot)
          P.Slot = KeptSlot;
        P.Hoisted = true;
        P.HoistedOutOf = std::move(K->second);
      }
    }
  }

  /// Accesses of loops nvcc unrolled whose repeats it removed
  /// (EmittedInstructions.h, "repeats removed"). A line with no instruction
  /// inside a loop of the listing executes each of its instructions at most
  /// once per warp: when some warp executes the line's accesses of one kind
  /// more often than its instructions could serve, merged to their widest,
  /// and its distinct requests fit them, the repeats are served.
  void planRepeatsRemoved(std::map<SiteId, SitePlan> &Plans,
                          const std::map<SlotKey, std::vector<SiteId>> &SitesOfSlot,
                          const std::map<SlotKey, std::vector<size_t>> &SlotInstructions) {
    // Beyond this many executions of a line per warp the search for
    // repeats is not made (an unrolled loop of that size is not seen).
    constexpr size_t MaxExecutions = 4096;
    for (const auto &[SK, Ids] : SitesOfSlot) {
      if (lineInLoop(std::get<0>(SK), std::get<1>(SK)))
        continue;
      // An atomic's every execution is a read-modify-write of its own.
      if (std::any_of(Ids.begin(), Ids.end(), [&](const SiteId &Id) {
            const SitePlan &P = Plans.at(Id);
            return Id.second == AccessOp::Atomic || P.Hoisted || P.SelectedAt || P.Moved;
          }))
        continue;
      const std::vector<size_t> &Slot = SlotInstructions.at(SK);
      unsigned Widest = 0, Narrowest = ~0u;
      for (size_t I : Slot)
        Widest = std::max(Widest, Instructions[I].Shape.BytesPerLane);
      for (const SiteId &Id : Ids)
        if (unsigned B = Sites.at(Id).Bytes)
          Narrowest = std::min(Narrowest, B);
      if (!Widest || Narrowest == ~0u)
        continue;
      size_t Capacity = Slot.size() * std::max(1u, Widest / Narrowest);
      size_t MostExecutions = 0, MostDistinct = 0;
      std::set<SiteId> Repeating;
      bool Known = true;
      for (const std::vector<RecordedRequest> &Warp : Warps) {
        std::map<SiteId, std::vector<const model::WarpAddressSet *>> Seen;
        size_t Executions = 0, Distinct = 0;
        for (const RecordedRequest &R : Warp) {
          SiteId Id{R.Site.Expr, R.Site.Op};
          // Not across another access of the same memory (breaksRepeats):
          // sortingNetworks' Comparator, inlined in a bitonic network
          // unrolled completely, reads s_val[pos + stride] again after
          // other lanes' swaps were stored, and every stage's load is made
          // (measured 1.71 wavefronts per request on its line; counting
          // the repeats as served, 1.61).
          for (auto &[Other, Earlier] : Seen)
            if (breaksRepeats(R, Other, Sites.at(Other).Space))
              Earlier.clear();
          if (std::find(Ids.begin(), Ids.end(), Id) == Ids.end())
            continue;
          if (!R.Addresses || ++Executions > MaxExecutions) {
            Known = false;
            break;
          }
          auto &Earlier = Seen[Id];
          if (std::any_of(Earlier.begin(), Earlier.end(), [&](const model::WarpAddressSet *A) {
                return A->sameRequest(*R.Addresses);
              })) {
            Repeating.insert(Id);
            continue;
          }
          Earlier.push_back(&*R.Addresses);
          ++Distinct;
        }
        if (!Known)
          break;
        MostExecutions = std::max(MostExecutions, Executions);
        MostDistinct = std::max(MostDistinct, Distinct);
      }
      if (!Known || Repeating.empty() || MostExecutions <= Capacity || MostDistinct > Capacity)
        continue;
      for (const SiteId &Id : Repeating)
        Plans[Id].RepeatsRemoved = true;
    }
  }

  /// Whether some warp makes a request of one of A's sites and one of B's
  /// with the same lanes, each lane's two addresses next to each other (the
  /// pair one wider instruction reads): looked for in the first warps'
  /// first requests.
  bool adjacentRequests(const std::vector<SiteId> &A, const std::vector<SiteId> &B) {
    constexpr size_t WarpsLooked = 2, RequestsLooked = 256;
    for (size_t W = 0; W < std::min(WarpsLooked, Warps.size()); ++W) {
      std::vector<const RecordedRequest *> OfA, OfB;
      for (const RecordedRequest &R : Warps[W]) {
        if (!R.Addresses)
          continue;
        SiteId Id{R.Site.Expr, R.Site.Op};
        if (llvm::is_contained(A, Id) && OfA.size() < RequestsLooked)
          OfA.push_back(&R);
        else if (llvm::is_contained(B, Id) && OfB.size() < RequestsLooked)
          OfB.push_back(&R);
      }
      for (const RecordedRequest *X : OfA)
        for (const RecordedRequest *Y : OfB) {
          const model::WarpAddressSet &P = *X->Addresses, &Q = *Y->Addresses;
          if (P.activeMask() != Q.activeMask() || P.activeMask() == 0)
            continue;
          bool After = true, Before = true;
          for (unsigned L = 0; L < model::WarpSize; ++L)
            if (P.isActive(L)) {
              After &= P.address(L) == Q.address(L) + Q.bytesPerLane();
              Before &= Q.address(L) == P.address(L) + P.bytesPerLane();
            }
          if (After || Before)
            return true;
        }
    }
    return false;
  }

  /// The lines of the kernel's body where a load or store is written that
  /// no simulated warp executed (an arm the launch never takes), by line
  /// and kind: an instruction placed there is that access's own, not
  /// another line's moved one. gen-6.cu's gen6_16: `in[j9]` (line 284) in
  /// the arm of `tx >= 31`, which a block of 16 threads never takes, has
  /// its LDG.E.U16 there; the load the next branch's arms select is the
  /// second LDG.E.U16 of line 288.
  std::set<std::tuple<std::string, unsigned, SassOp>> unexecutedAccessLines() {
    std::set<std::tuple<std::string, unsigned, SassOp>> Out;
    std::set<const Expr *> Executed;
    for (const auto &[Id, S] : Sites)
      Executed.insert(Id.first);
    const SourceManager &SM = Ctx.getSourceManager();
    std::function<void(const Stmt *, const Stmt *)> Visit = [&](const Stmt *S,
                                                                const Stmt *Parent) {
      if (!S || isa<LambdaExpr>(S))
        return;
      const auto *E = dyn_cast<Expr>(S);
      // The whole lvalue only: not the element whose field is the access,
      // nor a row of a two-dimensional array; nor one whose address is
      // taken (an atomic's operand), which reads nothing there.
      const auto *AddressOf = dyn_cast_or_null<UnaryOperator>(Parent);
      bool Part = Parent && E &&
                  ((isa<MemberExpr>(Parent) && !cast<MemberExpr>(Parent)->isArrow()) ||
                   E->getType()->isArrayType() ||
                   (AddressOf && AddressOf->getOpcode() == UO_AddrOf));
      if (E && !Part && !isa<ImplicitCastExpr>(E) && namesMemory(E) && !Executed.count(E)) {
        SassOp Op = SassOp::Load;
        bool Both = false;
        if (const auto *B = dyn_cast_or_null<BinaryOperator>(Parent);
            B && B->isAssignmentOp() && B->getLHS()->IgnoreParenImpCasts() == E) {
          Op = SassOp::Store;
          Both = B->isCompoundAssignmentOp();
        } else if (const auto *U = dyn_cast_or_null<UnaryOperator>(Parent);
                   U && U->isIncrementDecrementOp()) {
          Both = true;
        }
        SourceLocation L = SM.getExpansionLoc(E->getBeginLoc());
        std::string File = fileOf(L);
        unsigned Line = SM.getExpansionLineNumber(L);
        Out.insert({File, Line, Op});
        if (Both)
          Out.insert({File, Line, SassOp::Store});
      }
      // Parentheses and implicit casts are seen through: the parent of
      // what they wrap is theirs.
      const Stmt *Through = isa<ParenExpr>(S) || isa<ImplicitCastExpr>(S) ? Parent : S;
      for (const Stmt *Child : S->children())
        Visit(Child, Through);
    };
    Visit(Kernel->getBody(), nullptr);
    return Out;
  }

  /// Whether Site is written in the kernel's own body (not in a device
  /// function or lambda it calls, which may run once per call).
  bool inKernelBody(const Expr *Site) {
    DynTypedNode Node = DynTypedNode::create(*Site);
    for (unsigned Depth = 0; Depth < 256; ++Depth) {
      DynTypedNodeList Parents = Ctx.getParents(Node);
      if (Parents.empty() || Parents[0].get<LambdaExpr>())
        return false;
      if (const auto *F = Parents[0].get<FunctionDecl>())
        return F == Kernel;
      Node = Parents[0];
    }
    return false;
  }

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
                      const std::map<SlotKey, std::vector<size_t>> &SlotInstructions) {
    std::map<OrphanKey, std::vector<size_t>> Out;
    for (const auto &[SK, Ids] : SitesOfSlot) {
      std::map<unsigned, size_t> SitesOfWidth;
      bool Once = true;
      for (const SiteId &Id : Ids) {
        Once &= inKernelBody(Id.first) && enclosingLoops(Id.first).empty();
        ++SitesOfWidth[Sites.at(Id).Bytes];
      }
      if (!Once)
        continue;
      std::map<unsigned, std::vector<size_t>> PlacedHere;
      for (size_t I : SlotInstructions.at(SK))
        if (Positions[I][0].first == std::get<0>(SK) && Positions[I][0].second == std::get<1>(SK))
          PlacedHere[Instructions[I].Shape.BytesPerLane].push_back(I);
      for (const auto &[W, Indices] : PlacedHere) {
        auto N = SitesOfWidth.find(W);
        if (N == SitesOfWidth.end() || Indices.size() <= N->second)
          continue;
        for (size_t K = N->second; K < Indices.size(); ++K) {
          const SassMemoryInstruction &In = Instructions[Indices[K]];
          Out[{std::get<0>(SK), std::get<1>(SK), In.Shape.Op, In.Shape.Space}].push_back(
              Indices[K]);
        }
      }
    }
    return Out;
  }

  /// Accesses with no instruction on their lines that could each be
  /// several lines' unexplained instructions, paired with them by order
  /// (MovedInstructionOrder.h): gen-3.cu's gen3_10, two loads hoisted
  /// before their loops, each on the line of the statement before its loop.
  void planMovedInOrder(std::map<SiteId, SitePlan> &Plans,
                        const std::map<SlotKey, std::vector<SiteId>> &Unmatched,
                        const std::map<SlotKey, std::vector<OrphanKey>> &Candidates,
                        const std::map<OrphanKey, unsigned> &Claims,
                        const std::map<OrphanKey, std::vector<size_t>> &Orphans,
                        const std::map<OrphanKey, std::vector<size_t>> &Spare) {
    auto Settled = [&](const SlotKey &U) {
      const SitePlan &P = Plans.at(Unmatched.at(U).front());
      return P.SelectedAt || P.Slot;
    };
    auto Ambiguous = [&](const SlotKey &U) {
      auto C = Candidates.find(U);
      if (C == Candidates.end() || C->second.empty())
        return false;
      return C->second.size() != 1 || Claims.at(C->second.front()) != 1;
    };
    std::set<SlotKey> Done;
    for (const auto &[Start, StartIds] : Unmatched) {
      if (Done.count(Start) || Settled(Start) || !Ambiguous(Start))
        continue;
      // The component of Start: access lines and instruction lines joined
      // by candidacy.
      std::set<SlotKey> Us{Start};
      std::set<OrphanKey> Os;
      bool Grew = true, Clean = true;
      while (Grew) {
        Grew = false;
        for (const auto &[U, C] : Candidates)
          for (const OrphanKey &O : C)
            if (Us.count(U) != Os.count(O)) {
              Grew = true;
              Us.insert(U);
              Os.insert(O);
            }
      }
      for (const SlotKey &U : Us) {
        Done.insert(U);
        Clean &= !Settled(U);
      }
      if (!Clean)
        continue;
      // Fewer instruction lines than accesses: the spare ones (placed in a
      // header inlined on a line of the accesses' file, or a line's
      // surplus), when one of the component's accesses could be them (same
      // kind, a width that fits).
      std::map<OrphanKey, std::vector<SlotKey>> Extra;
      if (Os.size() < Us.size())
        for (const auto &[O, Indices] : Spare) {
          if (Os.count(O) || Orphans.count(O))
            continue;
          for (const SlotKey &U : Us) {
            if (std::get<0>(U) != std::get<0>(O) || std::get<2>(U) != std::get<2>(O) ||
                !spaceFits(std::get<3>(O), std::get<3>(U)))
              continue;
            bool Fit = true;
            for (const SiteId &Id : Unmatched.at(U)) {
              unsigned W = Sites.at(Id).Bytes;
              bool Any = false;
              for (size_t I : Indices) {
                unsigned B = Instructions[I].Shape.BytesPerLane;
                Any |= W && (B % W == 0 || W % B == 0);
              }
              Fit &= Any;
            }
            if (Fit)
              Extra[O].push_back(U);
          }
        }
      for (const auto &[O, Claimants] : Extra)
        Os.insert(O);
      std::vector<SlotKey> UKeys(Us.begin(), Us.end());
      std::vector<OrphanKey> OKeys(Os.begin(), Os.end());
      auto ByLine = [](const auto &A, const auto &B) { return std::get<1>(A) < std::get<1>(B); };
      std::sort(UKeys.begin(), UKeys.end(), ByLine);
      std::sort(OKeys.begin(), OKeys.end(), ByLine);
      std::vector<unsigned> ULines, OLines;
      for (const SlotKey &U : UKeys)
        ULines.push_back(std::get<1>(U));
      for (const OrphanKey &O : OKeys)
        OLines.push_back(std::get<1>(O));
      if (std::adjacent_find(ULines.begin(), ULines.end()) != ULines.end() ||
          std::adjacent_find(OLines.begin(), OLines.end()) != OLines.end())
        continue;
      auto Pairs = pairMovedInOrder(ULines, OLines, [&](size_t A, size_t I) {
        auto X = Extra.find(OKeys[I]);
        if (X != Extra.end())
          return std::find(X->second.begin(), X->second.end(), UKeys[A]) != X->second.end();
        const auto &C = Candidates.at(UKeys[A]);
        return std::find(C.begin(), C.end(), OKeys[I]) != C.end();
      });
      if (!Pairs)
        continue;
      for (size_t A = 0; A < UKeys.size(); ++A) {
        const OrphanKey &O = OKeys[(*Pairs)[A]];
        auto Listed = Orphans.find(O);
        const InstructionSlot *Slot =
            makeSlot(Listed != Orphans.end() ? Listed->second : Spare.at(O), std::get<0>(O),
                     std::get<1>(O));
        for (const SiteId &Id : Unmatched.at(UKeys[A])) {
          SitePlan &P = Plans[Id];
          P.Slot = Slot;
          P.Moved = true;
          P.HoistedOutOf = loopsLeft(Id.first, Slot->Line);
          P.Hoisted = !P.HoistedOutOf.empty();
        }
      }
    }
  }

  /// The loads (or stores) of a branch's two arms with no instruction on
  /// their lines, which one group of instructions after the branch fits
  /// and no other line claims (EmittedInstructions.h, "selected").
  void planSelectedLoads(std::map<SiteId, SitePlan> &Plans,
                         const std::map<SlotKey, std::vector<SiteId>> &Unmatched,
                         const std::map<SlotKey, std::vector<OrphanKey>> &Candidates,
                         const std::map<OrphanKey, unsigned> &Claims,
                         const std::map<OrphanKey, std::vector<size_t>> &Orphans) {
    std::map<OrphanKey, std::vector<SlotKey>> Claimants;
    for (const auto &[U, C] : Candidates)
      if (C.size() == 1)
        Claimants[C.front()].push_back(U);
    for (const auto &[O, Us] : Claimants) {
      if (Us.size() < 2 || Claims.at(O) != Us.size())
        continue;
      std::vector<SiteId> Ids;
      size_t MostOnALine = 0;
      for (const SlotKey &U : Us) {
        const std::vector<SiteId> &Of = Unmatched.at(U);
        Ids.insert(Ids.end(), Of.begin(), Of.end());
        MostOnALine = std::max(MostOnALine, Of.size());
      }
      if (Orphans.at(O).size() != MostOnALine)
        continue;
      // Every two of them in the two arms of one branch.
      const Stmt *At = nullptr;
      bool Arms = true;
      for (size_t A = 0; A < Ids.size() && Arms; ++A)
        for (size_t B = A + 1; B < Ids.size() && Arms; ++B) {
          if (Sites.at(Ids[A]).Line == Sites.at(Ids[B]).Line)
            continue;
          const Stmt *Branch = branchBetween(Ids[A].first, Ids[B].first);
          Arms = Branch && (!At || At == Branch);
          At = Branch;
        }
      if (!Arms || !At)
        continue;
      const InstructionSlot *Slot = makeSlot(Orphans.at(O), std::get<0>(O), std::get<1>(O));
      for (const SiteId &Id : Ids) {
        SitePlan &P = Plans[Id];
        P.Slot = Slot;
        P.Moved = true;
        P.SelectedAt = At;
      }
    }
  }

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
                               const std::map<SlotKey, std::vector<size_t>> &SlotInstructions) {
    for (const auto &[U, Ids] : Unmatched) {
      if (Plans.at(Ids.front()).SelectedAt)
        continue;
      auto C = Candidates.find(U);
      if (C == Candidates.end() || C->second.empty() ||
          std::any_of(C->second.begin(), C->second.end(),
                      [&](const OrphanKey &O) { return Claims.at(O) != 1; }))
        continue;
      // The one line of the other arm whose instructions are its own.
      const SlotKey *Partner = nullptr;
      const Stmt *At = nullptr;
      bool Unique = true;
      for (const auto &[SK, Matched] : SitesOfSlot) {
        if (std::get<0>(SK) != std::get<0>(U) || std::get<2>(SK) != std::get<2>(U) ||
            std::get<3>(SK) != std::get<3>(U))
          continue;
        if (std::any_of(Matched.begin(), Matched.end(), [&](const SiteId &Id) {
              const SitePlan &P = Plans.at(Id);
              return P.SelectedAt || P.Moved || P.Hoisted || P.RepeatsRemoved;
            }))
          continue;
        const Stmt *Branch = nullptr;
        bool Arms = true;
        for (const SiteId &A : Ids)
          for (const SiteId &B : Matched) {
            const Stmt *S = branchBetween(A.first, B.first);
            Arms &= S && (!Branch || Branch == S);
            Branch = S;
          }
        if (!Arms || !Branch)
          continue;
        Unique &= !Partner;
        Partner = &SK;
        At = Branch;
      }
      if (!Partner || !Unique)
        continue;
      // In the loops of the other arm's line: a loop nvcc split by the
      // condition instead (`for t2 <= t` then `for t2 > t`, each arm a loop
      // of its own, as it compiles test/inputs/unrolled-selected-stores.cu's
      // splitRows) has the orphans in a loop of theirs.
      std::set<int> PartnerLoops;
      for (size_t I = 0; I < Instructions.size(); ++I)
        for (const auto &[File, Line] : Positions[I])
          if (File == std::get<0>(*Partner) && Line == std::get<1>(*Partner))
            PartnerLoops.insert(Instructions[I].LoopHead);
      bool SameLoops = true;
      for (const OrphanKey &O : C->second)
        for (size_t I : Orphans.at(O))
          SameLoops &= PartnerLoops.count(Instructions[I].LoopHead) > 0;
      if (!SameLoops)
        continue;
      std::vector<size_t> Indices = SlotInstructions.at(*Partner);
      std::vector<unsigned> OtherLines;
      for (const OrphanKey &O : C->second) {
        const std::vector<size_t> &Of = Orphans.at(O);
        Indices.insert(Indices.end(), Of.begin(), Of.end());
        OtherLines.push_back(std::get<1>(O));
      }
      // One width, every access's: a select of two addresses of one type.
      const std::vector<SiteId> &Matched = SitesOfSlot.at(*Partner);
      bool OneWidth = true;
      for (size_t I : Indices)
        for (const std::vector<SiteId> *Group : {&Ids, &Matched})
          for (const SiteId &Id : *Group)
            OneWidth &= Instructions[I].Shape.BytesPerLane == Sites.at(Id).Bytes;
      if (!OneWidth)
        continue;
      std::sort(OtherLines.begin(), OtherLines.end());
      OtherLines.erase(std::unique(OtherLines.begin(), OtherLines.end()), OtherLines.end());
      makeSlot(Indices, std::get<0>(*Partner), std::get<1>(*Partner));
      Slots.back().OtherLines = std::move(OtherLines);
      const InstructionSlot *Slot = &Slots.back();
      for (const std::vector<SiteId> *Group : {&Ids, &Matched})
        for (const SiteId &Id : *Group) {
          SitePlan &P = Plans[Id];
          P.Slot = Slot;
          P.Moved = Group == &Ids;
          P.SelectedAt = At;
        }
    }
  }

  std::map<SiteId, SitePlan> plan() {
    std::map<SiteId, SitePlan> Plans;
    // The listing's instructions by line and kind, every position of each
    // (an inlined call's code is also the calling line's).
    std::map<LineKey, std::vector<size_t>> ByLine;
    for (size_t I = 0; I < Instructions.size(); ++I) {
      if (Instructions[I].Shape.Space == SassSpace::Local)
        continue;
      for (const auto &[File, Line] : Positions[I])
        ByLine[{File, Line, Instructions[I].Shape.Op}].push_back(I);
    }
    auto Fitting = [&](const LineKey &K, MemorySpace Space) {
      std::vector<size_t> Out;
      auto It = ByLine.find(K);
      if (It != ByLine.end())
        for (size_t I : It->second)
          if (spaceFits(Instructions[I].Shape.Space, Space))
            Out.push_back(I);
      return Out;
    };
    // Each site on its own line; one slot per line, kind and space.
    std::map<std::tuple<std::string, unsigned, SassOp, MemorySpace>, const InstructionSlot *>
        SlotOf;
    std::map<std::tuple<std::string, unsigned, SassOp, MemorySpace>, std::vector<SiteId>>
        Unmatched;
    std::map<std::tuple<std::string, unsigned, SassOp, MemorySpace>, std::vector<SiteId>>
        SitesOfSlot;
    std::map<std::tuple<std::string, unsigned, SassOp, MemorySpace>, std::vector<size_t>>
        SlotInstructions;
    std::set<std::string> ListedFiles;
    for (const auto &P : Positions)
      for (const auto &[File, Line] : P)
        ListedFiles.insert(File);
    for (const auto &[Id, S] : Sites) {
      SitePlan P;
      if (!ListedFiles.count(S.File)) {
        P.Unlisted = true;
        Plans[Id] = std::move(P);
        continue;
      }
      LineKey K{S.File, S.Line, sassOpOf(S.Op)};
      std::vector<size_t> Here = Fitting(K, S.Space);
      auto SK = std::make_tuple(S.File, S.Line, sassOpOf(S.Op), S.Space);
      if (!Here.empty()) {
        auto It = SlotOf.find(SK);
        P.Slot = It != SlotOf.end() ? It->second : (SlotOf[SK] = makeSlot(Here, S.File, S.Line));
        SitesOfSlot[SK].push_back(Id);
        SlotInstructions[SK] = Here;
      } else {
        Unmatched[SK].push_back(Id);
      }
      Plans[Id] = std::move(P);
    }
    // The instructions no access's line explains, by their innermost
    // position and space.
    std::map<std::tuple<std::string, unsigned, SassOp, SassSpace>, std::vector<size_t>> Orphans;
    std::map<std::tuple<std::string, unsigned, SassOp, SassSpace>, std::vector<size_t>>
        OuterOrphans;
    std::set<std::string> SiteFiles;
    for (const auto &[Id, S] : Sites)
      SiteFiles.insert(S.File);
    std::set<std::tuple<std::string, unsigned, SassOp>> Unexecuted = unexecutedAccessLines();
    for (size_t I = 0; I < Instructions.size(); ++I) {
      const SassMemoryInstruction &In = Instructions[I];
      if (In.Shape.Space == SassSpace::Local || Positions[I].empty())
        continue;
      bool Explained = false;
      for (const auto &[Id, S] : Sites)
        for (const auto &[File, Line] : Positions[I])
          if (File == S.File && Line == S.Line && sassOpOf(S.Op) == In.Shape.Op &&
              spaceFits(In.Shape.Space, S.Space))
            Explained = true;
      if (Explained || Unexecuted.count({Positions[I][0].first, Positions[I][0].second,
                                         In.Shape.Op}))
        continue;
      Orphans[{Positions[I][0].first, Positions[I][0].second, In.Shape.Op, In.Shape.Space}]
          .push_back(I);
      // Placed in a file without accesses (a CUDA header's inlined code):
      // also by its innermost position in one with accesses, for the
      // pairing by order. A load hoisted after an inlined atomic takes the
      // atomic's position, the header's line inlined at the kernel's
      // (gen-3.cu's gen3_10, line 218); a wmma::store_matrix_sync's own
      // stores are the call's, and pair with nothing.
      if (!SiteFiles.count(Positions[I][0].first))
        for (const auto &[File, Line] : Positions[I])
          if (SiteFiles.count(File)) {
            OuterOrphans[{File, Line, In.Shape.Op, In.Shape.Space}].push_back(I);
            break;
          }
    }
    planKeptInRegisters(Plans, SitesOfSlot, SlotInstructions, Orphans);
    planRepeatsRemoved(Plans, SitesOfSlot, SlotInstructions);
    if (Unmatched.empty())
      return Plans;
    // Spare instructions: those placed in a header, at their position in a
    // site file (above), and those a line holds beyond its own accesses'
    // needs (surplusInstructions). Each may be an access's with no other
    // candidate, or one of a pairing by order.
    std::map<OrphanKey, std::vector<size_t>> Spare = OuterOrphans;
    for (const auto &[O, Indices] : surplusInstructions(SitesOfSlot, SlotInstructions))
      Spare[O].insert(Spare[O].end(), Indices.begin(), Indices.end());
    // A line whose accesses have no instruction there is paired with the
    // one group of unexplained instructions that fits it, when that group
    // fits no other such line.
    auto Fits = [&](const std::tuple<std::string, unsigned, SassOp, MemorySpace> &U,
                    const std::tuple<std::string, unsigned, SassOp, SassSpace> &O) {
      if (std::get<0>(U) != std::get<0>(O) || std::get<2>(U) != std::get<2>(O) ||
          !spaceFits(std::get<3>(O), std::get<3>(U)))
        return false;
      for (const SiteId &Id : Unmatched.at(U)) {
        unsigned W = Sites.at(Id).Bytes;
        bool Any = false;
        for (size_t I : Orphans.at(O)) {
          unsigned B = Instructions[I].Shape.BytesPerLane;
          Any |= W && (B % W == 0 || W % B == 0);
        }
        if (!Any)
          return false;
      }
      return true;
    };
    std::map<std::tuple<std::string, unsigned, SassOp, SassSpace>, unsigned> Claims;
    std::map<std::tuple<std::string, unsigned, SassOp, MemorySpace>,
             std::vector<std::tuple<std::string, unsigned, SassOp, SassSpace>>>
        Candidates;
    for (const auto &[U, Ids] : Unmatched)
      for (const auto &[O, Indices] : Orphans)
        if (Fits(U, O)) {
          Candidates[U].push_back(O);
          ++Claims[O];
        }
    // A line no instruction of its file could serve: the spare ones. A
    // header's inlined code carries instructions onto a line of its file
    // (gen-4.cu's gen4_1: the load of line 40, hoisted before its loop
    // after the atomicAdd of line 38, placed at the atomic's header line
    // inlined there); a line's surplus is another line's load moved there.
    std::vector<OrphanKey> Added;
    for (const auto &[O, Indices] : Spare)
      if (!Orphans.count(O))
        Added.push_back(O);
    std::vector<SlotKey> Bare;
    for (const auto &[U, Ids] : Unmatched)
      if (Candidates[U].empty())
        Bare.push_back(U);
    for (const OrphanKey &O : Added) {
      Orphans[O] = Spare.at(O);
      for (const SlotKey &U : Bare)
        if (Fits(U, O)) {
          Candidates[U].push_back(O);
          ++Claims[O];
        }
      if (!Claims.count(O))
        Orphans.erase(O);
    }
    planSelectedLoads(Plans, Unmatched, Candidates, Claims, Orphans);
    planSelectedAcrossLines(Plans, Unmatched, Candidates, Claims, Orphans, SitesOfSlot,
                            SlotInstructions);
    planMovedInOrder(Plans, Unmatched, Candidates, Claims, Orphans, Spare);
    for (const auto &[U, Ids] : Unmatched) {
      const auto &C = Candidates[U];
      if (Plans[Ids.front()].SelectedAt || Plans[Ids.front()].Slot)
        continue;
      unsigned Line = std::get<1>(U);
      std::string What = std::string(spaceWords(std::get<3>(U))) + " " +
                         opWords(Sites.at(Ids.front()).Op);
      if (C.empty()) {
        // Merged with an access of another line, under whose line the
        // listing puts the wider instruction (merged-accesses.cu: s[i0] = ...
        // on one line, s[i1] = ... on the next, one STS.64 on the second):
        // the nearest line of this file with an instruction of this kind
        // wide enough to hold the access and another.
        // Of those, the nearest whose own accesses lie next to this one's
        // when any do: BlackScholes' `d_StockPrice[opt].x` (line 104) and
        // `.y` (line 111) are one LDG.E.64 on line 104, where line 106's
        // `d_OptionYears[opt].x` is nearer.
        const InstructionSlot *Partner = nullptr;
        unsigned Best = ~0u, Ties = 0;
        bool BestAdjacent = false;
        for (const auto &[K, Slot] : SlotOf) {
          if (std::get<0>(K) != std::get<0>(U) || std::get<2>(K) != std::get<2>(U) ||
              std::get<3>(K) != std::get<3>(U))
            continue;
          bool Wider = true;
          for (const SiteId &Id : Ids) {
            unsigned W = Sites.at(Id).Bytes;
            Wider &= std::any_of(Slot->OpcodeOfWidth.begin(), Slot->OpcodeOfWidth.end(),
                                 [&](const auto &KV) { return W && KV.first > W && KV.first % W == 0; });
          }
          if (!Wider)
            continue;
          auto Of = SitesOfSlot.find(K);
          bool Adjacent = Of != SitesOfSlot.end() && adjacentRequests(Ids, Of->second);
          if (BestAdjacent && !Adjacent)
            continue;
          unsigned Distance = Slot->Line > Line ? Slot->Line - Line : Line - Slot->Line;
          if (Distance < Best || (Adjacent && !BestAdjacent)) {
            Best = Distance;
            Partner = Slot;
            Ties = 1;
            BestAdjacent = Adjacent;
          } else if (Distance == Best) {
            ++Ties;
          }
        }
        if (Partner && Ties == 1) {
          for (const SiteId &Id : Ids) {
            SitePlan &P = Plans[Id];
            P.Slot = Partner;
            P.Moved = true;
          }
          continue;
        }
      }
      if (C.size() == 1 && Claims[C.front()] > 1 && sharesOrphansAlike(U, C.front(), Unmatched,
                                                                     Candidates, Orphans)) {
        // Several lines' accesses whose instructions the line table put on
        // one line (a rotated loop's loads at their value's first use:
        // one-lane-walks.cu's `lval = *lptr` on lines 17 and 21, both LDG.E
        // on line 19), as many instructions there as accesses, all of one
        // width: which is which does not change a request's cost.
        const auto &O = C.front();
        const InstructionSlot *Slot = makeSlot(Orphans.at(O), std::get<0>(O), std::get<1>(O));
        for (const SiteId &Id : Ids) {
          SitePlan &P = Plans[Id];
          P.Slot = Slot;
          P.Moved = true;
        }
        continue;
      }
      if (C.size() != 1 || Claims[C.front()] != 1) {
        std::string Why =
            C.empty() ? "the compiled kernel has no " + What + " instruction on line " +
                            std::to_string(Line) + " nor one that could be this access's"
                      : "the compiled kernel has no " + What + " instruction on line " +
                            std::to_string(Line) + ", and the ones that could be this "
                            "access's cannot be told apart from another line's";
        for (const SiteId &Id : Ids)
          Plans[Id].Unmatched = Why;
        continue;
      }
      const auto &O = C.front();
      const InstructionSlot *Slot =
          makeSlot(Orphans.at(O), std::get<0>(O), std::get<1>(O));
      for (const SiteId &Id : Ids) {
        SitePlan &P = Plans[Id];
        P.Slot = Slot;
        P.Moved = true;
        P.HoistedOutOf = loopsLeft(Id.first, Slot->Line);
        P.Hoisted = !P.HoistedOutOf.empty();
      }
    }
    return Plans;
  }
};

InstructionReconciler::InstructionReconciler(
    const std::vector<SassMemoryInstruction> &Instructions, const FunctionDecl *Kernel)
    : P(std::make_unique<Impl>(Instructions, Kernel)) {}

InstructionReconciler::~InstructionReconciler() = default;

void InstructionReconciler::addWarp(std::vector<RecordedRequest> Requests) {
  for (const RecordedRequest &R : Requests) {
    auto [It, New] = P->Sites.try_emplace({R.Site.Expr, R.Site.Op});
    if (New)
      It->second = P->siteInfo(R);
    It->second.Bytes = std::max(It->second.Bytes, R.Site.BytesPerLane);
  }
  P->Warps.push_back(std::move(Requests));
}

namespace {

/// The requests of one warp that an instruction may serve together: the
/// executions of one line's accesses of one width whose lanes' bytes follow
/// each other, from an address aligned to their sum.
struct OpenGroup {
  const InstructionSlot *Slot = nullptr;
  SiteId Last;
  std::vector<const RecordedRequest *> Members;
  unsigned MemberBytes = 0, Bytes = 0;
  bool Moved = false;
};

} // namespace

void InstructionReconciler::finish(
    llvm::function_ref<void(const EmittedRequest &)> Sink,
    llvm::function_ref<void(const RecordedRequest &)> Served,
    llvm::function_ref<void(const RecordedRequest &, size_t Warp)> Unexplained) {
  Plans = P->plan();
  auto Emit = [&](EmittedRequest &E) {
    E.RepeatsRemoved = Plans.at({E.Leader->Site.Expr, E.Leader->Site.Op}).RepeatsRemoved;
    Sink(E);
  };
  auto Mismatch = [&](const RecordedRequest &R, const SitePlan &Plan, unsigned Bytes) {
    std::string Widths;
    for (const auto &[W, Op] : Plan.Slot->OpcodeOfWidth)
      Widths += (Widths.empty() ? "" : ", ") + Op;
    Mismatches.try_emplace({R.Site.Expr, R.Site.Op},
                           "the compiled kernel's instructions on line " +
                               std::to_string(Plan.Slot->Line) + " (" + Widths +
                               ") do not explain a " + std::to_string(Bytes) +
                               "-byte request of this access");
  };
  // The accesses each (slot, width) serves as written, and how many of its
  // instructions each needs (a struct copied in field-sized chunks, one per
  // chunk): one instruction cannot be two accesses' (see the end).
  std::map<std::pair<const InstructionSlot *, unsigned>, std::map<SiteId, unsigned>>
      OwnInstructions;
  // A request of an access with instructions, one of them as written.
  auto EmitAs = [&](const RecordedRequest &R, const SitePlan &Plan) {
    unsigned W = R.Addresses->bytesPerLane(), Needed = 1;
    if (R.StructCopy && R.CopyPiecesOfWidth)
      Needed = R.CopyPiecesOfWidth;
    else if (R.StructCopy)
      Needed = std::max<unsigned>(
          1, static_cast<unsigned>(
                 P->Ctx.getTypeSizeInChars(R.Site.Expr->getType()).getQuantity() / W));
    OwnInstructions[{Plan.Slot, W}][{R.Site.Expr, R.Site.Op}] = Needed;
    EmittedRequest E;
    E.Leader = &R;
    E.Addresses = *R.Addresses;
    E.Members = {&R};
    E.Slot = Plan.Slot;
    E.Moved = Plan.Moved;
    E.Hoisted = Plan.Hoisted;
    auto It = Plan.Slot->OpcodeOfWidth.find(W);
    if (It != Plan.Slot->OpcodeOfWidth.end())
      E.Opcode = It->second;
    else
      Mismatch(R, Plan, W);
    Emit(E);
  };
  // A closed group becomes instructions: from its start, the widest of
  // its line's widths that fits what is left and to which the lanes'
  // addresses there are aligned.
  auto Close = [&](const OpenGroup &G) {
    const model::WarpAddressSet &Base = *G.Members.front()->Addresses;
    unsigned Offset = 0;
    while (Offset < G.Bytes) {
      unsigned Chunk = G.MemberBytes;
      for (auto It = G.Slot->OpcodeOfWidth.rbegin(); It != G.Slot->OpcodeOfWidth.rend(); ++It)
        if (It->first <= G.Bytes - Offset && It->first % G.MemberBytes == 0 &&
            alignedAt(Base, Offset, It->first)) {
          Chunk = It->first;
          break;
        }
      EmittedRequest E;
      E.Members.assign(G.Members.begin() + Offset / G.MemberBytes,
                       G.Members.begin() + (Offset + Chunk) / G.MemberBytes);
      E.Leader = E.Members.front();
      E.Addresses = shifted(Base, Offset, Chunk);
      E.Slot = G.Slot;
      E.Merged = Chunk > G.MemberBytes;
      E.Moved = G.Moved;
      auto It = G.Slot->OpcodeOfWidth.find(Chunk);
      if (It != G.Slot->OpcodeOfWidth.end())
        E.Opcode = It->second;
      else
        Mismatch(*E.Leader, Plans.at({E.Leader->Site.Expr, E.Leader->Site.Op}), Chunk);
      Emit(E);
      Offset += Chunk;
    }
  };
  // At most this many groups of a warp wait for their next member.
  constexpr size_t MaxOpenGroups = 16;
  // One instruction of a selected address: the request of one arm waits
  // for the other arm's.
  auto EmitSelected = [&](const RecordedRequest &First, const RecordedRequest *Second) {
    const SitePlan &Plan = Plans.at({First.Site.Expr, First.Site.Op});
    EmittedRequest E = selectedRequest(First, Second);
    E.Slot = Plan.Slot;
    auto It = Plan.Slot->OpcodeOfWidth.find(E.Addresses.bytesPerLane());
    if (It != Plan.Slot->OpcodeOfWidth.end())
      E.Opcode = It->second;
    else
      Mismatch(First, Plan, E.Addresses.bytesPerLane());
    Emit(E);
  };
  for (size_t WarpIndex = 0; WarpIndex < P->Warps.size(); ++WarpIndex) {
    const std::vector<RecordedRequest> &Warp = P->Warps[WarpIndex];
    std::vector<OpenGroup> Open;
    std::map<SiteId, const model::WarpAddressSet *> LastOfHoisted;
    std::map<SiteId, std::vector<const model::WarpAddressSet *>> EarlierOfRepeating;
    std::map<const InstructionSlot *, const RecordedRequest *> WaitingArm;
    for (const RecordedRequest &R : Warp) {
      SiteId Id{R.Site.Expr, R.Site.Op};
      const SitePlan &Plan = Plans.at(Id);
      // As planned (planRepeatsRemoved): no repeat across another access
      // that may write what a load reads or read what a store writes.
      for (auto &[Other, Earlier] : EarlierOfRepeating)
        if (breaksRepeats(R, Other, P->Sites.at(Other).Space))
          Earlier.clear();
      if (!R.Addresses || !Plan.Slot) {
        Unexplained(R, WarpIndex);
        continue;
      }
      if (Plan.SelectedAt) {
        auto [It, New] = WaitingArm.try_emplace(Plan.Slot, &R);
        if (New)
          continue;
        const RecordedRequest &Other = *It->second;
        bool Pairs = Other.Site.Expr != R.Site.Expr &&
                     (Other.Addresses->activeMask() & R.Addresses->activeMask()) == 0 &&
                     Other.Addresses->bytesPerLane() == R.Addresses->bytesPerLane();
        EmitSelected(Other, Pairs ? &R : nullptr);
        if (Pairs)
          WaitingArm.erase(It);
        else
          It->second = &R;
        continue;
      }
      if (Plan.RepeatsRemoved) {
        auto &Earlier = EarlierOfRepeating[Id];
        if (std::any_of(Earlier.begin(), Earlier.end(), [&](const model::WarpAddressSet *A) {
              return A->sameRequest(*R.Addresses);
            })) {
          Served(R);
          continue;
        }
        Earlier.push_back(&*R.Addresses);
      }
      if (Plan.Hoisted) {
        auto [It, New] = LastOfHoisted.try_emplace(Id, &*R.Addresses);
        if (!New && R.Addresses->servedBy(*It->second)) {
          Served(R);
          continue;
        }
        It->second = &*R.Addresses;
      }
      unsigned W = R.Addresses->bytesPerLane();
      const auto &Widths = Plan.Slot->OpcodeOfWidth;
      unsigned Widest = Widths.rbegin()->first;
      if (W > Widest) {
        // Split: chunks of the widest width that divides the access.
        unsigned Chunk = 0;
        for (auto It = Widths.rbegin(); It != Widths.rend() && !Chunk; ++It)
          if (W % It->first == 0)
            Chunk = It->first;
        if (!Chunk || Plan.Slot->CountOfWidth.at(Chunk) < W / Chunk) {
          EmitAs(R, Plan);
          continue;
        }
        for (unsigned Off = 0; Off < W; Off += Chunk) {
          EmittedRequest E;
          E.Leader = &R;
          E.Members = {&R};
          E.Addresses = shifted(*R.Addresses, Off, Chunk);
          E.Slot = Plan.Slot;
          E.Opcode = Widths.at(Chunk);
          E.Split = true;
          E.Moved = Plan.Moved;
          E.Hoisted = Plan.Hoisted;
          Emit(E);
        }
        continue;
      }
      bool Mergeable = std::any_of(Widths.begin(), Widths.end(), [&](const auto &KV) {
        return KV.first > W && KV.first % W == 0;
      });
      if (!Mergeable || Plan.Hoisted) {
        EmitAs(R, Plan);
        continue;
      }
      bool Extended = false;
      for (size_t G = 0; G < Open.size() && !Extended; ++G) {
        OpenGroup &Group = Open[G];
        // Members are kept in address order: R may follow the group's
        // bytes or precede them (`s[i] += s[i + 1]` reads s[i + 1] first).
        const model::WarpAddressSet &Base = *Group.Members.front()->Addresses;
        if (Group.Slot != Plan.Slot || Group.MemberBytes != W ||
            Base.activeMask() != R.Addresses->activeMask() || Group.Bytes + W > Widest)
          continue;
        unsigned Align = nextPowerOfTwo(Group.Bytes + W);
        bool After = alignedAt(Base, 0, Align), Before = alignedAt(*R.Addresses, 0, Align);
        for (unsigned L = 0; L < model::WarpSize && (After || Before); ++L)
          if (Base.isActive(L)) {
            After &= R.Addresses->address(L) == Base.address(L) + Group.Bytes;
            Before &= R.Addresses->address(L) + Group.Bytes == Base.address(L);
          }
        if (!After && !Before)
          continue;
        Group.Members.insert(After ? Group.Members.end() : Group.Members.begin(), &R);
        Group.Bytes += W;
        Group.Last = Id;
        Extended = true;
        if (Group.Bytes == Widest) {
          Close(Group);
          Open.erase(Open.begin() + G);
        }
      }
      if (Extended)
        continue;
      // A group this access was the last of cannot take it any more.
      for (size_t G = 0; G < Open.size();) {
        if (Open[G].Last == Id) {
          Close(Open[G]);
          Open.erase(Open.begin() + G);
        } else {
          ++G;
        }
      }
      if (Open.size() == MaxOpenGroups) {
        Close(Open.front());
        Open.erase(Open.begin());
      }
      OpenGroup G;
      G.Slot = Plan.Slot;
      G.Last = Id;
      G.Members = {&R};
      G.MemberBytes = G.Bytes = W;
      G.Moved = Plan.Moved;
      Open.push_back(std::move(G));
    }
    for (const OpenGroup &G : Open)
      Close(G);
    for (const auto &[Slot, R] : WaitingArm)
      EmitSelected(*R, nullptr);
  }
  // More accesses served as written than the line has instructions of
  // their width: the compiler made one instruction of several (the loads
  // of a branch's two arms as one load of a selected address), in a way
  // these rules do not read.
  // A struct copy all of whose chunks have an instruction is read: the
  // compiler dropped no field.
  for (const auto &[Key, Needs] : OwnInstructions) {
    auto Count = Key.first->CountOfWidth.find(Key.second);
    unsigned Listed = Count == Key.first->CountOfWidth.end() ? 0 : Count->second;
    unsigned Needed = 0;
    for (const auto &[Id, N] : Needs)
      Needed += N;
    if (Listed == 0)
      continue;
    if (Needed <= Listed) {
      for (const auto &[Id, N] : Needs)
        CompleteCopies.insert(Id);
      continue;
    }
    for (const auto &[Id, N] : Needs)
      Mismatches.try_emplace(Id, "the compiled kernel has " + std::to_string(Listed) + " " +
                                     std::to_string(Key.second) + "-byte instruction" +
                                     (Listed == 1 ? "" : "s") + " on line " +
                                     std::to_string(Key.first->Line) + " for the " +
                                     std::to_string(Needed) +
                                     " requests written there (the compiler made one of "
                                     "several, as the loads of a branch's two arms, or "
                                     "dropped a copied field)");
  }
}

std::string modelOpcode(MemorySpace Space, AccessOp Op, unsigned Bytes) {
  std::string Opcode = Space == MemorySpace::Global ? (Op == AccessOp::Load ? "LDG.E" : "STG.E")
                                                    : (Op == AccessOp::Load ? "LDS" : "STS");
  if (Bytes != 4)
    Opcode += (Bytes < 4 && Op == AccessOp::Load ? ".U" : ".") + std::to_string(8 * Bytes);
  return Opcode;
}

EmittedRequest selectedRequest(const RecordedRequest &First, const RecordedRequest *Second) {
  EmittedRequest E;
  E.Leader = &First;
  E.Members = {&First};
  E.Addresses = *First.Addresses;
  if (Second) {
    E.Members.push_back(Second);
    for (unsigned L = 0; L < model::WarpSize; ++L)
      if (Second->Addresses->isActive(L))
        E.Addresses.setLane(L, Second->Addresses->address(L));
  }
  E.Moved = true;
  E.Merged = Second != nullptr;
  return E;
}

} // namespace warpcheck::analysis
