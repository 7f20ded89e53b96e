// Test input for host code written for CUDA 12 that CUDA 13's headers no
// longer accept: the cudaThread* functions (deprecated since CUDA 4.0,
// removed in 13), the cudaDeviceProp members CUDA 13 removed (clockRate,
// memoryClockRate, computeMode ...), the device-number forms of
// cudaMemPrefetchAsync and cudaMemAdvise, and texture references
// (texture<float, 1> with tex1Dfetch and cudaBindTexture, removed in 12). warpcheck declares them for the
// parse (tool/include/nvcc-compat), so the file is analysed cleanly, with
// the toolkit and with the bundled declarations.
//
// nvcc 13 rejects those lines: the H200 measures the same kernels with
// CUDA 13's equivalents instead (test/hw/scripts/measure_inputs.sh defines
// WARPCHECK_HW_MEASUREMENT); every line keeps its number.
#include <cstdio>
#include <cuda_runtime.h>

// A row-major read of a column: lanes 4 KB apart, 32 sectors per request.
__global__ void readColumn(const float *in, float *out, int width) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[threadIdx.x * width + blockIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: global load 'in[threadIdx.x * width + blockIdx.x]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (256, 1, 1) from the launch at removed-runtime-api.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:48: note: 'threadIdx.x' (which differs between adjacent lanes) is multiplied by 'width' (= 1024): adjacent lanes are 4096 bytes apart
}

// Coalesced: no finding.
__global__ void scale(float *data, float factor) {
  data[blockIdx.x * blockDim.x + threadIdx.x] *= factor;
}

#ifndef WARPCHECK_HW_MEASUREMENT
texture<float, 1, cudaReadModeElementType> rowTexture;
#define FETCH(i) tex1Dfetch(rowTexture, (i))
#else
#define FETCH(i) ((i) * 0.5f)
#endif

// A fetch through a texture reference (a value read from memory to the
// analysis), stored 64 bytes apart: 32 sectors per request.
__global__ void gatherRows(float *out) {
  out[threadIdx.x * 16] = FETCH(threadIdx.x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global store 'out[threadIdx.x * 16]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at removed-runtime-api.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: 'threadIdx.x' (which differs between adjacent lanes) is multiplied by '16': adjacent lanes are 64 bytes apart
}

static void describeDevice(int device) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
#ifndef WARPCHECK_HW_MEASUREMENT
  printf("%s: %d SMs at %d kHz, memory at %d kHz, compute mode %d\n", prop.name,
         prop.multiProcessorCount, prop.clockRate, prop.memoryClockRate, prop.computeMode);
  cudaThreadSetLimit(cudaLimitStackSize, 4096);
#else
  printf("%s: %d SMs\n", prop.name, prop.multiProcessorCount);
#endif
}

int main() {
  const int width = 1024;
  float *in, *out;
  cudaMallocManaged(&in, width * width * sizeof(float));
  cudaMallocManaged(&out, width * width * sizeof(float));
  describeDevice(0);
#ifndef WARPCHECK_HW_MEASUREMENT
  cudaMemPrefetchAsync(in, width * width * sizeof(float), 0);
  cudaMemAdvise(out, width * width * sizeof(float), cudaMemAdviseSetPreferredLocation, 0);
#endif
  readColumn<<<4, 256>>>(in, out, width);
  scale<<<4, 256>>>(out, 2.0f);
#ifndef WARPCHECK_HW_MEASUREMENT
  cudaBindTexture(0, rowTexture, in, width * sizeof(float));
#endif
  gatherRows<<<1, 32>>>(out);
#ifndef WARPCHECK_HW_MEASUREMENT
  cudaThreadSynchronize();
#else
  cudaDeviceSynchronize();
#endif
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
// RUN: %check_warpcheck -door=binary %s 'cuda-*' %t.no-cuda -- --no-cuda
