//===- UnrolledMergesTest.cpp - unrolled loops' shared accesses -----------===//
//
// Which shared accesses the no-listing model lets the compiler merge across
// an unrolled loop's iterations (analysis/UnrolledMerges.h), and how wide:
// the loops measured on the H200 (test/inputs/unrolled-shared-loads.cu) and
// the ones that must stay as written: a runtime or large trip count, a
// barrier or a branch in the body, `#pragma unroll 1`, a counter the body
// writes. And the alignment ptxas knows a __shared__ array to have, with
// and without relocatable device code (-rdc=true, clang's -fgpu-rdc).
//
//===----------------------------------------------------------------------===//

#include "CudaTestUnit.h"
#include "UnrolledMerges.h"

#include "warpcheck/analysis/KernelAnalysis.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <gtest/gtest.h>

using namespace warpcheck::analysis;

namespace {

const char *UnrolledKernels = R"(
__global__ void rows8(float *out) {
  __shared__ float s[1024];
  float acc = 0;
  for (int i = 0; i < 8; ++i)
    acc += s[threadIdx.x * 8 + i];
  out[threadIdx.x] = acc;
}
__global__ void doubles2(double *out) {
  __shared__ double d[256];
  double acc = 0;
  for (int i = 0; i < 2; ++i)
    acc += d[threadIdx.x * 2 + i];
  out[threadIdx.x] = acc;
}
__global__ void floats2(float *out) {
  __shared__ float s[256];
  float acc = 0;
  for (unsigned i = 0; i < 2u; i++)
    acc += s[threadIdx.x * 2 + i];
  out[threadIdx.x] = acc;
}
__global__ void floats3(float *out) {
  __shared__ float s[512];
  float acc = 0;
  for (int i = 0; i < 3; ++i)
    acc += s[threadIdx.x * 3 + i];
  out[threadIdx.x] = acc;
}
__global__ void down8(float *out) {
  __shared__ float s[1024];
  float acc = 0;
  for (int i = 7; i >= 0; --i)
    acc += s[threadIdx.x * 8 + i];
  out[threadIdx.x] = acc;
}
__global__ void long64(float *out) {
  __shared__ float s[8192];
  float acc = 0;
  for (int i = 0; i < 64; ++i)
    acc += s[threadIdx.x * 64 + i];
  out[threadIdx.x] = acc;
}
__global__ void long64Pragma(float *out) {
  __shared__ float s[8192];
  float acc = 0;
#pragma unroll
  for (int i = 0; i < 64; ++i)
    acc += s[threadIdx.x * 64 + i];
  out[threadIdx.x] = acc;
}
__global__ void notUnrolled(float *out) {
  __shared__ float s[1024];
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < 8; ++i)
    acc += s[threadIdx.x * 8 + i];
  out[threadIdx.x] = acc;
}
__global__ void runtimeTrip(float *out, int n) {
  __shared__ float s[1024];
  float acc = 0;
  for (int i = 0; i < n; ++i)
    acc += s[threadIdx.x * 8 + i];
  out[threadIdx.x] = acc;
}
__global__ void barrierInBody(float *out) {
  __shared__ float s[1024];
  float acc = 0;
  for (int i = 0; i < 8; ++i) {
    acc += s[threadIdx.x * 8 + i];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}
__global__ void branchInBody(float *out) {
  __shared__ float s[1024];
  float acc = 0;
  for (int i = 0; i < 8; ++i) {
    if (acc < 100)
      acc += s[threadIdx.x * 8 + i];
  }
  out[threadIdx.x] = acc;
}
__global__ void counterWritten(float *out) {
  __shared__ float s[1024];
  float acc = 0;
  for (int i = 0; i < 8; ++i) {
    acc += s[threadIdx.x * 8 + i];
    i += 1;
  }
  out[threadIdx.x] = acc;
}
__global__ void pairs(float *data) {
  __shared__ float p[512];
  int i0 = threadIdx.x << 1;
  int i1 = i0 + 1;
  p[i0] = data[i0];
  p[i1] = data[i1];
  float a = p[i0];
  float b = p[i1];
  p[i0] = a + b;
  p[i1] = a - b;
  data[threadIdx.x] = p[threadIdx.x + 1];
}
__global__ void alignments(float *out) {
  __shared__ float plain[64];
  __shared__ __align__(16) float aligned[64];
  __shared__ double wide[64];
  extern __shared__ float dynamic[];
  out[threadIdx.x] = plain[threadIdx.x] + aligned[threadIdx.x] + wide[threadIdx.x] +
                     dynamic[threadIdx.x];
}
__global__ void runtimeStride(float *out, int stride) {
  extern __shared__ float s[];
  float acc = 0;
  for (int i = 0; i < 8; ++i)
    acc += s[threadIdx.x * stride + i];
  out[threadIdx.x] = acc;
}
__global__ void runtimeStrideTimesFour(float *out, int stride) {
  extern __shared__ float s[];
  int row = threadIdx.x * stride * 4;
  float acc = 0;
  for (int i = 0; i < 8; ++i)
    acc += s[row + i];
  out[threadIdx.x] = acc;
}
__global__ void runtimeStrideTimesTwo(float *out, int stride) {
  extern __shared__ float s[];
  float acc = 0;
  for (int i = 0; i < 8; ++i)
    acc += s[(threadIdx.x * stride << 1) + i];
  out[threadIdx.x] = acc;
}
__global__ void rowReassigned(float *out, int stride) {
  extern __shared__ float s[];
  int row = threadIdx.x * 8;
  row += stride;
  float acc = 0;
  for (int i = 0; i < 8; ++i)
    acc += s[row + i];
  out[threadIdx.x] = acc;
}
__global__ void runtimeRow(float *out, int r) {
  __shared__ float t[32][8];
  float acc = 0;
  for (int i = 0; i < 8; ++i)
    acc += t[r][i];
  out[threadIdx.x] = acc;
}
__global__ void pairsNotProved(float *data, int stride, const int *idx) {
  __shared__ float p[2048];
  int i0 = threadIdx.x * stride;
  int i1 = i0 + 1;
  int j0 = idx[threadIdx.x];
  int j1 = j0 + 1;
  int k0 = threadIdx.x * 2 + 1;
  int k1 = k0 + 1;
  float a = p[i0];
  float b = p[i1];
  float c = p[j0];
  float d = p[j1];
  float e = p[k0];
  float f = p[k1];
  data[threadIdx.x] = a + b + c + d + e + f;
}
)";

