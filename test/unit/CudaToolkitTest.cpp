//===- CudaToolkitTest.cpp - finding and trusting the CUDA toolkit --------===//
//
// The toolkit search (toolchain/CudaToolkit.h) on fake toolkits.
//
//===----------------------------------------------------------------------===//

#include "warpcheck/toolchain/CudaToolkit.h"

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

using namespace warpcheck::toolchain;
using namespace warpcheck::testing;

namespace {

//===----------------------------------------------------------------------===//
// Version parsing.
//===----------------------------------------------------------------------===//

TEST(CudaVersionTest, ParsesVersionJson) {
  unsigned Major = 0, Minor = 0;
  EXPECT_TRUE(parseCudaVersionJson(
      R"json({"cuda": {"name": "CUDA SDK", "version": "12.4.1"},
          "cuda_cudart": {"name": "CUDA Runtime (cudart)",
                          "version": "12.4.127"}})json",
      Major, Minor));
  EXPECT_EQ(Major, 12u);
  EXPECT_EQ(Minor, 4u);
  EXPECT_TRUE(parseCudaVersionJson(R"json({"cuda": {"version": "13.0"}})json",
                                   Major, Minor));
  EXPECT_EQ(Major, 13u);
  EXPECT_EQ(Minor, 0u);
}

TEST(CudaVersionTest, RejectsBadVersionJson) {
  unsigned Major = 7, Minor = 7;
  EXPECT_FALSE(parseCudaVersionJson("not json", Major, Minor));
  EXPECT_FALSE(parseCudaVersionJson("[]", Major, Minor));
  EXPECT_FALSE(parseCudaVersionJson(
      R"json({"cuda_cccl": {"version": "2.0"}})json", Major, Minor));
  EXPECT_FALSE(parseCudaVersionJson(
      R"json({"cuda": {"version": "twelve"}})json", Major, Minor));
  EXPECT_FALSE(parseCudaVersionJson(R"json({"cuda": {"version": 12}})json",
                                    Major, Minor));
  EXPECT_EQ(Major, 7u); // Untouched on failure.
  EXPECT_EQ(Minor, 7u);
}

TEST(CudaVersionTest, ParsesCudaHeader) {
  unsigned Major = 0, Minor = 0;
  EXPECT_TRUE(
      parseCudaHeaderVersion("#define CUDA_VERSION 13000\n", Major, Minor));
  EXPECT_EQ(Major, 13u);
  EXPECT_EQ(Minor, 0u);
  EXPECT_TRUE(parseCudaHeaderVersion(
      "/* CUDA API version number */\n  #  define   CUDA_VERSION\t12050 /* x "
      "*/\n",
      Major, Minor));
  EXPECT_EQ(Major, 12u);
  EXPECT_EQ(Minor, 5u);
  EXPECT_TRUE(
      parseCudaHeaderVersion("#define CUDA_VERSION 11080", Major, Minor));
  EXPECT_EQ(Major, 11u);
  EXPECT_EQ(Minor, 8u);
}

TEST(CudaVersionTest, IgnoresLookalikesInCudaHeader) {
  unsigned Major = 0, Minor = 0;
  EXPECT_FALSE(parseCudaHeaderVersion(
      "#define CUDA_VERSION_MAJOR 12\n#define CUDA_VERSIONS 5\n"
      "// #define CUDA_VERSION 9000\n#ifdef CUDA_VERSION\n#define "
      "CUDA_VERSION __CUDA_API_VERSION\n",
      Major, Minor));
}

//===----------------------------------------------------------------------===//
// Inspecting a toolkit folder.
//===----------------------------------------------------------------------===//

TEST(CudaToolkitTest, VersionFromVersionJsonFirst) {
  TempDir T;
  FakeToolkitSpec Spec;
  Spec.JsonVersion = "12.4.1";
  Spec.HeaderVersion = 11080; // version.json wins.
  makeFakeToolkit(T.path(), Spec);
  std::string Why;
  std::optional<CudaToolkit> TK = inspectCudaToolkit(T.path(), Why);
  ASSERT_TRUE(TK) << Why;
  EXPECT_EQ(TK->Major, 12u);
  EXPECT_EQ(TK->Minor, 4u);
}

TEST(CudaToolkitTest, VersionFromCudaHeaderWithoutVersionJson) {
  TempDir T;
  FakeToolkitSpec Spec;
  Spec.VersionJson = false;
  Spec.HeaderVersion = 13000;
  makeFakeToolkit(T.path(), Spec);
  std::string Why;
  std::optional<CudaToolkit> TK = inspectCudaToolkit(T.path(), Why);
  ASSERT_TRUE(TK) << Why;
  EXPECT_EQ(TK->Major, 13u);
  EXPECT_EQ(TK->Minor, 0u);
}

