//===- EmittedInstructionsSites.cpp - what one access is where ===============//
//
// InstructionReconciler's questions about one access (EmittedInstructionsImpl.h):
// the line and file the listing knows it by, the loops and branches around it,
// whether it repeats its addresses, whether it runs once per warp.
//
//===----------------------------------------------------------------------===//

#include "EmittedInstructionsImpl.h"
#include "SourceMemory.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace clang;

namespace warpcheck::analysis {

using emitted::sassOpOf;
using emitted::SiteId;
using emitted::spaceFits;

namespace {

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

} // namespace

InstructionReconciler::Impl::Impl(const std::vector<SassMemoryInstruction> &Instrs,
                                  const FunctionDecl *Kernel)
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

InstructionReconciler::Impl::SiteInfo
InstructionReconciler::Impl::siteInfo(const RecordedRequest &R) {
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

std::string InstructionReconciler::Impl::fileOf(SourceLocation L) const {
  const SourceManager &SM = Ctx.getSourceManager();
  OptionalFileEntryRef F = SM.getFileEntryRefForID(SM.getFileID(L));
  if (!F)
    return "";
  llvm::StringRef Real = F->getFileEntry().tryGetRealPathName();
  return Real.empty() ? normalizedPath(F->getName()) : normalizedPath(Real);
}

const InstructionSlot *InstructionReconciler::Impl::makeSlot(const std::vector<size_t> &Indices,
                                                             const std::string &File,
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

bool InstructionReconciler::Impl::sharesOrphansAlike(
    const SlotKey &U, const OrphanKey &O, const std::map<SlotKey, std::vector<SiteId>> &Unmatched,
    const std::map<SlotKey, std::vector<OrphanKey>> &Candidates,
    const std::map<OrphanKey, std::vector<size_t>> &Orphans) const {
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

std::vector<std::pair<DynTypedNode, DynTypedNode>>
InstructionReconciler::Impl::ancestors(const Expr *Site) {
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

std::vector<std::pair<const Stmt *, const Stmt *>>
InstructionReconciler::Impl::enclosingLoops(const Expr *Site) {
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

std::vector<SourceRange> InstructionReconciler::Impl::loopsLeft(const Expr *Site, unsigned Line) {
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

const Stmt *InstructionReconciler::Impl::branchBetween(const Expr *A, const Expr *B) {
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

InstructionReconciler::Impl::AddressRepeats
InstructionReconciler::Impl::addressRepeats(const SiteId &Site) {
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

bool InstructionReconciler::Impl::lineInLoop(const std::string &File, unsigned Line) const {
  for (size_t I = 0; I < Instructions.size(); ++I)
    if (Instructions[I].LoopHead >= 0)
      for (const auto &[F, L] : Positions[I])
        if (F == File && L == Line)
          return true;
  return false;
}

std::optional<InstructionReconciler::Impl::OrphanKey> InstructionReconciler::Impl::loadOnLoopLine(
    const SiteId &Id, const Stmt *Loop, const std::map<OrphanKey, std::vector<size_t>> &Orphans) {
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

bool InstructionReconciler::Impl::adjacentRequests(const std::vector<SiteId> &A,
                                                   const std::vector<SiteId> &B) {
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

std::set<std::tuple<std::string, unsigned, SassOp>>
InstructionReconciler::Impl::unexecutedAccessLines() {
  std::set<std::tuple<std::string, unsigned, SassOp>> Out;
  std::set<const Expr *> Executed;
  for (const auto &[Id, S] : Sites)
    Executed.insert(Id.first);
  const SourceManager &SM = Ctx.getSourceManager();
  std::function<void(const Stmt *, const Stmt *)> Visit = [&](const Stmt *S, const Stmt *Parent) {
    if (!S || isa<LambdaExpr>(S))
      return;
    const auto *E = dyn_cast<Expr>(S);
    // The whole lvalue only: not the element whose field is the access,
    // nor a row of a two-dimensional array; nor one whose address is
    // taken (an atomic's operand), which reads nothing there.
    const auto *AddressOf = dyn_cast_or_null<UnaryOperator>(Parent);
    bool Part = Parent && E &&
                ((isa<MemberExpr>(Parent) && !cast<MemberExpr>(Parent)->isArrow()) ||
                 E->getType()->isArrayType() || (AddressOf && AddressOf->getOpcode() == UO_AddrOf));
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

bool InstructionReconciler::Impl::inKernelBody(const Expr *Site) {
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

} // namespace warpcheck::analysis
