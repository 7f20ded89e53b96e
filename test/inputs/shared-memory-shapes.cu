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

// Expectations, by absolute line: the lines above are the keys of the H200
// records, so nothing is inserted between them. Each template instance's
// finding names the instance ("in 'strided<int, 2>' with block ..."), so
// both doors print one warning per instance.
// CHECK-MESSAGES: :11:17: warning: kernel 'strided<int4, 16>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24: 16896 bytes of static and 0 bytes of dynamic shared memory per block (17920 allocated) limit sm_90 to 13 blocks of 32 threads (20.3% occupancy); at most 6272 bytes of shared memory per block would allow 32 blocks (50%) [cuda-occupancy]
// CHECK-MESSAGES: :11:17: warning: kernel 'strided<int4, 1>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24: 16896 bytes of static and 0 bytes of dynamic shared memory per block (17920 allocated) limit sm_90 to 13 blocks of 32 threads (20.3% occupancy); at most 6272 bytes of shared memory per block would allow 32 blocks (50%) [cuda-occupancy]
// CHECK-MESSAGES: :11:17: warning: kernel 'strided<int4, 2>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24: 16896 bytes of static and 0 bytes of dynamic shared memory per block (17920 allocated) limit sm_90 to 13 blocks of 32 threads (20.3% occupancy); at most 6272 bytes of shared memory per block would allow 32 blocks (50%) [cuda-occupancy]
// CHECK-MESSAGES: :11:17: warning: kernel 'strided<int4, 32>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24: 16896 bytes of static and 0 bytes of dynamic shared memory per block (17920 allocated) limit sm_90 to 13 blocks of 32 threads (20.3% occupancy); at most 6272 bytes of shared memory per block would allow 32 blocks (50%) [cuda-occupancy]
// CHECK-MESSAGES: :11:17: warning: kernel 'strided<int4, 33>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24: 16896 bytes of static and 0 bytes of dynamic shared memory per block (17920 allocated) limit sm_90 to 13 blocks of 32 threads (20.3% occupancy); at most 6272 bytes of shared memory per block would allow 32 blocks (50%) [cuda-occupancy]
// CHECK-MESSAGES: :11:17: warning: kernel 'strided<int4, 4>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24: 16896 bytes of static and 0 bytes of dynamic shared memory per block (17920 allocated) limit sm_90 to 13 blocks of 32 threads (20.3% occupancy); at most 6272 bytes of shared memory per block would allow 32 blocks (50%) [cuda-occupancy]
// CHECK-MESSAGES: :11:17: warning: kernel 'strided<int4, 8>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24: 16896 bytes of static and 0 bytes of dynamic shared memory per block (17920 allocated) limit sm_90 to 13 blocks of 32 threads (20.3% occupancy); at most 6272 bytes of shared memory per block would allow 32 blocks (50%) [cuda-occupancy]
// CHECK-MESSAGES: :11:17: warning: kernel 'strided<unsigned long long, 16>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23: 8448 bytes of static and 0 bytes of dynamic shared memory per block (9472 allocated) limit sm_90 to 24 blocks of 32 threads (37.5% occupancy); at most 6272 bytes of shared memory per block would allow 32 blocks (50%) [cuda-occupancy]
// CHECK-MESSAGES: :11:17: warning: kernel 'strided<unsigned long long, 1>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23: 8448 bytes of static and 0 bytes of dynamic shared memory per block (9472 allocated) limit sm_90 to 24 blocks of 32 threads (37.5% occupancy); at most 6272 bytes of shared memory per block would allow 32 blocks (50%) [cuda-occupancy]
// CHECK-MESSAGES: :11:17: warning: kernel 'strided<unsigned long long, 2>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23: 8448 bytes of static and 0 bytes of dynamic shared memory per block (9472 allocated) limit sm_90 to 24 blocks of 32 threads (37.5% occupancy); at most 6272 bytes of shared memory per block would allow 32 blocks (50%) [cuda-occupancy]
// CHECK-MESSAGES: :11:17: warning: kernel 'strided<unsigned long long, 32>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23: 8448 bytes of static and 0 bytes of dynamic shared memory per block (9472 allocated) limit sm_90 to 24 blocks of 32 threads (37.5% occupancy); at most 6272 bytes of shared memory per block would allow 32 blocks (50%) [cuda-occupancy]
// CHECK-MESSAGES: :11:17: warning: kernel 'strided<unsigned long long, 33>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23: 8448 bytes of static and 0 bytes of dynamic shared memory per block (9472 allocated) limit sm_90 to 24 blocks of 32 threads (37.5% occupancy); at most 6272 bytes of shared memory per block would allow 32 blocks (50%) [cuda-occupancy]
// CHECK-MESSAGES: :11:17: warning: kernel 'strided<unsigned long long, 4>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23: 8448 bytes of static and 0 bytes of dynamic shared memory per block (9472 allocated) limit sm_90 to 24 blocks of 32 threads (37.5% occupancy); at most 6272 bytes of shared memory per block would allow 32 blocks (50%) [cuda-occupancy]
// CHECK-MESSAGES: :11:17: warning: kernel 'strided<unsigned long long, 8>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23: 8448 bytes of static and 0 bytes of dynamic shared memory per block (9472 allocated) limit sm_90 to 24 blocks of 32 threads (37.5% occupancy); at most 6272 bytes of shared memory per block would allow 32 blocks (50%) [cuda-occupancy]
// CHECK-MESSAGES: :13:3: warning: 16-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 hit bank 0 with different words (16 wavefronts per request, ideal 1) in 'strided<unsigned int, 16>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:22 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 16-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 hit bank 0 with different words (16 wavefronts per request, ideal 1) in 'strided<unsigned short, 32>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:21 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 16-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0-15 hit bank 0 with different words (32 wavefronts per request, ideal 2) in 'strided<unsigned long long, 16>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 16-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0-15 hit bank 0 with different words (32 wavefronts per request, ideal 2) in 'strided<unsigned long long, 32>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 2-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0, 16 hit bank 0 with different words (2 wavefronts per request, ideal 1) in 'strided<unsigned char, 8>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:20 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 2-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0, 16 hit bank 0 with different words (2 wavefronts per request, ideal 1) in 'strided<unsigned int, 2>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:22 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 2-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0, 16 hit bank 0 with different words (2 wavefronts per request, ideal 1) in 'strided<unsigned short, 4>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:21 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 2-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0, 4 hit bank 0 with different words (8 wavefronts per request, ideal 4) in 'strided<int4, 2>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 2-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0, 8 hit bank 0 with different words (4 wavefronts per request, ideal 2) in 'strided<unsigned long long, 2>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 32-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) in 'strided<unsigned int, 32>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:22 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 4-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0, 2, 4, 6 hit bank 0 with different words (16 wavefronts per request, ideal 4) in 'strided<int4, 4>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 4-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0, 4, 8, 12 hit bank 0 with different words (8 wavefronts per request, ideal 2) in 'strided<unsigned long long, 4>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 4-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0, 8, 16, 24 hit bank 0 with different words (4 wavefronts per request, ideal 1) in 'strided<unsigned char, 16>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:20 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 4-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0, 8, 16, 24 hit bank 0 with different words (4 wavefronts per request, ideal 1) in 'strided<unsigned int, 4>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:22 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 4-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0, 8, 16, 24 hit bank 0 with different words (4 wavefronts per request, ideal 1) in 'strided<unsigned short, 8>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:21 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 8-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0, 2, 4, 6, 8, 10, 12, 14 hit bank 0 with different words (16 wavefronts per request, ideal 2) in 'strided<unsigned long long, 8>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 8-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 0 with different words (8 wavefronts per request, ideal 1) in 'strided<unsigned char, 32>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:20 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 8-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 0 with different words (8 wavefronts per request, ideal 1) in 'strided<unsigned int, 8>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:22 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 8-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 0 with different words (8 wavefronts per request, ideal 1) in 'strided<unsigned short, 16>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:21 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 8-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0-7 hit bank 0 with different words (32 wavefronts per request, ideal 4) in 'strided<int4, 16>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 8-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0-7 hit bank 0 with different words (32 wavefronts per request, ideal 4) in 'strided<int4, 32>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :13:3: warning: 8-way bank conflict writing 'buf[threadIdx.x * Stride]': lanes 0-7 hit bank 0 with different words (32 wavefronts per request, ideal 4) in 'strided<int4, 8>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 16-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 hit bank 0 with different words (16 wavefronts per request, ideal 1) in 'strided<unsigned int, 16>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:22 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 16-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 hit bank 0 with different words (16 wavefronts per request, ideal 1) in 'strided<unsigned short, 32>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:21 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 16-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0-15 hit bank 0 with different words (32 wavefronts per request, ideal 2) in 'strided<unsigned long long, 16>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 16-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0-15 hit bank 0 with different words (32 wavefronts per request, ideal 2) in 'strided<unsigned long long, 32>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 2-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0, 16 hit bank 0 with different words (2 wavefronts per request, ideal 1) in 'strided<unsigned char, 8>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:20 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 2-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0, 16 hit bank 0 with different words (2 wavefronts per request, ideal 1) in 'strided<unsigned int, 2>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:22 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 2-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0, 16 hit bank 0 with different words (2 wavefronts per request, ideal 1) in 'strided<unsigned short, 4>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:21 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 2-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0, 4 hit bank 0 with different words (8 wavefronts per request, ideal 4) in 'strided<int4, 2>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 2-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0, 8 hit bank 0 with different words (4 wavefronts per request, ideal 2) in 'strided<unsigned long long, 2>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 32-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) in 'strided<unsigned int, 32>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:22 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 4-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0, 2, 4, 6 hit bank 0 with different words (16 wavefronts per request, ideal 4) in 'strided<int4, 4>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 4-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0, 4, 8, 12 hit bank 0 with different words (8 wavefronts per request, ideal 2) in 'strided<unsigned long long, 4>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 4-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0, 8, 16, 24 hit bank 0 with different words (4 wavefronts per request, ideal 1) in 'strided<unsigned char, 16>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:20 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 4-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0, 8, 16, 24 hit bank 0 with different words (4 wavefronts per request, ideal 1) in 'strided<unsigned int, 4>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:22 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 4-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0, 8, 16, 24 hit bank 0 with different words (4 wavefronts per request, ideal 1) in 'strided<unsigned short, 8>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:21 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 8-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0, 2, 4, 6, 8, 10, 12, 14 hit bank 0 with different words (16 wavefronts per request, ideal 2) in 'strided<unsigned long long, 8>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:23 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 8-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 0 with different words (8 wavefronts per request, ideal 1) in 'strided<unsigned char, 32>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:20 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 8-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 0 with different words (8 wavefronts per request, ideal 1) in 'strided<unsigned int, 8>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:22 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 8-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 0 with different words (8 wavefronts per request, ideal 1) in 'strided<unsigned short, 16>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:21 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 8-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0-7 hit bank 0 with different words (32 wavefronts per request, ideal 4) in 'strided<int4, 16>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 8-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0-7 hit bank 0 with different words (32 wavefronts per request, ideal 4) in 'strided<int4, 32>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :15:9: warning: 8-way bank conflict reading 'buf[threadIdx.x * Stride]': lanes 0-7 hit bank 0 with different words (32 wavefronts per request, ideal 4) in 'strided<int4, 8>' with block (32, 1, 1) from the launch at shared-memory-shapes.cu:24 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :53:3: warning: 2-way bank conflict atomically updating 'atomicAdd(&bins[(threadIdx.x * 2) % 64], 1u)': lanes 0, 16 hit bank 0 with different words (2 wavefronts per request, ideal 1) with block (128, 1, 1) from the launch at shared-memory-shapes.cu:102 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :64:3: warning: 2-way bank conflict writing 'second[threadIdx.x * 2]': lanes 0, 16 hit bank 0 with different words (2 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at shared-memory-shapes.cu:103 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :68:14: warning: 2-way bank conflict reading 'wide[threadIdx.x * 2]': lanes 0, 8 hit bank 0 with different words (4 wavefronts per request, ideal 2) with block (32, 1, 1) from the launch at shared-memory-shapes.cu:103 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :72:73: warning: 32-way bank conflict reading 'tile[row * pitch]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at shared-memory-shapes.cu:104 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :79:3: warning: 32-way bank conflict writing 'grid[threadIdx.x * 32]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at shared-memory-shapes.cu:104 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :80:3: warning: 2-way bank conflict writing 'cells[threadIdx.x].count': lanes 0, 16 hit bank 1 with different words (2 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at shared-memory-shapes.cu:104 [cuda-shared-bank-conflict]
// CHECK-MESSAGES: :83:11: warning: 2-way bank conflict reading 'cells[threadIdx.x].count': lanes 0, 16 hit bank 1 with different words (2 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at shared-memory-shapes.cu:104 [cuda-shared-bank-conflict]

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
