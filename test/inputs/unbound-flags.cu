// Test input for bool parameters the host code decides at run time (SHOC's
// QT clustering passes `can_use_texture`, a bit of a matrix type read from
// the command line, and reads `work[pnt2_indx * N0 + latest_point]` when it
// is false, inside a branch on the matrix type's storage bit). The sweep
// gives every unbound integer the same value, and every value it tries
// makes a bool true: the false arm must still be simulated and reported,
// with a mode's bit set where it sits inside the mode's branch.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

constexpr int Columns = 32;

// The flag picks a row or a column of a 32-column matrix.
__global__ void rowOrColumn(float *out, const float *in, bool byRow) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (byRow)
    out[i] = in[i];
  else
    out[i] = in[(i % Columns) * Columns + i / Columns];
}

// The flag inside a branch on a mode's bit.
__global__ void modedCopy(float *out, const float *in, int mode, bool packed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (mode & 1) {
    if (packed)
      out[i] = in[i];
    else
      out[i] = in[(i % Columns) * Columns + i / Columns];
  }
}

int main() {
  // Neither is set when the test runs: both flags false, the mode 1.
  bool byRow = std::getenv("WARPCHECK_INPUT_BY_ROW") != nullptr;
  const char *Mode = std::getenv("WARPCHECK_INPUT_MODE");
  int mode = Mode ? std::atoi(Mode) : 1;
  bool packed = std::getenv("WARPCHECK_INPUT_PACKED") != nullptr;
  const int n = 64 * 256;
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMemset(b, 0, n * sizeof(float));
  rowOrColumn<<<64, 256>>>(a, b, byRow);
  modedCopy<<<64, 256>>>(a, b, mode, packed);
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(b);
  return 0;
}

// The column's lanes are 128 bytes apart: 32 sectors per request (ideal
// 4), reported from the run with the flag false.
// CHECK-MESSAGES: :20:14: warning: global load 'in[(i % Columns) * Columns + i / Columns]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (256, 1, 1) from the launch at unbound-flags.cu:45 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :30:16: warning: global load 'in[(i % Columns) * Columns + i / Columns]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (256, 1, 1) from the launch at unbound-flags.cu:46 [cuda-uncoalesced-global-access]

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// line is last: the H200 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
