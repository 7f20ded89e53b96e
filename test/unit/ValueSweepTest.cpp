// The words the value sweep uses for the values that give an access's worst
// case (analysis/ValueSweep.h): each pattern the messages promise.
#include "ValueSweep.h"

#include "CudaTestUnit.h"

#include "warpcheck/analysis/KernelAnalysis.h"

#include "clang/AST/Expr.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using warpcheck::analysis::describeValues;
using warpcheck::analysis::sweepValues;

// The values tried, ascending, as the sweep hands them to describeValues.
std::vector<std::int64_t> ascending() {
  std::vector<std::int64_t> V = sweepValues();
  std::sort(V.begin(), V.end());
  return V;
}

std::vector<std::int64_t> allBut(const std::vector<std::int64_t> &Out) {
  std::vector<std::int64_t> V;
  for (std::int64_t X : ascending())
    if (std::find(Out.begin(), Out.end(), X) == Out.end())
      V.push_back(X);
  return V;
}

TEST(ValueSweep, WorstValuesInWords) {
  const std::vector<std::int64_t> All = ascending();
  ASSERT_GT(All.size(), 40u);
  EXPECT_EQ(describeValues({"n"}, All, All), "for every value tried");
  // A threshold: every value up to 16.
  std::vector<std::int64_t> Small;
  for (std::int64_t V : All)
    if (V <= 16)
      Small.push_back(V);
  EXPECT_EQ(describeValues({"size"}, Small, All), "when 'size' <= 16");
  // An alignment: every value but the multiples of 8.
  std::vector<std::int64_t> Odd;
  for (std::int64_t V : All)
    if (V % 8 != 0)
      Odd.push_back(V);
  EXPECT_EQ(describeValues({"offset"}, Odd, All), "unless 'offset' is a multiple of 8");
  // Two symbols swept together.
  EXPECT_EQ(describeValues({"a", "b"}, {4, 8}, All), "when 'a' and 'b' are 4 or 8");
  // A threshold for two symbols is said of both, for three of all.
  EXPECT_EQ(describeValues({"a", "b"}, Small, All), "when 'a' and 'b' both <= 16");
  EXPECT_EQ(describeValues({"a", "b", "c"}, Small, All), "when 'a', 'b' and 'c' all <= 16");
  // The worst case nearly everywhere: the few values that escape it.
  EXPECT_EQ(describeValues({"numElements"}, allBut({7, 8, 9}), All),
            "unless 'numElements' is 7, 8 or 9");
  // Neither: how many, with two of them.
  EXPECT_EQ(describeValues({"n"}, {3, 5, 7, 9}, {1, 2, 3, 4, 5, 7, 8, 9}),
            "for 4 of the 8 values of 'n' tried (such as 3 and 5)");
}
} // namespace

