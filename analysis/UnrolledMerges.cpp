//===- UnrolledMerges.cpp - shared accesses nvcc merges in unrolled loops -===//

#include "UnrolledMerges.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// NVVM unrolls a small constant-trip-count loop completely on its own
/// (its unroll threshold weighs the unrolled body; a few instructions per
/// iteration stay under it up to about this count); `#pragma unroll` lifts
/// the bound up to the pragma threshold.
constexpr std::int64_t MaxTripWithoutPragma = 32;
constexpr std::int64_t MaxTripWithPragma = 1024;

/// The widest shared access per lane: 128 bits (LDS.128).
constexpr unsigned MaxVectorBytes = 16;

const VarDecl *counterOf(const Expr *E) {
  const auto *Ref = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

std::optional<std::int64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

/// Anything that splits an unrolled body into several basic blocks, or may
/// write memory a load of the chain reads behind the vectorizer's back.
bool splitsBody(const Stmt *S, const VarDecl *Counter) {
  if (!S)
    return false;
  // threadIdx.x and the like: a property read, its getter a call to a
  // builtin that reads a special register.
  if (isa<PseudoObjectExpr>(S) || isa<MSPropertyRefExpr>(S))
    return false;
  if (isa<IfStmt>(S) || isa<SwitchStmt>(S) || isa<ForStmt>(S) || isa<WhileStmt>(S) ||
      isa<DoStmt>(S) || isa<CXXForRangeStmt>(S) || isa<ConditionalOperator>(S) ||
      isa<BinaryConditionalOperator>(S) || isa<CallExpr>(S) || isa<GotoStmt>(S) ||
      isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<ReturnStmt>(S) || isa<AsmStmt>(S) ||
      isa<CXXThrowExpr>(S) || isa<CXXNewExpr>(S) || isa<CXXDeleteExpr>(S))
    return true;
  if (const auto *B = dyn_cast<BinaryOperator>(S)) {
    if (B->isLogicalOp())
      return true;
    if (B->isAssignmentOp() && counterOf(B->getLHS()) == Counter)
      return true;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->isIncrementDecrementOp() && counterOf(U->getSubExpr()) == Counter)
    return true;
  for (const Stmt *Child : S->children())
    if (splitsBody(Child, Counter))
      return true;
  return false;
}

/// The trip count of `for (T i = a; i < b; ++i)` (or <=, >, >=, != and a
/// constant step), every bound a constant.
std::optional<std::int64_t> constantTripCount(const ForStmt *F, const ASTContext &Ctx) {
  const VarDecl *Counter = nullptr;
  std::optional<std::int64_t> Start;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()); DS && DS->isSingleDecl()) {
    Counter = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (Counter)
      Start = constantOf(Counter->getInit(), Ctx);
  } else if (const auto *A = dyn_cast_or_null<BinaryOperator>(F->getInit());
             A && A->getOpcode() == BO_Assign) {
    Counter = counterOf(A->getLHS());
    Start = constantOf(A->getRHS(), Ctx);
  }
  if (!Counter || !Start || !Counter->getType()->isIntegerType())
    return std::nullopt;
  std::optional<std::int64_t> Step;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(F->getInc());
      U && counterOf(U->getSubExpr()) == Counter)
    Step = U->isIncrementOp() ? 1 : U->isDecrementOp() ? -1 : 0;
  else if (const auto *C = dyn_cast_or_null<CompoundAssignOperator>(F->getInc());
           C && counterOf(C->getLHS()) == Counter) {
    std::optional<std::int64_t> By = constantOf(C->getRHS(), Ctx);
    if (By && C->getOpcode() == BO_AddAssign)
      Step = *By;
    else if (By && C->getOpcode() == BO_SubAssign)
      Step = -*By;
  }
  if (!Step || *Step == 0)
    return std::nullopt;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
  if (!Cond || counterOf(Cond->getLHS()) != Counter)
    return std::nullopt;
  std::optional<std::int64_t> Bound = constantOf(Cond->getRHS(), Ctx);
  if (!Bound)
    return std::nullopt;
  std::int64_t S = *Step, From = *Start, To = *Bound;
  switch (Cond->getOpcode()) {
  case BO_LT:
  case BO_NE:
    break;
  case BO_LE:
    To += 1;
    break;
  case BO_GT:
    break;
  case BO_GE:
    To -= 1;
    break;
  default:
    return std::nullopt;
  }
  bool Up = Cond->getOpcode() == BO_LT || Cond->getOpcode() == BO_LE ||
            (Cond->getOpcode() == BO_NE && S > 0);
  if (Up != (S > 0))
    return std::nullopt;
  std::int64_t Span = Up ? To - From : From - To;
  std::int64_t Abs = S > 0 ? S : -S;
  if (Span <= 0)
    return 0;
  // `!=` must land on its bound.
  if (Cond->getOpcode() == BO_NE && Span % Abs != 0)
    return std::nullopt;
  return (Span + Abs - 1) / Abs;
}

