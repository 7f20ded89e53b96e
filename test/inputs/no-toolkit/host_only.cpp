// Parses with NO CUDA toolkit (see check-parse.sh) as plain C++ (a .cpp file
// compiled by the host compiler, not nvcc) that includes cuda_runtime.h:
// qualifiers vanish, types and the runtime API are declared.

#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

__host__ __device__ inline float twice(float X) { return 2.0f * X; }

// The kernel lives in a .cu file; host code launches it by address.
extern void scaleKernel(float *Data, int N);

int runOnDevice(std::vector<float> &Host) {
  float *Device = nullptr;
  size_t Bytes = Host.size() * sizeof(float);
  if (cudaMalloc(&Device, Bytes) != cudaSuccess)
    return 1;
  cudaMemcpy(Device, Host.data(), Bytes, cudaMemcpyHostToDevice);
  int N = static_cast<int>(Host.size());
  void *Args[] = {&Device, &N};
  dim3 Block(256), Grid((N + 255) / 256);
  cudaLaunchKernel((const void *)scaleKernel, Grid, Block, Args, 0, nullptr);
  cudaError_t Err = cudaDeviceSynchronize();
  if (Err != cudaSuccess)
    std::printf("%s\n", cudaGetErrorString(Err));
  cudaMemcpy(Host.data(), Device, Bytes, cudaMemcpyDeviceToHost);
  cudaFree(Device);
  float4 V = make_float4(1, 2, 3, twice(4));
  static_assert(alignof(float4) == 16, "same layout as in CUDA units");
  return V.w > 0 ? 0 : 1;
}
