// Launch shapes chosen by host code at run time, each stated in the
// diagnostic: a switch (and an if) over the block size that picks a
// template instance (in each case the size is the case's value), a kernel
// launched through a function pointer chosen between two kernels (each
// gets the shape), block sizes from the device's properties (those of the
// target architecture: warpSize, maxThreadsPerBlock), and launches that
// cannot be evaluated, whose kernels fall back to __launch_bounds__, an
// annotation or the default block with a note that says why. Every kernel
// reads with a stride of 32 floats: 32 sectors per request where 4 would do.
#include <cuda_runtime.h>

#include <cstdlib>

constexpr int Threads = 1 << 14;

template <int Block> __global__ void rowSums(const float *in, float *out) {
  int i = blockIdx.x * Block + threadIdx.x;
  out[i] = in[i * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) in 'rowSums<128>' with block (128, 1, 1) from the launch at host-dispatch.cu:88 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32': adjacent lanes are 128 bytes apart
  // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) in 'rowSums<256>' with block (256, 1, 1) from the launch at host-dispatch.cu:85 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32': adjacent lanes are 128 bytes apart
  // CHECK-MESSAGES: :[[@LINE-5]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) in 'rowSums<64>' with block (64, 1, 1) from the launch at host-dispatch.cu:80 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-6]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32': adjacent lanes are 128 bytes apart
}

__global__ void throughShared(const float *in, float *out) {
  __shared__ float staged[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  staged[threadIdx.x] = in[i * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (160, 1, 1) from the launch at host-dispatch.cu:99 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:25: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
  __syncthreads();
  out[i] = staged[threadIdx.x];
}

__global__ void direct(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (160, 1, 1) from the launch at host-dispatch.cu:99 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
}

__global__ void deviceSized(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (128, 1, 1) from the launch at host-dispatch.cu:106 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (512, 1, 1) from the launch at host-dispatch.cu:104 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
}

// The block comes from the command line: __launch_bounds__ stands in.
__global__ void __launch_bounds__(64) fromCommandLine(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (64, 1, 1) from __launch_bounds__(64) [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: assumed: the block shape (64, 1, 1) is assumed from __launch_bounds__(64)
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: assumed: no launch of the kernel could be evaluated, so __launch_bounds__(64) stands for them: the launch at host-dispatch.cu:75 uses 'block_size', a parameter of 'runRequested' whose callers pass 'requested', a value 'atoi' returns at run time (host-dispatch.cu:110)
}

// The block is a multiple of the SM count, which differs between parts of
// one architecture: the annotation stands in.
// warpcheck: block(96)
__global__ void perMultiprocessor(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (96, 1, 1) from the annotation at host-dispatch.cu:[[@LINE-4]] [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by '32'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: assumed: no launch of the kernel could be evaluated, so the annotation at host-dispatch.cu:[[@LINE-6]] stands for them: the launch at host-dispatch.cu:108 uses 'prop.multiProcessorCount', a property of the device that differs between parts of one architecture (132 SMs on an H200 SXM, other counts on other Hopper parts)
}

void runRequested(const float *in, float *out, int block_size) {
  fromCommandLine<<<Threads / block_size, block_size>>>(in, out);
}

void dispatch(const float *in, float *out, int threads) {
  if (threads == 64) {
    rowSums<64><<<Threads / 64, threads>>>(in, out);
    return;
  }
  switch (threads) {
  case 256:
    rowSums<256><<<Threads / 256, threads>>>(in, out);
    break;
  case 128:
    rowSums<128><<<Threads / 128, threads>>>(in, out);
    break;
  }
}

int main(int argc, char **argv) {
  float *in, *out;
  cudaMalloc(&in, Threads * 32 * sizeof(float));
  cudaMalloc(&out, Threads * sizeof(float));
  bool useShared = argc > 1;
  void (*kernel)(const float *, float *) = useShared ? throughShared : direct;
  kernel<<<Threads / 160, 160>>>(in, out);

  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int n = 512;
  deviceSized<<<Threads / 512, min(prop.maxThreadsPerBlock, n)>>>(in, out);
  int warps4 = prop.warpSize * 4;
  deviceSized<<<Threads / warps4, warps4>>>(in, out);
  int perSM = prop.multiProcessorCount;
  perMultiprocessor<<<1, perSM>>>(in, out);

  int requested = std::atoi(argc > 2 ? argv[2] : "64");
  runRequested(in, out, requested);
  dispatch(in, out, std::atoi(argc > 3 ? argv[3] : "256"));
  dispatch(in, out, 64);

  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t

// The sizes from the command line are read as `atoi(argc > 1 ? argv[1] :
// "16")`, the same values as `argc > 1 ? atoi(argv[1]) : 16`, written so
// that the host evaluation cannot tell them: it would analyse that form's
// default as a launch of its own (the condition false), and this input is
// about launches whose shape is not known.
