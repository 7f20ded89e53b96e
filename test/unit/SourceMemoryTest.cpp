//===- SourceMemoryTest.cpp - what the source says about memory -----------===//
//
// Which global loads nvcc makes through the read-only data path
// (LDG.E.CONSTANT), as every listing of test/hw/sass/ and
// test/hw/generated/sass/ shows: a pointer to const the kernel never writes
// through, in a kernel whose global writes all go through __restrict__
// pointer parameters.
//
//===----------------------------------------------------------------------===//

#include "SourceMemory.h"

#include "CudaTestUnit.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <gtest/gtest.h>

using namespace warpcheck::testing;

namespace {

const char *Kernels = R"(
__global__ void restrictOut(const float *in, float *__restrict__ out) {
  out[threadIdx.x] = in[threadIdx.x];
}
__global__ void plainOut(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x];
}
__global__ void notConst(float *in, float *__restrict__ out) {
  out[threadIdx.x] = in[threadIdx.x];
}
__global__ void atomicPlain(const float *in, float *__restrict__ out, int *count) {
  out[threadIdx.x] = in[threadIdx.x];
  atomicAdd(count, 1);
}
__global__ void onlyShared(const float *in) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
}
__global__ void throughLocal(const float *in, float *__restrict__ out) {
  const float *row = in + 32 * blockIdx.x;
  out[threadIdx.x] = row[threadIdx.x];
}
)";

/// Whether Kernel's first global read is read through the constant path.
bool constantPath(llvm::StringRef Kernel) {
  static std::unique_ptr<clang::ASTUnit> AST = parseCuda(Kernels, CudaSide::Device);
  const clang::FunctionDecl *K = kernelNamed(AST->getASTContext(), Kernel);
  EXPECT_TRUE(K) << Kernel.str();
  if (!K)
    return false;
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::ArraySubscriptExpr *Read = nullptr;
    bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E) {
      const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E->getBase()->IgnoreParenImpCasts());
      if (!Read && Ref && Ref->getDecl()->getName() != "out" && Ref->getDecl()->getName() != "s")
        Read = E;
      return true;
    }
  } F;
  F.TraverseStmt(K->getBody());
  EXPECT_TRUE(F.Read) << Kernel.str();
  return F.Read && warpcheck::analysis::readThroughConstantPath(F.Read, K);
}

TEST(SourceMemory, ReadOnlyDataPathOnlyBesideRestrictWrites) {
  // hoisted-loads.cu's kernels: `const float *in` beside a restrict `out`.
  EXPECT_TRUE(constantPath("restrictOut"));
  EXPECT_TRUE(constantPath("throughLocal"));
  // mayBeWritten and every generated program: a plain pointer written.
  EXPECT_FALSE(constantPath("plainOut"));
  // Not a pointer to const; an atomic through a plain pointer; no global
  // write at all (no listing shows what nvcc does then: LDG.E kept).
  EXPECT_FALSE(constantPath("notConst"));
  EXPECT_FALSE(constantPath("atomicPlain"));
  EXPECT_FALSE(constantPath("onlyShared"));
}

} // namespace

TEST(SourceMemory, AccessOverSeveralLinesIsMadeWhereItsIndexEnds) {
  // nvdisasm -gi of test/inputs/multi-line-accesses.cu: each load on the
  // line of its index's last token, whatever the line breaks after.
  std::unique_ptr<clang::ASTUnit> AST = parseCuda(R"(
__global__ void k(const float *in, float *out, int k) {
  int i = threadIdx.x;
  float a = in[i * 32 +
               k];
  float b = in[i * 32 +
               k
              ];
  float c = in
      [i * 32];
  float d = in[i];
  out[i] = a + b + c + d;
}
)",
                                                  CudaSide::Device);
  std::vector<const clang::ArraySubscriptExpr *> Reads =
      elementAccessesOf(kernelNamed(AST->getASTContext(), "k"));
  ASSERT_EQ(Reads.size(), 5u);
  const clang::SourceManager &SM = AST->getASTContext().getSourceManager();
  using warpcheck::analysis::indexEndLine;
  EXPECT_EQ(indexEndLine(Reads[0], SM), std::optional<unsigned>(5));
  EXPECT_EQ(indexEndLine(Reads[1], SM), std::optional<unsigned>(7)); // not the `]`'s 8
  EXPECT_EQ(indexEndLine(Reads[2], SM), std::optional<unsigned>(10));
  EXPECT_EQ(indexEndLine(Reads[3], SM), std::nullopt); // one line
  EXPECT_EQ(indexEndLine(Reads[4], SM), std::nullopt); // out[i]
}
