// Reduced from llm.c and the CUDA samples: indices built from cooperative
// groups' ranks (with a toolkit, and without: tool/include/cuda-minimal/).
// thread_rank() and friends were unknown (library calls), so every access
// indexed by them was reported with an unknown address.
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

// The groups whose ranks depend on where they were made (a thread_group
// passed the block, a coalesced group, the warp-aggregated increment, a
// counter past a loop cut short) are in test/inputs/cooperative-group-ranks.cu,
// measured on the GPU; hw_inputs compares them with the toolkit, and
// cli_gates parses them without.

// A tile's shuffle from rank 0 of a value its lanes all read: the row's
// start, the same for the warp.
__global__ void row_starts(const int *starts, float *out) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  int start = warp.shfl(starts[blockIdx.x * 8 + warp.meta_group_rank()], 0);
  out[start + warp.thread_rank()] = 1.f;
}
// EXPECT-ACCESS: out[start + warp.thread_rank()] | store | global | status=assumed | sectors_per_request=4
// EXPECT-ASSUMPTION: out[start + warp.thread_rank()] | 4 to 4.5 sectors per request

// A coalesced group of the odd lanes made for one call, ranked 0 to 15.
__global__ void odd_lanes(float *out) {
  if (threadIdx.x & 1)
    out[blockIdx.x * 16 + cg::coalesced_threads().thread_rank()] = 1.f;
}
// EXPECT-ACCESS: out[blockIdx.x * 16 + cg::coalesced_threads().thread_rank()] | store | global | status=exact | sectors_per_request=2

int main() {
  softmax_rows<<<8, 256>>>(nullptr, nullptr, 64, 256);
  grid_stride<<<16, 128>>>(nullptr, nullptr, 1 << 16);
  row_starts<<<8, 256>>>(nullptr, nullptr);
  odd_lanes<<<8, 32>>>(nullptr);
}
