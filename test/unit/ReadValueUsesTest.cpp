// Which values read from memory can move an address, a guard or a trip
// count (analysis/ReadValueUses.h): one only ever converted to floating
// point cannot, and is not swept. Found with test/fuzz/kernel_fuzz.py: a
// warp-uniform `unsigned char` load added to a float sum was swept, the
// sweep was cut short, and every access of the kernel said it "may depend
// on values read from memory".
#include "ReadValueUses.h"

#include "CudaTestUnit.h"

#include <gtest/gtest.h>

namespace {

using warpcheck::analysis::usedOnlyAsFloatingPoint;
using namespace warpcheck::testing;


TEST(ReadValueUses, ValuesOnlyConvertedToFloatMoveNoAddress) {
  auto AST = parseCuda(R"(
__global__ void k(const unsigned char *in, const int *sizes, const float *scale,
                  float *out, int *idx) {
  float acc = 0.0f;
  unsigned char v = in[blockIdx.x];      // 0: only added to a float
  acc += v;
  float s = (float)sizes[0];             // 1: an explicit conversion
  acc += sizes[1] * 2.0f;                // 2: converted where it is used
  int n = sizes[2];                      // 3: an index
  out[n] = acc;                          // 4
  int m = sizes[3];                      // 5: added to a float, then changed
  acc += m;
  m += 1;
  int t = sizes[4];                      // 6: a bound
  for (int i = 0; i < t; ++i)
    acc += 1.0f;
  idx[0] = sizes[5];                     // 7, 8: stored as an integer
  out[1] = acc + s + scale[0];           // 9, 10
}
)",
                       CudaSide::Device);
  ASSERT_TRUE(AST);
  const clang::FunctionDecl *K = kernelNamed(AST->getASTContext(), "k");
  ASSERT_TRUE(K);
  auto Reads = elementAccessesOf(K);
  ASSERT_EQ(Reads.size(), 11u);
  clang::ASTContext &Ctx = AST->getASTContext();
  EXPECT_TRUE(usedOnlyAsFloatingPoint(Reads[0], Ctx));
  EXPECT_TRUE(usedOnlyAsFloatingPoint(Reads[1], Ctx));
  EXPECT_TRUE(usedOnlyAsFloatingPoint(Reads[2], Ctx));
  EXPECT_FALSE(usedOnlyAsFloatingPoint(Reads[3], Ctx));
  EXPECT_FALSE(usedOnlyAsFloatingPoint(Reads[5], Ctx));
  EXPECT_FALSE(usedOnlyAsFloatingPoint(Reads[6], Ctx));
  EXPECT_FALSE(usedOnlyAsFloatingPoint(Reads[8], Ctx));
}

// The copies of whole struct elements into locals (their initialisers, in
// source order).
std::vector<const clang::Expr *> copiesOf(const clang::FunctionDecl *K) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    std::vector<const clang::Expr *> Found;
    bool VisitVarDecl(clang::VarDecl *V) {
      if (V->getType()->isRecordType() && V->getInit())
        if (const auto *C = llvm::dyn_cast<clang::CXXConstructExpr>(V->getInit()))
          if (C->getNumArgs() == 1)
            Found.push_back(C->getArg(0)->IgnoreImplicit());
      return true;
    }
  } F;
  F.TraverseStmt(K->getBody());
  return F.Found;
}

/// A source parsed for the device, its kernel "k" and the struct copies
/// into locals of it.
struct ParsedCopies {
  std::unique_ptr<clang::ASTUnit> AST;
  const clang::FunctionDecl *Kernel = nullptr;
  std::vector<const clang::Expr *> Copies;
};

ParsedCopies parseCopies(const char *Source) {
  ParsedCopies P;
  P.AST = parseCuda(Source, CudaSide::Device);
  if (P.AST)
    P.Kernel = kernelNamed(P.AST->getASTContext(), "k");
  if (P.Kernel)
    P.Copies = copiesOf(P.Kernel);
  return P;
}

