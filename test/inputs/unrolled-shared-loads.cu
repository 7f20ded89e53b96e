// Test input for the shared accesses of fully unrolled loops. nvcc's PTX
// keeps one ld.shared per iteration; ptxas merges the iterations whose
// addresses follow each other from an address it knows aligned into one
// LDS.64/LDS.128 (STS) per lane, which changes the bank conflicts: a
// warp-tile read that would be a 2-way conflict as 4-byte loads has none as
// 16-byte ones, and a thread-per-row read that would be a 4-way conflict
// streams. One shared access per line: test/hw/inputs/unrolled-shared-loads.json
// holds what the H200 measured for each.
#include <cuda_runtime.h>

#define N 1024

// sgemm_cuda's warp tile: lanes 4r..4r+3 read row r (8 floats) of a 32-byte
// stride. As 4-byte loads lanes 0 and 16 would share bank 0; as two
// LDS.128 per run no bank is used twice.
__global__ void warpTileRows(const float *in, float *out) {
  __shared__ float s[N];
  for (int j = threadIdx.x; j < N; j += blockDim.x)
    s[j] = in[j];
  __syncthreads();
  unsigned rowInWarp = threadIdx.x % 32 / 4;
  float acc = 0;
  for (int i = 0; i < 8; ++i)
    acc += s[threadIdx.x / 32 * 64 + rowInWarp * 8 + i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Each thread reads its own 4 consecutive floats: 4 phases of 8 lanes, 128
// contiguous bytes each, as one LDS.128 (as 4-byte loads: a 4-way conflict).
__global__ void threadRows(const float *in, float *out) {
  __shared__ float s[N];
  for (int j = threadIdx.x; j < N; j += blockDim.x)
    s[j] = in[j];
  __syncthreads();
  float acc = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    acc += s[threadIdx.x * 4 + i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// The same rows written: one STS.128 per lane.
__global__ void threadRowsStore(const float *in, float *out) {
  __shared__ float s[N];
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int i = 0; i < 4; ++i)
    s[threadIdx.x * 4 + i] = v + i;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x * 4 + 5) % N];
}

// Rows that start one float in: no run starts aligned to 16 bytes.
__global__ void threadRowsOffByOne(const float *in, float *out) {
  __shared__ float s[N + 4];
  for (int j = threadIdx.x; j < N; j += blockDim.x)
    s[j] = in[j];
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < 4; ++i)
    acc += s[threadIdx.x * 4 + 1 + i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// sgemm_cuda's padded tile: row `dot` starts at dot * 133 floats, aligned
// to 16 bytes at some dot only. The compiler cannot tell: 4-byte loads.
__global__ void paddedRows(const float *in, float *out, int rows) {
  __shared__ float s[8 * 133];
  for (int j = threadIdx.x; j < 8 * 133; j += blockDim.x)
    s[j] = in[j];
  __syncthreads();
  float acc = 0;
  for (int dot = 0; dot < rows; ++dot)
    for (int i = 0; i < 4; ++i)
      acc += s[dot * 133 + threadIdx.x % 32 * 4 + i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Two doubles per lane: one LDS.128.
__global__ void doublePairs(const double *in, double *out) {
  __shared__ double d[2 * 128];
  for (int j = threadIdx.x; j < 2 * 128; j += blockDim.x)
    d[j] = in[j];
  __syncthreads();
  double acc = 0;
  for (int i = 0; i < 2; ++i)
    acc += d[threadIdx.x * 2 + i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main() {
  float *in, *out;
  double *ind, *outd;
  cudaMalloc(&in, 4 * N * sizeof(float));
  cudaMalloc(&out, 4 * N * sizeof(float));
  cudaMalloc(&ind, 4 * N * sizeof(double));
  cudaMalloc(&outd, 4 * N * sizeof(double));
  warpTileRows<<<4, 128>>>(in, out);
  threadRows<<<4, 128>>>(in, out);
  threadRowsStore<<<4, 128>>>(in, out);
  threadRowsOffByOne<<<4, 128>>>(in, out);
  paddedRows<<<4, 128>>>(in, out, 8);
  doublePairs<<<4, 128>>>(ind, outd);
  cudaDeviceSynchronize();
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H200 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s 'cuda-shared-bank-conflict' %t
// CHECK-MESSAGES: :49:48: warning: 4-way bank conflict reading 's[(threadIdx.x * 4 + 5) % N]': lanes 7, 15, 23, 31 hit bank 1 with different words (4 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at unrolled-shared-loads.cu:99 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :60:12: warning: 4-way bank conflict reading 's[threadIdx.x * 4 + 1 + i]': lanes 0, 8, 16, 24 hit bank 1 with different words (4 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at unrolled-shared-loads.cu:100 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :74:14: warning: 4-way bank conflict reading 's[dot * 133 + threadIdx.x % 32 * 4 + i]': lanes 0, 8, 16, 24 hit bank 0 with different words (4 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at unrolled-shared-loads.cu:101 [cuda-shared-bank-conflict]