/// The count `#pragma unroll` gives F (0: unroll completely), or none when
/// it has no such pragma; -1 for `#pragma nounroll` / `unroll 1`.
std::optional<std::int64_t> pragmaUnroll(const ForStmt *F, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*F);
  const auto *AS = Parents.empty() ? nullptr : Parents[0].get<AttributedStmt>();
  if (!AS)
    return std::nullopt;
  for (const Attr *A : AS->getAttrs()) {
    const auto *Hint = dyn_cast<LoopHintAttr>(A);
    if (!Hint)
      continue;
    if (Hint->getState() == LoopHintAttr::Disable)
      return -1;
    if (Hint->getOption() == LoopHintAttr::Unroll && Hint->getState() != LoopHintAttr::Numeric)
      return 0;
    if (Hint->getOption() == LoopHintAttr::UnrollCount) {
      std::optional<std::int64_t> N = constantOf(Hint->getValue(), Ctx);
      if (!N)
        return std::nullopt;
      return *N <= 1 ? -1 : *N;
    }
  }
  return std::nullopt;
}

} // namespace

unsigned knownSharedAlignment(const VarDecl *Var, const ASTContext &Ctx) {
  // Whole-program compilation: ptxas places every __shared__ array itself.
  if (!Ctx.getLangOpts().GPURelocatableDeviceCode)
    return MaxVectorBytes;
  // Relocatable device code: a static array's offset is the linker's; the
  // dynamic array starts where ptxas knows (fastWalshTransform's extern
  // s_data[], built with -rdc=true: LDS.64, measured).
  if (!Var)
    return 0;
  if (Var->hasExternalStorage() && Var->getType()->isIncompleteArrayType())
    return MaxVectorBytes;
  return static_cast<unsigned>(Ctx.getDeclAlign(Var).getQuantity());
}

std::optional<UnrolledLoopAccess> unrolledLoopAccess(const Expr *Site, ASTContext &Ctx) {
  const auto *AS = dyn_cast<ArraySubscriptExpr>(Site->IgnoreParenImpCasts());
  if (!AS || AS->getType().isVolatileQualified() || !AS->getType()->isScalarType())
    return std::nullopt;
  std::int64_t Elem = Ctx.getTypeSizeInChars(AS->getType()).getQuantity();
  if (Elem != 4 && Elem != 8)
    return std::nullopt;
  // The innermost loop whose body holds the access.
  DynTypedNode Node = DynTypedNode::create(*Site);
  const ForStmt *Loop = nullptr;
  for (unsigned Depth = 0; Depth < 256 && !Loop; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty() || Parents[0].get<FunctionDecl>() || Parents[0].get<LambdaExpr>())
      return std::nullopt;
    const DynTypedNode &P = Parents[0];
    if (P.get<WhileStmt>() || P.get<DoStmt>() || P.get<CXXForRangeStmt>())
      return std::nullopt;
    if (const auto *F = P.get<ForStmt>()) {
      if (Node.get<Stmt>() != F->getBody())
        return std::nullopt;
      Loop = F;
    }
    Node = P;
  }
  if (!Loop)
    return std::nullopt;
  std::optional<std::int64_t> Trip = constantTripCount(Loop, Ctx);
  if (!Trip || *Trip < 2)
    return std::nullopt;
  std::optional<std::int64_t> Pragma = pragmaUnroll(Loop, Ctx);
  if (Pragma && (*Pragma < 0 || (*Pragma > 0 && *Pragma < *Trip)))
    return std::nullopt;
  if (*Trip > (Pragma ? MaxTripWithPragma : MaxTripWithoutPragma))
    return std::nullopt;
  const auto *DS = dyn_cast_or_null<DeclStmt>(Loop->getInit());
  const VarDecl *Counter =
      DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
  if (!Counter)
    if (const auto *A = dyn_cast_or_null<BinaryOperator>(Loop->getInit()))
      Counter = counterOf(A->getLHS());
  if (splitsBody(Loop->getBody(), Counter))
    return std::nullopt;
  // The largest power of two dividing one run's bytes, at most 16.
  std::int64_t RunBytes = *Trip * Elem;
  unsigned Max = static_cast<unsigned>(Elem);
  while (Max * 2 <= MaxVectorBytes && RunBytes % (Max * 2) == 0)
    Max *= 2;
  if (Max <= static_cast<unsigned>(Elem))
    return std::nullopt;
  return UnrolledLoopAccess{static_cast<unsigned>(*Trip), Max};
}

