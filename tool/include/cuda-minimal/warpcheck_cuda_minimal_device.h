/*===- warpcheck_cuda_minimal_device.h - CUDA device-side declarations ----===//
 *
 * Part of warpcheck's bundled minimal CUDA declarations: include
 * warpcheck_cuda_minimal.h, not this file.
 *
 * Built-in variables, device functions, math, atomics, warp shuffles and
 * votes, __ldg. Where clang 19 ships a header that does not need the CUDA
 * toolkit it is included rather than re-declared, so that the declarations
 * (and their bodies, which the analyzer may look into) are exactly the ones
 * clang uses when a toolkit is present:
 *   __clang_cuda_builtin_vars.h      threadIdx, blockIdx, blockDim, gridDim,
 *                                    warpSize
 *   __clang_cuda_libdevice_declares.h  __nv_* (libdevice) declarations
 *   __clang_cuda_device_functions.h  __threadfence, __fmul_rn, __popc,
 *                                    __iAtomicAdd & co, clock64, ...
 *   __clang_cuda_math.h              sqrtf, expf, fabsf, rsqrtf, min(int) ...
 *   __clang_cuda_cmath.h             std:: device overloads
 *   __clang_cuda_intrinsics.h        __shfl*_sync, __ballot_sync,
 *                                    __all_sync, __any_sync, __activemask,
 *                                    __syncwarp, __ldg, ...
 * __syncthreads() is a clang builtin (NVPTX) and needs no declaration.
 * What CUDA's own headers would add on top (atomicAdd & co, min/max
 * overloads, device printf/malloc) is declared here, after CUDA's
 * device_atomic_functions.h, sm_*_atomic_functions.h and math_functions.hpp.
 *
 *===----------------------------------------------------------------------===*/

// Declarations of the CUDA toolkit's headers: system headers, as the
// toolkit's are (warpcheck treats calls into system headers, such as
// atomicAdd or min, as library calls rather than running their bodies).
#pragma clang system_header

#ifndef WARPCHECK_CUDA_MINIMAL_DEVICE_H
#define WARPCHECK_CUDA_MINIMAL_DEVICE_H

//===----------------------------------------------------------------------===//
// Built-in variables.
//===----------------------------------------------------------------------===//

#include <__clang_cuda_builtin_vars.h>
#define __DEVICE_LAUNCH_PARAMETERS_H__

// Out-of-line members declared by __clang_cuda_builtin_vars.h (the same
// definitions as in clang's __clang_cuda_runtime_wrapper.h).
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const {
  return {x, y, z};
}

//===----------------------------------------------------------------------===//
// Device functions and math from clang's own headers.
//===----------------------------------------------------------------------===//

#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>

#pragma push_macro("WARPCHECK_DEV")
#pragma push_macro("WARPCHECK_HD")
#define WARPCHECK_DEV static __inline__ __device__
#define WARPCHECK_HD static __inline__ __host__ __device__

//===----------------------------------------------------------------------===//
// min/max overloads (CUDA's crt/math_functions.hpp). __clang_cuda_math.h
// declares the device min(int, int)/max(int, int); CUDA adds a host one.
//===----------------------------------------------------------------------===//

static inline __host__ int min(const int a, const int b) {
  return a < b ? a : b;
}
static inline __host__ int max(const int a, const int b) {
  return a > b ? a : b;
}

WARPCHECK_HD unsigned int min(const unsigned int a, const unsigned int b) {
  return a < b ? a : b;
}
WARPCHECK_HD unsigned int min(const int a, const unsigned int b) {
  return min((unsigned int)a, b);
}
WARPCHECK_HD unsigned int min(const unsigned int a, const int b) {
  return min(a, (unsigned int)b);
}
WARPCHECK_HD long int min(const long int a, const long int b) {
  return a < b ? a : b;
}
WARPCHECK_HD unsigned long int min(const unsigned long int a,
                                   const unsigned long int b) {
  return a < b ? a : b;
}
WARPCHECK_HD unsigned long int min(const long int a,
                                   const unsigned long int b) {
  return min((unsigned long int)a, b);
}
WARPCHECK_HD unsigned long int min(const unsigned long int a,
                                   const long int b) {
  return min(a, (unsigned long int)b);
}
WARPCHECK_HD long long int min(const long long int a, const long long int b) {
  return a < b ? a : b;
}
WARPCHECK_HD unsigned long long int min(const unsigned long long int a,
                                        const unsigned long long int b) {
  return a < b ? a : b;
}
WARPCHECK_HD unsigned long long int min(const long long int a,
                                        const unsigned long long int b) {
  return min((unsigned long long int)a, b);
}
WARPCHECK_HD unsigned long long int min(const unsigned long long int a,
                                        const long long int b) {
  return min(a, (unsigned long long int)b);
}
WARPCHECK_HD float min(const float a, const float b) {
  return __builtin_fminf(a, b);
}
WARPCHECK_HD double min(const double a, const double b) {
  return __builtin_fmin(a, b);
}
WARPCHECK_HD double min(const float a, const double b) {
  return __builtin_fmin((double)a, b);
}
WARPCHECK_HD double min(const double a, const float b) {
  return __builtin_fmin(a, (double)b);
}

