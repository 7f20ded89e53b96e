/*===- warpcheck_cuda_minimal_vector_types.h - CUDA vector types and dim3 -===//
 *
 * Part of warpcheck's bundled minimal CUDA declarations: include
 * warpcheck_cuda_minimal.h, not this file.
 *
 * The vector types are plain structs with members x, y, z, w and exactly the
 * size and alignment CUDA's vector_types.h gives them on LP64 Linux (the
 * analyzer reads the record layout): e.g. char2 2 B, short2/char4 4 B,
 * int2/float2/short4 8 B, int4/float4/double2/longlong2/long2 16 B,
 * double4/longlong4/long4 16 B (CUDA 13's *_16a / *_32a variants included).
 * 1- and 3-element types have their element's natural alignment.
 *
 *===----------------------------------------------------------------------===*/

// Declarations of the CUDA toolkit's headers: system headers, as the
// toolkit's are (warpcheck treats calls into system headers, such as
// atomicAdd or min, as library calls rather than running their bodies).
#pragma clang system_header

#ifndef WARPCHECK_CUDA_MINIMAL_VECTOR_TYPES_H
#define WARPCHECK_CUDA_MINIMAL_VECTOR_TYPES_H

#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__

#pragma push_macro("WARPCHECK_VEC1")
#pragma push_macro("WARPCHECK_VEC2")
#pragma push_macro("WARPCHECK_VEC3")
#pragma push_macro("WARPCHECK_VEC4")

// Each macro declares the struct and its make_<name> function (CUDA's
// vector_functions.h spells them static inline __host__ __device__).
#define WARPCHECK_VEC1(NAME, T, ALIGN)                                         \
  struct ALIGN NAME {                                                          \
    T x;                                                                       \
  };                                                                           \
  static __inline__ __host__ __device__ NAME make_##NAME(T x) {                \
    NAME t;                                                                    \
    t.x = x;                                                                   \
    return t;                                                                  \
  }
#define WARPCHECK_VEC2(NAME, T, ALIGN)                                         \
  struct ALIGN NAME {                                                          \
    T x, y;                                                                    \
  };                                                                           \
  static __inline__ __host__ __device__ NAME make_##NAME(T x, T y) {           \
    NAME t;                                                                    \
    t.x = x;                                                                   \
    t.y = y;                                                                   \
    return t;                                                                  \
  }
#define WARPCHECK_VEC3(NAME, T, ALIGN)                                         \
  struct ALIGN NAME {                                                          \
    T x, y, z;                                                                 \
  };                                                                           \
  static __inline__ __host__ __device__ NAME make_##NAME(T x, T y, T z) {      \
    NAME t;                                                                    \
    t.x = x;                                                                   \
    t.y = y;                                                                   \
    t.z = z;                                                                   \
    return t;                                                                  \
  }
#define WARPCHECK_VEC4(NAME, T, ALIGN)                                         \
  struct ALIGN NAME {                                                          \
    T x, y, z, w;                                                              \
  };                                                                           \
  static __inline__ __host__ __device__ NAME make_##NAME(T x, T y, T z, T w) { \
    NAME t;                                                                    \
    t.x = x;                                                                   \
    t.y = y;                                                                   \
    t.z = z;                                                                   \
    t.w = w;                                                                   \
    return t;                                                                  \
  }

// char: 1, 2, 1, 4.
WARPCHECK_VEC1(char1, signed char, )
WARPCHECK_VEC1(uchar1, unsigned char, )
WARPCHECK_VEC2(char2, signed char, __align__(2))
WARPCHECK_VEC2(uchar2, unsigned char, __align__(2))
WARPCHECK_VEC3(char3, signed char, )
WARPCHECK_VEC3(uchar3, unsigned char, )
WARPCHECK_VEC4(char4, signed char, __align__(4))
WARPCHECK_VEC4(uchar4, unsigned char, __align__(4))

// short: 2, 4, 2, 8.
WARPCHECK_VEC1(short1, short, )
WARPCHECK_VEC1(ushort1, unsigned short, )
WARPCHECK_VEC2(short2, short, __align__(4))
WARPCHECK_VEC2(ushort2, unsigned short, __align__(4))
WARPCHECK_VEC3(short3, short, )
WARPCHECK_VEC3(ushort3, unsigned short, )
WARPCHECK_VEC4(short4, short, __align__(8))
WARPCHECK_VEC4(ushort4, unsigned short, __align__(8))

// int: 4, 8, 4, 16.
WARPCHECK_VEC1(int1, int, )
WARPCHECK_VEC1(uint1, unsigned int, )
WARPCHECK_VEC2(int2, int, __align__(8))
WARPCHECK_VEC2(uint2, unsigned int, __align__(8))
WARPCHECK_VEC3(int3, int, )
WARPCHECK_VEC3(uint3, unsigned int, )
WARPCHECK_VEC4(int4, int, __builtin_align__(16))
WARPCHECK_VEC4(uint4, unsigned int, __builtin_align__(16))

