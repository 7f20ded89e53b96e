// ROBUSTNESS: plugin-system-headers
// Kernels of libraries (CUB, Thrust; here a system header of our own) are
// not the user's code: the report left them out, but the checks simulated
// every one of them (a Thrust unit of the CUDA samples took 25 s instead of
// 4) and, with --system-headers, reported them.
#include "library-kernels.cuh"

__global__ void user_copy(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
// EXPECT-ACCESS: in[i] | load | global | status=exact | sectors_per_request=4
// EXPECT-KERNEL: user_copy | launch=the launch at library-kernels.cu:18
// EXPECT-NO-KERNEL: library_transpose
// EXPECT-NO-WARNING-IN: library-kernels.cuh

int main() {
  user_copy<<<64, 256>>>(nullptr, nullptr);
  library_call<float>(nullptr, nullptr, 4096);
}
