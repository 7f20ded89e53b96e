// Test input for shared accesses whose index is read from memory but whose
// array is too small to conflict: a radix sort's start pointers (16 words,
// one per digit) written and read at digits read from shared memory, a
// 32-word lookup table read at data-chosen entries. Any 32 consecutive
// words lie in 32 distinct banks, so lanes that meet in a bank of such an
// array meet at one word: 1 wavefront per request whatever the data. The
// 64-word table indexed by digit * 4 is not so bounded (digits 0 and 8 are
// both bank 0, at words 0 and 32): it stays unknown. Keys are a fixed
// pattern, so the H200 records (test/hw/inputs/) compare line for line.
#include <cuda_runtime.h>

#include <vector>

__global__ void digitStarts(const unsigned *keys, unsigned *starts, int shift) {
  __shared__ unsigned digits[256];
  __shared__ unsigned first[16];
  __shared__ unsigned spread[64];
  unsigned key = keys[blockIdx.x * 256 + threadIdx.x];
  digits[threadIdx.x] = (key >> shift) & 0xF;
  if (threadIdx.x < 16)
    first[threadIdx.x] = 0;
  __syncthreads();
  if (threadIdx.x > 0 && digits[threadIdx.x] != digits[threadIdx.x - 1])
    first[digits[threadIdx.x]] = threadIdx.x;
  spread[digits[threadIdx.x] * 4] = threadIdx.x;
  __syncthreads();
  starts[blockIdx.x * 256 + threadIdx.x] =
      first[digits[threadIdx.x]] + spread[(threadIdx.x % 16) * 4];
}

__global__ void lookUp(const unsigned char *codes, const float *table, float *out) {
  __shared__ float entries[32];
  if (threadIdx.x < 32)
    entries[threadIdx.x] = table[threadIdx.x];
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = entries[codes[i] & 31];
}

int main() {
  const int Blocks = 64, N = Blocks * 256;
  // Sorted runs of digits (as a radix sort's blocks hold them): key k has
  // digit (k / 16) % 16 at shift 4, and pseudo-random codes.
  std::vector<unsigned> keys(N);
  std::vector<unsigned char> codes(N);
  for (int k = 0; k < N; ++k) {
    keys[k] = (unsigned)k;
    codes[k] = (unsigned char)((k * 2654435761u) >> 24);
  }
  unsigned *dKeys, *dStarts;
  unsigned char *dCodes;
  float *dTable, *dOut;
  cudaMalloc(&dKeys, N * sizeof(unsigned));
  cudaMalloc(&dStarts, N * sizeof(unsigned));
  cudaMalloc(&dCodes, N);
  cudaMalloc(&dTable, 32 * sizeof(float));
  cudaMalloc(&dOut, N * sizeof(float));
  cudaMemcpy(dKeys, keys.data(), N * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(dCodes, codes.data(), N, cudaMemcpyHostToDevice);
  cudaMemset(dTable, 0, 32 * sizeof(float));
  digitStarts<<<Blocks, 256>>>(dKeys, dStarts, 4);
  lookUp<<<Blocks, 256>>>(dCodes, dTable, dOut);
  cudaDeviceSynchronize();
  cudaFree(dKeys);
  cudaFree(dStarts);
  cudaFree(dCodes);
  cudaFree(dTable);
  cudaFree(dOut);
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s cuda-shared-bank-conflict %t -- --config=cuda-shared-bank-conflict.ReportDataDependent=true

// The 64-word table indexed by digit * 4 is a data-dependent scatter,
// reported as such; the 16- and 32-word tables are not (no number of theirs
// is in doubt, and every warning must be matched). Its read at
// (threadIdx.x % 16) * 4 is known: lanes 0 and 8 at words 0 and 32.
// CHECK-MESSAGES: :25:3: warning: shared store 'spread[digits[threadIdx.x] * 4]' has a data-dependent address (computed from 'digits[threadIdx.x]', read at run time): its wavefronts per request depend on the data with block (256, 1, 1) from the launch at shared-small-tables.cu:61 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :28:36: warning: 2-way bank conflict reading 'spread[(threadIdx.x % 16) * 4]': lanes 0, 8 hit bank 0 with different words (2 wavefronts per request, ideal 1) with block (256, 1, 1) from the launch at shared-small-tables.cu:61 [cuda-shared-bank-conflict]
