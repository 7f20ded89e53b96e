// Test input for cuda-occupancy: theoretical occupancy on sm_90 (H200: 64K
// registers, 2048 threads, 32 blocks and 228 KB of shared memory per SM, 1 KB
// reserved per block), with the register counts ptxas gives each kernel
// (CUDA 13.0, `nvcc -arch=sm_90 -Xptxas -v`; written next to each kernel).
// Each kernel is launched from main() with a constant shape, so the program
// also runs on a GPU, where cudaOccupancyMaxActiveBlocksPerMultiprocessor and
// ncu's launch__occupancy_limit_* metrics give the reference numbers.
// CHECK-PTXAS lines hold where a CUDA toolkit gives ptxas's counts,
// CHECK-ESTIMATE lines where there is none (test/check_warpcheck.py).
#include <cstdio>
#include <cuda_runtime.h>

constexpr int N = 256 * 264; // two waves of 256-thread blocks on 132 SMs

// K values per thread, read with unit stride across the grid (coalesced),
// mixed so that they all stay live: about K + 12 registers.
template <int K> __device__ float mix(const float *in, int i, int n) {
  float v[K];
#pragma unroll
  for (int k = 0; k < K; ++k)
    v[k] = in[k * n + i];
#pragma unroll
  for (int r = 0; r < 2; ++r)
#pragma unroll
    for (int k = 0; k < K; ++k)
      v[k] = v[k] * v[(k + 7) % K] + v[(k + 3) % K];
  float s = 0;
#pragma unroll
  for (int k = 0; k < K; ++k)
    s += v[k] * (k + 1);
  return s;
}

// ptxas: 72 registers. 72 x 32 = 2,304 registers per warp: 7 warps per
// scheduler, 28 per SM, 3 blocks of 8 warps (37.5%). 64 registers would give
// 8 warps per scheduler: 4 blocks (50%), which __launch_bounds__(256, 4)
// asks ptxas for (it then spills 8 bytes: said, and small enough).
// CHECK-PTXAS: :[[@LINE+3]]:17: warning: kernel 'registerBound' with block (256, 1, 1) from the launch at cuda-occupancy.cu:{{[0-9]+}}: 72 registers per thread limit sm_90 to 3 blocks of 256 threads (37.5% occupancy); at most 64 registers would allow 4 blocks (50%); ptxas then spills a little (64 registers, 8 bytes of spill stores and 8 of spill loads; none now) [cuda-occupancy]
// CHECK-ESTIMATE: :[[@LINE+2]]:17: warning: kernel 'registerBound' with block (256, 1, 1) from the launch at cuda-occupancy.cu:{{[0-9]+}}: 84 registers per thread (estimated) limit sm_90 to 2 blocks of 256 threads (25% occupancy); at most 64 registers would allow 4 blocks (50%) [cuda-occupancy]
// CHECK-FIXES: {{^}}__global__ void __launch_bounds__(256, 4) registerBound(const float *in, float *out, int n) {
__global__ void registerBound(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = mix<60>(in, i, n);
}

// The same kernel with the bound already there: ptxas gives 64 registers
// (with a few spills), 4 blocks, 50%: nothing to report.
__global__ void __launch_bounds__(256, 4) alreadyBounded(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = mix<60>(in, i, n);
}

// ptxas: 128 registers: 2 blocks of 256 threads (25%). To reach the 50%
// threshold, 4 blocks need 64 registers, at which ptxas spills 1,292 bytes
// (said). A template: no fix-it (the bound would apply to every instance).
// CHECK-PTXAS: :[[@LINE+3]]:17: warning: kernel 'wideTemplate<120>' with block (256, 1, 1) from the launch at cuda-occupancy.cu:{{[0-9]+}}: 128 registers per thread limit sm_90 to 2 blocks of 256 threads (25% occupancy); at most 64 registers would allow 4 blocks (50%); but ptxas then spills (64 registers, 1292 bytes of spill stores and 1296 of spill loads; none now): no __launch_bounds__ fix-it offered [cuda-occupancy]
// CHECK-ESTIMATE: :[[@LINE+2]]:17: warning: kernel 'wideTemplate<120>' with block (256, 1, 1) from the launch at cuda-occupancy.cu:{{[0-9]+}}: 146 registers per thread (estimated) limit sm_90 to 1 block of 256 threads (12.5% occupancy); at most 64 registers would allow 4 blocks (50%) [cuda-occupancy]
template <int K>
__global__ void wideTemplate(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = mix<K>(in, i, n);
}

