// Test input for what nvcc 13 compiles and clang alone rejects in host code
// (docs/cuda-environment.md, "nvcc's dialect"): launches written with
// spaced chevrons, host calls of min/max with mixed argument types, and the
// C library nvcc's headers bring into every pass (time() with no #include).
// Every kernel must be analysed with its launch shape, through
// both doors, exactly as if the file were written for clang. nvcc 13
// compiles and runs it as it is; test/hw/inputs/nvcc-dialect.json holds what
// the H200 measured.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

// Stride 4: 16 sectors per request (ideal 4); the stride is bound at the
// spaced launch below.
__global__ void stridedCopy(const float *in, float *out, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * stride];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load 'in[i * stride]' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) with block (128, 1, 1) from the launch at nvcc-dialect.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'i' (which differs between adjacent lanes) is multiplied by 'stride' (= 4): adjacent lanes are 16 bytes apart
}

// A column read: lanes 128 bytes apart, 32 sectors per request. Launched
// with the chevrons split over lines.
__global__ void columnRead(const float *in, float *out) {
  out[blockIdx.x * 32 + threadIdx.x] = in[threadIdx.x * 32 + blockIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: global load 'in[threadIdx.x * 32 + blockIdx.x]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at nvcc-dialect.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:40: note: 'threadIdx.x' (which differs between adjacent lanes) is multiplied by '32': adjacent lanes are 128 bytes apart
}

// A transpose through a tile without padding: reading a column of the tile
// is a 32-way conflict. Launched with the chevrons spaced on one side only.
__global__ void tileColumn(const float *in, float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 32-way bank conflict reading 'tile[threadIdx.x][threadIdx.y]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 32, 1) from the launch at nvcc-dialect.cu:{{[0-9]+}} [cuda-shared-bank-conflict]
  // CHECK-MESSAGES: :[[@LINE-5]]:20: note: padding the last dimension of 'tile' to 33 removes the conflict and makes no access to it worse (+128 bytes, 3.1%)
}

// Explicit template arguments of operator<< are not a launch: `<< <` after
// the keyword operator is left as it is.
struct Stream {
  int written = 0;
};
template <typename T> Stream &operator<<(Stream &S, const T &) {
  ++S.written;
  return S;
}

int main() {
  const int n = 4096;
  // nvcc's host min/max of mixed types: max(int, unsigned int) is unsigned.
  unsigned int threads = max(n / 64, 128u);
  double scale = min(2.0f, 3.0);
  assert(threads == 128u);
  srand((unsigned)time(0));
  float *in, *out;
  cudaMalloc(&in, 32 * n * sizeof(float));
  cudaMalloc(&out, 32 * n * sizeof(float));
  stridedCopy << < 8, 128 >> > (in, out, 4);
  columnRead << <
      4, 32 >> >
      (in, out);
  dim3 block(32, 32);
  tileColumn<<<1, block >> >(in, out);
  Stream S;
  operator<< <int>(S, n);
  cudaDeviceSynchronize();
  printf("threads %u, scale %.1f, %d written, rand %d\n", threads, scale, S.written,
         rand() % 2 * 0);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
// RUN: %check_warpcheck -door=binary %s 'cuda-*' %t.no-cuda -- --no-cuda
