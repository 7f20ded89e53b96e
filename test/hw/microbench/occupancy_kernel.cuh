// The kernel of controlled register count and static shared memory that
// occupancy_grid.cu and potential_block_size.cu ask the runtime about:
// __maxnreg__(R), SMEM bytes of static __shared__; it keeps R + 8 floats
// live (capped at 256) so ptxas fills the cap (and spills the rest).
#pragma once

template <int R, int SMEM>
__global__ void __maxnreg__(R) occ_kernel(float* out, int iters, int sidx) {
  constexpr int K = (R + 8 > 256) ? 256 : R + 8;
  float v[K];
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int i = 0; i < K; ++i) v[i] = out[t + i];
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int i = 0; i < K; ++i) v[i] = fmaf(v[i], v[(i + 1) % K], 1.0f);
  }
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < K; ++i) s += v[i];
  if constexpr (SMEM > 0) {
    // Indexed with run-time values so the whole array stays allocated.
    __shared__ float sm[SMEM / 4];
    sm[(threadIdx.x + sidx) % (SMEM / 4)] = s;
    __syncthreads();
    s += sm[(threadIdx.x * 7 + sidx) % (SMEM / 4)];
  }
  out[t] = s;
}
