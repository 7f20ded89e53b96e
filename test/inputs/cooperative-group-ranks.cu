// Test input for indices built from cooperative groups whose rank the
// group's type alone does not give: a thread_group made from the block
// and passed by value (the CUDA samples' reduction), a coalesced group of
// the lanes a branch keeps, and the warp-aggregated increment (a leader's
// atomicAdd of the group's size, its old value shuffled to the group). And
// a loop longer than the simulation follows, after which its counter is
// still known. The H200 records (test/hw/inputs/) compare line for line.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__device__ int sumGroup(cg::thread_group g, int *x, int val) {
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

__global__ void groupReduce(int *out) {
  extern __shared__ int workspace[];
  cg::thread_block block = cg::this_thread_block();
  int r = sumGroup(block, workspace, block.thread_rank());
  if (block.thread_rank() == 0)
    out[blockIdx.x] = r;
}

__global__ void evenLanes(float *out) {
  if (threadIdx.x % 2 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    out[blockIdx.x * 128 + (threadIdx.x / 32) * 16 + active.thread_rank()] = 1.f;
  }
}

__device__ int aggregatedIncrement(int *counter) {
  cg::coalesced_group g = cg::coalesced_threads();
  int prev;
  if (g.thread_rank() == 0)
    prev = atomicAdd(counter, g.num_threads());
  return g.shfl(prev, 0) + g.thread_rank();
}

__global__ void compact(const int *in, int *out, int *count) {
  out[aggregatedIncrement(count)] = in[blockIdx.x * blockDim.x + threadIdx.x];
}

__global__ void pastTheLoop(const float *in, float *out, int n) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * 32 + warp.thread_rank();
  for (; i < n; i += 32 * gridDim.x)
    out[i] = in[i];
  if (i < 2 * n)
    out[i] = 0.f;
}

int main() {
  const int Blocks = 64, N = 1 << 20;
  int *dOut, *dIn, *dCompacted, *dCount;
  float *dF, *dG;
  cudaMalloc(&dOut, Blocks * sizeof(int));
  cudaMalloc(&dIn, Blocks * 256 * sizeof(int));
  cudaMalloc(&dCompacted, Blocks * 256 * sizeof(int));
  cudaMalloc(&dCount, sizeof(int));
  cudaMalloc(&dF, 2 * N * sizeof(float));
  cudaMalloc(&dG, 2 * N * sizeof(float));
  cudaMemset(dIn, 0, Blocks * 256 * sizeof(int));
  cudaMemset(dCount, 0, sizeof(int));
  cudaMemset(dF, 0, 2 * N * sizeof(float));
  groupReduce<<<Blocks, 128, 128 * sizeof(int)>>>(dOut);
  evenLanes<<<Blocks, 256>>>(dG);
  compact<<<Blocks, 256>>>(dIn, dCompacted, dCount);
  pastTheLoop<<<Blocks, 32>>>(dF, dG, N);
  cudaDeviceSynchronize();
  cudaFree(dOut);
  cudaFree(dIn);
  cudaFree(dCompacted);
  cudaFree(dCount);
  cudaFree(dF);
  cudaFree(dG);
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t

// No warning: every access is coalesced or conflict-free once the groups'
// ranks are known (before, each was an unknown address).