clang::ASTUnit &unit(bool Rdc) {
  static std::unique_ptr<clang::ASTUnit> Whole =
      warpcheck::testing::parseCuda(UnrolledKernels, warpcheck::testing::CudaSide::Device);
  static std::unique_ptr<clang::ASTUnit> Relocatable = warpcheck::testing::parseCuda(
      UnrolledKernels, warpcheck::testing::CudaSide::Device, {"-fgpu-rdc"});
  return Rdc ? *Relocatable : *Whole;
}

/// The first array subscript of Kernel's body that indexes Array (of an
/// array of arrays, the outermost: `t[r][i]`).
const clang::ArraySubscriptExpr *subscriptOf(const clang::FunctionDecl *Kernel,
                                             llvm::StringRef Array) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    llvm::StringRef Array;
    const clang::ArraySubscriptExpr *Found = nullptr;
    bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E) {
      const clang::Expr *Base = E->getBase()->IgnoreParenImpCasts();
      while (const auto *Inner = llvm::dyn_cast<clang::ArraySubscriptExpr>(Base))
        Base = Inner->getBase()->IgnoreParenImpCasts();
      const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Base);
      if (!Found && Ref && Ref->getDecl()->getName() == Array)
        Found = E;
      return true;
    }
  } F;
  F.Array = Array;
  F.TraverseStmt(Kernel->getBody());
  return F.Found;
}

/// The expressions of kind E on Line of Kernel that Keep accepts, in
/// source order.
template <class E>
std::vector<const E *> onLine(clang::ASTContext &Ctx, const clang::FunctionDecl *Kernel,
                              unsigned Line, llvm::function_ref<bool(const E *)> Keep) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::SourceManager *SM;
    unsigned Line;
    llvm::function_ref<bool(const E *)> Keep;
    std::vector<const E *> Found;
    bool VisitStmt(clang::Stmt *S) {
      if (const auto *X = llvm::dyn_cast<E>(S))
        if (SM->getExpansionLineNumber(X->getBeginLoc()) == Line && Keep(X))
          Found.push_back(X);
      return true;
    }
  } F;
  F.SM = &Ctx.getSourceManager();
  F.Line = Line;
  F.Keep = Keep;
  F.TraverseStmt(Kernel->getBody());
  return F.Found;
}

/// "trip T, up to B bytes", or "as written".
std::string loopOf(llvm::StringRef Kernel, llvm::StringRef Array = "s") {
  clang::ASTContext &Ctx = unit(false).getASTContext();
  const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(Ctx, Kernel);
  if (!K)
    return "no kernel " + Kernel.str();
  const clang::ArraySubscriptExpr *Site = subscriptOf(K, Array);
  if (!Site)
    return "no access";
  std::optional<UnrolledLoopAccess> L = unrolledLoopAccess(Site, Ctx);
  if (!L)
    return "as written";
  return "trip " + std::to_string(L->TripCount) + ", up to " + std::to_string(L->MaxBytes) +
         " bytes";
}

