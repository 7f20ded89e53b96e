//===- AccessRecorder.cpp - memory regions and the requests of a warp -----===//
//
// Where the simulated memory lies (one region per allocation or variable)
// and how an access becomes a request: the only place where the addresses
// of the active lanes become a model::WarpAddressSet for the sink.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/SaveAndRestore.h"

#include "warpcheck/analysis/AosAccesses.h"
#include "warpcheck/model/SharedMemory.h"
#include "warpcheck/model/StructCopy.h"

#include "ReadValueUses.h"

#include <algorithm>

using namespace clang;

namespace warpcheck::analysis {

/// Every region's base is a multiple of 2^36: an address's low bits are its
/// offset in the region (allocationOffset, AosAccesses.h).
static constexpr unsigned RegionAddressBits = 36;

std::uint64_t allocationOffset(std::uint64_t SimulatedAddress) {
  return SimulatedAddress & ((std::uint64_t(1) << RegionAddressBits) - 1);
}

std::uint64_t allocationOf(std::uint64_t SimulatedAddress) {
  return SimulatedAddress >> RegionAddressBits;
}

int WarpInterpreter::Impl::regionFor(const void *Key, RegionKind Kind,
                                     const VarDecl *Var) {
  auto It = RegionOf.find(Key);
  if (It != RegionOf.end())
    return It->second;
  int R = addRegion(Kind, Var);
  RegionOf[Key] = R;
  return R;
}

int WarpInterpreter::Impl::addRegion(RegionKind Kind, const VarDecl *Var) {
  // Bases are far apart so no two regions share a sector, a line or a
  // bank row; global bases are 256-byte aligned as cudaMalloc returns them
  // (CUDA C++ Programming Guide, "Device Memory Accesses"), shared arrays
  // start at a 128-byte boundary.
  std::uint64_t Base = (std::uint64_t(Regions.size()) + 1) << RegionAddressBits;
  Regions.push_back({Kind, Base, Var});
  return static_cast<int>(Regions.size()) - 1;
}

void WarpInterpreter::Impl::recordTypedAccess(const Expr *SiteExpr, AccessOp Op,
                                               const Lanes &Addr, QualType T,
                                               bool MemoryToMemory) {
  T = T.getCanonicalType();
  if (T->getAs<RecordType>()) {
    // The pieces nvcc copies it in (model/StructCopy.h); of a copy into a
    // local only some of whose fields are read, only those bytes are
    // loaded.
    const std::vector<model::ByteRange> *Read = nullptr;
    if (Op == AccessOp::Load) {
      auto It = CopyBytesRead.find(SiteExpr);
      if (It == CopyBytesRead.end())
        It = CopyBytesRead.emplace(SiteExpr, fieldBytesRead(SiteExpr, Ctx)).first;
      if (It->second)
        Read = &*It->second;
    }
    std::uint64_t Size = sizeOf(T);
    std::vector<model::CopyPiece> Pieces =
        model::structCopyPieces(Size, Ctx.getTypeAlignInChars(T).getQuantity(), Read);
    if (Pieces.size() == 1 && Pieces[0].Offset == 0 && Pieces[0].Bytes == Size) {
      recordAccess(SiteExpr, Op, Addr, T, false, 0, static_cast<unsigned>(Size));
      return;
    }
    for (const model::CopyPiece &P : Pieces)
      recordAccess(SiteExpr, Op, Addr, T, true, P.Offset, P.Bytes, nullptr, MemoryToMemory,
                   static_cast<unsigned>(std::count_if(
                       Pieces.begin(), Pieces.end(),
                       [&](const model::CopyPiece &Q) { return Q.Bytes == P.Bytes; })));
    return;
  }
  recordAccess(SiteExpr, Op, Addr, T);
}

void WarpInterpreter::Impl::recordAccess(const Expr *SiteExpr, AccessOp Op,
                                          const Lanes &Addr, QualType AccessType,
                                          bool StructCopy,
                                          std::uint64_t ExtraOffset,
                                          unsigned Bytes,
                                          const model::AtomicTraits *Atomic,
                                          bool MemoryToMemory,
                                          unsigned CopyPiecesOfWidth) {
  if (!Active || Aborted)
    return;
  if (!Bytes)
    Bytes = static_cast<unsigned>(sizeOf(AccessType));
  RecordedRequest R;
  R.Site.Expr = SiteExpr;
  R.Site.Op = Op;
  R.Site.BytesPerLane = Bytes;
  if (Atomic)
    R.Site.Atomic = *Atomic;
  R.UnderUncertainMask = Uncertain > 0 || (Active & uncertainLiveLanes()) != 0;
  R.StructCopy = StructCopy;
  R.MemoryToMemory = StructCopy && MemoryToMemory;
  R.CopyPiecesOfWidth = StructCopy ? CopyPiecesOfWidth : 0;
  for (const Frame &F : Frames) // outermost first
    if (F.Call.Call)
      R.CallSites.push_back(F.Call.Call);
  // Which memory: the region of the first known lane.
  int FirstRegion = -1;
  bool AnyUnknown = false;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!isBitSet(Active, L))
      continue;
    // A lane whose offset is not known still names its memory.
    if (Addr[L].hasRegion() && FirstRegion < 0)
      FirstRegion = Addr[L].Region;
    if (Addr[L].K != LaneValue::Pointer)
      AnyUnknown = true;
  }
  if (FirstRegion >= 0) {
    RegionKind K = Regions[FirstRegion].Kind;
    if (K == RegionKind::Local || K == RegionKind::Constant)
      return; // not global or shared memory: nothing to model
    R.Site.Space = K == RegionKind::Shared ? MemorySpace::Shared : MemorySpace::Global;
    if (K == RegionKind::Shared)
      R.Site.SharedVar = Regions[FirstRegion].Var;
  } else {
    // Nothing known about the pointer: a pointer read from memory. Global is
    // where such pointers point in practice; the status will be unknown.
    R.Site.Space = MemorySpace::Global;
  }
  // Under a data-dependent condition, a lane whose address lies outside
  // its __shared__ array is one the data never lets through (a valid
  // program stays inside its arrays, C++ [expr.add]): it is left out of
  // the request, and a request left with no lane is none. A scan tree's
  // levels under a count read from memory: the lanes past the list's end
  // are those that the largest count the list holds leaves idle.
  std::optional<llvm::SaveAndRestore<Mask>> Inside;
  if (R.UnderUncertainMask && !AnyUnknown && R.Site.Space == MemorySpace::Shared) {
    Mask Kept = Active;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (isBitSet(Active, L) && outsideSharedArray(Addr[L], ExtraOffset, Bytes))
        Kept &= ~(Mask(1) << L);
    if (!Kept)
      return;
    Inside.emplace(Active, Kept);
  }
  if (!AnyUnknown && FirstRegion >= 0) {
    model::WarpAddressSet Set(Bytes);
    bool Mixed = false;
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (!isBitSet(Active, L))
        continue;
      const Region &Rg = Regions[Addr[L].Region];
      if ((Rg.Kind == RegionKind::Shared) !=
          (R.Site.Space == MemorySpace::Shared))
        Mixed = true;
      Set.setLane(L, Rg.Base + Addr[L].Bits + ExtraOffset);
    }
    if (!Mixed)
      R.Addresses = Set;
    if (R.Site.Space == MemorySpace::Shared)
      checkSharedBounds(Addr, ExtraOffset, Bytes, R.UnderUncertainMask);
  } else if (R.Site.Space == MemorySpace::Shared && R.Site.SharedVar) {
    // Offsets not known, but every lane inside one shared variable (the
    // program indexes it in bounds): its size bounds where they can be.
    bool OneVariable = true;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (isBitSet(Active, L) && (!Addr[L].hasRegion() || Addr[L].Region != FirstRegion))
        OneVariable = false;
    if (OneVariable)
      R.FootprintBytes = sharedVariableBytes(R.Site.SharedVar);
  }
  // One lane alone (thread 0 writing its block's result through an index
  // read from memory): its address does not change what the request costs.
  // Under a data-dependent condition too: the mask then holds every lane
  // that may take it, so a request it lets through is this lane's or none
  // (a quicksort's partition launched <<<1, 1>>>, its pointers moved by
  // the data; cdpSimpleQuicksort measured 1 sector per request).
  if (!R.Addresses && llvm::popcount(Active) == 1)
    R.OneLane = true;
  // A shared atomic nvcc emits as a compare-and-swap loop reads the old
  // values first, with a plain load of the same width at the same
  // addresses (measured: 'LDS R4, [R2+UR5]' before the ATOMS.CAST.SPIN of
  // a float atomicAdd, 'LDS.64' before that of a 64-bit one;
  // shared-atomics.cu, llm.c's layernorm_backward), once a round of the
  // loop: a load of its own, which keeps the atomic's traits.
  if (Op == AccessOp::Atomic && R.Site.Space == MemorySpace::Shared &&
      model::isSharedAtomicRetryLoop(R.Site.Atomic)) {
    RecordedRequest Read = R;
    Read.Site.Op = AccessOp::Load;
    Sink(Read);
  }
  Sink(R);
}

