// Test input for row strides the host code rounds before the launch, from a
// width it knows only when the program runs (floating-point arithmetic
// here; an image's size in the programs this comes from). Whatever the
// width, the stride is then a multiple: `w - w % 512` (cuda-samples'
// transpose, its FLOOR macro), iAlignUp's `n + m - n % m`, or n itself when
// `n % m` is 0 (HSOpticalFlow, whose pyramid keeps the strides in arrays
// `new` made), `(n + 31) / 32 * 32`. Rows of a multiple of 32 floats start
// on a 128-byte line: a warp's 32 floats of a row are 4 sectors, never 5;
// and a column of a shared tile with such a stride is one bank.
#include <cmath>
#include <cuda_runtime.h>

#define FLOOR(a, b) (a - (a % b))

__global__ void copyFloored(const float *in, float *out, int stride) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * stride + x] = in[y * stride + x];
}

__global__ void halvePyramidLevel(float *level, int stride) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  level[y * stride + x] *= 0.5f;
}

// One row of the block's tile per lane: a column of a tile whose rows are
// a multiple of 32 words is one bank.
__global__ void rowSums(const float *in, float *sums, int stride) {
  extern __shared__ float tile[];
  int row = blockIdx.x * 32 + threadIdx.x;
  for (int c = 0; c < 32; ++c)
    tile[threadIdx.x * stride + c] = in[row * stride + c];
  __syncwarp();
  float s = 0;
  for (int c = 0; c < 32; ++c)
    s += tile[threadIdx.x * stride + c];
  sums[row] = s;
}

inline int iAlignUp(int n, int m = 32) {
  int mod = n % m;
  if (mod)
    return n + m - mod;
  else
    return n;
}

int main() {
  // 1414, known only at run time.
  int measured = static_cast<int>(std::sqrt(2000000.0));
  int rows = 64;
  float *a, *b;
  cudaMalloc(&a, sizeof(float) * 2048 * rows);
  cudaMalloc(&b, sizeof(float) * 2048 * rows);

  int floored = measured;
  floored = FLOOR(floored, 512); // 1024
  copyFloored<<<dim3(floored / 32, rows / 8), dim3(32, 8)>>>(a, b, floored);

  const int levels = 3;
  int *widths = new int[levels];
  int *strides = new int[levels];
  widths[0] = measured;
  strides[0] = iAlignUp(measured); // 1440
  for (int l = 1; l < levels; ++l) {
    widths[l] = widths[l - 1] / 2;
    strides[l] = iAlignUp(widths[l]); // 736, 384
  }
  for (int l = 0; l < levels; ++l)
    halvePyramidLevel<<<dim3(strides[l] / 32, rows / 4), dim3(32, 4)>>>(a, strides[l]);

  int narrow = (measured / 64 + 31) / 32 * 32; // 32
  rowSums<<<2, 32, 32 * narrow * sizeof(float)>>>(a, b, narrow);
  cudaDeviceSynchronize();
  delete[] widths;
  delete[] strides;
  return 0;
}

// The copies of rows (lines 18 and 24) are not reported: 4 sectors per
// request for every stride the host code can pass. Without the multiples,
// strides of odd widths made them 4.88 sectors. The tile's column is one
// bank for every stride the host code passes (a multiple of 32): no longer
// a conflict only "when 'stride' is a multiple of 32".
// CHECK-MESSAGES: :33:5: warning: 32-way bank conflict writing 'tile[threadIdx.x * stride + c]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at rounded-strides.cu:74 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :33:38: warning: global load 'in[row * stride + c]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at rounded-strides.cu:74 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :37:10: warning: 32-way bank conflict reading 'tile[threadIdx.x * stride + c]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at rounded-strides.cu:74 [cuda-shared-bank-conflict]

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// line is last: the H200 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
