// Test input for device code nvcc 13 compiles and clang 19 alone rejects
// (docs/cuda-environment.md, "nvcc's dialect"): the `register` storage
// class (an error in C++17 for clang), narrowing in a braced initialiser,
// the cache-hinted __ldcs/__stcs of any type (clang's wrapper declares
// none), `__shared__ alignas(N)` (clang wants the alignas first), and
// surface-object writes (clang's wrapper does not include them). Every
// kernel must be analysed through both doors; nvcc 13 compiles and runs the
// file as it is (test/hw/inputs/nvcc-dialect-device.json: the H200's
// numbers).
#include <cuda_runtime.h>

// Stride 4 floats: 16 sectors per request (ideal 4).
__global__ void registerIndex(const float *in, float *out) {
  register int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i * 4] = in[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global store 'out[i * 4]' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) with block (128, 1, 1) from the launch at nvcc-dialect-device.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: 'i' (which differs between adjacent lanes) is multiplied by '4': adjacent lanes are 16 bytes apart
}

// A narrowing initialiser (nvcc: warning 2361), and a column store.
__global__ void narrowedBias(const float *in, float *out) {
  int bias[2] = {1.0, 2.0};
  out[threadIdx.x * 32] = in[threadIdx.x] + bias[threadIdx.x & 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global store 'out[threadIdx.x * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at nvcc-dialect-device.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: 'threadIdx.x' (which differs between adjacent lanes) is multiplied by '32': adjacent lanes are 128 bytes apart
}

// Streaming loads and stores: only v.x of the 16-byte load is used, so
// nvcc loads 4 bytes of it (16 sectors, ideal 4); the store 32 (ideal 4).
__global__ void streaming(const int4 *in, float *out) {
  int4 v = __ldcs(in + threadIdx.x); // CHECK-MESSAGES: :[[@LINE]]:12: warning: global load '__ldcs(in + threadIdx.x)' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) with block (32, 1, 1) from the launch at nvcc-dialect-device.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  __stcs(out + threadIdx.x * 8, v.x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global store '__stcs(out + threadIdx.x * 8, v.x)' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at nvcc-dialect-device.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: adjacent lanes are 32 bytes apart
}

// An aligned one-dimensional buffer read with a stride of 32 words: every
// lane in bank 0.
__global__ void alignedBuffer(const float *in, float *out) {
  __shared__ alignas(16) float buffer[32 * 32];
  buffer[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buffer[threadIdx.x * 32 % 1024];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict reading 'buffer[threadIdx.x * 32 % 1024]': lanes 0-31 all hit bank 0 (32 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at nvcc-dialect-device.cu:{{[0-9]+}} [cuda-shared-bank-conflict]
  // CHECK-MESSAGES: :[[@LINE-2]]:22: note: no padding offered: 'buffer' is one-dimensional
}

// A surface write, and a column store beside it.
__global__ void surfaceWrite(cudaSurfaceObject_t surface, float *out) {
  surf2Dwrite(1.0f, surface, threadIdx.x * (int)sizeof(float), 0);
  out[threadIdx.x * 32] = 2.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global store 'out[threadIdx.x * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 1, 1) from the launch at nvcc-dialect-device.cu:{{[0-9]+}} [cuda-uncoalesced-global-access]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: 'threadIdx.x' (which differs between adjacent lanes) is multiplied by '32': adjacent lanes are 128 bytes apart
}

int main() {
  float *in, *out;
  int4 *in4;
  cudaMalloc(&in, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  cudaMalloc(&in4, 1 << 16);
  registerIndex<<<4, 128>>>(in, out);
  narrowedBias<<<1, 32>>>(in, out);
  streaming<<<1, 32>>>(in4, out);
  alignedBuffer<<<1, 32>>>(in, out);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  cudaMallocArray(&array, &desc, 32, 1, cudaArraySurfaceLoadStore);
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaSurfaceObject_t surface;
  cudaCreateSurfaceObject(&surface, &resource);
  surfaceWrite<<<1, 32>>>(surface, out);
  cudaDeviceSynchronize();
  cudaDestroySurfaceObject(surface);
  cudaFreeArray(array);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last, not first as in clang-tidy's own tests: the H200 records
// of this input (test/hw/inputs/) are keyed by the line numbers above.
// RUN: %check_warpcheck %s 'cuda-*' %t
// RUN: %check_warpcheck -door=binary %s 'cuda-*' %t.no-cuda -- --no-cuda