TEST(UnrolledMergesTest, ConstantTripCountsUpToSixteenBytes) {
  EXPECT_EQ(loopOf("rows8"), "trip 8, up to 16 bytes");
  EXPECT_EQ(loopOf("doubles2", "d"), "trip 2, up to 16 bytes");
  EXPECT_EQ(loopOf("floats2"), "trip 2, up to 8 bytes");
  EXPECT_EQ(loopOf("down8"), "trip 8, up to 16 bytes");
  EXPECT_EQ(loopOf("long64Pragma"), "trip 64, up to 16 bytes");
}

TEST(UnrolledMergesTest, LoopsTheCompilerDoesNotMergeStayAsWritten) {
  // 12 bytes a run: no power of two above 4 divides it.
  EXPECT_EQ(loopOf("floats3"), "as written");
  // Too long to unroll without the pragma; the pragma that forbids it.
  EXPECT_EQ(loopOf("long64"), "as written");
  EXPECT_EQ(loopOf("notUnrolled"), "as written");
  EXPECT_EQ(loopOf("runtimeTrip"), "as written");
  EXPECT_EQ(loopOf("barrierInBody"), "as written");
  EXPECT_EQ(loopOf("branchInBody"), "as written");
  EXPECT_EQ(loopOf("counterWritten"), "as written");
}

// The compiler merges only what it proves aligned from the index as
// written (IndexAlignment.h): a kernel parameter's stride proves nothing,
// whatever the program passes (rounded-strides.cu's rowSums: 32 scalar STS
// in nvcc 13's listing); times 4 floats it proves 16 bytes, times 2 eight;
// a row variable written again is not its initializer; a row of 8 floats
// of a 2-D array is 32 bytes whatever the runtime row. Each as nvcc 13
// -O3 -arch=sm_90 compiles these kernels: LDS, LDS.128, LDS.64, LDS,
// LDS.128.
TEST(UnrolledMergesTest, OnlyWhatTheIndexProvesAlignedIsMerged) {
  EXPECT_EQ(loopOf("runtimeStride"), "as written");
  EXPECT_EQ(loopOf("runtimeStrideTimesFour"), "trip 8, up to 16 bytes");
  EXPECT_EQ(loopOf("runtimeStrideTimesTwo"), "trip 8, up to 8 bytes");
  EXPECT_EQ(loopOf("rowReassigned"), "as written");
  EXPECT_EQ(loopOf("runtimeRow", "t"), "trip 8, up to 16 bytes");
}

/// The line of the partner adjacentPartner gives the access to p on Line
/// (loads or stores as Op), 0 when none.
unsigned partnerLine(unsigned Line, AccessOp Op, llvm::StringRef Kernel = "pairs") {
  clang::ASTContext &Ctx = unit(false).getASTContext();
  const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(Ctx, Kernel);
  auto Found = onLine<clang::ArraySubscriptExpr>(
      Ctx, K, Line, [](const clang::ArraySubscriptExpr *E) {
        const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E->getBase()->IgnoreParenImpCasts());
        return Ref && Ref->getDecl()->getName() == "p";
      });
  if (Found.size() != 1)
    return 999;
  const clang::Expr *P = adjacentPartner(Found.front(), Op, Ctx);
  return P ? Ctx.getSourceManager().getExpansionLineNumber(P->getBeginLoc()) : 0;
}

TEST(UnrolledMergesTest, AdjacentElementsPairWithTheirNearestPartner) {
  // The kernel `pairs` starts on line 94 of UnrolledKernels: p[i0] = ... is line 98.
  EXPECT_EQ(partnerLine(98, AccessOp::Store), 99u);
  EXPECT_EQ(partnerLine(99, AccessOp::Store), 98u);
  EXPECT_EQ(partnerLine(100, AccessOp::Load), 101u);
  EXPECT_EQ(partnerLine(101, AccessOp::Load), 100u);
  EXPECT_EQ(partnerLine(102, AccessOp::Store), 103u);
  EXPECT_EQ(partnerLine(103, AccessOp::Store), 102u);
  // p[threadIdx.x + 1] has no p[threadIdx.x] beside it.
  EXPECT_EQ(partnerLine(104, AccessOp::Load), 0u);
}

