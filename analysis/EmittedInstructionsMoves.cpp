//===- EmittedInstructionsMoves.cpp - instructions on other lines ============//
//
// Accesses whose instructions the compiler placed on another line
// (EmittedInstructions.h: moved, selected): the surplus instructions of lines
// that run once per warp, the pairing by order of hoisted loads, and the one
// load after a branch that serves both its arms.
//
//===----------------------------------------------------------------------===//

#include "EmittedInstructionsImpl.h"
#include "MovedInstructionOrder.h"

#include "clang/Basic/SourceManager.h"

#include <algorithm>

using namespace clang;

namespace warpcheck::analysis {

using emitted::sassOpOf;
using emitted::SiteId;
using emitted::spaceFits;

std::map<InstructionReconciler::Impl::OrphanKey, std::vector<size_t>>
InstructionReconciler::Impl::surplusInstructions(
    const std::map<SlotKey, std::vector<SiteId>> &SitesOfSlot,
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
        Out[{std::get<0>(SK), std::get<1>(SK), In.Shape.Op, In.Shape.Space}].push_back(Indices[K]);
      }
    }
  }
  return Out;
}

void InstructionReconciler::Impl::planMovedInOrder(
    std::map<SiteId, SitePlan> &Plans, const std::map<SlotKey, std::vector<SiteId>> &Unmatched,
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
      moveTo(Plans, Unmatched.at(UKeys[A]),
             makeSlot(Listed != Orphans.end() ? Listed->second : Spare.at(O), std::get<0>(O),
                      std::get<1>(O)),
             /*LeavesLoops=*/true);
    }
  }
}

void InstructionReconciler::Impl::planSelectedLoads(
    std::map<SiteId, SitePlan> &Plans, const std::map<SlotKey, std::vector<SiteId>> &Unmatched,
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

void InstructionReconciler::Impl::planSelectedAcrossLines(
    std::map<SiteId, SitePlan> &Plans, const std::map<SlotKey, std::vector<SiteId>> &Unmatched,
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

} // namespace warpcheck::analysis
