//===- DeviceProperties.h - what cudaDeviceProp says per architecture -*- C++ -*-===//
//
// Host code sizes launches from the device's properties
// (`min(prop.maxThreadsPerBlock, n)`, `prop.warpSize * 4`). The members
// that every part of an architecture shares are constants of the target
// architecture (model/Arch.h); those that differ between parts of one
// architecture (multiProcessorCount: 132 on an H200 SXM, fewer on other
// Hopper parts; clocks, memory sizes) are unknown, and say so.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_HOST_DEVICEPROPERTIES_H
#define WARPCHECK_ANALYSIS_HOST_DEVICEPROPERTIES_H

#include "warpcheck/model/Arch.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::analysis::host {

/// The value of a cudaDeviceProp member on Arch: one element for a scalar
/// member, three for maxThreadsDim and maxGridSize. Empty, with Why set to
/// the reason, for a member that is not a constant of the architecture.
std::vector<std::int64_t> deviceProperty(llvm::StringRef Member, const model::ArchSpec &Arch,
                                         std::string &Why);

/// The cudaDeviceProp member a cudaDeviceAttr enumerator reads
/// (cudaDevAttrMaxThreadsPerBlock -> maxThreadsPerBlock; the x, y and z
/// extents as "maxThreadsDim[0]" ...); empty for one that has none here.
std::string memberOfAttribute(llvm::StringRef Enumerator);

} // namespace warpcheck::analysis::host

#endif
