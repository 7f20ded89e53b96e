// Test input for cuda-shared-bank-conflict: the seeds' transpose tile
// (shared/seeds/000 and 002 exercise 5.1) and the shapes around it. A
// runnable program: test/hw/ holds what Nsight Compute measured here.
#include <cuda_runtime.h>

#define TILE 32

// Exercise 5.1: tile[32][32] read by column: every lane hits the same bank,
// 32 wavefronts instead of 1. Padding the row to 33 words makes it
// conflict-free (gcd(33, 32) = 1) and leaves the row write unchanged.
__global__ void transposeTile(const float *in, float *out) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * 64 + x];
  __syncthreads();
  int tx = blockIdx.y * TILE + threadIdx.x;
  int ty = blockIdx.x * TILE + threadIdx.y;
  out[ty * 64 + tx] = tile[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 32-way bank conflict reading 'tile[threadIdx.x][threadIdx.y]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 32, 1) from the launch at cuda-shared-bank-conflict.cu:{{[0-9]+}} [cuda-shared-bank-conflict]
  // CHECK-MESSAGES: :[[@LINE-9]]:20: note: padding the last dimension of 'tile' to 33 removes the conflict and makes no access to it worse (+128 bytes, 3.1%)
  // CHECK-FIXES: {{^}}  __shared__ float tile[32][33];{{$}}
}

// Already padded: no finding.
__global__ void transposePadded(const float *in, float *out) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * 64 + x];
  __syncthreads();
  int tx = blockIdx.y * TILE + threadIdx.x;
  int ty = blockIdx.x * TILE + threadIdx.y;
  out[ty * 64 + tx] = tile[threadIdx.x][threadIdx.y];
}

