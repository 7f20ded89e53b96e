// Parses with NO CUDA toolkit (see check-parse.sh): the host runtime API
// around kernels and every form of the <<<grid, block, smem, stream>>>
// launch, with dim3 variables, templates and dynamic shared memory.

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CUDA_CHECK(Expr)                                                       \
  do {                                                                         \
    cudaError_t Err = (Expr);                                                  \
    if (Err != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,             \
                   cudaGetErrorString(Err), cudaGetErrorName(Err));            \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__constant__ float kScale[4];

__global__ void saxpy(int N, float A, const float *X, float *Y) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[I] = A * X[I] + Y[I];
}

template <typename T, int TileSize>
__global__ void tiledCopy(T *Out, const T *In, int Width) {
  extern __shared__ float DynamicShared[];
  T *Tile = reinterpret_cast<T *>(DynamicShared);
  int X = blockIdx.x * TileSize + threadIdx.x;
  int Y = blockIdx.y * TileSize + threadIdx.y;
  Tile[threadIdx.y * TileSize + threadIdx.x] = In[Y * Width + X];
  __syncthreads();
  Out[Y * Width + X] = Tile[threadIdx.y * TileSize + threadIdx.x];
}

__global__ void noArgs() {}

int main() {
  const int N = 1 << 20;
  std::vector<float> Host(N, 1.0f);
  float *X = nullptr, *Y = nullptr;
  void *Raw = nullptr;

  int DeviceCount = 0, Device = 0;
  CUDA_CHECK(cudaGetDeviceCount(&DeviceCount));
  CUDA_CHECK(cudaSetDevice(0));
  CUDA_CHECK(cudaGetDevice(&Device));
  cudaDeviceProp Prop;
  CUDA_CHECK(cudaGetDeviceProperties(&Prop, Device));
  std::printf("%s: sm_%d%d, %d SMs, %zu B shared/block, warp %d\n", Prop.name,
              Prop.major, Prop.minor, Prop.multiProcessorCount,
              Prop.sharedMemPerBlock, Prop.warpSize);
  int SmemOptin = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(
      &SmemOptin, cudaDevAttrMaxSharedMemoryPerBlockOptin, Device));

  CUDA_CHECK(cudaMalloc(&X, N * sizeof(float)));            // typed (template)
  CUDA_CHECK(cudaMalloc((void **)&Y, N * sizeof(float)));   // C API
  CUDA_CHECK(cudaMalloc(&Raw, 64));
  CUDA_CHECK(cudaMemcpy(X, Host.data(), N * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(Y, 0, N * sizeof(float)));
  float Scale[4] = {1, 2, 3, 4};
  CUDA_CHECK(cudaMemcpyToSymbol(kScale, Scale, sizeof(Scale)));

  cudaStream_t Stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking));
  cudaEvent_t Start, Stop;
  CUDA_CHECK(cudaEventCreate(&Start));
  CUDA_CHECK(cudaEventCreate(&Stop));

  // Launch forms: integers, dim3 variables, dynamic shared memory, stream.
  const int Block = 256;
  saxpy<<<(N + Block - 1) / Block, Block>>>(N, 2.0f, X, Y);
  dim3 Grid((N + 255) / 256);
  dim3 Threads(256);
  CUDA_CHECK(cudaEventRecord(Start, Stream));
  saxpy<<<Grid, Threads, 0, Stream>>>(N, 2.0f, X, Y);
  CUDA_CHECK(cudaEventRecord(Stop, Stream));
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaPeekAtLastError());

  dim3 Grid2(1024 / 32, 1024 / 32), Block2(32, 32);
  size_t Smem = 32 * 32 * sizeof(float);
  tiledCopy<float, 32><<<Grid2, Block2, Smem>>>(X, Y, 1024);
  tiledCopy<float, 32><<<Grid2, Block2, Smem, Stream>>>(X, Y, 1024);
  tiledCopy<int, 16><<<dim3(64, 64), dim3(16, 16), 16 * 16 * sizeof(int),
                       cudaStreamPerThread>>>((int *)X, (const int *)Y, 1024);
  noArgs<<<1, 1>>>();

  // Attributes, occupancy, explicit launch API.
  CUDA_CHECK(cudaFuncSetAttribute(tiledCopy<float, 32>,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  64 * 1024));
  CUDA_CHECK(cudaFuncSetAttribute((const void *)saxpy,
                                  cudaFuncAttributePreferredSharedMemoryCarveout,
                                  cudaSharedmemCarveoutMaxShared));
  cudaFuncAttributes Attr;
  CUDA_CHECK(cudaFuncGetAttributes(&Attr, saxpy));
  int BlocksPerSm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&BlocksPerSm, saxpy,
                                                           Block, 0));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &BlocksPerSm, (const void *)saxpy, Block, Smem));
  int MinGrid = 0, BestBlock = 0;
  cudaOccupancyMaxPotentialBlockSize(&MinGrid, &BestBlock, saxpy, 0, 0);
  int NArg = N;
  float AArg = 3.0f;
  void *Args[] = {&NArg, &AArg, &X, &Y};
  CUDA_CHECK(cudaLaunchKernel((const void *)saxpy, Grid, Threads, Args, 0,
                              Stream));
  CUDA_CHECK(cudaLaunchKernel(saxpy, Grid, Threads, Args));

  CUDA_CHECK(cudaMemcpyAsync(Host.data(), Y, N * sizeof(float),
                             cudaMemcpyDeviceToHost, Stream));
  CUDA_CHECK(cudaStreamSynchronize(Stream));
  CUDA_CHECK(cudaEventSynchronize(Stop));
  float Ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaEventDestroy(Start));
  CUDA_CHECK(cudaEventDestroy(Stop));
  CUDA_CHECK(cudaStreamDestroy(Stream));
  CUDA_CHECK(cudaFree(X));
  CUDA_CHECK(cudaFree(Y));
  CUDA_CHECK(cudaFree(Raw));
  float *Pinned = nullptr;
  CUDA_CHECK(cudaMallocHost(&Pinned, 1024));
  CUDA_CHECK(cudaFreeHost(Pinned));
  float *Managed = nullptr;
  CUDA_CHECK(cudaMallocManaged(&Managed, 1024));
  CUDA_CHECK(cudaFree(Managed));
  std::printf("%f ms\n", Ms);
  return cudaDeviceReset() == cudaSuccess ? 0 : 1;
}
