// Test input for the roofline (docs/hardware-model.md, "Arithmetic intensity
// and the roofline"): kernels whose FLOPs and DRAM bytes warpcheck counts
// (the JSON report's "flops" and "dram_bytes") and the H200 measures
// (test/hw/scripts/measure_roofline.sh: Nsight Compute's
// smsp__sass_thread_inst_executed_op_*_pred_on, dram__bytes_read/write and
// gpu__time_duration per kernel; compared by test/hw/compare_roofline.py).
// Every array is far larger than the H200's 60 MB L2, so what DRAM moves is
// real traffic; no kernel's count depends on the values (the arrays are
// zeroed with cudaMemset, and no branch reads them).
//
// HW-ROOFLINE: measured
//
// saxpy, daxpy and a half2 axpy (2^28 elements each), a 5-point stencil
// and a tiled transpose over 8192 x 8192 floats, a shared-memory sum
// reduction of 2^28 floats, and the naive and 16 x 16 tiled multiply of a
// 32768 x 256 by a 256 x 1024 matrix (a 128 MiB product).
#include <cuda_runtime.h>
// The half2 kernel needs the toolkit's cuda_fp16.h (nvcc always has it;
// warpcheck --no-cuda analyses the other kernels).
#if __has_include(<cuda_fp16.h>)
#include <cuda_fp16.h>
#define ROOFLINE_HALF 1
#endif

#define TILE 16
#define TRANSPOSE_TILE 32
#define REDUCE_BLOCK 256

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void daxpy(int n, double a, const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

#ifdef ROOFLINE_HALF
__global__ void haxpy(int n, __half2 a, const __half2 *x, __half2 *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __hfma2(a, x[i], y[i]);
}
#endif

__global__ void stencil5(int width, int height, float center, float side, const float *in,
                         float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
    return;
  int c = y * width + x;
  out[c] = center * in[c] + side * (in[c - 1] + in[c + 1] + in[c - width] + in[c + width]);
}

__global__ void transposeTiled(int n, const float *in, float *out) {
  __shared__ float tile[TRANSPOSE_TILE][TRANSPOSE_TILE + 1];
  int x = blockIdx.x * TRANSPOSE_TILE + threadIdx.x;
  int y = blockIdx.y * TRANSPOSE_TILE + threadIdx.y;
  for (int j = 0; j < TRANSPOSE_TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TRANSPOSE_TILE + threadIdx.x;
  y = blockIdx.x * TRANSPOSE_TILE + threadIdx.y;
  for (int j = 0; j < TRANSPOSE_TILE; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void reduceSum(const float *in, float *partial) {
  __shared__ float sdata[REDUCE_BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (2 * REDUCE_BLOCK) + tid;
  sdata[tid] = in[i] + in[i + REDUCE_BLOCK];
  __syncthreads();
  for (unsigned s = REDUCE_BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = sdata[0];
}

__global__ void matmulNaive(int k, int n, const float *A, const float *B, float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int j = 0; j < k; ++j)
    sum += A[row * k + j] * B[j * n + col];
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'A[row * k + j]' in a loop reads each element for 16 threads of a block; staging it through a 16 x 16 shared-memory tile would read it once per tile, cutting its global traffic by a factor of 16 and raising the loop's arithmetic intensity from 0.25 to 4 FLOP/byte with block (16, 16, 1) from the launch at roofline.cu:{{[0-9]+}} [cuda-missed-data-reuse]
    // CHECK-MESSAGES: :[[@LINE-2]]:29: warning: global load 'B[j * n + col]' in a loop reads each element for 16 threads of a block; staging it through a 16 x 16 shared-memory tile would read it once per tile, cutting its global traffic by a factor of 16 and raising the loop's arithmetic intensity from 0.25 to 4 FLOP/byte with block (16, 16, 1) from the launch at roofline.cu:{{[0-9]+}} [cuda-missed-data-reuse]
  C[row * n + col] = sum;
}

__global__ void matmulTiled(int k, int n, const float *A, const float *B, float *C) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < k; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * k + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      sum += As[threadIdx.y][j] * Bs[j][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

int main() {
  const int Elements = 1 << 28;
  const int Side = 8192;
  const int M = 32768, K = 256, N = 1024;
  float *x, *y, *img, *res, *A, *B, *C;
  double *dx, *dy;
  cudaMalloc(&x, sizeof(float) * Elements);
  cudaMalloc(&y, sizeof(float) * Elements);
  cudaMalloc(&dx, sizeof(double) * Elements);
  cudaMalloc(&dy, sizeof(double) * Elements);
  cudaMalloc(&img, sizeof(float) * Side * Side);
  cudaMalloc(&res, sizeof(float) * Side * Side);
  cudaMalloc(&A, sizeof(float) * M * K);
  cudaMalloc(&B, sizeof(float) * K * N);
  cudaMalloc(&C, sizeof(float) * M * N);
  cudaMemset(x, 0, sizeof(float) * Elements);
  cudaMemset(y, 0, sizeof(float) * Elements);
  cudaMemset(dx, 0, sizeof(double) * Elements);
  cudaMemset(dy, 0, sizeof(double) * Elements);
  cudaMemset(img, 0, sizeof(float) * Side * Side);
  cudaMemset(A, 0, sizeof(float) * M * K);
  cudaMemset(B, 0, sizeof(float) * K * N);

  saxpy<<<Elements / 256, 256>>>(Elements, 2.0f, x, y);
  daxpy<<<Elements / 256, 256>>>(Elements, 2.0, dx, dy);
#ifdef ROOFLINE_HALF
  __half2 *hx, *hy;
  cudaMalloc(&hx, sizeof(__half2) * Elements);
  cudaMalloc(&hy, sizeof(__half2) * Elements);
  cudaMemset(hx, 0, sizeof(__half2) * Elements);
  cudaMemset(hy, 0, sizeof(__half2) * Elements);
  haxpy<<<Elements / 256, 256>>>(Elements, __floats2half2_rn(2.0f, 2.0f), hx, hy);
#endif
  stencil5<<<dim3(Side / 32, Side / 8), dim3(32, 8)>>>(Side, Side, 0.5f, 0.125f, img, res);
  transposeTiled<<<dim3(Side / TRANSPOSE_TILE, Side / TRANSPOSE_TILE), dim3(TRANSPOSE_TILE, 8)>>>(
      Side, img, res);
  reduceSum<<<Elements / (2 * REDUCE_BLOCK), REDUCE_BLOCK>>>(x, res);
  matmulNaive<<<dim3(N / 16, M / 16), dim3(16, 16)>>>(K, N, A, B, C);
  matmulTiled<<<dim3(N / TILE, M / TILE), dim3(TILE, TILE)>>>(K, N, A, B, C);
  cudaDeviceSynchronize();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H200 records of this input (test/hw/roofline/) are
// keyed by kernel and launch.
// RUN: %check_warpcheck %s 'cuda-missed-data-reuse' %t
