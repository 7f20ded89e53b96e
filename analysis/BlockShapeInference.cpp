//===- BlockShapeInference.cpp - the block a kernel's own code expects ----===//
//
// Evidence, strongest first: blockDim compared with a constant (the kernel
// refuses other shapes, or asserts); a __shared__ array dimension indexed by
// exactly threadIdx.<axis> (each thread of the axis owns one element, so the
// axis is as wide as the dimension); and the mere reading of threadIdx.y or
// threadIdx.z, which makes the kernel at least two-dimensional.
//
//===----------------------------------------------------------------------===//

#include "BlockShapeInference.h"
#include "CudaBuiltinVariables.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

using namespace clang;

namespace warpcheck::analysis {
namespace {

constexpr const char *AxisName[3] = {"x", "y", "z"};

std::string locationOf(SourceLocation Loc, const SourceManager &SM) {
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (P.isInvalid())
    return "";
  return llvm::sys::path::filename(P.getFilename()).str() + ":" + std::to_string(P.getLine());
}

class EvidenceCollector : public RecursiveASTVisitor<EvidenceCollector> {
public:
  EvidenceCollector(BlockShapeEvidence &Out, ASTContext &Ctx, unsigned MaxThreadsPerBlock)
      : Out(Out), Ctx(Ctx), MaxThreads(MaxThreadsPerBlock) {}

  void collect(const FunctionDecl *FD, unsigned Depth) {
    // Device functions the kernel calls, a few levels deep: helpers that
    // index the kernel's shared arrays or read threadIdx.y.
    if (!FD || Depth > 3 || !FD->hasBody() || !Visited.insert(FD).second)
      return;
    const Stmt *Body = FD->getBody();
    ExprMutationAnalyzer Mutations(*Body, Ctx);
    Frames.push_back({&Mutations, Depth, {}, {{false, false, false}}});
    TraverseStmt(const_cast<Stmt *>(Body));
    // Every unguarded thread of the axis writes or reads its own element,
    // so the block is at most as wide as the smallest such dimension;
    // unless the function returns early for some threads of that axis.
    for (const auto &X : Frames.back().Extents) {
      if (Frames.back().EarlyExit[X.Axis])
        continue;
      auto &Slot = Out.SharedExtent[X.Axis];
      if (!Slot || X.Extent < *Slot) {
        Slot = X.Extent;
        Out.SharedArray[X.Axis] = X.Array;
      }
    }
    Frames.pop_back();
  }

  /// The branches of an if or ?: whose condition orders threadIdx.<axis>
  /// (`threadIdx.x < 32`) run for part of the axis only.
  bool TraverseIfStmt(IfStmt *S) {
    std::array<bool, 3> Axes = orderedAxes(S->getCond());
    if (!Frames.empty() && endsFlow(S->getThen()))
      for (unsigned A = 0; A < 3; ++A)
        Frames.back().EarlyExit[A] |= Axes[A];
    return traverseGuarded(Axes, [&] { return RecursiveASTVisitor::TraverseIfStmt(S); });
  }
  bool TraverseConditionalOperator(ConditionalOperator *S) {
    return traverseGuarded(orderedAxes(S->getCond()),
                           [&] { return RecursiveASTVisitor::TraverseConditionalOperator(S); });
  }

