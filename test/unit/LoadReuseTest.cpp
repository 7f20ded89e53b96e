//===- LoadReuseTest.cpp - loads that take an earlier access's value ------===//
//
// Which element reads the no-listing model predicts nvcc serves from an
// earlier access's register (analysis/LoadReuse.h): the rules measured on
// the H100 (test/inputs/load-reuse.cu: dominance, a store that may alias, a
// barrier, a call that stores, a read hoisted above its branch) and the ones
// the source alone decides: what a store between may write, an index
// changed between, a loop that repeats the later read after a store.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUnit.h"
#include "LoadReuse.h"
#include "SourceMemory.h"

#include "warpcheck/analysis/KernelAnalysis.h"

#include "clang/Basic/SourceManager.h"

#include <gtest/gtest.h>

#include <set>

using namespace warpcheck::analysis;

namespace {

const char *ReuseKernels = R"(
__device__ int twice(int a) { return 2 * a; }
__device__ void keep(float *p, float v) { *p = v; }
__global__ void otherSharedArray(int *out) {
  __shared__ int a[64], b[64];
  int t = threadIdx.x;
  int x = a[t];
  b[t] = x + twice(t);
  out[t] = a[t];
}
__global__ void sameSharedArray(int *out, int k) {
  __shared__ int a[64];
  int t = threadIdx.x;
  int x = a[t];
  a[k] = x;
  out[t] = a[t];
}
__global__ void dynamicSharedArrays(int *out) {
  extern __shared__ int first[];
  extern __shared__ float second[];
  int t = threadIdx.x;
  int x = first[t];
  second[t] = 1.f;
  out[t] = x + first[t];
}
__global__ void indexChanged(const float *in, float *out) {
  int i = threadIdx.x;
  float x = in[i];
  i += 32;
  out[threadIdx.x] = x + in[i];
}
__global__ void storeLaterInLoop(float *__restrict__ p, float *__restrict__ out, int n) {
  int t = threadIdx.x;
  float s = p[t];
  for (int k = 0; k < n; ++k) {
    s += p[t];
    p[t] = s;
  }
  out[t] = s;
}
__global__ void loopWithoutStore(const float *__restrict__ p, float *__restrict__ out, int n) {
  int t = threadIdx.x;
  float s = p[t];
  for (int k = 0; k < n; ++k)
    s += p[t];
  out[t] = s;
}
__global__ void otherArm(const float *in, float *out) {
  int t = threadIdx.x;
  float v;
  if (t % 2)
    v = in[t];
  else
    v = -in[t];
  out[t] = v;
}
__global__ void andThenArm(const float *in, float *out) {
  int t = threadIdx.x;
  if (t > 0 && in[t] > 0.f)
    out[t] = in[t];
}
__global__ void laterUnderBranch(const float *in, float *out) {
  int t = threadIdx.x;
  float v = 0.f;
  if (t > 0 && in[t] > 0.f)
    v = 1.f;
  if (t % 4)
    v += in[t];
  out[t] = v;
}
__global__ void volatileRead(volatile float *in, float *out) {
  int t = threadIdx.x;
  float x = in[t];
  out[t] = x + in[t];
}
__global__ void storeThroughOwnFunction(const float *in, float *out, float *log) {
  int t = threadIdx.x;
  float x = in[t];
  keep(log + t, x);
  out[t] = x + in[t];
}
__global__ void chained(int *out) {
  __shared__ int d[64];
  int t = threadIdx.x;
  int v = 0;
  if (t > 0 && d[t] != d[t - 1])
    v = d[t];
  out[t] = v + d[t];
}
__global__ void storedThenRead(float *__restrict__ p, float *__restrict__ out) {
  int t = threadIdx.x;
  p[t] = p[t] * 2.0f;
  out[t] = p[t];
}
)";

/// "line 9 <- line 7", with " (hoisted)": the reads of Kernel that take an
/// earlier access's value, by line.
std::set<std::string> reused(llvm::StringRef Kernel) {
  static std::unique_ptr<clang::ASTUnit> AST =
      warpcheck::testing::parseCuda(ReuseKernels, warpcheck::testing::CudaSide::Device);
  const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(AST->getASTContext(), Kernel);
  EXPECT_TRUE(K) << Kernel.str();
  std::set<std::string> Out;
  if (!K)
    return Out;
  const clang::SourceManager &SM = AST->getASTContext().getSourceManager();
  auto Line = [&](const clang::Expr *E) {
    return std::to_string(SM.getSpellingLineNumber(E->getBeginLoc()));
  };
  for (const auto &[Load, Value] : loadsReusingEarlierValues(K))
    Out.insert("line " + Line(Load) + " <- line " + Line(Value.Earlier) +
               (Value.Hoisted ? " (hoisted)" : ""));
  return Out;
}

