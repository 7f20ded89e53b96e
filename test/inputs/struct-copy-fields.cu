// Test input for structs read whole from global memory into a local of
// which only some fields are used, as particle codes read a position
// (`double4 ipos = position[i]`, x, y and z used). nvcc loads only the
// bytes read: each piece of the copy (its alignment, at most 16 bytes)
// narrowed to the span of its fields read, rounded up to an aligned power
// of two. Every field read (allOfDouble4) is the whole copy, in 16-byte
// pieces.
#include <cuda_runtime.h>

struct Six {
  float a, b, c, d, e, f;
};

__global__ void xyzOfDouble4(const double4 *p, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double4 v = p[i];
  out[i] = v.x + v.y + v.z;
}

__global__ void wOfDouble4(const double4 *p, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double4 v = p[i];
  out[i] = v.w;
}

__global__ void allOfDouble4(const double4 *p, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double4 v = p[i];
  out[i] = v.x + v.y + v.z + v.w;
}

__global__ void xOfFloat4(const float4 *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = p[i];
  out[i] = v.x;
}

__global__ void yzOfFloat4(const float4 *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = p[i];
  out[i] = v.y * v.z;
}

__global__ void acOfSix(const Six *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Six s = p[i];
  out[i] = s.a - s.c;
}

int main() {
  const int n = 1 << 15;
  double4 *d4;
  float4 *f4;
  Six *six;
  double *od;
  float *of;
  cudaMalloc(&d4, n * sizeof(double4));
  cudaMalloc(&f4, n * sizeof(float4));
  cudaMalloc(&six, n * sizeof(Six));
  cudaMalloc(&od, n * sizeof(double));
  cudaMalloc(&of, n * sizeof(float));
  xyzOfDouble4<<<n / 256, 256>>>(d4, od);
  wOfDouble4<<<n / 256, 256>>>(d4, od);
  allOfDouble4<<<n / 256, 256>>>(d4, od);
  xOfFloat4<<<n / 256, 256>>>(f4, of);
  yzOfFloat4<<<n / 256, 256>>>(f4, of);
  acOfSix<<<n / 256, 256>>>(six, of);
  cudaDeviceSynchronize();
  return 0;
}

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// lines are last: the H100 records of this input are keyed by the line
// numbers above.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
// CHECK-MESSAGES: :16:15: warning: global load 'p[i]' touches 32 sectors per warp request (ideal 12, 37.5% efficiency) with block (256, 1, 1) from the launch at struct-copy-fields.cu:62 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :22:15: warning: global load 'p[i]' touches 32 sectors per warp request (ideal 8, 25.0% efficiency) with block (256, 1, 1) from the launch at struct-copy-fields.cu:63 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :34:14: warning: global load 'p[i]' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) with block (256, 1, 1) from the launch at struct-copy-fields.cu:65 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :40:14: warning: global load 'p[i]' touches 16 sectors per warp request (ideal 4, 25.0% efficiency) with block (256, 1, 1) from the launch at struct-copy-fields.cu:66 [cuda-uncoalesced-global-access]
// CHECK-MESSAGES: :46:11: warning: global load 'p[i]' touches 24 sectors per warp request (ideal 4, 16.7% efficiency) with block (256, 1, 1) from the launch at struct-copy-fields.cu:67 [cuda-uncoalesced-global-access]
