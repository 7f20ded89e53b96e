//===- SharedArrayPadding.cpp - the padding that removes a bank conflict --===//

#include "warpcheck/analysis/SharedArrayPadding.h"
#include "warpcheck/analysis/KernelResources.h"
#include "warpcheck/analysis/TranslationUnitSession.h"

#include "CudaAtomics.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <map>

using namespace clang;

namespace warpcheck::analysis {

// Only the function that declares the array is walked (a __shared__ array
// declared in a kernel is visible nowhere else), or the main file's
// declarations for one at namespace scope, and the parents of each use come
// from the walk itself: asking the ASTContext for parents would build a
// parent map of the whole translation unit, CUDA headers included, which
// costs as much as a third of the parse.
std::string layoutDependentUse(const VarDecl *Var, ASTContext &Ctx, unsigned Rank) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *Var;
    ASTContext &Ctx;
    unsigned Rank;
    std::string Why;
    /// The statements from the root of the walk to the one being visited.
    std::vector<const Stmt *> Path;
    Finder(const VarDecl *V, ASTContext &C, unsigned R) : Var(V), Ctx(C), Rank(R) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool TraverseDecl(Decl *D) {
      const SourceManager &SM = Ctx.getSourceManager();
      if (D && !isa<TranslationUnitDecl>(D) && !isa<NamespaceDecl>(D) &&
          !isa<LinkageSpecDecl>(D) && SM.isInSystemHeader(SM.getFileLoc(D->getLocation())))
        return true;
      return RecursiveASTVisitor::TraverseDecl(D);
    }
    // Without the queue argument the walk recurses, so Path is exact.
    bool TraverseStmt(Stmt *S) {
      if (!S)
        return true;
      Path.push_back(S);
      bool Continue = RecursiveASTVisitor::TraverseStmt(S);
      Path.pop_back();
      return Continue;
    }
    /// Whether the full subscript Element (on Path) has its address taken
    /// for anything but the first argument of an atomic function.
    bool addressTakenOtherThanForAtomic(const Expr *Element) const {
      size_t I = Path.size();
      while (I > 0 && Path[I - 1] != Element)
        --I;
      if (I == 0)
        return false;
      --I; // Path[I] is Element; what holds it, through parentheses:
      while (I > 0 && isa<ParenExpr>(Path[I - 1]))
        --I;
      if (I == 0)
        return false;
      const auto *UO = dyn_cast<UnaryOperator>(Path[I - 1]);
      if (!UO || UO->getOpcode() != UO_AddrOf)
        return false;
      size_t J = I - 1;
      while (J > 0 && (isa<ParenExpr>(Path[J - 1]) || isa<ImplicitCastExpr>(Path[J - 1])))
        --J;
      if (J > 0)
        if (const auto *Call = dyn_cast<CallExpr>(Path[J - 1]))
          if (isAtomicCall(Call) && Call->getNumArgs() > 0 &&
              Call->getArg(0)->IgnoreParenImpCasts() == UO)
            return false;
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (DRE->getDecl() != Var || !Why.empty())
        return true;
      // Walk up through the decay and the subscripts.
      const Expr *Cur = DRE;
      unsigned Depth = 0;
      for (size_t I = Path.size() - 1; I-- > 0;) {
        const Expr *P = dyn_cast<Expr>(Path[I]);
        if (!P)
          break;
        if (const auto *ICE = dyn_cast<ImplicitCastExpr>(P);
            ICE && ICE->getCastKind() == CK_ArrayToPointerDecay) {
          Cur = P;
          continue;
        }
        if (const auto *AS = dyn_cast<ArraySubscriptExpr>(P);
            AS && AS->getBase()->IgnoreParenImpCasts() == Cur->IgnoreParenImpCasts()) {
          ++Depth;
          Cur = P;
          continue;
        }
        if (isa<ParenExpr>(P)) {
          Cur = P;
          continue;
        }
        break;
      }
      PresumedLoc PL = Ctx.getSourceManager().getPresumedLoc(
          Ctx.getSourceManager().getFileLoc(DRE->getBeginLoc()));
      std::string Line = std::to_string(PL.isValid() ? PL.getLine() : 0);
      if (Depth != Rank) {
        Why = "'" + Var->getNameAsString() + "' is used at line " + Line +
              " other than as a full subscript (sizeof, a pointer into it, or a "
              "partial index), which a padded row would change";
        return true;
      }
      // `&a[i][j]`: a pointer that may walk on into the next row, which a
      // padded row moves. Only an atomic's address (one element) is safe.
      if (addressTakenOtherThanForAtomic(Cur))
        Why = "the address of an element of '" + Var->getNameAsString() +
              "' is taken at line " + Line +
              " (a pointer walking on from it would see the padding)";
      return true;
    }
  } F(Var, Ctx, Rank);
  if (const auto *FD = dyn_cast<FunctionDecl>(Var->getDeclContext()))
    F.TraverseDecl(const_cast<FunctionDecl *>(FD));
  else
    F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return F.Why;
}

