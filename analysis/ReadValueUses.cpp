//===- ReadValueUses.cpp - where a value read from memory can go ---------===//

#include "ReadValueUses.h"
#include "SourceMemory.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <optional>
#include <set>

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// What becomes of the value of E (parentheses and integer conversions
/// looked through): converted to floating point, the initialiser of a
/// local variable (returned in Var), or anything else.
enum class UseKind { FloatingPoint, InitializesVar, Other };

UseKind useOf(const Expr *E, ASTContext &Ctx, const VarDecl *&Var) {
  for (;;) {
    DynTypedNodeList Parents = Ctx.getParents(*E);
    if (Parents.size() != 1)
      return UseKind::Other;
    if (const auto *VD = Parents[0].get<VarDecl>()) {
      if (VD->getInit() && VD->getInit()->IgnoreParenImpCasts() == E->IgnoreParenImpCasts() &&
          VD->isLocalVarDecl() && !VD->getType()->isReferenceType() &&
          VD->getType()->isIntegralOrEnumerationType()) {
        Var = VD;
        return UseKind::InitializesVar;
      }
      return UseKind::Other;
    }
    const auto *P = Parents[0].get<Expr>();
    if (!P)
      return UseKind::Other;
    if (isa<ParenExpr>(P)) {
      E = P;
      continue;
    }
    const auto *C = dyn_cast<CastExpr>(P);
    if (!C)
      return UseKind::Other;
    if (C->getCastKind() == CK_IntegralToFloating)
      return UseKind::FloatingPoint;
    if (C->getCastKind() == CK_LValueToRValue || C->getCastKind() == CK_NoOp ||
        C->getCastKind() == CK_IntegralCast) {
      E = C;
      continue;
    }
    return UseKind::Other;
  }
}

/// Every reference to a variable in a function body.
class References : public RecursiveASTVisitor<References> {
public:
  explicit References(const VarDecl *Var) : Var(Var) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl() == Var)
      Found.push_back(E);
    return true;
  }
  const VarDecl *Var;
  std::vector<const DeclRefExpr *> Found;
};

} // namespace

bool usedOnlyAsFloatingPoint(const Expr *Read, ASTContext &Ctx) {
  if (!Read)
    return false;
  const VarDecl *Var = nullptr;
  UseKind Use = useOf(Read, Ctx, Var);
  if (Use != UseKind::InitializesVar)
    return Use == UseKind::FloatingPoint;
  const auto *Function = dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
  if (!Function || !Function->getBody())
    return false;
  References Refs(Var);
  Refs.TraverseStmt(Function->getBody());
  for (const DeclRefExpr *Ref : Refs.Found) {
    // A use must read the variable (an lvalue-to-rvalue conversion) and
    // convert what it read to floating point: an assignment, an increment,
    // `&v` or a reference bound to it reads as Other.
    const VarDecl *Again = nullptr;
    if (useOf(Ref, Ctx, Again) != UseKind::FloatingPoint)
      return false;
  }
  return true;
}

