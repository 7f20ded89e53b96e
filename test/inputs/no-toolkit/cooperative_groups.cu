// Parses with NO CUDA toolkit (see check-parse.sh): the cooperative groups
// of the bundled cooperative_groups.h, as the CUDA samples and llm.c use
// them: block, grid, tiles of a known size, coalesced groups, a group
// passed by value as thread_group, shuffles and votes.

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__device__ int sumOver(cg::thread_group g, int *x, int v) {
  int lane = static_cast<int>(g.thread_rank());
  for (int i = static_cast<int>(g.size()) / 2; i > 0; i /= 2) {
    x[lane] = v;
    g.sync();
    if (lane < i)
      v += x[lane + i];
    cg::sync(g);
  }
  return v;
}

__global__ void groups(const float *in, float *out, int *count, int n) {
  extern __shared__ int work[];
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_group tile4 = cg::tiled_partition(block, 4);
  dim3 where = block.group_index();
  float sum = 0.f;
  for (unsigned long long i = grid.thread_rank(); i < static_cast<unsigned long long>(n);
       i += grid.size())
    sum += in[i];
  sum += warp.shfl_down(sum, 16);
  sum += warp.shfl_xor(sum, 8);
  sum = warp.shfl(sum, 0);
  if (warp.any(sum > 0.f) && warp.all(n > 0) && warp.ballot(1) != 0u)
    out[where.x * 32 + warp.thread_rank()] = sum;
  if (threadIdx.x % 2 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    int base = 0;
    if (active.thread_rank() == 0)
      base = atomicAdd(count, static_cast<int>(active.num_threads()));
    base = active.shfl(base, 0);
    out[base + active.thread_rank()] = static_cast<float>(active.meta_group_rank());
  }
  int r = sumOver(block, work, static_cast<int>(tile4.thread_rank()));
  if (block.thread_rank() == 0 && warp.meta_group_rank() < warp.meta_group_size())
    out[blockIdx.x] = static_cast<float>(r + grid.block_rank() + grid.num_blocks());
  grid.sync();
}

int main() {
  groups<<<4, 128, 128 * sizeof(int)>>>(nullptr, nullptr, nullptr, 1024);
  return 0;
}
