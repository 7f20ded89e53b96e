//===- warpcheck_nvcc_compat.h - host code nvcc accepts, for the parse ----===//
//
// Forced into every translation unit warpcheck parses (-include, after
// clang's CUDA runtime wrapper), for the analysis only: it never reaches a
// build. Each part declares, in warpcheck's own words, something a program
// written for nvcc gets from nvcc's headers and clang's do not give it, so
// that its host code (where the launch shapes are) parses as nvcc parses it.
// docs/cuda-environment.md lists what is accepted and why.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_NVCC_COMPAT_H
#define WARPCHECK_NVCC_COMPAT_H

// 1. The C headers nvcc's crt/common_functions.h includes into a CUDA unit:
//    string.h and time.h in every pass (so `time(0)` with no #include
//    compiles with nvcc), stdio.h, stdlib.h, assert.h and <new> in the
//    device pass, the one warpcheck mirrors. clang's wrapper defines
//    __COMMON_FUNCTIONS_H__ and skips that header.
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __cplusplus
#include <new>
#endif

#ifdef __cplusplus
#pragma push_macro("WARPCHECK_COMPAT_HOST")
#define WARPCHECK_COMPAT_HOST static inline __attribute__((host))

// 2. Host min/max. nvcc's crt/math_functions.hpp defines every overload of
//    min and max below as __host__ __device__; under clang they are
//    __device__ only, so a host call such as `max(n, 256u)` finds no
//    candidate. The bundled declarations (no toolkit) define them
//    themselves.
#if !defined(WARPCHECK_CUDA_MINIMAL)
#define WARPCHECK_COMPAT_MINMAX(T, U, R)                                       \
  WARPCHECK_COMPAT_HOST R min(const T a, const U b) {                          \
    return (R)a < (R)b ? (R)a : (R)b;                                          \
  }                                                                            \
  WARPCHECK_COMPAT_HOST R max(const T a, const U b) {                          \
    return (R)a > (R)b ? (R)a : (R)b;                                          \
  }
WARPCHECK_COMPAT_MINMAX(int, int, int)
WARPCHECK_COMPAT_MINMAX(unsigned int, unsigned int, unsigned int)
WARPCHECK_COMPAT_MINMAX(int, unsigned int, unsigned int)
WARPCHECK_COMPAT_MINMAX(unsigned int, int, unsigned int)
WARPCHECK_COMPAT_MINMAX(long int, long int, long int)
WARPCHECK_COMPAT_MINMAX(unsigned long int, unsigned long int, unsigned long int)
WARPCHECK_COMPAT_MINMAX(long int, unsigned long int, unsigned long int)
WARPCHECK_COMPAT_MINMAX(unsigned long int, long int, unsigned long int)
WARPCHECK_COMPAT_MINMAX(long long int, long long int, long long int)
WARPCHECK_COMPAT_MINMAX(unsigned long long int, unsigned long long int, unsigned long long int)
WARPCHECK_COMPAT_MINMAX(long long int, unsigned long long int, unsigned long long int)
WARPCHECK_COMPAT_MINMAX(unsigned long long int, long long int, unsigned long long int)
WARPCHECK_COMPAT_MINMAX(float, float, float)
WARPCHECK_COMPAT_MINMAX(double, double, double)
WARPCHECK_COMPAT_MINMAX(float, double, double)
WARPCHECK_COMPAT_MINMAX(double, float, double)
#undef WARPCHECK_COMPAT_MINMAX
#endif

// 3. Runtime API functions CUDA 13 removed (deprecated since CUDA 4.0, the
//    cudaThread* names of the cudaDevice* functions), which code written for
//    older toolkits still calls. A redeclaration where a toolkit still has
//    them is harmless: the same C signature.
extern "C" {
extern __attribute__((host)) cudaError_t cudaThreadSynchronize(void);
extern __attribute__((host)) cudaError_t cudaThreadExit(void);
extern __attribute__((host)) cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
extern __attribute__((host)) cudaError_t cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit);
extern __attribute__((host)) cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig);
extern __attribute__((host)) cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig);
}

// 4. CUDA 13 changed cudaMemPrefetchAsync and cudaMemAdvise to take a
//    cudaMemLocation where CUDA 12 took a device number: the CUDA 12 forms,
//    as C++ overloads (declarations only; nothing here is ever called).
#if defined(CUDART_VERSION) && CUDART_VERSION >= 13000
extern __attribute__((host)) cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                                              int dstDevice,
                                                              cudaStream_t stream = 0);
extern __attribute__((host)) cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
                                                       enum cudaMemoryAdvise advice, int device);
#endif

#pragma pop_macro("WARPCHECK_COMPAT_HOST")
#endif // __cplusplus

#endif // WARPCHECK_NVCC_COMPAT_H
