//===- SoaAliases.cpp - references and pointers bound to one element ------===//

#include "SoaView.h"

#include "CudaBuiltinVariables.h"
#include "warpcheck/analysis/KernelAnalysis.h"

#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

#include <functional>
#include <map>

using namespace clang;
using namespace clang::ast_matchers;

namespace warpcheck::analysis {

std::optional<std::string> soaRedeclaredName(const ArraySubscriptExpr *Element,
                                             const CompoundStmt &Scope, ASTContext &Ctx) {
  std::map<std::string, const Decl *> Named;
  for (const BoundNodes &N :
       match(findAll(declRefExpr(to(varDecl())).bind("name")), *Element, Ctx)) {
    const Decl *D = N.getNodeAs<DeclRefExpr>("name")->getDecl();
    Named[cast<VarDecl>(D)->getNameAsString()] = D->getCanonicalDecl();
  }
  for (const BoundNodes &N :
       match(stmt(forEachDescendant(varDecl().bind("decl"))), Scope, Ctx)) {
    const auto *D = N.getNodeAs<VarDecl>("decl");
    auto It = Named.find(D->getNameAsString());
    if (It != Named.end() && It->second != D->getCanonicalDecl())
      return It->first;
  }
  return std::nullopt;
}

std::optional<std::string> soaIndexChanges(const Expr *Index, const CompoundStmt &Scope,
                                           ASTContext &Ctx) {
  std::optional<std::string> Why;
  ExprMutationAnalyzer Mutations(Scope, Ctx);
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || Why)
      return;
    if (const auto *E = dyn_cast<Expr>(S); E && builtinRead(E))
      return;
    if (isa<ArraySubscriptExpr>(S) || isa<CallExpr>(S) ||
        (isa<UnaryOperator>(S) && cast<UnaryOperator>(S)->getOpcode() == UO_Deref) ||
        (isa<MemberExpr>(S) && cast<MemberExpr>(S)->isArrow())) {
      Why = "'" + soaShortText(cast<Expr>(S), Ctx) + "' reads memory";
      return;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (V && !V->getType().isConstQualified() &&
          (!V->isLocalVarDeclOrParm() || V->isStaticLocal() || V->hasAttr<CUDASharedAttr>()))
        Why = "reads '" + V->getNameAsString() + "', which is not a local variable";
      else if (V && Mutations.isMutated(V))
        Why = "'" + V->getNameAsString() + "' changes while the reference is used";
      return;
    }
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  Visit(Index);
  return Why;
}

CharSourceRange soaStatementRemoval(SourceLocation Begin, SourceLocation End,
                                    const SourceManager &SM, const LangOptions &LO) {
  SourceLocation After = Lexer::getLocForEndOfToken(End, 0, SM, LO);
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Begin));
  unsigned From = SM.getFileOffset(Begin), To = SM.getFileOffset(After);
  unsigned LineStart = From, LineEnd = To;
  while (LineStart > 0 && (Buffer[LineStart - 1] == ' ' || Buffer[LineStart - 1] == '\t'))
    --LineStart;
  while (LineEnd < Buffer.size() && (Buffer[LineEnd] == ' ' || Buffer[LineEnd] == '\t'))
    ++LineEnd;
  bool AloneBefore = LineStart == 0 || Buffer[LineStart - 1] == '\n';
  bool AloneAfter = LineEnd < Buffer.size() && Buffer[LineEnd] == '\n';
  if (AloneBefore && AloneAfter) {
    // To the next line's first character: the statement's indentation
    // then stands for that line's, and no blank is left beside a blank
    // (which clang's fix-it editing would remove one more character for).
    unsigned Next = LineEnd + 1;
    while (Next < Buffer.size() && (Buffer[Next] == ' ' || Buffer[Next] == '\t'))
      ++Next;
    if (Next < Buffer.size() && Buffer[Next] != '\n')
      return CharSourceRange::getCharRange(Begin, After.getLocWithOffset(int(Next - To)));
    return CharSourceRange::getCharRange(Begin.getLocWithOffset(-int(From - LineStart)),
                                         After.getLocWithOffset(int(LineEnd + 1 - To)));
  }
  // Another statement follows on the line: the blanks before it go too.
  if (LineEnd < Buffer.size() && Buffer[LineEnd] != '\n')
    return CharSourceRange::getCharRange(Begin, After.getLocWithOffset(int(LineEnd - To)));
  return CharSourceRange::getCharRange(Begin, After);
}

} // namespace warpcheck::analysis
