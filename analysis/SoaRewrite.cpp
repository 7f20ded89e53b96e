//===- SoaRewrite.cpp - an array of structs rewritten as structure of arrays ===//

#include "warpcheck/analysis/SoaRewrite.h"
#include "warpcheck/analysis/KernelAnalysis.h"

#include "SoaView.h"

#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <optional>
#include <set>

using namespace clang;
using namespace clang::ast_matchers;

namespace warpcheck::analysis {

namespace {
class ReferenceCollector : public RecursiveASTVisitor<ReferenceCollector> {
public:
  explicit ReferenceCollector(
      std::map<const FunctionDecl *, std::vector<const DeclRefExpr *>> &Refs)
      : Refs(Refs) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl()))
      Refs[F->getCanonicalDecl()].push_back(Ref);
    return true;
  }

private:
  std::map<const FunctionDecl *, std::vector<const DeclRefExpr *>> &Refs;
};
} // namespace

FunctionReferences::FunctionReferences(ASTContext &Ctx) {
  ReferenceCollector(Refs).TraverseDecl(Ctx.getTranslationUnitDecl());
}

const std::vector<const DeclRefExpr *> &FunctionReferences::of(const FunctionDecl *F) const {
  auto It = Refs.find(F->getCanonicalDecl());
  return It == Refs.end() ? None : It->second;
}

namespace {

/// The struct a parameter points to (cv-qualifiers dropped), or null.
const RecordDecl *pointeeRecord(QualType T) {
  T = T.getCanonicalType();
  if (!T->isPointerType())
    return nullptr;
  const auto *RT = T->getPointeeType()->getAs<RecordType>();
  return RT ? RT->getDecl()->getDefinition() : nullptr;
}

bool sameRecord(const RecordDecl *A, const RecordDecl *B) {
  return A && B && A->getCanonicalDecl() == B->getCanonicalDecl();
}

/// The node above E, past parentheses and implicit casts; E becomes the
/// outermost of those around it.
DynTypedNode parentPastWrappers(const Expr *&E, ASTContext &Ctx) {
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*E);
    if (Parents.size() != 1)
      return DynTypedNode();
    const auto *P = Parents[0].get<Expr>();
    if (P && (isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P))) {
      E = P;
      continue;
    }
    return Parents[0];
  }
}

class Planner {
public:
  Planner(const FunctionDecl *Kernel, const ParmVarDecl *Param, const FunctionReferences &Refs,
          ASTContext &Ctx, SoaRewritePlan &Plan)
      : Kernel(Kernel), Refs(Refs), Ctx(Ctx), SM(Ctx.getSourceManager()), Plan(Plan) {
    Plan.Parameter = Param;
    Plan.Record = pointeeRecord(Param->getType());
  }

  void run() {
    const RecordDecl *RD = Plan.Record;
    if (!RD)
      return block(Plan.Parameter->getLocation(), "'" + Plan.Parameter->getNameAsString() +
                                                      "' is not a pointer to a struct");
    if (!checkRecord() || !checkKernel())
      return;
    Queue.push_back(Plan.Parameter);
    Rewritten.insert(Plan.Parameter);
    for (std::size_t I = 0; I < Queue.size() && Plan.offered(); ++I)
      followUses(Queue[I]);
    if (!Plan.offered() || !checkCallers() || !placeView())
      return;
    for (const ParmVarDecl *P : Queue)
      if (!rewriteParameter(P))
        return;
  }

private:
  void block(SourceLocation Loc, std::string Why) {
    if (Plan.Blocker.empty()) {
      Plan.Blocker = std::move(Why);
      Plan.BlockerLocation = Loc;
    }
  }

  /// E is written in a way the edits cannot take apart.
  void unfollowed(const Expr *E) {
    block(E->getBeginLoc(),
          "'" + soaShortText(E, Ctx) + "' is written in a form the rewrite does not follow");
  }

  const FunctionDecl *functionOf(const ParmVarDecl *P) {
    return cast<FunctionDecl>(P->getDeclContext());
  }

  bool editable(SourceLocation Loc) { return soaEditable(Loc, SM); }

  bool checkRecord() {
    if (std::optional<SoaBlocker> Problem = soaRecordProblem(Plan.Record, Plan.Fields)) {
      block(Problem->Where, Problem->Why);
      return false;
    }
    Plan.ViewName = soaRecordName(Plan.Record) + "SoA";
    return true;
  }

