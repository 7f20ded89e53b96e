// What the CUDA driver says each kernel of a cubin uses: for every cubin
// named on the command line, loads it (cuModuleLoad), enumerates its
// functions (cuModuleEnumerateFunctions, CUDA 12.4+) and prints one CSV row
// per function: the cubin's file name, the mangled name, and
// CU_FUNC_ATTRIBUTE_NUM_REGS (what cudaFuncAttributes::numRegs reports, the
// count the runtime's occupancy calculator uses), local bytes per thread
// and static shared bytes.
//
// Build and run (on the device machine):
//   nvcc -o func_registers func_registers.cu -lcuda
//   ./func_registers a.cubin b.cubin ... > func_registers.csv
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <vector>

static bool ok(CUresult R, const char *What, const char *Path) {
  if (R == CUDA_SUCCESS)
    return true;
  const char *Name = nullptr;
  cuGetErrorName(R, &Name);
  std::fprintf(stderr, "%s: %s failed: %s\n", Path, What, Name ? Name : "?");
  return false;
}

int main(int argc, char **argv) {
  if (!ok(cuInit(0), "cuInit", "-"))
    return 1;
  CUdevice Dev;
  CUcontext Ctx;
  if (!ok(cuDeviceGet(&Dev, 0), "cuDeviceGet", "-") ||
      !ok(cuCtxCreate(&Ctx, nullptr, 0, Dev), "cuCtxCreate", "-"))
    return 1;
  std::printf("cubin,kernel,num_regs,local_bytes,static_shared_bytes\n");
  int Failures = 0;
  for (int A = 1; A < argc; ++A) {
    const char *Path = argv[A];
    const char *Base = std::strrchr(Path, '/');
    Base = Base ? Base + 1 : Path;
    CUmodule M;
    if (!ok(cuModuleLoad(&M, Path), "cuModuleLoad", Path)) {
      ++Failures;
      continue;
    }
    unsigned Count = 0;
    if (!ok(cuModuleGetFunctionCount(&Count, M), "cuModuleGetFunctionCount", Path)) {
      ++Failures;
      continue;
    }
    std::vector<CUfunction> Functions(Count);
    if (Count && !ok(cuModuleEnumerateFunctions(Functions.data(), Count, M),
                     "cuModuleEnumerateFunctions", Path)) {
      ++Failures;
      continue;
    }
    for (CUfunction F : Functions) {
      const char *Name = nullptr;
      int Regs = -1, Local = -1, Shared = -1;
      ok(cuFuncGetName(&Name, F), "cuFuncGetName", Path);
      ok(cuFuncGetAttribute(&Regs, CU_FUNC_ATTRIBUTE_NUM_REGS, F), "NUM_REGS", Path);
      ok(cuFuncGetAttribute(&Local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, F), "LOCAL_SIZE", Path);
      ok(cuFuncGetAttribute(&Shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, F), "SHARED_SIZE",
         Path);
      std::printf("%s,%s,%d,%d,%d\n", Base, Name ? Name : "?", Regs, Local, Shared);
    }
    cuModuleUnload(M);
  }
  cuCtxDestroy(Ctx);
  return Failures ? 2 : 0;
}
