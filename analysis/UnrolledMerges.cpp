//===- UnrolledMerges.cpp - accesses the compiler merges into wider ones -===//

#include "UnrolledMerges.h"
#include "IndexAlignment.h"
#include "LoopUnrolling.h"
#include "MemoryInstructions.h"
#include "SourceMemory.h"

#include "warpcheck/analysis/KernelAnalysis.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/bit.h"

#include <algorithm>

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// The widest shared access per lane: 128 bits (LDS.128).
constexpr unsigned MaxVectorBytes = 16;

/// The nodes above Site, nearest first, up to its function (the last);
/// empty inside a lambda (a function of its own) or past 256 levels.
std::vector<DynTypedNode> ancestorsOf(const Stmt *Site, ASTContext &Ctx) {
  std::vector<DynTypedNode> Chain;
  DynTypedNode Node = DynTypedNode::create(*Site);
  for (unsigned Depth = 0; Depth < 256; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty() || Parents[0].get<LambdaExpr>())
      return {};
    Node = Parents[0];
    Chain.push_back(Node);
    if (Node.get<FunctionDecl>())
      return Chain;
  }
  return {};
}

bool splitsBody(const Stmt *S, const VarDecl *Counter, unsigned Depth = 0);

/// Whether Call, once inlined, adds no basic block and touches no memory:
/// a function of the program (not the toolkit's, whose math functions
/// branch) that isPureCall (SourceMemory.h) and whose body is straight-line
/// code ending in its return. vector-halves.cu's `price(spot[i].x, ...)`
/// and `price(spot[i].y, ...)`, on lines 15 and 18: one LDG.E.64 of
/// spot[i] on line 15, measured.
bool inlinedStraightLine(const CallExpr *Call, unsigned Depth) {
  const FunctionDecl *F = Call->getDirectCallee();
  const FunctionDecl *Def = F ? F->getDefinition() : nullptr;
  if (!Def || Depth >= 4 || !isPureCall(Call) ||
      Def->getASTContext().getSourceManager().isInSystemHeader(Def->getLocation()))
    return false;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body)
    return false;
  for (const Stmt *X : Body->body()) {
    const auto *Return = dyn_cast<ReturnStmt>(X);
    if (Return && X == Body->body_back())
      return !splitsBody(Return->getRetValue(), nullptr, Depth + 1);
    if (splitsBody(X, nullptr, Depth + 1))
      return false;
  }
  return true;
}

/// Anything that splits an unrolled body into several basic blocks, or may
/// write memory a load of the chain reads behind the vectorizer's back
/// (Counter: the loop's counter written; null outside a loop). A call
/// inlined as straight-line code that touches no memory does neither.
bool splitsBody(const Stmt *S, const VarDecl *Counter, unsigned Depth) {
  if (!S)
    return false;
  // threadIdx.x and the like: a property read, its getter a call to a
  // builtin that reads a special register.
  if (isa<PseudoObjectExpr>(S) || isa<MSPropertyRefExpr>(S))
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && inlinedStraightLine(Call, Depth)) {
    for (const Expr *Arg : Call->arguments())
      if (splitsBody(Arg, Counter, Depth))
        return true;
    return false;
  }
  if (isa<IfStmt>(S) || isa<SwitchStmt>(S) || isa<ForStmt>(S) || isa<WhileStmt>(S) ||
      isa<DoStmt>(S) || isa<CXXForRangeStmt>(S) || isa<ConditionalOperator>(S) ||
      isa<BinaryConditionalOperator>(S) || isa<CallExpr>(S) || isa<GotoStmt>(S) ||
      isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<ReturnStmt>(S) || isa<AsmStmt>(S) ||
      isa<CXXThrowExpr>(S) || isa<CXXNewExpr>(S) || isa<CXXDeleteExpr>(S))
    return true;
  if (const auto *B = dyn_cast<BinaryOperator>(S)) {
    if (B->isLogicalOp())
      return true;
    if (Counter && B->isAssignmentOp() && loopCounterOf(B->getLHS()) == Counter)
      return true;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && Counter && U->isIncrementDecrementOp() && loopCounterOf(U->getSubExpr()) == Counter)
    return true;
  for (const Stmt *Child : S->children())
    if (splitsBody(Child, Counter, Depth))
      return true;
  return false;
}

