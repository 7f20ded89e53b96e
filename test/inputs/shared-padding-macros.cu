// Test input for padding fix-its where real code declares its tiles: with
// extents written as macros (`[TILE][TILE]` with `#define TILE 32`: the
// declaration is the user's text, and `TILE + 1` pads this array alone), as
// an expression of a macro, and in a header. A declaration a macro writes
// (both extents from one argument) is not edited. Each fix-it must apply,
// compile with nvcc and remove the conflict (test/check_warpcheck.py).
#include <cuda_runtime.h>
#include "shared-padding-macros.cuh"

#define TILE 32
#define SQUARE_TILE(name, n) __shared__ float name[n][n]

// A column of a 32 x 32 tile: every lane in bank 0.
__global__ void transposeMacro(const float *in, float *out) {
  __shared__ float tile[TILE][TILE];
  // CHECK-FIXES: {{^}}  __shared__ float tile[TILE][TILE + 1];{{$}}
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 32-way bank conflict reading 'tile[threadIdx.x][threadIdx.y]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 32, 1) from the launch at shared-padding-macros.cu:{{[0-9]+}} [cuda-shared-bank-conflict]
  // CHECK-MESSAGES: :[[@LINE-6]]:20: note: padding the last dimension of 'tile' to TILE + 1 removes the conflict and makes no access to it worse (+128 bytes, 3.1%)
}

// Rows of 64 floats: a column again lands in one bank; the extent is an
// expression, kept whole in parentheses.
__global__ void wideRows(const float *in, float *out) {
  __shared__ float wide[TILE][TILE * 2];
  // CHECK-FIXES: {{^}}  __shared__ float wide[TILE][(TILE * 2) + 1];{{$}}
  wide[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = wide[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 32-way bank conflict reading 'wide[threadIdx.x][threadIdx.y]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 32, 1) from the launch at shared-padding-macros.cu:{{[0-9]+}} [cuda-shared-bank-conflict]
  // CHECK-MESSAGES: :[[@LINE-6]]:20: note: padding the last dimension of 'wide' to (TILE * 2) + 1 removes the conflict and makes no access to it worse (+128 bytes, 1.6%)
}

// The header's tile, padded in the header.
__global__ void haloColumn(const float *in, float *out) {
  haloTile[threadIdx.y][threadIdx.x] = in[threadIdx.y * HALO + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * HALO + threadIdx.x] = haloTile[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 32-way bank conflict reading 'haloTile[threadIdx.x][threadIdx.y]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 32, 1) from the launch at shared-padding-macros.cu:{{[0-9]+}} [cuda-shared-bank-conflict]
  // CHECK-MESSAGES: shared-padding-macros.cuh:5:18: note: padding the last dimension of 'haloTile' to HALO + 1 removes the conflict and makes no access to it worse (+128 bytes, 3.1%)
}

// Written by a macro whose one argument gives both extents: padding its
// text would pad both. No fix-it; the swizzle is suggested instead.
__global__ void macroDeclared(const float *in, float *out) {
  SQUARE_TILE(square, 32);
  square[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = square[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 32-way bank conflict reading 'square[threadIdx.x][threadIdx.y]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 32, 1) from the launch at shared-padding-macros.cu:{{[0-9]+}} [cuda-shared-bank-conflict]
  // CHECK-MESSAGES: :[[@LINE-2]]:41: note: no padding offered: the declaration of 'square' cannot be edited: it is written by a macro; an XOR swizzle spreads the rows over the banks instead: index column c of row r as (c ^ (r % 32))
}

int main() {
  float *in, *out;
  cudaMalloc(&in, TILE * TILE * sizeof(float));
  cudaMalloc(&out, TILE * TILE * sizeof(float));
  dim3 block(TILE, TILE);
  transposeMacro<<<1, block>>>(in, out);
  wideRows<<<1, block>>>(in, out);
  haloColumn<<<1, block>>>(in, out);
  macroDeclared<<<1, block>>>(in, out);
  cudaDeviceSynchronize();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