namespace {

// The values a kernel's code tests its parameters against, tried right after
// the primary value: the bit of a mode flag (shoc's qtclustering tests
// `matrix_type_mask & FULL_STORAGE_MATRIX`, 0x10, and its sweep, cut short
// by the budget after three values, never took the full-storage branch), the
// constant of an equality, both sides of a threshold, read through the
// device functions the kernel calls.
TEST(ValueSweep, ValuesTheCodeTests) {
  std::unique_ptr<clang::ASTUnit> AST = warpcheck::testing::parseCuda(R"(
#define FULL_STORAGE 0x10
__device__ int below(int n, int i) { return i < n && n >= 128; }
__global__ void k(int mode, int n, float *out, int *flags) {
  if (mode & FULL_STORAGE)
    out[threadIdx.x * 2] = 1;
  if (mode == 3 || flags[0] == 7)
    out[threadIdx.x] = below(n, threadIdx.x);
  if (threadIdx.x < 64)
    out[0] = 0;
}
)", warpcheck::testing::CudaSide::Device);
  const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(AST->getASTContext(), "k");
  ASSERT_TRUE(K);
  // flags[0] == 7 and threadIdx.x < 64 test no parameter; `i < n` tests two
  // (no constant).
  EXPECT_EQ(warpcheck::analysis::valuesTheCodeTests(K),
            (std::vector<std::int64_t>{16, 3, 128, 129}));
}

// The parameters the code compares as upper bounds, which the run after the
// sweep gives a large value (and the others 1): the larger side of `<`,
// `<=`, `>` and `>=`, through arithmetic and the functions the kernel calls;
// a parameter only ever on the smaller side, or never compared, is not one.
TEST(ValueSweep, ParametersComparedAsUpperBounds) {
  std::unique_ptr<clang::ASTUnit> AST = warpcheck::testing::parseCuda(R"(
__device__ bool inside(int i, int rows) { return rows > i; }
__global__ void k(float *out, int count, int ranks, int rank, int stride, int width, int rows,
                  int first) {
  for (int i = blockIdx.x * ranks + rank; i < count; i += stride)
    out[i] = 1;
  if (threadIdx.x + first <= 2 * width && inside(threadIdx.y, rows))
    out[threadIdx.x] = 2;
}
)", warpcheck::testing::CudaSide::Device);
  const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(AST->getASTContext(), "k");
  ASSERT_TRUE(K);
  // 'i' of inside() is compared too, on the smaller side; 'rows' is named
  // in the callee with the kernel's name.
  EXPECT_EQ(warpcheck::analysis::limitParameters(K),
            (std::set<std::string>{"count", "rows", "width"}));
}

// A flag tested inside a loop dealt out over processes: the loop is entered
// only with 'count' large and 'ranks' and 'rank' small, and its row arm only
// with 'layout' & 16. The sweep (one value for all) never enters the loop;
// the run with the others 1 takes the column arm (layout keeps 4096, read
// only there); the row arm comes from one more run with 'layout' 16, the
// value the code tests, and says so.
TEST(ValueSweep, BoundedRunTriesTheValuesTheCodeTests) {
  std::unique_ptr<clang::ASTUnit> AST = warpcheck::testing::parseCuda(R"(
__global__ void rowsOrColumns(const float *rows, const float *columns, float *out, int count,
                              int ranks, int rank, int stride, int layout) {
  for (int i = blockIdx.x * ranks + rank; i < count; i += stride) {
    float v;
    if (layout & 16)
      v = rows[i * 32 + threadIdx.x];
    else
      v = columns[threadIdx.x * count + i];
    out[i * 32 + threadIdx.x] = v;
  }
}
)", warpcheck::testing::CudaSide::Device);
  clang::ASTContext &Ctx = AST->getASTContext();
  const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(Ctx, "rowsOrColumns");
  ASSERT_TRUE(K);
  using namespace warpcheck::analysis;
  LaunchConfig Launch;
  Launch.Block = Dim3{32, 1, 1};
  Launch.Grid = Dim3{64, 1, 1};
  Launch.GridKnown = true;
  Launch.Source = LaunchSource::LaunchSite;
  Launch.Description = "the test's launch";
  std::vector<KernelLaunchAnalysis> Analyses = analyzeKernel(K, {Launch}, AnalysisOptions());
  ASSERT_EQ(Analyses.size(), 1u);
  std::map<std::string, const AccessResult *> ByText;
  for (const AccessResult &A : Analyses.front().Accesses)
    ByText[clang::Lexer::getSourceText(
               clang::CharSourceRange::getTokenRange(A.Site.Expr->getSourceRange()),
               Ctx.getSourceManager(), Ctx.getLangOpts())
               .str()] = &A;
  const AccessResult *Rows = ByText["rows[i * 32 + threadIdx.x]"];
  const AccessResult *Columns = ByText["columns[threadIdx.x * count + i]"];
  ASSERT_TRUE(Rows);
  ASSERT_TRUE(Columns);
  // One 128-byte row per warp: 4 sectors; lanes 'count' = 4096 floats
  // apart: 32.
  EXPECT_EQ(Rows->Cost.SectorsPerRequest, 4);
  EXPECT_EQ(Columns->Cost.SectorsPerRequest, 32);
  EXPECT_EQ(Rows->Status, AccessStatus::Assumed);
  EXPECT_EQ(Columns->Status, AccessStatus::Assumed);
  auto Says = [](const AccessResult *A, const std::string &Text) {
    return std::any_of(A->Assumptions.begin(), A->Assumptions.end(),
                       [&](const Assumption &X) { return X.Text.find(Text) != std::string::npos; });
  };
  EXPECT_TRUE(Says(Rows, "reached only when 'count' (compared as an upper bound) is large, "
                         "'layout' is 16 (a value the code tests) and 'ranks' and 'rank' "
                         "small, none known at a launch site (no one value for all of them "
                         "reaches it): simulated with 4096, 16 and 1"));
  EXPECT_TRUE(Says(Columns, "reached only when 'count' (compared as an upper bound) is large "
                            "and 'ranks' and 'rank' small"));
  EXPECT_FALSE(Says(Columns, "'layout'"));
}

} // namespace