WARPCHECK_HD unsigned int max(const unsigned int a, const unsigned int b) {
  return a > b ? a : b;
}
WARPCHECK_HD unsigned int max(const int a, const unsigned int b) {
  return max((unsigned int)a, b);
}
WARPCHECK_HD unsigned int max(const unsigned int a, const int b) {
  return max(a, (unsigned int)b);
}
WARPCHECK_HD long int max(const long int a, const long int b) {
  return a > b ? a : b;
}
WARPCHECK_HD unsigned long int max(const unsigned long int a,
                                   const unsigned long int b) {
  return a > b ? a : b;
}
WARPCHECK_HD unsigned long int max(const long int a,
                                   const unsigned long int b) {
  return max((unsigned long int)a, b);
}
WARPCHECK_HD unsigned long int max(const unsigned long int a,
                                   const long int b) {
  return max(a, (unsigned long int)b);
}
WARPCHECK_HD long long int max(const long long int a, const long long int b) {
  return a > b ? a : b;
}
WARPCHECK_HD unsigned long long int max(const unsigned long long int a,
                                        const unsigned long long int b) {
  return a > b ? a : b;
}
WARPCHECK_HD unsigned long long int max(const long long int a,
                                        const unsigned long long int b) {
  return max((unsigned long long int)a, b);
}
WARPCHECK_HD unsigned long long int max(const unsigned long long int a,
                                        const long long int b) {
  return max(a, (unsigned long long int)b);
}
WARPCHECK_HD float max(const float a, const float b) {
  return __builtin_fmaxf(a, b);
}
WARPCHECK_HD double max(const double a, const double b) {
  return __builtin_fmax(a, b);
}
WARPCHECK_HD double max(const float a, const double b) {
  return __builtin_fmax((double)a, b);
}
WARPCHECK_HD double max(const double a, const float b) {
  return __builtin_fmax(a, (double)b);
}

//===----------------------------------------------------------------------===//
// Atomics (CUDA's device_atomic_functions.h, sm_20/sm_32/sm_60 atomic
// headers), mapped onto the __*Atomic* functions of
// __clang_cuda_device_functions.h like CUDA's .hpp files do. Each comes with
// its _block and _system scope variants (sm_60+).
//===----------------------------------------------------------------------===//

#pragma push_macro("WARPCHECK_ATOMIC2")
#pragma push_macro("WARPCHECK_ATOMIC3")
#define WARPCHECK_ATOMIC2(NAME, T, IMPL)                                       \
  WARPCHECK_DEV T NAME(T *address, T val) { return IMPL(address, val); }       \
  WARPCHECK_DEV T NAME##_block(T *address, T val) {                            \
    return IMPL##_block(address, val);                                         \
  }                                                                            \
  WARPCHECK_DEV T NAME##_system(T *address, T val) {                           \
    return IMPL##_system(address, val);                                        \
  }
#define WARPCHECK_ATOMIC3(NAME, T, IMPL)                                       \
  WARPCHECK_DEV T NAME(T *address, T compare, T val) {                         \
    return IMPL(address, compare, val);                                        \
  }                                                                            \
  WARPCHECK_DEV T NAME##_block(T *address, T compare, T val) {                 \
    return IMPL##_block(address, compare, val);                                \
  }                                                                            \
  WARPCHECK_DEV T NAME##_system(T *address, T compare, T val) {                \
    return IMPL##_system(address, compare, val);                               \
  }

WARPCHECK_ATOMIC2(atomicAdd, int, __iAtomicAdd)
WARPCHECK_ATOMIC2(atomicAdd, unsigned int, __uAtomicAdd)
WARPCHECK_ATOMIC2(atomicAdd, unsigned long long int, __ullAtomicAdd)
WARPCHECK_ATOMIC2(atomicAdd, float, __fAtomicAdd)
WARPCHECK_ATOMIC2(atomicAdd, double, __dAtomicAdd)

WARPCHECK_ATOMIC2(atomicExch, int, __iAtomicExch)
WARPCHECK_ATOMIC2(atomicExch, unsigned int, __uAtomicExch)
WARPCHECK_ATOMIC2(atomicExch, unsigned long long int, __ullAtomicExch)
WARPCHECK_ATOMIC2(atomicExch, float, __fAtomicExch)

