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
// A system header, as CUDA's own are: its functions are library functions
// to the analysis (the warp interpreter models __ldcs as a load, it does not
// run its body), and nothing is reported in it.
#pragma clang system_header

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


// 5. The cache-hinted loads and stores of sm_32_intrinsics.h (__ldcg,
//    __ldca, __ldcs, __ldlu, __ldcv, __stwb, __stcg, __stcs, __stwt), for
//    every type: clang's wrapper leaves that header out (for its __ldg,
//    which clang has as a builtin) and clang 19 declares none of these. The
//    warp interpreter models each as the load or store it is; the bodies
//    are plain accesses for the code generator. The stored value does not
//    take part in deduction (`__stcs(p, 0)` with a float *p compiles with
//    nvcc's overloads).
template <class T> struct warpcheck_compat_identity { typedef T type; };
#define WARPCHECK_COMPAT_LOAD(Name)                                            \
  template <class T>                                                           \
  static __inline__ __attribute__((device)) T Name(const T *ptr) {             \
    return *ptr;                                                               \
  }
#define WARPCHECK_COMPAT_STORE(Name)                                           \
  template <class T>                                                           \
  static __inline__ __attribute__((device)) void Name(                         \
      T *ptr, typename warpcheck_compat_identity<T>::type value) {             \
    *ptr = value;                                                              \
  }
WARPCHECK_COMPAT_LOAD(__ldcg)
WARPCHECK_COMPAT_LOAD(__ldca)
WARPCHECK_COMPAT_LOAD(__ldcs)
WARPCHECK_COMPAT_LOAD(__ldlu)
WARPCHECK_COMPAT_LOAD(__ldcv)
WARPCHECK_COMPAT_STORE(__stwb)
WARPCHECK_COMPAT_STORE(__stcg)
WARPCHECK_COMPAT_STORE(__stcs)
WARPCHECK_COMPAT_STORE(__stwt)
#undef WARPCHECK_COMPAT_LOAD
#undef WARPCHECK_COMPAT_STORE

// 6. Texture references (`texture<float, 1> tex;` with tex1Dfetch(tex, i)
//    and cudaBindTexture), removed in CUDA 12 in favour of texture objects,
//    and still common in code written before: the reference type, as a
//    device built-in texture type clang knows, and the fetches and bindings
//    as declarations (the analysis follows no texture memory; a fetch is a
//    value read from memory). A fetch in normalized-float mode returns float
//    (float2, float4) for 8- and 16-bit element types, as CUDA 11's did.
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
};
template <class T, enum cudaTextureReadMode mode> struct warpcheck_compat_fetch {
  typedef T type;
};
#define WARPCHECK_COMPAT_NORMALIZED(T, R)                                      \
  template <> struct warpcheck_compat_fetch<T, cudaReadModeNormalizedFloat> {  \
    typedef R type;                                                            \
  };
WARPCHECK_COMPAT_NORMALIZED(char, float)
WARPCHECK_COMPAT_NORMALIZED(signed char, float)
WARPCHECK_COMPAT_NORMALIZED(unsigned char, float)
WARPCHECK_COMPAT_NORMALIZED(short, float)
WARPCHECK_COMPAT_NORMALIZED(unsigned short, float)
WARPCHECK_COMPAT_NORMALIZED(char1, float1)
WARPCHECK_COMPAT_NORMALIZED(uchar1, float1)
WARPCHECK_COMPAT_NORMALIZED(short1, float1)
WARPCHECK_COMPAT_NORMALIZED(ushort1, float1)
WARPCHECK_COMPAT_NORMALIZED(char2, float2)
WARPCHECK_COMPAT_NORMALIZED(uchar2, float2)
WARPCHECK_COMPAT_NORMALIZED(short2, float2)
WARPCHECK_COMPAT_NORMALIZED(ushort2, float2)
WARPCHECK_COMPAT_NORMALIZED(char4, float4)
WARPCHECK_COMPAT_NORMALIZED(uchar4, float4)
WARPCHECK_COMPAT_NORMALIZED(short4, float4)
WARPCHECK_COMPAT_NORMALIZED(ushort4, float4)
#undef WARPCHECK_COMPAT_NORMALIZED
#define WARPCHECK_COMPAT_FETCH(Name, ...)                                      \
  template <class T, int dim, enum cudaTextureReadMode mode>                   \
  __attribute__((device)) typename warpcheck_compat_fetch<T, mode>::type Name( \
      texture<T, dim, mode> t, __VA_ARGS__);