namespace {

using namespace warpcheck::analysis;

/// The accesses of Kernel's one launch of Blocks blocks of 256 threads, by
/// source text.
struct AnalysedAccesses {
  std::unique_ptr<clang::ASTUnit> AST;
  std::vector<KernelLaunchAnalysis> Analyses;
  std::map<std::string, const AccessResult *> ByText;
};

std::unique_ptr<AnalysedAccesses> analyse(const std::string &Code, llvm::StringRef Kernel,
                                          unsigned Blocks) {
  auto Out = std::make_unique<AnalysedAccesses>();
  Out->AST = warpcheck::testing::parseCuda(Code, warpcheck::testing::CudaSide::Device);
  clang::ASTContext &Ctx = Out->AST->getASTContext();
  const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(Ctx, Kernel);
  if (!K)
    return Out;
  LaunchConfig Launch;
  Launch.Block = Dim3{256, 1, 1};
  Launch.Grid = Dim3{Blocks, 1, 1};
  Launch.GridKnown = true;
  Launch.Source = LaunchSource::LaunchSite;
  Launch.Description = "the test's launch";
  Out->Analyses = analyzeKernel(K, {Launch}, AnalysisOptions());
  if (Out->Analyses.size() == 1)
    for (const AccessResult &A : Out->Analyses.front().Accesses)
      Out->ByText[clang::Lexer::getSourceText(
                      clang::CharSourceRange::getTokenRange(A.Site.Expr->getSourceRange()),
                      Ctx.getSourceManager(), Ctx.getLangOpts())
                      .str() +
                  (A.Site.Op == AccessOp::Store ? " (store)" : "")] = &A;
  return Out;
}

/// The record the H100 made of Kernel's shared store at Line in
/// test/hw/inputs/shared-bounds-refinement.json: wavefronts over requests
/// (its ideal wavefronts, one per request).
double measuredStore(llvm::StringRef Kernel, std::int64_t Line) {
  auto Records = llvm::MemoryBuffer::getFile(
      WARPCHECK_SOURCE_DIR "/test/hw/inputs/shared-bounds-refinement.json");
  if (!Records)
    return -1;
  llvm::Expected<llvm::json::Value> Json = llvm::json::parse((*Records)->getBuffer());
  if (!Json)
    return -1;
  for (const llvm::json::Value &R : *Json->getAsObject()->getArray("records")) {
    const llvm::json::Object &O = *R.getAsObject();
    if (O.getString("function") == Kernel && O.getInteger("line") == Line &&
        O.getString("space") == "shared" && O.getString("op") == "store")
      return *O.getNumber("wavefronts") / *O.getNumber("ideal_wavefronts");
  }
  return -1;
}

std::unique_ptr<AnalysedAccesses> analyseRefinementInput(llvm::StringRef Kernel) {
  auto Source = llvm::MemoryBuffer::getFile(WARPCHECK_SOURCE_DIR
                                            "/test/inputs/shared-bounds-refinement.cu");
  if (!Source)
    return std::make_unique<AnalysedAccesses>();
  // One block of 256 threads, as the input's host code launches both.
  return analyse((*Source)->getBuffer().str(), Kernel, 1);
}

// test/inputs/shared-bounds-refinement.cu's refineThenScan: the up-sweep of
// a work-efficient scan over a 'count' parameter, in a list of 2 * 256 + 1
// 16-bit entries (a bisection's compaction list), after a refinement nest
// long enough to exhaust the sweep's budget in a few runs; counts beyond
// the list take a spill branch first. The largest count the list holds is
// 512; its tree, on the block's eight warps, is what the H100 measured
// (55 wavefronts in 20 requests: levels of 8, 4, 2 and 1 warps at 1-, 2-,
// 4- and 8-way, then one warp at 8, 8, 4, 2 and 1), as it measures
// eigenvalues' bisectKernelLarge (test/hw/realcode). A count of 2052 (a
// value the code tests) leaves the list: it is bisected down to 512 within
// the budget, and its own run counts only for the spill branch no feasible
// count reaches.
TEST(ValueSweep, ValuesThatLeaveASharedArray) {
  auto R = analyseRefinementInput("refineThenScan");
  ASSERT_EQ(R->Analyses.size(), 1u);
  const AccessResult *Store = R->ByText["list[bi] (store)"];
  const AccessResult *Spill = R->ByText["spilled[blockIdx.x * blockDim.x + tid] (store)"];
  ASSERT_TRUE(Store);
  ASSERT_TRUE(Spill);
  ASSERT_TRUE(Store->Dependence);
  // The worst count the list holds, on all eight warps, as measured.
  const double Measured = measuredStore("refineThenScan", 55);
  EXPECT_DOUBLE_EQ(Measured, 55.0 / 20.0);
  EXPECT_DOUBLE_EQ(Store->Cost.WavefrontsPerRequest, Measured);
  EXPECT_DOUBLE_EQ(Store->Dependence->Worst, Measured);
  EXPECT_NE(Store->Dependence->WorstCondition.find(">= 512"), std::string::npos)
      << Store->Dependence->WorstCondition;
  // No count past the list is a sample of the tree's.
  for (const ValueDependence::Sample &S : Store->Dependence->Samples)
    EXPECT_LE(S.Value, 512) << Store->Dependence->WorstCondition;
  // The spill branch, which only such counts reach, is still reported.
  EXPECT_EQ(Spill->Cost.SectorsPerRequest, 4);
}

// The input's scanOfGrownCount grows its count while the data asks (a loop
// whose exit tests a float read from memory: the count after it is not
// known) and sizes the same tree with it: the levels run under a
// data-dependent condition, and the lanes whose entry would lie past the
// list's end are those no count the list holds lets through. They are
// left out, and the tree is that of the largest count, 512, as measured
// for 'list[bi]'; 'list[ai]' reads entry 511 from lane 0 one level more
// (56 wavefronts in 21 requests).
TEST(ValueSweep, LanesUnderDataThatWouldLeaveASharedArray) {
  auto R = analyseRefinementInput("scanOfGrownCount");
  ASSERT_EQ(R->Analyses.size(), 1u);
  const AccessResult *Store = R->ByText["list[bi] (store)"];
  const AccessResult *Left = R->ByText["list[ai]"];
  ASSERT_TRUE(Store);
  ASSERT_TRUE(Left);
  const double Measured = measuredStore("scanOfGrownCount", 79);
  EXPECT_DOUBLE_EQ(Measured, 55.0 / 20.0);
  EXPECT_DOUBLE_EQ(Store->Cost.WavefrontsPerRequest, Measured);
  EXPECT_DOUBLE_EQ(Left->Cost.WavefrontsPerRequest, 56.0 / 21.0);
}

} // namespace

