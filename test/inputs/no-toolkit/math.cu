// Parses with NO CUDA toolkit (see check-parse.sh): device math, intrinsics
// with explicit rounding, min/max overloads, <cmath> in device code.

#include <algorithm>
#include <cmath>
#include <cuda_runtime.h>

__global__ void singlePrecision(float *X) {
  float A = X[threadIdx.x];
  X[0] = sqrtf(A) + expf(A) + fabsf(A) + rsqrtf(A) + logf(A) + sinf(A) +
         cosf(A) + tanhf(A) + powf(A, 2.0f) + fmaf(A, A, A) + floorf(A) +
         ceilf(A) + fminf(A, 1.0f) + fmaxf(A, 0.0f) + exp2f(A) + log2f(A) +
         cbrtf(A) + erff(A) + atan2f(A, 1.0f) + copysignf(A, -1.0f);
  float S, C;
  sincosf(A, &S, &C);
  X[1] = S + C + truncf(A) + roundf(A) + rintf(A) + hypotf(A, A);
}

__global__ void doublePrecision(double *X) {
  double A = X[threadIdx.x];
  X[0] = sqrt(A) + exp(A) + fabs(A) + rsqrt(A) + log(A) + sin(A) + cos(A) +
         pow(A, 3.0) + fma(A, A, A) + fmin(A, 1.0) + fmax(A, 0.0);
}

__global__ void intrinsics(float *X, double *D) {
  float A = X[threadIdx.x], B = X[threadIdx.x + 1];
  X[0] = __fmul_rn(A, B) + __fadd_rn(A, B) + __fsub_rn(A, B) +
         __fdiv_rn(A, B) + __fmaf_rn(A, B, A) + __fdividef(A, B) +
         __expf(A) + __logf(A) + __sinf(A) + __cosf(A) + __powf(A, B) +
         __saturatef(A) + __frcp_rn(A) + __fsqrt_rn(A) + __frsqrt_rn(A);
  D[0] = __dmul_rn(D[0], D[1]) + __dadd_rn(D[0], D[1]) +
         __fma_rn(D[0], D[1], D[2]);
  X[1] = __int2float_rn(threadIdx.x) + __uint2float_rn(blockIdx.x) +
         __float2int_rn(A) + __float2uint_rz(B);
  X[2] = __int_as_float(__float_as_int(A)) + __umulhi(3u, 5u) +
         __mul24(3, 5) + __brev(7u) + __popcll(9ull) + __clzll(1ll);
}

__global__ void minMax(int *I, unsigned *U, long long *L,
                       unsigned long long *UL, float *F, double *D) {
  I[0] = min(I[1], I[2]) + max(I[1], I[2]);
  U[0] = min(U[1], U[2]) + max(U[1], U[2]);
  U[3] = min(I[1], U[2]);
  L[0] = min(L[1], L[2]) + max(L[1], L[2]);
  UL[0] = min(UL[1], UL[2]) + max(UL[1], UL[2]);
  F[0] = min(F[1], F[2]) + max(F[1], F[2]);
  D[0] = min(D[1], D[2]) + max(D[1], D[2]) + min(F[0], D[0]);
  I[3] = abs(I[0]) + umin(U[0], U[1]) + llmax(L[0], L[1]);
}

__global__ void stdMath(float *X) {
  float A = X[threadIdx.x];
  X[0] = std::sqrt(A) + std::exp(A) + std::abs(A) + std::fabs(A) +
         std::min(A, 1.0f) + std::max(A, 0.0f) + std::pow(A, 2) +
         std::floor(A) + std::fma(A, A, A);
  X[1] = std::isnan(A) ? 0.0f : (std::isinf(A) ? 1.0f : 2.0f);
  X[2] = sqrt(2) + sin(1);
}

// Host code uses the same names.
int hostSide() {
  int A = min(1, 2) + max(3, 4);
  unsigned B = min(1u, 2u) + max(3u, 4u);
  float C = sqrtf(2.0f) + expf(1.0f) + fabsf(-1.0f);
  double D = std::sqrt(2.0) + min(1.0, 2.0);
  return A + (int)B + (int)C + (int)D;
}
