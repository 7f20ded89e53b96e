// Test input for accesses nvcc emits as one wider instruction (seen in
// real programs: BlackScholes, fastWalshTransform, shfl_scan): two fields
// of one aligned float2 or uint4 element, and adjacent elements s[i0],
// s[i0 + 1] of a __shared__ array with i0 even (a global pair stays two
// loads). Counted as separate instructions they look like stride-2 waste
// (50% sectors, a 2-way conflict); the H200 sees one LDG.64, LDG.128 or
// LDS.64 (test/hw/inputs/merged-accesses.json). warpcheck calls them
// assumed and reports nothing on them; the one finding below is real.
#include <cuda_runtime.h>

__global__ void float2Fields(const float2 *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].x * p[i].y;
}

__global__ void uint4ThroughReference(const uint4 *in, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const uint4 &v = in[i];
  out[i] = v.x + v.y + v.z + v.w;
}

__global__ void adjacentPairs(float *data) {
  __shared__ float s[512];
  int i0 = threadIdx.x << 1;
  int i1 = i0 + 1;
  s[i0] = data[i0];
  s[i1] = data[i1];
  __syncthreads();
  float a = s[i0];
  float b = s[i1];
  s[i0] = a + b;
  s[i1] = a - b;
  __syncthreads();
  data[threadIdx.x] = s[threadIdx.x];
}

// Not merged: one field of a float4 alone, 16 bytes apart.
__global__ void oneField(const float4 *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].z;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'p[i].z' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) with block (128, 1, 1) from the launch at merged-accesses.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: adjacent lanes are 16 bytes apart; each lane reads 4 bytes of a 16-byte struct
}

int main() {
  float2 *p2;
  float4 *p4;
  uint4 *u4;
  float *out, *data;
  unsigned *uout;
  cudaMalloc(&p2, 1 << 16);
  cudaMalloc(&p4, 1 << 16);
  cudaMalloc(&u4, 1 << 16);
  cudaMalloc(&out, 1 << 16);
  cudaMalloc(&uout, 1 << 16);
  cudaMalloc(&data, 1 << 16);
  float2Fields<<<4, 128>>>(p2, out);
  uint4ThroughReference<<<4, 128>>>(u4, uout);
  adjacentPairs<<<1, 256>>>(data);
  oneField<<<4, 128>>>(p4, out);
  cudaDeviceSynchronize();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
