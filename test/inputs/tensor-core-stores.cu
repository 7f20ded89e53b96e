// Test input for the warp matrix functions (nvcuda::wmma) as the compiler
// emits them: store_matrix_sync of an accumulator fragment is one store
// instruction per pair (or single element) of the fragment, each lane
// writing the elements the fragment's layout gives it, so a leading
// dimension of a multiple of 128 bytes puts the eight rows one instruction
// writes in the same banks. Each store is on a line of its own, so that the
// H200's records of this input (test/hw/inputs/tensor-core-stores.json)
// give each its wavefronts or sectors per request.
// __half: mma.h includes cuda_fp16.h.
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

// Four warps, each storing its 16x16 float tile side by side in a shared
// tile 16 rows high, row-major with a leading dimension of Ld floats.
template <int Ld>
__global__ void storeFloatTileRowMajor(float *out, float alpha) {
  __shared__ float tile[16 * Ld];
  unsigned warp = threadIdx.x / 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, alpha);
  wmma::store_matrix_sync(tile + warp * 16, acc, Ld, wmma::mem_row_major);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < 16 * 64; i += blockDim.x)
    out[blockIdx.x * 16 * 64 + i] = tile[(i / 64) * Ld + i % 64];
}

// The same tile column-major: the warp's tile is 16 columns of Ld floats.
__global__ void storeFloatTileColMajor(float *out, float alpha) {
  __shared__ float tile[64 * 128];
  unsigned warp = threadIdx.x / 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, alpha);
  wmma::store_matrix_sync(tile + warp * 16 * 128, acc, 128, wmma::mem_col_major);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < 64 * 16; i += blockDim.x)
    out[blockIdx.x * 64 * 16 + i] = tile[(i / 16) * 128 + i % 16];
}

// 32-bit integer accumulators (8-bit inputs) have the float layout.
__global__ void storeIntTileRowMajor(int *out, int alpha) {
  __shared__ int tile[16 * 128];
  unsigned warp = threadIdx.x / 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
  wmma::fill_fragment(acc, alpha);
  wmma::store_matrix_sync(tile + warp * 16, acc, 128, wmma::mem_row_major);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < 16 * 64; i += blockDim.x)
    out[blockIdx.x * 16 * 64 + i] = tile[(i / 64) * 128 + i % 64];
}

// Half accumulators: two halves in each 32-bit register.
__global__ void storeHalfTileRowMajor(__half *out, float alpha) {
  __shared__ __half tile[16 * 256];
  unsigned warp = threadIdx.x / 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, __half> acc;
  wmma::fill_fragment(acc, __float2half(alpha));
  wmma::store_matrix_sync(tile + warp * 16, acc, 256, wmma::mem_row_major);
  __syncthreads();
  wmma::store_matrix_sync(tile + warp * 16 * 64, acc, 64, wmma::mem_col_major);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < 16 * 64; i += blockDim.x)
    out[blockIdx.x * 16 * 64 + i] = tile[(i / 64) * 256 + i % 64];
}

// Straight to global memory, row-major and column-major, each warp its own
// tile of an n x n matrix.
__global__ void storeFloatTileGlobal(float *c, int n, float alpha) {
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  unsigned tileRow = warp / (n / 16), tileCol = warp % (n / 16);
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, alpha);
  wmma::store_matrix_sync(c + tileRow * 16 * n + tileCol * 16, acc, n, wmma::mem_row_major);
  wmma::store_matrix_sync(c + n * n + tileCol * 16 * n + tileRow * 16, acc, n,
                          wmma::mem_col_major);
}

// The other two float shapes, row-major in shared memory.
__global__ void storeOtherShapes(float *out, float alpha) {
  __shared__ float tall[32 * 128];
  __shared__ float wide[8 * 128];
  unsigned warp = threadIdx.x / 32;
  wmma::fragment<wmma::accumulator, 32, 8, 16, float> accTall;
  wmma::fragment<wmma::accumulator, 8, 32, 16, float> accWide;
  wmma::fill_fragment(accTall, alpha);
  wmma::fill_fragment(accWide, alpha);
  wmma::store_matrix_sync(tall + warp * 8, accTall, 128, wmma::mem_row_major);
  wmma::store_matrix_sync(wide + warp * 32, accWide, 128, wmma::mem_row_major);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tall[threadIdx.x * 5 % 4096] + wide[threadIdx.x];
}