/// Whether E is written (the left side of a plain assignment) or read.
AccessOp sourceOpOf(const Expr *E, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(*E);
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      break;
    if (const auto *B = Parents[0].get<BinaryOperator>()) {
      if (B->getLHS()->IgnoreParens() != Node.get<Expr>())
        return AccessOp::Load;
      // Read and written (`s[i] += x`): paired with neither.
      return B->getOpcode() == BO_Assign ? AccessOp::Store : AccessOp::Atomic;
    }
    if (!Parents[0].get<ParenExpr>())
      break;
    Node = Parents[0];
  }
  return AccessOp::Load;
}

} // namespace

const Expr *adjacentPartner(const Expr *Site, AccessOp Op, ASTContext &Ctx) {
  const auto *AS = dyn_cast<ArraySubscriptExpr>(Site->IgnoreParenImpCasts());
  if (!AS || AS->getType().isVolatileQualified() || !AS->getType()->isScalarType())
    return nullptr;
  std::int64_t Elem = Ctx.getTypeSizeInChars(AS->getType()).getQuantity();
  const auto *Base = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
  if ((Elem != 4 && Elem != 8) || !Base)
    return nullptr;
  // The function whose body holds it.
  std::vector<DynTypedNode> Above = ancestorsOf(Site, Ctx);
  const FunctionDecl *Function = Above.empty() ? nullptr : Above.back().get<FunctionDecl>();
  if (!Function || !Function->getBody())
    return nullptr;
  struct Finder : RecursiveASTVisitor<Finder> {
    const ArraySubscriptExpr *Site;
    const DeclRefExpr *Base;
    AccessOp Op;
    ASTContext *Ctx;
    std::vector<const ArraySubscriptExpr *> Found;
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
      const auto *B = dyn_cast<DeclRefExpr>(E->getBase()->IgnoreParenImpCasts());
      if (E == Site || !B || B->getDecl() != Base->getDecl() || E->getType() != Site->getType() ||
          E->getType().isVolatileQualified())
        return true;
      if ((isNextIndex(Site->getIdx(), E->getIdx(), *Ctx) ||
           isNextIndex(E->getIdx(), Site->getIdx(), *Ctx)) &&
          sourceOpOf(E, *Ctx) == Op)
        Found.push_back(E);
      return true;
    }
  } F;
  F.Site = AS;
  F.Base = Base;
  F.Op = Op;
  F.Ctx = &Ctx;
  F.TraverseStmt(Function->getBody());
  // The nearest in the source (a pair written twice, stored then read
  // back: each with its neighbour); with two as near, which one the
  // compiler pairs is not known.
  const SourceManager &SM = Ctx.getSourceManager();
  auto LineOf = [&](const Expr *E) {
    return static_cast<long>(SM.getExpansionLineNumber(E->getBeginLoc()));
  };
  const Expr *Nearest = nullptr;
  long Best = -1;
  bool Tie = false;
  for (const ArraySubscriptExpr *E : F.Found) {
    long D = std::labs(LineOf(E) - LineOf(AS));
    if (Best < 0 || D < Best) {
      Best = D;
      Nearest = E;
      Tie = false;
    } else if (D == Best) {
      Tie = true;
    }
  }
  if (Tie || !Nearest)
    return nullptr;
  // A pair merges only where the index as written proves its first
  // element aligned to the pair's bytes (IndexAlignment.h): nvcc 13 makes
  // `s[2 * t]`, `s[2 * t + 1]` one LDS.64 but leaves `s[t * stride]`,
  // `s[t * stride + 1]` two LDS, whatever the stride passed (a kernel
  // parameter proves nothing), as it does `s[idx[t]]`, `s[idx[t] + 1]`
  // (listings of nvcc 13.0 for sm_90).
  const auto *Other = cast<ArraySubscriptExpr>(Nearest);
  const ArraySubscriptExpr *Lower = isNextIndex(AS->getIdx(), Other->getIdx(), Ctx) ? AS : Other;
  if (!provesAligned(Lower->getIdx(), static_cast<std::uint64_t>(Elem),
                     2 * static_cast<std::uint64_t>(Elem), Ctx))
    return nullptr;
  return Nearest;
}

