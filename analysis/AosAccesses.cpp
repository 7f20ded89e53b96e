//===- AosAccesses.cpp - the arrays of structs a launch reads and writes -===//

#include "warpcheck/analysis/AosAccesses.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <map>

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// An array inside a struct longer than this is one scalar of SoA (an
/// array per element would be no layout anyone writes).
constexpr std::uint64_t MaxArrayElementsSplit = 16;

/// Where an access lies in the element it reaches through a pointer.
struct ElementPath {
  /// The element: an expression of the struct's type (p[i], *q, a reference).
  const Expr *Element = nullptr;
  QualType Record;
  std::string Pointer;
  std::string FieldName;
  std::uint64_t Offset = 0;
};

std::string pointerName(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    // A reference bound to an element (Particle &q = p[i]) names the
    // pointer it was bound through.
    if (const auto *Var = dyn_cast<VarDecl>(DRE->getDecl()))
      if (Var->getType()->isReferenceType() && Var->getInit())
        if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Var->getInit()->IgnoreParenImpCasts()))
          return pointerName(ASE->getBase());
    return DRE->getDecl()->getNameAsString();
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return pointerName(ASE->getBase());
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return pointerName(BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS());
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return pointerName(UO->getSubExpr());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->getMemberDecl()->getNameAsString();
  return "";
}

/// Walks from the access down its member and constant-index steps to the
/// struct element; nothing when a step is not one the layout can follow.
std::optional<ElementPath> elementPath(const Expr *Access, const ASTContext &Ctx) {
  ElementPath P;
  const Expr *E = Access->IgnoreParenImpCasts();
  std::vector<std::string> Names;
  constexpr unsigned MaxReferenceHops = 8;
  unsigned ReferenceHops = 0;
  while (true) {
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!Field || Field->isBitField())
        return std::nullopt;
      P.Offset += Ctx.getFieldOffset(Field) / Ctx.getCharWidth();
      Names.push_back(Field->getNameAsString());
      if (ME->isArrow()) {
        P.Element = ME->getBase();
        P.Record = ME->getBase()->getType()->getPointeeType();
        P.Pointer = pointerName(ME->getBase());
        break;
      }
      E = ME->getBase()->IgnoreParenImpCasts();
      continue;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
      if (isa<MemberExpr>(Base) && Base->getType()->isConstantArrayType()) {
        // An array inside the struct, at a constant index.
        Expr::EvalResult Index;
        if (!ASE->getIdx()->EvaluateAsInt(Index, Ctx))
          return std::nullopt;
        std::int64_t I = Index.Val.getInt().getExtValue();
        P.Offset += static_cast<std::uint64_t>(I) *
                    Ctx.getTypeSizeInChars(ASE->getType()).getQuantity();
        Names.push_back("[" + std::to_string(I) + "]");
        E = Base;
        continue;
      }
    }
    if (!E->getType()->isRecordType())
      return std::nullopt;
    // A reference bound to a struct inside the element (`const Vec3 &p =
    // b[i].pos`, then `p.x`) reads the element's field: follow the binding
    // down to the element. (A reference bound to the element itself names
    // its pointer below; a copy is read where it is made.)
    // At most a few such hops: a reference initialised from itself
    // (`const S &r = r.self;` compiles) must not loop.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E); DRE && ReferenceHops < MaxReferenceHops)
      if (const auto *Var = dyn_cast<VarDecl>(DRE->getDecl());
          Var && Var->getType()->isReferenceType() && Var->getInit())
        if (const auto *Bound = dyn_cast<MemberExpr>(Var->getInit()->IgnoreParenImpCasts())) {
          ++ReferenceHops;
          E = Bound;
          continue;
        }
    P.Element = E;
    P.Record = E->getType();
    P.Pointer = pointerName(E);
    break;
  }
  P.Record = P.Record.getCanonicalType().getUnqualifiedType();
  if (P.Record.isNull() || !P.Record->isStructureOrClassType() || P.Pointer.empty())
    return std::nullopt;
  for (auto It = Names.rbegin(); It != Names.rend(); ++It)
    P.FieldName += (P.FieldName.empty() || (*It)[0] == '[' ? "" : ".") + *It;
  return P;
}

