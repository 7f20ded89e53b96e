// Test input for kernels that survive errors elsewhere: host code that
// neither clang nor nvcc 13 compiles here (a header of the build machine
// that is missing, a helper it would declare, more errors than clang's
// default limit of 20) must not cost a kernel whose own body and callees
// compile: each is analysed with its launch shape, through both doors. A
// kernel whose body, or a device function it calls, holds an error is not
// analysed and is listed with that error.
//
// The H200 measures the same kernels with the broken host lines left out
// (test/hw/scripts/measure_inputs.sh defines WARPCHECK_HW_MEASUREMENT);
// every line keeps its number, so the records apply line for line.
//
// CHECK-STATUS: analysed_with_errors
// CHECK-KERNEL-ERROR: usesMissingHelper | use of undeclared identifier 'deviceHelperFromMissingHeader'
// CHECK-KERNEL-ERROR: callsBrokenDevice | in 'brokenScale', which it calls
#include <cuda_runtime.h>
#ifndef WARPCHECK_HW_MEASUREMENT
#include "helper_from_the_build_machine.h"
#endif

// Before any error: 32 sectors per request.
__global__ void beforeErrors(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: global load 'in[threadIdx.x * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (64, 1, 1) from the launch at host-errors.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:22: note: 'threadIdx.x' (which differs between adjacent lanes) is multiplied by '32': adjacent lanes are 128 bytes apart
}

#ifndef WARPCHECK_HW_MEASUREMENT
// Host code that uses what the missing header would declare: one error each,
// 24 in all, past clang's default error limit.
static void reportAll() {
  helperInit(); helperInit(); helperInit(); helperInit(); helperInit(); helperInit();
  helperInit(); helperInit(); helperInit(); helperInit(); helperInit(); helperInit();
  helperInit(); helperInit(); helperInit(); helperInit(); helperInit(); helperInit();
  helperInit(); helperInit(); helperInit(); helperInit(); helperInit(); helperInit();
}
#endif

// A template kernel instantiated after the errors (clang instantiates
// nothing after a fatal error): stride 4, 16 sectors for float (ideal 4),
// 32 for double (ideal 8).
template <typename T> __global__ void strideFour(const T *in, T *out) {
  out[threadIdx.x] = in[threadIdx.x * 4];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: global load 'in[threadIdx.x * 4]' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) in 'strideFour<float>' with block (32, 1, 1) from the launch at host-errors.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:22: note: 'threadIdx.x' (which differs between adjacent lanes) is multiplied by '4': adjacent lanes are 16 bytes apart
  // CHECK-MESSAGES: :[[@LINE-3]]:22: warning: global load 'in[threadIdx.x * 4]' touches 32 sectors per warp request (ideal 8, 25.0% efficiency) in 'strideFour<double>' with block (32, 1, 1) from the launch at host-errors.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:22: note: 'threadIdx.x' (which differs between adjacent lanes) is multiplied by '4': adjacent lanes are 32 bytes apart
}

#ifndef WARPCHECK_HW_MEASUREMENT
// Not analysed: its own body does not compile.
__global__ void usesMissingHelper(float *out) {
  out[threadIdx.x] = deviceHelperFromMissingHeader(threadIdx.x);
}

// Not analysed: a device function it calls does not compile.
__device__ float brokenScale(float x) { return x * undeclaredScaleFactor; }
__global__ void callsBrokenDevice(float *out) { out[threadIdx.x * 4] = brokenScale(1.0f); }
#endif

int main() {
  float *in, *out;
  double *din, *dout;
  cudaMalloc(&in, 64 * 32 * sizeof(float));
  cudaMalloc(&out, 64 * sizeof(float));
  cudaMalloc(&din, 4 * 64 * sizeof(double));
  cudaMalloc(&dout, 64 * sizeof(double));
#ifndef WARPCHECK_HW_MEASUREMENT
  // A launch in a function with errors still counts: its own expressions
  // compile.
  checkCudaErrors(cudaSetDevice(0));
#endif
  beforeErrors<<<1, 64>>>(in, out);
  strideFour<float><<<1, 32>>>(in, out);
  strideFour<double><<<1, 32>>>(din, dout);
  cudaDeviceSynchronize();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
// RUN: %check_warpcheck -door=binary %s 'cuda-*' %t.no-cuda -- --no-cuda