// long (LP64: 8 bytes): 8, 16, 8, 16 (CUDA 13: _16a 16, _32a 32).
WARPCHECK_VEC1(long1, long int, )
WARPCHECK_VEC1(ulong1, unsigned long int, )
WARPCHECK_VEC2(long2, long int, __align__(2 * sizeof(long int)))
WARPCHECK_VEC2(ulong2, unsigned long int, __align__(2 * sizeof(long int)))
WARPCHECK_VEC3(long3, long int, )
WARPCHECK_VEC3(ulong3, unsigned long int, )
WARPCHECK_VEC4(long4, long int, __builtin_align__(16))
WARPCHECK_VEC4(ulong4, unsigned long int, __builtin_align__(16))
WARPCHECK_VEC4(long4_16a, long int, __builtin_align__(16))
WARPCHECK_VEC4(ulong4_16a, unsigned long int, __builtin_align__(16))
WARPCHECK_VEC4(long4_32a, long int, __builtin_align__(32))
WARPCHECK_VEC4(ulong4_32a, unsigned long int, __builtin_align__(32))

// float: 4, 8, 4, 16.
WARPCHECK_VEC1(float1, float, )
WARPCHECK_VEC2(float2, float, __align__(8))
WARPCHECK_VEC3(float3, float, )
WARPCHECK_VEC4(float4, float, __builtin_align__(16))

// long long: 8, 16, 8, 16 (CUDA 13: _16a 16, _32a 32).
WARPCHECK_VEC1(longlong1, long long int, )
WARPCHECK_VEC1(ulonglong1, unsigned long long int, )
WARPCHECK_VEC2(longlong2, long long int, __builtin_align__(16))
WARPCHECK_VEC2(ulonglong2, unsigned long long int, __builtin_align__(16))
WARPCHECK_VEC3(longlong3, long long int, )
WARPCHECK_VEC3(ulonglong3, unsigned long long int, )
WARPCHECK_VEC4(longlong4, long long int, __builtin_align__(16))
WARPCHECK_VEC4(ulonglong4, unsigned long long int, __builtin_align__(16))
WARPCHECK_VEC4(longlong4_16a, long long int, __builtin_align__(16))
WARPCHECK_VEC4(ulonglong4_16a, unsigned long long int, __builtin_align__(16))
WARPCHECK_VEC4(longlong4_32a, long long int, __builtin_align__(32))
WARPCHECK_VEC4(ulonglong4_32a, unsigned long long int, __builtin_align__(32))

// double: 8, 16, 8, 16 (CUDA 13: _16a 16, _32a 32).
WARPCHECK_VEC1(double1, double, )
WARPCHECK_VEC2(double2, double, __builtin_align__(16))
WARPCHECK_VEC3(double3, double, )
WARPCHECK_VEC4(double4, double, __builtin_align__(16))
WARPCHECK_VEC4(double4_16a, double, __builtin_align__(16))
WARPCHECK_VEC4(double4_32a, double, __builtin_align__(32))

#pragma pop_macro("WARPCHECK_VEC1")
#pragma pop_macro("WARPCHECK_VEC2")
#pragma pop_macro("WARPCHECK_VEC3")
#pragma pop_macro("WARPCHECK_VEC4")

// dim3: like CUDA's vector_types.h, every component defaults to 1.
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3(void) const {
    return uint3{x, y, z};
  }
};

// Layout checks (LP64): a wrong layout would silently mislead the analyzer.
static_assert(sizeof(char2) == 2 && alignof(char2) == 2, "char2 layout");
static_assert(sizeof(char3) == 3 && alignof(char3) == 1, "char3 layout");
static_assert(sizeof(uchar4) == 4 && alignof(uchar4) == 4, "uchar4 layout");
static_assert(sizeof(short2) == 4 && alignof(short2) == 4, "short2 layout");
static_assert(sizeof(short4) == 8 && alignof(short4) == 8, "short4 layout");
static_assert(sizeof(int2) == 8 && alignof(int2) == 8, "int2 layout");
static_assert(sizeof(int3) == 12 && alignof(int3) == 4, "int3 layout");
static_assert(sizeof(int4) == 16 && alignof(int4) == 16, "int4 layout");
static_assert(sizeof(uint4) == 16 && alignof(uint4) == 16, "uint4 layout");
static_assert(sizeof(float2) == 8 && alignof(float2) == 8, "float2 layout");
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "float3 layout");
static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4 layout");
static_assert(sizeof(double2) == 16 && alignof(double2) == 16,
              "double2 layout");
static_assert(sizeof(double3) == 24 && alignof(double3) == 8, "double3 layout");
static_assert(sizeof(double4) == 32 && alignof(double4) == 16,
              "double4 layout");
static_assert(sizeof(longlong2) == 16 && alignof(longlong2) == 16,
              "longlong2 layout");
static_assert(sizeof(double4_32a) == 32 && alignof(double4_32a) == 32,
              "double4_32a layout");
static_assert(sizeof(dim3) == 12 && alignof(dim3) == 4, "dim3 layout");

#endif // WARPCHECK_CUDA_MINIMAL_VECTOR_TYPES_H
