/*===- warpcheck_cuda_minimal_defines.h - CUDA qualifiers and versions ----===//
 *
 * Part of warpcheck's bundled minimal CUDA declarations: include
 * warpcheck_cuda_minimal.h, not this file. Mirrors what CUDA's
 * crt/host_defines.h gives clang (GNU attribute spellings).
 *
 *===----------------------------------------------------------------------===*/

// Declarations of the CUDA toolkit's headers: system headers, as the
// toolkit's are (warpcheck treats calls into system headers, such as
// atomicAdd or min, as library calls rather than running their bodies).
#pragma clang system_header

#ifndef WARPCHECK_CUDA_MINIMAL_DEFINES_H
#define WARPCHECK_CUDA_MINIMAL_DEFINES_H

#if defined(__CUDA__)
// Device overloads of math functions must be declared before <cmath> is
// seen (see the comment in clang's header). Same order as clang's
// __clang_cuda_runtime_wrapper.h.
#include <__clang_cuda_math_forward_declares.h>

// libstdc++ avoids __float128 (unsupported in CUDA device code) when it sees
// __CUDACC__, so define it before the standard headers, like the wrapper.
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#endif // __CUDA__

#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdlib.h>
#include <string.h>

// The version this environment imitates: the newest CUDA that clang 19
// supports. Code that tests CUDA_VERSION/CUDART_VERSION takes the paths it
// would take with a CUDA 12.5 toolkit.
#ifndef CUDA_VERSION
#define CUDA_VERSION 12050
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 12050
#endif
#ifndef __CUDART_API_VERSION
#define __CUDART_API_VERSION CUDART_VERSION
#endif

#if defined(__CUDA__)
// Execution space and memory space qualifiers (clang's CUDA attributes).
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __grid_constant__ __attribute__((grid_constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))

// clang 19 honours `managed` for HIP only: with CUDA it warns "'managed'
// attribute ignored" and the variable becomes a host variable that kernels
// may not reference (true with a real toolkit too). A managed variable is a
// global-memory variable kernels access, so declare it __device__ and keep
// the fact as an annotation for the analyzer.
#define __managed__                                                            \
  __attribute__((device)) __attribute__((annotate("warpcheck.managed")))

// clang 19 has no attribute for these two: keep the values visible to the
// analyzer as annotations instead of dropping them.
#define __maxnreg__(N) __attribute__((annotate("warpcheck.maxnreg", N)))
#define __cluster_dims__(...)                                                  \
  __attribute__((annotate("warpcheck.cluster_dims", __VA_ARGS__)))
#else
// A host compiler: CUDA's host_defines.h makes the qualifiers vanish.
#define __host__
#define __device__
#define __global__
#define __shared__
#define __constant__
#define __managed__
#define __grid_constant__
#define __launch_bounds__(...)
#define __maxnreg__(N)
#define __cluster_dims__(...)
#endif

// Function and type helpers. __noinline__ and __restrict__ are keywords in
// clang's CUDA mode and must not be defined as macros (libstdc++ spells
// __attribute__((__noinline__))); __restrict__ is a GNU keyword in C++ too.
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __inline_hint__
#define __align__(N) __attribute__((aligned(N)))
#define __builtin_align__(N) __align__(N)
#define __thread__ __thread
#define __no_return__ __attribute__((noreturn))

// Markers CUDA's headers put on its own declarations: no meaning for clang.
#define __device_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __cudart_builtin__
#define __specialization_static
#define CUDARTAPI
#define CUDARTAPI_CDECL

#endif // WARPCHECK_CUDA_MINIMAL_DEFINES_H
