// Test input for wide (8- and 16-byte) shared accesses made by part of a
// warp. A 16-byte access is served 8 lanes at a time and an 8-byte access
// 16 at a time; Nsight Compute's ideal is the distinct bytes over 128. When
// the active lanes fall in several phases, each phase costs a wavefront
// although no bank is used twice: a tile loader where a quarter of a 16-wide
// block row copies float4s is the pattern seen in real code. One shared
// access per line: test/hw/inputs/shared-wide-partial-warps.json holds what
// the H200 measured for each.
#include <cuda_runtime.h>

#define TILE 16

// Block (16, 16): a warp is two rows of 16 threads. Threads x < 4 of each
// row store a float4: lanes 0-3 and 16-19, 2 phases, 128 bytes.
__global__ void quarterRowsFloat4(const float4 *in, float *out) {
  __shared__ __align__(16) float tile[TILE][TILE];
  unsigned x4 = threadIdx.x * 4;
  if (x4 < TILE)
    *reinterpret_cast<float4 *>(&tile[threadIdx.y][x4]) = in[threadIdx.y * 4 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}

// The same 128 bytes stored by lanes 0-7: the warp's first 8 lanes copy
// both rows, one phase.
__global__ void consecutiveLanesFloat4(const float4 *in, float *out) {
  __shared__ __align__(16) float tile[TILE][TILE];
  unsigned lane = threadIdx.y % 2 * TILE + threadIdx.x;
  unsigned pairRow = threadIdx.y / 2 * 2;
  if (lane < 8)
    *reinterpret_cast<float4 *>(&tile[pairRow + lane / 4][lane % 4 * 4]) = in[pairRow * 4 + lane];
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}

// Block (16, 16), doubles: threads x < 8 of each row load 8 bytes, lanes
// 0-7 and 16-23, 2 phases of 16 lanes, 128 bytes.
__global__ void halfRowsDouble(const double *in, double *out) {
  __shared__ double rows[TILE][TILE];
  rows[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 8) {
    double v = rows[threadIdx.y][threadIdx.x];
    out[threadIdx.y * TILE + threadIdx.x] = v;
  }
}

// A full warp of float4 loads: 4 phases, 512 bytes, ideal 4.
__global__ void fullWarpFloat4(const float4 *in, float4 *out) {
  __shared__ float4 vec[256];
  vec[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  // One line: nvcc places the load on the line that uses it.
  out[threadIdx.x] = vec[threadIdx.x];
}

// Every other lane loads a float4 (lanes 0, 2, ..., 30): 16 lanes over the
// 4 phases, 256 bytes, ideal 2.
__global__ void evenLanesFloat4(const float4 *in, float4 *out) {
  __shared__ float4 vec[256];
  vec[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x % 2 == 0)
    out[threadIdx.x] = vec[threadIdx.x / 2];
  __syncthreads();
}

int main() {
  float4 *in4, *out4;
  float *out;
  double *ind, *outd;
  cudaMalloc(&in4, 4096 * sizeof(float4));
  cudaMalloc(&out4, 4096 * sizeof(float4));
  cudaMalloc(&out, 4096 * sizeof(float));
  cudaMalloc(&ind, 4096 * sizeof(double));
  cudaMalloc(&outd, 4096 * sizeof(double));
  dim3 block(TILE, TILE);
  quarterRowsFloat4<<<4, block>>>(in4, out);
  consecutiveLanesFloat4<<<4, block>>>(in4, out);
  halfRowsDouble<<<4, block>>>(ind, outd);
  fullWarpFloat4<<<4, 256>>>(in4, out4);
  evenLanesFloat4<<<4, 256>>>(in4, out4);
  cudaDeviceSynchronize();
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H200 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s 'cuda-shared-bank-conflict' %t
// CHECK-MESSAGES: :19:5: warning: phase split writing '*reinterpret_cast<float4 *>(&tile[threadIdx.y][x4])': lanes 0-3, 16-19 fall in 2 phases of 8 lanes of a 16-byte access, no bank used twice (2 wavefronts per request, ideal 1) with block (16, 16, 1) from the launch at shared-wide-partial-warps.cu:78 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :43:16: warning: phase split reading 'rows[threadIdx.y][threadIdx.x]': lanes 0-7, 16-23 fall in 2 phases of 16 lanes of an 8-byte access, no bank used twice (2 wavefronts per request, ideal 1) with block (16, 16, 1) from the launch at shared-wide-partial-warps.cu:80 [cuda-shared-bank-conflict]