  bool VisitMSPropertyRefExpr(MSPropertyRefExpr *E) {
    // Through the pseudo-object's syntactic form; `threadIdx.x` with its
    // parentheses stripped is this node.
    if (auto R = builtinRead(E))
      if (R->Var == "threadIdx" || R->Var == "blockDim")
        Out.ReadsAxis[R->Axis] = true;
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE)
      return true;
    for (auto [Dim, Other] : {std::pair(BO->getLHS(), BO->getRHS()),
                              std::pair(BO->getRHS(), BO->getLHS())}) {
      auto R = builtinRead(Dim);
      Expr::EvalResult V;
      if (!R || R->Var != "blockDim" || Other->isValueDependent() ||
          !Other->EvaluateAsInt(V, Ctx) || !V.Val.isInt())
        continue;
      std::int64_t N = V.Val.getInt().getExtValue();
      if (N <= 0 || N > MaxThreads)
        continue;
      auto &Slot = Out.Compared[R->Axis];
      if (Slot && *Slot != N) {
        Conflicting[R->Axis] = true;
        continue;
      }
      Slot = static_cast<std::uint32_t>(N);
      if (Out.ComparedWhere[R->Axis].empty())
        Out.ComparedWhere[R->Axis] = "'blockDim." + std::string(AxisName[R->Axis]) +
                                     (BO->getOpcode() == BO_EQ ? " == " : " != ") +
                                     std::to_string(N) + "' at " +
                                     locationOf(BO->getOperatorLoc(), Ctx.getSourceManager());
    }
    return true;
  }

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *ASE) {
    auto Axis = threadAxisOf(ASE->getIdx());
    if (!Axis)
      return true;
    // The dimension this subscript selects: count the subscripts below it.
    unsigned Level = 0;
    const Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
    while (const auto *Inner = dyn_cast<ArraySubscriptExpr>(Base)) {
      ++Level;
      Base = Inner->getBase()->IgnoreParenImpCasts();
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(Base);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V || !V->hasAttr<CUDASharedAttr>())
      return true;
    QualType T = V->getType();
    for (unsigned I = 0;; ++I) {
      const auto *CAT = Ctx.getAsConstantArrayType(T);
      if (!CAT)
        return true;
      if (I == Level) {
        std::uint64_t Extent = CAT->getSize().getZExtValue();
        // `tile[16][17]`: one column of padding against bank conflicts
        // (the usual transpose layout); the threads fill the 16.
        if (Extent > 2 && llvm::isPowerOf2_64(Extent - 1))
          --Extent;
        // Under `if (threadIdx.x < 32)` the array need only hold the
        // guarded threads (a reduction's per-warp scratch): no evidence.
        if (Guarded[*Axis] || Extent < 1 || Extent > MaxThreads)
          return true;
        Frames.back().Extents.push_back({*Axis, static_cast<std::uint32_t>(Extent),
                                         V->getName().str()});
        return true;
      }
      T = CAT->getElementType();
    }
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (const FunctionDecl *Callee = CE->getDirectCallee())
      if (!Frames.empty() && !Callee->getBuiltinID())
        Pending.push_back({Callee, Frames.back().Depth + 1});
    return true;
  }

  void finish() {
    while (!Pending.empty()) {
      auto [FD, Depth] = Pending.back();
      Pending.pop_back();
      collect(FD, Depth);
    }
    for (unsigned A = 0; A < 3; ++A)
      if (Conflicting[A]) {
        Out.Compared[A].reset();
        Out.ComparedWhere[A].clear();
      }
  }

private:
  /// The axis when E is threadIdx.<axis>, or a local initialised with it and
  /// never written afterwards (`int tx = threadIdx.x;`).
  std::optional<unsigned> threadAxisOf(const Expr *E) {
    if (auto R = builtinRead(E))
      return R->Var == "threadIdx" ? std::optional<unsigned>(R->Axis) : std::nullopt;
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V || !V->isLocalVarDecl() || !V->getInit() || Frames.empty())
      return std::nullopt;
    auto R = builtinRead(V->getInit());
    if (!R || R->Var != "threadIdx" || Frames.back().Mutations->isMutated(V))
      return std::nullopt;
    return R->Axis;
  }

  template <class Traverse>
  bool traverseGuarded(const std::array<bool, 3> &Axes, Traverse T) {
    for (unsigned A = 0; A < 3; ++A)
      Guarded[A] += Axes[A];
    bool Result = T();
    for (unsigned A = 0; A < 3; ++A)
      Guarded[A] -= Axes[A];
    return Result;
  }

  /// The axes of threadIdx (or a local holding it) that Cond orders with
  /// <, <=, > or >=.
  std::array<bool, 3> orderedAxes(const Expr *Cond) {
    std::array<bool, 3> Axes{{false, false, false}};
    if (!Cond)
      return Axes;
    llvm::SmallVector<const Stmt *, 16> Work{Cond};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      if (const auto *BO = dyn_cast<BinaryOperator>(S))
        if (BO->isRelationalOp())
          for (const Expr *Side : {BO->getLHS(), BO->getRHS()})
            if (auto A = threadAxisOf(Side))
              Axes[*A] = true;
      for (const Stmt *Child : S->children())
        Work.push_back(Child);
    }
    return Axes;
  }

  static bool endsFlow(const Stmt *S) {
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
      S = CS->body_empty() ? nullptr : CS->body_back();
    return S && (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S));
  }

  struct IndexedExtent {
    unsigned Axis;
    std::uint32_t Extent;
    std::string Array;
  };
  struct Frame {
    ExprMutationAnalyzer *Mutations;
    unsigned Depth;
    std::vector<IndexedExtent> Extents;
    std::array<bool, 3> EarlyExit;
  };
  std::array<unsigned, 3> Guarded{{0, 0, 0}};
  BlockShapeEvidence &Out;
  ASTContext &Ctx;
  /// The architecture's threads per block: a larger extent or comparison
  /// is no block.
  std::int64_t MaxThreads;
  std::vector<Frame> Frames;
  std::vector<std::pair<const FunctionDecl *, unsigned>> Pending;
  std::set<const FunctionDecl *> Visited;
  std::array<bool, 3> Conflicting{{false, false, false}};
};

