// ROBUSTNESS: toolkit-only
// Reduced from llm.c (floatX = __nv_bfloat16): half-precision values read
// through a conversion operator, written through an assignment operator and
// updated through a compound one. Those operators are library functions
// whose bodies are not run, and their memory operands were dropped: a bf16
// elementwise kernel was reported with no access.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void gelu_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *inp, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    float xi = inp[i];
    out[i] = 0.5f * xi;
  }
}
// EXPECT-ACCESS: inp[i] | load | global | bytes_per_lane=2 | sectors_per_request=2
// EXPECT-ACCESS: out[i] | store | global | bytes_per_lane=2 | sectors_per_request=2

__global__ void accumulate(__half *acc, const __half *x, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  acc[i] += x[i * stride];
}
// EXPECT-ACCESS: acc[i] | load | global | sectors_per_request=2
// EXPECT-ACCESS: acc[i] | store | global | sectors_per_request=2
// EXPECT-ACCESS: x[i * stride] | load | global | sectors_per_request=8

int main() {
  gelu_bf16<<<64, 256>>>(nullptr, nullptr, 1 << 20);
  accumulate<<<64, 256>>>(nullptr, nullptr, 4);
}
