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

// The CUDA samples' reduction over a thread_group: the group is the block
// it was made from, through a by-value parameter (thread_group's methods
// dispatch on a packed type field the interpreter does not run).
__device__ int sum_group(cg::thread_group g, int *x, int val) {
  int lane = g.thread_rank();
  for (int i = g.size() / 2; i > 0; i /= 2) {
    x[lane] = val;
    g.sync();
    if (lane < i)
      val += x[lane + i];
    g.sync();
  }
  return val;
}
// EXPECT-ACCESS: x[lane] | store | shared | status=exact | wavefronts_per_request=1
// EXPECT-ACCESS: x[lane + i] | load | shared | status=exact | wavefronts_per_request=1

__global__ void group_reduce(int *out) {
  extern __shared__ int workspace[];
  cg::thread_block block = cg::this_thread_block();
  int r = sum_group(block, workspace, block.thread_rank());
  if (block.thread_rank() == 0)
    out[blockIdx.x] = r;
}

// A coalesced group is the lanes active where it was made: the even lanes,
// ranked 0 to 15, write 64 contiguous bytes (2 sectors).
__global__ void even_lanes(float *out) {
  if (threadIdx.x % 2 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    out[blockIdx.x * 128 + (threadIdx.x / 32) * 16 + active.thread_rank()] = 1.f;
  }
}
// EXPECT-ACCESS: out[blockIdx.x * 128 + (threadIdx.x / 32) * 16 + active.thread_rank()] | store | global | status=exact | sectors_per_request=2

// The warp-aggregated increment of the samples (warpAggregatedAtomicsCG):
// the leader adds the group's size, the shuffle gives its old value to
// the group, each lane adds its rank. The old value is read from memory,
// swept as one; the group's size (32) is known, so the leader's atomic is.
__device__ int aggregated_increment(int *counter) {
  cg::coalesced_group g = cg::coalesced_threads();
  int prev;
  if (g.thread_rank() == 0)
    prev = atomicAdd(counter, g.num_threads());
  return g.shfl(prev, 0) + g.thread_rank();
}

__global__ void compact(const int *in, int *out, int *count) {
  out[aggregated_increment(count)] = in[blockIdx.x * blockDim.x + threadIdx.x];
}
// EXPECT-ACCESS: atomicAdd(counter, g.num_threads()) | atomic | global | status=exact | sectors_per_request=1
// EXPECT-ACCESS: out[aggregated_increment(count)] | store | global | status=assumed | sectors_per_request=4
// EXPECT-ASSUMPTION: out[aggregated_increment(count)] | values read from memory ('atomicAdd(counter, g.num_threads())'): 4 to 5 sectors per request

// A tile's shuffle from rank 0 of a value its lanes all read: the row's
// start, the same for the warp.
__global__ void row_starts(const int *starts, float *out) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  int start = warp.shfl(starts[blockIdx.x * 8 + warp.meta_group_rank()], 0);
  out[start + warp.thread_rank()] = 1.f;
}
// EXPECT-ACCESS: out[start + warp.thread_rank()] | store | global | status=assumed | sectors_per_request=4
// EXPECT-ASSUMPTION: out[start + warp.thread_rank()] | 4 to 4.5 sectors per request

// A loop longer than the simulation follows: its counter still leaves it
// at the first value past the bound (2^20 + the lane's rank), not unknown.
__global__ void past_the_loop(const float *in, float *out, int n) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  int i = warp.thread_rank();
  for (; i < n; i += warp.size())
    out[i] = in[i];
  if (i < 2 * n)
    out[i] = 0.f;
}
// EXPECT-ACCESS: out[i] | store | global | status=exact | sectors_per_request=4

int main() {
  softmax_rows<<<8, 256>>>(nullptr, nullptr, 64, 256);
  grid_stride<<<16, 128>>>(nullptr, nullptr, 1 << 16);
  group_reduce<<<8, 128, 128 * sizeof(int)>>>(nullptr);
  even_lanes<<<8, 256>>>(nullptr);
  compact<<<8, 256>>>(nullptr, nullptr, nullptr);
  row_starts<<<8, 256>>>(nullptr, nullptr);
  past_the_loop<<<1, 32>>>(nullptr, nullptr, 1 << 20);
}