WARPCHECK_COMPAT_FETCH(tex1Dfetch, int x)
WARPCHECK_COMPAT_FETCH(tex1D, float x)
WARPCHECK_COMPAT_FETCH(tex2D, float x, float y)
WARPCHECK_COMPAT_FETCH(tex3D, float x, float y, float z)
WARPCHECK_COMPAT_FETCH(tex1DLayered, float x, int layer)
WARPCHECK_COMPAT_FETCH(tex2DLayered, float x, float y, int layer)
WARPCHECK_COMPAT_FETCH(texCubemap, float x, float y, float z)
WARPCHECK_COMPAT_FETCH(tex1DLod, float x, float level)
WARPCHECK_COMPAT_FETCH(tex2DLod, float x, float y, float level)
#undef WARPCHECK_COMPAT_FETCH
template <class T, int dim, enum cudaTextureReadMode mode>
extern __attribute__((host)) cudaError_t cudaBindTexture(size_t *offset, const texture<T, dim, mode> &tex,
                                                        const void *devPtr, size_t size = ~size_t(0));
template <class T, int dim, enum cudaTextureReadMode mode>
extern __attribute__((host)) cudaError_t cudaBindTexture(size_t *offset, const texture<T, dim, mode> &tex,
                                                        const void *devPtr,
                                                        const struct cudaChannelFormatDesc &desc,
                                                        size_t size = ~size_t(0));
template <class T, int dim, enum cudaTextureReadMode mode>
extern __attribute__((host)) cudaError_t cudaBindTexture2D(size_t *offset,
                                                          const texture<T, dim, mode> &tex,
                                                          const void *devPtr, size_t width,
                                                          size_t height, size_t pitch);
template <class T, int dim, enum cudaTextureReadMode mode>
extern __attribute__((host)) cudaError_t cudaBindTexture2D(
    size_t *offset, const texture<T, dim, mode> &tex, const void *devPtr,
    const struct cudaChannelFormatDesc &desc, size_t width, size_t height, size_t pitch);
template <class T, int dim, enum cudaTextureReadMode mode>
extern __attribute__((host)) cudaError_t cudaBindTextureToArray(const texture<T, dim, mode> &tex,
                                                               cudaArray_const_t array);
template <class T, int dim, enum cudaTextureReadMode mode>
extern __attribute__((host)) cudaError_t cudaBindTextureToArray(
    const texture<T, dim, mode> &tex, cudaArray_const_t array,
    const struct cudaChannelFormatDesc &desc);
template <class T, int dim, enum cudaTextureReadMode mode>
extern __attribute__((host)) cudaError_t cudaUnbindTexture(const texture<T, dim, mode> &tex);

// 7. Surface-object reads and writes (surface_indirect_functions.h, which
//    clang's wrapper does not include): declarations; a surface write is a
//    store the analysis does not follow, a read a value read from memory.
#define WARPCHECK_COMPAT_SURFACE(Name, ...)                                    \
  template <class T>                                                           \
  __attribute__((device)) void Name##write(T data, cudaSurfaceObject_t surf, __VA_ARGS__, \
                                           cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap); \
  template <class T>                                                           \
  __attribute__((device)) T Name##read(cudaSurfaceObject_t surf, __VA_ARGS__,  \
                                       cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap); \
  template <class T>                                                           \
  __attribute__((device)) void Name##read(T *ptr, cudaSurfaceObject_t surf, __VA_ARGS__, \
                                          cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
WARPCHECK_COMPAT_SURFACE(surf1D, int x)
WARPCHECK_COMPAT_SURFACE(surf2D, int x, int y)
WARPCHECK_COMPAT_SURFACE(surf3D, int x, int y, int z)
WARPCHECK_COMPAT_SURFACE(surf1DLayered, int x, int layer)
WARPCHECK_COMPAT_SURFACE(surf2DLayered, int x, int y, int layer)
WARPCHECK_COMPAT_SURFACE(surfCubemap, int x, int y, int face)
#undef WARPCHECK_COMPAT_SURFACE

#pragma pop_macro("WARPCHECK_COMPAT_HOST")
#endif // __cplusplus

#endif // WARPCHECK_NVCC_COMPAT_H
