// Test input for the two arms of a branch that store to one address, in a
// loop nvcc unrolls: the causal mask of an attention softmax (keep and scale
// the scores up to the row's own position, zero the rest), every loop over
// the whole row. nvcc keeps one loop and stores the value the condition
// selects: copies of the store spread by the line table over the `for`
// line, the `if` line and the first arm's line, one request per iteration
// for the lanes of both arms (llm.c's attention_softmax_kernel1 compiles
// so). Alone, the same masked loop is split by nvcc into a loop per arm
// (the `k <= t` loop, then the zeroing loop), whose lanes drop out at
// different iterations: not measured here.
#include <cuda_runtime.h>

__global__ void maskedSoftmax(const float *scores, float *probs, int rows, int T) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= rows)
    return;
  int t = idx % T;
  const float *in = scores + idx * T;
  float *out = probs + idx * T;
  float peak = -1e30f;
  for (int k = 0; k < T; k++)
    if (k <= t)
      peak = fmaxf(peak, in[k]);
  float sum = 0.0f;
  for (int k = 0; k < T; k++) {
    if (k <= t) {
      float e = __expf(in[k] - peak);
      sum += e;
      out[k] = e;
    }
  }
  float inv = sum == 0.0f ? 0.0f : 1.0f / sum;
  for (int k = 0; k < T; k++) {
    if (k <= t) {
      out[k] *= inv;
    } else {
      out[k] = 0.0f;
    }
  }
}

int main() {
  const int rows = 4096, T = 64;
  float *scores, *probs;
  cudaMalloc(&scores, rows * T * sizeof(float));
  cudaMalloc(&probs, rows * T * sizeof(float));
  cudaMemset(scores, 0, rows * T * sizeof(float));
  maskedSoftmax<<<rows / 128, 128>>>(scores, probs, rows, T);
  cudaDeviceSynchronize();
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H100 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
// CHECK-MESSAGES: :23:26: warning: global load 'in[k]' touches 22.08 sectors per warp request (ideal 3.04, 13.8% efficiency) with block (128, 1, 1) from the launch at unrolled-selected-stores.cu:48 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :27:24: warning: global load 'in[k]' touches 22.08 sectors per warp request (ideal 3.04, 13.8% efficiency) with block (128, 1, 1) from the launch at unrolled-selected-stores.cu:48 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :29:7: warning: global store 'out[k]' touches 22.08 sectors per warp request (ideal 3.04, 13.8% efficiency) with block (128, 1, 1) from the launch at unrolled-selected-stores.cu:48 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :35:7: warning: global load 'out[k]' touches 22.08 sectors per warp request (ideal 3.04, 13.8% efficiency) with block (128, 1, 1) from the launch at unrolled-selected-stores.cu:48 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :35:7: warning: global store 'out[k]' touches 22.08 sectors per warp request (ideal 3.04, 13.8% efficiency) with block (128, 1, 1) from the launch at unrolled-selected-stores.cu:48 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :37:7: warning: global store 'out[k]' touches 20.98 sectors per warp request (ideal 2.93, 14.0% efficiency) with block (128, 1, 1) from the launch at unrolled-selected-stores.cu:48 [cuda-uncoalesced-global-access]
