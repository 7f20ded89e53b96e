//===- SoaView.cpp - the structure-of-arrays view of a struct -------------===//

#include "SoaView.h"

#include "warpcheck/analysis/KernelAnalysis.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace clang;

namespace warpcheck::analysis {

bool soaEditable(SourceLocation Loc, const SourceManager &SM) {
  return Loc.isValid() && Loc.isFileID() && !SM.isInSystemHeader(Loc);
}

std::string soaPlace(SourceLocation Loc, const SourceManager &SM) {
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (P.isInvalid())
    return "an unknown place";
  return llvm::sys::path::filename(P.getFilename()).str() + ":" + std::to_string(P.getLine());
}

std::string soaRecordName(const RecordDecl *RD) {
  if (!RD->getName().empty())
    return RD->getNameAsString();
  if (const TypedefNameDecl *T = RD->getTypedefNameForAnonDecl())
    return T->getNameAsString();
  return "";
}

namespace {

/// Nested structs flattened at most this deep (`a.b.c.x`).
constexpr unsigned MaxNesting = 4;

bool isScalar(QualType T) {
  T = T.getCanonicalType();
  return T->isArithmeticType() || T->isEnumeralType() ||
         (T->isPointerType() && !T->isFunctionPointerType());
}

/// A struct a field holds that the view flattens: plain data, no union,
/// no base classes, no template instance.
const RecordDecl *nestedRecord(QualType T) {
  const auto *RT = T.getCanonicalType()->getAs<RecordType>();
  const RecordDecl *RD = RT ? RT->getDecl()->getDefinition() : nullptr;
  if (!RD || RD->isUnion() || isa<ClassTemplateSpecializationDecl>(RD))
    return nullptr;
  if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD); CXX && CXX->getNumBases())
    return nullptr;
  return RD;
}

/// Why a field cannot become arrays of the view, or empty. Owner is the
/// struct the field is declared in, Path the fields down to it ("pos.x").
std::string fieldProblem(const FieldDecl *F, const RecordDecl *Owner, const std::string &Path,
                         unsigned Depth) {
  std::string Which = "field '" + Path + "' of '" + soaRecordName(Owner) + "'";
  if (F->getName().empty())
    return "'" + soaRecordName(Owner) + "' has an unnamed member";
  if (F->isBitField())
    return Which + " is a bit-field";
  QualType T = F->getType().getCanonicalType();
  if (isScalar(T))
    return "";
  // A nested struct is flattened, one array per scalar field of it; an
  // array field would stay an array of structs in the view.
  if (const RecordDecl *Nested = nestedRecord(T)) {
    if (Depth + 1 >= MaxNesting)
      return Which + " nests structs deeper than " + std::to_string(MaxNesting) + " levels";
    for (const FieldDecl *G : Nested->fields())
      if (std::string Why = fieldProblem(G, Owner, Path + "." + G->getNameAsString(), Depth + 1);
          !Why.empty())
        return Why;
    if (Nested->field_empty())
      return Which + " is a struct without fields";
    return "";
  }
  std::string What = T->isArrayType()       ? "an array"
                     : T->isRecordType()    ? "a union, a class with bases or a template instance"
                     : T->isReferenceType() ? "a reference"
                                            : "not a scalar";
  return Which + " is " + What + " (the rewrite makes one array per scalar field)";
}

void collectLeaves(const RecordDecl *RD, std::vector<const FieldDecl *> &Path,
                   std::vector<SoaLeaf> &Out) {
  for (const FieldDecl *F : RD->fields()) {
    Path.push_back(F);
    if (const RecordDecl *Nested = isScalar(F->getType()) ? nullptr : nestedRecord(F->getType())) {
      if (Path.size() < MaxNesting)
        collectLeaves(Nested, Path, Out);
    } else {
      SoaLeaf Leaf;
      Leaf.Path = Path;
      for (const FieldDecl *P : Path)
        Leaf.Name += (Leaf.Name.empty() ? "" : "_") + P->getNameAsString();
      Out.push_back(std::move(Leaf));
    }
    Path.pop_back();
  }
}

