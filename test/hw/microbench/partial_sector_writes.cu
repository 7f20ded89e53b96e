// Where the sum reduction's DRAM writes come from (test/inputs/roofline.cu's
// reduceSum wrote 4,182,016 bytes on the H200 for 2 MiB of partial sums):
// kernels that store the same 2 MiB (524,288 floats) in different shapes,
// each a launch for ncu's dram__bytes_write.sum and L2 write counters.
//
//   oneFloatPerBlock<T>  T threads a block, thread 0 stores out[blockIdx.x]
//                        (reduceSum's store, with T = 256 and 32);
//   reduceLike           reduceSum itself (reads 1 GiB, as in roofline.cu);
//   floatsPerBlock<N>    N threads of each block store N consecutive floats
//                        (N = 8: one 32-byte sector a block; 32: a line);
//   strided              one float in every eighth sector, 524,288 sectors
//                        touched (16 MiB of sectors), the rest untouched;
//   reduceWholeSectors   the same reduction of the same 1 GiB into the same
//                        2 MiB, each block summing eight 512-float chunks
//                        (a warp each) and storing its eight sums together:
//                        one whole sector per block, written at once.
// Usage: partial_sector_writes (launches in the order above; compile with
// -O3 -arch=sm_90).
#include <cstdio>

constexpr unsigned Floats = 524288;

template <unsigned T>
__global__ void oneFloatPerBlock(float *out, float v) {
  if (threadIdx.x == 0)
    out[blockIdx.x] = v + blockIdx.x;
}

__global__ void reduceLike(const float *in, float *partial) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * 512 + tid;
  sdata[tid] = in[i] + in[i + 256];
  __syncthreads();
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = sdata[0];
}

template <unsigned N>
__global__ void floatsPerBlock(float *out, float v) {
  if (threadIdx.x < N)
    out[blockIdx.x * N + threadIdx.x] = v + threadIdx.x;
}

__global__ void strided(float *out, float v) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i * 64] = v + i;  // one float per 256 bytes: every eighth sector
}

__global__ void reduceWholeSectors(const float *in, float *partial) {
  __shared__ float sums[8];
  unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const float *chunk = in + (size_t(blockIdx.x) * 8 + warp) * 512;
  float s = 0.0f;
  for (unsigned j = 0; j < 16; ++j)
    s += chunk[j * 32 + lane];
  for (unsigned d = 16; d > 0; d >>= 1)
    s += __shfl_down_sync(0xffffffffu, s, d);
  if (lane == 0)
    sums[warp] = s;
  __syncthreads();
  if (threadIdx.x < 8)
    partial[blockIdx.x * 8 + threadIdx.x] = sums[threadIdx.x];
}

int main() {
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, size_t(Floats) * 512 * sizeof(float));
  cudaMalloc(&out, size_t(Floats) * 64 * sizeof(float));
  cudaMemset(in, 0, size_t(Floats) * 512 * sizeof(float));
  oneFloatPerBlock<256><<<Floats, 256>>>(out, 1.0f);
  oneFloatPerBlock<32><<<Floats, 32>>>(out, 1.0f);
  reduceLike<<<Floats, 256>>>(in, out);
  floatsPerBlock<8><<<Floats / 8, 32>>>(out, 1.0f);
  floatsPerBlock<32><<<Floats / 32, 32>>>(out, 1.0f);
  strided<<<Floats / 256, 256>>>(out, 1.0f);
  reduceWholeSectors<<<Floats / 8, 256>>>(in, out);
  cudaDeviceSynchronize();
  cudaError_t e = cudaGetLastError();
  std::printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