TEST(UnrolledMergesTest, PairsMergeOnlyWhereTheIndexProvesThemAligned) {
  // nvcc 13.0's listings for sm_90: `s[2 * t]`, `s[2 * t + 1]` is one
  // LDS.64 (the pairs above); with the first index `t * stride` (a
  // parameter), `idx[t]` (a load) or `2 * t + 1` (odd), two LDS. The
  // kernel pairsNotProved starts on line 152: p[i0] is read on line 160.
  EXPECT_EQ(partnerLine(160, AccessOp::Load, "pairsNotProved"), 0u);
  EXPECT_EQ(partnerLine(161, AccessOp::Load, "pairsNotProved"), 0u);
  EXPECT_EQ(partnerLine(162, AccessOp::Load, "pairsNotProved"), 0u);
  EXPECT_EQ(partnerLine(163, AccessOp::Load, "pairsNotProved"), 0u);
  EXPECT_EQ(partnerLine(164, AccessOp::Load, "pairsNotProved"), 0u);
  EXPECT_EQ(partnerLine(165, AccessOp::Load, "pairsNotProved"), 0u);
}

unsigned alignmentOf(llvm::StringRef Name, bool Rdc) {
  clang::ASTContext &Ctx = unit(Rdc).getASTContext();
  const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(Ctx, "alignments");
  const clang::ArraySubscriptExpr *Site = K ? subscriptOf(K, Name) : nullptr;
  if (!Site)
    return 999;
  const auto *Ref = llvm::cast<clang::DeclRefExpr>(Site->getBase()->IgnoreParenImpCasts());
  return knownSharedAlignment(llvm::cast<clang::VarDecl>(Ref->getDecl()), Ctx);
}

TEST(UnrolledMergesTest, AlignmentPtxasKnows) {
  // Whole-program: ptxas places every array (LDS.128 measured for a plain
  // float array).
  EXPECT_EQ(alignmentOf("plain", false), 16u);
  EXPECT_EQ(alignmentOf("wide", false), 16u);
  // -rdc=true: the declared alignment (4-byte LDS measured for the plain
  // array, LDS.128 with __align__(16)); the dynamic array's start is
  // ptxas's (LDS.64 measured in fastWalshTransform).
  EXPECT_EQ(alignmentOf("plain", true), 4u);
  EXPECT_EQ(alignmentOf("aligned", true), 16u);
  EXPECT_EQ(alignmentOf("wide", true), 8u);
  EXPECT_EQ(alignmentOf("dynamic", true), 16u);
  EXPECT_EQ(knownSharedAlignment(nullptr, unit(true).getASTContext()), 0u);
}

/// fieldGroup of the member access `<base>.<Field>` on Line of Kernel in
/// AST: its field count, 0 when none (999: no such access on the line).
unsigned fieldCountOf(clang::ASTUnit &AST, llvm::StringRef Kernel, unsigned Line,
                      llvm::StringRef Field, AccessOp Op) {
  clang::ASTContext &Ctx = AST.getASTContext();
  const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(Ctx, Kernel);
  auto Found = onLine<clang::MemberExpr>(Ctx, K, Line, [&](const clang::MemberExpr *E) {
    return E->getMemberDecl()->getName() == Field;
  });
  if (Found.empty())
    return 999;
  std::optional<FieldGroup> G = fieldGroup(Found.front(), Op, Ctx);
  return G ? G->Fields : 0;
}

/// fieldCountOf the kernel `fields` below.
unsigned groupOf(unsigned Line, llvm::StringRef Field, AccessOp Op = AccessOp::Load) {
  static std::unique_ptr<clang::ASTUnit> AST = warpcheck::testing::parseCuda(R"(
struct Rec3 { float a, b, c; };
struct alignas(8) Mixed { short s; short t; int n; };
__global__ void fields(const float2 *p, const uint4 *u, const float4 *q, const Rec3 *r,
                       const Mixed *m, float2 *o, float *out) {
  int i = threadIdx.x;
  out[i] = p[i].x * p[i].y;
  const uint4 &v = u[i];
  out[i] = v.x + v.y + v.z + v.w;
  out[i] = q[i].x + q[i].y;
  out[i] = r[i].a + r[i].b + r[i].c;
  out[i] = p[i].x;
  out[i] += p[i].y;
  out[i] = m[i].s + m[i].t + m[i].n;
  o[i].x = 1.0f; o[i].y = 2.0f;
  out[i] = p[i].x + p[i].x + p[i].y;
}
)",
                                                                            warpcheck::testing::CudaSide::Device);
  return fieldCountOf(*AST, "fields", Line, Field, Op);
}

