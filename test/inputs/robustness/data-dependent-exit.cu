// Guards and loop bounds read from memory. An early return (or break) under
// a condition that depends on data ended the simulation of every lane, and
// a loop whose condition depends on data never ran its body: the accesses
// after or inside them were not reported.
__global__ void guarded(const int *n, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= *n)
    return;
  out[i] = in[i] * 2.0f;
}
// EXPECT-ACCESS: *n | load | global
// EXPECT-ACCESS: out[i] | store | global | sectors_per_request=4
// EXPECT-ACCESS: in[i] | load | global | sectors_per_request=4
// EXPECT-ASSUMPTION: in[i] | values read from memory

__global__ void rows(const int *row_start, const float *values, float *sums) {
  int row = blockIdx.x;
  float s = 0;
  for (int j = row_start[row] + threadIdx.x; j < row_start[row + 1];
       j += blockDim.x)
    s += values[j];
  sums[row * blockDim.x + threadIdx.x] = s;
}
// EXPECT-ACCESS: values[j] | load | global
// EXPECT-ACCESS: sums[row * blockDim.x + threadIdx.x] | store | global | status=exact | sectors_per_request=4

__global__ void search(const float *keys, const float *data, float *out,
                       float key) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 8; ++k) {
    if (keys[k] == key)
      break;
    out[i * 8 + k] = data[i];
  }
  out[i] = 0;
}
// EXPECT-ACCESS: out[i * 8 + k] | store | global | sectors_per_request=32
// EXPECT-ACCESS: out[i] | store | global | status=exact | sectors_per_request=4

__device__ float clampedRead(const float *p, int i, const int *limit) {
  if (i >= *limit)
    return 0.0f;
  return p[i];
}
__global__ void calls(const float *p, const int *limit, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = clampedRead(p, i, limit);
}
// EXPECT-ACCESS: p[i] | load | global | sectors_per_request=4
// EXPECT-ACCESS: out[i] | store | global | status=exact | sectors_per_request=4

int main() {
  guarded<<<64, 256>>>(nullptr, nullptr, nullptr);
  rows<<<64, 128>>>(nullptr, nullptr, nullptr);
  search<<<64, 256>>>(nullptr, nullptr, nullptr, 1.0f);
  calls<<<64, 256>>>(nullptr, nullptr, nullptr);
}
