//===- SelectedLoadsTest.cpp - a branch's two loads as one ----------------===//
//
// Which loads of a branch's arms the no-listing model makes one load of
// the address the branch selects (analysis/SelectedLoads.h), and on which
// line: the if/else whose arms only assign one variable the value of a
// load, on the line of the statement after it (compiler-transformations.cu's
// branchArms, partitioned-loops.cu's ownedRows, measured on the H200); and
// the branches whose loads stay in their arms.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUnit.h"
#include "SelectedLoads.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <gtest/gtest.h>

using namespace warpcheck::analysis;

namespace {

// Line numbers below are those of this text (the first line is 1).
const char *BranchKernels = R"(__global__ void arms(float *out) {
  __shared__ float s[64];
  float v;
  if (threadIdx.x & 1)
    v = s[threadIdx.x / 2];
  else {
    v = s[32 + threadIdx.x / 2];
  }
  out[threadIdx.x] = v;
}
__global__ void conditional(const float *a, const float *b, float *out, int flag) {
  float v = flag ? a[threadIdx.x] : b[threadIdx.x * 32];
  out[threadIdx.x] = v;
}
__global__ void notSelected(const float *a, const double *d, float *out, int flag) {
  float v, w, x, y;
  if (flag)
    v = a[threadIdx.x];
  else
    v = d[threadIdx.x];
  if (flag) {
    w = a[threadIdx.x];
    out[0] = w;
  } else
    w = a[threadIdx.x + 1];
  if (flag)
    x = a[threadIdx.x];
  else
    x = a[threadIdx.x + 2];
  out[1] = 0;
  if (flag)
    y = a[threadIdx.x];
  out[2] = v + w + x + y + (flag ? a[0] : 1.0f);
}
)";

clang::ASTUnit &unit() {
  static std::unique_ptr<clang::ASTUnit> U =
      warpcheck::testing::parseCuda(BranchKernels, warpcheck::testing::CudaSide::Device);
  return *U;
}

/// "partner line P, instruction line L" for the load of Array on Line of
/// Kernel, "none" when it is not selected, "no load" when there is none.
std::string selection(llvm::StringRef Kernel, unsigned Line, llvm::StringRef Array) {
  clang::ASTContext &Ctx = unit().getASTContext();
  const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(Ctx, Kernel);
  if (!K)
    return "no kernel";
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::SourceManager *SM;
    unsigned Line;
    llvm::StringRef Array;
    const clang::ArraySubscriptExpr *Found = nullptr;
    bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E) {
      const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E->getBase()->IgnoreParenImpCasts());
      if (!Found && Ref && Ref->getDecl()->getName() == Array &&
          SM->getExpansionLineNumber(E->getBeginLoc()) == Line)
        Found = E;
      return true;
    }
  } F;
  F.SM = &Ctx.getSourceManager();
  F.Line = Line;
  F.Array = Array;
  F.TraverseStmt(K->getBody());
  if (!F.Found)
    return "no load";
  std::optional<SelectedLoad> S = selectedLoad(F.Found, Ctx);
  if (!S)
    return "none";
  return "partner line " +
         std::to_string(Ctx.getSourceManager().getExpansionLineNumber(S->Partner->getBeginLoc())) +
         ", instruction line " + std::to_string(S->Line);
}

TEST(SelectedLoadsTest, AnIfWhoseArmsOnlyLoadIsOneLoadOnTheLineAfterIt) {
  // Either arm, with or without braces: the instruction is on line 9, the
  // statement after the if (measured so: branchArms' LDS on its line 37).
  EXPECT_EQ(selection("arms", 5, "s"), "partner line 7, instruction line 9");
  EXPECT_EQ(selection("arms", 7, "s"), "partner line 5, instruction line 9");
}

TEST(SelectedLoadsTest, ArmsThatDoMoreOrLoadOtherWidthsStayAsWritten) {
  // A float and a double: two instructions of their own widths.
  EXPECT_EQ(selection("notSelected", 18, "a"), "none");
  // An arm that stores as well.
  EXPECT_EQ(selection("notSelected", 22, "a"), "none");
  EXPECT_EQ(selection("notSelected", 25, "a"), "none");
  // A statement after the branch that does not use the value: the loads
  // are one all the same, on its line (selected-loads.cu's storeBetween).
  EXPECT_EQ(selection("notSelected", 27, "a"), "partner line 29, instruction line 30");
  // An if without an else.
  EXPECT_EQ(selection("notSelected", 32, "a"), "none");
  // A conditional operator of a load and a value: an rvalue, no selected
  // address.
  EXPECT_EQ(selection("notSelected", 33, "a"), "none");
  // A conditional operator of two loads is one lvalue clang loads once:
  // one access of the simulation already (conditional-lvalues.cu), not two.
  EXPECT_EQ(selection("conditional", 12, "a"), "none");
}

} // namespace