TEST(CudaToolkitTest, BrokenVersionJsonFallsBackToHeader) {
  TempDir T;
  FakeToolkitSpec Spec;
  Spec.VersionJson = false;
  Spec.HeaderVersion = 12060;
  makeFakeToolkit(T.path(), Spec);
  writeFile(join(T.path(), "version.json"), "{ truncated");
  std::string Why;
  std::optional<CudaToolkit> TK = inspectCudaToolkit(T.path(), Why);
  ASSERT_TRUE(TK) << Why;
  EXPECT_EQ(TK->Major, 12u);
  EXPECT_EQ(TK->Minor, 6u);
}

TEST(CudaToolkitTest, CCCLFolder) {
  TempDir With, Without;
  FakeToolkitSpec Spec;
  Spec.CCCL = true;
  makeFakeToolkit(With.path(), Spec);
  Spec.CCCL = false;
  makeFakeToolkit(Without.path(), Spec);
  std::string Why;
  std::optional<CudaToolkit> A = inspectCudaToolkit(With.path(), Why);
  std::optional<CudaToolkit> B = inspectCudaToolkit(Without.path(), Why);
  ASSERT_TRUE(A && B);
  EXPECT_EQ(A->CCCLIncludeDir, join(With.path(), "include", "cccl"));
  EXPECT_EQ(B->CCCLIncludeDir, "");
}

TEST(CudaToolkitTest, RootIsAbsoluteAndNormalised) {
  TempDir T;
  makeFakeToolkit(T.path(), FakeToolkitSpec());
  std::string Why;
  std::optional<CudaToolkit> TK =
      inspectCudaToolkit(T.path() + "/include/../", Why);
  ASSERT_TRUE(TK) << Why;
  EXPECT_EQ(TK->Root, T.path());
}

TEST(CudaToolkitTest, TextureShimDecidedByFiles) {
  TempDir Both, NoFetch, NoIndirect;
  FakeToolkitSpec Spec; // Both headers: CUDA <= 12.x.
  makeFakeToolkit(Both.path(), Spec);
  Spec.TextureFetch = false; // CUDA 13.0's layout.
  makeFakeToolkit(NoFetch.path(), Spec);
  Spec.TextureFetch = true;
  Spec.TextureIndirect = false;
  makeFakeToolkit(NoIndirect.path(), Spec);
  std::string Why;
  EXPECT_FALSE(
      cudaToolkitNeedsTextureShim(*inspectCudaToolkit(Both.path(), Why)));
  EXPECT_TRUE(
      cudaToolkitNeedsTextureShim(*inspectCudaToolkit(NoFetch.path(), Why)));
  EXPECT_TRUE(
      cudaToolkitNeedsTextureShim(*inspectCudaToolkit(NoIndirect.path(), Why)));
}

TEST(CudaToolkitTest, TextureShimNotDecidedByVersion) {
  // A version clang 19 does not know, but with both headers: no shim.
  TempDir T;
  FakeToolkitSpec Spec;
  Spec.JsonVersion = "12.9.0";
  makeFakeToolkit(T.path(), Spec);
  std::string Why;
  EXPECT_FALSE(cudaToolkitNeedsTextureShim(*inspectCudaToolkit(T.path(), Why)));
}

//===----------------------------------------------------------------------===//
// The search.
//===----------------------------------------------------------------------===//

TEST(FindCudaToolkitTest, MissingExplicitPathIsAnError) {
  TempDir T;
  std::string Missing = join(T.path(), "no-such-cuda");
  CudaSearchInputs In;
  In.ExplicitPath = Missing;
  In.DefaultRoot = ""; // Nothing else to find either way.
  std::string Diag;
  EXPECT_FALSE(findCudaToolkit(In, Diag));
  EXPECT_NE(Diag.find("--cuda-path"), std::string::npos) << Diag;
  EXPECT_NE(Diag.find(Missing), std::string::npos) << Diag;
  EXPECT_NE(Diag.find("no such directory"), std::string::npos) << Diag;
}

TEST(FindCudaToolkitTest, ExplicitPathWithoutCudaHIsAnError) {
  TempDir T;
  writeFile(join(T.path(), "include", "cuda_runtime.h"), "\n");
  CudaSearchInputs In;
  In.ExplicitPath = T.path();
  std::string Diag;
  EXPECT_FALSE(findCudaToolkit(In, Diag));
  EXPECT_NE(Diag.find(T.path()), std::string::npos) << Diag;
  EXPECT_NE(Diag.find("no include/cuda.h"), std::string::npos) << Diag;
}

TEST(FindCudaToolkitTest, ExplicitPathThatIsAFileIsAnError) {
  TempDir T;
  std::string File = join(T.path(), "cuda");
  writeFile(File, "not a folder");
  CudaSearchInputs In;
  In.ExplicitPath = File;
  std::string Diag;
  EXPECT_FALSE(findCudaToolkit(In, Diag));
  EXPECT_NE(Diag.find("not a directory"), std::string::npos) << Diag;
}