std::uint64_t WarpInterpreter::Impl::sharedVariableBytes(const VarDecl *Var) const {
  // `extern __shared__` arrays have the size the launch gives them.
  if (!Var || Var->getType()->isIncompleteType() || Var->getType()->isDependentType())
    return 0;
  // A layout the padding fix-it simulates has its own size.
  if (auto It = Layouts.find(Var); It != Layouts.end()) {
    std::uint64_t Size = It->second.ElementBytes;
    for (std::uint64_t D : It->second.Dims)
      Size *= D;
    return Size;
  }
  return Ctx.getTypeSizeInChars(Var->getType()).getQuantity();
}

void WarpInterpreter::Impl::checkSharedBounds(const Lanes &Addr, std::uint64_t ExtraOffset,
                                              unsigned Bytes, bool UnderUncertainMask) {
  // Lanes under a data-dependent branch may be ones the data never lets
  // through (they are simulated as if it did): only the others count.
  if (UnderUncertainMask || OutOfBoundsShared)
    return;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (isBitSet(Active, L) && outsideSharedArray(Addr[L], ExtraOffset, Bytes)) {
      OutOfBoundsShared = true;
      if (Samples.StopAtOutOfBounds)
        Aborted = true;
      return;
    }
  }
}

bool WarpInterpreter::Impl::outsideSharedArray(const LaneValue &Value,
                                               std::uint64_t ExtraOffset,
                                               unsigned Bytes) const {
  if (Value.K != LaneValue::Pointer || Regions[Value.Region].Kind != RegionKind::Shared)
    return false;
  // `extern __shared__` arrays have the size the launch gives them.
  std::uint64_t Size = sharedVariableBytes(Regions[Value.Region].Var);
  if (!Size)
    return false;
  // A negative offset wraps to a huge one: outside as well.
  std::uint64_t Offset = Value.Bits + ExtraOffset;
  return Offset >= Size || Size - Offset < Bytes;
}

} // namespace warpcheck::analysis