namespace {

/// The local variable the struct value Copied initialises (a trivial copy
/// constructor in C++), when nothing else is done with the copy; null
/// otherwise.
const VarDecl *copyTarget(const Expr *Copied, QualType Type, ASTContext &Ctx) {
  const Stmt *E = Copied;
  const VarDecl *Var = nullptr;
  for (unsigned Depth = 0; Depth < 8 && !Var; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(*E);
    if (Parents.size() != 1)
      return nullptr;
    if (const auto *VD = Parents[0].get<VarDecl>()) {
      Var = VD;
      break;
    }
    const auto *P = Parents[0].get<Expr>();
    if (!P || !(isa<ImplicitCastExpr>(P) || isa<ParenExpr>(P) ||
                isa<MaterializeTemporaryExpr>(P) || isa<CXXConstructExpr>(P) ||
                isa<ExprWithCleanups>(P)))
      return nullptr;
    if (const auto *C = dyn_cast<CXXConstructExpr>(P))
      if (C->getNumArgs() != 1 || !C->getConstructor()->isTrivial())
        return nullptr;
    E = P;
  }
  if (!Var || !Var->isLocalVarDecl() || Var->getType()->isReferenceType() ||
      !Ctx.hasSameUnqualifiedType(Var->getType(), Type))
    return nullptr;
  return Var;
}

/// The fields of the struct value Copied that the code reads, when it is
/// copied into a local variable whose every use reads one of its fields
/// (`w.f` converted to an rvalue); nullopt otherwise.
/// Every reference to the local Var in the body of its function; none
/// when the function has no body.
std::optional<std::vector<const DeclRefExpr *>> usesInItsFunction(const VarDecl *Var) {
  const auto *Function = dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
  if (!Function || !Function->getBody())
    return std::nullopt;
  References Refs(Var);
  Refs.TraverseStmt(Function->getBody());
  return Refs.Found;
}

/// The local variable the struct value Copied (not volatile, of a defined
/// struct type) initialises, nothing else being done with the copy.
const VarDecl *structCopyTarget(const Expr *Copied, ASTContext &Ctx) {
  if (!Copied || Copied->getType().isVolatileQualified())
    return nullptr;
  QualType Type = Copied->getType().getUnqualifiedType();
  const RecordDecl *Record = Type->getAsRecordDecl();
  if (!Record || !Record->getDefinition())
    return nullptr;
  return copyTarget(Copied, Type, Ctx);
}

std::optional<std::set<const FieldDecl *>> fieldsReadOfCopy(const Expr *Copied,
                                                            ASTContext &Ctx) {
  const VarDecl *Var = structCopyTarget(Copied, Ctx);
  if (!Var)
    return std::nullopt;
  std::optional<std::vector<const DeclRefExpr *>> Uses = usesInItsFunction(Var);
  if (!Uses)
    return std::nullopt;
  std::set<const FieldDecl *> Read;
  for (const DeclRefExpr *Ref : *Uses) {
    // `w.f` read: its value converted to an rvalue, nothing else.
    DynTypedNodeList Parents = Ctx.getParents(*Ref);
    const auto *Member = Parents.size() == 1 ? Parents[0].get<MemberExpr>() : nullptr;
    if (!Member || Member->isArrow())
      return std::nullopt;
    DynTypedNodeList Up = Ctx.getParents(*Member);
    const auto *Cast = Up.size() == 1 ? Up[0].get<ImplicitCastExpr>() : nullptr;
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (!Cast || Cast->getCastKind() != CK_LValueToRValue || !Field || Field->isBitField())
      return std::nullopt;
    Read.insert(Field);
  }
  return Read;
}

} // namespace

std::optional<unsigned> forwardedCopyLine(const Expr *Copied, ASTContext &Ctx) {
  const VarDecl *Var = structCopyTarget(Copied, Ctx);
  if (!Var)
    return std::nullopt;
  // The declaration, then the statement right after it in its block.
  DynTypedNodeList Up = Ctx.getParents(*Var);
  const auto *Decl = Up.size() == 1 ? Up[0].get<DeclStmt>() : nullptr;
  if (!Decl || !Decl->isSingleDecl())
    return std::nullopt;
  DynTypedNodeList Blocks = Ctx.getParents(*Decl);
  const auto *Block = Blocks.size() == 1 ? Blocks[0].get<CompoundStmt>() : nullptr;
  if (!Block)
    return std::nullopt;
  const Stmt *Next = nullptr;
  for (auto It = Block->body_begin(); It != Block->body_end(); ++It)
    if (*It == Decl) {
      if (std::next(It) != Block->body_end())
        Next = *std::next(It);
      break;
    }
  // `m = v;`: the variable's one use, a whole copy into memory, trivial.
  const auto *Assign = dyn_cast_or_null<CXXOperatorCallExpr>(Next);
  if (!Assign || Assign->getOperator() != OO_Equal || Assign->getNumArgs() != 2)
    return std::nullopt;
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Assign->getDirectCallee());
  const auto *Ref = dyn_cast<DeclRefExpr>(Assign->getArg(1)->IgnoreParenImpCasts());
  if (!Method || !Method->isTrivial() || !Ref || Ref->getDecl() != Var ||
      !namesMemory(Assign->getArg(0)))
    return std::nullopt;
  std::optional<std::vector<const DeclRefExpr *>> Uses = usesInItsFunction(Var);
  if (!Uses || Uses->size() != 1)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  return SM.getExpansionLineNumber(SM.getExpansionLoc(Assign->getBeginLoc()));
}

