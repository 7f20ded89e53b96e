// The constructs the index engine follows, one kernel each, with a known
// launch so the program runs on a GPU: test/hw/ holds the sectors per request
// Nsight Compute measured for every access here and CI compares them with
// warpcheck --format=json. One global access of each kind per source line,
// so per-line counters belong to one access.
#include <cuda_runtime.h>

#define STRIDE 2
constexpr int Pitch = 1024;
enum { EnumPitch = 33 };

__global__ void literalsAndMacros(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[i * STRIDE];
  float b = in[threadIdx.x * EnumPitch + 4096];
  out[i] = a + b;
}

template <int S>
__global__ void templated(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * S];
}

__global__ void bitOperators(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int a = in[(i >> 1) << 2];
  int b = in[i ^ 1];
  int c = in[(i % 8) * 32 + i / 8];
  int d = in[i & ~3];
  out[i] = a + b + c + d;
}

__global__ void castsAndWidths(const float *in, float *out) {
  unsigned t = threadIdx.x;
  float a = in[(unsigned char)(t * 40)];
  float b = in[(long long)t * 2 + 8192];
  float c = in[(short)(t - 1) + 64];
  out[t] = a + b + c;
}

__global__ void ternaryAndLocals(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i;
  j *= 2;
  j += 1;
  ++j;
  float a = in[j];
  float b = in[i % 2 ? i : i + 64];
  out[i] = a + b;
}

__global__ void loops(const float *in, float *out, int rows) {
  int i = threadIdx.x;
  float s = 0;
  for (int k = 0; k < rows; ++k)
    s += in[k * Pitch + i];
  int k = 0;
  while (k < 3) {
    s += in[i * 4 + k];
    k++;
  }
  out[i] = s;
}

__global__ void gridStride(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = 2.0f * in[i];
}

__global__ void pointerArithmetic(const float *in, float *out) {
  const float *row = in + blockIdx.x * Pitch;
  const float *p = row + 3;
  float a = p[threadIdx.x * 2];
  p += 64;
  float b = *(p + threadIdx.x);
  float *o = &out[blockIdx.x * blockDim.x];
  o[threadIdx.x] = a + b;
}

__global__ void multiDimensional(const float *in, float *out) {
  const float(*m)[64] = reinterpret_cast<const float(*)[64]>(in);
  float a = m[threadIdx.x][5];
  float b = m[5][threadIdx.x];
  out[threadIdx.x] = a + b;
}

__global__ void vectorTypes(const float *in, float4 *out4, double2 *outd) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = reinterpret_cast<const float4 *>(in)[i];
  float2 w = reinterpret_cast<const float2 *>(in)[i * 2 + 4096];
  out4[i] = make_float4(v.x + w.x, v.y + w.y, v.z, v.w);
  outd[i * 2] = make_double2(v.x, w.y);
}

__global__ void readOnlyPaths(const float *__restrict__ in, const float *in2,
                              float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[i * 2];
  float b = __ldg(&in2[i * 4]);
  out[i] = a + b;
}

__global__ void atomics(float *hist, int *counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&hist[i % 8], 1.0f);
  atomicAdd(&counts[i * 8], 1);
}

__device__ float loadEveryOther(const float *p, int k) { return p[k * 2]; }
__device__ void storeAt(float *p, int k, float v) { p[k] = v; }

__global__ void deviceFunctions(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = loadEveryOther(in, i);
  storeAt(out, i * 3, v);
}

__global__ void dataDependent(const float *in, const int *idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = idx[i];
  out[i] = in[j];
}

__global__ void guardedPartial(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i * 2];
}

__global__ void launchedTwice(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[threadIdx.y * 32 + threadIdx.x * 3];
}

__global__ void viaLaunchKernel(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 4];
}