WARPCHECK_ATOMIC2(atomicMin, int, __iAtomicMin)
WARPCHECK_ATOMIC2(atomicMin, unsigned int, __uAtomicMin)
WARPCHECK_ATOMIC2(atomicMin, long long int, __illAtomicMin)
WARPCHECK_ATOMIC2(atomicMin, unsigned long long int, __ullAtomicMin)
WARPCHECK_ATOMIC2(atomicMax, int, __iAtomicMax)
WARPCHECK_ATOMIC2(atomicMax, unsigned int, __uAtomicMax)
WARPCHECK_ATOMIC2(atomicMax, long long int, __illAtomicMax)
WARPCHECK_ATOMIC2(atomicMax, unsigned long long int, __ullAtomicMax)

WARPCHECK_ATOMIC2(atomicInc, unsigned int, __uAtomicInc)
WARPCHECK_ATOMIC2(atomicDec, unsigned int, __uAtomicDec)

WARPCHECK_ATOMIC2(atomicAnd, int, __iAtomicAnd)
WARPCHECK_ATOMIC2(atomicAnd, unsigned int, __uAtomicAnd)
WARPCHECK_ATOMIC2(atomicAnd, long long int, __llAtomicAnd)
WARPCHECK_ATOMIC2(atomicAnd, unsigned long long int, __ullAtomicAnd)
WARPCHECK_ATOMIC2(atomicOr, int, __iAtomicOr)
WARPCHECK_ATOMIC2(atomicOr, unsigned int, __uAtomicOr)
WARPCHECK_ATOMIC2(atomicOr, long long int, __llAtomicOr)
WARPCHECK_ATOMIC2(atomicOr, unsigned long long int, __ullAtomicOr)
WARPCHECK_ATOMIC2(atomicXor, int, __iAtomicXor)
WARPCHECK_ATOMIC2(atomicXor, unsigned int, __uAtomicXor)
WARPCHECK_ATOMIC2(atomicXor, long long int, __llAtomicXor)
WARPCHECK_ATOMIC2(atomicXor, unsigned long long int, __ullAtomicXor)

WARPCHECK_ATOMIC3(atomicCAS, int, __iAtomicCAS)
WARPCHECK_ATOMIC3(atomicCAS, unsigned int, __uAtomicCAS)
WARPCHECK_ATOMIC3(atomicCAS, unsigned long long int, __ullAtomicCAS)

#pragma pop_macro("WARPCHECK_ATOMIC2")
#pragma pop_macro("WARPCHECK_ATOMIC3")

// atomicSub exists for int and unsigned int only; CUDA implements it as an
// atomicAdd of the negated value.
WARPCHECK_DEV int atomicSub(int *address, int val) {
  return __iAtomicAdd(address, -val);
}
WARPCHECK_DEV int atomicSub_block(int *address, int val) {
  return __iAtomicAdd_block(address, -val);
}
WARPCHECK_DEV int atomicSub_system(int *address, int val) {
  return __iAtomicAdd_system(address, -val);
}
WARPCHECK_DEV unsigned int atomicSub(unsigned int *address, unsigned int val) {
  return __uAtomicAdd(address, (unsigned int)-(int)val);
}
WARPCHECK_DEV unsigned int atomicSub_block(unsigned int *address,
                                           unsigned int val) {
  return __uAtomicAdd_block(address, (unsigned int)-(int)val);
}
WARPCHECK_DEV unsigned int atomicSub_system(unsigned int *address,
                                            unsigned int val) {
  return __uAtomicAdd_system(address, (unsigned int)-(int)val);
}

#pragma pop_macro("WARPCHECK_DEV")
#pragma pop_macro("WARPCHECK_HD")

//===----------------------------------------------------------------------===//
// Device-side C library (as in clang's __clang_cuda_runtime_wrapper.h).
//===----------------------------------------------------------------------===//

extern "C" {
__device__ int vprintf(const char *, const char *);
__device__ void free(void *) __attribute((nothrow));
__device__ void *malloc(size_t) __attribute((nothrow)) __attribute__((malloc));
__device__ void __assertfail(const char *__message, const char *__file,
                             unsigned __line, const char *__function,
                             size_t __charSize);
__device__ static inline void __assert_fail(const char *__message,
                                            const char *__file, unsigned __line,
                                            const char *__function) {
  __assertfail(__message, __file, __line, __function, sizeof(char));
}
__device__ int printf(const char *, ...);
} // extern "C"

