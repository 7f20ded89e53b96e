// Test input for the values cooperative groups' collectives read:
// cg::reduce and cg::inclusive_scan take their value by forwarding
// reference, so an element of memory written as the value is loaded by
// each lane of the group before the shuffles combine them (llm.c's
// attention_backward reduces its warps' partial sums straight from shared
// memory). The load is costed as any other: one word per lane, or a
// column of a tile whose rows are 32 words (one bank).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// Each warp's sum, then the block's: warp 0 reduces the warps' sums from
// shared memory, one word per lane.
__global__ void blockSums(const float *in, float *out) {
  __shared__ float partial[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float s = cg::reduce(warp, in[blockIdx.x * blockDim.x + threadIdx.x], cg::plus<float>());
  if (warp.thread_rank() == 0)
    partial[warp.meta_group_rank()] = s;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    float total = cg::reduce(warp, partial[warp.thread_rank()], cg::plus<float>());
    if (warp.thread_rank() == 0)
      out[blockIdx.x] = total;
  }
}

// The warp scans one column of its tile, one row per lane: 32 words in
// one bank.
__global__ void columnScans(const float *in, float *out) {
  __shared__ float tile[32][32];
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  unsigned lane = warp.thread_rank();
  for (int r = 0; r < 32; ++r)
    tile[r][lane] = in[(blockIdx.x * 32 + r) * 32 + lane];
  warp.sync();
  float running = cg::inclusive_scan(warp, tile[lane][blockIdx.x % 32]);
  out[blockIdx.x * 32 + lane] = running;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 64 * 256 * sizeof(float));
  cudaMalloc(&out, 64 * 256 * sizeof(float));
  blockSums<<<64, 256>>>(in, out);
  columnScans<<<8, 32>>>(in, out);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}

// The reads the collectives make are reported as the source writes them:
// in[...] and partial[...] are one request of 4 sectors or 1 wavefront;
// tile[lane][blockIdx.x % 32] is 32 lanes in one bank.
// CHECK-MESSAGES: :41:44: warning: 32-way bank conflict reading 'tile[lane][blockIdx.x % 32]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at group-collectives.cu:50 [cuda-shared-bank-conflict]

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// line is last: the H200 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
