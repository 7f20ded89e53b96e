// Parses with NO CUDA toolkit (see check-parse.sh): warp shuffles, votes,
// __activemask, __match_*_sync, __reduce_*_sync and __ldg for scalar and
// vector types.

#include <cuda_runtime.h>

constexpr unsigned FullMask = 0xffffffffu;

template <typename T> __device__ T warpSum(T V) {
  for (int Offset = warpSize / 2; Offset > 0; Offset /= 2)
    V += __shfl_down_sync(FullMask, V, Offset);
  return V;
}

__global__ void shuffles(int *I, unsigned *U, float *F, double *D,
                         long long *L, unsigned long long *UL) {
  int Lane = threadIdx.x & 31;
  I[0] = __shfl_sync(FullMask, I[Lane], 0);
  I[1] = __shfl_up_sync(FullMask, I[Lane], 1);
  I[2] = __shfl_down_sync(FullMask, I[Lane], 1, 16);
  I[3] = __shfl_xor_sync(FullMask, I[Lane], 1);
  U[0] = __shfl_sync(FullMask, U[Lane], 3);
  F[0] = __shfl_xor_sync(FullMask, F[Lane], 16);
  D[0] = __shfl_sync(FullMask, D[Lane], 0);
  L[0] = __shfl_down_sync(FullMask, L[Lane], 2);
  UL[0] = __shfl_up_sync(FullMask, UL[Lane], 2);
  F[1] = warpSum(F[Lane]);
  I[4] = warpSum(I[Lane]);
  D[1] = warpSum(D[Lane]);
}

__global__ void votes(const int *In, unsigned *Out) {
  int Pred = In[threadIdx.x] > 0;
  unsigned Active = __activemask();
  Out[0] = __ballot_sync(Active, Pred);
  Out[1] = __all_sync(FullMask, Pred);
  Out[2] = __any_sync(FullMask, Pred);
  Out[3] = __popc(__ballot_sync(FullMask, Pred));
  Out[4] = __ffs(Out[0]) + __clz(Out[1]);
}

// sm_70+ and sm_80+ warp functions: like CUDA, declared only when the
// device arch has them (and always on the host side).
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
__global__ void match(const int *In, const float *F, unsigned *Out) {
  int Pred = 0;
  Out[0] = __match_any_sync(FullMask, In[threadIdx.x]);
  Out[1] = __match_all_sync(FullMask, In[threadIdx.x], &Pred);
  Out[2] = __match_any_sync(FullMask, F[threadIdx.x]) + Pred;
  Out[3] = __match_any_sync(FullMask, (unsigned long long)In[0]);
}
#endif
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
__global__ void reduce(const int *In, unsigned *Out) {
  Out[0] = __reduce_add_sync(FullMask, (unsigned)In[threadIdx.x]);
  Out[1] = __reduce_max_sync(FullMask, (unsigned)In[threadIdx.x]);
  Out[2] = __reduce_min_sync(FullMask, In[threadIdx.x]);
}
#endif

__global__ void readOnlyLoads(const float *__restrict__ F,
                              const int *__restrict__ I,
                              const double *__restrict__ D,
                              const float2 *__restrict__ F2,
                              const float4 *__restrict__ F4,
                              const int2 *__restrict__ I2,
                              const int4 *__restrict__ I4,
                              const uint4 *__restrict__ U4,
                              const double2 *__restrict__ D2,
                              const unsigned char *__restrict__ UC,
                              const short2 *__restrict__ S2, float *Out) {
  int T = threadIdx.x;
  float4 V4 = __ldg(&F4[T]);
  float2 V2 = __ldg(&F2[T]);
  int2 W2 = __ldg(&I2[T]);
  int4 W4 = __ldg(&I4[T]);
  uint4 X4 = __ldg(&U4[T]);
  double2 E2 = __ldg(&D2[T]);
  short2 S = __ldg(&S2[T]);
  Out[T] = __ldg(&F[T]) + __ldg(&I[T]) + (float)__ldg(&D[T]) + V4.x + V4.w +
           V2.y + W2.x + W4.z + X4.w + (float)E2.y + __ldg(&UC[T]) + S.y;
}
