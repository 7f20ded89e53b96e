// Launch shapes that no GPU accepts, and grids so large that their block
// counts overflow 64 bits when multiplied: a block of 2^20 threads made the
// analysis simulate 32768 warps of one block (the per-launch warp sample
// counted blocks only), and grid products wrapped around.
#include <cuda_runtime.h>

__global__ void copy(const float *in, float *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
// EXPECT-ACCESS: in[i] | load | global | sectors_per_request=4
// EXPECT-KERNEL: copy | launch=the launch at launch-shapes.cu:26

__global__ void wide(float *out) { out[threadIdx.x + blockDim.x * blockIdx.z] = 0; }
// EXPECT-ACCESS: out[threadIdx.x + blockDim.x * blockIdx.z] | store | global
// EXPECT-KERNEL: wide | total_warps>1000000000

// warpcheck: block(1048576)
__global__ void annotated(float *out) { out[threadIdx.x] = 1; }
// EXPECT-ACCESS: out[threadIdx.x] | store | global | sectors_per_request=4
// EXPECT-KERNEL: annotated | simulated_warps<=128

int main() {
  copy<<<4, dim3(1 << 20)>>>(nullptr, nullptr);    // invalid: > 1024 threads
  copy<<<4, 2048>>>(nullptr, nullptr);             // invalid
  copy<<<4, 256>>>(nullptr, nullptr);
  wide<<<dim3(0x7fffffffu, 65535, 65535), 1024>>>(nullptr); // the largest grid
}