  /// The kernel changes with its parameter: no other declaration of it, no
  /// use of it but launches (whose arguments the host must change) and the
  /// runtime's queries of its attributes, which pass no arguments.
  bool checkKernel() {
    std::string Name = Kernel->getNameAsString();
    if (Kernel->isTemplateInstantiation() || Kernel->getDescribedFunctionTemplate()) {
      block(Kernel->getLocation(), "'" + Name + "' is a template: the rewrite would change every "
                                                "instance");
      return false;
    }
    for (const FunctionDecl *D : Kernel->redecls())
      if (D != Kernel) {
        block(D->getLocation(), "'" + Name + "' is declared again at " +
                                    soaPlace(D->getLocation(), SM) +
                                    " (each declaration would have to change)");
        return false;
      }
    unsigned Index = Plan.Parameter->getFunctionScopeIndex();
    for (const DeclRefExpr *Ref : Refs.of(Kernel)) {
      const Expr *Outer = Ref;
      DynTypedNode Up = parentPastWrappers(Outer, Ctx);
      if (const auto *Launch = Up.get<CUDAKernelCallExpr>();
          Launch && Launch->getCallee()->IgnoreParenImpCasts() == Ref) {
        if (Index < Launch->getNumArgs())
          Plan.Launches.push_back({Launch, Launch->getArg(Index)});
        continue;
      }
      if (isAttributeQuery(Outer))
        continue;
      block(Ref->getLocation(), "'" + Name + "' is used at " + soaPlace(Ref->getLocation(), SM) +
                                    " other than by a <<<...>>> launch (the arguments given "
                                    "there cannot be followed)");
      return false;
    }
    std::sort(Plan.Launches.begin(), Plan.Launches.end(),
              [&](const SoaLaunch &A, const SoaLaunch &B) {
                return SM.isBeforeInTranslationUnit(A.Call->getBeginLoc(), B.Call->getBeginLoc());
              });
    return true;
  }

  /// `cudaFuncGetAttributes(&attr, k)`, `cudaOccupancy...(..., k, ...)`: a
  /// use of the kernel that passes it no arguments.
  bool isAttributeQuery(const Expr *E) {
    while (true) {
      DynTypedNode Up = parentPastWrappers(E, Ctx);
      if (const auto *Call = Up.get<CallExpr>()) {
        const FunctionDecl *F = Call->getDirectCallee();
        llvm::StringRef Name = F && F->getIdentifier() ? F->getName() : "";
        return Name.starts_with("cudaFunc") || Name.starts_with("cudaOccupancy");
      }
      const auto *Next = Up.get<Expr>();
      if (!Next || !(isa<UnaryOperator>(Next) || isa<ExplicitCastExpr>(Next)))
        return false;
      E = Next;
    }
  }

  void followUses(const ParmVarDecl *P) {
    const FunctionDecl *F = functionOf(P);
    if (!F->hasBody())
      return;
    for (const BoundNodes &N :
         match(findAll(declRefExpr(to(parmVarDecl(equalsNode(P)))).bind("use")), *F->getBody(),
               Ctx)) {
      followUse(P, N.getNodeAs<DeclRefExpr>("use"));
      if (!Plan.offered())
        return;
    }
  }

