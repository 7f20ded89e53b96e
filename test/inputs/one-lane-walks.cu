// Test input for addresses one lane alone makes while the data moves them:
// a partition's two pointers walked by a single thread (cuda-samples'
// cdpSimpleQuicksort launches its partition <<<1, 1>>>), and a list
// followed by each warp's first lane. Where the pointers end up depends on
// the data, and so does how often the loops run; what each request costs
// does not: one lane's 4-byte element, naturally aligned, is one 32-byte
// sector, whatever its address. The numbers are claimed (`assumed`), with
// the read the address comes from; no check reports them.
#include <cuda_runtime.h>

// One thread partitions data[left..right] around a pivot read from it.
__global__ void partitionOneThread(unsigned *data, int left, int right) {
  unsigned *lptr = data + left;
  unsigned *rptr = data + right;
  unsigned pivot = data[(left + right) / 2];
  while (lptr <= rptr) {
    unsigned lval = *lptr;
    unsigned rval = *rptr;
    while (lval < pivot) {
      ++lptr;
      lval = *lptr;
    }
    while (rval > pivot) {
      --rptr;
      rval = *rptr;
    }
    if (lptr <= rptr) {
      *lptr++ = rval;
      *rptr-- = lval;
    }
  }
}

// Each warp's first lane follows a list from its warp's head to the end.
__global__ void followListPerWarp(const int *next, const int *heads, float *weights,
                                  int *lengths) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (threadIdx.x % 32 == 0) {
    int length = 0;
    for (int at = heads[warp]; at >= 0; at = next[at]) {
      weights[at] *= 0.5f;
      ++length;
    }
    lengths[warp] = length;
  }
}

int main() {
  const int n = 4096;
  unsigned *data;
  int *next, *heads, *lengths;
  float *weights;
  cudaMalloc(&data, n * sizeof(unsigned));
  cudaMalloc(&next, n * sizeof(int));
  cudaMalloc(&heads, 64 * sizeof(int));
  cudaMalloc(&lengths, 64 * sizeof(int));
  cudaMalloc(&weights, n * sizeof(float));
  // Descending values: the partition swaps its way to the middle.
  unsigned *hostData = new unsigned[n];
  for (int i = 0; i < n; ++i)
    hostData[i] = n - i;
  cudaMemcpy(data, hostData, n * sizeof(unsigned), cudaMemcpyHostToDevice);
  // 64 lists of 64 nodes, each node 64 elements past the previous.
  int *hostNext = new int[n];
  int hostHeads[64];
  for (int w = 0; w < 64; ++w) {
    hostHeads[w] = w;
    for (int k = 0; k < 64; ++k) {
      int node = k * 64 + w;
      hostNext[node] = k + 1 < 64 ? node + 64 : -1;
    }
  }
  cudaMemcpy(next, hostNext, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(heads, hostHeads, sizeof(hostHeads), cudaMemcpyHostToDevice);
  cudaMemset(weights, 0, n * sizeof(float));
  partitionOneThread<<<1, 1>>>(data, 0, n - 1);
  followListPerWarp<<<8, 256>>>(next, heads, weights, lengths);
  cudaDeviceSynchronize();
  delete[] hostData;
  delete[] hostNext;
  cudaFree(data);
  cudaFree(next);
  cudaFree(heads);
  cudaFree(lengths);
  cudaFree(weights);
  return 0;
}

// No warning: every request is one lane's, at its ideal.

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// line is last: the H200 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
