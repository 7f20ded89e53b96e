// How nvcc 13 (-O3, sm_90) contracts float multiplies and adds, for the
// roofline's FLOP count (docs/hardware-model.md, "FLOPs of a launch"):
// a product subtracted (c - t, t - c), kept and stored, and added in a
// loop the compiler unrolls completely. The PTX (cicc) is read here
// with nvcc -ptx; the SASS (ptxas, which may contract further) with
// cuobjdump -sass on the GPU machine. Usage: compile only (no run).
__global__ void subKept(const float *a, const float *b, const float *c, float *o, float *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = a[i] * b[i];
  o[i] = c[i] - t;   // c - t: the kept product subtracted
  p[i] = t;          // and kept (stored)
}
__global__ void subOnly(const float *a, const float *b, const float *c, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = a[i] * b[i];
  o[i] = c[i] - t;   // c - t, t used once
}
__global__ void tMinusC(const float *a, const float *b, const float *c, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = a[i] * b[i];
  o[i] = t - c[i];
}
__global__ void unrolledKept(const float *a, const float *b, const float *c, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = a[i] * b[i];
  float acc = c[i];
#pragma unroll
  for (int k = 0; k < 4; ++k)
    acc = acc * 0.5f + t;  // t added in a loop unrolled completely
  o[i] = acc;
}
__global__ void unrolledAddOnly(const float *a, const float *b, const float *c, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = a[i] * b[i];
  float acc = c[i];
#pragma unroll
  for (int k = 0; k < 4; ++k)
    acc += t;
  o[i] = acc;
}
__global__ void inlineAndKept(const float *a, const float *b, const float *c, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = a[i] * b[i];
  o[i] = c[i] * c[i] + t;  // a product written inline and a kept one added
}
__global__ void subTwice(const float *a, const float *b, const float *c, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = a[i] * b[i];
  o[i] = c[i] - t;         // the kept product subtracted twice
  o[i + 1] = b[i] - t;
}
// test/unit/LaunchWorkTest.cpp's kernel of kept products, as it is there.
__global__ void kept(const float *a, const float *b, const float *c, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = a[i] * b[i];
  out[i] = t + c[i];
  out[i + 32] = t - 3.0f;
  float u = a[i] * c[i];
  out[i + 64] = u + 1.0f;
  out[i + 96] = u;
  float v = b[i] * c[i];
  float acc = 0;
  for (int k = 0; k < n; ++k) {
    acc += v;
    float p = a[k] * b[k];
    acc = acc + p;
  }
  out[i + 128] = acc;
  float w = a[i] * a[i];
  out[i + 160] = c[i] - w;
  float x = b[i] * b[i], y = c[i] * c[i];
  out[i + 192] = x + y;
}
int main() {
  float *a = nullptr, *b = nullptr, *c = nullptr, *o = nullptr, *p = nullptr;
  subKept<<<1024, 256>>>(a, b, c, o, p);
  subOnly<<<1024, 256>>>(a, b, c, o);
  tMinusC<<<1024, 256>>>(a, b, c, o);
  unrolledKept<<<1024, 256>>>(a, b, c, o);
  unrolledAddOnly<<<1024, 256>>>(a, b, c, o);
  inlineAndKept<<<1024, 256>>>(a, b, c, o);
  subTwice<<<1024, 256>>>(a, b, c, o);
  kept<<<1024, 256>>>(a, b, c, o, 4);
}
