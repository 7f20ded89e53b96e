// Test input for what nvcc -O3 emits differently from the source, to be
// measured per SASS instruction on the H200 and read from the cubin's
// listing (docs/hardware-model.md, "What the compiler changes"): an
// accumulator kept in memory across a loop, with and without __restrict__
// (with it, nvcc may keep tmp[i] in a register: one load before the loop,
// one store after it); the loads of a branch's two arms, which nvcc may
// turn into one load of a selected address (a 2-way conflict neither arm
// has: each arm alone broadcasts); struct copies of 8, 12, 16, 24 and 32
// bytes, by their alignment.
#include <cuda_runtime.h>

__global__ void accumulate(const float *A, const float *x, float *tmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; ++j)
    tmp[i] += A[i * n + j] * x[j];
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: global load 'A[i * n + j]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (64, 1, 1) from the launch at compiler-transformations.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
}

__global__ void accumulateRestrict(const float *__restrict__ A, const float *__restrict__ x,
                                   float *__restrict__ tmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; ++j)
    tmp[i] += A[i * n + j] * x[j];
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: global load 'A[i * n + j]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (64, 1, 1) from the launch at compiler-transformations.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
}

__global__ void branchArms(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
  s[threadIdx.x + 32] = -1.0f;
  __syncthreads();
  float v;
  if (threadIdx.x & 1)
    v = s[threadIdx.x / 2];
  else
    v = s[32 + threadIdx.x / 2];
  out[threadIdx.x] = v;
} // CHECK-MESSAGES: :34:9: warning: 2-way bank conflict reading 's[threadIdx.x / 2]': lanes 0-1 hit bank 0 with different words (2 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at compiler-transformations.cu:73 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :34:9: note: the compiler makes 's[threadIdx.x / 2]' and 's[32 + threadIdx.x / 2]' one load of the address the branch selects at line 37 (LDS, 2 wavefronts per request)
struct Pair { float a, b; };
struct __align__(8) AlignedPair { float a, b; };
struct Triple { float a, b, c; };
struct __align__(16) Quad { float a, b, c, d; };
struct Doubles3 { double a, b, c; };
struct __align__(16) Doubles4 { double a, b, c, d; };

// Copied by alignment: Pair and Triple as 4-byte loads and stores, Doubles3
// as 8-byte ones, AlignedPair, Quad and Doubles4 as 8 and 16 bytes at once.
template <typename T> __global__ void copyStructs(const T *in, T *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global store 'out[i]' touches 12 sectors per warp request (ideal 4, 33.3% efficiency) in 'copyStructs<Triple>' with block (128, 1, 1)
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: global store 'out[i]' touches 24 sectors per warp request (ideal 8, 33.3% efficiency) in 'copyStructs<Doubles3>' with block (128, 1, 1)
  // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: global load 'in[i]' touches 12 sectors per warp request (ideal 4, 33.3% efficiency) in 'copyStructs<Triple>' with block (128, 1, 1)
  // CHECK-MESSAGES: :[[@LINE-4]]:12: warning: global load 'in[i]' touches 24 sectors per warp request (ideal 8, 33.3% efficiency) in 'copyStructs<Doubles3>' with block (128, 1, 1)
}

int main() {
  const int n = 64;
  float *A, *x, *tmp, *out;
  char *in, *copy;
  cudaMalloc(&A, 128 * n * sizeof(float));
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&tmp, 128 * sizeof(float));
  cudaMalloc(&out, 64 * sizeof(float));
  cudaMalloc(&in, 1 << 16);
  cudaMalloc(&copy, 1 << 16);
  cudaMemset(A, 0, 128 * n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  cudaMemset(tmp, 0, 128 * sizeof(float));
  accumulate<<<2, 64>>>(A, x, tmp, n);
  accumulateRestrict<<<2, 64>>>(A, x, tmp, n);
  branchArms<<<1, 32>>>(out);
  copyStructs<<<2, 128>>>((const Pair *)in, (Pair *)copy);
  copyStructs<<<2, 128>>>((const AlignedPair *)in, (AlignedPair *)copy);
  copyStructs<<<2, 128>>>((const Triple *)in, (Triple *)copy);
  copyStructs<<<2, 128>>>((const Quad *)in, (Quad *)copy);
  copyStructs<<<2, 128>>>((const Doubles3 *)in, (Doubles3 *)copy);
  copyStructs<<<2, 128>>>((const Doubles4 *)in, (Doubles4 *)copy);
  cudaDeviceSynchronize();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// The loads of branchArms' two arms are one load of the selected address,
// after the branch (the line table puts it on line 37): odd lanes read word
// k, even lanes word 32 + k, two words of one bank, measured 2 wavefronts.
// Counted with the first arm's access; predicted from the source as the
// listing shows it (the messages after the kernel's closing brace).

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// (cuda-aos-layout's view of the copies is cuda-aos-layout.cu's to test.)
// RUN: %check_warpcheck %s 'cuda-*,-cuda-aos-layout,-cuda-missed-data-reuse' %t
// RUN: %check_warpcheck -door=binary %s 'cuda-*,-cuda-aos-layout,-cuda-missed-data-reuse' %t.no-cuda -- --no-cuda