int main() {
  const int Blocks = 2, Threads = 128, N = 64;
  float *out, *c;
  int *iout;
  __half *hout;
  cudaMalloc(&out, Blocks * 16 * 64 * sizeof(float));
  cudaMalloc(&iout, Blocks * 16 * 64 * sizeof(int));
  cudaMalloc(&hout, Blocks * 16 * 64 * sizeof(__half));
  cudaMalloc(&c, 2 * N * N * sizeof(float));
  storeFloatTileRowMajor<128><<<Blocks, Threads>>>(out, 2.0f);
  storeFloatTileRowMajor<136><<<Blocks, Threads>>>(out, 2.0f);
  storeFloatTileColMajor<<<Blocks, Threads>>>(out, 2.0f);
  storeIntTileRowMajor<<<Blocks, Threads>>>(iout, 2);
  storeHalfTileRowMajor<<<Blocks, Threads>>>(hout, 2.0f);
  storeFloatTileGlobal<<<(N / 16) * (N / 16) / 4, Threads>>>(c, N, 2.0f);
  storeOtherShapes<<<Blocks, Threads>>>(out, 2.0f);
  cudaDeviceSynchronize();
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H200 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
// CHECK-MESSAGES: :23:3: warning: 4-way bank conflict writing 'wmma::store_matrix_sync(tile + warp * 16, acc, Ld, wmma::mem_row_major)': lanes 0, 4, 8, 12 hit bank 0 with different words (8 wavefronts per request, ideal 2) in 'storeFloatTileRowMajor<128>' with block (128, 1, 1) from the launch at tensor-core-stores.cu:103 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :23:3: note: each store writes eight rows of the tile, 'ldm' (Ld) elements apart: with 'ldm' 136 (8 more, the tile padded to match) every store is conflict-free
// CHECK-MESSAGES: :30:17: warning: kernel 'storeFloatTileColMajor' with block (128, 1, 1) from the launch at tensor-core-stores.cu:105: 32768 bytes of static and 0 bytes of dynamic shared memory per block (33792 allocated) limit sm_90 to 6 blocks of 128 threads (37.5% occupancy); at most 28160 bytes of shared memory per block would allow 8 blocks (50%) [cuda-occupancy]
// CHECK-MESSAGES: :35:3: warning: 4-way bank conflict writing 'wmma::store_matrix_sync(tile + warp * 16 * 128, acc, 128, wmma::mem_col_major)': lanes 0-3 hit bank 0 with different words (4 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at tensor-core-stores.cu:105 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :35:3: note: each store writes eight columns of the tile, 'ldm' (128) elements apart: with 'ldm' 132 (4 more, the tile padded to match) every store is conflict-free
// CHECK-MESSAGES: :38:37: warning: 2-way bank conflict reading 'tile[(i / 16) * 128 + i % 16]': lanes 0, 16 hit bank 0 with different words (2 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at tensor-core-stores.cu:105 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :38:37: note: no padding offered: 'tile' is one-dimensional; index it so that adjacent lanes use adjacent words (in a tree reduction: sequential addressing, a[tid] += a[tid + s] with s halving)
// CHECK-MESSAGES: :47:3: warning: 4-way bank conflict writing 'wmma::store_matrix_sync(tile + warp * 16, acc, 128, wmma::mem_row_major)': lanes 0, 4, 8, 12 hit bank 0 with different words (8 wavefronts per request, ideal 2) with block (128, 1, 1) from the launch at tensor-core-stores.cu:106 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :47:3: note: each store writes eight rows of the tile, 'ldm' (128) elements apart: with 'ldm' 136 (8 more, the tile padded to match) every store is conflict-free
// CHECK-MESSAGES: :59:3: warning: 8-way bank conflict writing 'wmma::store_matrix_sync(tile + warp * 16, acc, 256, wmma::mem_row_major)': lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 0 with different words (8 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at tensor-core-stores.cu:107 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :59:3: note: each store writes eight rows of the tile, 'ldm' (256) elements apart: with 'ldm' 264 (8 more, the tile padded to match) every store is conflict-free
// CHECK-MESSAGES: :61:3: warning: 8-way bank conflict writing 'wmma::store_matrix_sync(tile + warp * 16 * 64, acc, 64, wmma::mem_col_major)': lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 0 with different words (8 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at tensor-core-stores.cu:107 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :61:3: note: each store writes eight columns of the tile, 'ldm' (64) elements apart: with 'ldm' 72 (8 more, the tile padded to match) every store is conflict-free
// CHECK-MESSAGES: :88:3: warning: 4-way bank conflict writing 'wmma::store_matrix_sync(tall + warp * 8, accTall, 128, wmma::mem_row_major)': lanes 0, 4, 8, 12 hit bank 0 with different words (8 wavefronts per request, ideal 2) with block (128, 1, 1) from the launch at tensor-core-stores.cu:109 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :88:3: note: each store writes eight rows of the tile, 'ldm' (128) elements apart: with 'ldm' 136 (8 more, the tile padded to match) every store is conflict-free
// CHECK-MESSAGES: :89:3: warning: 4-way bank conflict writing 'wmma::store_matrix_sync(wide + warp * 32, accWide, 128, wmma::mem_row_major)': lanes 0-3 hit bank 0 with different words (4 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at tensor-core-stores.cu:109 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :89:3: note: each store writes eight rows of the tile, 'ldm' (128) elements apart: with 'ldm' 132 (4 more, the tile padded to match) every store is conflict-free