std::optional<unsigned> wholeStructStoreLine(const Expr *Stored, ASTContext &Ctx) {
  const auto *Element = dyn_cast_or_null<ArraySubscriptExpr>(
      Stored ? Stored->IgnoreParenImpCasts() : nullptr);
  if (!Element || !Element->getType()->isRecordType())
    return std::nullopt;
  // Up through parentheses and casts to the assignment it is the left of.
  DynTypedNode Node = DynTypedNode::create(*static_cast<const Expr *>(Element));
  const Expr *Rhs = nullptr;
  for (int Depth = 0; Depth < 4 && !Rhs; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.size() != 1)
      return std::nullopt;
    Node = Parents[0];
    if (const auto *Call = Node.get<CXXOperatorCallExpr>()) {
      const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
      if (Call->getOperator() != OO_Equal || Call->getNumArgs() != 2 || !Method ||
          !Method->isTrivial() || Call->getArg(0)->IgnoreParenImpCasts() != Element)
        return std::nullopt;
      Rhs = Call->getArg(1);
    } else if (const auto *Assign = Node.get<BinaryOperator>()) {
      if (Assign->getOpcode() != BO_Assign || Assign->getLHS()->IgnoreParenImpCasts() != Element)
        return std::nullopt;
      Rhs = Assign->getRHS();
    } else if (!Node.get<ParenExpr>() && !Node.get<ImplicitCastExpr>()) {
      return std::nullopt;
    }
  }
  if (!Rhs)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  unsigned ElementLine = indexEndLine(Element, SM).value_or(
      SM.getExpansionLineNumber(SM.getExpansionLoc(Element->getBeginLoc())));
  unsigned RhsLine = SM.getExpansionLineNumber(SM.getExpansionLoc(Rhs->getEndLoc()));
  if (RhsLine <= ElementLine)
    return std::nullopt;
  return RhsLine;
}

bool copiedWholeAndEveryFieldRead(const Expr *Copied, ASTContext &Ctx) {
  if (!Copied)
    return false;
  QualType Type = Copied->getType().getUnqualifiedType();
  const RecordDecl *Record = Type->getAsRecordDecl();
  if (!Record || !Record->getDefinition())
    return false;
  // One load per field: scalar fields as large as the struct's alignment
  // (the piece a copy is split into), no padding.
  std::int64_t Align = Ctx.getTypeAlignInChars(Type).getQuantity();
  std::int64_t Filled = 0;
  size_t Fields = 0;
  for (const FieldDecl *F : Record->fields()) {
    if (F->isBitField() || !F->getType()->isScalarType() ||
        Ctx.getTypeSizeInChars(F->getType()).getQuantity() != Align)
      return false;
    ++Fields;
    Filled += Align;
  }
  if (!Fields || Filled != Ctx.getTypeSizeInChars(Type).getQuantity())
    return false;
  std::optional<std::set<const FieldDecl *>> Read = fieldsReadOfCopy(Copied, Ctx);
  return Read && Read->size() == Fields;
}

std::optional<std::vector<model::ByteRange>> fieldBytesRead(const Expr *Copied, ASTContext &Ctx) {
  std::optional<std::set<const FieldDecl *>> Read = fieldsReadOfCopy(Copied, Ctx);
  if (!Read)
    return std::nullopt;
  const RecordDecl *Record = Copied->getType()->getAsRecordDecl();
  const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(Record);
  std::vector<model::ByteRange> Out;
  for (const FieldDecl *F : Record->fields())
    if (Read->count(F)) {
      std::int64_t Begin = static_cast<std::int64_t>(Layout.getFieldOffset(F->getFieldIndex()) / 8);
      Out.push_back({Begin, Begin + Ctx.getTypeSizeInChars(F->getType()).getQuantity()});
    }
  return Out;
}

} // namespace warpcheck::analysis