namespace {

using namespace warpcheck::analysis;

bool says(const AccessResult *A, const std::string &Text) {
  return std::any_of(A->Assumptions.begin(), A->Assumptions.end(),
                     [&](const Assumption &X) { return X.Text.find(Text) != std::string::npos; });
}

// A bool parameter no launch site binds: every value the sweep tries
// converts to true, so only the run with the flags off reaches the false
// arm (SHOC's QT clustering reads 'work[pnt2_indx * N0 + latest_point]'
// there when the texture is not used, as the program measured did). Both
// arms are reported, the false one from that run, said so.
TEST(ValueSweep, TheFalseArmOfAnUnboundFlagIsReached) {
  auto R = analyse(R"cu(
    __global__ void flagged(float *out, const float *in, int n, bool direct, bool scale) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      float s = scale ? 2.0f : 1.0f;
      if (direct)
        out[i] = in[i] * s;
      else
        out[i * 32 % n] = in[i * 32 % n] * s;
    }
  )cu",
                   "flagged", 4);
  ASSERT_EQ(R->Analyses.size(), 1u);
  const AccessResult *Direct = R->ByText["in[i]"];
  const AccessResult *Strided = R->ByText["in[i * 32 % n]"];
  const AccessResult *StridedStore = R->ByText["out[i * 32 % n] (store)"];
  ASSERT_TRUE(Direct);
  ASSERT_TRUE(Strided);
  ASSERT_TRUE(StridedStore);
  EXPECT_EQ(Direct->Cost.SectorsPerRequest, 4);
  // 128 bytes apart at 'n' = 4096 floats: a sector per lane.
  EXPECT_EQ(Strided->Cost.SectorsPerRequest, 32);
  EXPECT_EQ(StridedStore->Cost.SectorsPerRequest, 32);
  EXPECT_EQ(Strided->Status, AccessStatus::Assumed);
  EXPECT_TRUE(says(Strided, "reached only when 'direct' and 'scale' are false, none known at a "
                            "launch site (every value the sweep tries makes a bool true): "
                            "simulated with them false and the other values at 4096"));
  EXPECT_FALSE(says(Direct, "are false"));
}

