//===- FakeCudaToolkit.h - toolkit folders for the tests ------------------===//
//
// Fake toolkits are built in temporary folders: with and without
// version.json, with and without texture_fetch_functions.h, with and without
// include/cccl. Shared by CudaToolkitTest.cpp (the search) and
// CudaEnvironmentTest.cpp (the parse arguments).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TEST_UNIT_FAKECUDATOOLKIT_H
#define WARPCHECK_TEST_UNIT_FAKECUDATOOLKIT_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace warpcheck::testing {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

inline std::string join(llvm::StringRef A, llvm::StringRef B, llvm::StringRef C = "",
                 llvm::StringRef D = "") {
  llvm::SmallString<256> P(A);
  for (llvm::StringRef Part : {B, C, D})
    if (!Part.empty())
      path::append(P, Part);
  return std::string(P);
}

inline void writeFile(const std::string &File, llvm::StringRef Text) {
  ASSERT_FALSE(fs::create_directories(path::parent_path(File)));
  std::error_code EC;
  llvm::raw_fd_ostream OS(File, EC);
  ASSERT_FALSE(EC) << File;
  OS << Text;
}

/// A temporary folder, removed with everything in it.
class TempDir {
public:
  TempDir() {
    llvm::SmallString<256> P;
    EXPECT_FALSE(fs::createUniqueDirectory("warpcheck-cuda-env", P));
    Path = std::string(P);
  }
  ~TempDir() { fs::remove_directories(Path); }
  const std::string &path() const { return Path; }

private:
  std::string Path;
};

struct FakeToolkitSpec {
  bool VersionJson = true;
  std::string JsonVersion = "12.4.1";
  int HeaderVersion = 12040;
  bool TextureFetch = true;
  bool TextureIndirect = true;
  bool CCCL = false;
  bool Libdevice = true;
  /// driver_types.h's cudaDeviceProp: with clockRate (CUDA 12) or without
  /// (CUDA 13, which ends with hostNumaMultinodeIpcSupported).
  bool DevicePropClockRate = true;
};

/// Lays out a toolkit under \p Root the way NVIDIA's installers do.
inline void makeFakeToolkit(const std::string &Root, const FakeToolkitSpec &Spec) {
  writeFile(join(Root, "include", "cuda.h"),
            "#ifndef __cuda_cuda_h__\n#define __cuda_cuda_h__\n"
            "/* CUDA API version number */\n#define CUDA_VERSION " +
                std::to_string(Spec.HeaderVersion) + "\n#endif\n");
  writeFile(join(Root, "include", "cuda_runtime.h"), "\n");
  if (Spec.VersionJson)
    writeFile(join(Root, "version.json"),
              "{\n   \"cuda\" : {\n      \"name\" : \"CUDA SDK\",\n"
              "      \"version\" : \"" +
                  Spec.JsonVersion +
                  "\"\n   },\n   \"cuda_cccl\" : {\n"
                  "      \"name\" : \"CUDA C++ Core Compute Libraries\",\n"
                  "      \"version\" : \"12.4.127\"\n   }\n}\n");
  if (Spec.TextureFetch)
    writeFile(join(Root, "include", "texture_fetch_functions.h"), "\n");
  if (Spec.TextureIndirect)
    writeFile(join(Root, "include", "texture_indirect_functions.h"), "\n");
  if (Spec.CCCL)
    writeFile(join(join(Root, "include", "cccl"), "cub", "cub.cuh"), "\n");
  if (Spec.Libdevice)
    writeFile(join(Root, "nvvm", "libdevice", "libdevice.10.bc"), "BC");
  writeFile(join(Root, "include", "driver_types.h"),
            Spec.DevicePropClockRate
                ? "struct cudaDeviceProp {\n    int          clockRate;\n};\n"
                : "struct cudaDeviceProp {\n    int          hostNumaMultinodeIpcSupported;\n"
                  "    int          reserved[56];\n};\n");
}

} // namespace warpcheck::testing

#endif // WARPCHECK_TEST_UNIT_FAKECUDATOOLKIT_H