/// A struct the unit declares already with exactly the view's fields.
bool isView(const NamedDecl *D, const RecordDecl *RD, ASTContext &Ctx) {
  const auto *View = dyn_cast<RecordDecl>(D);
  View = View ? View->getDefinition() : nullptr;
  if (!View)
    return false;
  auto VF = View->field_begin();
  for (const SoaLeaf &Leaf : soaLeaves(RD)) {
    if (VF == View->field_end() || VF->getName() != Leaf.Name ||
        VF->getType().getCanonicalType() !=
            Ctx.getPointerType(Leaf.Path.back()->getType()).getCanonicalType())
      return false;
    ++VF;
  }
  return VF == View->field_end();
}

/// The start of Loc's line, or of the line after it (invalid when none).
SourceLocation lineStart(SourceLocation Loc, bool Next, const SourceManager &SM) {
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  llvm::StringRef Text = SM.getBufferData(File);
  std::size_t At;
  if (Next) {
    At = Text.find('\n', Offset);
    if (At == llvm::StringRef::npos)
      return {};
    ++At;
  } else {
    At = Text.rfind('\n', Offset);
    At = At == llvm::StringRef::npos ? 0 : At + 1;
  }
  return SM.getLocForStartOfFile(File).getLocWithOffset(static_cast<int>(At));
}

/// Where a new declaration of the view goes, or why nowhere.
SoaViewPlace newViewPlace(const RecordDecl *RD, const FunctionDecl *Kernel, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SoaViewPlace Place;
  FileID KernelFile = SM.getFileID(SM.getExpansionLoc(Kernel->getLocation()));
  SourceLocation Brace = RD->getBraceRange().getEnd();
  if (soaEditable(Brace, SM) && SM.getFileID(Brace) == KernelFile) {
    // The `;` ending the declaration: `};`, `} Name;` (a typedef of an
    // anonymous struct), `} a[2], b;`.
    std::optional<Token> Semi = Lexer::findNextToken(Brace, SM, Ctx.getLangOpts());
    for (int Depth = 0, N = 0; Semi && !(Semi->is(tok::semi) && Depth == 0) && N < 256; ++N) {
      Depth += Semi->isOneOf(tok::l_paren, tok::l_square, tok::l_brace);
      Depth -= Semi->isOneOf(tok::r_paren, tok::r_square, tok::r_brace);
      Semi = Lexer::findNextToken(Semi->getLocation(), SM, Ctx.getLangOpts());
    }
    if (Semi && Semi->is(tok::semi) && soaEditable(Semi->getLocation(), SM))
      Place.Declared = lineStart(Semi->getLocation(), /*Next=*/true, SM);
    if (Place.Declared.isInvalid())
      Place.Blocker = SoaBlocker{"the declaration of '" + soaRecordName(RD) +
                                     "' does not end with a ';' that a line follows",
                                 RD->getLocation()};
    return Place;
  }
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    if (D->isImplicit())
      continue;
    SourceLocation Begin = SM.getExpansionLoc(D->getBeginLoc());
    if (SM.getFileID(Begin) == KernelFile && SM.isBeforeInTranslationUnit(RD->getEndLoc(), Begin) &&
        soaEditable(Begin, SM)) {
      Place.Declared = lineStart(Begin, /*Next=*/false, SM);
      return Place;
    }
  }
  Place.Blocker = SoaBlocker{"no place for the view's declaration in the kernel's file",
                             RD->getLocation()};
  return Place;
}

} // namespace

std::vector<SoaLeaf> soaLeaves(const RecordDecl *RD) {
  std::vector<SoaLeaf> Out;
  std::vector<const FieldDecl *> Path;
  collectLeaves(RD, Path, Out);
  return Out;
}