int main() {
  float *in, *out, *hist;
  int *iin, *iout, *counts, *idx;
  float4 *out4;
  double2 *outd;
  cudaMalloc(&in, 1 << 24);
  cudaMalloc(&out, 1 << 24);
  cudaMalloc(&hist, 1 << 16);
  cudaMalloc(&iin, 1 << 20);
  cudaMalloc(&iout, 1 << 20);
  cudaMalloc(&counts, 1 << 20);
  cudaMalloc(&idx, 1 << 20);
  cudaMalloc(&out4, 1 << 20);
  cudaMalloc(&outd, 1 << 20);
  cudaMemset(idx, 0, 1 << 20);
  literalsAndMacros<<<4, 128>>>(in, out);
  templated<1><<<4, 128>>>(in, out);
  templated<4><<<4, 128>>>(in, out);
  bitOperators<<<4, 128>>>(iin, iout);
  castsAndWidths<<<1, 256>>>(in, out);
  ternaryAndLocals<<<4, 128>>>(in, out);
  loops<<<1, 128>>>(in, out, 4);
  gridStride<<<2, 128>>>(in, out, 1024);
  pointerArithmetic<<<4, 128>>>(in, out);
  multiDimensional<<<1, 64>>>(in, out);
  vectorTypes<<<2, 128>>>(in, out4, outd);
  readOnlyPaths<<<4, 128>>>(in, in, out);
  atomics<<<4, 128>>>(hist, counts);
  deviceFunctions<<<4, 128>>>(in, out);
  dataDependent<<<4, 128>>>(in, idx, out);
  guardedPartial<<<4, 64>>>(in, out, 200);
  launchedTwice<<<4, 128>>>(in, out);
  launchedTwice<<<2, dim3(16, 16)>>>(in, out);
  void *args[] = {&in, &out};
  cudaLaunchKernel((const void *)viaLaunchKernel, dim3(4), dim3(96), args, 0, 0);
  cudaDeviceSynchronize();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// Expectations, by absolute line: the lines above are the keys of the H200
// records, so nothing is inserted between them.
// CHECK-MESSAGES: :15:13: warning: global load 'in[threadIdx.x * EnumPitch + 4096]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (128, 1, 1) from the launch at index-engine.cu:157 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :22:12: warning: global load 'in[i * S]' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) in 'templated<4>' with block (128, 1, 1) from the launch at index-engine.cu:159 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :27:11: warning: global load 'in[(i >> 1) << 2]' touches 8 sectors per warp request (ideal 2, 25.0% efficiency) with block (128, 1, 1) from the launch at index-engine.cu:160 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :30:11: warning: global load 'in[i & ~3]' touches 4 sectors per warp request (ideal 1, 25.0% efficiency) with block (128, 1, 1) from the launch at index-engine.cu:160 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :36:13: warning: global load 'in[(unsigned char)(t * 40)]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (256, 1, 1) from the launch at index-engine.cu:161 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :38:13: warning: global load 'in[(short)(t - 1) + 64]' is misaligned: it touches 5 sectors per warp request (ideal 4, 80.0% efficiency) with block (256, 1, 1) from the launch at index-engine.cu:161 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :48:13: warning: global load 'in[j]' touches 9 sectors per warp request (ideal 4, 44.4% efficiency) with block (128, 1, 1) from the launch at index-engine.cu:162 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :60:10: warning: global load 'in[i * 4 + k]' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) with block (128, 1, 1) from the launch at index-engine.cu:163 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :75:13: warning: global load 'p[threadIdx.x * 2]' touches 9 sectors per warp request (ideal 4, 44.4% efficiency) with block (128, 1, 1) from the launch at index-engine.cu:165 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :77:13: warning: global load '*(p + threadIdx.x)' is misaligned: it touches 5 sectors per warp request (ideal 4, 80.0% efficiency) with block (128, 1, 1) from the launch at index-engine.cu:165 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :84:13: warning: global load 'm[threadIdx.x][5]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (64, 1, 1) from the launch at index-engine.cu:166 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :101:13: warning: global load '__ldg(&in2[i * 4])' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) with block (128, 1, 1) from the launch at index-engine.cu:168 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :107:3: warning: global atomic 'atomicAdd(&hist[i % 8], 1.0f)' touches 4 sectors per warp request (ideal 1, 25.0% efficiency) with block (128, 1, 1) from the launch at index-engine.cu:169 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :108:3: warning: global atomic 'atomicAdd(&counts[i * 8], 1)' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (128, 1, 1) from the launch at index-engine.cu:169 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :112:53: warning: global store 'p[k]' touches 12 sectors per warp request (ideal 4, 33.3% efficiency) with block (128, 1, 1) from the launch at index-engine.cu:170 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :134:12: warning: global load 'in[threadIdx.y * 32 + threadIdx.x * 3]' touches 10 sectors per warp request (ideal 4, 40.0% efficiency) with block (16, 16, 1) from the launch at index-engine.cu:174 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :134:12: warning: global load 'in[threadIdx.y * 32 + threadIdx.x * 3]' touches 12 sectors per warp request (ideal 4, 33.3% efficiency) with block (128, 1, 1) from the launch at index-engine.cu:173 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :139:12: warning: global load 'in[i * 4]' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) with block (96, 1, 1) from the launch at index-engine.cu:176 [cuda-uncoalesced-global-access]

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
