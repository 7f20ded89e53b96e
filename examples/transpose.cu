// A matrix transpose three ways, the textbook case warpcheck is made for:
//   transposeNaive   reads rows and writes columns: every warp's store
//                    touches 32 sectors where 4 would do;
//   transposeTiled   stages a 32 x 32 tile through shared memory so both
//                    global accesses are coalesced, but reads the tile by
//                    column: a 32-way bank conflict;
//   transposePadded  the same with the tile padded to [32][33]: clean.
// Try: warpcheck examples/transpose.cu
//      warpcheck --format=json examples/transpose.cu
//      clang-tidy-19 -load build/lib/libwarpcheck.so -checks='-*,cuda-*' \
//        examples/transpose.cu -- $(build/bin/warpcheck --print-clang-args examples/transpose.cu)
#include <cuda_runtime.h>

constexpr int N = 4096;
constexpr int TILE = 32;
constexpr int ROWS = 8;

__global__ void transposeNaive(const float *in, float *out) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[x * N + (y + j)] = in[(y + j) * N + x];
}

__global__ void transposeTiled(const float *in, float *out) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transposePadded(const float *in, float *out) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, sizeof(float) * N * N);
  cudaMalloc(&out, sizeof(float) * N * N);
  dim3 grid(N / TILE, N / TILE), block(TILE, ROWS);
  transposeNaive<<<grid, block>>>(in, out);
  transposeTiled<<<grid, block>>>(in, out);
  transposePadded<<<grid, block>>>(in, out);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}
