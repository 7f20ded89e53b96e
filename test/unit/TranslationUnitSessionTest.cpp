//===- TranslationUnitSessionTest.cpp - one unit's analyses, once ---------===//
//
// A translation unit's session computes each kernel's analysis once per
// options and keeps it; the cuda-* checks of one unit share one session
// (checks/CheckSessions.h), and a session lent by whoever parses the unit
// (the warpcheck binary's job) is the one they use.
//
//===----------------------------------------------------------------------===//

#include "CheckSessions.h"
#include "CudaTestUnit.h"

#include "warpcheck/analysis/TranslationUnitSession.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <memory>
#include <vector>

using namespace warpcheck::analysis;
using namespace warpcheck::testing;
using clang::tidy::cuda::CheckSessions;

namespace {

const char *Code = R"(
__global__ void copy(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
int main() {
  copy<<<4, 128>>>(nullptr, nullptr);
  return 0;
}
)";

/// The host side: the launch in main gives the kernel its block.
std::unique_ptr<clang::ASTUnit> parse() { return parseCuda(Code, CudaSide::Host); }

TEST(TranslationUnitSession, AnalysesOncePerOptions) {
  auto AST = parse();
  ASSERT_TRUE(AST);
  clang::ASTContext &Ctx = AST->getASTContext();
  const clang::FunctionDecl *Copy = kernelNamed(Ctx, "copy");
  ASSERT_TRUE(Copy);
  TranslationUnitSession Session(Ctx);
  AnalysisOptions Options;
  const auto &First = Session.analyze(Copy, Options);
  ASSERT_EQ(First.size(), 1u);
  EXPECT_EQ(First[0].Launch.Block.X, 128u);
  ASSERT_EQ(First[0].Accesses.size(), 2u);
  // The same options: the kept result, not a second simulation.
  EXPECT_EQ(&Session.analyze(Copy, Options), &First);
  // Other options: another result.
  AnalysisOptions Fewer = Options;
  Fewer.MaxSimulatedWarps = 4;
  EXPECT_NE(&Session.analyze(Copy, Fewer), &First);
  // Uncached: computed afresh, with the same numbers.
  std::vector<KernelLaunchAnalysis> Again = Session.analyzeUncached(Copy, Options);
  ASSERT_EQ(Again.size(), 1u);
  EXPECT_EQ(Again[0].Accesses[0].Cost.SectorsPerRequest,
            First[0].Accesses[0].Cost.SectorsPerRequest);
  EXPECT_EQ(&Session.launchSites(), &Session.launchSites());
}

/// Recurses with a frame of 64 KB until the stack runs out (Depth is
/// never reached).
int useStack(int Depth) {
  volatile char Frame[65536];
  Frame[0] = static_cast<char>(Depth);
  return Depth <= 0 ? Frame[0] : useStack(Depth - 1) + Frame[Depth % 65536];
}

TEST(TranslationUnitSession, AFailureInOneKernelsWorkStaysThere) {
  auto AST = parse();
  ASSERT_TRUE(AST);
  clang::ASTContext &Ctx = AST->getASTContext();
  const clang::FunctionDecl *Copy = kernelNamed(Ctx, "copy");
  ASSERT_TRUE(Copy);
  TranslationUnitSession Session(Ctx);
  // A fault: contained, said in words, and the kernel is not tried again.
  EXPECT_FALSE(Session.contain(Copy, [] { std::raise(SIGSEGV); }));
  ASSERT_TRUE(Session.failureIn(Copy));
  EXPECT_EQ(*Session.failureIn(Copy), "internal error: a segmentation fault (SIGSEGV); please "
                                      "report it with this file");
  bool Ran = false;
  EXPECT_FALSE(Session.contain(Copy, [&] { Ran = true; }));
  EXPECT_FALSE(Ran);
  // Said once.
  EXPECT_TRUE(Session.takeFailureReport(Copy));
  EXPECT_FALSE(Session.takeFailureReport(Copy));

  // Another session of the unit: an abort, then the work goes on.
  TranslationUnitSession Other(Ctx);
  EXPECT_FALSE(Other.contain(Copy, [] { std::abort(); }));
  EXPECT_EQ(*Other.failureIn(Copy), "internal error: an abort (SIGABRT: a failed assertion or a "
                                    "fatal error); please report it with this file");

  // A stack overflow: the kernel's 64 MB are used up; no SIGSEGV.
  TranslationUnitSession Deep(Ctx);
  EXPECT_FALSE(Deep.contain(Copy, [] { useStack(1 << 30); }));
  EXPECT_EQ(*Deep.failureIn(Copy),
            "the code is nested too deeply (it used up the 64 MB of stack the analysis has)");

  // Work that succeeds runs once and reports nothing.
  TranslationUnitSession Fine(Ctx);
  int Runs = 0;
  EXPECT_TRUE(Fine.contain(Copy, [&] { ++Runs; }));
  EXPECT_EQ(Runs, 1);
  EXPECT_FALSE(Fine.failureIn(Copy));
  EXPECT_FALSE(Fine.takeFailureReport(Copy));
}

TEST(CheckSessions, TheChecksOfAUnitShareOneSession) {
  auto AST = parse();
  ASSERT_TRUE(AST);
  clang::ASTContext &Ctx = AST->getASTContext();
  CheckSessions Sessions;
  auto First = Sessions.acquire(Ctx);
  auto Second = Sessions.acquire(Ctx);
  EXPECT_EQ(First.get(), Second.get());
  EXPECT_EQ(&First->context(), &Ctx);
  // Once every check dropped it, the session is gone and the next unit
  // starts its own.
  std::weak_ptr<TranslationUnitSession> Old = First;
  First.reset();
  Second.reset();
  EXPECT_TRUE(Old.expired());
  auto Fresh = Sessions.acquire(Ctx);
  EXPECT_TRUE(Fresh);
}

TEST(CheckSessions, ALentSessionIsTheOneTheChecksUse) {
  auto AST = parse();
  ASSERT_TRUE(AST);
  clang::ASTContext &Ctx = AST->getASTContext();
  CheckSessions Sessions;
  auto Owned = std::make_shared<TranslationUnitSession>(Ctx);
  {
    CheckSessions::Loan Loan(Owned);
    EXPECT_EQ(Sessions.acquire(Ctx).get(), Owned.get());
  }
  // The loan ended: the checks start their own.
  EXPECT_NE(Sessions.acquire(Ctx).get(), Owned.get());
}

} // namespace
