//===- SourceErrors.cpp - errors inside a kernel and its callees ----------===//

#include "warpcheck/analysis/SourceErrors.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

#include <deque>
#include <functional>
#include <set>

using namespace clang;

namespace warpcheck::analysis {

void continueAfterMissingHeaders(DiagnosticsEngine &Diags) {
  Diags.setSeverity(diag::err_pp_file_not_found, diag::Severity::Error, SourceLocation());
}

std::string shortLocation(const SourceManager &SM, SourceLocation Loc) {
  PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(Loc));
  if (P.isInvalid())
    return "";
  return llvm::sys::path::filename(P.getFilename()).str() + ":" + std::to_string(P.getLine()) +
         ":" + std::to_string(P.getColumn());
}

bool isDeviceSideLaunch(const RecoveryExpr *E) {
  // clang 19 refuses to call a __global__ function from device code (its
  // SemaCUDA: "Can't call global from some contexts until we support CUDA's
  // dynamic parallelism"), so the overload set of `child<128><<<g, b>>>(p, n)`
  // is left empty and only the callee's name and the arguments remain, with
  // "no matching function for call to 'child'". nvcc compiles it with
  // -rdc=true. Every candidate a kernel: nothing else can be meant.
  ArrayRef<Expr *> Subs = const_cast<RecoveryExpr *>(E)->subExpressions();
  const auto *Callee =
      Subs.empty() ? nullptr : dyn_cast<UnresolvedLookupExpr>(Subs.front()->IgnoreParens());
  if (!Callee || Callee->getNumDecls() == 0)
    return false;
  return llvm::all_of(Callee->decls(), [](const NamedDecl *D) {
    const auto *FD = dyn_cast<FunctionDecl>(D->getUnderlyingDecl());
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D->getUnderlyingDecl()))
      FD = FT->getTemplatedDecl();
    return FD && FD->hasAttr<CUDAGlobalAttr>();
  });
}

namespace {

/// Walks one function body: the first node error recovery built, and the
/// functions the body refers to.
class BodyWalker : public RecursiveASTVisitor<BodyWalker> {
public:
  BodyWalker(std::vector<const FunctionDecl *> &Callees,
             std::function<bool(const Decl *)> Accepted)
      : Callees(Callees), Accepted(std::move(Accepted)) {}

  // Implicit constructor and destructor calls are calls too.
  bool shouldVisitImplicitCode() const { return true; }

  bool VisitExpr(Expr *E) {
    // The uses of a declaration clang refused for an error nvcc does not
    // make (`init(&bar, n)`, `bar.arrive_and_wait()` of a `__shared__
    // cuda::barrier<...> bar`) are left with errors too, with no
    // diagnostic of their own: any other error in the body has one, which
    // firstErrorIn finds.
    if (E->containsErrors() && !AfterAcceptedDeclaration)
      return found(E->getExprLoc());
    return true;
  }
  // A kernel launched from device code is what clang 19 leaves of it
  // (isDeviceSideLaunch): accepted, its arguments walked as any expression.
  bool TraverseRecoveryExpr(RecoveryExpr *E) {
    if (!isDeviceSideLaunch(E))
      return RecursiveASTVisitor::TraverseRecoveryExpr(E);
    DeviceLaunches.push_back(E->getBeginLoc());
    for (Expr *Sub : E->subExpressions())
      if (!isa<UnresolvedLookupExpr>(Sub) && !TraverseStmt(Sub))
        return false;
    return true;
  }
  bool VisitDecl(Decl *D) {
    if (D->isInvalidDecl() && !Accepted(D))
      return found(D->getLocation());
    if (D->isInvalidDecl())
      AfterAcceptedDeclaration = true;
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    callee(CE->getDirectCallee());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    callee(CE->getConstructor());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    callee(dyn_cast<FunctionDecl>(DRE->getDecl()));
    return true;
  }
  bool VisitMemberExpr(MemberExpr *ME) {
    callee(dyn_cast<FunctionDecl>(ME->getMemberDecl()));
    return true;
  }

  std::optional<SourceLocation> Error;
  /// Where the body launches a kernel from device code.
  std::vector<SourceLocation> DeviceLaunches;

private:
  bool found(SourceLocation Loc) {
    Error = Loc;
    return false; // the first one is enough
  }
  void callee(const FunctionDecl *FD) {
    if (FD)
      Callees.push_back(FD);
  }
  std::vector<const FunctionDecl *> &Callees;
  /// An invalid declaration whose only error nvcc does not make.
  std::function<bool(const Decl *)> Accepted;
  /// The walk has passed such a declaration (it walks in source order).
  bool AfterAcceptedDeclaration = false;
};

} // namespace

/// Errors clang reports for device code nvcc compiles, which leave what
/// the analysis needs whole:
///  - a kernel launched from device code (dynamic parallelism; nvcc takes
///    it with -rdc=true, clang 19 not at all: the callee and its launch
///    configuration call are "references" it refuses); the launch from
///    device code is not followed;
///  - a __shared__ object with a constructor (`__shared__ cuda::barrier<...>
///    bar;`: nvcc warns that it does not initialise it, clang refuses and
///    marks the declaration invalid); the variable is still a __shared__
///    object of a known type.
static bool isNvccAcceptedDeviceError(llvm::StringRef Message) {
  return Message.starts_with("reference to __global__ function") ||
         Message.starts_with("reference to __host__ function '__cudaPushCallConfiguration'") ||
         Message.starts_with("initialization is not supported for __shared__ variables");
}