const InstructionSlot *UnrolledMergePredictor::slotFor(const RecordedRequest &R, unsigned Bytes) {
  auto Key = std::make_tuple(R.Site.Expr, R.Site.Op, Bytes);
  auto It = SlotOf.find(Key);
  if (It != SlotOf.end())
    return It->second;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation L = SM.getExpansionLoc(R.Site.Expr->getBeginLoc());
  InstructionSlot S;
  S.Line = SM.getExpansionLineNumber(L);
  if (OptionalFileEntryRef F = SM.getFileEntryRefForID(SM.getFileID(L)))
    S.File = F->getName().str();
  // The opcode nvdisasm would print for it.
  std::string Opcode = R.Site.Op == AccessOp::Load ? "LDS" : "STS";
  Opcode += "." + std::to_string(8 * Bytes);
  S.OpcodeOfWidth[Bytes] = Opcode;
  S.CountOfWidth[Bytes] = 1;
  Slots.push_back(std::move(S));
  return SlotOf[Key] = &Slots.back();
}

void UnrolledMergePredictor::add(const RecordedRequest &R,
                                 llvm::function_ref<void(const RecordedRequest &)> Pass,
                                 llvm::function_ref<void(const RecordedRequest &)> Held) {
  SiteId Id{R.Site.Expr, R.Site.Op};
  bool Shared = R.Site.Space == MemorySpace::Shared;
  // What breaks the chains of another access's run in progress: a shared
  // store between two of its loads, to the same variable (unknown: any),
  // or any shared access between two of its stores. The code is the same
  // in every run: a chain broken once is never formed.
  if (Shared) {
    for (auto &[Other, Plan] : Sites) {
      if (Other == Id || Plan.Broken || Plan.Runs.empty() || !Plan.InThisWarp ||
          Plan.Runs.back().size() >= Plan.Loop.TripCount)
        continue;
      const RecordedRequest &M = *Plan.Runs.back().front();
      bool SameVar =
          !R.Site.SharedVar || !M.Site.SharedVar || R.Site.SharedVar == M.Site.SharedVar;
      if (M.Site.Op == AccessOp::Load ? R.Site.Op != AccessOp::Load && SameVar : true)
        Plan.Broken = true;
    }
  }
  std::optional<UnrolledLoopAccess> Loop;
  if (Shared && (R.Site.Op == AccessOp::Load || R.Site.Op == AccessOp::Store) &&
      !R.StructCopy) {
    auto K = Known.find(R.Site.Expr);
    if (K == Known.end())
      K = Known.emplace(R.Site.Expr, unrolledLoopAccess(R.Site.Expr, Ctx)).first;
    Loop = K->second;
  }
  if (!Loop) {
    Pass(R);
    return;
  }
  auto [It, New] = Sites.try_emplace(Id);
  SitePlan &Plan = It->second;
  if (New) {
    Plan.Loop = *Loop;
    Plan.Width = Loop->MaxBytes;
    // No wider than the alignment ptxas knows the array has.
    unsigned Known = knownSharedAlignment(R.Site.SharedVar, Ctx);
    while (Plan.Width > Known && Plan.Width > 1)
      Plan.Width /= 2;
  }
  if (!R.Addresses || R.Addresses->bytesPerLane() != R.Site.BytesPerLane) {
    Plan.Broken = true;
    Pass(R);
    return;
  }
  Kept.push_back(R);
  const RecordedRequest &Mine = Kept.back();
  Held(Mine);
  unsigned Position = Executions[Id]++ % Loop->TripCount;
  if (Position == 0 || !Plan.InThisWarp) {
    // A new run: its first lanes' addresses bound the width the compiler
    // can prove aligned for all of them.
    Plan.Runs.emplace_back();
    Plan.InThisWarp = true;
    for (unsigned L = 0; L < model::WarpSize; ++L)
      if (Mine.Addresses->isActive(L))
        while (Plan.Width > 1 && Mine.Addresses->address(L) % Plan.Width != 0)
          Plan.Width /= 2;
  } else {
    // The next iteration's bytes follow the previous one's, lane by lane.
    const model::WarpAddressSet &Prev = *Plan.Runs.back().back()->Addresses;
    unsigned W = Prev.bytesPerLane();
    bool Follows = Prev.activeMask() == Mine.Addresses->activeMask();
    for (unsigned L = 0; L < model::WarpSize && Follows; ++L)
      if (Prev.isActive(L))
        Follows = Mine.Addresses->address(L) == Prev.address(L) + W;
    if (!Follows)
      Plan.Broken = true;
  }
  Plan.Runs.back().push_back(&Mine);
}

