// Test input for values a kernel computes in ways the simulation once lost:
// an index split by a helper that returns through reference parameters
// (the CUDA samples' convolutionFFT2D, with __ffs for a power of two's
// logarithm), a lane's rank among a ballot's by __popc, one lane writing
// through a pointer read from memory (a ring buffer's slot, as
// cdpAdvancedQuicksort's), and an element read back after a store of it.
// The H200 records (test/hw/inputs/) compare line for line.
#include <cuda_runtime.h>

#include <vector>

__device__ void splitPow2(unsigned &dividend, unsigned divisor, unsigned &rem) {
  rem = dividend & (divisor - 1);
  dividend >>= (__ffs(divisor) - 1);
}

// q = i / 16, r = i % 16 through the helper: out[r * 64 + q] puts a warp's
// lanes 256 bytes apart in pairs, out[q * 16 + r] is the identity.
__global__ void splitIndex(float *transposed, float *same) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, r;
  splitPow2(i, 16, r);
  transposed[r * 64 + i] = 1.0f;
  same[i * 16 + r] = 2.0f;
}

// Every third lane writes, packed by its rank among the writers.
__global__ void ballotRank(int *out) {
  unsigned lane = threadIdx.x % 32;
  bool writes = lane % 3 == 0;
  unsigned mask = __ballot_sync(0xffffffffu, writes);
  if (writes)
    out[(blockIdx.x * blockDim.x + threadIdx.x) / 32 * 11 + __popc(mask & ((1u << lane) - 1))] = 1;
}

struct Tally {
  int hits, misses;
};

// Thread 0 of each block writes through a pointer another kernel left in
// memory: whatever the pointer, one lane's word is one sector.
__global__ void tallyThroughSlot(Tally **slots) {
  if (threadIdx.x == 0) {
    Tally *t = slots[blockIdx.x];
    t->hits = blockIdx.x;
    t->misses = 0;
  }
}

// The element is stored, then read: the read takes the stored value.
__global__ void scaleThenCopy(float *__restrict__ data, float *__restrict__ copy) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 32;
  data[i] = data[i] * 2.0f;
  copy[i] = data[i];
}

int main() {
  const int Blocks = 16, Threads = 256, N = Blocks * Threads * 33;
  float *dA, *dB;
  int *dInts;
  Tally *dTallies, **dSlots;
  cudaMalloc(&dA, N * sizeof(float));
  cudaMalloc(&dB, N * sizeof(float));
  cudaMalloc(&dInts, N * sizeof(int));
  cudaMalloc(&dTallies, Blocks * sizeof(Tally));
  cudaMalloc(&dSlots, Blocks * sizeof(Tally *));
  std::vector<Tally *> Slots(Blocks);
  for (int b = 0; b < Blocks; ++b)
    Slots[b] = dTallies + (b * 7) % Blocks;
  cudaMemcpy(dSlots, Slots.data(), Blocks * sizeof(Tally *), cudaMemcpyHostToDevice);
  cudaMemset(dA, 0, N * sizeof(float));
  splitIndex<<<Blocks, Threads>>>(dA, dB);
  ballotRank<<<Blocks, Threads>>>(dInts);
  tallyThroughSlot<<<Blocks, Threads>>>(dSlots);
  scaleThenCopy<<<Blocks, Threads>>>(dA, dB);
  cudaDeviceSynchronize();
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dInts);
  cudaFree(dTallies);
  cudaFree(dSlots);
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t

// The transposed store, the ballot's ranks (11 words from 44 bytes times the
// warp: 2 or 3 sectors, 2.25 per request over the block's warps, as
// measured), and the strided element stored and read back (one load: line
// 53 reads the stored value).
// CHECK-MESSAGES: :22:3: warning: global store 'transposed[r * 64 + i]' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) with block (256, 1, 1) from the launch at out-parameters.cu:71 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :32:5: warning: global store 'out[(blockIdx.x * blockDim.x + threadIdx.x) / 32 * 11 + __popc(mask & ((1u << lane) - 1))]' is misaligned: it touches 2.25 sectors per warp request (ideal 2, 88.9% efficiency) with block (256, 1, 1) from the launch at out-parameters.cu:72 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :52:3: warning: global store 'data[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (256, 1, 1) from the launch at out-parameters.cu:74 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :52:13: warning: global load 'data[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (256, 1, 1) from the launch at out-parameters.cu:74 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :53:3: warning: global store 'copy[i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (256, 1, 1) from the launch at out-parameters.cu:74 [cuda-uncoalesced-global-access]
