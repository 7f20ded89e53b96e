// Test input for the two halves of a float2 element read on different
// lines, as option pricers read two options per thread (x for the first
// call, y for the second, each argument on a line of its own). nvcc loads
// each element once, one 8-byte load on the line of its x: the y's line has
// no instruction, and the load it merges into is its own array's, not the
// nearest line's (another array).
#include <cuda_runtime.h>

__device__ float price(float s, float k, float t) { return s * t - k; }

__global__ void twoPerThread(const float2 *spot, const float2 *strike, const float2 *years,
                             float2 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float first = price(spot[i].x,
                        strike[i].x,
                        years[i].x);
    float second = price(spot[i].y,
                         strike[i].y,
                         years[i].y);
    out[i] = make_float2(first, second);
  }
}

int main() {
  const int n = 1 << 16;
  float2 *spot, *strike, *years, *out;
  cudaMalloc(&spot, n * sizeof(float2));
  cudaMalloc(&strike, n * sizeof(float2));
  cudaMalloc(&years, n * sizeof(float2));
  cudaMalloc(&out, n * sizeof(float2));
  twoPerThread<<<n / 128, 128>>>(spot, strike, years, out, n);
  cudaDeviceSynchronize();
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H100 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
