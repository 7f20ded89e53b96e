// Test input for kernels whose launches cannot be evaluated (the block
// comes from the command line, as in benchmark drivers): the shape is
// inferred from the kernel's own code, never a 1-D default for a kernel
// that reads threadIdx.y. Evidence: blockDim compared with a constant,
// __shared__ dimensions indexed by exactly threadIdx (a dimension of
// 2^k + 1 is 2^k threads and a column of padding), the axes read. Run
// without arguments the program launches the shapes inferred here, so the
// H200 records (test/hw/inputs/kernel-shapes.json) compare line for line.
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 16
#define WIDTH 1024

// A 16 x 16 tile with one column of padding, as in transposes written for
// 16 x 16 blocks: a warp holds two rows of 16 threads, and 17 words apart
// the second row's last thread meets the first row's first bank.
__global__ void transposeTile(const float *in, float *out) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * WIDTH + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * WIDTH + x] = tile[threadIdx.x][threadIdx.y];
}

// The kernel refuses any other block.
__global__ void fixedBlock(const float *in, float *out) {
  if (blockDim.x != 128)
    return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 3];
}

// Two-dimensional with nothing else known: the default block's 256
// threads as (16, 16, 1). A column walk: 16 rows of a warp, two adjacent
// columns in each row's sector.
__global__ void columnWalk(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * WIDTH + x] = in[x * WIDTH + y];
}

// __launch_bounds__(512) spread over x and y: (32, 16, 1).
__global__ void __launch_bounds__(512) boundedRows(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * WIDTH + x] = in[y * WIDTH + 2 * x];
}

// One-dimensional: 's' holds one element per thread (128); the per-warp
// scratch 'warpTotals' is written only under threadIdx.x < 32 and says
// nothing about the block.
__global__ void stagedSum(const float *in, float *out) {
  __shared__ float s[128];
  __shared__ float warpTotals[32];
  s[threadIdx.x] = in[(blockIdx.x * blockDim.x + threadIdx.x) * 3];
  __syncthreads();
  if (threadIdx.x < 32)
    warpTotals[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + 32];
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = warpTotals[0] + warpTotals[31];
}

int main(int argc, char **argv) {
  // Every block size is read from the command line; these defaults are
  // what the H200 run uses.
  int tile = atoi(argc > 1 ? argv[1] : "16");
  int threads = atoi(argc > 2 ? argv[2] : "128");
  int rows = atoi(argc > 3 ? argv[3] : "16");
  float *in, *out;
  cudaMalloc(&in, sizeof(float) * WIDTH * WIDTH * 4);
  cudaMalloc(&out, sizeof(float) * WIDTH * WIDTH * 4);
  dim3 square(tile, tile);
  dim3 grid(WIDTH / tile, WIDTH / tile);
  transposeTile<<<grid, square>>>(in, out);
  fixedBlock<<<WIDTH / threads, threads>>>(in, out);
  columnWalk<<<grid, square>>>(in, out);
  boundedRows<<<dim3(WIDTH / 32, WIDTH / rows), dim3(32, rows)>>>(in, out);
  stagedSum<<<WIDTH / threads, threads>>>(in, out);
  cudaDeviceSynchronize();
  return 0;
}

// Expectations, by absolute line: the lines above are the keys of the H200
// records, so nothing is inserted between them.
// CHECK-MESSAGES: :22:3: warning: 2-way bank conflict writing 'tile[threadIdx.y][threadIdx.x]': lanes 0, 31 hit bank 0 with different words (2 wavefronts per request, ideal 1) with block (16, 16, 1) from the kernel's code (the __shared__ array 'tile' holds 16 elements along threadIdx.x and 16 along threadIdx.y) [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :22:3: note: no padding offered: no padding of up to 32 elements removes the conflict without making another access worse; an XOR swizzle spreads the rows over the banks instead: index column c of row r as (c ^ (r % 32))
// CHECK-MESSAGES: :22:3: note: assumed: the block shape (16, 16, 1) is assumed from the kernel's code (the __shared__ array 'tile' holds 16 elements along threadIdx.x and 16 along threadIdx.y)
// CHECK-MESSAGES: :26:24: warning: 2-way bank conflict reading 'tile[threadIdx.x][threadIdx.y]': lanes 0, 31 hit bank 0 with different words (2 wavefronts per request, ideal 1) with block (16, 16, 1) from the kernel's code (the __shared__ array 'tile' holds 16 elements along threadIdx.x and 16 along threadIdx.y) [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :19:20: note: padding the last dimension of 'tile' to (TILE + 1) + 1 removes the conflict and makes no access to it worse (+64 bytes, 5.9%)
// CHECK-MESSAGES: :26:24: note: assumed: the block shape (16, 16, 1) is assumed from the kernel's code (the __shared__ array 'tile' holds 16 elements along threadIdx.x and 16 along threadIdx.y)
// CHECK-MESSAGES: :34:12: warning: global load 'in[i * 3]' touches 12 sectors per warp request (ideal 4, 33.3% efficiency) with block (128, 1, 1) from the kernel's code ('blockDim.x != 128' at kernel-shapes.cu:31) [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :34:12: note: assumed: the block shape (128, 1, 1) is assumed from the kernel's code ('blockDim.x != 128' at kernel-shapes.cu:31)
// CHECK-MESSAGES: :43:24: warning: global load 'in[x * WIDTH + y]' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) with block (16, 16, 1) from the default block's 256 threads spread over threadIdx.x and threadIdx.y (the kernel reads threadIdx.y) [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :43:24: note: assumed: the block shape (16, 16, 1) is assumed from the default block's 256 threads spread over threadIdx.x and threadIdx.y (the kernel reads threadIdx.y)
// CHECK-MESSAGES: :59:20: warning: global load 'in[(blockIdx.x * blockDim.x + threadIdx.x) * 3]' touches 12 sectors per warp request (ideal 4, 33.3% efficiency) with block (128, 1, 1) from the kernel's code (the __shared__ array 's' holds 128 elements along threadIdx.x) [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :59:20: note: assumed: the block shape (128, 1, 1) is assumed from the kernel's code (the __shared__ array 's' holds 128 elements along threadIdx.x)

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t

// The sizes from the command line are read as `atoi(argc > 1 ? argv[1] :
// "16")`, the same values as `argc > 1 ? atoi(argv[1]) : 16`, written so
// that the host evaluation cannot tell them: it would analyse that form's
// default as a launch of its own (the condition false), and this input is
// about launches whose shape is not known.
