//===--- MissedDataReuseCheck.cpp - clang-tidy ----------------------------===//

#include "MissedDataReuseCheck.h"
#include "CudaCheckSupport.h"

#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/model/Roofline.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>
#include <cmath>

using namespace warpcheck::analysis;

namespace clang::tidy::cuda {

namespace {

/// A T x T tile of threads is at most a block's 1024; a 1-D block stages
/// at most its 1024 threads' elements.
constexpr unsigned MaxTileSize = 32;
constexpr unsigned MaxFlatTile = 1024;

bool isLoop(const Stmt *S) {
  return isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CXXForRangeStmt>(S);
}

/// The innermost loop around E in the function E is written in; null when
/// none.
const Stmt *enclosingLoop(const Expr *E, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*E);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *S = P.get<Stmt>()) {
      if (isLoop(S))
        return S;
      Parents = Ctx.getParents(*S);
      continue;
    }
    // A declaration's initialiser: go on above the declaration, up to the
    // function (a lambda or a function ends the search).
    if (const auto *D = P.get<Decl>()) {
      if (isa<FunctionDecl>(D))
        return nullptr;
      Parents = Ctx.getParents(*D);
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

bool isWithin(const Stmt *Inner, const Stmt *Outer, const SourceManager &SM) {
  SourceRange R = Outer->getSourceRange();
  SourceLocation L = SM.getFileLoc(Inner->getBeginLoc());
  return SM.isPointWithin(L, SM.getFileLoc(R.getBegin()), SM.getFileLoc(R.getEnd()));
}

/// The loop's variable ('k' of `for (int k = 0; ...)`), or empty.
std::string loopVariable(const Stmt *Loop) {
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()))
      if (DS->isSingleDecl())
        if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl()))
          return VD->getNameAsString();
  return "";
}

/// The array a subscript reads ('A' of 'A[row * n + k]'), or the
/// expression.
std::string arrayName(const Expr *E, ASTContext &Ctx) {
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts()))
    return sourceText(AS->getBase()->IgnoreParenImpCasts(), Ctx);
  return sourceText(E, Ctx);
}

/// "a" or "an" before a number as it is read: an 8, an 11, an 18, an 80.
std::string articleFor(const std::string &Number) {
  bool Vowel = !Number.empty() &&
               (Number[0] == '8' || Number == "11" || Number == "18" ||
                (Number.size() == 4 && Number.rfind("11", 0) == 0) ||
                (Number.size() == 4 && Number.rfind("18", 0) == 0));
  return Vowel ? "an" : "a";
}

std::string formatIntensity(double V) {
  return V >= 10 ? formatCount(std::round(V * 10) / 10) : formatCount(V);
}

} // namespace

MissedDataReuseCheck::MissedDataReuseCheck(StringRef Name, ClangTidyContext *Context,
                                           std::shared_ptr<CheckSessions> Sessions)
    : CudaKernelCheck(Name, Context, std::move(Sessions)),
      MinReuse(Options.get("MinReuse", 4U)), TileSize(Options.get("TileSize", 0U)) {
  if (MinReuse < 2)
    configurationDiag("%0: MinReuse %1 is below 2 (an element read by one thread of a block "
                      "has no reuse to stage)")
        << Name << MinReuse;
  if (TileSize == 1 || TileSize > MaxTileSize)
    configurationDiag("%0: TileSize %1 is not 0 (the reuse of each load) or 2 to %2 (a T x T "
                      "tile of threads fits a block of 1024)")
        << Name << TileSize << MaxTileSize;
}

void MissedDataReuseCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MinReuse", MinReuse);
  Options.store(Opts, "TileSize", TileSize);
  CudaKernelCheck::storeOptions(Opts);
}

