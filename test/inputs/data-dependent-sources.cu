// Test input for where a data-dependent address comes from, when the read
// is not in the access's own expression: an index given after its
// declaration, a device function's parameter (what its callers pass), a
// binary search's position (chosen by the comparisons with the keys it
// reads), and __shared__ scatters (a block's scatter by rank, a histogram of
// bytes), which cuda-shared-bank-conflict reports with its own
// ReportDataDependent. No number is claimed for any of them: which sectors
// or banks the lanes touch depends on the data.
#include <cuda_runtime.h>

__device__ void addAt(float *out, int to, float v) { out[to] += v; }

__global__ void scatterThroughHelper(const int *perm, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int to;
  to = perm[i];
  if (i < n)
    addAt(out, to, in[i]);
}

// A merge's rank found by binary search: pos takes the values the
// comparisons with keys[] choose.
__global__ void rankBySearch(const int *keys, const int *queries, int *ranks, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int q = queries[i], pos = 0;
  for (int stride = n / 2; stride > 0; stride /= 2)
    if (keys[pos + stride - 1] < q)
      pos += stride;
  ranks[pos] = i;
}

__global__ void sharedScatterAndHistogram(const int *rank, const unsigned char *data,
                                          unsigned *bins, int *out) {
  __shared__ int sorted[256];
  __shared__ unsigned hist[256];
  hist[threadIdx.x] = 0;
  sorted[rank[blockIdx.x * 256 + threadIdx.x] & 255] = threadIdx.x;
  __syncthreads();
  atomicAdd(&hist[data[blockIdx.x * 256 + threadIdx.x]], 1u);
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = sorted[threadIdx.x];
  atomicAdd(&bins[threadIdx.x], hist[threadIdx.x]);
}

int main() {
  const int n = 4096;
  int *perm, *keys, *rank;
  float *x, *y;
  unsigned char *data;
  unsigned *bins;
  cudaMalloc(&perm, n * sizeof(int));
  cudaMalloc(&keys, n * sizeof(int));
  cudaMalloc(&rank, n * sizeof(int));
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&data, n);
  cudaMalloc(&bins, 256 * sizeof(unsigned));
  scatterThroughHelper<<<n / 128, 128>>>(perm, x, y, n);
  rankBySearch<<<n / 128, 128>>>(keys, perm, rank, n);
  sharedScatterAndHistogram<<<n / 256, 256>>>(rank, data, bins, perm);
  cudaDeviceSynchronize();
  return 0;
}

// RUN lines last, as in the other inputs. Without the options nothing is
// reported (every other access is coalesced and conflict-free); with them,
// each access says which read its address comes from. The search's own
// load is computed from what it read in the iterations before.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t.default
// RUN: %check_warpcheck -check-suffix=GLOBAL %s cuda-uncoalesced-global-access %t.global -- --config=cuda-uncoalesced-global-access.ReportDataDependent=true
// RUN: %check_warpcheck -check-suffix=SHARED %s cuda-shared-bank-conflict %t.shared -- --config=cuda-shared-bank-conflict.ReportDataDependent=true
// CHECK-MESSAGES-GLOBAL: :11:54: warning: global load 'out[to]' has a data-dependent address (computed from 'perm[i]', read at run time): its sectors per request depend on the data with block (128, 1, 1) from the launch at data-dependent-sources.cu:58 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES-GLOBAL: :11:54: warning: global store 'out[to]' has a data-dependent address (computed from 'perm[i]', read at run time): its sectors per request depend on the data with block (128, 1, 1) from the launch at data-dependent-sources.cu:58 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES-GLOBAL: :27:9: warning: global load 'keys[pos + stride - 1]' has a data-dependent address (computed from 'keys[pos + stride - 1]', read at run time): its sectors per request depend on the data with block (128, 1, 1) from the launch at data-dependent-sources.cu:59 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES-GLOBAL: :29:3: warning: global store 'ranks[pos]' has a data-dependent address (computed from 'keys[pos + stride - 1]', read at run time): its sectors per request depend on the data with block (128, 1, 1) from the launch at data-dependent-sources.cu:59 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES-SHARED: :37:3: warning: shared store 'sorted[rank[blockIdx.x * 256 + threadIdx.x] & 255]' has a data-dependent address (computed from 'rank[blockIdx.x * 256 + threadIdx.x]', read at run time): its wavefronts per request depend on the data with block (256, 1, 1) from the launch at data-dependent-sources.cu:60 [cuda-shared-bank-conflict]
// CHECK-MESSAGES-SHARED: :39:3: warning: shared atomic 'atomicAdd(&hist[data[blockIdx.x * 256 + threadIdx.x]], 1u)' has a data-dependent address (computed from 'data[blockIdx.x * 256 + threadIdx.x]', read at run time): its wavefronts per request depend on the data with block (256, 1, 1) from the launch at data-dependent-sources.cu:60 [cuda-shared-bank-conflict]
