// Parses with NO CUDA toolkit: clang++-19 -x cuda -nocudainc -nocudalib
// -include warpcheck_cuda_minimal.h (see check-parse.sh), host and device.
// Covers: built-in variables, execution/memory space qualifiers,
// __restrict__, __launch_bounds__, barriers and fences, extern __shared__,
// __constant__/__managed__ variables, templates.

#include <cuda_runtime.h>

__constant__ float kCoefficients[16];
__device__ int gCounter;
__managed__ unsigned int gManaged = 0;
__device__ __managed__ float gManagedToo;

__device__ __forceinline__ int globalThreadId() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}

__host__ __device__ inline float square(float X) { return X * X; }

__device__ __noinline__ int laneId() { return threadIdx.x % warpSize; }

__global__ void __launch_bounds__(256, 2)
scale(float *__restrict__ Out, const float *__restrict__ In, int N) {
  int I = globalThreadId();
  if (I < N)
    Out[I] = square(In[I]) * kCoefficients[I % 16];
}

__global__ void __launch_bounds__(128) indexAll(int *Out) {
  unsigned Tx = threadIdx.x, Ty = threadIdx.y, Tz = threadIdx.z;
  unsigned Bx = blockIdx.x, By = blockIdx.y, Bz = blockIdx.z;
  unsigned Dx = blockDim.x, Dy = blockDim.y, Dz = blockDim.z;
  unsigned Gx = gridDim.x, Gy = gridDim.y, Gz = gridDim.z;
  uint3 T = threadIdx;
  dim3 D = blockDim;
  Out[0] = Tx + Ty + Tz + Bx + By + Bz + Dx + Dy + Dz + Gx + Gy + Gz + T.x +
           D.y + warpSize + laneId();
}

// Statically sized shared memory, a barrier, fences.
__global__ void transpose32(float *Out, const float *In, int Width) {
  __shared__ float Tile[32][33];
  int X = blockIdx.x * 32 + threadIdx.x;
  int Y = blockIdx.y * 32 + threadIdx.y;
  Tile[threadIdx.y][threadIdx.x] = In[Y * Width + X];
  __syncthreads();
  X = blockIdx.y * 32 + threadIdx.x;
  Y = blockIdx.x * 32 + threadIdx.y;
  Out[Y * Width + X] = Tile[threadIdx.x][threadIdx.y];
  __syncwarp();
  __syncwarp(0xffffffffu);
  __threadfence();
  __threadfence_block();
  __threadfence_system();
  if (__syncthreads_or(X > 0) && __syncthreads_and(1) &&
      __syncthreads_count(Y) > 0)
    atomicAdd(&gCounter, 1);
}

// Dynamically sized shared memory (extern __shared__) and templates.
template <typename T, int BlockSize>
__global__ void blockReduce(T *Out, const T *In, int N) {
  extern __shared__ unsigned char SharedBytes[];
  T *Partial = reinterpret_cast<T *>(SharedBytes);
  int I = blockIdx.x * BlockSize + threadIdx.x;
  Partial[threadIdx.x] = I < N ? In[I] : T(0);
  __syncthreads();
  for (unsigned Stride = BlockSize / 2; Stride > 0; Stride >>= 1) {
    if (threadIdx.x < Stride)
      Partial[threadIdx.x] += Partial[threadIdx.x + Stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    Out[blockIdx.x] = Partial[0];
}

template <typename T> struct Accumulator {
  T Value;
  __device__ void add(T V) { Value += V; }
};

template <typename T> __device__ T clampTo(T V, T Lo, T Hi) {
  return V < Lo ? Lo : (V > Hi ? Hi : V);
}

__global__ void useTemplates(float *F, double *D) {
  Accumulator<float> Acc{0.0f};
  Acc.add(F[threadIdx.x]);
  F[threadIdx.x] = clampTo(Acc.Value, 0.0f, 1.0f);
  D[threadIdx.x] = clampTo<double>(D[threadIdx.x], -1.0, 1.0);
  gManaged = 1;
  gManagedToo = 2.0f;
}

int hostReadsManaged() { return (int)gManaged + (int)gManagedToo; }

template __global__ void blockReduce<float, 256>(float *, const float *, int);
template __global__ void blockReduce<int, 128>(int *, const int *, int);

// __CUDA_ARCH__ is defined on the device side only.
__host__ __device__ int whereAmI() {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__;
#else
  return 0;
#endif
}

#if !defined(__CUDACC__) || !defined(__CUDA__)
#error "__CUDACC__ and __CUDA__ must be defined"
#endif
#if CUDART_VERSION < 9000
#error "CUDART_VERSION must be defined"
#endif