TEST(UnrolledMergesTest, EveryFieldOfAnAlignedElementInOneStatementIsOneAccess) {
  // Measured on the H200 (merged-accesses.cu): one LDG.E.64, one LDG.E.128.
  EXPECT_EQ(groupOf(7, "y"), 2u);
  EXPECT_EQ(groupOf(9, "z"), 4u);
  // Some fields of a float4 only, a 12-byte struct, fields of different
  // sizes, a field read twice: as written; so are `p[i].x` and `p[i].y` of
  // lines 12 and 13, whose straight-line run (the whole body) reads p[i].x
  // on three lines.
  EXPECT_EQ(groupOf(10, "x"), 0u);
  EXPECT_EQ(groupOf(11, "a"), 0u);
  EXPECT_EQ(groupOf(12, "x"), 0u);
  EXPECT_EQ(groupOf(14, "s"), 0u);
  EXPECT_EQ(groupOf(16, "y"), 0u);
  // Stores in one statement each, next to each other: one st.global.v2 in
  // nvcc 13.0's PTX.
  EXPECT_EQ(groupOf(15, "x", AccessOp::Store), 2u);
}

/// fieldCountOf the kernel `apart` below.
unsigned apartGroupOf(unsigned Line, llvm::StringRef Field, AccessOp Op = AccessOp::Load) {
  static std::unique_ptr<clang::ASTUnit> AST = warpcheck::testing::parseCuda(R"(
__global__ void apart(const float2 *p, const float4 *q, float2 *o, float4 *w, float *out) {
  int i = threadIdx.x;
  float x = p[i].x;
  float y = p[i].y;
  w[i].w = x; w[i].z = y; w[i].y = x;
  w[i].x = y;
  o[i].x = x;
  if (x > 0) y = -y;
  o[i].y = y;
  out[i] = q[i].x;
  __syncthreads();
  out[i] += q[i].y + q[i].z + q[i].w;
}
)",
                                                                            warpcheck::testing::CudaSide::Device);
  return fieldCountOf(*AST, "apart", Line, Field, Op);
}

TEST(UnrolledMergesTest, FieldsInNeighbouringStatementsOfOneBasicBlockAreOneAccess) {
  // nvcc 13.0 -O3 -arch=sm_90 PTX: ld.global.v2.f32 for the two loads,
  // st.global.v4.f32 for the four stores written in reverse order.
  EXPECT_EQ(apartGroupOf(4, "x"), 2u);
  EXPECT_EQ(apartGroupOf(5, "y"), 2u);
  EXPECT_EQ(apartGroupOf(6, "z", AccessOp::Store), 4u);
  EXPECT_EQ(apartGroupOf(7, "x", AccessOp::Store), 4u);
  // A branch between (another basic block) or a barrier (a call): apart.
  EXPECT_EQ(apartGroupOf(8, "x", AccessOp::Store), 0u);
  EXPECT_EQ(apartGroupOf(10, "y", AccessOp::Store), 0u);
  EXPECT_EQ(apartGroupOf(11, "x"), 0u);
  EXPECT_EQ(apartGroupOf(13, "w"), 0u);
}

/// fieldCountOf the kernel `throughCalls` below.
unsigned callsGroupOf(unsigned Line, llvm::StringRef Field) {
  static std::unique_ptr<clang::ASTUnit> AST = warpcheck::testing::parseCuda(R"(
__device__ float price(float s, float k) { return s * 2.0f - k; }
__device__ float clipped(float s) { if (s < 0) return 0; return s; }
__global__ void throughCalls(const float2 *p, const float2 *q, float *out) {
  int i = threadIdx.x;
  float a = price(p[i].x,
                  1.0f);
  float b = price(p[i].y,
                  2.0f);
  float c = clipped(q[i].x);
  float d = clipped(q[i].y);
  out[i] = a + b + c + d;
}
)",
                                                                            warpcheck::testing::CudaSide::Device);
  return fieldCountOf(*AST, "throughCalls", Line, Field, AccessOp::Load);
}

TEST(UnrolledMergesTest, FieldsPassedToStraightLineFunctionsAreOneAccess) {
  // vector-halves.cu, measured: `price(spot[i].x, ...)` and
  // `price(spot[i].y, ...)` in two statements are one LDG.E.64, price
  // inlined as straight-line code that touches no memory.
  EXPECT_EQ(callsGroupOf(6, "x"), 2u);
  EXPECT_EQ(callsGroupOf(8, "y"), 2u);
  // A function with a branch splits the basic block: apart.
  EXPECT_EQ(callsGroupOf(10, "x"), 0u);
  EXPECT_EQ(callsGroupOf(11, "y"), 0u);
}

} // namespace
