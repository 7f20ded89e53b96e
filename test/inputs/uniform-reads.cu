// Test input for integers that every lane of a warp reads from one address
// in memory: a size one thread left in a __shared__ scalar, the start of a
// block's row in an offset table, a CSR row's range. Their values are
// known only at run time, but they move the whole warp's pattern alike (a
// loop's trip count, the alignment of a row), so the accesses they steer
// are predicted under a stated value (4096, element e of a table as
// (e + 1) * 4096) with the range over other values beside it, never called
// exact. The host code gives the kernels exactly those values, so the H200's
// counts are compared with the prediction as exact (HW-STATED-VALUES).
#include <cuda_runtime.h>

#include <vector>

// A scan tree (the up-sweep of a work-efficient scan) whose size one thread
// read from memory into a __shared__ scalar, as eigenvalue bisection's
// compaction does: the distance between the elements a lane adds doubles
// each level, and so does the bank conflict, up to 32-way.
template <typename T>
__global__ void scanTreeOfReadSize(const unsigned *sizes, unsigned *out) {
  __shared__ T tree[4096];
  __shared__ unsigned size;
  unsigned tid = threadIdx.x;
  if (tid == 0)
    size = sizes[blockIdx.x];
  for (unsigned i = tid; i < 4096; i += blockDim.x)
    tree[i] = static_cast<T>(i);
  __syncthreads();
  unsigned offset = 1;
  for (unsigned d = size >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      unsigned ai = offset * (2 * tid + 1) - 1;
      unsigned bi = offset * (2 * tid + 2) - 1;
      tree[bi] += tree[ai];
    }
    offset <<= 1;
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + tid] = tree[tid];
}

// Each block's row starts where a table says (a ragged array): the lanes
// read consecutive words from a start read from memory.
__global__ void raggedRows(const int *rowStart, const float *values, float *out) {
  const float *row = values + rowStart[blockIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = row[threadIdx.x];
}

// Sparse rows, one warp per row (CSR, vector kernel): the row's range is
// read from rowStart, the lanes stride through it together.
__global__ void csrRowPerWarp(const int *rowStart, const float *val, float *y) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  float sum = 0.0f;
  for (int j = rowStart[row] + lane; j < rowStart[row + 1]; j += 32)
    sum += val[j];
  for (int o = 16; o > 0; o /= 2)
    sum += __shfl_down_sync(0xffffffffu, sum, o);
  if (lane == 0)
    y[row] = sum;
}

int main() {
  const int Blocks = 4, Threads = 256, Step = 4096;
  // The values the prediction states: every size 4096; row starts and
  // CSR offsets (e + 1) * 4096 for entry e.
  std::vector<unsigned> sizes(Blocks, Step);
  std::vector<int> starts(Blocks * Threads / 32 + 1);
  for (size_t e = 0; e < starts.size(); ++e)
    starts[e] = static_cast<int>(e + 1) * Step;
  unsigned *dSizes, *out;
  int *dStarts;
  float *values, *y;
  size_t valueCount = (starts.size() + 1) * Step;
  cudaMalloc(&dSizes, sizes.size() * sizeof(unsigned));
  cudaMalloc(&dStarts, starts.size() * sizeof(int));
  cudaMalloc(&out, Blocks * Threads * sizeof(unsigned));
  cudaMalloc(&values, valueCount * sizeof(float));
  cudaMalloc(&y, Blocks * Threads * sizeof(float));
  cudaMemcpy(dSizes, sizes.data(), sizes.size() * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(dStarts, starts.data(), starts.size() * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(values, 0, valueCount * sizeof(float));
  scanTreeOfReadSize<unsigned><<<Blocks, Threads>>>(dSizes, out);
  scanTreeOfReadSize<unsigned short><<<Blocks, Threads>>>(dSizes, out);
  raggedRows<<<Blocks, Threads>>>(dStarts, values, (float *)out);
  csrRowPerWarp<<<Blocks, Threads>>>(dStarts, values, y);
  cudaDeviceSynchronize();
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H200 records of this input are keyed by the line
// numbers above. The scan tree's conflicts are reported under the stated
// value; the row reads, aligned under it, are not reported.
// RUN: %check_warpcheck %s 'cuda-*' %t
// CHECK-MESSAGES: :34:7: warning: 32-way bank conflict reading 'tree[bi]' with the values read from memory taken as 4096: lanes 0-31 all hit bank 31 (11.25 wavefronts per request, ideal 1) in 'scanTreeOfReadSize<unsigned int>' with block (256, 1, 1) from the launch at uniform-reads.cu:83 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :34:7: warning: 32-way bank conflict reading 'tree[bi]' with the values read from memory taken as 4096: lanes 0-31 all hit bank 31 (7.07 wavefronts per request, ideal 1) in 'scanTreeOfReadSize<unsigned short>' with block (256, 1, 1) from the launch at uniform-reads.cu:84 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :34:7: warning: 32-way bank conflict writing 'tree[bi]' with the values read from memory taken as 4096: lanes 0-31 all hit bank 31 (11.25 wavefronts per request, ideal 1) in 'scanTreeOfReadSize<unsigned int>' with block (256, 1, 1) from the launch at uniform-reads.cu:83 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :34:7: warning: 32-way bank conflict writing 'tree[bi]' with the values read from memory taken as 4096: lanes 0-31 all hit bank 31 (7.07 wavefronts per request, ideal 1) in 'scanTreeOfReadSize<unsigned short>' with block (256, 1, 1) from the launch at uniform-reads.cu:84 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :34:19: warning: 32-way bank conflict reading 'tree[ai]' with the values read from memory taken as 4096: lanes 0-31 all hit bank 15 (11.25 wavefronts per request, ideal 1) in 'scanTreeOfReadSize<unsigned int>' with block (256, 1, 1) from the launch at uniform-reads.cu:83 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :34:19: warning: 32-way bank conflict reading 'tree[ai]' with the values read from memory taken as 4096: lanes 0-31 all hit bank 15 (7.07 wavefronts per request, ideal 1) in 'scanTreeOfReadSize<unsigned short>' with block (256, 1, 1) from the launch at uniform-reads.cu:84 [cuda-shared-bank-conflict]
