// Test input for cuda-missed-data-reuse: the naive matrix multiply (every
// thread of a row of the block reads the same elements of A, every thread of
// a column the same elements of B) with square and flat blocks, the tiled
// multiply that stages both through shared memory (no finding), a
// matrix-vector product whose vector every thread of the block reads, and
// loads every thread of a warp reads outside a loop or at an address the
// loop does not change (no finding). Every kernel
// is launched from main(), so the program runs on a GPU as it is analysed.
#include <cuda_runtime.h>

constexpr int N = 256;
#define TILE 16

__global__ void matmulNaive(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += A[row * n + k] * B[k * n + col];
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'A[row * n + k]' in a loop reads each element for 16 threads of a block; staging it through a 16 x 16 shared-memory tile would read it once per tile, cutting its global traffic by a factor of 16 and raising the loop's arithmetic intensity from 0.25 to 4 FLOP/byte with block (16, 16, 1) from the launch at cuda-missed-data-reuse.cu:{{[0-9]+}} [cuda-missed-data-reuse]
    // CHECK-MESSAGES: :[[@LINE-2]]:12: note: tiled: declare '__shared__ float tile[16][16];', step 'k' by 16, and at each step let every thread of a 16 x 16 block load one element ('tile[threadIdx.y][threadIdx.x] = A[...]'), '__syncthreads()', run the 16 iterations of the step on 'tile' instead of 'A', then '__syncthreads()' before the next step
    // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: global load 'A[row * n + k]' in a loop reads each element for 32 threads of a block; staging it through a 32 x 32 shared-memory tile would read it once per tile, cutting its global traffic by a factor of 32 and raising the loop's arithmetic intensity from 0.25 to 3.2 FLOP/byte with block (32, 8, 1) from the launch at cuda-missed-data-reuse.cu:{{[0-9]+}} [cuda-missed-data-reuse]
    // CHECK-MESSAGES: :[[@LINE-4]]:29: warning: global load 'B[k * n + col]' in a loop reads each element for 16 threads of a block; staging it through a 16 x 16 shared-memory tile would read it once per tile, cutting its global traffic by a factor of 16 and raising the loop's arithmetic intensity from 0.25 to 4 FLOP/byte with block (16, 16, 1) from the launch at cuda-missed-data-reuse.cu:{{[0-9]+}} [cuda-missed-data-reuse]
    // CHECK-MESSAGES: :[[@LINE-5]]:29: warning: global load 'B[k * n + col]' in a loop reads each element for 8 threads of a block; staging it through an 8 x 8 shared-memory tile would read it once per tile, cutting its global traffic by a factor of 8 and raising the loop's arithmetic intensity from 0.25 to 3.2 FLOP/byte with block (32, 8, 1) from the launch at cuda-missed-data-reuse.cu:{{[0-9]+}} [cuda-missed-data-reuse]
    // CHECK-MESSAGES: :[[@LINE-6]]:29: note: tiled: declare '__shared__ float tile[8][8];', step 'k' by 8, and at each step let every thread of an 8 x 8 block load one element ('tile[threadIdx.y][threadIdx.x] = B[...]'), '__syncthreads()', run the 8 iterations of the step on 'tile' instead of 'B', then '__syncthreads()' before the next step
    // CHECK-MESSAGES-TILE8: :[[@LINE-7]]:12: warning: global load 'A[row * n + k]' in a loop reads each element for 16 threads of a block; staging it through an 8 x 8 shared-memory tile would read it once per tile, cutting its global traffic by a factor of 8 and raising the loop's arithmetic intensity from 0.25 to 2 FLOP/byte with block (16, 16, 1) from the launch at cuda-missed-data-reuse.cu:{{[0-9]+}} [cuda-missed-data-reuse]
    // CHECK-MESSAGES-TILE8: :[[@LINE-8]]:12: warning: global load 'A[row * n + k]' in a loop reads each element for 32 threads of a block; staging it through an 8 x 8 shared-memory tile would read it once per tile, cutting its global traffic by a factor of 8 and raising the loop's arithmetic intensity from 0.25 to 2 FLOP/byte with block (32, 8, 1) from the launch at cuda-missed-data-reuse.cu:{{[0-9]+}} [cuda-missed-data-reuse]
    // CHECK-MESSAGES-TILE8: :[[@LINE-9]]:29: warning: global load 'B[k * n + col]' in a loop reads each element for 16 threads of a block; staging it through an 8 x 8 shared-memory tile would read it once per tile, cutting its global traffic by a factor of 8 and raising the loop's arithmetic intensity from 0.25 to 2 FLOP/byte with block (16, 16, 1) from the launch at cuda-missed-data-reuse.cu:{{[0-9]+}} [cuda-missed-data-reuse]
    // CHECK-MESSAGES-TILE8: :[[@LINE-10]]:29: warning: global load 'B[k * n + col]' in a loop reads each element for 8 threads of a block; staging it through an 8 x 8 shared-memory tile would read it once per tile, cutting its global traffic by a factor of 8 and raising the loop's arithmetic intensity from 0.25 to 2 FLOP/byte with block (32, 8, 1) from the launch at cuda-missed-data-reuse.cu:{{[0-9]+}} [cuda-missed-data-reuse]
  C[row * n + col] = sum;
}