// The flag's false arm inside a branch on a mode's bit that the primary
// value (4096) leaves off and the sweep's 1 sets: the run with the flag off
// is made from that value too (QT clustering's `if (matrix_type_mask &
// FULL_STORAGE_MATRIX)` around its texture flag's branch).
TEST(ValueSweep, TheFalseArmOfAFlagUnderAModeBitIsReached) {
  auto R = analyse(R"cu(
    __global__ void moded(float *out, const float *in, int n, int mode, bool direct) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (mode & 1) {
        if (direct)
          out[i] = in[i];
        else
          out[i] = in[i * 32 % n];
      }
    }
  )cu",
                   "moded", 4);
  ASSERT_EQ(R->Analyses.size(), 1u);
  const AccessResult *Strided = R->ByText["in[i * 32 % n]"];
  ASSERT_TRUE(Strided);
  // 'n' = 1: every lane reads in[0], one sector.
  EXPECT_EQ(Strided->Cost.SectorsPerRequest, 1);
  // The true arm, which odd modes reach: said as such ("reached unless",
  // not "reached only unless").
  const AccessResult *Packed = R->ByText["in[i]"];
  ASSERT_TRUE(Packed);
  EXPECT_TRUE(says(Packed, "reached unless 'mode' is a multiple of 2"));
  EXPECT_TRUE(says(Strided, "reached only when 'direct' is false, not known at a launch site "
                            "(every value the sweep tries makes a bool true): simulated with it "
                            "false and the other values at 1"));
}

} // namespace