std::optional<FieldGroup> fieldGroup(const Expr *Site, AccessOp Op, ASTContext &Ctx) {
  const auto *ME = dyn_cast<MemberExpr>(Site->IgnoreParenImpCasts());
  if (!ME || ME->isArrow() || ME->getType().isVolatileQualified() ||
      (Op != AccessOp::Load && Op != AccessOp::Store))
    return std::nullopt;
  QualType Element = ME->getBase()->getType();
  const RecordDecl *Record = Element->getAsRecordDecl();
  if (!Record || Element.isVolatileQualified() || !Record->getDefinition())
    return std::nullopt;
  std::int64_t Size = Ctx.getTypeSizeInChars(Element).getQuantity();
  std::int64_t Align = Ctx.getTypeAlignInChars(Element).getQuantity();
  if ((Size != 8 && Size != 16) || Align != Size)
    return std::nullopt;
  // Scalar fields of one size filling the element without padding.
  std::vector<const FieldDecl *> Fields;
  std::int64_t Filled = 0;
  for (const FieldDecl *F : Record->fields()) {
    std::int64_t FieldSize = Ctx.getTypeSizeInChars(F->getType()).getQuantity();
    if (F->isBitField() || !F->getType()->isScalarType() ||
        (!Fields.empty() && FieldSize != Filled / std::int64_t(Fields.size())))
      return std::nullopt;
    Fields.push_back(F);
    Filled += FieldSize;
  }
  if (Fields.size() < 2 || Filled != Size)
    return std::nullopt;
  // The statement holding it: the child of a compound statement.
  std::vector<DynTypedNode> Above = ancestorsOf(Site, Ctx);
  const Stmt *Statement = nullptr;
  const CompoundStmt *Block = nullptr;
  for (size_t I = 0; I < Above.size() && !Statement; ++I)
    if ((Block = Above[I].get<CompoundStmt>()))
      Statement = I == 0 ? Site : Above[I - 1].get<Stmt>();
  if (!Statement)
    return std::nullopt;
  struct Finder : RecursiveASTVisitor<Finder> {
    std::string Base;
    QualType Element;
    AccessOp Op;
    ASTContext *Ctx;
    std::map<const FieldDecl *, std::vector<const MemberExpr *>> Found;
    bool VisitMemberExpr(MemberExpr *E) {
      const auto *F = dyn_cast<FieldDecl>(E->getMemberDecl());
      if (F && !E->isArrow() && E->getBase()->getType() == Element &&
          sourceText(E->getBase(), *Ctx) == Base && sourceOpOf(E, *Ctx) == Op)
        Found[F].push_back(E);
      return true;
    }
  };
  std::string Base = sourceText(ME->getBase(), Ctx);
  if (Base.empty())
    return std::nullopt;
  // Every field once in the statements of Window.
  auto GroupIn = [&](llvm::ArrayRef<const Stmt *> Window) -> std::optional<FieldGroup> {
    Finder F;
    F.Base = Base;
    F.Element = Element;
    F.Op = Op;
    F.Ctx = &Ctx;
    for (const Stmt *S : Window)
      F.TraverseStmt(const_cast<Stmt *>(S));
    for (const FieldDecl *Field : Fields) {
      auto It = F.Found.find(Field);
      if (It == F.Found.end() || It->second.size() != 1)
        return std::nullopt;
    }
    return FieldGroup{F.Found[Fields.front()].front(), static_cast<unsigned>(Fields.size()),
                      static_cast<unsigned>(Size)};
  };
  if (std::optional<FieldGroup> G = GroupIn(Statement))
    return G;
  // Else with the statements around it that stay in its basic block and
  // call nothing but straight-line code (splitsBody): the vectorizer works
  // on a basic block, not a statement. Seen in the PTX of nvcc 13.0 -O3 -arch=sm_90, whose
  // st.global.v2/.v4 ptxas emits as one STG.E.64/.128: `o[i].x = v;
  // o[i].y = 2 * v;` of a float2 is one st.global.v2.f32, a float4's four
  // fields stored in four statements (in any order) one st.global.v4.f32,
  // `float a = p[i].x; float b = p[i].y;` one ld.global.v2.f32; a load
  // between two of the stores (`o[i].x = a[i]; o[i].y = b[i];`) or a store
  // between two of the loads keeps them apart, which the simulation sees
  // (UnrolledMergePredictor::add).
  if (splitsBody(Statement, nullptr))
    return std::nullopt;
  std::vector<const Stmt *> Siblings(Block->body_begin(), Block->body_end());
  auto At = std::find(Siblings.begin(), Siblings.end(), Statement);
  if (At == Siblings.end())
    return std::nullopt;
  auto Begin = At, End = At + 1;
  while (Begin != Siblings.begin() && !splitsBody(*(Begin - 1), nullptr))
    --Begin;
  while (End != Siblings.end() && !splitsBody(*End, nullptr))
    ++End;
  if (End - Begin == 1)
    return std::nullopt;
  return GroupIn(llvm::ArrayRef<const Stmt *>(&*Begin, End - Begin));
}

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
  std::vector<DynTypedNode> Above = ancestorsOf(Site, Ctx);
  const ForStmt *Loop = nullptr;
  for (size_t I = 0; I < Above.size() && !Loop; ++I) {
    const DynTypedNode &P = Above[I];
    if (P.get<WhileStmt>() || P.get<DoStmt>() || P.get<CXXForRangeStmt>())
      return std::nullopt;
    if (const auto *F = P.get<ForStmt>()) {
      if ((I == 0 ? Site : Above[I - 1].get<Stmt>()) != F->getBody())
        return std::nullopt;
      Loop = F;
    }
  }
  if (!Loop)
    return std::nullopt;
  std::optional<std::int64_t> Trip = completeUnrollTripCount(Loop, Ctx);
  if (!Trip || *Trip < 2)
    return std::nullopt;
  const auto *DS = dyn_cast_or_null<DeclStmt>(Loop->getInit());
  const VarDecl *Counter =
      DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
  if (!Counter)
    if (const auto *A = dyn_cast_or_null<BinaryOperator>(Loop->getInit()))
      Counter = loopCounterOf(A->getLHS());
  if (splitsBody(Loop->getBody(), Counter))
    return std::nullopt;
  // The largest power of two dividing one run's bytes, at most 16.
  std::int64_t RunBytes = *Trip * Elem;
  unsigned Max = static_cast<unsigned>(Elem);
  while (Max * 2 <= MaxVectorBytes && RunBytes % (Max * 2) == 0)
    Max *= 2;
  // No wider than the compiler proves the element's offset aligned, from
  // the indices as written (IndexAlignment.h): each level of an array of
  // arrays adds its index times its element's size.
  unsigned OffsetZeros = 64;
  for (const Expr *Level = AS; const auto *Sub = dyn_cast<ArraySubscriptExpr>(Level);) {
    std::int64_t Bytes = Ctx.getTypeSizeInChars(Sub->getType()).getQuantity();
    unsigned Zeros = knownTrailingZeroBits(Sub->getIdx(), Counter, Ctx);
    if (Bytes > 0)
      OffsetZeros = std::min(OffsetZeros, std::min(64u, Zeros + llvm::countr_zero(
                                                              static_cast<std::uint64_t>(Bytes))));
    Level = Sub->getBase()->IgnoreParenImpCasts();
    if (!Level->getType()->isArrayType())
      break;
  }
  while (Max > static_cast<unsigned>(Elem) && OffsetZeros < 64 &&
         (std::uint64_t(1) << std::min(OffsetZeros, 4u)) % Max != 0)
    Max /= 2;
  if (Max <= static_cast<unsigned>(Elem))
    return std::nullopt;
  return UnrolledLoopAccess{static_cast<unsigned>(*Trip), Max};
}

