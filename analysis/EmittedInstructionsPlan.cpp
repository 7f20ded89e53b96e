//===- EmittedInstructionsPlan.cpp - which instructions serve which access ===//
//
// InstructionReconciler::Impl::plan (EmittedInstructionsImpl.h): each access
// paired with its line's instructions, and the accesses the compiler kept in
// registers or whose repeats it removed. Accesses with no instruction on their
// line are paired in EmittedInstructionsMoves.cpp.
//
//===----------------------------------------------------------------------===//

#include "EmittedInstructionsImpl.h"

#include "clang/Basic/SourceManager.h"

#include <algorithm>

using namespace clang;

namespace warpcheck::analysis {

using emitted::sassOpOf;
using emitted::SiteId;
using emitted::spaceFits;

using emitted::breaksRepeats;

namespace {

const char *spaceWords(MemorySpace S) {
  return S == MemorySpace::Shared ? "shared-memory" : "global-memory";
}
const char *opWords(AccessOp Op) {
  return Op == AccessOp::Load ? "load" : Op == AccessOp::Store ? "store" : "atomic";
}

/// A line of a file, one kind of access.
using LineKey = std::tuple<std::string, unsigned, SassOp>;

} // namespace

void InstructionReconciler::Impl::moveTo(std::map<SiteId, SitePlan> &Plans,
                                         const std::vector<SiteId> &Ids,
                                         const InstructionSlot *Slot, bool LeavesLoops) {
  for (const SiteId &Id : Ids) {
    SitePlan &P = Plans[Id];
    P.Slot = Slot;
    P.Moved = true;
    if (LeavesLoops) {
      P.HoistedOutOf = loopsLeft(Id.first, Slot->Line);
      P.Hoisted = !P.HoistedOutOf.empty();
    }
  }
}

std::map<SiteId, SitePlan> InstructionReconciler::Impl::plan() {
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
  std::map<std::tuple<std::string, unsigned, SassOp, MemorySpace>, const InstructionSlot *> SlotOf;
  std::map<std::tuple<std::string, unsigned, SassOp, MemorySpace>, std::vector<SiteId>> Unmatched;
  std::map<std::tuple<std::string, unsigned, SassOp, MemorySpace>, std::vector<SiteId>> SitesOfSlot;
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
  std::map<std::tuple<std::string, unsigned, SassOp, SassSpace>, std::vector<size_t>> OuterOrphans;
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
    if (Explained || Unexecuted.count({Positions[I][0].first, Positions[I][0].second, In.Shape.Op}))
      continue;
    Orphans[{Positions[I][0].first, Positions[I][0].second, In.Shape.Op, In.Shape.Space}].push_back(
        I);
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
    std::string What =
        std::string(spaceWords(std::get<3>(U))) + " " + opWords(Sites.at(Ids.front()).Op);
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
          Wider &=
              std::any_of(Slot->OpcodeOfWidth.begin(), Slot->OpcodeOfWidth.end(),
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
        moveTo(Plans, Ids, Partner, /*LeavesLoops=*/false);
        continue;
      }
    }
    if (C.size() == 1 && Claims[C.front()] > 1 &&
        sharesOrphansAlike(U, C.front(), Unmatched, Candidates, Orphans)) {
      // Several lines' accesses whose instructions the line table put on
      // one line (a rotated loop's loads at their value's first use:
      // one-lane-walks.cu's `lval = *lptr` on lines 17 and 21, both LDG.E
      // on line 19), as many instructions there as accesses, all of one
      // width: which is which does not change a request's cost.
      const auto &O = C.front();
      moveTo(Plans, Ids, makeSlot(Orphans.at(O), std::get<0>(O), std::get<1>(O)), /*LeavesLoops=*/false);
      continue;
    }
    if (C.size() != 1 || Claims[C.front()] != 1) {
      std::string Why = C.empty()
                            ? "the compiled kernel has no " + What + " instruction on line " +
                                  std::to_string(Line) + " nor one that could be this access's"
                            : "the compiled kernel has no " + What + " instruction on line " +
                                  std::to_string(Line) +
                                  ", and the ones that could be this "
                                  "access's cannot be told apart from another line's";
      for (const SiteId &Id : Ids)
        Plans[Id].Unmatched = Why;
      continue;
    }
    const auto &O = C.front();
    moveTo(Plans, Ids, makeSlot(Orphans.at(O), std::get<0>(O), std::get<1>(O)), /*LeavesLoops=*/true);
  }
  return Plans;
}

void InstructionReconciler::Impl::planKeptInRegisters(
    std::map<SiteId, SitePlan> &Plans, const std::map<SlotKey, std::vector<SiteId>> &SitesOfSlot,
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

void InstructionReconciler::Impl::planRepeatsRemoved(
    std::map<SiteId, SitePlan> &Plans, const std::map<SlotKey, std::vector<SiteId>> &SitesOfSlot,
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

} // namespace warpcheck::analysis
