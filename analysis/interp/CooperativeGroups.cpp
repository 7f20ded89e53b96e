//===- CooperativeGroups.cpp - ranks, sizes and shuffles of groups -------===//
//
// The cooperative groups of CUDA C++ (Programming Guide, "Cooperative
// Groups") are library classes whose methods the interpreter does not run
// (their bodies read packed bit-fields and special registers through
// inline assembly): a group's rank and size are functions of the thread's
// position, evaluated here as threadIdx is. Which group an object is comes
// from where it was made, followed through copies, conversions to
// thread_group and the parameters of the calls run inline: a thread_group
// made from this_thread_block() ranks threads as the block does.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

#include "llvm/ADT/bit.h"

using namespace clang;

namespace warpcheck::analysis {

bool interp::inCooperativeGroups(const DeclContext *DC) {
  for (; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "cooperative_groups")
        return true;
  return false;
}

namespace {

const CXXRecordDecl *groupRecord(QualType T) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && inCooperativeGroups(RD) ? RD : nullptr;
}

bool isCallTo(const Expr *E, llvm::StringRef Name) {
  const auto *CE = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() && FD->getName() == Name &&
         inCooperativeGroups(FD->getDeclContext());
}
} // namespace

void WarpInterpreter::Impl::noteGroupDeclared(const VarDecl *VD) {
  if (groupRecord(VD->getType()))
    GroupMembers[{Frames.size() - 1, VD}] = Active;
}

WarpInterpreter::Impl::GroupOrigin WarpInterpreter::Impl::groupOrigin(const Expr *E) {
  GroupOrigin Origin;
  std::size_t FrameIndex = Frames.size() - 1;
  // The variable the chain last went through, and the frame holding it.
  std::optional<std::pair<std::size_t, const VarDecl *>> Holder;
  // A chain longer than this is not followed (a copy of a copy of ...).
  constexpr int MaxSteps = 64;
  for (int Step = 0; E && Step < MaxSteps; ++Step) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr();
      continue;
    }
    if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = B->getSubExpr();
      continue;
    }
    if (const auto *C = dyn_cast<ExprWithCleanups>(E)) {
      E = C->getSubExpr();
      continue;
    }
    if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
      if (C->getNumArgs() == 1 && C->getConstructor()->isCopyOrMoveConstructor()) {
        E = C->getArg(0);
        continue;
      }
      break;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD)
      break;
    if (const auto *PVD = dyn_cast<ParmVarDecl>(VD)) {
      // The argument of the call run inline that bound the parameter, in
      // the caller's frame.
      const auto *Fn = dyn_cast<FunctionDecl>(PVD->getDeclContext());
      const Expr *Arg = nullptr;
      for (std::size_t F = FrameIndex + 1; F-- > 0 && !Arg;) {
        const InlinedCall &C = Frames[F].Call;
        const FunctionDecl *Callee = C.Call ? C.Call->getDirectCallee() : nullptr;
        if (!Callee || !Fn || Callee->getCanonicalDecl() != Fn->getCanonicalDecl())
          continue;
        unsigned Index = C.ArgOffset + PVD->getFunctionScopeIndex();
        if (Index < C.Call->getNumArgs() && F > 0) {
          Arg = C.Call->getArg(Index);
          FrameIndex = F - 1;
        }
        break;
      }
      if (!Arg)
        break;
      Holder.reset();
      E = Arg;
      continue;
    }
    std::optional<std::size_t> Declared;
    for (std::size_t F = FrameIndex + 1; F-- > 0 && !Declared;)
      if (GroupMembers.count({F, VD}))
        Declared = F;
    if (!Declared || !VD->getInit())
      break;
    Holder = std::make_pair(*Declared, VD);
    FrameIndex = *Declared;
    E = VD->getInit();
  }
  if (!E)
    return Origin;
  Origin.Type = groupRecord(E->getType());
  // A coalesced group is the lanes active where coalesced_threads() made
  // it: those of the declaration that holds it, or, made for this call
  // alone (coalesced_threads().thread_rank()), the lanes here.
  if (isCallTo(E, "coalesced_threads")) {
    if (Holder)
      Origin.Members = GroupMembers.at(*Holder);
    else if (FrameIndex == Frames.size() - 1)
      Origin.Members = Active;
  }
  return Origin;
}

