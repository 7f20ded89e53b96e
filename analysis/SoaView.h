//===- SoaView.h - the structure-of-arrays view of a struct ----*- C++ -*-===//
//
// The struct the structure-of-arrays rewrite (SoaRewrite.h) declares for a
// struct: `struct ParticleSoA { float *x; float *y; };`, one pointer per
// field, and where in the unit it goes. Private to the analysis.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_SOAVIEW_H
#define WARPCHECK_ANALYSIS_SOAVIEW_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include <optional>
#include <string>
#include <vector>

namespace warpcheck::analysis {

/// What prevents the rewrite, and where.
struct SoaBlocker {
  std::string Why;
  clang::SourceLocation Where;
};

/// The name the view is named after: the struct's, or the typedef's of an
/// anonymous struct; empty when it has none.
std::string soaRecordName(const clang::RecordDecl *RD);

/// One array of the view: a scalar field of the struct, or of a struct
/// nested in it (`pos.x` of `struct Body { Vec3 pos; }`, named `pos_x`:
/// a nested struct stays an array of structs unless it is flattened too).
struct SoaLeaf {
  /// The fields from the struct down to the scalar, outermost first.
  std::vector<const clang::FieldDecl *> Path;
  /// The view's field: the path's names joined by '_'.
  std::string Name;
};

/// The scalar fields of RD, nested structs flattened, in declaration order.
/// Empty when a field is not a scalar or a plain nested struct (see
/// soaRecordProblem).
std::vector<SoaLeaf> soaLeaves(const clang::RecordDecl *RD);

/// Why RD cannot have a view of one array per scalar field (a union, a
/// template instance, base classes, a field that is an array or a bit-field,
/// two fields whose flattened names meet); nothing when it can, with the
/// names of the view's fields in Fields.
std::optional<SoaBlocker> soaRecordProblem(const clang::RecordDecl *RD,
                                           std::vector<std::string> &Fields);

struct SoaViewPlace {
  /// Where the view is declared: a declaration the unit has already, or
  /// the start of the line Declaration is inserted at.
  clang::SourceLocation Declared;
  /// Empty when the unit declares the view already.
  std::string Declaration;
  std::optional<SoaBlocker> Blocker;
};

/// The view named ViewName of RD for a rewrite of Kernel: the one the unit
/// declares in RD's scope with exactly the view's fields, else a new
/// declaration on the line after RD's when Kernel's file declares RD, else
/// before the first declaration of Kernel's file that follows RD.
SoaViewPlace placeSoaView(const clang::RecordDecl *RD, llvm::StringRef ViewName,
                          const clang::FunctionDecl *Kernel, clang::ASTContext &Ctx);

/// A location a fix-it may edit: in a file, not in a macro expansion, not
/// in a system header.
bool soaEditable(clang::SourceLocation Loc, const clang::SourceManager &SM);

/// "file.cu:12", for messages.
std::string soaPlace(clang::SourceLocation Loc, const clang::SourceManager &SM);

/// The expression's text for a message, on one line, shortened past 48
/// characters.
std::string soaShortText(const clang::Expr *E, const clang::ASTContext &Ctx);

// A reference or pointer bound to one element (`Body &me = p[i];`,
// `Body *q = &p[i];`) is rewritten by writing the element's pointer and
// index at each use (`me.f` -> `p.f[i]`) and removing the declaration
// (SoaAliases.cpp): the index must mean the same at every use.

/// Why Index may mean something else at a use in Scope than where the
/// reference was bound: a side effect aside, it reads memory (another
/// thread or a store of this one may change it), a variable that is not
/// local, or one that Scope changes (clang's ExprMutationAnalyzer; a loop's
/// own increment is outside its body). nullopt when none can.
std::optional<std::string> soaIndexChanges(const clang::Expr *Index,
                                           const clang::CompoundStmt &Scope,
                                           clang::ASTContext &Ctx);

/// A variable Element names (its pointer, its index's variables) that
/// Scope declares again, where its copied text would mean another one.
std::optional<std::string> soaRedeclaredName(const clang::ArraySubscriptExpr *Element,
                                             const clang::CompoundStmt &Scope,
                                             clang::ASTContext &Ctx);

/// The characters of a statement from Begin to the end of the token at
/// End, to be removed: when it is alone on its line, up to the next line's
/// first character (the statement's indentation then stands for that
/// line's, and no blank is left beside a blank, which clang's fix-it
/// editing would remove one more character for); when another statement
/// follows on the line, with the blanks before it.
clang::CharSourceRange soaStatementRemoval(clang::SourceLocation Begin,
                                           clang::SourceLocation End,
                                           const clang::SourceManager &SM,
                                           const clang::LangOptions &LO);

} // namespace warpcheck::analysis

#endif