const InstructionSlot *UnrolledMergePredictor::slotFor(const RecordedRequest &R, unsigned Bytes,
                                                       unsigned Line) {
  auto Key = std::make_tuple(R.Site.Expr, R.Site.Op, Bytes, Line);
  auto It = SlotOf.find(Key);
  if (It != SlotOf.end())
    return It->second;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation L = SM.getExpansionLoc(R.Site.Expr->getBeginLoc());
  InstructionSlot S;
  S.Line = Line ? Line : SM.getExpansionLineNumber(L);
  if (OptionalFileEntryRef F = SM.getFileEntryRefForID(SM.getFileID(L)))
    S.File = F->getName().str();
  S.OpcodeOfWidth[Bytes] = modelOpcode(R.Site.Space, R.Site.Op, Bytes);
  S.CountOfWidth[Bytes] = 1;
  Slots.push_back(std::move(S));
  return SlotOf[Key] = &Slots.back();
}

const std::optional<SelectedLoad> &UnrolledMergePredictor::selectionOf(const RecordedRequest &R) {
  auto It = Selections.find(R.Site.Expr);
  if (It == Selections.end()) {
    std::optional<SelectedLoad> S;
    if (R.Site.Op == AccessOp::Load && !R.StructCopy &&
        (R.Site.Space == MemorySpace::Global || R.Site.Space == MemorySpace::Shared))
      S = selectedLoad(R.Site.Expr, Ctx);
    It = Selections.emplace(R.Site.Expr, S).first;
  }
  return It->second;
}

