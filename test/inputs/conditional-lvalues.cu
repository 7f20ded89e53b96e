// Test input for loads of a conditional lvalue, `c ? a[i] : b[j]`: both arms
// are elements of one type, so the conditional itself names memory and each
// lane reads the element its arm selects. One access, whose lanes are the
// two arms' (the front end computes the selected address and loads once; the
// two loads of an if's arms become such a load too: compiler-transformations.cu).
#include <cuda_runtime.h>

// Odd lanes read a at a stride of 2 elements (8 sectors), even lanes b at
// their own index (4 sectors): 12 sectors per request where 4 would do.
__global__ void selectGlobal(const float *a, const float *b, float *out) {
  int i = threadIdx.x;
  out[i] = (i & 1) ? a[i * 2] : b[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load '(i & 1) ? a[i * 2] : b[i]' touches 12 sectors per warp request (ideal 4, 33.3% efficiency) with block (32, 1, 1) from the launch at conditional-lvalues.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
}

// Odd lanes read word k, even lanes word 32 + k of one shared array: banks
// 0..15 twice, 2 wavefronts, where either arm alone is 1.
__global__ void selectShared(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
  s[threadIdx.x + 32] = -1.0f;
  __syncthreads();
  float v = (threadIdx.x & 1) ? s[threadIdx.x / 2] : s[32 + threadIdx.x / 2];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 2-way bank conflict reading '(threadIdx.x & 1) ? s[threadIdx.x / 2] : s[32 + threadIdx.x / 2]': lanes 0-1 hit bank 0 with different words (2 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at conditional-lvalues.cu:{{[0-9]+}} [cuda-shared-bank-conflict]
  out[threadIdx.x] = v;
}

// The two halves of the warp read the two halves of a row: every lane its
// own bank, 1 wavefront.
__global__ void selectHalves(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
  s[threadIdx.x + 32] = -1.0f;
  __syncthreads();
  float v = threadIdx.x < 16 ? s[threadIdx.x] : s[threadIdx.x + 32];
  out[threadIdx.x] = v;
}

int main() {
  float *a, *b, *out;
  cudaMalloc(&a, 64 * sizeof(float));
  cudaMalloc(&b, 32 * sizeof(float));
  cudaMalloc(&out, 32 * sizeof(float));
  cudaMemset(a, 0, 64 * sizeof(float));
  cudaMemset(b, 0, 32 * sizeof(float));
  selectGlobal<<<1, 32>>>(a, b, out);
  selectShared<<<1, 32>>>(out);
  selectHalves<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H200 records of this input (test/hw/inputs/) are keyed
// by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*,-cuda-aos-layout,-cuda-missed-data-reuse' %t
// RUN: %check_warpcheck -door=binary %s 'cuda-*,-cuda-aos-layout,-cuda-missed-data-reuse' %t.no-cuda -- --no-cuda