TEST(FindCudaToolkitTest, ExplicitPathDoesNotFallBack) {
  // A bad --cuda-path is not replaced by a good default.
  TempDir Good;
  makeFakeToolkit(Good.path(), FakeToolkitSpec());
  CudaSearchInputs In;
  In.ExplicitPath = join(Good.path(), "missing");
  In.DefaultRoot = Good.path();
  std::string Diag;
  EXPECT_FALSE(findCudaToolkit(In, Diag));
  EXPECT_FALSE(Diag.empty());
}

TEST(FindCudaToolkitTest, MissingDefaultIsNotAnError) {
  TempDir T;
  CudaSearchInputs In;
  In.DefaultRoot = join(T.path(), "usr", "local", "cuda");
  std::string Diag = "stale";
  EXPECT_FALSE(findCudaToolkit(In, Diag));
  EXPECT_EQ(Diag, "");
}

TEST(FindCudaToolkitTest, SearchOrder) {
  TempDir Explicit, CudaPath, CudaHome, Default;
  FakeToolkitSpec Spec;
  makeFakeToolkit(Explicit.path(), Spec);
  makeFakeToolkit(CudaPath.path(), Spec);
  makeFakeToolkit(CudaHome.path(), Spec);
  makeFakeToolkit(Default.path(), Spec);
  std::string Diag;

  CudaSearchInputs In;
  In.ExplicitPath = Explicit.path();
  In.EnvCudaPath = CudaPath.path();
  In.EnvCudaHome = CudaHome.path();
  In.DefaultRoot = Default.path();
  EXPECT_EQ(findCudaToolkit(In, Diag)->Root, Explicit.path());
  In.ExplicitPath = "";
  EXPECT_EQ(findCudaToolkit(In, Diag)->Root, CudaPath.path());
  In.EnvCudaPath = ""; // An empty variable is an unset one.
  EXPECT_EQ(findCudaToolkit(In, Diag)->Root, CudaHome.path());
  In.EnvCudaPath.reset();
  In.EnvCudaHome.reset();
  EXPECT_EQ(findCudaToolkit(In, Diag)->Root, Default.path());
  EXPECT_EQ(Diag, "");
}

TEST(FindCudaToolkitTest, BadEnvironmentVariableIsAnError) {
  TempDir T, Default;
  makeFakeToolkit(Default.path(), FakeToolkitSpec());
  CudaSearchInputs In;
  In.EnvCudaHome = join(T.path(), "gone");
  In.DefaultRoot = Default.path();
  std::string Diag;
  EXPECT_FALSE(findCudaToolkit(In, Diag));
  EXPECT_NE(Diag.find("CUDA_HOME"), std::string::npos) << Diag;
  EXPECT_NE(Diag.find(*In.EnvCudaHome), std::string::npos) << Diag;
}

TEST(FindCudaToolkitTest, ReadsTheProcessEnvironment) {
  TempDir T;
  FakeToolkitSpec Spec;
  Spec.JsonVersion = "11.8.0";
  makeFakeToolkit(T.path(), Spec);
  const char *OldPath = std::getenv("CUDA_PATH");
  std::string Saved = OldPath ? OldPath : "";
  ::setenv("CUDA_PATH", T.path().c_str(), 1);
  std::string Diag;
  std::optional<CudaToolkit> TK = findCudaToolkit("", Diag);
  if (OldPath)
    ::setenv("CUDA_PATH", Saved.c_str(), 1);
  else
    ::unsetenv("CUDA_PATH");
  ASSERT_TRUE(TK) << Diag;
  EXPECT_EQ(TK->Root, T.path());
  EXPECT_EQ(TK->Major, 11u);
  EXPECT_EQ(TK->Minor, 8u);
}

TEST(FindCudaToolkitTest, ThisMachinesToolkit) {
  if (!fs::exists("/usr/local/cuda/include/cuda.h"))
    GTEST_SKIP() << "no CUDA toolkit at /usr/local/cuda";
  CudaSearchInputs In;
  std::string Diag;
  std::optional<CudaToolkit> TK = findCudaToolkit(In, Diag);
  ASSERT_TRUE(TK) << Diag;
  EXPECT_EQ(TK->Root, "/usr/local/cuda");
  EXPECT_GE(TK->Major, 11u);
  // CUDA 13 (the version these machines have): no texture_fetch_functions.h,
  // CCCL under include/cccl.
  if (TK->Major >= 13) {
    EXPECT_TRUE(cudaToolkitNeedsTextureShim(*TK));
    // CUDA 13.0 removed clockRate and the seven other members.
    EXPECT_TRUE(cudaToolkitNeedsDevicePropertiesShim(*TK));
    EXPECT_EQ(TK->CCCLIncludeDir, "/usr/local/cuda/include/cccl");
  }
}

} // namespace
