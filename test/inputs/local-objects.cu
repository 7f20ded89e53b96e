// Test input for accesses made through local objects: helper structs whose
// methods index a pointer member, functors and lambdas, the conversion
// operator that hands out dynamic shared memory, pointers to members, and
// structs passed to, returned from and held in arrays by device functions.
// One kernel per pattern, each launched from main() with a literal shape so
// the program also runs on a GPU. The numbers are those of an H200: 32-byte
// sectors (ideal 4 per warp for 4-byte lanes), 32 banks of 4 bytes.
#include <cuda_runtime.h>

// A loader object: its method reads p[i * 2], adjacent lanes 8 bytes apart:
// the warp spans 256 bytes, 8 sectors where 4 would do (50%). 50% is not
// below the check's default MinEfficiency (50): no finding; the JSON report
// has the 8 sectors (robustness/local-objects.cu asserts the same shape).
struct PairLoader {
  const float *p;
  unsigned i;
  __device__ float load() const { return p[i * 2]; }
};

__global__ void helperObject(const float *in, float *out) {
  PairLoader l{in, threadIdx.x};
  out[blockIdx.x * blockDim.x + threadIdx.x] = l.load();
}

// A writer object built by its constructor: it stores column `col` of a
// 32 x 32 tile held row-major, lane L at word 32 L: every lane in bank 0,
// 32 wavefronts instead of 1.
struct ColumnWriter {
  float *tile;
  unsigned col;
  __device__ ColumnWriter(float *t, unsigned c) : tile(t), col(c) {}
  __device__ void put(unsigned row, float v) { tile[row * 32 + col] = v; }
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: 32-way bank conflict writing 'tile[row * 32 + col]'
};

