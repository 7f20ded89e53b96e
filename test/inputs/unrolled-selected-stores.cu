// Test input for the two arms of a branch that store to one address, in a
// loop nvcc unrolls: the causal mask of an attention softmax (keep and scale
// the scores up to the row's own position, zero the rest). nvcc compiles it
// two ways. Alone (splitRows), it splits the loop by the condition: a loop
// of the first arm's loads and stores, then a loop of the second arm's
// stores, on the `for` line. After other loops over the row (maskedSoftmax),
// it keeps one loop and stores the value the condition selects, 16 copies
// of the store spread by the line table over the `for` line, the `if` line
// and the first arm's line: one request per iteration for the lanes of
// both arms.
#include <cuda_runtime.h>

__global__ void splitRows(float *att, int rows, int T) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= rows)
    return;
  int t = idx % T;
  float *row = att + idx * T;
  float scale = 1.0f / (t + 1);
  for (int t2 = 0; t2 < T; t2++) {
    if (t2 <= t) {
      row[t2] *= scale;
    } else {
      row[t2] = 0.0f;
    }
  }
}

__global__ void maskedSoftmax(const float *scores, float *probs, int rows, int T) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= rows)
    return;
  int t = idx % T;
  const float *in = scores + idx * T;
  float *out = probs + idx * T;
  float peak = -1e30f;
  for (int k = 0; k <= t; k++)
    peak = fmaxf(peak, in[k]);
  float sum = 0.0f;
  for (int k = 0; k <= t; k++) {
    float e = __expf(in[k] - peak);
    sum += e;
    out[k] = e;
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
  splitRows<<<rows / 128, 128>>>(scores, rows, T);
  maskedSoftmax<<<rows / 128, 128>>>(scores, probs, rows, T);
  cudaDeviceSynchronize();
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H100 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
// CHECK-MESSAGES: :22:7: warning: global load 'row[t2]' touches 21.87 sectors per warp request (ideal 3.02, 13.8% efficiency) with block (128, 1, 1) from the launch at unrolled-selected-stores.cu:61 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :22:7: warning: global store 'row[t2]' touches 21.87 sectors per warp request (ideal 3.02, 13.8% efficiency) with block (128, 1, 1) from the launch at unrolled-selected-stores.cu:61 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :24:7: warning: global store 'row[t2]' touches 21.23 sectors per warp request (ideal 2.96, 13.9% efficiency) with block (128, 1, 1) from the launch at unrolled-selected-stores.cu:61 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :38:24: warning: global load 'in[k]' touches 21.84 sectors per warp request (ideal 3.02, 13.8% efficiency) with block (128, 1, 1) from the launch at unrolled-selected-stores.cu:62 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :41:22: warning: global load 'in[k]' touches 21.84 sectors per warp request (ideal 3.02, 13.8% efficiency) with block (128, 1, 1) from the launch at unrolled-selected-stores.cu:62 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :43:5: warning: global store 'out[k]' touches 21.84 sectors per warp request (ideal 3.02, 13.8% efficiency) with block (128, 1, 1) from the launch at unrolled-selected-stores.cu:62 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :48:7: warning: global load 'out[k]' touches 21.84 sectors per warp request (ideal 3.02, 13.8% efficiency) with block (128, 1, 1) from the launch at unrolled-selected-stores.cu:62 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :48:7: warning: global store 'out[k]' touches 21.84 sectors per warp request (ideal 3.02, 13.8% efficiency) with block (128, 1, 1) from the launch at unrolled-selected-stores.cu:62 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :50:7: warning: global store 'out[k]' touches 21.25 sectors per warp request (ideal 2.96, 13.9% efficiency) with block (128, 1, 1) from the launch at unrolled-selected-stores.cu:62 [cuda-uncoalesced-global-access]
