// Test input for launches whose block is known only in part, as stencil
// drivers write them: blockDim.x is a constant (a warp is one row of the
// tile), blockDim.y comes from the command line. The launch cannot be
// evaluated, but its x extent is the block's: the shape is inferred with
// x = 32 (the default block's 256 threads over y), not the 16 x 16 a
// kernel that reads threadIdx.y gets when nothing is known. Run without
// arguments the program launches that shape, (32, 8, 1), so the H200
// records (test/hw/inputs/launch-extents.json) compare line for line.
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE_X 32
#define HALO 1
#define WIDTH 4096

// A row-per-warp stencil through a haloed tile: 34 words a row, so each
// warp's row starts 34 words (2 banks) further on and stays conflict-free.
__global__ void rowStencil(const float *in, float *out) {
  __shared__ float tile[16 + 2 * HALO][TILE_X + 2 * HALO];
  int x = blockIdx.x * TILE_X + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  tile[threadIdx.y + HALO][threadIdx.x + HALO] = in[y * WIDTH + x];
  __syncthreads();
  out[y * WIDTH + x] = tile[threadIdx.y + HALO][threadIdx.x + HALO] +
                       tile[threadIdx.y + HALO][threadIdx.x];
}

int main(int argc, char **argv) {
  dim3 block;
  block.x = TILE_X;
  block.y = argc > 1 ? atoi(argv[1]) : 8;
  dim3 grid(WIDTH / TILE_X, 256 / block.y);
  float *in, *out;
  cudaMalloc(&in, WIDTH * 256 * sizeof(float));
  cudaMalloc(&out, WIDTH * 256 * sizeof(float));
  rowStencil<<<grid, block>>>(in, out);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}

// RUN lines last: the H200 records are keyed by the line numbers above. No
// CHECK line: every access is coalesced and conflict-free.
// RUN: %check_warpcheck %s 'cuda-*' %t