/// The scalars of a struct (nested structs and short arrays flattened).
void collectScalars(QualType T, std::uint64_t Offset, const ASTContext &Ctx,
                    std::vector<model::StructScalar> &Out) {
  T = T.getCanonicalType();
  std::uint64_t Size = Ctx.getTypeSizeInChars(T).getQuantity();
  if (const auto *RT = T->getAs<RecordType>(); RT && !RT->getDecl()->isUnion()) {
    const RecordDecl *RD = RT->getDecl()->getDefinition();
    if (!RD)
      return;
    const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(RD);
    if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD))
      for (const CXXBaseSpecifier &B : CXX->bases())
        if (const auto *BaseRD = B.getType()->getAsCXXRecordDecl())
          collectScalars(B.getType(), Offset + Layout.getBaseClassOffset(BaseRD).getQuantity(), Ctx,
                         Out);
    for (const FieldDecl *F : RD->fields())
      collectScalars(F->getType(),
                     Offset + Layout.getFieldOffset(F->getFieldIndex()) / Ctx.getCharWidth(), Ctx,
                     Out);
    return;
  }
  if (const auto *AT = Ctx.getAsConstantArrayType(T); AT && AT->getSize().getZExtValue() <= MaxArrayElementsSplit) {
    std::uint64_t Elem = Ctx.getTypeSizeInChars(AT->getElementType()).getQuantity();
    for (std::uint64_t I = 0; I < AT->getSize().getZExtValue(); ++I)
      collectScalars(AT->getElementType(), Offset + I * Elem, Ctx, Out);
    return;
  }
  if (Size)
    Out.push_back({Offset, static_cast<unsigned>(Size)});
}

/// The instructions a recorded access stands for: one for a scalar, the
/// pieces the interpreter split a struct copy into (interp/AccessRecorder).
std::vector<model::StructInstruction> instructionsOf(const AccessResult &A, std::uint64_t Offset,
                                                     std::uint64_t Bytes) {
  std::vector<model::StructInstruction> Out;
  unsigned Width = std::max(1u, A.Site.BytesPerLane);
  for (std::uint64_t Off = 0; Off + Width <= std::max<std::uint64_t>(Bytes, Width); Off += Width)
    Out.push_back({Offset + Off, Width, A.Site.Op == AccessOp::Store});
  return Out;
}

std::string recordName(QualType T, const ASTContext &Ctx) {
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressScope = true;
  Policy.SuppressTagKeyword = true;
  return T.getAsString(Policy);
}

struct Pending {
  AosGroup Group;
  std::vector<model::StructInstruction> Instructions;
  std::optional<model::WarpAddressSet> Elements;
  bool Merged = false;
};

} // namespace