// Broadcast: every lane reads the same word: no conflict.
__global__ void broadcast(float *out) {
  __shared__ float table[64];
  table[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = table[5];
}

// Interleaved tree reduction: lane stride 2 * s words: 2-way, then 4-way...
__global__ void reduceInterleaved(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (unsigned s = 1; s < 256; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < 256)
      sdata[index] += sdata[index + s];
    // Strides 2 to 256 words: 3.92 wavefronts a request; compiled, s = 1 is one LDS.64.
    // CHECK-SOURCE: :[[@LINE-2]]:7: warning: 8-way bank conflict reading 'sdata[index]': lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 0 with different words (3.92 wavefronts per request, ideal 1) with block (256, 1, 1)
    // CHECK-LISTING: :[[@LINE-3]]:7: warning: 8-way bank conflict reading 'sdata[index]': lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 0 with different words (3.92 wavefronts per request, ideal 1.33) with block (256, 1, 1)
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: no padding offered: 'sdata' is one-dimensional; index it so that adjacent lanes use adjacent words
    // CHECK-LISTING: :[[@LINE-5]]:7: note: the compiler merges 'sdata[index]' and 'sdata[index + s]' into one 64-bit load per lane (LDS.64, 2 wavefronts per request) in 16 of its 48 requests
    // CHECK-MESSAGES: :[[@LINE-6]]:7: warning: 8-way bank conflict writing 'sdata[index]'
    // CHECK-MESSAGES: :[[@LINE-7]]:7: note: no padding offered
    // CHECK-MESSAGES: :[[@LINE-8]]:23: warning: 8-way bank conflict reading 'sdata[index + s]': lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 4
    // CHECK-MESSAGES: :[[@LINE-9]]:23: note: no padding offered
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// Sequential addressing: conflict-free.
__global__ void reduceSequential(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// Each thread of a 128-thread block sums its own window of 48 samples,
// staged in shared memory row by row. Rows of 48 words put lanes l and
// l + 2 on the same bank (48 = 16 mod 32): 16-way. Padding the row to 49
// words removes it, and costs occupancy: the runtime divides the SM's
// 233,472 bytes of shared memory (sm_90) by (static + 1,024 reserved)
// bytes per block: 24,576 + 1,024 allow 9 blocks, 25,088 + 1,024 only 8.
// `#pragma unroll 1` keeps the reads 4 bytes wide (unrolled, nvcc merges
// them into LDS.128, a different access; see the exceptions record).
__global__ void windowSums(const float *in, float *out) {
  __shared__ float window[128][48];
  const float *samples = in + blockIdx.x * 128 * 48;
  for (int r = threadIdx.x / 32; r < 128; r += 4)
    for (int c = threadIdx.x % 32; c < 48; c += 32)
      window[r][c] = samples[r * 48 + c];
  __syncthreads();
  float sum = 0;
#pragma unroll 1
  for (int k = 0; k < 48; ++k)
    sum += window[threadIdx.x][k];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 16-way bank conflict reading 'window[threadIdx.x][k]': lanes 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 hit bank 0 with different words (16 wavefronts per request, ideal 1) with block (128, 1, 1)
  // CHECK-MESSAGES: :[[@LINE-11]]:20: note: padding the last dimension of 'window' to 49 removes the conflict and makes no access to it worse (+512 bytes, 2.1%)
  // CHECK-MESSAGES: :[[@LINE-12]]:20: note: the padding costs occupancy on sm_90: 24576 + 512 bytes of static shared memory per block allow 8 blocks of 128 threads per SM instead of 9 (50% occupancy instead of 56.3%)
  // CHECK-FIXES: {{^}}  __shared__ float window[128][49];{{$}}
  out[blockIdx.x * 128 + threadIdx.x] = sum;
}

// windowSums with the padding applied: conflict-free, 8 blocks per SM.
__global__ void windowSumsPadded(const float *in, float *out) {
  __shared__ float window[128][49];
  const float *samples = in + blockIdx.x * 128 * 48;
  for (int r = threadIdx.x / 32; r < 128; r += 4)
    for (int c = threadIdx.x % 32; c < 48; c += 32)
      window[r][c] = samples[r * 48 + c];
  __syncthreads();
  float sum = 0;
#pragma unroll 1
  for (int k = 0; k < 48; ++k)
    sum += window[threadIdx.x][k];
  out[blockIdx.x * 128 + threadIdx.x] = sum;
}

// A 96 x 128 tile fills the 49,152 bytes a kernel may declare statically:
// read along rows by the lanes it is 32-way, and no padding fits (one more
// word per row is 49,536 bytes, which ptxas rejects).
__global__ void fullTile(const float *in, float *out) {
  __shared__ float tile[96][128];
  for (int r = threadIdx.x / 128; r < 96; r += 2)
    tile[r][threadIdx.x % 128] = in[blockIdx.x * 96 * 128 + r * 128 + threadIdx.x % 128];
  __syncthreads();
  if (threadIdx.x < 96) {
    float sum = 0;
#pragma unroll 1
    for (int k = 0; k < 128; ++k)
      sum += tile[threadIdx.x][k];
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 32-way bank conflict reading 'tile[threadIdx.x][k]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (256, 1, 1)
    // CHECK-MESSAGES: :[[@LINE-2]]:14: note: no padding offered: padding 'tile' by 1 element per row would take the kernel's static shared memory to 49536 bytes, over the 49152-byte limit of sm_90; an XOR swizzle spreads the rows over the banks instead: index column c of row r as (c ^ (r % 32))
    out[blockIdx.x * 96 + threadIdx.x] = sum;
  }
}

// The tile is cleared through a pointer that walks it linearly: a padded
// row would leave its last words uncleared and clear the next row's first
// instead, so no padding is offered although the column read is 32-way.
__global__ void clearedTile(const float *in, float *out) {
  __shared__ float tile[32][32];
  float *flat = &tile[0][0];
  for (int i = threadIdx.y * 32 + threadIdx.x; i < 32 * 32; i += 32 * 32)
    flat[i] = 0;
  __syncthreads();
  tile[threadIdx.y][threadIdx.x] += in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 32-way bank conflict reading 'tile[threadIdx.x][threadIdx.y]'
  // CHECK-MESSAGES: :[[@LINE-2]]:41: note: no padding offered: the address of an element of 'tile' is taken at line {{[0-9]+}} (a pointer walking on from it would see the padding); an XOR swizzle
}

// Two conflicting reads of one tile: one fix-it, carried by the first
// warning (clang-tidy applies neither of two fix-its that touch the same
// text); the second warning's note points to it.
__global__ void columnPairs(const float *in, float *out) {
  __shared__ float pair[32][32];
  pair[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  float a = pair[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 32-way bank conflict reading 'pair[threadIdx.x][threadIdx.y]'
  // CHECK-MESSAGES: :[[@LINE-5]]:20: note: padding the last dimension of 'pair' to 33 removes the conflict and makes no access to it worse (+128 bytes, 3.1%)
  float b = pair[threadIdx.x][31 - threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 32-way bank conflict reading 'pair[threadIdx.x][31 - threadIdx.y]'
  // CHECK-MESSAGES: :[[@LINE-8]]:20: note: padding the last dimension of 'pair' to 33, the fix-it offered with the warning at line [[@LINE-5]], removes this conflict too
  // CHECK-FIXES: {{^}}  __shared__ float pair[32][33];{{$}}
  out[threadIdx.y * 32 + threadIdx.x] = a + b;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  transposeTile<<<dim3(2, 2), dim3(32, 32)>>>(in, out);
  transposePadded<<<dim3(2, 2), dim3(32, 32)>>>(in, out);
  broadcast<<<1, 64>>>(out);
  reduceInterleaved<<<4, 256>>>(in, out);
  reduceSequential<<<4, 256>>>(in, out);
  windowSums<<<4, 128>>>(in, out);
  windowSumsPadded<<<4, 128>>>(in, out);
  fullTile<<<2, 256>>>(in, out);
  clearedTile<<<1, dim3(32, 32)>>>(in, out);
  columnPairs<<<1, dim3(32, 32)>>>(in, out);
  cudaDeviceSynchronize();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
// RUN: %check_warpcheck -door=binary %s 'cuda-*' %t.no-cuda -- --no-cuda
