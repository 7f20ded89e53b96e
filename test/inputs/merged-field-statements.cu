// Test input for the fields of one vector-like element (float2, float4)
// accessed in statements next to each other, which LLVM's load-store
// vectorizer joins within a basic block into one access of the element
// (analysis/UnrolledMerges.h, fieldGroup): the PTX of nvcc 13.0 -O3
// -arch=sm_90 has one st.global.v2.f32 for `o[i].x = v; o[i].y = w;`, one
// st.global.v4.f32 for a float4's four fields stored in any order, one
// ld.global.v2.f32 for two loads in two statements, one st.shared.v2.f32
// and one ld.shared.v2.f32 for a __shared__ float2's fields; a load between
// two of the stores keeps them apart. Counted as separate 4-byte accesses
// they would look like stride-2 waste; predicted merged, the numbers are
// those of the element's access (status assumed: no listing was read).
#include <cuda_runtime.h>

__global__ void storeInTwoStatements(float2 *o, const float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  o[i].x = v;
  o[i].y = 2.0f * v;
}

__global__ void storeFourFieldsReversed(float4 *o, const float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  o[i].w = v;
  o[i].z = 2.0f * v;
  o[i].y = 3.0f * v;
  o[i].x = 4.0f * v;
}

__global__ void loadInTwoStatements(const float2 *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = p[i].x;
  float b = p[i].y;
  out[i] = a * b;
}

// Every fourth element: one 8-byte store per lane, lanes 32 bytes apart.
__global__ void storeStrided(float2 *o, const float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  o[4 * i].x = v;
  o[4 * i].y = -v;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global store 'o[4 * i].y' touches 32 sectors per warp request (ideal 8, 25.0% efficiency) with block (128, 1, 1) from the launch at merged-field-statements.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: adjacent lanes are 32 bytes apart; each lane writes a whole 8-byte element, its fields with one instruction: make adjacent lanes access adjacent elements
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the compiler merges 'o[4 * i].x' and 'o[4 * i].y' into one 64-bit store per lane (STG.E.64, 32 sectors per request)
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: assumed: nvcc writes 'o[4 * i].x' and 'o[4 * i].y' with one 8-byte store per lane (STG.E.64) (predicted from the source; no listing of the compiled kernel was read)
}

// A load between the two stores (it may read what the first one wrote):
// two 4-byte stores, which warpcheck does not call exact.
__global__ void loadBetweenStores(float2 *o, const float *a, const float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i].x = a[i];
  o[i].y = b[i];
}

__global__ void sharedFields(float *out) {
  __shared__ float2 s[256];
  int t = threadIdx.x;
  s[t].x = t;
  s[t].y = 2.0f * t;
  __syncthreads();
  int j = 2 * t % 256;
  float a = s[j].x;
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 2-way bank conflict reading 's[j].x': lanes 0, 8 hit bank 0 with different words (4 wavefronts per request, ideal 2) with block (256, 1, 1) from the launch at merged-field-statements.cu:{{[0-9]+}} [cuda-shared-bank-conflict]
  // CHECK-MESSAGES: :[[@LINE-2]]:13: note: no padding offered: 's' is one-dimensional; index it so that adjacent lanes use adjacent words (in a tree reduction: sequential addressing, a[tid] += a[tid + s] with s halving)
  // CHECK-MESSAGES: :[[@LINE-3]]:13: note: the compiler merges 's[j].x' and 's[j].y' into one 64-bit load per lane (LDS.64, 4 wavefronts per request)
  // CHECK-MESSAGES: :[[@LINE-4]]:13: note: assumed: nvcc reads 's[j].x' and 's[j].y' with one 8-byte load per lane (LDS.64) (predicted from the source; no listing of the compiled kernel was read)
  float b = s[j].y;
  out[blockIdx.x * blockDim.x + t] = a + b;
}

int main() {
  float2 *o2, *p2;
  float4 *o4;
  float *x, *a, *b, *out;
  cudaMalloc(&o2, 1 << 16);
  cudaMalloc(&p2, 1 << 16);
  cudaMalloc(&o4, 1 << 16);
  cudaMalloc(&x, 1 << 16);
  cudaMalloc(&a, 1 << 16);
  cudaMalloc(&b, 1 << 16);
  cudaMalloc(&out, 1 << 16);
  storeInTwoStatements<<<4, 128>>>(o2, x);
  storeFourFieldsReversed<<<4, 128>>>(o4, x);
  loadInTwoStatements<<<4, 128>>>(p2, out);
  storeStrided<<<1, 128>>>(o2, x);
  loadBetweenStores<<<4, 128>>>(o2, a, b);
  sharedFields<<<4, 256>>>(out);
  cudaDeviceSynchronize();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