void MissedDataReuseCheck::checkKernel(const FunctionDecl *Kernel, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  unsigned Minimum = std::max(2u, MinReuse);
  const auto &Launches = unitSession()->analyze(Kernel, analysisOptions(Ctx));
  for (const KernelLaunchAnalysis &Launch : Launches) {
    // The tile each reused load would get: the threads that read each of
    // its elements (or TileSize, if fewer).
    bool Flat = Launch.Launch.Block.Y == 1 && Launch.Launch.Block.Z == 1;
    auto TileOf = [&](const AccessResult &A) -> unsigned {
      unsigned Reuse = static_cast<unsigned>(std::floor(A.FirstBlockReuse + 1e-9));
      // A T x T tile of threads fits a block of 1024; a run of T elements
      // is loaded by T threads of a 1-D block.
      unsigned T = std::min(Reuse, Flat ? MaxFlatTile : MaxTileSize);
      if (TileSize >= 2 && TileSize <= MaxTileSize)
        T = std::min(T, TileSize);
      return T;
    };
    // A load whose address the loop does not change (each thread reads one
    // element: `j < rowStart[row + 1]`, an initialiser) is read once and
    // kept in a register by the compiler: no traffic a tile would save.
    // Nor has a load whose block's requests fetch each sector once: the
    // lanes of a warp that read one element are one request (a warp-uniform
    // `items[i]` in a block of one warp, striding past each sector), so its
    // threads' reuse costs no traffic.
    auto Reported = [&](const AccessResult &A) {
      return A.Site.Space == MemorySpace::Global && A.Site.Op == AccessOp::Load &&
             A.Status != AccessStatus::Unknown && A.FirstBlockReuse + 1e-9 >= Minimum &&
             A.FirstBlockElementsPerThread > 1.5 && A.FirstBlockSectorFetches > 1 + 1e-9 &&
             TileOf(A) >= 2;
    };
    for (const AccessResult &A : Launch.Accesses) {
      if (!Reported(A))
        continue;
      const Stmt *Loop = enclosingLoop(A.Site.Expr, Ctx);
      if (!Loop)
        continue;
      unsigned Tile = TileOf(A);
      // The loop's global bytes per simulated lane-iteration: the loads
      // reported here shrink by their tile, the other accesses do not.
      double Before = 0, After = 0;
      for (const AccessResult &B : Launch.Accesses) {
        if (B.Site.Space != MemorySpace::Global || !isWithin(B.Site.Expr, Loop, SM))
          continue;
        double Bytes = B.LaneAccesses * B.Site.BytesPerLane;
        Before += Bytes;
        After += Reported(B) && enclosingLoop(B.Site.Expr, Ctx) == Loop ? Bytes / TileOf(B)
                                                                          : Bytes;
      }
      auto Flops = Launch.LoopFlops.find(Loop);
      double LoopFlops = Flops == Launch.LoopFlops.end() ? 0 : Flops->second;
      std::string Gain;
      if (LoopFlops > 0 && Before > 0 && After > 0)
        Gain = " and raising the loop's arithmetic intensity from " +
               formatIntensity(warpcheck::model::arithmeticIntensity(LoopFlops, Before)) +
               " to " + formatIntensity(warpcheck::model::arithmeticIntensity(LoopFlops, After)) +
               " FLOP/byte";
      std::string Reuse = formatCount(A.FirstBlockReuse);
      SourceLocation Loc = A.Site.Expr->getBeginLoc();
      std::string T = std::to_string(Tile);
      // A 1-D block stages a run of T elements; a 2-D one a T x T tile.
      std::string TileShape =
          articleFor(T) + " " + T + (Flat ? "-element" : " x " + T);
      diag(Loc, "global load '%0' in a loop reads each element for %1 threads of a block; "
                "staging it through %2 shared-memory tile would read it once per tile, "
                "cutting its global traffic by a factor of %3%4 %5")
          << sourceText(A.Site.Expr, Ctx) << Reuse << TileShape << Tile << Gain
          << launchClause(Kernel, Launch.Launch, Ctx);
      std::string Var = loopVariable(Loop);
      std::string Along = Var.empty() ? "the loop" : "'" + Var + "'";
      QualType Element = A.Site.Expr->getType().getUnqualifiedType();
      std::string Array = arrayName(A.Site.Expr, Ctx);
      std::string Declared = Flat ? "tile[" + T + "]" : "tile[" + T + "][" + T + "]";
      std::string Slot = Flat ? "tile[threadIdx.x]" : "tile[threadIdx.y][threadIdx.x]";
      std::string Loaders =
          Flat ? T + " threads" : "every thread of " + articleFor(T) + " " + T + " x " + T + " block";
      diag(Loc, "tiled: declare '__shared__ %0 %1;', step %2 by %3, and at each step let %4 "
                "load one element ('%5 = %6[...]'), '__syncthreads()', run the %3 iterations "
                "of the step on 'tile' instead of '%6', then '__syncthreads()' before the next "
                "step",
           DiagnosticIDs::Note)
          << Element.getAsString(Ctx.getPrintingPolicy()) << Declared << Along << T << Loaders
          << Slot << Array;
      for (const Assumption &Assumed : A.Assumptions)
        diag(Loc, "assumed: %0", DiagnosticIDs::Note) << Assumed.Text;
    }
  }
}

} // namespace clang::tidy::cuda