void UnrolledMergePredictor::finishWarp() {
  Executions.clear();
  for (auto &[Id, Plan] : Sites)
    Plan.InThisWarp = false;
}

void UnrolledMergePredictor::finish(llvm::function_ref<void(const EmittedRequest &)> Emit) {
  for (auto &[Id, Plan] : Sites) {
    if (!Plan.Broken && !Plan.Runs.empty() &&
        Plan.Width <= Plan.Runs.front().front()->Addresses->bytesPerLane())
      Unaligned.insert(Id);
    for (const std::vector<const RecordedRequest *> &Run : Plan.Runs) {
      unsigned MemberBytes = Run.front()->Addresses->bytesPerLane();
      size_t PerRequest =
          Plan.Broken || Plan.Width <= MemberBytes ? 1 : Plan.Width / MemberBytes;
      for (size_t First = 0; First < Run.size(); First += PerRequest) {
        EmittedRequest E;
        E.Members.assign(Run.begin() + First,
                         Run.begin() + std::min(Run.size(), First + PerRequest));
        const RecordedRequest &Leader = *E.Members.front();
        E.Leader = &Leader;
        if (E.Members.size() == 1) {
          // Alone (a run cut short by the simulation budget): as written.
          E.Addresses = *Leader.Addresses;
        } else {
          unsigned Bytes = static_cast<unsigned>(E.Members.size()) * MemberBytes;
          // A run cut short ends with what is left: the widest power of two.
          while (Bytes & (Bytes - 1)) {
            E.Members.pop_back();
            Bytes -= MemberBytes;
          }
          E.Addresses = model::WarpAddressSet(Bytes);
          for (unsigned L = 0; L < model::WarpSize; ++L)
            if (Leader.Addresses->isActive(L))
              E.Addresses.setLane(L, Leader.Addresses->address(L));
          E.Slot = slotFor(Leader, Bytes);
          E.Opcode = E.Slot->OpcodeOfWidth.at(Bytes);
          E.Merged = true;
          Merged.insert(Id);
          // What did not fit starts the next request.
          First -= PerRequest - E.Members.size();
        }
        Emit(E);
      }
    }
  }
  Sites.clear();
  Kept.clear();
}

} // namespace warpcheck::analysis
