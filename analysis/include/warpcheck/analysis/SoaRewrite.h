//===- SoaRewrite.h - an array of structs rewritten as structure of arrays -===//
//
// The rewrite cuda-aos-layout offers as a fix-it: the kernel's pointer to
// an array of structs becomes a view holding one pointer per field
// (`struct ParticleSoA { float *x; float *y; };`, declared once in the
// unit), and every `p[i].f` becomes `p.f[i]` (`p->f`, `p.f[0]`), in the
// kernel and in the device functions it passes the pointer to, whose
// parameters change too. Lanes that were one struct apart are then one
// field apart: each field's accesses are as coalesced as the index is.
//
// The rewrite is planned only where it keeps the program's meaning: every
// use of the pointer is a field access of an element or a call passing it
// on, the struct's fields are scalars (one array each), and nothing else in
// the unit shares a declaration that changes (another declaration of the
// kernel or of a device function, another caller passing another pointer,
// a use of the kernel other than a launch). Otherwise the plan names the
// first use that prevents it. Launches are not rewritten: the host builds
// the view from arrays of its own, and the plan lists the launches.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_SOAREWRITE_H
#define WARPCHECK_ANALYSIS_SOAREWRITE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceLocation.h"

#include <map>
#include <string>
#include <vector>

namespace warpcheck::analysis {

/// Where the functions of a translation unit are named (calls, launches,
/// addresses taken), collected in one walk of the unit.
class FunctionReferences {
public:
  explicit FunctionReferences(clang::ASTContext &Ctx);
  /// The expressions naming F (any of its declarations), in the order of
  /// the walk.
  const std::vector<const clang::DeclRefExpr *> &of(const clang::FunctionDecl *F) const;

private:
  std::map<const clang::FunctionDecl *, std::vector<const clang::DeclRefExpr *>> Refs;
  std::vector<const clang::DeclRefExpr *> None;
};

/// One change of the source: Range replaced by Text (an insertion when
/// Range is empty).
struct SourceEdit {
  clang::CharSourceRange Range;
  std::string Text;
};

/// A launch of the kernel (`k<<<g, b>>>(args)`) and what it passes for the
/// rewritten parameter.
struct SoaLaunch {
  const clang::CUDAKernelCallExpr *Call = nullptr;
  const clang::Expr *Argument = nullptr;
};

struct SoaRewritePlan {
  /// The kernel's parameter, a pointer to Record.
  const clang::ParmVarDecl *Parameter = nullptr;
  const clang::RecordDecl *Record = nullptr;
  /// "ParticleSoA".
  std::string ViewName;
  /// The view's declaration ("struct ParticleSoA { float *x; };" and a
  /// newline) and the start of the line it is inserted at; empty when the
  /// unit declares that view already.
  std::string ViewDeclaration;
  clang::SourceLocation ViewLocation;
  /// The view's fields (the struct's), in order.
  std::vector<std::string> Fields;
  /// The device functions whose parameters change with the kernel's, in
  /// the order they are reached.
  std::vector<const clang::FunctionDecl *> DeviceFunctions;
  /// The parameters' types and the field accesses, without the view's
  /// declaration.
  std::vector<SourceEdit> Edits;
  /// The launches in the unit, in source order.
  std::vector<SoaLaunch> Launches;
  /// What prevents the rewrite ("'p[i]' is used as a whole value") and
  /// where; empty when it is offered.
  std::string Blocker;
  clang::SourceLocation BlockerLocation;

  bool offered() const { return Blocker.empty(); }
};

/// The kernel parameter that the global access Access (a field of an
/// element of an array of structs) reaches its element through: directly,
/// through a pointer or reference initialised from it, or through the
/// parameter of a device function the kernel passes it to. Null when the
/// element comes through anything else (a struct's member, a global).
const clang::ParmVarDecl *soaRewriteRoot(const clang::FunctionDecl *Kernel,
                                         const clang::Expr *Access,
                                         clang::ASTContext &Ctx);

/// The rewrite of Kernel's parameter Param (a pointer to a struct) as a
/// structure-of-arrays view, or what prevents it.
SoaRewritePlan planSoaRewrite(const clang::FunctionDecl *Kernel, const clang::ParmVarDecl *Param,
                              const FunctionReferences &Refs, clang::ASTContext &Ctx);

} // namespace warpcheck::analysis

#endif
