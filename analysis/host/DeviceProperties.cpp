//===- DeviceProperties.cpp - cudaDeviceProp members per architecture -----===//
//
// The members and cudaDeviceAttr enumerators are those of driver_types.h
// (CUDA 13.0); the values come from the architecture table (model/Arch.h,
// each with its source there).
//
//===----------------------------------------------------------------------===//

#include "DeviceProperties.h"

#include "llvm/ADT/StringSwitch.h"

namespace warpcheck::analysis::host {

std::vector<std::int64_t> deviceProperty(llvm::StringRef Member, const model::ArchSpec &A,
                                         std::string &Why) {
  using V = std::vector<std::int64_t>;
  std::int64_t Unset = -1;
  std::int64_t Scalar =
      llvm::StringSwitch<std::int64_t>(Member)
          .Case("warpSize", A.WarpSize)
          .Case("maxThreadsPerBlock", A.MaxThreadsPerBlock)
          .Case("maxThreadsPerMultiProcessor", A.MaxThreadsPerSM)
          .Case("maxBlocksPerMultiProcessor", A.MaxBlocksPerSM)
          .Case("regsPerBlock", A.MaxRegistersPerBlock)
          .Case("regsPerMultiprocessor", A.RegistersPerSM)
          .Case("sharedMemPerBlock", static_cast<std::int64_t>(A.SharedMemoryPerBlock))
          .Case("sharedMemPerBlockOptin", static_cast<std::int64_t>(A.SharedMemoryPerBlockOptin))
          .Case("sharedMemPerMultiprocessor", static_cast<std::int64_t>(A.SharedMemoryPerSM))
          .Case("reservedSharedMemPerBlock",
                static_cast<std::int64_t>(A.ReservedSharedMemoryPerBlock))
          .Case("major", A.ComputeMajor)
          .Case("minor", A.ComputeMinor)
          .Default(Unset);
  if (Scalar != Unset && (Scalar != 0 || Member == "reservedSharedMemPerBlock"))
    return V{Scalar};
  if (Member == "maxThreadsDim" && A.MaxBlockDim[0])
    return V{A.MaxBlockDim[0], A.MaxBlockDim[1], A.MaxBlockDim[2]};
  if (Member == "maxGridSize" && A.MaxGridDim[0])
    return V{A.MaxGridDim[0], A.MaxGridDim[1], A.MaxGridDim[2]};
  if (Member == "multiProcessorCount")
    Why = "a property of the device that differs between parts of one architecture (" +
          std::to_string(A.Part.SMCount) + " SMs on an " + A.Part.Name +
          ", other counts on other " + A.Family + " parts)";
  else
    Why = "a property of the particular device (cudaDeviceProp::" + Member.str() +
          "), not of its architecture";
  return V{};
}

std::string memberOfAttribute(llvm::StringRef E) {
  return llvm::StringSwitch<std::string>(E)
      .Case("cudaDevAttrWarpSize", "warpSize")
      .Case("cudaDevAttrMaxThreadsPerBlock", "maxThreadsPerBlock")
      .Case("cudaDevAttrMaxBlockDimX", "maxThreadsDim[0]")
      .Case("cudaDevAttrMaxBlockDimY", "maxThreadsDim[1]")
      .Case("cudaDevAttrMaxBlockDimZ", "maxThreadsDim[2]")
      .Case("cudaDevAttrMaxGridDimX", "maxGridSize[0]")
      .Case("cudaDevAttrMaxGridDimY", "maxGridSize[1]")
      .Case("cudaDevAttrMaxGridDimZ", "maxGridSize[2]")
      .Case("cudaDevAttrMaxSharedMemoryPerBlock", "sharedMemPerBlock")
      .Case("cudaDevAttrMaxSharedMemoryPerBlockOptin", "sharedMemPerBlockOptin")
      .Case("cudaDevAttrMaxSharedMemoryPerMultiprocessor", "sharedMemPerMultiprocessor")
      .Case("cudaDevAttrReservedSharedMemoryPerBlock", "reservedSharedMemPerBlock")
      .Case("cudaDevAttrMaxRegistersPerBlock", "regsPerBlock")
      .Case("cudaDevAttrMaxRegistersPerMultiprocessor", "regsPerMultiprocessor")
      .Case("cudaDevAttrMaxThreadsPerMultiProcessor", "maxThreadsPerMultiProcessor")
      .Case("cudaDevAttrMaxBlocksPerMultiprocessor", "maxBlocksPerMultiProcessor")
      .Case("cudaDevAttrComputeCapabilityMajor", "major")
      .Case("cudaDevAttrComputeCapabilityMinor", "minor")
      .Case("cudaDevAttrMultiProcessorCount", "multiProcessorCount")
      .Default("");
}

} // namespace warpcheck::analysis::host