  void followUse(const ParmVarDecl *P, const DeclRefExpr *Use) {
    std::string Name = P->getNameAsString();
    if (!editable(Use->getLocation()))
      return block(Use->getLocation(), "a use of '" + Name + "' is inside a macro expansion");
    const Expr *Outer = Use;
    DynTypedNode Up = parentPastWrappers(Outer, Ctx);
    if (const auto *Element = Up.get<ArraySubscriptExpr>();
        Element && Element->getBase()->IgnoreParenImpCasts() == Use)
      return element(Element);
    if (const auto *Member = Up.get<MemberExpr>();
        Member && Member->isArrow() && Member->getBase()->IgnoreParenImpCasts() == Use)
      return field(Member, nullptr);
    if (const auto *Call = Up.get<CallExpr>())
      return passed(Call, Outer, Name);
    if (const auto *VD = Up.get<VarDecl>())
      return block(Use->getLocation(),
                   "'" + Name + "' is copied into '" + VD->getNameAsString() + "'");
    if (const auto *UO = Up.get<UnaryOperator>()) {
      if (UO->getOpcode() == UO_AddrOf)
        return block(UO->getBeginLoc(), "'" + soaShortText(UO, Ctx) + "' takes the address of '" +
                                            Name + "'");
      if (UO->isIncrementDecrementOp())
        return block(UO->getBeginLoc(), "'" + soaShortText(UO, Ctx) +
                                            "' is pointer arithmetic the rewrite does not "
                                            "follow");
      if (UO->getOpcode() == UO_Deref)
        return block(UO->getBeginLoc(), "'" + soaShortText(UO, Ctx) + "' is used as a whole value");
    }
    if (const auto *BO = Up.get<BinaryOperator>()) {
      if (BO->isAdditiveOp() || BO->isCompoundAssignmentOp())
        return block(BO->getBeginLoc(), "'" + soaShortText(BO, Ctx) +
                                            "' is pointer arithmetic the rewrite does not "
                                            "follow");
      if (BO->isAssignmentOp())
        return block(BO->getBeginLoc(), BO->getLHS()->IgnoreParenImpCasts() == Use
                                            ? "'" + Name + "' is assigned another pointer"
                                            : "'" + soaShortText(BO, Ctx) + "' copies '" + Name +
                                                  "'");
    }
    if (const auto *E = Up.get<Expr>())
      return block(E->getBeginLoc(), "'" + soaShortText(E, Ctx) + "' uses '" + Name +
                                         "' as a pointer");
    block(Use->getLocation(), "'" + Name + "' is used as a pointer");
  }

  /// `p[i]`: only its fields may be used.
  void element(const ArraySubscriptExpr *Element) {
    if (Element->getBase() != Element->getLHS())
      return block(Element->getBeginLoc(), "'" + soaShortText(Element, Ctx) +
                                               "' is written index first");
    DynTypedNodeList Parents = Ctx.getParents(*Element);
    const auto *Member = Parents.size() == 1 ? Parents[0].get<MemberExpr>() : nullptr;
    if (Member && !Member->isArrow())
      return field(Member, Element);
    const Expr *Outer = Element;
    DynTypedNode Up = parentPastWrappers(Outer, Ctx);
    std::string Text = "'" + soaShortText(Element, Ctx) + "'";
    if (const auto *UO = Up.get<UnaryOperator>(); UO && UO->getOpcode() == UO_AddrOf) {
      // `Body *q = &p[i];` then `q->f`: followed as a reference is.
      const Expr *Address = UO;
      DynTypedNode Holder = parentPastWrappers(Address, Ctx);
      if (const auto *VD = Holder.get<VarDecl>(); VD && VD->getType()->isPointerType())
        return reference(Element, UO, VD, "");
      return block(UO->getBeginLoc(), "'" + soaShortText(UO, Ctx) +
                                          "' takes the address of an element");
    }
    if (const auto *BO = Up.get<BinaryOperator>();
        BO && BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == Element)
      return block(Element->getBeginLoc(), Text + " is assigned as a whole value");
    if (Up.get<MemberExpr>())
      return block(Element->getBeginLoc(), "'" + soaShortText(Up.get<MemberExpr>(), Ctx) +
                                               "' is written in a form the rewrite does not "
                                               "follow");
    if (const auto *VD = Up.get<VarDecl>(); VD && VD->getType()->isReferenceType())
      return reference(Element, Element, VD, "");
    block(Element->getBeginLoc(), Text + " is used as a whole value");
  }

