// Test input for loads nvcc hoists out of an inner loop only
// (RegisterPromotion.h, KeptAccess::HoistedBefore): the address changes
// with the outer loop's counter but not in the inner loop, which writes
// nothing the load may read. LICM works loop by loop, so the load is made
// once per outer iteration, before the inner loop, on its line (it is
// entered after a test). The pattern is llm.c's attention_backward.cu
// (`att_bth[t3]` in the `t2` loop), measured there on the H200
// (test/hw/realcode): as many executions as the store after the inner loop,
// on the inner `for` line. Not yet measured as this input (no records).
#include <cuda_runtime.h>

// Lane t3 runs t = t3 .. T - 1 and t2 = 0 .. t: the lanes leave the loops
// at different iterations, and the register filled before the inner loop
// serves each one still in it. row[t3]: lanes T * 4 bytes apart, one
// sector each; 32 requests per warp, as many as the store.
__global__ void triangular(float *out, const float *att, int T) {
  int t3 = blockIdx.x * blockDim.x + threadIdx.x;
  if (t3 >= T)
    return;
  for (int t = t3; t < T; t++) {
    const float *row = att + t * T;
    float acc = 0.0f;
    for (int t2 = 0; t2 <= t; t2++)
      acc += row[t2] * row[t3];
    out[t * T + t3] = acc;
  }
}

// The inner loop stores through a plain pointer that may alias `in`: the
// load is made in every iteration.
__global__ void storeInInnerLoop(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < n; ++r) {
    const float *row = in + r * 1024;
    for (int k = 0; k < n; ++k)
      out[k * 64 + i] = row[i * 8] * k;
  }
}

int main() {
  const int T = 64;
  float *out, *att;
  cudaMalloc(&out, T * T * sizeof(float));
  cudaMalloc(&att, 64 * 1024 * sizeof(float));
  cudaMemset(att, 0, 64 * 1024 * sizeof(float));
  triangular<<<T / 32, 32>>>(out, att, T);
  storeInInnerLoop<<<1, 64>>>(out, att, 16);
  cudaDeviceSynchronize();
  cudaFree(out);
  cudaFree(att);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// triangular: row[t3] once per outer iteration (96 requests for the two
// warps' 96 iterations of `t`, as many as the store), on line 23;
// row[t2] in every inner iteration.
// CHECK-MESSAGES: :24:14: warning: global load 'row[t2]' touches 15.93 sectors per warp request (ideal 2.4, 15.1% efficiency) with block (32, 1, 1) from the launch at inner-loop-hoists.cu:46 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :24:24: warning: global load 'row[t3]' touches 21.67 sectors per warp request (ideal 3, 13.8% efficiency) with block (32, 1, 1) from the launch at inner-loop-hoists.cu:46 [cuda-uncoalesced-global-access]
// CHECK-SOURCE: :24:24: note: the compiler hoists this read out of the loop and emits it at line 23 (LDG.E, 21.67 sectors per request): 96 requests for its 5616 executions
// CHECK-MESSAGES: :25:5: warning: global store 'out[t * T + t3]' touches 21.67 sectors per warp request (ideal 3, 13.8% efficiency) with block (32, 1, 1) from the launch at inner-loop-hoists.cu:46 [cuda-uncoalesced-global-access]
// storeInInnerLoop: no hoist, out may alias in.
// CHECK-MESSAGES: :36:25: warning: global load 'row[i * 8]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (64, 1, 1) from the launch at inner-loop-hoists.cu:47 [cuda-uncoalesced-global-access]

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// line is last: H200 records of this input would be keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
