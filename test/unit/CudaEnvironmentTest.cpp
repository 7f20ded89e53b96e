//===- CudaEnvironmentTest.cpp - the parse arguments of a toolkit ---------===//
//
// The clang arguments (tool/CudaEnvironment.h) for fake toolkits built in
// temporary folders, and the bundled headers' location.
//
//===----------------------------------------------------------------------===//

#include "ArgumentLists.h"
#include "CudaEnvironment.h"

#include "FakeCudaToolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace warpcheck::tool;
using namespace warpcheck::toolchain;
using namespace warpcheck::testing;

namespace {

/// The repository's tool/include, found from this file's path.
std::string sourceIncludeRoot() {
  llvm::SmallString<256> P(__FILE__);
  fs::make_absolute(P);
  path::remove_filename(P); // test/unit
  path::append(P, "..", "..", "tool", "include");
  path::remove_dots(P, true);
  return std::string(P);
}

//===----------------------------------------------------------------------===//
// Parse arguments.
//===----------------------------------------------------------------------===//

TEST(CudaParseArgumentsTest, ToolkitThatClangSupports) {
  TempDir T;
  makeFakeToolkit(T.path(), FakeToolkitSpec());
  std::string Why;
  std::vector<std::string> Args =
      cudaParseArguments(inspectCudaToolkit(T.path(), Why), "/opt/wc/include");
  std::vector<std::string> Expected = {
      "--cuda-path=" + T.path(), "-Wno-unknown-cuda-version", "-Wno-register", "-Wno-c++11-narrowing", "-include",
      "/opt/wc/include/nvcc-compat/warpcheck_nvcc_compat.h"};
  EXPECT_EQ(Args, Expected);
}

TEST(CudaParseArgumentsTest, Cuda13NeedsShimAndCCCL) {
  TempDir T;
  FakeToolkitSpec Spec;
  Spec.VersionJson = false;
  Spec.HeaderVersion = 13000;
  Spec.TextureFetch = false;
  Spec.CCCL = true;
  Spec.DevicePropClockRate = false;
  makeFakeToolkit(T.path(), Spec);
  std::string Why;
  std::vector<std::string> Args =
      cudaParseArguments(inspectCudaToolkit(T.path(), Why), "/opt/wc/include");
  std::vector<std::string> Expected = {"--cuda-path=" + T.path(),
                                       "-Wno-unknown-cuda-version",
                                       "-isystem",
                                       "/opt/wc/include/cuda-shim",
                                       "-isystem",
                                       "/opt/wc/include/nvcc-compat/device-properties",
                                       "-isystem",
                                       join(T.path(), "include", "cccl"),
                                       "-Wno-register",
                                       "-Wno-c++11-narrowing",
                                       "-include",
                                       "/opt/wc/include/nvcc-compat/warpcheck_nvcc_compat.h"};
  EXPECT_EQ(Args, Expected);
}

// The shim that adds CUDA 12's cudaDeviceProp members is decided from
// driver_types.h itself: none for a toolkit that still has clockRate, none
// for one without the member it appends to.
TEST(CudaParseArgumentsTest, DevicePropertiesShimFollowsDriverTypes) {
  TempDir Old, New, Unknown;
  FakeToolkitSpec Spec;
  makeFakeToolkit(Old.path(), Spec);
  Spec.DevicePropClockRate = false;
  makeFakeToolkit(New.path(), Spec);
  makeFakeToolkit(Unknown.path(), Spec);
  writeFile(join(Unknown.path(), "include", "driver_types.h"), "struct cudaDeviceProp {};\n");
  std::string Why;
  EXPECT_FALSE(cudaToolkitNeedsDevicePropertiesShim(*inspectCudaToolkit(Old.path(), Why)));
  EXPECT_TRUE(cudaToolkitNeedsDevicePropertiesShim(*inspectCudaToolkit(New.path(), Why)));
  EXPECT_FALSE(cudaToolkitNeedsDevicePropertiesShim(*inspectCudaToolkit(Unknown.path(), Why)));
}

TEST(CudaParseArgumentsTest, NoLibdeviceMeansNoCudaLib) {
  TempDir T;
  FakeToolkitSpec Spec;
  Spec.Libdevice = false;
  makeFakeToolkit(T.path(), Spec);
  std::string Why;
  std::vector<std::string> Args =
      cudaParseArguments(inspectCudaToolkit(T.path(), Why), "/opt/wc/include");
  EXPECT_TRUE(containsArgument(Args, "-nocudalib"));
  EXPECT_FALSE(containsArgument(Args, "-nocudainc"));
}

TEST(CudaParseArgumentsTest, NoToolkit) {
  std::vector<std::string> Args =
      cudaParseArguments(std::nullopt, "/opt/wc/include");
  std::vector<std::string> Expected = {
      "-nocudainc",
      "-nocudalib",
      "--cuda-feature=+ptx85",
      "-Wno-unknown-cuda-version",
      "-include",
      "/opt/wc/include/cuda-minimal/warpcheck_cuda_minimal.h",
      "-isystem",
      "/opt/wc/include/cuda-minimal",
      "-Wno-register", "-Wno-c++11-narrowing", "-include",
      "/opt/wc/include/nvcc-compat/warpcheck_nvcc_compat.h"};
  EXPECT_EQ(Args, Expected);
}

//===----------------------------------------------------------------------===//
// The bundled headers.
//===----------------------------------------------------------------------===//

TEST(BundledIncludeTest, InstalledLayout) {
  EXPECT_EQ(bundledIncludeRootForExecutable("/opt/warpcheck/bin/warpcheck"),
            "/opt/warpcheck/share/warpcheck/include");
  EXPECT_EQ(bundledIncludeRootForExecutable("/usr/bin/./warpcheck"),
            "/usr/share/warpcheck/include");
}

TEST(BundledIncludeTest, FindsInstalledCopy) {
  TempDir T;
  std::string Exe = join(T.path(), "bin", "warpcheck");
  writeFile(Exe, "");
  std::string Root = join(T.path(), "share", "warpcheck", "include");
  EXPECT_FALSE(isBundledIncludeRoot(Root));
  writeFile(join(Root, "cuda-minimal", "warpcheck_cuda_minimal.h"), "\n");
  EXPECT_TRUE(isBundledIncludeRoot(Root));
  EXPECT_EQ(bundledIncludeRootForExecutable(Exe), Root);
}

TEST(BundledIncludeTest, ThisExecutable) {
  // The test binary is not installed: the result is the source tree's copy
  // when the build defines WARPCHECK_SOURCE_INCLUDE_DIR, else the expected
  // installed location.
  static int Anchor;
  std::string Exe = fs::getMainExecutable("warpcheck_tool_tests", &Anchor);
  std::string Root = bundledIncludeRoot("warpcheck_tool_tests", &Anchor);
  if (!isBundledIncludeRoot(Root)) {
    EXPECT_EQ(Root, bundledIncludeRootForExecutable(Exe));
  }
}

TEST(BundledIncludeTest, SourceTreeHasTheHeaders) {
  std::string Root = sourceIncludeRoot();
  if (!fs::is_directory(Root))
    GTEST_SKIP() << "source tree not found from " << __FILE__;
  EXPECT_TRUE(isBundledIncludeRoot(Root));
  for (const char *Header : {"cuda_runtime.h", "cuda.h", "cuda_runtime_api.h",
                             "device_launch_parameters.h", "vector_types.h"})
    EXPECT_TRUE(fs::is_regular_file(join(Root, "cuda-minimal", Header)))
        << Header;
  for (const char *Header :
       {"texture_fetch_functions.h", "texture_indirect_functions.h"})
    EXPECT_TRUE(fs::is_regular_file(join(Root, "cuda-shim", Header))) << Header;
}

} // namespace