  /// `Body &me = p[i];` (const or not; Bound is `p[i]`), or `Vec3 &q =
  /// p[i].pos` (Bound that member, Prefix "pos_"): the view has no element
  /// to refer to, so each `me.f` becomes `p.f[i]` (`q.x`, `p.pos_x[i]`)
  /// and the declaration goes. The index is then written at every use,
  /// where it must mean what it meant at the declaration (soaIndexChanges,
  /// soaRedeclaredName in SoaView.h). A pointer to the element, `Body *q = &p[i];` (Bound `&p[i]`), is
  /// followed the same way (`q->f`), when nothing changes the pointer.
  void reference(const ArraySubscriptExpr *Element, const Expr *BoundExpr, const VarDecl *Ref,
                 const std::string &Prefix) {
    bool Pointer = Ref->getType()->isPointerType();
    std::string Name = Ref->getNameAsString();
    std::string Bound = "'" + soaShortText(BoundExpr, Ctx) + "' is " +
                        (Pointer ? "kept in the pointer '" : "bound to the reference '") + Name +
                        "'";
    DynTypedNodeList Parents = Ctx.getParents(*Ref);
    const auto *Declaration = Parents.size() == 1 ? Parents[0].get<DeclStmt>() : nullptr;
    DynTypedNodeList Above =
        Declaration ? Ctx.getParents(*Declaration) : DynTypedNodeList(DynTypedNode());
    const auto *Scope = Above.size() == 1 ? Above[0].get<CompoundStmt>() : nullptr;
    if (!Ref->isLocalVarDecl() || !Declaration || !Declaration->isSingleDecl() || !Scope)
      return block(Element->getBeginLoc(),
                   Bound + ", declared where the rewrite cannot remove it (with other "
                           "variables, or not as a statement of a block)");
    const Expr *Index = Element->getIdx();
    if (Index->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false) || usesRewritten(Index))
      return block(Index->getBeginLoc(),
                   Bound + ", whose index the rewrite would have to repeat at each use");
    if (std::optional<std::string> Why = soaIndexChanges(Index, *Scope, Ctx))
      return block(Index->getBeginLoc(), Bound + ", whose index " + *Why);
    // The element's text is copied to each use: a name of it declared
    // again in the block would mean another variable there.
    if (std::optional<std::string> Hidden = soaRedeclaredName(Element, *Scope, Ctx))
      return block(Element->getBeginLoc(), Bound + ", and '" + *Hidden +
                                               "' is declared again where it is used");
    if (Pointer && ExprMutationAnalyzer(*Scope, Ctx).isMutated(Ref))
      return block(Element->getBeginLoc(),
                   Bound + ", which changes (or whose address is taken) while it is used");
    SourceLocation Begin = Declaration->getBeginLoc(), End = Declaration->getEndLoc();
    if (!editable(Begin) || !editable(End) || !editable(Element->getBeginLoc()))
      return block(Element->getBeginLoc(), Bound + " inside a macro expansion");
    for (const BoundNodes &N :
         match(findAll(declRefExpr(to(varDecl(equalsNode(Ref)))).bind("use")), *Scope, Ctx)) {
      const auto *Use = N.getNodeAs<DeclRefExpr>("use");
      const Expr *Outer = Use;
      DynTypedNode Up = parentPastWrappers(Outer, Ctx);
      const auto *Member = Up.get<MemberExpr>();
      if (!editable(Use->getLocation()))
        return block(Use->getLocation(), "a use of '" + Name + "' is inside a macro expansion");
      // The use as the member's base: `me.f`, or `q->f` (the pointer read).
      const Expr *Base = Member ? Member->getBase() : nullptr;
      if (Pointer && Base)
        if (const auto *Read = dyn_cast<ImplicitCastExpr>(Base);
            Read && Read->getCastKind() == CK_LValueToRValue)
          Base = Read->getSubExpr();
      if (Member && Member->isArrow() == Pointer && Base != Use &&
          Base->IgnoreParenImpCasts() == Use)
        return unfollowed(Member);
      if (!Member || Member->isArrow() != Pointer || Base != Use)
        return block(Use->getLocation(),
                     "'" + Name + "', " + (Pointer ? "set to '" : "bound to '") +
                         soaShortText(BoundExpr, Ctx) + "', is used " +
                         (Pointer ? "other than by '->'" : "as a whole value"));
      field(Member, Element, Use, Prefix);
      if (!Plan.offered())
        return;
    }
    Plan.Edits.push_back({soaStatementRemoval(Begin, End, SM, Ctx.getLangOpts()), ""});
  }

  /// `p[i].f` (Element is `p[i]`), `p->f` (Element null), or `me.f` with
  /// `me` a reference bound to Element (Via: that use of it).
  void field(const MemberExpr *Member, const ArraySubscriptExpr *Element,
             const DeclRefExpr *Via = nullptr, const std::string &Prefix = "") {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (!Field)
      return block(Member->getBeginLoc(), "'" + soaShortText(Member, Ctx) +
                                              "' uses a member of an element that is not a "
                                              "field");
    if (Member->hasQualifier() || Member->hasExplicitTemplateArgs())
      return unfollowed(Member);
    const LangOptions &LO = Ctx.getLangOpts();
    std::string Name = Prefix + Field->getNameAsString();
    // A field of a nested struct, `p[i].pos.x`: the view's array is the
    // flattened `pos_x` (SoaView.h), and the whole chain of members goes.
    const MemberExpr *Last = Member;
    for (const FieldDecl *Current = Field; Current->getType()->isRecordType();) {
      const Expr *Outer = Last;
      DynTypedNode Parent = parentPastWrappers(Outer, Ctx);
      const auto *Up = Parent.get<MemberExpr>();
      if (!Up)
        return whole(Member, Last, Current, Element, Name, Outer, Parent);
      const auto *Next = dyn_cast<FieldDecl>(Up->getMemberDecl());
      if (!Next || Up->isArrow() || Up->getBase()->IgnoreParenImpCasts() != Last)
        return block(Last->getBeginLoc(), "'" + soaShortText(Last, Ctx) +
                                              "' is used as a whole struct value");
      // `(p[i].pos).x`: the members go with the index, the parentheses
      // between them would be left unbalanced.
      if (Up->getBase()->IgnoreImpCasts() != Last || Up->hasQualifier() ||
          Up->hasExplicitTemplateArgs())
        return unfollowed(Up);
      if (!editable(Up->getMemberLoc()))
        return block(Up->getBeginLoc(),
                     "'" + soaShortText(Up, Ctx) + "' is inside a macro expansion");
      Name += "_" + Next->getNameAsString();
      Last = Up;
      Current = Next;
    }
    SourceLocation MemberEnd = Lexer::getLocForEndOfToken(Last->getMemberLoc(), 0, SM, LO);
    if (Via) {
      if (!editable(MemberEnd) || !editable(Member->getMemberLoc()))
        return block(Member->getBeginLoc(), "'" + soaShortText(Member, Ctx) +
                                                "' is inside a macro expansion");
      // `me.x` -> `p.x[i]` (`me.pos.x` -> `p.pos_x[i]`).
      Plan.Edits.push_back({CharSourceRange::getCharRange(Via->getBeginLoc(), MemberEnd),
                            sourceText(Element->getBase(), Ctx) + "." + Name + "[" +
                                sourceText(Element->getIdx(), Ctx) + "]"});
      return;
    }
    if (Element) {
      SourceLocation BaseEnd =
          Lexer::getLocForEndOfToken(Element->getBase()->getEndLoc(), 0, SM, LO);
      SourceLocation BracketEnd = Lexer::getLocForEndOfToken(Element->getRBracketLoc(), 0, SM, LO);
      if (!editable(BaseEnd) || !editable(BracketEnd) || !editable(MemberEnd) ||
          !editable(Member->getMemberLoc()))
        return block(Member->getBeginLoc(), "'" + soaShortText(Member, Ctx) +
                                                "' is inside a macro expansion");
      // `p[i].x` -> `p.x[i]`: the field's name moves before the index
      // (`p[i].pos.x` -> `p.pos_x[i]`).
      Plan.Edits.push_back({CharSourceRange::getCharRange(BaseEnd, BaseEnd), "." + Name});
      Plan.Edits.push_back({CharSourceRange::getCharRange(BracketEnd, MemberEnd), ""});
      return;
    }
    SourceLocation Arrow = Member->getOperatorLoc();
    if (!editable(Arrow) || !editable(MemberEnd) || !editable(Member->getMemberLoc()))
      return block(Member->getBeginLoc(), "'" + soaShortText(Member, Ctx) +
                                              "' is inside a macro expansion");
    // `p->x` -> `p.x[0]` (`p->pos.x` -> `p.pos_x[0]`).
    Plan.Edits.push_back({CharSourceRange::getCharRange(Arrow, Arrow.getLocWithOffset(2)), "."});
    if (Last != Member)
      Plan.Edits.push_back(
          {CharSourceRange::getCharRange(Member->getMemberLoc(), MemberEnd), Name + "[0]"});
    else
      Plan.Edits.push_back({CharSourceRange::getCharRange(MemberEnd, MemberEnd), "[0]"});
  }

  /// A nested struct read whole, `p[i].pos` (Last) copied or bound to a
  /// const reference argument (Outer: it with its parentheses and implicit
  /// casts; Parent: what takes it): the view has no such struct, so the
  /// value is built from its arrays, `Vec{p.pos_x[i], p.pos_y[i]}` (Name:
  /// `pos`). Anything that may write it, or keep a reference to it, keeps
  /// the rewrite from being the same program.
  void whole(const MemberExpr *Member, const MemberExpr *Last, const FieldDecl *Field,
             const ArraySubscriptExpr *Element, const std::string &Name, const Expr *Outer,
             const DynTypedNode &Parent) {
    std::string Text = "'" + soaShortText(Last, Ctx) + "'";
    const auto *Copy = Parent.get<CXXConstructExpr>();
    bool Read = (Copy && Copy->getConstructor()->isCopyOrMoveConstructor()) ||
                (Outer->getType().isConstQualified() && Parent.get<CallExpr>());
    // `const Vec3 &q = b[i].pos`: a reference to the struct inside the
    // element, which the view does not have: its uses are rewritten as the
    // element's (through `->`, with no index, it stays refused).
    if (const auto *VD = Parent.get<VarDecl>(); VD && VD->getType()->isReferenceType()) {
      if (Element)
        return reference(Element, Last, VD, Name + "_");
      return block(Last->getBeginLoc(),
                   Text + " is bound to the reference '" + VD->getNameAsString() + "'");
    }
    if (!Read)
      return block(Last->getBeginLoc(), Text + " is used as a whole struct value");
    const Expr *Index = Element ? Element->getIdx() : nullptr;
    // The index is written once per field: it must mean the same each time.
    if (Index && (Index->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false) ||
                  usesRewritten(Index)))
      return block(Index->getBeginLoc(), Text + " is read whole with an index the rewrite "
                                                "would have to repeat");
    std::string Base = sourceText(Element ? Element->getBase() : Member->getBase(), Ctx);
    std::optional<std::string> Value =
        bracedValue(Field->getType(), Base + "." + Name, Index ? sourceText(Index, Ctx) : "0");
    if (Base.empty() || !Value)
      return block(Last->getBeginLoc(), Text + " is read whole as a struct that cannot be "
                                               "built with braces (not an aggregate, or "
                                               "unnamed)");
    SourceLocation Begin = Last->getBeginLoc();
    SourceLocation End =
        Lexer::getLocForEndOfToken(Last->getMemberLoc(), 0, SM, Ctx.getLangOpts());
    if (!editable(Begin) || !editable(End) || !editable(Last->getMemberLoc()))
      return block(Last->getBeginLoc(), Text + " is inside a macro expansion");
    Plan.Edits.push_back({CharSourceRange::getCharRange(Begin, End), *Value});
  }

  /// `T{A_f[I], A_g[I], ...}` for an aggregate struct type T, nested ones
  /// in braces of their own, the arrays named as the view names them
  /// (SoaView.h: the path's names joined by '_').
  std::optional<std::string> bracedValue(QualType T, const std::string &Array,
                                         const std::string &Index) {
    const auto *RD = T->getAsCXXRecordDecl();
    if (!RD || !RD->hasDefinition() || !RD->isAggregate() ||
        (!RD->getIdentifier() && !RD->getTypedefNameForAnonDecl()))
      return std::nullopt;
    PrintingPolicy Policy(Ctx.getLangOpts());
    Policy.SuppressTagKeyword = true;
    std::string Out =
        TypeName::getFullyQualifiedName(T.getUnqualifiedType(), Ctx, Policy) + "{";
    bool First = true;
    for (const FieldDecl *F : RD->fields()) {
      if (!F->getIdentifier())
        return std::nullopt;
      std::string Path = Array + "_" + F->getNameAsString();
      std::optional<std::string> Part = F->getType()->isRecordType()
                                            ? bracedValue(F->getType(), Path, Index)
                                            : std::optional<std::string>(Path + "[" + Index + "]");
      if (!Part)
        return std::nullopt;
      Out += (First ? "" : ", ") + *Part;
      First = false;
    }
    return Out + "}";
  }

  /// Whether E names a pointer to the struct, which the rewrite may change
  /// (its edits would meet a copy of E's text).
  bool usesRewritten(const Stmt *E) {
    if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E))
      if (sameRecord(pointeeRecord(Ref->getDecl()->getType()), Plan.Record))
        return true;
    for (const Stmt *Child : E ? E->children() : Stmt::const_child_range(nullptr, nullptr))
      if (usesRewritten(Child))
        return true;
    return false;
  }

  /// The pointer passed to a function: a device function of the unit
  /// whose parameter can change with it.
  void passed(const CallExpr *Call, const Expr *Argument, const std::string &Name) {
    std::string Text = "'" + Name + "' is passed to ";
    if (isa<CUDAKernelCallExpr>(Call))
      return block(Argument->getBeginLoc(), Text + "a kernel launched from the device");
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || isa<CXXMethodDecl>(Callee) || isa<CXXOperatorCallExpr>(Call))
      return block(Argument->getBeginLoc(),
                   Text + "'" + soaShortText(Call->getCallee(), Ctx) +
                       "', which is not a function of the unit the rewrite can change");
    std::string Quoted = "'" + Callee->getNameAsString() + "'";
    const FunctionDecl *Def = Callee->getDefinition();
    if (Callee->getBuiltinID() || !Def || !Def->hasBody() ||
        SM.isInSystemHeader(Def->getLocation()))
      return block(Argument->getBeginLoc(),
                   Text + Quoted + ", whose body is not in the unit or not the user's");
    if (Def->isTemplateInstantiation() || Def->getDescribedFunctionTemplate())
      return block(Argument->getBeginLoc(), Text + "the template " + Quoted);
    if (Def->hasAttr<CUDAGlobalAttr>())
      return block(Argument->getBeginLoc(), Text + "a kernel launched from the device");
    unsigned Index = 0;
    while (Index < Call->getNumArgs() && Call->getArg(Index) != Argument)
      ++Index;
    if (Index >= Def->getNumParams())
      return block(Argument->getBeginLoc(), Text + "the variadic arguments of " + Quoted);
    const ParmVarDecl *Param = Def->getParamDecl(Index);
    if (!sameRecord(pointeeRecord(Param->getType()), Plan.Record))
      return block(Argument->getBeginLoc(), Text + Quoted + " as '" +
                                                Param->getType().getAsString() + "'");
    for (const FunctionDecl *D : Def->redecls())
      if (D != Def)
        return block(D->getLocation(), Quoted + ", which '" + Name +
                                           "' is passed to, is declared again at " +
                                           soaPlace(D->getLocation(), SM) +
                                           " (each declaration would have to change)");
    if (Rewritten.insert(Param).second) {
      Queue.push_back(Param);
      if (std::find(Plan.DeviceFunctions.begin(), Plan.DeviceFunctions.end(), Def) ==
          Plan.DeviceFunctions.end())
        Plan.DeviceFunctions.push_back(Def);
    }
  }

  /// Every call of a rewritten device function passes rewritten pointers
  /// where its parameters change: no other caller, no other pointer.
  bool checkCallers() {
    for (const FunctionDecl *F : Plan.DeviceFunctions) {
      std::string Quoted = "'" + F->getNameAsString() + "'";
      for (const DeclRefExpr *Ref : Refs.of(F)) {
        const Expr *Outer = Ref;
        const auto *Call = parentPastWrappers(Outer, Ctx).get<CallExpr>();
        if (!Call || Call->getCallee()->IgnoreParenImpCasts() != Ref) {
          block(Ref->getLocation(), Quoted + " is used at " + soaPlace(Ref->getLocation(), SM) +
                                        " other than by a call");
          return false;
        }
        for (unsigned I = 0; I < Call->getNumArgs() && I < F->getNumParams(); ++I) {
          if (!Rewritten.count(F->getParamDecl(I)))
            continue;
          const Expr *Arg = Call->getArg(I)->IgnoreParenImpCasts();
          const auto *ArgRef = dyn_cast<DeclRefExpr>(Arg);
          const auto *ArgParam = ArgRef ? dyn_cast<ParmVarDecl>(ArgRef->getDecl()) : nullptr;
          if (ArgParam && Rewritten.count(ArgParam))
            continue;
          std::string Where;
          if (ArgRef)
            if (const auto *Fn = dyn_cast_or_null<FunctionDecl>(
                    ArgRef->getDecl()->getParentFunctionOrMethod()))
              Where = " in '" + Fn->getNameAsString() + "'";
          block(Arg->getBeginLoc(), Quoted + " is also called with another pointer, '" +
                                        soaShortText(Arg, Ctx) + "'" + Where);
          return false;
        }
      }
    }
    return true;
  }

  /// The view's place; every rewritten function must come after it.
  bool placeView() {
    SoaViewPlace View = placeSoaView(Plan.Record, Plan.ViewName, Kernel, Ctx);
    if (View.Blocker) {
      block(View.Blocker->Where, View.Blocker->Why);
      return false;
    }
    if (!View.Declaration.empty()) {
      Plan.ViewLocation = View.Declared;
      Plan.ViewDeclaration = View.Declaration;
    }
    for (const ParmVarDecl *P : Queue) {
      const FunctionDecl *F = functionOf(P);
      if (!SM.isBeforeInTranslationUnit(View.Declared, F->getBeginLoc())) {
        block(F->getLocation(), "'" + F->getNameAsString() + "' comes before the place '" +
                                    Plan.ViewName + "' can be declared, " +
                                    soaPlace(View.Declared, SM));
        return false;
      }
    }
    return true;
  }

  /// `const Particle *p` -> `ParticleSoA p`, named with its namespace where
  /// the function is outside it.
  bool rewriteParameter(const ParmVarDecl *P) {
    SourceLocation Begin = P->getBeginLoc(), Name = P->getLocation();
    if (!editable(Begin) || !editable(Name) || P->getSourceRange().getEnd() != Name) {
      block(Name, "the declaration of parameter '" + P->getNameAsString() +
                      "' is written in a form the rewrite does not follow (a macro, a default "
                      "argument or array syntax)");
      return false;
    }
    const DeclContext *Scope = Plan.Record->getDeclContext();
    std::string Type = Plan.ViewName;
    if (!Scope->Encloses(functionOf(P)->getDeclContext()))
      Type = "::" + cast<NamespaceDecl>(Scope)->getQualifiedNameAsString() + "::" + Type;
    Plan.Edits.push_back({CharSourceRange::getCharRange(Begin, Name), Type + " "});
    return true;
  }

  const FunctionDecl *Kernel;
  const FunctionReferences &Refs;
  ASTContext &Ctx;
  const SourceManager &SM;
  SoaRewritePlan &Plan;
  /// The parameters that change, the kernel's first, in the order reached.
  std::vector<const ParmVarDecl *> Queue;
  std::set<const ParmVarDecl *> Rewritten;
};

