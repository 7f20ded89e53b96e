//===- PrintToolkit.cpp - warpcheck --print-toolkit -----------------------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//

#include "PrintToolkit.h"

#include "warpcheck/toolchain/NvccInvocation.h"

#include "llvm/Support/JSON.h"

namespace warpcheck::tool {

using namespace toolchain;

int printToolkit(const CudaSearchInputs &Inputs, bool NoCuda, llvm::raw_ostream &OS) {
  std::string Diagnostic;
  std::optional<CudaToolkit> Toolkit;
  if (!NoCuda)
    Toolkit = findCudaToolkit(Inputs, Diagnostic);
  llvm::json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("found", Toolkit.has_value());
    if (NoCuda)
      J.attribute("no_cuda", true);
    if (!Diagnostic.empty())
      J.attribute("error", Diagnostic);
    if (Toolkit) {
      J.attribute("root", Toolkit->Root);
      J.attribute("origin", Toolkit->Origin);
      if (Toolkit->Major || Toolkit->Minor)
        J.attribute("version",
                    std::to_string(Toolkit->Major) + "." + std::to_string(Toolkit->Minor));
      else
        J.attribute("version", nullptr);
      std::string Nvcc = cudaToolkitProgram(Toolkit->Root, "nvcc");
      bool HaveNvcc = isExecutableFile(Nvcc);
      if (HaveNvcc)
        J.attribute("nvcc", Nvcc);
      else
        J.attribute("nvcc", nullptr);
      J.attribute("ptxas",
                  HaveNvcc && isExecutableFile(cudaToolkitProgram(Toolkit->Root, "ptxas")));
      if (Toolkit->CCCLIncludeDir.empty())
        J.attribute("cccl_include_dir", nullptr);
      else
        J.attribute("cccl_include_dir", Toolkit->CCCLIncludeDir);
    }
    if (std::optional<std::string> PluginRoot = defaultToolkitRoot())
      J.attribute("plugin_toolkit_root", *PluginRoot);
    else
      J.attribute("plugin_toolkit_root", nullptr);
  });
  OS << "\n";
  return Diagnostic.empty() ? 0 : 1;
}

} // namespace warpcheck::tool