/// Splits Threads (rounded down to a power of two) over the axes in Open,
/// x first taking the larger share: 256 over x, y is (16, 16); over x, y, z
/// it is (8, 8, 4).
void splitThreads(std::uint64_t Threads, const std::array<bool, 3> &Open,
                  std::array<std::uint32_t, 3> &Shape) {
  unsigned Exponent = Threads ? llvm::Log2_64(Threads) : 0;
  unsigned Left = Open[0] + Open[1] + Open[2];
  for (unsigned A = 0; A < 3; ++A) {
    if (!Open[A])
      continue;
    unsigned Share = (Exponent + Left - 1) / Left;
    Shape[A] = 1u << Share;
    Exponent -= Share;
    --Left;
  }
}

} // namespace

BlockShapeEvidence collectBlockShapeEvidence(const FunctionDecl *Kernel, ASTContext &Ctx,
                                             unsigned MaxThreadsPerBlock) {
  BlockShapeEvidence Out;
  EvidenceCollector Collector(Out, Ctx, MaxThreadsPerBlock);
  Collector.collect(Kernel, 0);
  Collector.finish();
  return Out;
}

void addLaunchedExtents(BlockShapeEvidence &Evidence, const LaunchedExtents &Launched) {
  static const char *const Axis[3] = {"x", "y", "z"};
  for (unsigned A = 0; A < 3; ++A) {
    // An extent of 1 along an axis the kernel never reads is only dim3's
    // default (`<<<g, n>>>` with n unknown is dim3(n, 1, 1)): no evidence.
    if (!Launched.Extent[A] || Evidence.Compared[A] ||
        (*Launched.Extent[A] == 1 && !Evidence.ReadsAxis[A]))
      continue;
    Evidence.Compared[A] = Launched.Extent[A];
    Evidence.ComparedWhere[A] = "blockDim." + std::string(Axis[A]) + " = " +
                                std::to_string(*Launched.Extent[A]) + " at the launch at " +
                                Launched.Where[A];
  }
}