void UnrolledMergePredictor::add(const RecordedRequest &R,
                                 llvm::function_ref<void(const RecordedRequest &)> Pass,
                                 llvm::function_ref<void(const RecordedRequest &)> Held) {
  SiteId Id{R.Site.Expr, R.Site.Op};
  // The other arm's load right after the first's, for other lanes of the
  // warp, completes the run (one request of both); anything else leaves
  // the run alone.
  bool CompletesSelected = false;
  if (OpenSelected) {
    const RecordedRequest &First = *SelectedRuns[*OpenSelected].First;
    const std::optional<SelectedLoad> &S = selectionOf(First);
    CompletesSelected = S && S->Partner == R.Site.Expr->IgnoreParens() &&
                        R.Site.Op == AccessOp::Load && R.Site.Space == First.Site.Space &&
                        R.Addresses && R.Addresses->bytesPerLane() == R.Site.BytesPerLane &&
                        R.Site.BytesPerLane == First.Site.BytesPerLane &&
                        (R.Addresses->activeMask() & First.Addresses->activeMask()) == 0;
    if (!CompletesSelected)
      OpenSelected.reset();
  }
  bool Shared = R.Site.Space == MemorySpace::Shared;
  std::optional<UnrolledLoopAccess> Loop;
  if (Shared && (R.Site.Op == AccessOp::Load || R.Site.Op == AccessOp::Store) &&
      !R.StructCopy) {
    auto K = Known.find(R.Site.Expr);
    if (K == Known.end())
      K = Known.emplace(R.Site.Expr, unrolledLoopAccess(R.Site.Expr, Ctx)).first;
    Loop = K->second;
  }
  // Not in an unrolled loop: one of two adjacent elements `s[i0]`,
  // `s[i0 + 1]` accessed alike, one plan for the pair, runs of two.
  SiteId Key = Id;
  bool Pair = false;
  if (!Loop && Shared && (R.Site.Op == AccessOp::Load || R.Site.Op == AccessOp::Store) &&
      !R.StructCopy) {
    auto P = Partners.find(Id);
    if (P == Partners.end())
      P = Partners.emplace(Id, adjacentPartner(R.Site.Expr, R.Site.Op, Ctx)).first;
    if (P->second) {
      Pair = true;
      Key = {std::min<const Expr *>(R.Site.Expr, P->second), R.Site.Op};
      unsigned Elem = R.Site.BytesPerLane;
      Loop = UnrolledLoopAccess{2, 2 * Elem};
    }
  }
  // The fields of one vector-like element read or written together
  // (fieldGroup): one plan for the group, runs of its field count. In
  // __shared__ memory too: `s[t].x = a; s[t].y = b;` of a float2 array is
  // one st.shared.v2.f32 in nvcc 13.0's PTX (STS.64), `s[j].x + s[j].y` one
  // ld.shared.v2.f32.
  bool Group = false;
  if (!Loop && !Pair &&
      (R.Site.Space == MemorySpace::Global || R.Site.Space == MemorySpace::Shared) &&
      !R.StructCopy &&
      (R.Site.Op == AccessOp::Load || R.Site.Op == AccessOp::Store)) {
    auto G = Groups.find(Id);
    if (G == Groups.end())
      G = Groups.emplace(Id, fieldGroup(R.Site.Expr, R.Site.Op, Ctx)).first;
    if (G->second) {
      Group = true;
      Key = {G->second->First, R.Site.Op};
      Loop = UnrolledLoopAccess{G->second->Fields, G->second->Bytes};
    }
  }
  // A global group in progress is broken by a global store between two of
  // its loads, or any global access between two of its stores (the
  // vectorizer does not move an access across one that may alias it).
  if (R.Site.Space == MemorySpace::Global) {
    for (auto &[Other, Plan] : Sites) {
      if (!Plan.Group || Other == Key || Plan.Broken || Plan.Runs.empty() ||
          !Plan.InThisWarp || Plan.Runs.back().size() >= Plan.Loop.TripCount)
        continue;
      if (Plan.Runs.back().front()->Site.Op != AccessOp::Load || R.Site.Op != AccessOp::Load)
        Plan.Broken = true;
    }
  }
  // What breaks the chains of another access's run in progress: a shared
  // store between two of its loads, to the same variable (unknown: any),
  // or any shared access between two of its stores. The code is the same
  // in every run: a chain broken once is never formed.
  if (Shared) {
    for (auto &[Other, Plan] : Sites) {
      if (Other == Key || Plan.Broken || Plan.Runs.empty() || !Plan.InThisWarp ||
          Plan.Runs.back().size() >= Plan.Loop.TripCount)
        continue;
      const RecordedRequest &M = *Plan.Runs.back().front();
      bool SameVar =
          !R.Site.SharedVar || !M.Site.SharedVar || R.Site.SharedVar == M.Site.SharedVar;
      if (M.Site.Op == AccessOp::Load ? R.Site.Op != AccessOp::Load && SameVar : true)
        Plan.Broken = true;
    }
  }
  if (!Loop) {
    // A load of a branch's arm (SelectedLoads.h): one instruction after the
    // branch, for its lanes and the other arm's.
    if (CompletesSelected) {
      Kept.push_back(R);
      Held(Kept.back());
      SelectedRuns[*OpenSelected].Second = &Kept.back();
      OpenSelected.reset();
      return;
    }
    if (const std::optional<SelectedLoad> &S = selectionOf(R);
        S && R.Addresses && R.Addresses->bytesPerLane() == R.Site.BytesPerLane) {
      Kept.push_back(R);
      Held(Kept.back());
      SelectedRuns.push_back({&Kept.back(), nullptr, S->Line});
      OpenSelected = SelectedRuns.size() - 1;
      return;
    }
    Pass(R);
    return;
  }
  OpenSelected.reset();
  // An array ptxas cannot know aligned beyond its element is never read
  // wider: as written, exactly (-rdc=true and a static float array: scalar
  // LDS, measured in unrolled-shared-loads.cu's listings and cuda-samples'
  // UnifiedMemoryPerf). A field group's element is aligned by its type.
  unsigned Known = Group ? MaxVectorBytes : knownSharedAlignment(R.Site.SharedVar, Ctx);
  if (Known <= R.Site.BytesPerLane) {
    Pass(R);
    return;
  }
  auto [It, New] = Sites.try_emplace(Key);
  SitePlan &Plan = It->second;
  if (New) {
    Plan.Pair = Pair;
    Plan.Group = Group;
    Plan.Loop = *Loop;
    Plan.Width = Loop->MaxBytes;
    // No wider than the alignment ptxas knows the array has.
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
  bool NewRun;
  if (Group) {
    // A field met again, or a run of this warp still open, opens the next
    // run; a run left short was not executed whole (never merged). Where
    // the fields lie is checked at the end, in address order.
    bool Open = Plan.InThisWarp && !Plan.Runs.empty() &&
                Plan.Runs.back().size() < Plan.Loop.TripCount;
    bool Again = Open && std::any_of(Plan.Runs.back().begin(), Plan.Runs.back().end(),
                                     [&](const RecordedRequest *M) {
                                       return M->Site.Expr == R.Site.Expr;
                                     });
    NewRun = !Open || Again;
    if (NewRun && Open)
      Plan.Broken = true;
    if (NewRun) {
      Plan.Runs.emplace_back();
      Plan.InThisWarp = true;
    }
    Plan.Runs.back().push_back(&Mine);
    return;
  }
  if (Pair) {
    // The pair's second access completes the run its first one opened; an
    // access that finds no open run of its partner opens one (a first one
    // left alone was not executed with its partner: never merged).
    bool Open = Plan.InThisWarp && !Plan.Runs.empty() && Plan.Runs.back().size() == 1;
    NewRun = !Open || Plan.Runs.back().front()->Site.Expr == R.Site.Expr;
    if (NewRun && Open)
      Plan.Broken = true;
  } else {
    NewRun = Executions[Id]++ % Loop->TripCount == 0 || !Plan.InThisWarp;
  }
  if (NewRun) {
    Plan.Runs.emplace_back();
    Plan.InThisWarp = true;
  } else {
    // The next iteration's bytes follow the previous one's, lane by lane
    // (a pair's may precede them: `s[i] + s[i + 1]` reads either first).
    const model::WarpAddressSet &Prev = *Plan.Runs.back().back()->Addresses;
    unsigned W = Prev.bytesPerLane();
    bool After = Prev.activeMask() == Mine.Addresses->activeMask(), Before = After && Pair;
    for (unsigned L = 0; L < model::WarpSize && (After || Before); ++L)
      if (Prev.isActive(L)) {
        After &= Mine.Addresses->address(L) == Prev.address(L) + W;
        Before &= Mine.Addresses->address(L) + W == Prev.address(L);
      }
    if (!After && !Before)
      Plan.Broken = true;
  }
  Plan.Runs.back().push_back(&Mine);
}

void UnrolledMergePredictor::finishWarp() {
  OpenSelected.reset();
  Executions.clear();
  for (auto &[Id, Plan] : Sites)
    Plan.InThisWarp = false;
}

void UnrolledMergePredictor::finish(llvm::function_ref<void(const EmittedRequest &)> Emit) {
  auto FirstAddress = [](const RecordedRequest *R) {
    for (unsigned L = 0; L < model::WarpSize; ++L)
      if (R->Addresses->isActive(L))
        return R->Addresses->address(L);
    return std::uint64_t(0);
  };
  for (auto &[Id, Plan] : Sites) {
    // Each run in address order; its lowest addresses bound the width the
    // compiler can prove aligned for every run.
    for (std::vector<const RecordedRequest *> &Run : Plan.Runs) {
      std::vector<const RecordedRequest *> Executed = Run;
      std::stable_sort(Run.begin(), Run.end(),
                       [&](const RecordedRequest *A, const RecordedRequest *B) {
                         return FirstAddress(A) < FirstAddress(B);
                       });
      const model::WarpAddressSet &Low = *Run.front()->Addresses;
      for (unsigned L = 0; L < model::WarpSize; ++L)
        if (Low.isActive(L))
          while (Plan.Width > 1 && Low.address(L) % Plan.Width != 0)
            Plan.Width /= 2;
      if (Plan.Group) {
        // The whole element, its fields one after another, lane by lane.
        bool Whole = Run.size() == Plan.Loop.TripCount;
        for (size_t I = 1; I < Run.size() && Whole; ++I) {
          const model::WarpAddressSet &Prev = *Run[I - 1]->Addresses;
          const model::WarpAddressSet &Next = *Run[I]->Addresses;
          Whole = Prev.activeMask() == Next.activeMask();
          for (unsigned L = 0; L < model::WarpSize && Whole; ++L)
            if (Prev.isActive(L))
              Whole = Next.address(L) == Prev.address(L) + Prev.bytesPerLane();
        }
        if (!Whole)
          Plan.Broken = true;
      }
      if ((Plan.Pair && Run.size() == 2) ||
          (Plan.Group && Run.size() == Plan.Loop.TripCount))
        Plan.CountedWith.push_back(Id.second == AccessOp::Store ? Run.back()
                                                                : Executed.front());
      else
        Plan.CountedWith.push_back(nullptr);
    }
    std::set<SiteId> Members;
    for (const auto &Run : Plan.Runs)
      for (const RecordedRequest *R : Run)
        Members.insert({R->Site.Expr, R->Site.Op});
    if (!Plan.Broken && !Plan.Runs.empty() &&
        Plan.Width <= Plan.Runs.front().front()->Addresses->bytesPerLane())
      Unaligned.insert(Members.begin(), Members.end());
    for (size_t RunIndex = 0; RunIndex < Plan.Runs.size(); ++RunIndex) {
      const std::vector<const RecordedRequest *> &Run = Plan.Runs[RunIndex];
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
          // A pair's or a group's instruction is counted with, and on the
          // line of, the store at the highest address or the load executed
          // first. Measured on the H200 (merged-field-statements.cu: the
          // STG.E.128 of a float4's fields stored w, z, y, x is on the
          // line of .w, the first one executed; the STG.E.64 of .x then .y
          // on the line of .y) and seen in the PTX of nvcc 13.0 for the
          // other orders (y, w, x, z and z, x, w, y: the line of .w; loads
          // z, x, w, y: the line of .z). merged-accesses.cu's STS.64 of
          // s[i0] = ...; s[i1] = ...; is on the second line, its LDS.64 of
          // a = s[i0]; b = s[i1]; on the first; fastWalshTransform's
          // LDS.64 is on the second, which this does not predict.
          if (const RecordedRequest *With = Plan.CountedWith[RunIndex])
            E.Leader = With;
          E.Slot = slotFor(*E.Leader, Bytes);
          E.Opcode = E.Slot->OpcodeOfWidth.at(Bytes);
          E.Merged = true;
          for (const RecordedRequest *M : E.Members)
            Merged[{M->Site.Expr, M->Site.Op}] = Plan.Group  ? MergeKind::ElementFields
                                                 : Plan.Pair ? MergeKind::AdjacentElements
                                                             : MergeKind::UnrolledLoop;
          // What did not fit starts the next request.
          First -= PerRequest - E.Members.size();
        }
        Emit(E);
      }
    }
  }
  // Each branch's one load, for the lanes of both arms (of one when the
  // warp's lanes took one arm only), counted with the arm run first.
  for (const SelectedRun &Run : SelectedRuns) {
    EmittedRequest E = selectedRequest(*Run.First, Run.Second);
    unsigned Bytes = E.Addresses.bytesPerLane();
    E.Slot = slotFor(*Run.First, Bytes, Run.Line);
    E.Opcode = E.Slot->OpcodeOfWidth.at(Bytes);
    for (const RecordedRequest *M : E.Members)
      Merged[{M->Site.Expr, M->Site.Op}] = MergeKind::SelectedArms;
    Emit(E);
  }
  SelectedRuns.clear();
  OpenSelected.reset();
  Sites.clear();
  Kept.clear();
}

} // namespace warpcheck::analysis
