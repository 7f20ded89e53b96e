// Test input for work dealt out over processes as distributed codes deal it
// (a clustering code's main kernel does): block b of process 'rank' of
// 'ranks' starts at item b * ranks + rank and takes every 'stride'-th item
// after it while the item is below 'count', all of them read at run time.
// Given one value v each, as a sweep of one value at a time gives them, the
// first item b * v + v is at or past count = v in every block: the loop is
// never entered and its accesses would vanish. They are predicted from a run
// with 'count' (compared as an upper bound) large and the others 1, and
// said so. Run without arguments the program is one process (ranks = 1,
// rank = 0) over 65,536 items, so the records of test/hw/inputs/ compare
// line for line.
#include <cstdlib>
#include <cuda_runtime.h>

#include <vector>

__global__ void ownedItems(const int *items, const float *values, float *out, int count,
                           int ranks, int rank, int stride) {
  for (int i = blockIdx.x * ranks + rank; i < count; i += stride) {
    int item = items[i];
    out[i * 32 + threadIdx.x] = values[item * 64 + threadIdx.x * 4];
  }
}

int main(int argc, char **argv) {
  int count = argc > 1 ? atoi(argv[1]) : 1 << 16;
  int ranks = argc > 2 ? atoi(argv[2]) : 1;
  int rank = argc > 3 ? atoi(argv[3]) : 0;
  const int Blocks = 64;
  std::vector<int> order(count);
  for (int i = 0; i < count; ++i)
    order[i] = i;
  int *items;
  float *values, *out;
  cudaMalloc(&items, count * sizeof(int));
  cudaMalloc(&values, (size_t)count * 64 * sizeof(float));
  cudaMalloc(&out, (size_t)count * 32 * sizeof(float));
  cudaMemcpy(items, order.data(), count * sizeof(int), cudaMemcpyHostToDevice);
  ownedItems<<<Blocks, 32>>>(items, values, out, count, ranks, rank, Blocks * ranks);
  cudaDeviceSynchronize();
  cudaFree(items);
  cudaFree(values);
  cudaFree(out);
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t

// The loop's accesses, from the run with 'count' large and 'ranks' and
// 'rank' 1 (none of the sweep's runs enters the loop): the item read by the
// whole warp (one sector), the row of 'out' (4 sectors), and the row of
// 'values' read with a 16-byte stride (16 sectors where 4 would do).
// CHECK-MESSAGES: :21:33: warning: global load 'values[item * 64 + threadIdx.x * 4]' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) with block (32, 1, 1) from the launch at partitioned-loops.cu:39 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :21:33: note: assumed: reached only when 'count' (compared as an upper bound) is large and 'ranks' and 'rank' small, none known at a launch site (no one value for all of them reaches it): simulated with 4096 and 1; simulated on 64 warps