std::optional<LaunchConfig> inferLaunchFromKernel(const BlockShapeEvidence &E,
                                                  std::optional<std::uint32_t> MaxThreads,
                                                  const LaunchDefaults &Defaults,
                                                  std::uint32_t MaxThreadsPerBlock) {
  bool MultiDimensional = E.ReadsAxis[1] || E.ReadsAxis[2];
  bool AnyCompared = E.Compared[0] || E.Compared[1] || E.Compared[2];
  // A one-dimensional kernel with nothing but __launch_bounds__, or a user
  // who configured a multi-dimensional default block: what stood before.
  bool UserShapedDefault = Defaults.Block.Y > 1 || Defaults.Block.Z > 1;
  if (!MultiDimensional && !AnyCompared && (MaxThreads || !E.SharedExtent[0]))
    return std::nullopt;
  if (UserShapedDefault && !AnyCompared && !E.SharedExtent[0] && !E.SharedExtent[1] &&
      !E.SharedExtent[2])
    return std::nullopt;

  std::array<std::uint32_t, 3> Shape{{1, 1, 1}};
  std::array<bool, 3> Open{{false, false, false}};
  std::vector<std::string> Reasons;
  auto Known = [&](bool WithShared) {
    std::uint64_t Product = 1;
    for (unsigned A = 0; A < 3; ++A) {
      Open[A] = false;
      Shape[A] = 1;
      if (E.Compared[A])
        Shape[A] = *E.Compared[A];
      else if (WithShared && E.SharedExtent[A] && (A == 0 || E.ReadsAxis[A]))
        Shape[A] = *E.SharedExtent[A];
      else if (E.ReadsAxis[A])
        Open[A] = true;
      Product *= Shape[A];
    }
    return Product;
  };
  std::uint64_t Product = Known(/*WithShared=*/true);
  // Shared extents larger than any block can be (a buffer the block fills
  // in several steps): not evidence of the block.
  if (Product > MaxThreadsPerBlock || (MaxThreads && Product > *MaxThreads))
    Product = Known(/*WithShared=*/false);
  if (Product > MaxThreadsPerBlock)
    return std::nullopt;

  bool UsedEvidence = false;
  // "the __shared__ array 'tile' holds 16 elements along threadIdx.x and
  // 16 along threadIdx.y": one clause per array.
  std::vector<std::pair<std::string, std::string>> ByArray;
  for (unsigned A = 0; A < 3; ++A) {
    std::string Axis = AxisName[A];
    if (E.Compared[A]) {
      Reasons.push_back(E.ComparedWhere[A]);
      UsedEvidence = true;
    } else if (!Open[A] && E.SharedExtent[A] && Shape[A] == *E.SharedExtent[A] && Shape[A] > 1) {
      auto It = std::find_if(ByArray.begin(), ByArray.end(),
                             [&](const auto &P) { return P.first == E.SharedArray[A]; });
      if (It == ByArray.end())
        ByArray.push_back({E.SharedArray[A], std::to_string(Shape[A]) +
                                                 " elements along threadIdx." + Axis});
      else
        It->second += " and " + std::to_string(Shape[A]) + " along threadIdx." + Axis;
      UsedEvidence = true;
    }
  }
  for (const auto &[Array, Along] : ByArray)
    Reasons.push_back("the __shared__ array '" + Array + "' holds " + Along);
  std::uint64_t Budget = MaxThreads ? *MaxThreads : Defaults.Block.count();
  bool AnyOpen = Open[0] || Open[1] || Open[2];
  if (AnyOpen) {
    std::uint64_t Rest = std::max<std::uint64_t>(1, Budget / Product);
    splitThreads(Rest, Open, Shape);
  }

  LaunchConfig C;
  C.Block = Dim3{Shape[0], Shape[1], Shape[2]};
  std::string Axes;
  for (unsigned A = 0; A < 3; ++A)
    if (Open[A])
      Axes += std::string(Axes.empty() ? "" : " and ") + "threadIdx." + AxisName[A];
  std::string Split =
      AnyOpen ? std::string(MaxThreads ? "__launch_bounds__(" + std::to_string(*MaxThreads) + ")"
                                       : "the default block's " +
                                             std::to_string(Defaults.Block.count()) + " threads") +
                    " spread over " + Axes
              : "";
  if (UsedEvidence) {
    C.Source = LaunchSource::Inferred;
    std::string Why;
    for (const std::string &R : Reasons)
      Why += (Why.empty() ? "" : ", ") + R;
    if (AnyOpen)
      Why += ", " + Split;
    C.Description = "the kernel's code (" + Why + ")";
  } else {
    C.Source = MaxThreads ? LaunchSource::LaunchBounds : LaunchSource::Default;
    C.Description = Split + " (the kernel reads " +
                    std::string(E.ReadsAxis[2] ? "threadIdx.z" : "threadIdx.y") + ")";
  }
  return C;
}

} // namespace warpcheck::analysis