// ptxas: 72 registers, launched with two block sizes: one warning per shape
// (clang-tidy sorts them by message) and no fix-it (a bound of 256 threads would break the other launch... and
// the other way round). With 128 threads: 7 blocks (28 warps, 43.8%); 64
// registers give 8 blocks (50%).
// CHECK-PTXAS: :[[@LINE+4]]:17: warning: kernel 'twoShapes' with block (128, 1, 1) from the launch at cuda-occupancy.cu:{{[0-9]+}}: 72 registers per thread limit sm_90 to 7 blocks of 128 threads (43.8% occupancy); at most 64 registers would allow 8 blocks (50%); ptxas then spills a little (64 registers, 8 bytes of spill stores and 8 of spill loads; none now) [cuda-occupancy]
// CHECK-PTXAS: :[[@LINE+3]]:17: warning: kernel 'twoShapes' with block (256, 1, 1) from the launch at cuda-occupancy.cu:{{[0-9]+}}: 72 registers per thread limit sm_90 to 3 blocks of 256 threads (37.5% occupancy); at most 64 registers would allow 4 blocks (50%); ptxas then spills a little (64 registers, 8 bytes of spill stores and 8 of spill loads; none now) [cuda-occupancy]
// CHECK-ESTIMATE: :[[@LINE+2]]:17: warning: kernel 'twoShapes' with block (128, 1, 1) from the launch at cuda-occupancy.cu:{{[0-9]+}}: 84 registers per thread (estimated) limit sm_90 to 5 blocks of 128 threads (31.3% occupancy); at most 64 registers would allow 8 blocks (50%) [cuda-occupancy]
// CHECK-ESTIMATE: :[[@LINE+1]]:17: warning: kernel 'twoShapes' with block (256, 1, 1) from the launch at cuda-occupancy.cu:{{[0-9]+}}: 84 registers per thread (estimated) limit sm_90 to 2 blocks of 256 threads (25% occupancy); at most 64 registers would allow 4 blocks (50%) [cuda-occupancy]
__global__ void twoShapes(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = mix<60>(in, i, n);
}

// 48 KB of static shared memory (ptxas: "49152 bytes smem") with 128
// threads: 49,152 + 1,024 reserved = 50,176 bytes per block; the largest
// carveout (228 KB = 233,472 bytes) holds 4 blocks (16 warps, 25%). Eight
// blocks fit in 233,472 / 8 = 29,184 bytes each, 28,160 after the
// reservation. Registers are not the lever: no fix-it.
// CHECK-MESSAGES: :[[@LINE+1]]:17: warning: kernel 'sharedBound' with block (128, 1, 1) from the launch at cuda-occupancy.cu:{{[0-9]+}}: 49152 bytes of static and 0 bytes of dynamic shared memory per block (50176 allocated) limit sm_90 to 4 blocks of 128 threads (25% occupancy); at most 28160 bytes of shared memory per block would allow 8 blocks (50%) [cuda-occupancy]
__global__ void sharedBound(const float *in, float *out) {
  __shared__ float staged[96 * 128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 96; ++k)
    staged[k * 128 + threadIdx.x] = in[i] * k;
  __syncthreads();
  float s = 0;
  for (int k = 0; k < 96; ++k)
    s += staged[k * 128 + threadIdx.x];
  out[i] = s;
}

// 40 KB of dynamic shared memory (the launch's third argument) with 128
// threads: 40,960 + 1,024 = 41,984 bytes per block, 5 blocks (20 warps,
// 31.3%).
// CHECK-MESSAGES: :[[@LINE+1]]:17: warning: kernel 'dynamicBound' with block (128, 1, 1) from the launch at cuda-occupancy.cu:{{[0-9]+}}: 0 bytes of static and 40960 bytes of dynamic shared memory per block (41984 allocated) limit sm_90 to 5 blocks of 128 threads (31.3% occupancy); at most 28160 bytes of shared memory per block would allow 8 blocks (50%) [cuda-occupancy]
__global__ void dynamicBound(const float *in, float *out) {
  extern __shared__ float scratch[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 80; ++k)
    scratch[k * 128 + threadIdx.x] = in[i] + k;
  __syncthreads();
  float s = 0;
  for (int k = 0; k < 80; ++k)
    s += scratch[k * 128 + threadIdx.x];
  out[i] = s;
}

// One warp per block: the SM's 32 block slots hold 32 warps, exactly 50%:
// at the threshold, not below it.
__global__ void smallBlocks(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * 2.0f;
}

// ptxas: 10 registers: 8 blocks of 256 threads, 100%.
__global__ void light(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + 1.0f;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 128 * N * sizeof(float));
  cudaMalloc(&out, N * sizeof(float));
  cudaMemset(in, 0, 128 * N * sizeof(float));
  registerBound<<<N / 256, 256>>>(in, out, N);
  alreadyBounded<<<N / 256, 256>>>(in, out, N);
  wideTemplate<120><<<N / 256, 256>>>(in, out, N);
  twoShapes<<<N / 256, 256>>>(in, out, N);
  twoShapes<<<N / 128, 128>>>(in, out, N);
  sharedBound<<<N / 128, 128>>>(in, out);
  dynamicBound<<<N / 128, 128, 40960>>>(in, out);
  smallBlocks<<<N / 32, 32>>>(in, out);
  light<<<N / 256, 256>>>(in, out);
  cudaError_t E = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(E));
  cudaFree(in);
  cudaFree(out);
  return E == cudaSuccess ? 0 : 1;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
