//===- EmittedInstructions.cpp - the accesses as the compiler emitted them ===//
//
// InstructionReconciler (EmittedInstructions.h): the requests the planned
// instructions make, warp by warp. The plan is made in
// EmittedInstructionsPlan.cpp and EmittedInstructionsMoves.cpp from what
// EmittedInstructionsSites.cpp says of each access (EmittedInstructionsImpl.h).
//
//===----------------------------------------------------------------------===//

#include "EmittedInstructionsImpl.h"

#include <algorithm>
#include <functional>

using namespace clang;

namespace warpcheck::analysis {

using emitted::breaksRepeats;
using emitted::SiteId;

bool emitted::breaksRepeats(const RecordedRequest &R, const SiteId &Other, MemorySpace Space) {
  if (SiteId{R.Site.Expr, R.Site.Op} == Other || R.Site.Space != Space)
    return false;
  bool Writes = R.Site.Op != AccessOp::Load, Reads = R.Site.Op != AccessOp::Store;
  return Other.second == AccessOp::Store ? Reads : Writes;
}

namespace {

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

unsigned nextPowerOfTwo(unsigned V) {
  unsigned P = 1;
  while (P < V)
    P <<= 1;
  return P;
}

} // namespace

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
