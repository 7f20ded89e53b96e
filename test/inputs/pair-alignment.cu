// Test input for two adjacent shared elements accessed alike outside a
// loop, `s[i0]` and `s[i0 + 1]`: ptxas makes them one 8-byte access per
// lane (LDS.64, STS.64) only where the index as written proves i0 even. A
// kernel parameter's stride proves nothing, whatever the host passes: with
// stride 2 the pair stays two 4-byte accesses, each with a 2-way conflict.
#include <cuda_runtime.h>

// i0 = 2t: one LDS.64 of 2 wavefronts, the ideal for 8 bytes per lane.
__global__ void evenPairs(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  s[threadIdx.x + 128] = 1.0f;
  __syncthreads();
  int i0 = threadIdx.x * 2;
  int i1 = i0 + 1;
  float a = s[i0];
  float b = s[i1];
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b;
}

// i0 = t * stride: two LDS, lanes 2 words apart, a 2-way conflict each.
__global__ void stridedPairs(float *out, int stride) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  s[threadIdx.x + 128] = 1.0f;
  __syncthreads();
  int i0 = threadIdx.x * stride;
  int i1 = i0 + 1;
  float a = s[i0];
  float b = s[i1];
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b;
}

// The same for stores: two STS with a 2-way conflict each.
__global__ void stridedPairStores(float *out, int stride) {
  __shared__ float s[256];
  int i0 = threadIdx.x * stride;
  int i1 = i0 + 1;
  s[i0] = threadIdx.x;
  s[i1] = -1.0f * threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];
}

int main() {
  float *out;
  cudaMalloc(&out, 64 * sizeof(float));
  evenPairs<<<1, 64>>>(out);
  stridedPairs<<<1, 64>>>(out, 2);
  stridedPairStores<<<1, 64>>>(out, 2);
  cudaDeviceSynchronize();
  cudaFree(out);
  return 0;
}

// The even pair (lines 16-17) is one LDS.64 at the ideal: not reported.
// The strided pairs are two 4-byte accesses each, as nvcc 13 emits them;
// before, they were taken as a possible 8-byte pair and left unreported.
// CHECK-MESSAGES: :29:13: warning: 2-way bank conflict reading 's[i0]': lanes 0, 16 hit bank 0 with different words (2 wavefronts per request, ideal 1) with block (64, 1, 1) from the launch at pair-alignment.cu:49 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :30:13: warning: 2-way bank conflict reading 's[i1]': lanes 0, 16 hit bank 1 with different words (2 wavefronts per request, ideal 1) with block (64, 1, 1) from the launch at pair-alignment.cu:49 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :39:3: warning: 2-way bank conflict writing 's[i0]': lanes 0, 16 hit bank 0 with different words (2 wavefronts per request, ideal 1) with block (64, 1, 1) from the launch at pair-alignment.cu:50 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :40:3: warning: 2-way bank conflict writing 's[i1]': lanes 0, 16 hit bank 1 with different words (2 wavefronts per request, ideal 1) with block (64, 1, 1) from the launch at pair-alignment.cu:50 [cuda-shared-bank-conflict]
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
