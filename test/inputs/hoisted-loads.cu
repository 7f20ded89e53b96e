// Test input for the loads nvcc hoists out of a loop (RegisterPromotion.h,
// KeptAccess::HoistedBefore): the same address in every iteration, under no
// branch, in a loop that writes nothing it may read. LICM makes it once
// before the loop and drops its debug location: the line table gives it the
// line of the instruction before it, its address's computation, the line of
// `int i = ...`: whatever the loop's bound (constant or known at run time),
// and whether the kernel may write the pointer (LDG.E) or not
// (LDG.E.CONSTANT, made before the loop's test), as measured here.
#include <cuda_runtime.h>

// A bound known at run time, `in` read-only in the kernel: the load is
// made before the loop's test, with i. Lane stride 32 floats: 32 sectors a
// request, once per warp.
__global__ void runtimeBound(const float *in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += in[i * 32] * k;
  out[i] = s;
}

// A constant trip count: no test before the first iteration. The statement
// before the loop computes the index the load uses.
__global__ void constantBound(const float *in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < 48; ++k)
    s += in[i] * k;
  out[i] = s;
}

// A constant trip count after a statement that does not compute the load's
// address.
__global__ void afterOtherWork(const float *in, float *__restrict__ out, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float bias = scale * scale + 1.0f;
  for (int k = 0; k < 48; ++k)
    bias += in[i] * k;
  out[i] = bias;
}

// Invariant across both loops of a nest whose outer one has a run-time
// bound: once per warp, before the outer loop.
__global__ void nestedInvariant(const float *in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int r = 0; r < n; ++r)
    for (int k = 0; k < 8; ++k)
      s += in[i] * (r + k);
  out[i] = s;
}

// A while loop with a run-time bound.
__global__ void whileBound(const float *in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  int k = n;
  while (k > 0) {
    s += in[i] * k;
    --k;
  }
  out[i] = s;
}

// A constant trip count, the loop first in the block of an if.
__global__ void firstInBranch(const float *in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0;
    for (int k = 0; k < 48; ++k)
      s += in[i] * k;
    out[i] = s;
  }
}

// A bound known at run time and a pointer the kernel may write through
// (out, not __restrict__, may be in): the load (LDG.E) is made after the
// loop's test, and still has the line of its index, i.
__global__ void mayBeWritten(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += in[i * 32] * k;
  out[i] = s;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 64 * 32 * sizeof(float));
  cudaMalloc(&out, 64 * sizeof(float));
  cudaMemset(in, 0, 64 * 32 * sizeof(float));
  runtimeBound<<<2, 32>>>(in, out, 16);
  constantBound<<<2, 32>>>(in, out);
  afterOtherWork<<<2, 32>>>(in, out, 0.5f);
  nestedInvariant<<<2, 32>>>(in, out, 4);
  whileBound<<<2, 32>>>(in, out, 16);
  firstInBranch<<<2, 32>>>(in, out, 48);
  mayBeWritten<<<2, 32>>>(in, out, 16);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// The strided loads, once per warp, on the lines of their `int i = ...`.
// CHECK-MESSAGES: :18:10: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at hoisted-loads.cu:92 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :18:10: note: the compiler hoists this read out of the loop and emits it at line 15 (LDG.E.CONSTANT, 32 sectors per request): 2 requests for its 32 executions
// CHECK-MESSAGES: :83:10: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at hoisted-loads.cu:98 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :83:10: note: the compiler hoists this read out of the loop and emits it at line 80 (LDG.E, 32 sectors per request): 2 requests for its 32 executions

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// line is last: the H200 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
