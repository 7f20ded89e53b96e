// Launch shapes as host code computes them, each stated in the diagnostic:
// dim3 fields stored one by one, a size assigned after its declaration and
// again before the launch, an if/else whose arms agree (and one whose arms
// do not), a helper's parameter bound at its calls up to main, and loops
// over a constant set of block sizes (each size one shape). Every kernel
// reads with a stride of 32 floats: each lane touches a sector of its own,
// 32 sectors per request where 4 would do, whatever the block.
#include <cuda_runtime.h>

#define BLOCK 64
constexpr int Threads = 1 << 14; // threads of every launch
constexpr int Side = 128;        // the 2-D launches: Side x Side threads

__global__ void fieldStores(const float *in, float *out) {
  int i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (64, 4, 1) from the launch at host-values.cu:101 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32': adjacent lanes are 128 bytes apart
}

__global__ void assignedLater(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (128, 1, 1) from the launch at host-values.cu:107 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
}

__global__ void agreeingArms(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (96, 1, 1) from the launch at host-values.cu:115 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
}

// The arms disagree on a condition known only when the program runs: one
// launch per way (512 where argc > 2, 128 otherwise, as measured).
__global__ void disagreeingArms(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (128, 1, 1) from the launch at host-values.cu:119 (the branch at host-values.cu:117 not taken) [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (512, 1, 1) from the launch at host-values.cu:119 (the branch at host-values.cu:117 taken) [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
}

// A helper's parameter sizes the block: bound at each call, up to main;
// the same size from two calls is one shape.
__global__ void tiled(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int i = y * Side + x;
  out[i] = in[i * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (16, 16, 1) from the launch at host-values.cu:84 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 32, 1) from the launch at host-values.cu:84 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
}

__global__ void sweep(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (128, 1, 1) from the launch at host-values.cu:126 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (256, 1, 1) from the launch at host-values.cu:126 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
  // CHECK-MESSAGES: :[[@LINE-5]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at host-values.cu:126 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-6]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
  // CHECK-MESSAGES: :[[@LINE-7]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (64, 1, 1) from the launch at host-values.cu:126 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-8]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
}

__global__ void listed(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (192, 1, 1) from the launch at host-values.cu:130 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (512, 1, 1) from the launch at host-values.cu:130 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
}

void runTiled(const float *in, float *out, int block_size) {
  dim3 threads(block_size, block_size);
  dim3 grid(Side / block_size, Side / block_size);
  tiled<<<grid, threads>>>(in, out);
}

void benchmark(const float *in, float *out, int tile) {
  runTiled(in, out, tile);
}

int main(int argc, char **argv) {
  float *in, *out;
  cudaMalloc(&in, Threads * 32 * sizeof(float));
  cudaMalloc(&out, Threads * sizeof(float));

  // dim3 fields stored one by one.
  dim3 threads;
  threads.x = BLOCK;
  threads.y = 4;
  dim3 grid(Threads / (BLOCK * 4));
  fieldStores<<<grid, threads>>>(in, out);

  // Assigned after the declaration, then again before the launch.
  int bs;
  bs = 16;
  bs = bs * 8;
  assignedLater<<<Threads / bs, bs>>>(in, out);

  // Both arms assign the same size; then arms that differ.
  int block;
  if (argc > 1)
    block = 96;
  else
    block = 96;
  agreeingArms<<<Threads / 128, block>>>(in, out);
  int wide = 128;
  if (argc > 2)
    wide = 512;
  disagreeingArms<<<Threads / wide, wide>>>(in, out);

  benchmark(in, out, 16);
  runTiled(in, out, 32);
  runTiled(in, out, 16);

  for (int size = 32; size <= 256; size *= 2)
    sweep<<<Threads / size, size>>>(in, out);

  int sizes[] = {192, 512, 192};
  for (int s : sizes)
    listed<<<Threads / 512, s>>>(in, out);

  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
