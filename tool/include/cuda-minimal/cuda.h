/*===- cuda.h - warpcheck forwarder ---------------------------------------===//
 *
 * warpcheck's bundled stand-in for the CUDA toolkit header of the same name,
 * used only when no CUDA toolkit was found. Everything is declared by
 * warpcheck_cuda_minimal.h, which warpcheck force-includes into CUDA units
 * anyway (as nvcc force-includes cuda_runtime.h). This file makes
 * `#include <cuda.h>` resolve, and gives plain C++ units the host-side
 * declarations.
 *
 *===----------------------------------------------------------------------===*/

#ifndef WARPCHECK_FORWARD_CUDA_H
#define WARPCHECK_FORWARD_CUDA_H

#ifndef WARPCHECK_CUDA_MINIMAL_EXPLICIT
#define WARPCHECK_CUDA_MINIMAL_EXPLICIT 1
#endif
#include "warpcheck_cuda_minimal.h"

#endif // WARPCHECK_FORWARD_CUDA_H
