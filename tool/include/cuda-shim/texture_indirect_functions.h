/*===- texture_indirect_functions.h - warpcheck shim for clang 19 ---------===//
 *
 * Why this file exists: clang 19's __clang_cuda_runtime_wrapper.h (which
 * clang force-includes in every CUDA compilation) unconditionally does
 *   #include "texture_fetch_functions.h"
 *   #include "texture_indirect_functions.h"
 * CUDA 13.0 removed texture_fetch_functions.h (it had only carried the
 * texture-reference API, deprecated since CUDA 11 and removed in CUDA 12), so
 * with CUDA 13 every parse stops at "file not found". Newer clang (LLVM
 * pull request 151766) guards the include with CUDA_VERSION < 13000.
 *
 * warpcheck adds this folder with -isystem only when the toolkit lacks one
 * of the two headers. The folder is searched before the toolkit's include
 * folder, so where the toolkit does have the header (CUDA 13 still ships
 * texture_indirect_functions.h, which declares the texture-object API such
 * as tex1Dfetch<T>(cudaTextureObject_t, int)), it is forwarded to with
 * #include_next: hiding it would break code that uses texture objects.
 * Where the toolkit has no such header, this file is empty.
 *
 *===----------------------------------------------------------------------===*/

#ifndef WARPCHECK_SHIM_TEXTURE_INDIRECT_FUNCTIONS_H
#define WARPCHECK_SHIM_TEXTURE_INDIRECT_FUNCTIONS_H

#if defined(__has_include_next)
#if __has_include_next(<texture_indirect_functions.h>)
#include_next <texture_indirect_functions.h>
#endif
#endif

#endif // WARPCHECK_SHIM_TEXTURE_INDIRECT_FUNCTIONS_H