/// The parameter (or variable) that E's pointer or element comes from.
const ValueDecl *originOf(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 32; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (!Var || isa<ParmVarDecl>(Var) || !Var->getInit() || !Var->isLocalVarDecl())
        return Ref->getDecl();
      E = Var->getInit();
    } else if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      E = Member->getBase();
    } else if (const auto *Element = dyn_cast<ArraySubscriptExpr>(E)) {
      E = Element->getBase();
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      E = UO->getSubExpr();
    } else if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS();
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

} // namespace

const ParmVarDecl *soaRewriteRoot(const FunctionDecl *Kernel, const Expr *Access,
                                  ASTContext &Ctx) {
  const auto *Origin = dyn_cast_or_null<ParmVarDecl>(originOf(Access));
  if (!Origin)
    return nullptr;
  for (const ParmVarDecl *P : Kernel->parameters()) {
    // The parameters P reaches: its own and, transitively, those of the
    // device functions it is passed to.
    std::vector<const ParmVarDecl *> Reached{P};
    for (std::size_t I = 0; I < Reached.size() && Reached.size() < 64; ++I) {
      if (Reached[I] == Origin)
        return P;
      const auto *F = dyn_cast<FunctionDecl>(Reached[I]->getDeclContext());
      if (!F || !F->hasBody() || !pointeeRecord(Reached[I]->getType()))
        continue;
      for (const BoundNodes &N :
           match(findAll(callExpr(forEachArgumentWithParam(
                     declRefExpr(to(parmVarDecl(equalsNode(Reached[I])))),
                     parmVarDecl().bind("param")))),
                 *F->getBody(), Ctx)) {
        const auto *Param = N.getNodeAs<ParmVarDecl>("param");
        const auto *Callee = dyn_cast<FunctionDecl>(Param->getDeclContext());
        const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
        if (Def && Param->getFunctionScopeIndex() < Def->getNumParams()) {
          const ParmVarDecl *DefParam = Def->getParamDecl(Param->getFunctionScopeIndex());
          if (std::find(Reached.begin(), Reached.end(), DefParam) == Reached.end())
            Reached.push_back(DefParam);
        }
      }
    }
  }
  return nullptr;
}

SoaRewritePlan planSoaRewrite(const FunctionDecl *Kernel, const ParmVarDecl *Param,
                              const FunctionReferences &Refs, ASTContext &Ctx) {
  SoaRewritePlan Plan;
  Planner(Kernel, Param, Refs, Ctx, Plan).run();
  return Plan;
}

} // namespace warpcheck::analysis
