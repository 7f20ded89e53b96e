//===- HostObjectsTest.cpp - launch shapes held by host objects -----------===//
//
// Host code that keeps a launch's shape in an object: set by a constructor
// (its member initializers, its body, a base's constructor, a default
// member initializer), changed by methods, read by the method that
// launches (`block.x = m_threadBlockSize` in the SDK's PiEstimator idiom),
// called on a variable, through a pointer to one, or as operator().
//
//===----------------------------------------------------------------------===//

#include "HostLaunchUnit.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

using namespace warpcheck::analysis;
using warpcheck::testing::blocks;
using warpcheck::testing::HostUnit;
using warpcheck::testing::integerArgument;
using warpcheck::testing::Kernels;

namespace {

TEST(HostObjects, ConstructorsSetTheFieldsAMethodLaunchesWith) {
  HostUnit U(std::string(Kernels) + R"(
struct Runner {
  int block, grid;
  int rows = 2;
  dim3 shape;
  Runner(int b) : block(b), grid(4096 / b) { shape.x = b; shape.y = rows; }
  void launch(float *p) { k<<<grid, shape>>>(p, block); }
};
int main() {
  float *p;
  Runner r(64);
  r.launch(p);
  return 0;
})");
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Source, LaunchSource::LaunchSite);
  EXPECT_EQ(Cs[0].Block.str(), "(64, 2, 1)");
  EXPECT_EQ(Cs[0].Grid.str(), "(64, 1, 1)");
  EXPECT_EQ(integerArgument(Cs[0], "n"), 64);
}

TEST(HostObjects, MethodsChangeTheObjectTheyAreCalledOn) {
  HostUnit U(std::string(Kernels) + R"(
class Plan {
public:
  Plan() : threads(32) {}
  void widen(int factor) { threads *= factor; }
  void setRows(int r) { this->rows = r; }
  void run(float *p) const { k<<<rows, threads>>>(p, rows * threads); }
private:
  int threads;
  int rows = 1;
};
int main() {
  float *p;
  Plan a, b;
  a.widen(4);
  Plan *other = &b;
  other->setRows(8);
  a.run(p);
  other->run(p);
  return 0;
})");
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 2u);
  EXPECT_EQ(blocks(Cs), (std::vector<std::string>{"(128, 1, 1)", "(32, 1, 1)"}));
  EXPECT_EQ(integerArgument(Cs[0], "n"), 128);
  EXPECT_EQ(Cs[1].Grid.str(), "(8, 1, 1)");
  EXPECT_EQ(integerArgument(Cs[1], "n"), 256);
}

TEST(HostObjects, AFunctorTemplateLaunchesWithItsMembers) {
  // The SDK's Monte Carlo estimators: the block size is a constructor's
  // parameter, kept in a member, read by operator().
  HostUnit U(std::string(Kernels) + R"(
template <typename Real> class Estimator {
public:
  Estimator(unsigned numSims, unsigned threadBlockSize)
      : m_numSims(numSims), m_threadBlockSize(threadBlockSize) {}
  Real operator()() {
    dim3 block;
    dim3 grid;
    block.x = m_threadBlockSize;
    grid.x = (m_numSims + block.x - 1) / block.x;
    k<<<grid, block, block.x * sizeof(unsigned int)>>>(nullptr, m_numSims);
    return 0;
  }
private:
  unsigned int m_numSims;
  unsigned int m_threadBlockSize;
};
int main() {
  Estimator<float> estimator(1 << 20, 128);
  float pi = estimator();
  return pi > 3;
})");
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Block.str(), "(128, 1, 1)");
  EXPECT_EQ(Cs[0].Grid.str(), "(8192, 1, 1)");
  EXPECT_EQ(Cs[0].DynamicSharedBytes, 512u);
  EXPECT_EQ(integerArgument(Cs[0], "n"), 1 << 20);
}

TEST(HostObjects, BasesAndOverridesAreTheObjectsOwn) {
  HostUnit U(std::string(Kernels) + R"(
__global__ void other(float *p, int n) {}
struct Shape {
  int rows;
  explicit Shape(int r) : rows(r) {}
  virtual int threads() const { return 32; }
  virtual ~Shape() {}
  void go(float *p) { k<<<rows, threads()>>>(p, rows); }
};
struct Wide : Shape {
  Wide() : Shape(6) {}
  int threads() const override { return 256; }
};
int main() {
  float *p;
  Wide w;
  w.go(p);
  Shape s(3);
  s.go(p);
  return 0;
})");
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 2u);
  EXPECT_EQ(blocks(Cs), (std::vector<std::string>{"(256, 1, 1)", "(32, 1, 1)"}));
  EXPECT_EQ(Cs[0].Grid.str(), "(6, 1, 1)");
  EXPECT_EQ(Cs[1].Grid.str(), "(3, 1, 1)");
}

