// WARPCHECK-EXTRA-ARGS: -fgpu-rdc
// Parses with NO CUDA toolkit (see check-parse.sh), in relocatable device
// code mode (nvcc -rdc=true, clang -fgpu-rdc): the device-side runtime API
// and extern __device__ variables defined in another translation unit.
// Note: clang 19 rejects kernel launches from device code (dynamic
// parallelism) even with a real toolkit ("reference to __global__ function
// in __global__ function"), so there is none here.

#include <cuda_runtime.h>

extern __device__ int gDefinedElsewhere;
extern __device__ void helperDefinedElsewhere(int *Data);

__global__ void usesDeviceRuntime(int *Data) {
  if (threadIdx.x == 0) {
    cudaStream_t S;
    cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking);
    int *Scratch = nullptr;
    cudaMalloc((void **)&Scratch, 16 * sizeof(int));
    cudaMemsetAsync(Scratch, 0, 16 * sizeof(int), S);
    cudaMemcpyAsync(Data, Scratch, 16 * sizeof(int), cudaMemcpyDeviceToDevice,
                    S);
    cudaStreamDestroy(S);
    cudaFree(Scratch);
    int Device = 0, Sms = 0;
    cudaGetDevice(&Device);
    cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, Device);
    if (cudaGetLastError() != cudaSuccess)
      printf("failed: %s\n", cudaGetErrorString(cudaPeekAtLastError()));
  }
  Data[threadIdx.x] += gDefinedElsewhere;
  helperDefinedElsewhere(Data);
}

int main() {
  int *D = nullptr;
  cudaMalloc(&D, 32 * sizeof(int));
  usesDeviceRuntime<<<1, 32>>>(D);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
