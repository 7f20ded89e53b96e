// Test input for the ideal of a global load whose lanes repeat addresses,
// by width: lanes L and L + 16 read one element (two rows of a 16-wide
// block in one warp), groups of four lanes share one, or the whole warp
// reads one. Nsight Compute's ideal sectors are what the cost is compared
// with (sectors / ideal): gen-2.cu's gen2_6 reads float4s with lanes L and
// L + 16 at one address, 16 distinct, and ncu's ideal there is 16 sectors
// per request, where the distinct bytes (256) fill 8. To be measured per
// width (no GPU records yet): the model's ideal is the distinct bytes.
#include <cuda_runtime.h>

// Sixteen distinct elements 95 apart, lanes L and L + 16 alike.
__global__ void pairs4(const float *in, float *out) {
  int lane = threadIdx.x;
  float v = in[(lane % 16) * 95];
  out[blockIdx.x * 32 + lane] = v;
}

__global__ void pairs8(const float2 *in, float *out) {
  int lane = threadIdx.x;
  float2 v = in[(lane % 16) * 95];
  out[blockIdx.x * 32 + lane] = v.x + v.y;
}

__global__ void pairs16(const float4 *in, float *out) {
  int lane = threadIdx.x;
  float4 v = in[(lane % 16) * 95];
  out[blockIdx.x * 32 + lane] = v.x + v.y + v.z + v.w;
}

// Sixteen distinct consecutive elements, lanes L and L + 16 alike.
__global__ void adjacentPairs4(const float *in, float *out) {
  int lane = threadIdx.x;
  float v = in[lane % 16];
  out[blockIdx.x * 32 + lane] = v;
}

__global__ void adjacentPairs16(const float4 *in, float *out) {
  int lane = threadIdx.x;
  float4 v = in[lane % 16];
  out[blockIdx.x * 32 + lane] = v.x + v.y + v.z + v.w;
}

// Lanes 4k to 4k + 3 alike, eight distinct elements 95 apart.
__global__ void quads16(const float4 *in, float *out) {
  int lane = threadIdx.x;
  float4 v = in[(lane / 4) * 95];
  out[blockIdx.x * 32 + lane] = v.x + v.y + v.z + v.w;
}

__global__ void quads4(const float *in, float *out) {
  int lane = threadIdx.x;
  float v = in[(lane / 4) * 95];
  out[blockIdx.x * 32 + lane] = v;
}

// Every lane alike.
__global__ void uniform16(const float4 *in, float *out) {
  int lane = threadIdx.x;
  float4 v = in[blockIdx.x * 95];
  out[blockIdx.x * 32 + lane] = v.x + v.y + v.z + v.w;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 4 * 16 * 95 * sizeof(float4));
  cudaMalloc(&out, 64 * sizeof(float));
  cudaMemset(in, 0, 4 * 16 * 95 * sizeof(float4));
  pairs4<<<2, 32>>>(in, out);
  pairs8<<<2, 32>>>(reinterpret_cast<const float2 *>(in), out);
  pairs16<<<2, 32>>>(reinterpret_cast<const float4 *>(in), out);
  adjacentPairs4<<<2, 32>>>(in, out);
  adjacentPairs16<<<2, 32>>>(reinterpret_cast<const float4 *>(in), out);
  quads16<<<2, 32>>>(reinterpret_cast<const float4 *>(in), out);
  quads4<<<2, 32>>>(in, out);
  uniform16<<<2, 32>>>(reinterpret_cast<const float4 *>(in), out);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// The scattered loads, with the model's ideal (the distinct bytes).
// CHECK-MESSAGES: :14:13: warning: global load 'in[(lane % 16) * 95]' touches 16 sectors per warp request (ideal 2, 12.5% efficiency) with block (32, 1, 1) from the launch at duplicate-lane-widths.cu:68 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :20:14: warning: global load 'in[(lane % 16) * 95]' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) with block (32, 1, 1) from the launch at duplicate-lane-widths.cu:69 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :52:13: warning: global load 'in[(lane / 4) * 95]' touches 8 sectors per warp request (ideal 1, 12.5% efficiency) with block (32, 1, 1) from the launch at duplicate-lane-widths.cu:74 [cuda-uncoalesced-global-access]

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// line is last: the H200 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
