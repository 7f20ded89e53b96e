// Test input for counts that only a kernel's own __shared__ arrays bound,
// when the sweep over them is short of budget or the count is not known at
// all. A list of 2 * 256 + 1 16-bit entries holds a scan tree over at most
// 512 of them (a bisection's compaction list, as in the eigenvalue
// solvers): 55 wavefronts in 20 requests per block of 256 threads at a
// count of 512 (levels of 8, 4, 2 and 1 warps at 1-, 2-, 4- and 8-way, then
// one warp at 8, 8, 4, 2 and 1), 2.75 per request.
//
// refineThenScan takes the count as a parameter the host reads at run time
// (512 here), after a refinement nest long enough to cut the sweep over it
// short; counts beyond the list take a spill branch first. The sweep's
// values that leave the list (65536, the 2052 the code tests) are bisected
// down to the largest that stays inside, 512, and count only for the spill
// branch, which no count the list holds reaches.
//
// scanOfGrownCount grows its count while the data asks (a loop whose exit
// tests a float read from memory: the count after it is not known); the
// tree's levels run under a data-dependent condition, and lanes whose entry
// would lie past the list's end are left out: the tree of the largest count
// the list holds, 512, which the host's weights (all 1) make.
#include <cuda_runtime.h>

#include <cstdlib>

constexpr unsigned ListCapacity = 2 * 256 + 1;

__global__ void refineThenScan(unsigned count, const float *x, unsigned short *out, float *bound,
                               unsigned *spilled) {
  __shared__ unsigned short list[ListCapacity];
  unsigned tid = threadIdx.x;
  float lo = x[blockIdx.x * blockDim.x + tid], hi = lo + 1.0f;
  for (int a = 0; a < 64; ++a)
    for (int b = 0; b < 64; ++b)
      for (int c = 0; c < 64; ++c) {
        float mid = 0.5f * (lo + hi);
        if (mid * mid > 2.0f + a - b * 0.5f + c * 0.25f)
          hi = mid;
        else
          lo = mid;
      }
  bound[blockIdx.x * blockDim.x + tid] = lo;
  list[tid] = static_cast<unsigned short>(tid);
  list[tid + blockDim.x] = 0;
  __syncthreads();
  // More entries than the list holds: handed to a second pass.
  if (count > 4 * ListCapacity)
    spilled[blockIdx.x * blockDim.x + tid] = count;
  // Up-sweep of a work-efficient scan over `count` entries.
  unsigned offset = 1;
  for (unsigned d = count >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      unsigned ai = offset * (2 * tid + 1) - 1;
      unsigned bi = offset * (2 * tid + 2) - 1;
      list[bi] = list[bi] + list[ai];
    }
    offset <<= 1;
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + tid] = list[tid];
}

__global__ void scanOfGrownCount(const float *weights, unsigned short *out) {
  __shared__ unsigned short list[ListCapacity];
  unsigned tid = threadIdx.x;
  list[tid] = static_cast<unsigned short>(tid);
  list[tid + blockDim.x] = 0;
  // Twice as many live entries while the data asks, up to two per thread.
  unsigned count = 1;
  while (count < 2 * blockDim.x && weights[count] > 0.5f)
    count <<= 1;
  __syncthreads();
  unsigned offset = 1;
  for (unsigned d = count >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      unsigned ai = offset * (2 * tid + 1) - 1;
      unsigned bi = offset * (2 * tid + 2) - 1;
      list[bi] = list[bi] + list[ai];
    }
    offset <<= 1;
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + tid] = list[tid];
}

int main(int argc, char **argv) {
  const int Threads = 256;
  // The count is the program's argument, "512" without one (a text: unknown to the host run).
  unsigned count = static_cast<unsigned>(std::atoi(argc > 1 ? argv[1] : "512"));
  float *x, *bound, *weights;
  unsigned short *out;
  unsigned *spilled;
  cudaMalloc(&x, Threads * sizeof(float));
  cudaMalloc(&bound, Threads * sizeof(float));
  cudaMalloc(&weights, 2 * Threads * sizeof(float));
  cudaMalloc(&out, Threads * sizeof(unsigned short));
  cudaMalloc(&spilled, Threads * sizeof(unsigned));
  cudaMemset(x, 0, Threads * sizeof(float));
  // Every weight 1.0f: the count grows to 512.
  float ones[2 * Threads];
  for (float &w : ones)
    w = 1.0f;
  cudaMemcpy(weights, ones, sizeof(ones), cudaMemcpyHostToDevice);
  refineThenScan<<<1, Threads>>>(count, x, out, bound, spilled);
  scanOfGrownCount<<<1, Threads>>>(weights, out);
  cudaDeviceSynchronize();
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H200 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
// The count is the worst the list holds, 512, the value the program runs
// with: 55 wavefronts in 20 requests, as measured. The grown count's
// 'list[ai]' reads entry 511 from lane 0 one level more than the program
// runs (56 in 21; the H100 measures the line's two loads 110 in 40).
// CHECK-MESSAGES: :55:7: warning: 8-way bank conflict writing 'list[bi]', reached only when 'count' >= 256, worst when 'count' >= 512: lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 7 with different words (2.75 wavefronts per request, ideal 1) with block (256, 1, 1) from the launch at shared-bounds-refinement.cu:105 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :55:18: warning: 8-way bank conflict reading 'list[bi]', reached only when 'count' >= 256, worst when 'count' >= 512: lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 7 with different words (2.75 wavefronts per request, ideal 1) with block (256, 1, 1) from the launch at shared-bounds-refinement.cu:105 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :55:29: warning: 8-way bank conflict reading 'list[ai]', reached only when 'count' >= 256, worst when 'count' >= 512: lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 3 with different words (2.75 wavefronts per request, ideal 1) with block (256, 1, 1) from the launch at shared-bounds-refinement.cu:105 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :79:7: warning: 8-way bank conflict writing 'list[bi]': lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 7 with different words (2.75 wavefronts per request, ideal 1) with block (256, 1, 1) from the launch at shared-bounds-refinement.cu:106 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :79:18: warning: 8-way bank conflict reading 'list[bi]': lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 7 with different words (2.75 wavefronts per request, ideal 1) with block (256, 1, 1) from the launch at shared-bounds-refinement.cu:106 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :79:29: warning: 8-way bank conflict reading 'list[ai]': lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 3 with different words (2.67 wavefronts per request, ideal 1) with block (256, 1, 1) from the launch at shared-bounds-refinement.cu:106 [cuda-shared-bank-conflict]
