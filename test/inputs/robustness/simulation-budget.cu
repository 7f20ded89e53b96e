// Reduced from llm.c dev/cuda/layernorm_backward.cu: loops nested three deep,
// bounded by parameters no launch site fixes, each cut at 64 iterations.
// Every warp ran into the interpreter's step budget (millions of steps), and
// 128 warps were simulated twice: tens of seconds for one kernel. The warps
// of a launch now share a budget; when the first block shows that the
// budget allows fewer, fewer blocks are simulated, spread over the grid.
__global__ void heavy(const float *in, float *out, int B, int T, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t)
      for (int c = 0; c < C; c += 32)
        acc += in[(b * T + t) * C + c + threadIdx.x % 32];
  out[i] = acc;
}
// EXPECT-ACCESS: in[(b * T + t) * C + c + threadIdx.x % 32] | load | global | sectors_per_request=4
// EXPECT-ACCESS: out[i] | store | global | sectors_per_request=4
// EXPECT-KERNEL: heavy | simulated_warps<128
// EXPECT-KERNEL: heavy | limitation=the simulation budget of the launch allowed

// A block of warps each near the per-warp budget: the launch is cut inside
// the first block.
__global__ void heavier(const float *in, float *out, int n) {
  float acc = 0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      for (int c = 0; c < n; ++c)
        for (int d = 0; d < n; ++d)
          acc += in[threadIdx.x + d];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
// EXPECT-ACCESS: in[threadIdx.x + d] | load | global
// EXPECT-KERNEL: heavier | simulated_warps<128
// EXPECT-ACCESS: out[blockIdx.x * blockDim.x + threadIdx.x] | store | global | status=exact

int main() {
  heavier<<<1024, 1024>>>(nullptr, nullptr, 1000);
}
