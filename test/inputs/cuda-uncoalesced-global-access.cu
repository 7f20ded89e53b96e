// Test input for cuda-uncoalesced-global-access: the seeds' worked examples
// (shared/seeds/000, 002) as kernels, and the constructs the index engine
// follows. Each kernel is launched from main() with a known shape, so the
// program also runs on a GPU: test/hw/ holds what Nsight Compute measured for
// every access here (sectors per request), and CI compares.
#include <cuda_runtime.h>

constexpr int N = 1024;
struct Particle { float x, y, z, vx, vy, vz; };

// Seed 000 / exercise 1.1: a warp reading 32 consecutive floats needs one
// 128-byte transaction (4 sectors): no finding.
__global__ void coalesced(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

// Seed 000 / exercise 2.1: stride of 32 floats: 32 transactions, 3.125% of
// the bytes used (128-byte lines); in 32-byte sectors: 32 sectors, ideal 4.
__global__ void strided32(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (128, 1, 1) from the launch at cuda-uncoalesced-global-access.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32': adjacent lanes are 128 bytes apart; make threadIdx.x the fastest-varying index
}

// Seed 000 / exercise 2.2 and 3.1: one field of a 24-byte struct is read
// across a 768-byte span: 6 lines (16.7%); 24 sectors, ideal 4.
__global__ void aosFields(const Particle *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = p[i].x;
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: global load 'p[i].x' touches 24 sectors per warp request (ideal 4, 16.7% efficiency) with block (128, 1, 1) from the launch at cuda-uncoalesced-global-access.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:13: note: adjacent lanes are 24 bytes apart; each lane reads 4 bytes of the 24-byte struct 'Particle' through 'p': its fields together take 48 sectors per warp, 8 as structure of arrays (cuda-aos-layout weighs the layouts)
  s += p[i].vz;
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: global load 'p[i].vz' touches 24 sectors per warp request (ideal 4, 16.7% efficiency)
  // CHECK-MESSAGES: :[[@LINE-2]]:8: note: adjacent lanes are 24 bytes apart
  out[i] = s;
}

// Naive transpose: the read is coalesced, the write strides by a row.
__global__ void transposeNaive(const float *in, float *out) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 8 + threadIdx.y;
  out[x * N + y] = in[y * N + x];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global store 'out[x * N + y]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 8, 1) from the launch at cuda-uncoalesced-global-access.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: 'x' (which differs between adjacent lanes) is multiplied by 'N' (= 1024): adjacent lanes are 4096 bytes apart
}

// Seed 002: an array that does not start on a sector boundary costs one
// more unit. a[i + 1] starts 4 bytes into a sector: 5 sectors, not 4.
__global__ void shiftedByOne(const float *a, float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[i] = a[i + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: global load 'a[i + 1]' is misaligned: it touches 5 sectors per warp request (ideal 4, 80.0% efficiency) with block (128, 1, 1)
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: the warp's first address is 4 bytes past a 32-byte sector boundary
}

int main() {
  float *in, *out;
  Particle *p;
  cudaMalloc(&in, 64 * N * sizeof(float));
  cudaMalloc(&out, N * N * sizeof(float));
  cudaMalloc(&p, 4 * N * sizeof(Particle));
  coalesced<<<8, 128>>>(in, out);
  strided32<<<8, 128>>>(in, out);
  aosFields<<<8, 128>>>(p, out);
  dim3 block(32, 8);
  dim3 grid(2, 4);
  transposeNaive<<<grid, block>>>(in, out);
  shiftedByOne<<<8, 128>>>(in, out);
  cudaDeviceSynchronize();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// cuda-aos-layout, which also reports aosFields, has its own input
// (cuda-aos-layout.cu).
// RUN: %check_warpcheck %s 'cuda-*,-cuda-aos-layout' %t
// RUN: %check_warpcheck -door=binary %s 'cuda-*,-cuda-aos-layout' %t.no-cuda -- --no-cuda
