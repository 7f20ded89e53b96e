// Checks the kernel filter test/hw/scripts/measure_corpus.sh gives Nsight
// Compute: '--kernel-name-base demangled --kernel-id ::regex:.*:1' must
// profile the first launch of every kernel instance, and only that one. Three
// instances (two of a template, one plain kernel), each launched three times,
// with two block shapes: the filter is right when ncu profiles 3 launches.
#include <cstdio>
#include <cuda_runtime.h>

template <int N>
__global__ void scaleBy(float *p) { p[blockIdx.x * blockDim.x + threadIdx.x] *= N; }

__global__ void addOne(float *p) { p[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f; }

int main() {
  float *p = nullptr;
  if (cudaMalloc(&p, 1 << 20) != cudaSuccess) {
    std::printf("no device\n");
    return 1;
  }
  for (int i = 0; i < 3; ++i) {
    scaleBy<2><<<4, i == 0 ? 64 : 128>>>(p);
    scaleBy<3><<<4, 64>>>(p);
    addOne<<<2, i == 1 ? 32 : 256>>>(p);
  }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  cudaFree(p);
  return e == cudaSuccess ? 0 : 1;
}
