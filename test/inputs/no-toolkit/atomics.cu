// Parses with NO CUDA toolkit (see check-parse.sh): every atomic function of
// CUDA's device_atomic_functions.h and sm_*_atomic_functions.h, for every
// type CUDA has it for, with the _block and _system scopes.

#include <cuda_runtime.h>

__global__ void atomicsInt(int *P, int V) {
  atomicAdd(P, V);
  atomicSub(P, V);
  atomicExch(P, V);
  atomicMin(P, V);
  atomicMax(P, V);
  atomicCAS(P, V, V + 1);
  atomicAnd(P, V);
  atomicOr(P, V);
  atomicXor(P, V);
  atomicAdd_block(P, V);
  atomicAdd_system(P, V);
  atomicSub_block(P, V);
  atomicCAS_system(P, 0, 1);
  atomicMax_block(P, V);
}

__global__ void atomicsUnsigned(unsigned int *P, unsigned int V) {
  atomicAdd(P, V);
  atomicSub(P, V);
  atomicExch(P, V);
  atomicMin(P, V);
  atomicMax(P, V);
  atomicInc(P, V);
  atomicDec(P, V);
  atomicCAS(P, V, V + 1u);
  atomicAnd(P, V);
  atomicOr(P, V);
  atomicXor(P, V);
  atomicInc_block(P, 16u);
  atomicDec_system(P, 16u);
  atomicOr_block(P, 1u);
}

__global__ void atomicsU64(unsigned long long *P, unsigned long long V) {
  atomicAdd(P, V);
  atomicExch(P, V);
  atomicMin(P, V);
  atomicMax(P, V);
  atomicCAS(P, V, V + 1ull);
  atomicAnd(P, V);
  atomicOr(P, V);
  atomicXor(P, V);
  atomicAdd_system(P, 1ull);
  atomicExch_block(P, 0ull);
}

__global__ void atomicsI64(long long *P, long long V) {
  atomicMin(P, V);
  atomicMax(P, V);
  atomicAnd(P, V);
  atomicOr(P, V);
  atomicXor(P, V);
  atomicMin_block(P, V);
}

__global__ void atomicsFloat(float *F, double *D, float Fv, double Dv) {
  atomicAdd(F, Fv);
  atomicExch(F, Fv);
  atomicAdd(D, Dv);
  atomicAdd_block(F, 1.0f);
  atomicAdd_system(D, 1.0);
  atomicExch_system(F, 0.0f);
}

// The classic CAS loop (atomicMax for float) through __float_as_int.
__device__ float atomicMaxFloat(float *Address, float Value) {
  int *AsInt = reinterpret_cast<int *>(Address);
  int Old = *AsInt, Assumed;
  do {
    Assumed = Old;
    Old = atomicCAS(AsInt, Assumed,
                    __float_as_int(fmaxf(Value, __int_as_float(Assumed))));
  } while (Assumed != Old);
  return __int_as_float(Old);
}

// Histogram with shared-memory atomics.
__global__ void histogram(const unsigned char *In, int N, unsigned int *Bins) {
  __shared__ unsigned int Local[256];
  for (int I = threadIdx.x; I < 256; I += blockDim.x)
    Local[I] = 0;
  __syncthreads();
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += blockDim.x * gridDim.x)
    atomicAdd(&Local[In[I]], 1u);
  __syncthreads();
  for (int I = threadIdx.x; I < 256; I += blockDim.x)
    atomicAdd(&Bins[I], Local[I]);
}
