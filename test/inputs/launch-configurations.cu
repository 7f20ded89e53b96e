// Where the launch shape comes from, each stated in the diagnostic:
// <<<...>>> sites with dim3 variables, constexpr and macros, cudaLaunchKernel,
// cudaLaunchKernelEx (its argument values bound to the parameters), several
// shapes of one kernel, a `// warpcheck:` annotation, __launch_bounds__ and
// the default block.
#include <cuda_runtime.h>

#define THREADS 64
constexpr int Rows = 4;
#define LOAD(p, i) (p)[(i)]

__global__ void byStride(const float *in, float *out, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = LOAD(in, i * stride);
  // Three launch shapes, one diagnostic each (clang-tidy sorts the
  // diagnostics of one location by their text).
  // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: global load 'LOAD(in, i * stride)' touches 12 sectors per warp request (ideal 4, 33.3% efficiency) with block (32, 4, 1) from the launch at launch-configurations.cu:54 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by 'stride' (= 3): adjacent lanes are 12 bytes apart
  // CHECK-MESSAGES: :[[@LINE-5]]:12: warning: global load 'LOAD(in, i * stride)' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) with block (96, 1, 1) from the launch at launch-configurations.cu:58 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-6]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by 'stride' (= 4)
  // CHECK-MESSAGES: :[[@LINE-7]]:12: warning: global load 'LOAD(in, i * stride)' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (64, 1, 1) from the launch at launch-configurations.cu:53 [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-8]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by 'stride' (= 8)
}

// warpcheck: block(16, 16) grid(8, 8)
__global__ void annotated(const float *in, float *out) {
  out[threadIdx.x * 16 + threadIdx.y] = in[threadIdx.y * 16 + threadIdx.x];
  // Lanes 0-15 and 16-31 are two rows (threadIdx.y) of one column block:
  // they share their 16 sectors.
  // CHECK-MESSAGES: :[[@LINE-3]]:3: warning: global store 'out[threadIdx.x * 16 + threadIdx.y]' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) with block (16, 16, 1) from the annotation at launch-configurations.cu:[[@LINE-5]] [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: 'threadIdx.x' (which differs between adjacent lanes) is multiplied by '16'
}

__global__ void __launch_bounds__(128) bounded(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x * 3];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: global load 'in[threadIdx.x * 3]' touches 12 sectors per warp request (ideal 4, 33.3% efficiency) with block (128, 1, 1) from __launch_bounds__(128) [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:22: note: 'threadIdx.x' (which differs between adjacent lanes) is multiplied by '3'
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: assumed: the block shape (128, 1, 1) is assumed from __launch_bounds__(128)
}

__global__ void neverLaunched(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x * 3];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: global load 'in[threadIdx.x * 3]' touches 12 sectors per warp request (ideal 4, 33.3% efficiency) with block (256, 1, 1) from the default block [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:22: note: 'threadIdx.x' (which differs between adjacent lanes) is multiplied by '3'
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: assumed: the block shape (256, 1, 1) is assumed from the default block
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 22);
  cudaMalloc(&out, 1 << 22);
  dim3 block(THREADS);
  byStride<<<4, block>>>(in, out, 8);
  byStride<<<dim3(2), dim3(32, Rows)>>>(in, out, 3);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(2);
  config.blockDim = dim3(96);
  cudaLaunchKernelEx(&config, byStride, (const float *)in, out, 4);
  cudaDeviceSynchronize();
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
