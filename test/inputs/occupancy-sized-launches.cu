// Test input for launches sized by the runtime's occupancy functions:
// cudaOccupancyMaxPotentialBlockSize picks the block size with the most
// active threads per SM (the largest on a tie), capped by its
// blockSizeLimit and by __launch_bounds__; cudaOccupancyMaxActiveBlocksPer-
// Multiprocessor gives the blocks per SM of a size. The block and grid
// sizes the H200 measured (test/hw/inputs/occupancy-sized-launches.json,
// launch__block_size and launch__grid_size) are the runtime's answers.
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = 2.0f * x[i];
}

__global__ void __launch_bounds__(640) bounded(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] + 1.0f;
}

__global__ void strided(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (2 * i < n)
    x[2 * i] = 0.5f * x[2 * i];
}

__global__ void gridStride(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    x[i] = x[i] - 1.0f;
}

int main() {
  const int N = 1 << 20;
  float *x;
  cudaMalloc(&x, N * sizeof(float));
  // No limit: 1024 threads, two blocks per SM.
  int minGrid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, scale);
  scale<<<(N + block - 1) / block, block>>>(x, N);
  // __launch_bounds__(640): 640 gives 3 blocks (1920 threads), 512 gives 4.
  int boundedGrid = 0, boundedBlock = 0;
  cudaOccupancyMaxPotentialBlockSize(&boundedGrid, &boundedBlock, bounded, 0, 0);
  bounded<<<(N + boundedBlock - 1) / boundedBlock, boundedBlock>>>(x, N);
  // A limit of 384: 256 gives 8 blocks (2048 threads); a limit of 96: 64
  // gives 32 blocks (the SM's block limit), 96 only 21.
  int cappedGrid = 0, capped = 0, smallGrid = 0, small = 0;
  cudaOccupancyMaxPotentialBlockSize(&cappedGrid, &capped, strided, 0, 384);
  strided<<<(N / 2 + capped - 1) / capped, capped>>>(x, N);
  cudaOccupancyMaxPotentialBlockSize(&smallGrid, &small, scale, 0, 96);
  scale<<<(N + small - 1) / small, small>>>(x, N);
  // A grid-stride loop over as many blocks as fit at once: 8 of 256
  // threads per SM, times 4 SMs' worth.
  int perSm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, gridStride, 256, 0);
  gridStride<<<perSm * 4, 256>>>(x, N);
  cudaDeviceSynchronize();
  cudaFree(x);
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H200 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
