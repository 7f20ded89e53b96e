// Test input for the loads of a branch's two arms that nvcc makes one load
// of the address the condition selects (analysis/SelectedLoads.h): each arm
// only assigns a local variable the value of a load of one width, and the
// next statement uses it. SimplifyCFG sinks the two loads into the block
// after the branch: one request for the lanes of both arms, costed as one,
// on the line of the use. And the branches whose loads stay in their arms.
#include <cuda_runtime.h>

// Lanes 0-15 read 16 consecutive floats (2 sectors), lanes 16-31 one float
// every 128 bytes (16 sectors): one request of 18 sectors (ideal 4), where
// the arms as written would be two requests of 2 and 16.
__global__ void rowOrColumn(const float *in, float *out) {
  float v;
  if (threadIdx.x < 16)
    v = in[threadIdx.x];
  else
    v = in[threadIdx.x * 32];
  out[threadIdx.x] = v;
}

// In a loop: every round one load of the word the lane's parity selects,
// word j or word 32 + j of one bank (j moves with the round): 2 wavefronts,
// where each arm alone is 1.
__global__ void selectedInLoop(float *out, int rounds) {
  __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
  s[threadIdx.x + 32] = -1.0f;
  __syncthreads();
  float acc = 0;
  for (int r = 0; r < rounds; ++r) {
    float v;
    if ((threadIdx.x + r) & 1)
      v = s[(threadIdx.x / 2 + r) % 32];
    else
      v = s[32 + (threadIdx.x / 2 + r) % 32];
    acc += v * r;
  }
  out[threadIdx.x] = acc;
}

// A store between the branch and the use of its value: the loads are one
// all the same, on the line of the statement after the branch.
__global__ void storeBetween(const float *in, float *out, float *marks) {
  float v;
  if (threadIdx.x & 1)
    v = in[threadIdx.x];
  else
    v = in[threadIdx.x + 64];
  marks[threadIdx.x] = 1.0f;
  out[threadIdx.x] = v;
}

// A float and a double: loads of two widths, one in each arm.
__global__ void twoWidths(const float *f, const double *d, float *out) {
  float v;
  if (threadIdx.x & 1)
    v = f[threadIdx.x];
  else
    v = static_cast<float>(d[threadIdx.x]);
  out[threadIdx.x] = v;
}

int main() {
  float *in, *out, *marks;
  double *d;
  cudaMalloc(&in, 4096 * sizeof(float));
  cudaMalloc(&out, 64 * sizeof(float));
  cudaMalloc(&marks, 64 * sizeof(float));
  cudaMalloc(&d, 64 * sizeof(double));
  cudaMemset(in, 0, 4096 * sizeof(float));
  cudaMemset(d, 0, 64 * sizeof(double));
  rowOrColumn<<<1, 32>>>(in, out);
  selectedInLoop<<<1, 32>>>(out, 4);
  storeBetween<<<1, 32>>>(in, out, marks);
  twoWidths<<<1, 32>>>(in, d, out);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  cudaFree(marks);
  cudaFree(d);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// The findings are the selected loads', counted with the first arm's
// access; storeBetween's one load is 8 sectors (ideal 4), at 50% no finding.
// CHECK-MESSAGES: :15:9: warning: global load 'in[threadIdx.x]' touches 18 sectors per warp request (ideal 4, 22.2% efficiency) with block (32, 1, 1) from the launch at selected-loads.cu:72 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :15:9: note: the compiler makes 'in[threadIdx.x]' and 'in[threadIdx.x * 32]' one load of the address the branch selects at line 18 (LDG.E, 18 sectors per request)
// CHECK-MESSAGES: :33:11: warning: 2-way bank conflict reading 's[(threadIdx.x / 2 + r) % 32]': lanes 0-1 hit bank 0 with different words (2 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at selected-loads.cu:73 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :33:11: note: the compiler makes 's[(threadIdx.x / 2 + r) % 32]' and 's[32 + (threadIdx.x / 2 + r) % 32]' one load of the address the branch selects at line 36 (LDS, 2 wavefronts per request)

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// line is last: the H200 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