__global__ void matmulTiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

__global__ void matVec(const float *A, const float *x, float *y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += A[row * n + k] * x[k];
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: global load 'x[k]' in a loop reads each element for 128 threads of a block; staging it through a 128-element shared-memory tile would read it once per tile, cutting its global traffic by a factor of 128 and raising the loop's arithmetic intensity from 0.25 to 0.5 FLOP/byte with block (128, 1, 1) from the launch at cuda-missed-data-reuse.cu:{{[0-9]+}} [cuda-missed-data-reuse]
    // CHECK-MESSAGES: :[[@LINE-2]]:29: note: tiled: declare '__shared__ float tile[128];', step 'k' by 128, and at each step let 128 threads load one element ('tile[threadIdx.x] = x[...]'), '__syncthreads()', run the 128 iterations of the step on 'tile' instead of 'x', then '__syncthreads()' before the next step
  y[row] = sum;
}

// Each row's bounds are read once per thread (in the loop's initialiser and
// its condition, an address the loop does not change): no finding.
__global__ void rowSums(const int *start, const float *v, float *out) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int j = start[row]; j < start[row + 1]; ++j)
    s += v[j];
  out[row] = s;
}

__global__ void scaleByFirst(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * in[blockIdx.x];
}

int main() {
  float *A, *B, *C, *x, *y;
  cudaMalloc(&A, N * N * sizeof(float));
  cudaMalloc(&B, N * N * sizeof(float));
  cudaMalloc(&C, N * N * sizeof(float));
  cudaMalloc(&x, N * sizeof(float));
  cudaMalloc(&y, N * sizeof(float));
  matmulNaive<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(A, B, C, N);
  matmulNaive<<<dim3(N / 32, N / 8), dim3(32, 8)>>>(A, B, C, N);
  matmulTiled<<<dim3(N / TILE, N / TILE), dim3(TILE, TILE)>>>(A, B, C, N);
  matVec<<<N / 128, 128>>>(A, x, y, N);
  rowSums<<<N / 128, 128>>>((const int *)B, A, y);
  scaleByFirst<<<N * N / 256, 256>>>(A, C);
  cudaDeviceSynchronize();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// The tile's side capped by TileSize (the matrix multiplies' lines above):
// 8 for every load.
// CHECK-MESSAGES-TILE8: :{{[0-9]+}}:29: warning: global load 'x[k]' in a loop reads each element for 128 threads of a block; staging it through an 8-element shared-memory tile would read it once per tile, cutting its global traffic by a factor of 8 and raising the loop's arithmetic intensity from 0.25 to 0.44 FLOP/byte with block (128, 1, 1) from the launch at cuda-missed-data-reuse.cu:{{[0-9]+}} [cuda-missed-data-reuse]
// And MinReuse above every load's reuse: nothing.
// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last.
// RUN: %check_warpcheck %s 'cuda-missed-data-reuse' %t
// RUN: %check_warpcheck -door=binary %s 'cuda-missed-data-reuse' %t.no-cuda -- --no-cuda
// RUN: %check_warpcheck -check-suffix=TILE8 %s 'cuda-missed-data-reuse' %t.tile8 -- --config=cuda-missed-data-reuse.TileSize=8
// RUN: %check_warpcheck -check-suffix=NONE %s 'cuda-missed-data-reuse' %t.none -- --config=cuda-missed-data-reuse.MinReuse=200
