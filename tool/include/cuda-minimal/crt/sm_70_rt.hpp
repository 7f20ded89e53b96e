/*===- crt/sm_70_rt.hpp - warpcheck stand-in: __match_*_sync --------------===//
 *
 * warpcheck's bundled stand-in, used only when no CUDA toolkit was found.
 * clang's __clang_cuda_intrinsics.h defines __match{32,64}_{any,all}_sync and
 * then includes this CUDA header for the typed __match_any_sync /
 * __match_all_sync overloads (sm_70+). Same overload set as CUDA's.
 *
 *===----------------------------------------------------------------------===*/

#ifndef WARPCHECK_CRT_SM_70_RT_HPP
#define WARPCHECK_CRT_SM_70_RT_HPP

#pragma push_macro("WARPCHECK_MATCH")
#define WARPCHECK_MATCH(T, BITS, CAST)                                         \
  static __inline__ __device__ unsigned int __match_any_sync(unsigned mask,    \
                                                             T value) {        \
    return __match##BITS##_any_sync(mask, CAST(value));                        \
  }                                                                            \
  static __inline__ __device__ unsigned int __match_all_sync(                  \
      unsigned mask, T value, int *pred) {                                     \
    return __match##BITS##_all_sync(mask, CAST(value), pred);                  \
  }

#define WARPCHECK_AS_U32(V) ((unsigned int)(V))
#define WARPCHECK_AS_U64(V) ((unsigned long long)(V))

WARPCHECK_MATCH(unsigned int, 32, WARPCHECK_AS_U32)
WARPCHECK_MATCH(int, 32, WARPCHECK_AS_U32)
WARPCHECK_MATCH(unsigned long long, 64, WARPCHECK_AS_U64)
WARPCHECK_MATCH(long long, 64, WARPCHECK_AS_U64)
// long is 64-bit on LP64 Linux hosts and nvptx64.
WARPCHECK_MATCH(unsigned long, 64, WARPCHECK_AS_U64)
WARPCHECK_MATCH(long, 64, WARPCHECK_AS_U64)
WARPCHECK_MATCH(float, 32, __float_as_uint)
WARPCHECK_MATCH(double, 64, __double_as_longlong)

#undef WARPCHECK_AS_U32
#undef WARPCHECK_AS_U64
#pragma pop_macro("WARPCHECK_MATCH")

#endif // WARPCHECK_CRT_SM_70_RT_HPP