std::optional<SoaBlocker> soaRecordProblem(const RecordDecl *RD,
                                           std::vector<std::string> &Fields) {
  std::string Name = soaRecordName(RD);
  if (Name.empty() || RD->isUnion() || isa<ClassTemplateSpecializationDecl>(RD))
    return SoaBlocker{"'" + RD->getNameAsString() +
                          "' is not a named struct or class (a union, a template instance or "
                          "anonymous)",
                      RD->getLocation()};
  if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD); CXX && CXX->getNumBases())
    return SoaBlocker{"'" + Name + "' has base classes", RD->getLocation()};
  if (!isa<TranslationUnitDecl>(RD->getDeclContext()) && !isa<NamespaceDecl>(RD->getDeclContext()))
    return SoaBlocker{"'" + Name + "' is declared inside another declaration", RD->getLocation()};
  Fields.clear();
  for (const FieldDecl *F : RD->fields())
    if (std::string Why = fieldProblem(F, RD, F->getNameAsString(), 0); !Why.empty())
      return SoaBlocker{Why, F->getLocation()};
  // `pos.x` flattened is `pos_x`: a field of that name beside it would be
  // declared twice in the view.
  for (const SoaLeaf &Leaf : soaLeaves(RD)) {
    if (std::find(Fields.begin(), Fields.end(), Leaf.Name) != Fields.end())
      return SoaBlocker{"two fields of '" + Name + "' would both be '" + Leaf.Name +
                            "' in the view (a nested struct's fields are named with its own)",
                        Leaf.Path.back()->getLocation()};
    Fields.push_back(Leaf.Name);
  }
  if (Fields.empty())
    return SoaBlocker{"'" + Name + "' has no fields", RD->getLocation()};
  return std::nullopt;
}

SoaViewPlace placeSoaView(const RecordDecl *RD, llvm::StringRef ViewName,
                          const FunctionDecl *Kernel, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SoaViewPlace Place;
  auto Existing = Ctx.Idents.find(ViewName);
  if (Existing != Ctx.Idents.end()) {
    if (Existing->getValue()->hasMacroDefinition()) {
      Place.Blocker = SoaBlocker{"'" + ViewName.str() + "' is a macro", RD->getLocation()};
      return Place;
    }
    for (const NamedDecl *D : RD->getDeclContext()->lookup(DeclarationName(Existing->getValue()))) {
      if (!isView(D, RD, Ctx)) {
        Place.Blocker =
            SoaBlocker{"'" + ViewName.str() + "' is declared already, at " +
                           soaPlace(D->getLocation(), SM) + ", and is not the view of '" +
                           soaRecordName(RD) + "'",
                       D->getLocation()};
        return Place;
      }
      Place.Declared = D->getLocation();
    }
    if (Place.Declared.isValid())
      return Place;
  }
  Place = newViewPlace(RD, Kernel, Ctx);
  if (Place.Blocker)
    return Place;
  std::string Text = "struct " + ViewName.str() + " {";
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  for (const SoaLeaf &Leaf : soaLeaves(RD)) {
    std::string Field;
    llvm::raw_string_ostream OS(Field);
    Ctx.getPointerType(Leaf.Path.back()->getType()).print(OS, Policy, Leaf.Name);
    Text += " " + OS.str() + ";";
  }
  Place.Declaration = Text + " };\n";
  return Place;
}

std::string soaShortText(const Expr *E, const ASTContext &Ctx) {
  std::string Text = sourceText(E, Ctx);
  std::string Flat;
  for (char C : Text)
    if (C != '\n' && C != '\r' && !(C == ' ' && !Flat.empty() && Flat.back() == ' '))
      Flat += C == '\t' ? ' ' : C;
  return Flat.size() > 48 ? Flat.substr(0, 45) + "..." : Flat;
}

} // namespace warpcheck::analysis