TEST(HostObjects, AnObjectNotFollowedIsSaidSo) {
  // An element of an array of objects at an index known only at run time:
  // which object the method runs on is not known.
  HostUnit U(std::string(Kernels) + R"(
#include <cstdlib>
struct Runner {
  int block;
  Runner() : block(64) {}
  void launch(float *p) { k<<<1, block>>>(p, 0); }
};
int main(int argc, char **argv) {
  float *p;
  Runner rs[4];
  rs[atoi(argv[1]) % 4].launch(p);
  return 0;
})");
  auto Cs = U.configs("k");
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Source, LaunchSource::Default);
  ASSERT_EQ(Cs[0].Unevaluated.size(), 1u);
  EXPECT_EQ(Cs[0].Unevaluated[0], "the launch at unit.cu:7 uses a member of the object "
                                  "'Runner', which is not followed");
}

// Three units, as the SDK's Monte Carlo estimators split them: main.cpp
// sets a Test's fields and calls its operator(), defined in test.cpp, which
// builds a PiEstimator and calls its operator(), defined with its launch
// in piestimator.cu. Each unit's calls of another's methods carry what it
// knows of the object; the unit that defines the method runs it on an
// object built from that.
const char *EstimatorClass = R"(
template <typename Real> class PiEstimator {
public:
  PiEstimator(unsigned int numSims, unsigned int device, unsigned int threadBlockSize);
  Real operator()();
private:
  unsigned int m_numSims, m_device, m_threadBlockSize;
};
template <typename Real> struct Test {
  Test() : pass(false) {}
  int device;
  unsigned int numSims;
  unsigned int threadBlockSize;
  bool pass;
  bool operator()();
};
)";

TEST(HostObjects, CallsOfAnotherUnitsMethodsCarryTheirObject) {
  HostUnit Main(std::string(EstimatorClass) + R"(
int main() {
  Test<float> test;
  test.numSims = 100000;
  test.threadBlockSize = 128;
  test.device = 0;
  return test() ? 0 : 1;
})");
  CrossUnitCalls FromMain = Main.callsOfOtherUnits();
  ASSERT_EQ(FromMain.count("_ZN4TestIfEclEv"), 1u);
  ASSERT_EQ(FromMain["_ZN4TestIfEclEv"].size(), 1u);
  const CrossUnitCall &TestCall = FromMain["_ZN4TestIfEclEv"][0];
  EXPECT_EQ(TestCall.ObjectConstructor, "");
  // Test's constructor, run in main.cpp, set pass too.
  EXPECT_EQ(TestCall.ObjectFields,
            (std::map<std::string, std::int64_t>{
                {"device", 0}, {"numSims", 100000}, {"pass", 0}, {"threadBlockSize", 128}}));

  // test.cpp runs Test<float>::operator() on that object.
  HostUnit TestUnit(std::string(EstimatorClass) + R"(
template <typename Real> bool Test<Real>::operator()() {
  PiEstimator<Real> estimator(numSims, device, threadBlockSize);
  Real result = estimator();
  pass = result > 3;
  return pass;
}
template struct Test<float>;
)",
                    &FromMain);
  CrossUnitCalls FromTest = TestUnit.callsOfOtherUnits();
  ASSERT_EQ(FromTest.count("_ZN11PiEstimatorIfEclEv"), 1u);
  ASSERT_EQ(FromTest["_ZN11PiEstimatorIfEclEv"].size(), 1u);
  const CrossUnitCall &EstimatorCall = FromTest["_ZN11PiEstimatorIfEclEv"][0];
  EXPECT_EQ(EstimatorCall.ObjectConstructor, "_ZN11PiEstimatorIfEC1Ejjj");
  ASSERT_EQ(EstimatorCall.ObjectConstructorArguments.size(), 3u);
  EXPECT_EQ(EstimatorCall.ObjectConstructorArguments.at(0).Integer, 100000);
  EXPECT_EQ(EstimatorCall.ObjectConstructorArguments.at(1).Integer, 0);
  EXPECT_EQ(EstimatorCall.ObjectConstructorArguments.at(2).Integer, 128);

  // piestimator.cu builds the estimator with those arguments and runs its
  // operator(): the launch's block is the test's threadBlockSize.
  HostUnit Estimator(std::string(Kernels) + EstimatorClass + R"(
template <typename Real>
PiEstimator<Real>::PiEstimator(unsigned int numSims, unsigned int device,
                               unsigned int threadBlockSize)
    : m_numSims(numSims), m_device(device), m_threadBlockSize(threadBlockSize) {}
template <typename Real> Real PiEstimator<Real>::operator()() {
  dim3 block;
  dim3 grid;
  block.x = m_threadBlockSize;
  grid.x = (m_numSims + block.x - 1) / block.x;
  k<<<grid, block>>>(nullptr, m_numSims);
  return 0;
}
template class PiEstimator<float>;
)",
                     &FromTest);
  auto Cs = Estimator.configs("k");
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Source, LaunchSource::LaunchSite);
  EXPECT_EQ(Cs[0].Block.str(), "(128, 1, 1)");
  EXPECT_EQ(Cs[0].Grid.str(), "(782, 1, 1)");
  EXPECT_EQ(integerArgument(Cs[0], "n"), 100000);
}

} // namespace
