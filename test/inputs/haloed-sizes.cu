// Test input for sizes the host code rounds and then offsets: a halo taken
// off (cuda-samples' FDTD3d sizes its volume's edge as `dim / 32 * 32 - 2 *
// radius`, so that a row with its halo is a multiple of 32 floats, and
// advances its pointers so that each row's first interior point starts a
// 128-byte line) or a pad added (`width + 1`, the usual cure for a tile's
// column conflicts). Whatever the size read at run time, the value is then
// a known amount more than a multiple of 32: the rows start where the
// program means them to, and the padded column hits 32 banks.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

constexpr int Radius = 4;

// One slice of the volume: rows of `edge + 2 * Radius` floats.
__global__ void haloedRows(float *out, const float *in, int edge) {
  int stride = edge + 2 * Radius;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int i = (y + Radius) * stride + x + Radius;
  out[i] = in[i - 1] + in[i] + in[i + 1];
}

// Each lane sums one row of the block's tile, whose rows hold `stride`
// words: a multiple of 32 plus the pad.
__global__ void paddedRowSums(const float *in, float *sums, int stride) {
  extern __shared__ float tile[];
  for (int c = 0; c < 32; ++c)
    tile[c * stride + threadIdx.x] = in[(blockIdx.x * 32 + c) * 32 + threadIdx.x];
  __syncwarp();
  float s = 0;
  for (int c = 0; c < 32; ++c)
    s += tile[threadIdx.x * stride + c];
  sums[blockIdx.x * 32 + threadIdx.x] = s;
}

int main() {
  // 1414, known only at run time (the device's memory, in FDTD3d).
  int measured = static_cast<int>(std::sqrt(2000000.0));
  int edge = measured / 32 * 32 - 2 * Radius; // 1400: 24 more than 43 * 32
  if (edge < 96) {
    std::printf("the edge %d is too small\n", edge);
    std::exit(EXIT_FAILURE);
  }
  const int rows = 8;
  int stride = edge + 2 * Radius; // 1408
  float *a, *b;
  size_t floats = (rows + 2 * Radius) * stride + 32;
  cudaMalloc(&a, floats * sizeof(float));
  cudaMalloc(&b, floats * sizeof(float));
  const int padding = 32 - Radius;
  haloedRows<<<dim3(edge / 32, 1), dim3(32, rows)>>>(a + padding, b + padding, edge);

  int padded = (measured / 64 + 31) / 32 * 32 + 1; // 33
  paddedRowSums<<<2, 32, 32 * padded * sizeof(float)>>>(a, b, padded);
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(b);
  return 0;
}

// The load of in[i] and the store are 4 sectors per request, in[i - 1]
// and in[i + 1] 5 (shifted by 4 bytes from the line: reported as
// misaligned), for every edge the host code can pass, each 24 more than a
// multiple of 32; without that, the sweep over edges found rows starting
// anywhere. The padded tile's column is 32 banks for every stride the
// host code passes (1 more than a multiple of 32): without the pad it
// would be one bank, and the sweep, not knowing the pad, reported a 32-way
// conflict when 'stride' is a multiple of 32.
// CHECK-MESSAGES: :22:12: warning: global load 'in[i - 1]' is misaligned: it touches 5 sectors per warp request (ideal 4, 80.0% efficiency) with block (32, 8, 1) from the launch at haloed-sizes.cu:53 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :22:32: warning: global load 'in[i + 1]' is misaligned: it touches 5 sectors per warp request (ideal 4, 80.0% efficiency) with block (32, 8, 1) from the launch at haloed-sizes.cu:53 [cuda-uncoalesced-global-access]

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// line is last: the H200 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
