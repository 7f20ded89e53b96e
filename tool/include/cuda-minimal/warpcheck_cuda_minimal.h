/*===- warpcheck_cuda_minimal.h - CUDA declarations without a toolkit -----===//
 *
 * warpcheck: bundled, minimal CUDA declarations.
 *
 * This header is force-included (-include) by warpcheck when no CUDA toolkit
 * was found. The parse then runs with `-nocudainc -nocudalib`, so clang's own
 * __clang_cuda_runtime_wrapper.h is NOT included and nothing would declare
 * __global__, threadIdx, __syncthreads, atomics, shuffles, vector types, dim3
 * or the runtime API. This header declares enough of them for kernels and
 * their host code to parse with clang 19, host side and device side
 * (--cuda-device-only --cuda-gpu-arch=sm_XX).
 *
 * It is for PARSING (static analysis) only: nothing here is meant to be
 * linked or run. Where clang ships a header of its own that works without
 * the toolkit (built-in variables, libdevice declarations, device functions,
 * math wrappers, shuffle/vote/__ldg intrinsics) it is reused, so the AST
 * matches what clang builds with a real toolkit as closely as possible.
 *
 * Types and layouts follow CUDA 12/13's vector_types.h and driver_types.h:
 * the analyzer reads record layouts (sizes, alignments, field offsets).
 *
 * The macro WARPCHECK_CUDA_MINIMAL is defined to 1 so that code (and the
 * analyzer) can tell this environment from a real toolkit.
 *
 * In a C++ (not CUDA) unit that includes cuda_runtime.h, the qualifiers are
 * empty and only the host side (types, runtime API) is declared, as CUDA's
 * headers do for a host compiler.
 *
 *===----------------------------------------------------------------------===*/

// Declarations of the CUDA toolkit's headers: system headers, as the
// toolkit's are (warpcheck treats calls into system headers, such as
// atomicAdd or min, as library calls rather than running their bodies).
#pragma clang system_header

// Force-included into every translation unit of a no-toolkit parse, this
// header declares nothing unless the unit is CUDA: a plain C++ (or C) unit
// sees CUDA's declarations only when it includes one of the bundled
// forwarders (cuda_runtime.h, ...), which define
// WARPCHECK_CUDA_MINIMAL_EXPLICIT first -- as with a real toolkit, where a
// host compiler sees nothing of CUDA until the code includes it.
#if defined(__cplusplus) &&                                                    \
    (defined(__CUDA__) || defined(WARPCHECK_CUDA_MINIMAL_EXPLICIT))
#ifndef WARPCHECK_CUDA_MINIMAL_H
#define WARPCHECK_CUDA_MINIMAL_H

#define WARPCHECK_CUDA_MINIMAL 1

#include "warpcheck_cuda_minimal_defines.h"
#include "warpcheck_cuda_minimal_vector_types.h"
#include "warpcheck_cuda_minimal_runtime_api.h"
#if defined(__CUDA__)
#include "warpcheck_cuda_minimal_device.h"
#endif

#endif // WARPCHECK_CUDA_MINIMAL_H
#endif
