// Reduced from llm.c dev/cuda/attention_forward.cu: a guard on the product of
// four integer parameters that no launch site fixes. With the sampled value
// 4096 the product overflows int (undefined behaviour no valid launch
// executes), the guard was false for every lane and the kernel was reported
// with no access at all. It now retries smaller values; the sweep skips them.
__global__ void attention_query_key(float *preatt, const float *inp, int B,
                                    int T, int C, int NH) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int total_threads = B * NH * T * T;
  if (idx < total_threads) {
    int t2 = idx % T;
    int t = (idx / T) % T;
    int h = (idx / (T * T)) % NH;
    int b = idx / (NH * T * T);
    int C3 = C * 3;
    int hs = C / NH;
    const float *query_t = inp + b * T * C3 + t * C3 + h * hs;
    const float *key_t2 = inp + b * T * C3 + t2 * C3 + h * hs + C;
    float val = 0.0f;
    for (int i = 0; i < hs; i++)
      val += query_t[i] * key_t2[i];
    preatt[idx] = val;
  }
}
// EXPECT-ACCESS: preatt[idx] | store | global | sectors_per_request=4
// EXPECT-ACCESS: query_t[i] | load | global
// EXPECT-ACCESS: key_t2[i] | load | global
// EXPECT-ASSUMPTION: query_t[i] | the numbers depend on 'B', 'C', 'NH' and 'T', not known at a launch site

// A shift by a sampled parameter: 1 << 4096 is undefined, and N was unknown.
__global__ void shift_by_parameter(float *d_Output, const float *d_Input,
                                   int log2N) {
  const int N = 1 << log2N;
  const int base = blockIdx.x << log2N;
  for (int pos = threadIdx.x; pos < N; pos += blockDim.x)
    d_Output[base + pos] = d_Input[base + pos];
}
// EXPECT-ACCESS: d_Output[base + pos] | store | global | sectors_per_request=4
// EXPECT-ACCESS: d_Input[base + pos] | load | global | sectors_per_request=4