namespace std {
__device__ static inline void free(void *__ptr) { ::free(__ptr); }
__device__ static inline void *malloc(size_t __size) {
  return ::malloc(__size);
}
} // namespace std

//===----------------------------------------------------------------------===//
// Address-space helpers (CUDA's sm_20_intrinsics.hpp), which
// __clang_cuda_intrinsics.h expects to be declared already. The __nv_*_impl
// functions are defined by __clang_cuda_intrinsics.h itself.
//===----------------------------------------------------------------------===//

typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;

extern "C" {
__device__ inline size_t __nv_cvta_generic_to_global_impl(const void *__ptr);
__device__ inline size_t __nv_cvta_generic_to_shared_impl(const void *__ptr);
__device__ inline size_t __nv_cvta_generic_to_constant_impl(const void *__ptr);
__device__ inline size_t __nv_cvta_generic_to_local_impl(const void *__ptr);
__device__ inline void *__nv_cvta_global_to_generic_impl(size_t __ptr);
__device__ inline void *__nv_cvta_shared_to_generic_impl(size_t __ptr);
__device__ inline void *__nv_cvta_constant_to_generic_impl(size_t __ptr);
__device__ inline void *__nv_cvta_local_to_generic_impl(size_t __ptr);
} // extern "C"

static __inline__ __device__ size_t __cvta_generic_to_global(const void *p) {
  return __nv_cvta_generic_to_global_impl(p);
}
static __inline__ __device__ size_t __cvta_generic_to_shared(const void *p) {
  return __nv_cvta_generic_to_shared_impl(p);
}
static __inline__ __device__ size_t __cvta_generic_to_constant(const void *p) {
  return __nv_cvta_generic_to_constant_impl(p);
}
static __inline__ __device__ size_t __cvta_generic_to_local(const void *p) {
  return __nv_cvta_generic_to_local_impl(p);
}
static __inline__ __device__ void *__cvta_global_to_generic(size_t rawbits) {
  return __nv_cvta_global_to_generic_impl(rawbits);
}
static __inline__ __device__ void *__cvta_shared_to_generic(size_t rawbits) {
  return __nv_cvta_shared_to_generic_impl(rawbits);
}
static __inline__ __device__ void *__cvta_constant_to_generic(size_t rawbits) {
  return __nv_cvta_constant_to_generic_impl(rawbits);
}
static __inline__ __device__ void *__cvta_local_to_generic(size_t rawbits) {
  return __nv_cvta_local_to_generic_impl(rawbits);
}

// As in clang's __clang_cuda_runtime_wrapper.h: pure, so usable in
// __builtin_assume.
static __device__ __forceinline__ __attribute__((const)) unsigned int
__isGlobal(const void *p) {
  return __nvvm_isspacep_global(p);
}
static __device__ __forceinline__ __attribute__((const)) unsigned int
__isShared(const void *p) {
  return __nvvm_isspacep_shared(p);
}
static __device__ __forceinline__ __attribute__((const)) unsigned int
__isConstant(const void *p) {
  return __nvvm_isspacep_const(p);
}
static __device__ __forceinline__ __attribute__((const)) unsigned int
__isLocal(const void *p) {
  return __nvvm_isspacep_local(p);
}

//===----------------------------------------------------------------------===//
// The rest of clang's own device headers.
//===----------------------------------------------------------------------===//

#include <__clang_cuda_cmath.h>
#include <__clang_cuda_intrinsics.h>

//===----------------------------------------------------------------------===//
// Device-side runtime API (CUDA's cuda_device_runtime_api.h), for code
// compiled with -rdc/-fgpu-rdc that calls the runtime from kernels.
//===----------------------------------------------------------------------===//

extern "C" {
__device__ cudaError_t cudaGetLastError(void);
__device__ cudaError_t cudaPeekAtLastError(void);
__device__ const char *cudaGetErrorString(cudaError_t error);
__device__ const char *cudaGetErrorName(cudaError_t error);
__device__ cudaError_t cudaGetDeviceCount(int *count);
__device__ cudaError_t cudaGetDevice(int *device);
__device__ cudaError_t cudaDeviceGetAttribute(int *value,
                                              enum cudaDeviceAttr attr,
                                              int device);
__device__ cudaError_t cudaMalloc(void **devPtr, size_t size);
__device__ cudaError_t cudaFree(void *devPtr);
__device__ cudaError_t cudaMemcpyAsync(void *dst, const void *src,
                                       size_t count, enum cudaMemcpyKind kind,
                                       cudaStream_t stream = 0);
__device__ cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                                       cudaStream_t stream = 0);
__device__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream,
                                                 unsigned int flags);
__device__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
} // extern "C"

#endif // WARPCHECK_CUDA_MINIMAL_DEVICE_H
