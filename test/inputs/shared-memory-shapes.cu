// Shared-memory access shapes for the bank model, end to end from source:
// every access width (1, 2, 4, 8, 16 bytes) at lane strides 1, 2, 4, 8, 16,
// 32 and 33 elements, a tiled matrix multiply, a shared histogram, dynamic
// (extern) shared memory with offsets and casts, a shared pointer passed to
// a __device__ function and a struct-typed shared array. A runnable program:
// test/hw/ holds what Nsight Compute measured for each access. One shared
// access of each kind per source line.
#include <cuda_runtime.h>

template <typename T, int Stride>
__global__ void strided(T *out) {
  __shared__ T buf[32 * 33];
  buf[threadIdx.x * Stride] = out[threadIdx.x];
  __syncthreads();
  T v = buf[threadIdx.x * Stride];
  out[threadIdx.x] = v;
}

template <int Stride> void launchAllWidths(void *p) {
  strided<unsigned char, Stride><<<1, 32>>>((unsigned char *)p);
  strided<unsigned short, Stride><<<1, 32>>>((unsigned short *)p);
  strided<unsigned, Stride><<<1, 32>>>((unsigned *)p);
  strided<unsigned long long, Stride><<<1, 32>>>((unsigned long long *)p);
  strided<int4, Stride><<<1, 32>>>((int4 *)p);
}

#define T 16
__global__ void matmulTiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0;
  for (int t = 0; t < n / T; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * T + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * T + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < T; ++k) {
      float a = As[threadIdx.y][k];
      float b = Bs[k][threadIdx.x];
      acc += a * b;
    }
    __syncthreads();
  }
  C[row * n + col] = acc;
}

__global__ void histogram(unsigned *out) {
  __shared__ unsigned bins[64];
  if (threadIdx.x < 64)
    bins[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&bins[threadIdx.x % 8], 1u);
  atomicAdd(&bins[(threadIdx.x * 2) % 64], 1u);
  __syncthreads();
  if (threadIdx.x < 64)
    out[threadIdx.x] = bins[threadIdx.x];
}

__global__ void dynamicShared(float *out, int n) {
  extern __shared__ float smem[];
  float *second = smem + n;
  double *wide = reinterpret_cast<double *>(smem + 2 * n);
  smem[threadIdx.x] = 1.0f;
  second[threadIdx.x * 2] = 2.0f;
  wide[threadIdx.x] = 3.0;
  __syncthreads();
  float a = second[threadIdx.x];
  double b = wide[threadIdx.x * 2];
  out[threadIdx.x] = a + (float)b;
}

__device__ float column(const float *tile, int row, int pitch) { return tile[row * pitch]; }

struct Cell { float value; int count; };

__global__ void pointersAndStructs(float *out) {
  __shared__ float grid[32 * 32];
  __shared__ Cell cells[64];
  grid[threadIdx.x * 32] = threadIdx.x;
  cells[threadIdx.x].count = 1;
  __syncthreads();
  float c = column(grid, threadIdx.x, 32);
  int k = cells[threadIdx.x].count;
  out[threadIdx.x] = c + k;
}

int main() {
  void *buf;
  float *A, *B, *C;
  cudaMalloc(&buf, 1 << 20);
  cudaMalloc(&A, 64 * 64 * 4);
  cudaMalloc(&B, 64 * 64 * 4);
  cudaMalloc(&C, 64 * 64 * 4);
  launchAllWidths<1>(buf);
  launchAllWidths<2>(buf);
  launchAllWidths<4>(buf);
  launchAllWidths<8>(buf);
  launchAllWidths<16>(buf);
  launchAllWidths<32>(buf);
  launchAllWidths<33>(buf);
  matmulTiled<<<dim3(4, 4), dim3(T, T)>>>(A, B, C, 64);
  histogram<<<1, 128>>>((unsigned *)buf);
  dynamicShared<<<1, 32, 4096>>>((float *)buf, 128);
  pointersAndStructs<<<1, 32>>>((float *)buf);
  cudaDeviceSynchronize();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
