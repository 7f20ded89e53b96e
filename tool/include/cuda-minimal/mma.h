/*===- mma.h - warpcheck's warp matrix declarations -----------------------===//
 *
 * warpcheck's bundled stand-in for the CUDA toolkit's mma.h (the warp matrix
 * functions, nvcuda::wmma), used only when no CUDA toolkit was found. It
 * declares the API as the CUDA C++ Programming Guide ("Warp Matrix
 * Functions") gives it, for parsing only: the functions have no bodies, so
 * the analysis treats them as library calls (store_matrix_sync of an
 * accumulator is modelled by name, analysis/interp/WarpMatrix.cpp).
 *
 * Fragments hold num_elements elements of element_type in x[], as the
 * toolkit's __frag_base does; the counts below are the toolkit's (CUDA 13,
 * crt/mma.hpp) for the shapes sm_70 to sm_90 support, so that loops over a
 * fragment's elements run as many times as with the toolkit.
 *
 * The toolkit's mma.h brings cuda_fp16.h's __half; without a toolkit this
 * header declares a __half of the same size and alignment (2 bytes) with
 * float conversions, unless a __half is declared already.
 *
 *===----------------------------------------------------------------------===*/

#ifndef WARPCHECK_FORWARD_MMA_H
#define WARPCHECK_FORWARD_MMA_H

#pragma clang system_header

#ifndef WARPCHECK_CUDA_MINIMAL_EXPLICIT
#define WARPCHECK_CUDA_MINIMAL_EXPLICIT 1
#endif
#include "warpcheck_cuda_minimal.h"

#if defined(__cplusplus) && defined(__CUDA__)

#ifndef WARPCHECK_CUDA_MINIMAL_HALF
#define WARPCHECK_CUDA_MINIMAL_HALF 1
struct __attribute__((aligned(2))) __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ __half(float f);
  __host__ __device__ operator float() const;
};
__host__ __device__ __half __float2half(float f);
__host__ __device__ float __half2float(__half h);
#endif

namespace nvcuda {
namespace wmma {

struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;
namespace precision {
struct tf32;
struct b1;
struct u4;
struct s4;
} // namespace precision

enum layout_t { mem_row_major, mem_col_major };

template <typename T, int Size, typename Storage = T> struct __frag_base {
  Storage x[Size];
  enum { num_elements = Size };
  typedef T element_type;
  typedef Storage storage_element_type;
};

/// Elements per lane: the toolkit's counts (16-bit A and B fragments hold
/// 16 elements on every architecture, 8-bit ones 8, accumulators of 16x16
/// tiles 8, tf32 A and B of m16n16k8 4, double m8n8k4 A and B 1, C 2).
template <typename Use, int M, int N, int K, typename T> struct __frag_size {
  static constexpr int value =
      (Use::is_accumulator ? M * N : (Use::is_a ? M * K : K * N)) / 32 *
      (sizeof(T) == 2 && !Use::is_accumulator ? 2 : 1);
};
struct matrix_a {
  static constexpr bool is_accumulator = false, is_a = true;
};
struct matrix_b {
  static constexpr bool is_accumulator = false, is_a = false;
};
struct accumulator {
  static constexpr bool is_accumulator = true, is_a = false;
};

template <typename Use, int M, int N, int K, typename T, typename Layout = void>
class fragment : public __frag_base<T, __frag_size<Use, M, N, K, T>::value> {};
template <typename Use, int M, int N, int K, typename Layout>
class fragment<Use, M, N, K, precision::tf32, Layout>
    : public __frag_base<precision::tf32, __frag_size<Use, M, N, K, float>::value, float> {};

template <typename Use, int M, int N, int K, typename T, typename Layout>
__device__ void fill_fragment(fragment<Use, M, N, K, T, Layout> &a,
                              const typename fragment<Use, M, N, K, T, Layout>::element_type &v);

template <typename Use, int M, int N, int K, typename T, typename Layout, typename P>
__device__ void load_matrix_sync(fragment<Use, M, N, K, T, Layout> &a, const P *p, unsigned ldm);
template <int M, int N, int K, typename T, typename P>
__device__ void load_matrix_sync(fragment<accumulator, M, N, K, T> &a, const P *p, unsigned ldm,
                                 layout_t layout);

template <int M, int N, int K, typename T>
__device__ void store_matrix_sync(T *p, const fragment<accumulator, M, N, K, T> &a, unsigned ldm,
                                  layout_t layout);

template <int M, int N, int K, typename Td, typename Ta, typename La, typename Tb, typename Lb,
          typename Tc>
__device__ void mma_sync(fragment<accumulator, M, N, K, Td> &d,
                         const fragment<matrix_a, M, N, K, Ta, La> &a,
                         const fragment<matrix_b, M, N, K, Tb, Lb> &b,
                         const fragment<accumulator, M, N, K, Tc> &c, bool satf = false);

} // namespace wmma
} // namespace nvcuda

#endif // __cplusplus && __CUDA__
#endif // WARPCHECK_FORWARD_MMA_H
