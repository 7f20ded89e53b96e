// Test input for loads nvcc takes from a register instead of memory: an
// element read again where an earlier read or store of it still holds its
// value (LLVM's GVN), and the cases where it must be read again (a store
// that may alias it, a barrier) or where the earlier read is not made on
// every path. Every index is strided, so that each load the model keeps is
// a warning of its own and a load it wrongly keeps or drops shows. The
// H200 records (test/hw/inputs/) compare line for line.
#include <cuda_runtime.h>

// The running maximum of llm.c's softmax: the assignment's read is the
// condition's value.
__global__ void runningMax(const float *rows, float *out, int n) {
  const float *row = rows + (blockIdx.x * blockDim.x + threadIdx.x) * n;
  float m = -1e30f;
  for (int k = 0; k < n; k++) {
    if (row[k] > m)
      m = row[k];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = m;
}

// A store through another pointer between the reads: it may alias, the
// element is read again.
__global__ void storeBetween(const float *in, float *out) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 32;
  float a = in[i];
  out[i] = a * 2.f;
  out[i + 1] = in[i];
}

// The same through __restrict__ pointers: the first read serves both.
__global__ void storeBetweenRestrict(const float *__restrict__ in, float *__restrict__ out) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 32;
  float a = in[i];
  out[i] = a * 2.f;
  out[i + 1] = in[i];
}

// Shared memory: a store's value is read back without a load; after a
// barrier the element is loaded, and that load serves the next read.
__global__ void sharedAcrossBarrier(float *out) {
  __shared__ float tile[32 * 32];
  int t = threadIdx.x;
  tile[t * 32] = float(t);
  float a = tile[t * 32];
  __syncthreads();
  float b = tile[t * 32];
  float c = tile[t * 32] * 2.f;
  out[blockIdx.x * blockDim.x + t] = a + b + c;
}

// A global read behind `&&`, which lane 0 does not evaluate, then the same
// element read by every lane.
__global__ void guardedGlobal(const int *in, int *out) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 32;
  int v = 0;
  if (threadIdx.x > 0 && in[i] > 0)
    v = 1;
  out[i] = in[i] + v;
}

// A read in one arm of a branch, then the same element after it: the
// earlier read is not made on every path.
__global__ void readInOneArm(const float *in, float *out) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 32;
  float v = 0.f;
  if (threadIdx.x % 2 == 0)
    v = in[i];
  out[i] = v + in[i];
}

// A __shared__ read behind `&&`, then the same element read under a branch
// of its own.
__global__ void guardedShared(int *out) {
  __shared__ int s[32 * 32];
  int t = threadIdx.x;
  s[t * 32] = t;
  __syncthreads();
  int v = 0;
  if (t > 0 && s[(t * 32 + 32) % 1024] > 0)
    v = 1;
  if (t % 4 != 0)
    v += s[(t * 32 + 32) % 1024];
  out[blockIdx.x * blockDim.x + t] = v;
}

// One element read twice in one expression, and again in a loop after it
// that writes nothing it may read.
__global__ void squareThenLoop(const float *__restrict__ in, float *__restrict__ out, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 32;
  float sum = in[i] * in[i];
  for (int k = 1; k < n; k++)
    sum += in[i] * float(k);
  out[i] = sum;
}

// A call between that stores through a pointer of its own.
__device__ void note(float *log, int i, float v) { log[i] = v; }

__global__ void callBetween(const float *in, float *out, float *log) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 32;
  float a = in[i];
  note(log, i, a);
  out[i] = a + in[i];
}

int main() {
  const int Blocks = 32, Threads = 32, N = Blocks * Threads * 33;
  float *dIn, *dOut;
  int *dInts, *dIntOut;
  cudaMalloc(&dIn, N * sizeof(float));
  cudaMalloc(&dOut, N * sizeof(float));
  cudaMalloc(&dInts, N * sizeof(int));
  cudaMalloc(&dIntOut, N * sizeof(int));
  cudaMemset(dIn, 0, N * sizeof(float));
  cudaMemset(dInts, 0, N * sizeof(int));
  runningMax<<<Blocks, Threads>>>(dIn, dOut, 32);
  storeBetween<<<Blocks, Threads>>>(dIn, dOut);
  storeBetweenRestrict<<<Blocks, Threads>>>(dIn, dOut);
  sharedAcrossBarrier<<<Blocks, Threads>>>(dOut);
  guardedGlobal<<<Blocks, Threads>>>(dInts, dIntOut);
  readInOneArm<<<Blocks, Threads>>>(dIn, dOut);
  guardedShared<<<Blocks, Threads>>>(dIntOut);
  squareThenLoop<<<Blocks, Threads>>>(dIn, dOut, 8);
  callBetween<<<Blocks, Threads>>>(dIn, dOut, dOut + 1);
  cudaDeviceSynchronize();
  cudaFree(dIn);
  cudaFree(dOut);
  cudaFree(dInts);
  cudaFree(dIntOut);
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t

// Each strided read warns once: the reads that take an earlier value (lines
// 17, 36, 45, 48, 59, 69, 91 and 93) make no request and do not warn.
// CHECK-MESSAGES: :16:9: warning: global load 'row[k]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:117 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :26:13: warning: global load 'in[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:118 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :27:3: warning: global store 'out[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:118 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :28:3: warning: global store 'out[i + 1]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:118 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :28:16: warning: global load 'in[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:118 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :34:13: warning: global load 'in[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:119 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :35:3: warning: global store 'out[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:119 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :36:3: warning: global store 'out[i + 1]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:119 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :44:3: warning: 32-way bank conflict writing 'tile[t * 32]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at load-reuse.cu:120 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :47:13: warning: 32-way bank conflict reading 'tile[t * 32]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at load-reuse.cu:120 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :57:26: warning: global load 'in[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:121 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :59:3: warning: global store 'out[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:121 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :68:9: warning: global load 'in[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:122 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :69:3: warning: global store 'out[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:122 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :77:3: warning: 32-way bank conflict writing 's[t * 32]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at load-reuse.cu:123 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :80:16: warning: 31-way bank conflict reading 's[(t * 32 + 32) % 1024]': lanes 1-31 all hit bank 0 (31 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at load-reuse.cu:123 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :83:10: warning: 24-way bank conflict reading 's[(t * 32 + 32) % 1024]': lanes 1-3, 5-7, 9-11, 13-15, 17-19, 21-23, 25-27, 29-31 all hit bank 0 (24 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at load-reuse.cu:123 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :91:15: warning: global load 'in[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:124 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :94:3: warning: global store 'out[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:124 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :98:52: warning: global store 'log[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:125 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :102:13: warning: global load 'in[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:125 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :104:3: warning: global store 'out[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:125 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :104:16: warning: global load 'in[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at load-reuse.cu:125 [cuda-uncoalesced-global-access]