__global__ void constructedWriter(const float *in, float *out) {
  __shared__ float tile[32 * 32];
  ColumnWriter w(tile, 0);
  w.put(threadIdx.x, in[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}

// A functor over a __shared__ array with stride 2 words: lanes L and L + 16
// hit the same bank with different words: 2-way, 2 wavefronts.
struct StridedRead {
  const float *s;
  int stride;
  __device__ float operator()(int i) const { return s[i * stride]; }
  // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: 2-way bank conflict reading 's[i * stride]'
};

__global__ void functorShared(const float *in, float *out) {
  __shared__ float buf[64];
  buf[threadIdx.x] = in[threadIdx.x];
  buf[threadIdx.x + 32] = in[threadIdx.x + 32];
  __syncthreads();
  StridedRead at{buf, 2};
  out[threadIdx.x] = at(threadIdx.x);
}

// A lambda over a __shared__ array, its stride captured by copy (4 words):
// 8 banks, 4 different words each: 4-way, 4 wavefronts.
__global__ void lambdaShared(const float *in, float *out) {
  __shared__ float s[128];
  for (int k = 0; k < 4; ++k)
    s[threadIdx.x + 32 * k] = in[threadIdx.x + 32 * k];
  __syncthreads();
  int stride = 4;
  auto at = [=](int i) { return s[i * stride]; };
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 4-way bank conflict reading 's[i * stride]'
  out[threadIdx.x] = at(threadIdx.x);
}

// A lambda capturing its stride by reference sees the value set after it
// was made: 8 floats, 32 bytes between lanes, 32 sectors (12.5%).
__global__ void lambdaByReference(const float *in, float *out) {
  int stride = 1;
  auto load = [&](int i) { return in[i * stride]; };
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: global load 'in[i * stride]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency)
  stride = 8;
  out[threadIdx.x] = load(threadIdx.x);
}

// Dynamic shared memory handed out by a conversion operator: the block's
// one extern __shared__ array, seen as the kernel's element type.
template <class T> struct DynamicShared {
  __device__ operator T *() {
    extern __shared__ int dynamicSmemWords[];
    return reinterpret_cast<T *>(dynamicSmemWords);
  }
};

// Lanes read the word of their neighbour (tid ^ 1): 32 banks, one word
// each: conflict-free, no finding.
template <class T> __global__ void conversionConflictFree(const T *in, T *out) {
  T *s = DynamicShared<T>();
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}

// Lanes 32 words apart: all 32 in bank 0: 32-way, 32 wavefronts.
template <class T> __global__ void conversionColumn(const T *in, T *out) {
  T *s = DynamicShared<T>();
  s[threadIdx.x * 32] = in[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 32-way bank conflict writing 's[threadIdx.x * 32]'
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// A view struct passed by value and by reference to device functions, and
// returned by value from one: 4 floats (16 bytes) between lanes: the warp
// spans 512 bytes, 16 sectors (25%).
struct Span {
  float *base;
  int stride;
};

__device__ Span makeSpan(float *p, int stride) { return Span{p, stride}; }

__device__ void storeAt(Span v, int i, float x) { v.base[i * v.stride] = x; }
// CHECK-MESSAGES: :[[@LINE-1]]:51: warning: global store 'v.base[i * v.stride]' touches 16 sectors per warp request (ideal 4, 25.0% efficiency)

__device__ float loadAt(const Span &v, int i) { return v.base[i * v.stride]; }
// CHECK-MESSAGES: :[[@LINE-1]]:56: warning: global load 'v.base[i * v.stride]' touches 16 sectors per warp request (ideal 4, 25.0% efficiency)

__global__ void spansToFunctions(float *a, float *b) {
  Span in = makeSpan(a, 4);
  Span out{b, 4};
  storeAt(out, threadIdx.x, loadAt(in, threadIdx.x));
}

// An array of structs held locally: the second entry's stride is 3 floats,
// 12 bytes between lanes: the warp spans 384 bytes, 12 sectors (33.3%).
__global__ void localArrayOfSpans(float *a, float *b, float *out) {
  Span spans[2] = {{a, 1}, {b, 3}};
  out[threadIdx.x] = spans[0].base[threadIdx.x * spans[0].stride] +
                     spans[1].base[threadIdx.x * spans[1].stride];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: global load 'spans[1].base[threadIdx.x * spans[1].stride]' touches 12 sectors per warp request (ideal 4, 33.3% efficiency)
}

// A pointer to a data member picks the second pointer of a local pair:
// stores 3 floats apart: the warp spans 384 bytes, 12 sectors (33.3%).
struct PointerPair {
  float *first;
  float *second;
};

__global__ void memberPointer(float *x, float *y) {
  PointerPair pp{x, y};
  float *PointerPair::*which = &PointerPair::second;
  (pp.*which)[threadIdx.x * 3] = 1.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global store '(pp.*which)[threadIdx.x * 3]' touches 12 sectors per warp request (ideal 4, 33.3% efficiency)
}

// A lambda handed to a device function template, called there: its
// by-reference capture `in` is the kernel's. Words 2 i of a shared array:
// lanes L and L + 16 share a bank: 2-way, 2 wavefronts, each step.
template <class F> __device__ void forEachOfTwoTiles(F f) {
  for (int k = 0; k < 2; ++k)
    f(k * 32 + static_cast<int>(threadIdx.x));
}

__global__ void lambdaPassedToFunction(const float *in, float *out) {
  __shared__ float s[128];
  forEachOfTwoTiles([&](int i) { s[i * 2] = in[i]; });
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 2-way bank conflict writing 's[i * 2]'
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

int main() {
  float *a, *b, *c;
  cudaMalloc(&a, 1 << 20);
  cudaMalloc(&b, 1 << 20);
  cudaMalloc(&c, 1 << 20);
  helperObject<<<4, 128>>>(a, b);
  constructedWriter<<<1, 32>>>(a, b);
  functorShared<<<1, 32>>>(a, b);
  lambdaShared<<<1, 32>>>(a, b);
  lambdaByReference<<<1, 32>>>(a, b);
  conversionConflictFree<float><<<1, 32, 32 * sizeof(float)>>>(a, b);
  conversionColumn<float><<<1, 32, 32 * 32 * sizeof(float)>>>(a, b);
  spansToFunctions<<<1, 32>>>(a, b);
  localArrayOfSpans<<<1, 32>>>(a, b, c);
  memberPointer<<<1, 32>>>(a, b);
  lambdaPassedToFunction<<<1, 32>>>(a, b);
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