std::optional<Lanes>
WarpInterpreter::Impl::cooperativeGroupsCall(const FunctionDecl *FD,
                                             const CallExpr *CE) {
  // cg::reduce(group, value, op), cg::inclusive_scan and exclusive_scan
  // (group, value[, op]): the group's lanes combine their values with
  // shuffles. The value is read whatever it binds to (a forwarding
  // reference: `cg::reduce(warp, block_acc[warp.thread_rank()], plus)`
  // loads the element, llm.c's attention_backward); the result is other
  // lanes' values, not followed.
  if (!isa<CXXMethodDecl>(FD) && FD->getIdentifier() && CE->getNumArgs() >= 2 &&
      inCooperativeGroups(FD->getDeclContext()) &&
      llvm::is_contained({"reduce", "inclusive_scan", "exclusive_scan"}, FD->getName())) {
    eval(CE->getArg(0));
    const Expr *Value = CE->getArg(1)->IgnoreParens();
    if (Value->isGLValue())
      readLValue(evalLValue(Value), Value, Value->getType().getNonReferenceType());
    else
      eval(Value);
    for (unsigned I = 2; I < CE->getNumArgs(); ++I)
      eval(CE->getArg(I));
    return Lanes();
  }
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || !MD->getIdentifier() || !inCooperativeGroups(MD->getParent()))
    return std::nullopt;
  llvm::StringRef Method = MD->getName();
  bool Shuffle = Method == "shfl";
  if (!Shuffle && !CE->getType()->isIntegerType())
    return std::nullopt;
  // The group's type: where the object was made, else the static type of
  // the object the method is called on (the method itself may be a base
  // class's).
  const CXXRecordDecl *Group = MD->getParent();
  std::optional<Mask> Members;
  if (const auto *ME = dyn_cast<MemberExpr>(CE->getCallee()->IgnoreParenImpCasts())) {
    if (const CXXRecordDecl *RD = groupRecord(ME->getBase()->getType()))
      Group = RD;
    GroupOrigin Origin = groupOrigin(ME->getBase());
    if (Origin.Type)
      Group = Origin.Type;
    Members = Origin.Members;
  }
  llvm::StringRef Kind = Group->getName();
  std::uint64_t BlockThreads = Launch.Block.count();
  auto ThreadInBlock = [&](unsigned L) -> std::uint64_t {
    return Tx[L] + std::uint64_t(Ty[L]) * Launch.Block.X +
           std::uint64_t(Tz[L]) * Launch.Block.X * Launch.Block.Y;
  };
  auto PerLane = [&](auto F) {
    Lanes R;
    for (unsigned L = 0; L < WarpSize; ++L)
      R[L] = LaneValue::integer(normalize(static_cast<std::uint64_t>(F(L)), CE->getType()));
    return R;
  };
  // shfl(value, rank): each lane reads the value of the group's lane of
  // that rank (SourceLane(L, rank): nullopt outside the warp).
  auto Shuffled = [&](auto SourceLane) -> std::optional<Lanes> {
    if (CE->getNumArgs() != 2)
      return std::nullopt;
    // The value is taken by reference (shfl(TyElem &&elem, ...)): an
    // lvalue argument is read here.
    const Expr *Value = CE->getArg(0)->IgnoreParens();
    Lanes V = Value->isGLValue()
                  ? readLValue(evalLValue(Value), Value, Value->getType().getNonReferenceType())
                  : eval(Value);
    Lanes Rank = eval(CE->getArg(1));
    Lanes R;
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (Rank[L].K != LaneValue::Int)
        continue;
      std::optional<unsigned> Src = SourceLane(L, Rank[L].Bits);
      if (Src && *Src < WarpSize)
        R[L] = V[*Src];
    }
    return R;
  };
  if (Kind == "thread_block") {
    if (Method == "thread_rank")
      return PerLane(ThreadInBlock);
    if (Method == "size" || Method == "num_threads")
      return PerLane([&](unsigned) { return BlockThreads; });
    return std::nullopt;
  }
  if (Kind == "grid_group") {
    if (GridSampled)
      SampledRead.insert("gridDim");
    std::uint64_t BlockRank = Where.BlockIdx.X + std::uint64_t(Where.BlockIdx.Y) * Grid.X +
                              std::uint64_t(Where.BlockIdx.Z) * Grid.X * Grid.Y;
    if (Method == "thread_rank")
      return PerLane([&](unsigned L) { return BlockRank * BlockThreads + ThreadInBlock(L); });
    if (Method == "size" || Method == "num_threads")
      return PerLane([&](unsigned) { return Grid.count() * BlockThreads; });
    if (Method == "block_rank")
      return PerLane([&](unsigned) { return BlockRank; });
    if (Method == "num_blocks")
      return PerLane([&](unsigned) { return Grid.count(); });
    return std::nullopt;
  }
  if (Kind == "coalesced_group") {
    // The lanes active where the group was made, ranked in lane order
    // (coalesced_threads(): thread_rank is the count of members below the
    // lane, size the count of members).
    if (!Members)
      return std::nullopt;
    Mask M = *Members;
    auto RankOf = [&](unsigned L) -> std::uint64_t {
      return llvm::popcount(M & ((Mask(1) << L) - 1));
    };
    if (Method == "thread_rank")
      return PerLane(RankOf);
    if (Method == "size" || Method == "num_threads")
      return PerLane([&](unsigned) { return llvm::popcount(M); });
    if (Method == "meta_group_rank")
      return PerLane([](unsigned) { return 0; });
    if (Method == "meta_group_size")
      return PerLane([](unsigned) { return 1; });
    if (Shuffle)
      return Shuffled([&](unsigned, std::uint64_t Rank) -> std::optional<unsigned> {
        for (unsigned L = 0; L < WarpSize; ++L)
          if (isBitSet(M, L) && RankOf(L) == Rank)
            return L;
        return std::nullopt;
      });
    return std::nullopt;
  }
  if (Kind.contains("tile")) {
    // thread_block_tile<N> and the bases it is implemented with.
    const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Group);
    if (!Spec || Spec->getTemplateArgs().size() == 0 ||
        Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
      return std::nullopt;
    std::uint64_t Size = Spec->getTemplateArgs()[0].getAsIntegral().getZExtValue();
    if (Size == 0)
      return std::nullopt;
    if (Method == "thread_rank")
      return PerLane([&](unsigned L) { return ThreadInBlock(L) % Size; });
    if (Method == "size" || Method == "num_threads")
      return PerLane([&](unsigned) { return Size; });
    if (Method == "meta_group_rank")
      return PerLane([&](unsigned L) { return ThreadInBlock(L) / Size; });
    if (Method == "meta_group_size")
      return PerLane([&](unsigned) { return (BlockThreads + Size - 1) / Size; });
    // A tile of at most a warp is lanes of one warp: rank r of lane L's
    // tile is the lane r places after the tile's first.
    if (Shuffle && Size <= WarpSize)
      return Shuffled([&](unsigned L, std::uint64_t Rank) -> std::optional<unsigned> {
        std::uint64_t First = L - ThreadInBlock(L) % Size;
        return static_cast<unsigned>(First + Rank % Size);
      });
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace warpcheck::analysis
