// Test input for values that a kernel's own __shared__ arrays bound. A count
// one thread read from memory sizes a scan tree over a list of 2 * 256 + 1
// 16-bit entries (the shape of a bisection's compaction list): the stated
// value 4096 would index the list far past its end, which no valid program
// does (C++ [expr.add]), so the value stated is the largest of the ladder
// 4096, 256, 32, 8 that stays inside it: 256, and the sweep leaves out the
// values that leave the list. The second kernel runs the same tree after a
// loop nest too long to simulate whole: the nest is cut, and the tree that
// follows it is still simulated level by level. The host code gives the
// kernels the stated values (HW-STATED-VALUES).
#include <cuda_runtime.h>

#include <vector>

constexpr unsigned ListCapacity = 2 * 256 + 1;

__global__ void scanOfReadCount(const unsigned *counts, unsigned short *out) {
  __shared__ unsigned short list[ListCapacity];
  __shared__ unsigned count;
  unsigned tid = threadIdx.x;
  if (tid == 0)
    count = counts[blockIdx.x];
  list[tid] = static_cast<unsigned short>(tid);
  __syncthreads();
  // Up-sweep of a work-efficient scan over `count` entries of the list.
  unsigned offset = 1;
  for (unsigned d = count >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      unsigned ai = offset * (2 * tid + 1) - 1;
      unsigned bi = offset * (2 * tid + 2) - 1;
      list[bi] = list[bi] + list[ai];
    }
    offset <<= 1;
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + tid] = list[tid];
}

// A bisection-like refinement first: three nested loops of arithmetic on
// registers, many more lane-steps than the simulation of one warp allows.
__global__ void scanAfterRefinement(const unsigned *counts, const float *x, unsigned short *out,
                                   float *bound) {
  __shared__ unsigned short list[ListCapacity];
  __shared__ unsigned count;
  unsigned tid = threadIdx.x;
  if (tid == 0)
    count = counts[blockIdx.x];
  float lo = x[blockIdx.x * blockDim.x + tid], hi = lo + 1.0f;
  for (int a = 0; a < 64; ++a)
    for (int b = 0; b < 64; ++b)
      for (int c = 0; c < 64; ++c) {
        float mid = 0.5f * (lo + hi);
        if (mid * mid > 2.0f + a - b * 0.5f + c * 0.25f)
          hi = mid;
        else
          lo = mid;
      }
  bound[blockIdx.x * blockDim.x + tid] = lo;
  list[tid] = static_cast<unsigned short>(tid);
  __syncthreads();
  // The same up-sweep, after the nest.
  unsigned offset = 1;
  for (unsigned d = count >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      unsigned ai = offset * (2 * tid + 1) - 1;
      unsigned bi = offset * (2 * tid + 2) - 1;
      list[bi] = list[bi] + list[ai];
    }
    offset <<= 1;
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + tid] = list[tid];
}

int main() {
  const int Blocks = 4, Threads = 256;
  // The stated value: every count 256.
  std::vector<unsigned> counts(Blocks, 256);
  unsigned *dCounts;
  unsigned short *out;
  float *x, *bound;
  cudaMalloc(&dCounts, counts.size() * sizeof(unsigned));
  cudaMalloc(&out, Blocks * Threads * sizeof(unsigned short));
  cudaMalloc(&x, Blocks * Threads * sizeof(float));
  cudaMalloc(&bound, Blocks * Threads * sizeof(float));
  cudaMemcpy(dCounts, counts.data(), counts.size() * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemset(x, 0, Blocks * Threads * sizeof(float));
  scanOfReadCount<<<Blocks, Threads>>>(dCounts, out);
  scanAfterRefinement<<<Blocks, Threads>>>(dCounts, x, out, bound);
  cudaDeviceSynchronize();
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H200 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
// CHECK-MESSAGES: :32:7: warning: 4-way bank conflict writing 'list[bi]' with the values read from memory taken as 256: lanes 0, 8, 16, 24 hit bank 3 with different words (2.25 wavefronts per request, ideal 1) with block (256, 1, 1) from the launch at shared-bounds.cu:90 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :32:18: warning: 4-way bank conflict reading 'list[bi]' with the values read from memory taken as 256: lanes 0, 8, 16, 24 hit bank 3 with different words (2.25 wavefronts per request, ideal 1) with block (256, 1, 1) from the launch at shared-bounds.cu:90 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :32:29: warning: 4-way bank conflict reading 'list[ai]' with the values read from memory taken as 256: lanes 0, 8, 16, 24 hit bank 1 with different words (2.25 wavefronts per request, ideal 1) with block (256, 1, 1) from the launch at shared-bounds.cu:90 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :69:7: warning: 4-way bank conflict writing 'list[bi]' with the values read from memory taken as 256: lanes 0, 8, 16, 24 hit bank 3 with different words (2.25 wavefronts per request, ideal 1) with block (256, 1, 1) from the launch at shared-bounds.cu:91 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :69:18: warning: 4-way bank conflict reading 'list[bi]' with the values read from memory taken as 256: lanes 0, 8, 16, 24 hit bank 3 with different words (2.25 wavefronts per request, ideal 1) with block (256, 1, 1) from the launch at shared-bounds.cu:91 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :69:29: warning: 4-way bank conflict reading 'list[ai]' with the values read from memory taken as 256: lanes 0, 8, 16, 24 hit bank 1 with different words (2.25 wavefronts per request, ideal 1) with block (256, 1, 1) from the launch at shared-bounds.cu:91 [cuda-shared-bank-conflict]