/// Why Kernel, an invalid declaration, does not compile. An instance of a
/// kernel template whose body clang dropped: clang 19 refuses a __shared__
/// object whose type has a constructor (nvcc only warns that it does not
/// initialise it) and, in an instance it does not emit for the device (one
/// launched from host code only), defers the diagnostic and never prints
/// it: the instance is left with no body and no message. The pattern's
/// first such object is named.
static KernelError invalidKernel(const FunctionDecl *Kernel) {
  const SourceManager &SM = Kernel->getASTContext().getSourceManager();
  KernelError Out{SM.getFileLoc(Kernel->getLocation()), Kernel,
                  "the kernel's declaration is invalid"};
  const FunctionDecl *Pattern = Kernel->getTemplateInstantiationPattern();
  if (Kernel->hasBody() || !Pattern || !Pattern->hasBody())
    return Out;
  Out.Message = "clang dropped the body of this instance of the template for an error it "
                "did not report";
  struct SharedObjects : RecursiveASTVisitor<SharedObjects> {
    const VarDecl *First = nullptr;
    bool VisitVarDecl(VarDecl *VD) {
      const CXXRecordDecl *RD = VD->getType()->getAsCXXRecordDecl();
      if (!First && VD->hasAttr<CUDASharedAttr>() && RD && RD->hasDefinition() &&
          !RD->hasTrivialDefaultConstructor())
        First = VD;
      return !First;
    }
  } Finder;
  Finder.TraverseStmt(Pattern->getBody());
  if (Finder.First) {
    Out.Loc = SM.getFileLoc(Finder.First->getLocation());
    Out.Message = "clang dropped the body of this instance of the template: it refuses the "
                  "__shared__ object '" + Finder.First->getNameAsString() +
                  "', whose type has a constructor (nvcc only warns that it does not "
                  "initialise it)";
  }
  return Out;
}

std::optional<KernelError> firstErrorIn(const FunctionDecl *Kernel,
                                        const std::vector<CompilerError> &Reported,
                                        std::vector<SourceLocation> *DroppedLaunches) {
  if (!Kernel)
    return std::nullopt;
  const SourceManager &SM = Kernel->getASTContext().getSourceManager();
  if (Kernel->isInvalidDecl())
    return invalidKernel(Kernel);
  // The compiler's message for an error at Loc, when it reported one there.
  auto MessageAt = [&](SourceLocation Loc, const std::string &Otherwise) {
    SourceLocation File = SM.getFileLoc(Loc);
    for (const CompilerError &E : Reported)
      if (SM.getFileLoc(E.Loc) == File)
        return E.Message;
    return Otherwise;
  };
  std::set<const FunctionDecl *> Seen;
  std::deque<const FunctionDecl *> Work{Kernel};
  while (!Work.empty()) {
    const FunctionDecl *FD = Work.front();
    Work.pop_front();
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def || !Seen.insert(Def->getCanonicalDecl()).second)
      continue;
    // CUDA's and the C++ library's own functions are not the user's code
    // (and CUB's would make the walk long).
    if (Def != Kernel && SM.isInSystemHeader(SM.getFileLoc(Def->getLocation())))
      continue;
    const Stmt *Body = Def->getBody();
    if (Def->isInvalidDecl())
      return KernelError{SM.getFileLoc(Def->getLocation()), Def,
                         MessageAt(Def->getLocation(), "its declaration is invalid")};
    std::vector<const FunctionDecl *> Callees;
    BodyWalker Walker(Callees, [&](const Decl *D) {
      SourceLocation At = SM.getFileLoc(D->getLocation());
      bool Any = false, AllAccepted = true;
      for (const CompilerError &E : Reported)
        if (SM.getFileLoc(E.Loc) == At) {
          Any = true;
          AllAccepted &= isNvccAcceptedDeviceError(E.Message);
        }
      return Any && AllAccepted;
    });
    Walker.TraverseStmt(const_cast<Stmt *>(Body));
    // A statement the parser dropped leaves only its diagnostic.
    SourceLocation Begin = SM.getFileLoc(Body->getBeginLoc());
    SourceLocation End = SM.getFileLoc(Body->getEndLoc());
    for (const CompilerError &E : Reported) {
      SourceLocation At = SM.getFileLoc(E.Loc);
      bool LaunchFromDevice =
          llvm::any_of(Walker.DeviceLaunches,
                       [&](SourceLocation L) { return SM.getFileLoc(L) == At; });
      if (!At.isValid() || !SM.isPointWithin(At, Begin, End) || LaunchFromDevice)
        continue;
      if (!isNvccAcceptedDeviceError(E.Message))
        return KernelError{At, Def, E.Message};
      // A non-template kernel launched from device code: clang drops the
      // statement, the launch configuration and the arguments with it.
      if (DroppedLaunches && llvm::StringRef(E.Message).starts_with("reference to __global__ function") &&
          llvm::find(*DroppedLaunches, At) == DroppedLaunches->end())
        DroppedLaunches->push_back(At);
    }
    if (Walker.Error)
      return KernelError{SM.getFileLoc(*Walker.Error), Def,
                         MessageAt(*Walker.Error, "an expression clang could not compile")};
    for (const FunctionDecl *C : Callees)
      Work.push_back(C);
  }
  return std::nullopt;
}

} // namespace warpcheck::analysis