std::vector<AosGroup> findAosGroups(const KernelLaunchAnalysis &Launch, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<unsigned> Order(Launch.Accesses.size());
  for (unsigned I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(), [&](unsigned L, unsigned R) {
    return SM.isBeforeInTranslationUnit(Launch.Accesses[L].Site.Expr->getBeginLoc(),
                                        Launch.Accesses[R].Site.Expr->getBeginLoc());
  });
  std::map<std::pair<const RecordDecl *, std::string>, Pending> Groups;
  std::vector<std::pair<const RecordDecl *, std::string>> Keys;
  for (unsigned Index : Order) {
    const AccessResult &A = Launch.Accesses[Index];
    if (A.Site.Space != MemorySpace::Global || A.Site.Op == AccessOp::Atomic ||
        A.Status == AccessStatus::Unknown || !A.WorstRequest || !A.LaneStrideBytes ||
        A.Cost.Requests == 0)
      continue;
    std::optional<ElementPath> Path = elementPath(A.Site.Expr, Ctx);
    if (!Path)
      continue;
    const RecordDecl *RD = Path->Record->getAsRecordDecl()->getDefinition();
    // A struct of the toolkit's (float4, int2) is not the user's to lay out.
    if (!RD || SM.isInSystemHeader(RD->getLocation()))
      continue;
    std::uint64_t Size = Ctx.getTypeSizeInChars(Path->Record).getQuantity();
    if (Size == 0 || *A.LaneStrideBytes != static_cast<std::int64_t>(Size))
      continue;
    auto Key = std::make_pair(static_cast<const RecordDecl *>(RD->getCanonicalDecl()), Path->Pointer);
    auto [It, New] = Groups.try_emplace(Key);
    Pending &P = It->second;
    if (New) {
      Keys.push_back(Key);
      P.Group.Record = RD;
      P.Group.StructName = recordName(Path->Record, Ctx);
      P.Group.StructBytes = Size;
      P.Group.PointerName = Path->Pointer;
    }
    P.Group.Accesses.push_back(Index);
    P.Merged |= A.MayMergeWith != nullptr;
    P.Group.Exact &= A.Status == AccessStatus::Exact;
    for (const Assumption &X : A.Assumptions)
      if (std::none_of(P.Group.Assumptions.begin(), P.Group.Assumptions.end(),
                       [&](const Assumption &Y) { return Y.Text == X.Text; }))
        P.Group.Assumptions.push_back(X);
    std::uint64_t Bytes = Ctx.getTypeSizeInChars(A.Site.Expr->getType()).getQuantity();
    bool Whole = Path->FieldName.empty();
    P.Group.WholeCopy |= Whole;
    std::vector<model::StructInstruction> Instr = instructionsOf(A, Path->Offset, Bytes);
    if (!P.Elements) {
      // The elements' addresses: the first recorded piece's lanes, less its
      // offset in the struct.
      model::WarpAddressSet Elements(1);
      for (unsigned L = 0; L < model::WarpSize; ++L)
        if (A.WorstRequest->isActive(L))
          Elements.setLane(L, allocationOffset(A.WorstRequest->address(L)) - Path->Offset);
      P.Elements = Elements;
    }
    P.Instructions.insert(P.Instructions.end(), Instr.begin(), Instr.end());
    // The names of the fields: as the kernel wrote them, or the struct's own
    // for a whole copy.
    std::vector<std::pair<std::string, std::pair<std::uint64_t, std::uint64_t>>> Named;
    if (Whole) {
      for (const FieldDecl *F : RD->fields())
        Named.push_back({F->getNameAsString(),
                         {Ctx.getFieldOffset(F) / Ctx.getCharWidth(),
                          Ctx.getTypeSizeInChars(F->getType()).getQuantity()}});
    } else {
      Named.push_back({Path->FieldName, {Path->Offset, Bytes}});
    }
    for (const auto &[Name, Range] : Named) {
      auto F = std::find_if(P.Group.Fields.begin(), P.Group.Fields.end(),
                            [&](const AosField &X) { return X.Name == Name; });
      if (F == P.Group.Fields.end()) {
        P.Group.Fields.push_back({Name, Range.first, Range.second});
        F = P.Group.Fields.end() - 1;
      }
      (A.Site.Op == AccessOp::Store ? F->Stored : F->Loaded) = true;
    }
  }
  std::vector<AosGroup> Out;
  for (const auto &Key : Keys) {
    Pending &P = Groups[Key];
    if (P.Merged)
      continue;
    model::StructAccessPattern Pattern;
    Pattern.StructBytes = P.Group.StructBytes;
    Pattern.Elements = *P.Elements;
    collectScalars(QualType(P.Group.Record->getTypeForDecl(), 0), 0, Ctx, Pattern.Scalars);
    Pattern.Instructions = P.Instructions;
    P.Group.Traffic = model::computeAosTraffic(Pattern);
    std::uint64_t Unused = 0;
    std::vector<bool> Used(P.Group.StructBytes, false);
    for (const model::StructInstruction &I : P.Instructions)
      for (std::uint64_t B = I.Offset; B < I.Offset + I.Bytes && B < Used.size(); ++B)
        Used[B] = true;
    for (const model::StructScalar &S : Pattern.Scalars)
      Unused += Used[S.Offset] ? 0 : 1;
    P.Group.SomeFieldsUnused = Unused > 0;
    std::sort(P.Group.Fields.begin(), P.Group.Fields.end(),
              [](const AosField &L, const AosField &R) { return L.Offset < R.Offset; });
    for (AosField &F : P.Group.Fields) {
      model::StructAccessPattern Own = Pattern;
      Own.Instructions.clear();
      for (const model::StructInstruction &I : P.Instructions)
        if (I.Offset < F.Offset + F.Bytes && F.Offset < I.Offset + I.Bytes)
          Own.Instructions.push_back(I);
      F.Traffic = model::computeAosTraffic(Own);
    }
    Out.push_back(std::move(P.Group));
  }
  return Out;
}

} // namespace warpcheck::analysis
