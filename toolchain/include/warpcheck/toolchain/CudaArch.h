//===- CudaArch.h - CUDA architecture names as the toolchain spells them --===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How nvcc, clang 19 and compile databases spell a GPU architecture
/// (`sm_90`, `compute_90a`, `lto_80`, `sm_120f`, `9.0`), and which of their
/// spellings each program takes. The architectures themselves, their numbers
/// and the default one are the hardware model's (model/Arch.h): this file only
/// turns names into names.
///
//===----------------------------------------------------------------------===//

#ifndef WARPCHECK_TOOLCHAIN_CUDAARCH_H
#define WARPCHECK_TOOLCHAIN_CUDAARCH_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace warpcheck::toolchain {

/// Normalises `sm_XX`, `compute_XX`, `lto_XX` (with an optional letter
/// suffix) to `sm_XX`; empty when \p Arch is not of that form.
std::string normalizeCudaArch(llvm::StringRef Arch);

/// Maps a requested CUDA arch (`sm_86`, `compute_90a`, `sm_120`, ...) to the
/// value to give clang 19's --cuda-gpu-arch: the same arch when clang 19
/// knows it (up to sm_90a), clang 19's newest arch (sm_90) for anything
/// newer, and the newest known arch below it otherwise. Returns an empty
/// string for something that is not an arch.
std::string clangParseArchFor(llvm::StringRef RequestedArch);

/// "sm_90" if Arch is a GPU architecture nvcc can take (sm_NN[a|f]; also
/// "compute_NN" and "90", normalized); nullopt otherwise.
std::optional<std::string> nvccArchName(llvm::StringRef Arch);

/// Arch, or the hardware model's default architecture
/// (model::DefaultArchName) when it is empty.
std::string archOrDefault(llvm::StringRef Arch);

} // namespace warpcheck::toolchain

#endif // WARPCHECK_TOOLCHAIN_CUDAARCH_H
