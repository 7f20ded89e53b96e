// Test input for atomics on __shared__ memory, as the compiler emits them
// and the H200 executes them: lanes that update one word are served
// together for some operations and one after another for others. Every
// atomic is on a line of its own, so that the H200's records of this input
// (test/hw/inputs/shared-atomics.json) give each its wavefronts per request.
#include <cuda_runtime.h>

// Every lane of the warp on one word.
__global__ void oneWord(unsigned *out, float *fout, int k) {
  __shared__ unsigned word;
  __shared__ int iword;
  __shared__ float fword;
  __shared__ unsigned long long dword;
  unsigned tid = threadIdx.x;
  if (tid == 0) {
    word = 0;
    iword = 0;
    fword = 0.0f;
    dword = 0;
  }
  __syncthreads();
  atomicAdd(&word, 1u);
  atomicAdd(&word, tid);
  atomicAdd(&word, static_cast<unsigned>(k));
  unsigned old = atomicAdd(&word, 1u);
  atomicSub(&word, 1u);
  atomicExch(&word, tid);
  atomicCAS(&word, tid, tid + 1);
  atomicMax(&iword, static_cast<int>(tid));
  atomicMin(&iword, k);
  atomicOr(&word, 1u << (tid % 32));
  atomicAnd(&word, ~(1u << (tid % 32)));
  atomicInc(&word, 1000u);
  atomicAdd(&fword, 1.0f);
  atomicAdd(&dword, 1ull);
  __syncthreads();
  out[blockIdx.x * blockDim.x + tid] = word + old + static_cast<unsigned>(iword);
  fout[blockIdx.x * blockDim.x + tid] = fword + static_cast<float>(dword);
}

// Eight words in eight banks, four lanes on each; and one word per lane.
__global__ void fewWords(unsigned *out, float *fout) {
  __shared__ unsigned bins[64];
  __shared__ float fbins[64];
  unsigned tid = threadIdx.x;
  if (tid < 64) {
    bins[tid] = 0;
    fbins[tid] = 0.0f;
  }
  __syncthreads();
  atomicAdd(&bins[tid % 8], 1u);
  atomicAdd(&bins[tid % 8], tid);
  atomicExch(&bins[tid % 8], tid);
  atomicMax(&bins[tid % 8], tid);
  atomicAdd(&fbins[tid % 8], 1.0f);
  atomicExch(&bins[tid % 32], tid);
  atomicAdd(&bins[(tid * 2) % 64], tid);
  __syncthreads();
  if (tid < 64) {
    out[blockIdx.x * 64 + tid] = bins[tid];
    fout[blockIdx.x * 64 + tid] = fbins[tid];
  }
}

// Half the lanes active, all on one word.
__global__ void halfWarpOneWord(unsigned *out) {
  __shared__ unsigned word;
  unsigned tid = threadIdx.x;
  if (tid == 0)
    word = 0;
  __syncthreads();
  if (tid % 2 == 1) {
    atomicExch(&word, tid);
    atomicAdd(&word, tid);
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + tid] = word;
}

int main() {
  const int Blocks = 2, Threads = 128;
  unsigned *out;
  float *fout;
  cudaMalloc(&out, Blocks * Threads * sizeof(unsigned));
  cudaMalloc(&fout, Blocks * Threads * sizeof(float));
  oneWord<<<Blocks, Threads>>>(out, fout, 3);
  fewWords<<<Blocks, Threads>>>(out, fout);
  halfWarpOneWord<<<Blocks, Threads>>>(out);
  cudaDeviceSynchronize();
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H200 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
// CHECK-MESSAGES: :27:3: warning: 32-way bank conflict atomically updating 'atomicExch(&word, tid)': lanes 0-31 update bank 0 one after another, lanes naming one word included (32 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at shared-atomics.cu:86 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :28:3: warning: 32-way bank conflict atomically updating 'atomicCAS(&word, tid, tid + 1)': lanes 0-31 update bank 0 one after another, lanes naming one word included (32 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at shared-atomics.cu:86 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :33:3: warning: 32-way bank conflict atomically updating 'atomicInc(&word, 1000u)': lanes 0-31 update bank 0 one after another, lanes naming one word included (32 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at shared-atomics.cu:86 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :34:3: warning: 32-way bank conflict atomically updating 'atomicAdd(&fword, 1.0f)': lanes 0-31 update bank 0 one after another, lanes naming one word included (32 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at shared-atomics.cu:86 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :52:3: warning: 4-way bank conflict atomically updating 'atomicAdd(&bins[tid % 8], tid)': lanes 0, 8, 16, 24 update bank 0 one after another, lanes naming one word included (4 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at shared-atomics.cu:87 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :53:3: warning: 4-way bank conflict atomically updating 'atomicExch(&bins[tid % 8], tid)': lanes 0, 8, 16, 24 update bank 0 one after another, lanes naming one word included (4 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at shared-atomics.cu:87 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :54:3: warning: 4-way bank conflict atomically updating 'atomicMax(&bins[tid % 8], tid)': lanes 0, 8, 16, 24 update bank 0 one after another, lanes naming one word included (4 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at shared-atomics.cu:87 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :55:3: warning: 4-way bank conflict atomically updating 'atomicAdd(&fbins[tid % 8], 1.0f)': lanes 0, 8, 16, 24 update bank 0 one after another, lanes naming one word included (4 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at shared-atomics.cu:87 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :57:3: warning: 2-way bank conflict atomically updating 'atomicAdd(&bins[(tid * 2) % 64], tid)': lanes 0, 16 hit bank 0 with different words (2 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at shared-atomics.cu:87 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :73:5: warning: 16-way bank conflict atomically updating 'atomicExch(&word, tid)': lanes 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31 update bank 0 one after another, lanes naming one word included (16 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at shared-atomics.cu:88 [cuda-shared-bank-conflict]
