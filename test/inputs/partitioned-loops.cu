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

// A layout flag tested inside such a loop: the rows are read whole only
// when 'layout' has the RowMajor bit, and the loop is entered only when
// 'count' is large and 'ranks' and 'rank' small. No run of one value each
// takes that arm, nor the run with the others 1 (1 has no RowMajor bit):
// one more run gives 'layout' the bit the code tests.
#define RowMajor 0x10

__global__ void ownedRows(const float *rows, const float *columns, float *out, int count,
                          int ranks, int rank, int stride, int layout) {
  for (int i = blockIdx.x * ranks + rank; i < count; i += stride) {
    float v;
    if (layout & RowMajor)
      v = rows[i * 32 + threadIdx.x];
    else
      v = columns[threadIdx.x * count + i];
    out[i * 32 + threadIdx.x] = v;
  }
}

int main(int argc, char **argv) {
  int count = atoi(argc > 1 ? argv[1] : "65536"); // texts: unknown to the host run
  int ranks = atoi(argc > 2 ? argv[2] : "1");
  int rank = atoi(argc > 3 ? argv[3] : "0");
  int layout = atoi(argc > 4 ? argv[4] : "16"); // RowMajor
  const int Blocks = 64;
  std::vector<int> order(count);
  for (int i = 0; i < count; ++i)
    order[i] = i;
  int *items;
  float *values, *out;
  cudaMalloc(&items, count * sizeof(int));
  cudaMalloc(&values, (size_t)(count + 1) * 64 * sizeof(float));
  cudaMalloc(&out, (size_t)count * 32 * sizeof(float));
  cudaMemcpy(items, order.data(), count * sizeof(int), cudaMemcpyHostToDevice);
  ownedItems<<<Blocks, 32>>>(items, values, out, count, ranks, rank, Blocks * ranks);
  // Both layouts: 'values' holds (count + 1) * 64 floats (ownedItems reads
  // up to 124 past its last row's start), enough for the rows and the
  // columns (32 * count each).
  ownedRows<<<Blocks, 32>>>(values, values, out, count, ranks, rank, Blocks * ranks, layout);
  ownedRows<<<Blocks, 32>>>(values, values, out, count, ranks, rank, Blocks * ranks,
                            layout ^ RowMajor);
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
// CHECK-MESSAGES: :21:33: warning: global load 'values[item * 64 + threadIdx.x * 4]' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) with block (32, 1, 1) from the launch at partitioned-loops.cu:59 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :21:33: note: assumed: reached only when 'count' (compared as an upper bound) is large and 'ranks' and 'rank' small, none known at a launch site (no one value for all of them reaches it): simulated with 4096 and 1; simulated on 64 warps

// ownedRows: the column read (32 sectors, 'count' floats between lanes)
// from the run with 'layout' 4096, whose RowMajor bit is clear; the row
// read (4 sectors, no finding) only from the run with 'layout' 16, the bit
// the code tests, said so (test/unit/ValueSweepTest.cpp checks its note).
// CHECK-MESSAGES: :39:11: warning: global load 'columns[threadIdx.x * count + i]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at partitioned-loops.cu:63 [cuda-uncoalesced-global-access]
