// Runs with the CUDA toolkit and with warpcheck's bundled declarations
// (--no-cuda), which must give the same accesses. Without a toolkit,
// cudaLaunchConfig_t was not declared (a parse error: no report at all),
// and atomics were run as the bundled header's inline functions instead
// of being recorded as atomics at the user's call.
#include <cuda_runtime.h>

__global__ void histogram(const int *keys, int *bins, float *sums,
                          const float *values) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&bins[keys[i] & 255], 1);
  atomicAdd(&sums[i % 8], values[i]);
  __shared__ unsigned int local[256];
  atomicInc(&local[threadIdx.x], 7u);
}
// EXPECT-ACCESS: atomicAdd(&bins[keys[i] & 255], 1) | atomic | global | status=unknown
// EXPECT-ACCESS: atomicAdd(&sums[i % 8], values[i]) | atomic | global | status=exact | sectors_per_request=4
// EXPECT-ACCESS: atomicInc(&local[threadIdx.x], 7u) | atomic | shared | status=exact | wavefronts_per_request=1

__global__ void scaled(const float *in, float *out, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (__builtin_expect(i < 1 << 20, 1))
    out[i] = in[i * stride];
}
// EXPECT-ACCESS: in[i * stride] | load | global | status=exact | sectors_per_request=16
// EXPECT-KERNEL: scaled | launch=the launch at bundled-declarations.cu:41

int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 24);
  cudaMalloc(&out, 1 << 24);
  histogram<<<64, 256>>>(nullptr, nullptr, nullptr, nullptr);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(16);
  config.blockDim = dim3(128);
  cudaLaunchAttribute attrs[1];
  attrs[0].id = cudaLaunchAttributeCooperative;
  attrs[0].val.cooperative = 1;
  config.attrs = attrs;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, scaled, (const float *)in, out, 4);
  cudaDeviceSynchronize();
  return 0;
}