TEST(LoadReuse, AStoreBetweenBreaksTheReuseOnlyWhereItMayWriteTheElement) {
  // Another __shared__ array is other memory; a helper that touches no
  // memory is no call that matters.
  EXPECT_EQ(reused("otherSharedArray"), (std::set<std::string>{"line 9 <- line 7"}));
  // The same array at another index may be the element.
  EXPECT_TRUE(reused("sameSharedArray").empty());
  // Every extern __shared__ array starts at the same address.
  EXPECT_TRUE(reused("dynamicSharedArrays").empty());
  // A device function that stores through a pointer (inlined: its store is
  // between), as callBetween measured.
  EXPECT_TRUE(reused("storeThroughOwnFunction").empty());
  // A volatile element is read each time.
  EXPECT_TRUE(reused("volatileRead").empty());
}

TEST(LoadReuse, AReadAfterAStoreOfTheElementTakesTheStoredValue) {
  // The store of line 92 is made after its right-hand side's read of the
  // element: the read of line 93 takes what was stored (as sharedAcrossBarrier
  // measured a store's value read back), not the read before it.
  EXPECT_EQ(reused("storedThenRead"), (std::set<std::string>{"line 93 <- line 92"}));
}

TEST(LoadReuse, TheIndexMustNotChangeBetween) {
  EXPECT_TRUE(reused("indexChanged").empty());
}

TEST(LoadReuse, ALoopRepeatsTheLaterReadAfterItsOwnStores) {
  // p[t] is stored later in the loop: its second iteration's read comes
  // after that store.
  EXPECT_TRUE(reused("storeLaterInLoop").empty());
  // Nothing in the loop stores: every iteration's read is the first's value
  // (squareThenLoop measured).
  EXPECT_EQ(reused("loopWithoutStore"), (std::set<std::string>{"line 45 <- line 43"}));
}

TEST(LoadReuse, TheEarlierReadMustBeMadeOnEveryPathOrBeHoisted) {
  // The two arms read on disjoint paths: neither serves the other.
  EXPECT_TRUE(reused("otherArm").empty());
  // The then-arm runs only where `&&`'s right side ran: plain dominance.
  EXPECT_EQ(reused("andThenArm"), (std::set<std::string>{"line 60 <- line 59"}));
  // Behind `&&` and read again under a branch of its own: read again, as
  // guardedShared measured; read again on every path: hoisted, as
  // guardedGlobal measured.
  EXPECT_TRUE(reused("laterUnderBranch").empty());
  // d[t] in the `if` (line 86) serves the then-arm (line 87) and, hoisted,
  // the read after the `if` (line 88), which the then-arm's read passes on
  // (shared-small-tables.cu's digitStarts, measured).
  EXPECT_EQ(reused("chained"),
            (std::set<std::string>{"line 87 <- line 86", "line 88 <- line 86 (hoisted)"}));
}


/// The first element access of Kernel spelled Text.
const clang::ArraySubscriptExpr *accessSpelled(const clang::Stmt *S, llvm::StringRef Text,
                                               clang::ASTContext &Ctx) {
  if (!S)
    return nullptr;
  if (const auto *A = llvm::dyn_cast<clang::ArraySubscriptExpr>(S);
      A && sourceText(A, Ctx) == Text)
    return A;
  for (const clang::Stmt *Child : S->children())
    if (const clang::ArraySubscriptExpr *A = accessSpelled(Child, Text, Ctx))
      return A;
  return nullptr;
}

TEST(LoadReuse, AHoistedLoadGoesWithItsAddressComputation) {
  // Measured (load-reuse.cu guardedGlobal, readInOneArm): the load nvcc
  // hoists before the branch has the line of `int i = ...` (line 3 here);
  // `int v = 0;` is declared later but is not part of the address. An
  // address naming no local variable: no line (shared-small-tables.cu's
  // digitStarts keeps the earlier read's).
  std::unique_ptr<clang::ASTUnit> AST = warpcheck::testing::parseCuda(R"(
__global__ void guarded(const int *in, int *out) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 32;
  int v = 0;
  if (threadIdx.x > 0 && in[i] > 0)
    v = 1;
  out[i] = in[i] + v;
}
__global__ void noLocal(const int *in, int *out) {
  if (threadIdx.x > 0 && in[threadIdx.x] > 0)
    out[threadIdx.x] = in[threadIdx.x];
}
)",
                                                                       warpcheck::testing::CudaSide::Device);
  clang::ASTContext &Ctx = AST->getASTContext();
  const clang::SourceManager &SM = Ctx.getSourceManager();
  const clang::FunctionDecl *Guarded = warpcheck::testing::kernelNamed(Ctx, "guarded");
  const clang::FunctionDecl *NoLocal = warpcheck::testing::kernelNamed(Ctx, "noLocal");
  ASSERT_TRUE(Guarded && NoLocal);
  const clang::ArraySubscriptExpr *Read = accessSpelled(Guarded->getBody(), "in[i]", Ctx);
  ASSERT_TRUE(Read);
  EXPECT_EQ(addressComputationLine(Read, Read->getBeginLoc(), SM), 3u);
  const clang::ArraySubscriptExpr *Plain =
      accessSpelled(NoLocal->getBody(), "in[threadIdx.x]", Ctx);
  ASSERT_TRUE(Plain);
  EXPECT_EQ(addressComputationLine(Plain, Plain->getBeginLoc(), SM), 0u);
}

} // namespace
