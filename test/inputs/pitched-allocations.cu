// Test input for rows allocated with cudaMallocPitch: the kernels take the
// row stride as `pitch / sizeof(float)`, and the pitch is the width rounded
// up to 512 bytes on the H200 (test/hw/malloc_pitch.txt). With the pitch
// known at the launch, every access below is exact; without it, the stride
// would be swept over values that are not pitches (odd ones among them).
#include <cuda_runtime.h>

// Row-major: a warp reads 32 consecutive floats of one row.
__global__ void scaleRows(const float *src, float *dst, int stride, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width)
    dst[y * stride + x] = 2.0f * src[y * stride + x];
}

// Column-major by mistake: adjacent lanes are one pitch (512 bytes) apart.
__global__ void scaleColumns(const float *src, float *dst, int stride, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < height)
    dst[x * stride + y] = 2.0f * src[x * stride + y];
}

int main() {
  const int width = 1000, height = 64, narrow = 100;
  float *src, *dst, *tallSrc, *tallDst;
  size_t pitch = 0, tallPitch = 0;
  // 4000 bytes a row: pitch 4096, a stride of 1024 floats.
  cudaMallocPitch((void **)&src, &pitch, width * sizeof(float), height);
  cudaMallocPitch((void **)&dst, &pitch, width * sizeof(float), height);
  // 400 bytes a row: pitch 512, a stride of 128 floats.
  cudaMallocPitch((void **)&tallSrc, &tallPitch, narrow * sizeof(float), 1024);
  cudaMallocPitch((void **)&tallDst, &tallPitch, narrow * sizeof(float), 1024);
  scaleRows<<<dim3(32, 8), dim3(32, 8)>>>(src, dst, pitch / sizeof(float), width);
  scaleColumns<<<dim3(32, 4), dim3(32, 8)>>>(tallSrc, tallDst, tallPitch / sizeof(float), 1024);
  cudaDeviceSynchronize();
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H200 records of this input are keyed by the line
// numbers above. Only the column-major kernel is reported; the stride is
// the pitch, known at the launch (no assumption on it).
// RUN: %check_warpcheck %s 'cuda-*' %t
// CHECK-MESSAGES: :21:5: warning: global store 'dst[x * stride + y]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 8, 1) from the launch at pitched-allocations.cu:35 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :21:34: warning: global load 'src[x * stride + y]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency) with block (32, 8, 1) from the launch at pitched-allocations.cu:35 [cuda-uncoalesced-global-access]