TEST(ReadValueUses, StructCopiedIntoALocalEveryFieldOfWhichIsRead) {
  ParsedCopies P = parseCopies(R"(
struct Vec3 { float x, y, z; };
struct Mixed { double d; float f, g; };
__device__ float use(Vec3 v) { return v.x; }
__global__ void k(const Vec3 *v, const Mixed *m, float *out) {
  int i = threadIdx.x;
  Vec3 a = v[i];                 // 0: every field read
  out[0] = a.x * a.y * a.z;
  Vec3 b = v[i + 1];             // 1: z never read
  out[1] = b.x + b.y;
  Vec3 c = v[i + 2];             // 2: passed whole
  out[2] = c.x + c.y + c.z + use(c);
  Vec3 d = v[i + 3];             // 3: a field written
  d.x = 1.0f;
  out[3] = d.x + d.y + d.z;
  Mixed e = m[i];                // 4: fields of two sizes
  out[4] = e.d + e.f + e.g;
}
)");
  ASSERT_TRUE(P.AST && P.Kernel);
  clang::ASTContext &Ctx = P.AST->getASTContext();
  const auto &Copies = P.Copies;
  ASSERT_EQ(Copies.size(), 5u);
  EXPECT_TRUE(warpcheck::analysis::copiedWholeAndEveryFieldRead(Copies[0], Ctx));
  for (size_t I = 1; I < Copies.size(); ++I)
    EXPECT_FALSE(warpcheck::analysis::copiedWholeAndEveryFieldRead(Copies[I], Ctx)) << I;
}

TEST(ReadValueUses, StructCopiedOnIntoMemoryIsReadWhereItIsStored) {
  // `int4 v = buf[i]; out[i] = v;`: one memory-to-memory copy on the
  // store's line (measured: shared-memory-shapes.cu, LDS.128 on line 16).
  ParsedCopies P = parseCopies(R"(
__global__ void k(int4 *out, int4 *in, float *f) {
  __shared__ int4 buf[64];
  int i = threadIdx.x;
  int4 a = buf[i];               // 0: stored whole on the next line
  out[i] = a;
  int4 b = buf[i + 1];           // 1: a field read too
  out[i + 1] = b;
  f[i] = b.x;
  int4 c = buf[i + 2];           // 2: something between
  f[i + 2] = 0;
  out[i + 2] = c;
  int4 d = in[i];                // 3: into a local, not memory
  int4 e;
  e = d;
  f[i + 3] = e.y;
}
)");
  ASSERT_TRUE(P.AST && P.Kernel);
  clang::ASTContext &Ctx = P.AST->getASTContext();
  const auto &Copies = P.Copies;
  ASSERT_EQ(Copies.size(), 4u);
  EXPECT_EQ(warpcheck::analysis::forwardedCopyLine(Copies[0], Ctx), std::optional<unsigned>(6));
  for (size_t I = 1; I < Copies.size(); ++I)
    EXPECT_FALSE(warpcheck::analysis::forwardedCopyLine(Copies[I], Ctx)) << I;
}

TEST(ReadValueUses, AWholeStructStoreTakesTheLineItsRightHandSideEndsOn) {
  // `p[0] =` / `value;`: clang emits the copy as it evaluates the right-hand
  // side, so the store is on the line that side ends on (measured on the
  // H200: SGEMM_CUDA's sgemmVectorize, STS.128 and STG.E.128 on the lines
  // of their right-hand sides, test/hw/realcode).
  auto AST = parseCuda(R"(
__global__ void k(const float *a, float *c, float *f) {
  int i = threadIdx.x;
  float4 t = reinterpret_cast<const float4 *>(&a[i * 8])[0];
  reinterpret_cast<float4 *>(
      &c[i * 8])[0] =
      t;
  __shared__ float s[512];
  reinterpret_cast<float4 *>(&s[i * 4])[0] =
      reinterpret_cast<const float4 *>(&a[i * 4])[0];
  reinterpret_cast<float4 *>(&c[i * 4])[0] = t;
  f[i] =
      1.0f;
}
)",
                       CudaSide::Device);
  ASSERT_TRUE(AST);
  const clang::FunctionDecl *K = kernelNamed(AST->getASTContext(), "k");
  ASSERT_TRUE(K);
  clang::ASTContext &Ctx = AST->getASTContext();
  // The float4 elements in order: the load of line 4 (a read, not a
  // store), the store of lines 5-7 (on 7), the shared store of line 9 (on
  // 10) and the load of line 10, the store of line 11 (one line: its own).
  std::vector<std::optional<unsigned>> Stores;
  for (const clang::Expr *E : elementAccessesOf(K))
    if (E->getType()->isRecordType())
      Stores.push_back(warpcheck::analysis::wholeStructStoreLine(E, Ctx));
  ASSERT_EQ(Stores.size(), 5u);
  EXPECT_FALSE(Stores[0]);
  EXPECT_EQ(Stores[1], std::optional<unsigned>(7));
  EXPECT_EQ(Stores[2], std::optional<unsigned>(10));
  EXPECT_FALSE(Stores[3]);
  EXPECT_FALSE(Stores[4]);
  // No float element is a whole struct's store.
  for (const clang::Expr *E : elementAccessesOf(K))
    if (!E->getType()->isRecordType())
      EXPECT_FALSE(warpcheck::analysis::wholeStructStoreLine(E, Ctx));
}

} // namespace
