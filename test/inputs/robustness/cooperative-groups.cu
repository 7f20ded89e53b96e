// ROBUSTNESS: toolkit-only
// Reduced from llm.c and the CUDA samples: indices built from cooperative
// groups' ranks. thread_rank() and friends were unknown (library calls), so
// every access indexed by them was reported with an unknown address.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void softmax_rows(float *out, const float *inp, int N, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (idx >= N)
    return;
  const float *x = inp + idx * C;
  float sum = 0;
  for (int i = warp.thread_rank(); i < C; i += warp.size())
    sum += x[i];
  out[idx * 32 + warp.thread_rank()] = sum;
}
// EXPECT-ACCESS: x[i] | load | global | status=exact | sectors_per_request=4
// EXPECT-ACCESS: out[idx * 32 + warp.thread_rank()] | store | global | status=exact | sectors_per_request=4

__global__ void grid_stride(const int *in, int *out, unsigned int size) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block cta = cg::this_thread_block();
  for (int i = grid.thread_rank(); i < size; i += grid.size())
    out[i] = in[i] + cta.thread_rank();
}
// EXPECT-ACCESS: in[i] | load | global | status=exact | sectors_per_request=4

int main() {
  softmax_rows<<<8, 256>>>(nullptr, nullptr, 64, 256);
  grid_stride<<<16, 128>>>(nullptr, nullptr, 1 << 16);
}