std::optional<ArrayLayout> arrayLayoutOf(QualType T, ASTContext &Ctx) {
  ArrayLayout L;
  while (const auto *CA = Ctx.getAsConstantArrayType(T)) {
    L.Dims.push_back(CA->getSize().getZExtValue());
    T = CA->getElementType();
  }
  if (L.Dims.empty() || T->isIncompleteType() || T->isDependentType())
    return std::nullopt;
  L.ElementBytes = Ctx.getTypeSizeInChars(T).getQuantity();
  return L;
}

std::uint64_t rowsOf(const ArrayLayout &L) {
  std::uint64_t Rows = 1;
  for (size_t K = 0; K + 1 < L.Dims.size(); ++K)
    Rows *= L.Dims[K];
  return Rows;
}

std::uint64_t arrayBytes(const ArrayLayout &L) {
  return rowsOf(L) * L.Dims.back() * L.ElementBytes;
}

namespace {

/// Whether every access to Q.Var under Padded needs at most the wavefronts
/// it needed before, and Q.Conflict no more than its ideal. Again: the
/// launches simulated with the padded layout, in the order of *Q.Launches.
bool paddingHelps(const PaddingQuestion &Q, const std::vector<KernelLaunchAnalysis> &Again) {
  const std::vector<KernelLaunchAnalysis> &Launches = *Q.Launches;
  for (size_t L = 0; L < Launches.size(); ++L) {
    for (const AccessResult &Before : Launches[L].Accesses) {
      if (Before.Site.SharedVar != Q.Var)
        continue;
      const AccessResult *After = nullptr;
      for (const AccessResult &X : Again[L].Accesses)
        if (X.Site.Expr == Before.Site.Expr && X.Site.Op == Before.Site.Op)
          After = &X;
      if (!After ||
          After->Cost.WavefrontsPerRequest > Before.Cost.WavefrontsPerRequest + 1e-9)
        return false;
      if (L == Q.LaunchIndex && Before.Site.Expr == Q.Conflict->Site.Expr &&
          Before.Site.Op == Q.Conflict->Site.Op &&
          After->Cost.WavefrontsPerRequest > After->Cost.IdealWavefrontsPerRequest + 1e-9)
        return false;
    }
  }
  return true;
}

} // namespace

PaddingAnswer findConflictFreePadding(TranslationUnitSession &Session,
                                      const PaddingQuestion &Q) {
  PaddingAnswer Answer;
  // Static __shared__ memory is capped per kernel (48 KB on every
  // architecture since sm_20; ptxas: "uses too much shared data"): a
  // padding past the cap would not compile.
  std::uint64_t StaticBytes = staticSharedMemory(Q.Kernel, Session.context()).Bytes;
  for (unsigned Pad = 1; Pad <= Q.MaxPadding; ++Pad) {
    std::uint64_t Added = rowsOf(Q.Layout) * Pad * Q.Layout.ElementBytes;
    if (Q.Arch && Q.Arch->MaxStaticSharedPerBlock &&
        StaticBytes + Added > Q.Arch->MaxStaticSharedPerBlock) {
      Answer.WhyNone = "padding '" + Q.Var->getNameAsString() + "' by " + std::to_string(Pad) +
                       (Pad == 1 ? " element" : " elements") +
                       " per row would take the kernel's static shared memory to " +
                       std::to_string(StaticBytes + Added) + " bytes, over the " +
                       std::to_string(Q.Arch->MaxStaticSharedPerBlock) + "-byte limit of " +
                       Q.Arch->Name;
      return Answer;
    }
    std::map<const VarDecl *, ArrayLayout> Overrides;
    ArrayLayout Padded = Q.Layout;
    Padded.Dims.back() += Pad;
    Overrides[Q.Var] = Padded;
    AnalysisOptions Trial = Q.Options;
    Trial.LayoutOverrides = &Overrides;
    std::vector<KernelLaunchAnalysis> Again = Session.analyzeUncached(Q.Kernel, Trial);
    if (Again.size() != Q.Launches->size())
      break;
    if (paddingHelps(Q, Again)) {
      Answer.Elements = Pad;
      Answer.AddedBytes = Added;
      return Answer;
    }
  }
  Answer.WhyNone = "no padding of up to " + std::to_string(Q.MaxPadding) +
                   " elements removes the conflict without making another access worse";
  return Answer;
}

} // namespace warpcheck::analysis
