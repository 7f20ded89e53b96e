//===- driver_types.h - CUDA 13's driver_types.h with CUDA 12's fields ----===//
//
// For the analysis only, never a build. CUDA 13 removed eight members of
// cudaDeviceProp (clockRate, memoryClockRate, deviceOverlap,
// kernelExecTimeoutEnabled, computeMode, maxTexture1DLinear,
// singleToDoublePrecisionPerfRatio, cooperativeMultiDeviceLaunch; the CUDA
// 13.0 release notes, "Changes to cudaDeviceProperties structure") that
// host code written for older toolkits reads, most often `prop.clockRate`
// in a banner. warpcheck puts this folder on the search path only when the
// toolkit's driver_types.h lacks clockRate and has the member named below
// (tool/CudaEnvironment.cpp): while the toolkit's header is read, that
// member's name is followed by the eight removed ones, so the structure
// parses with all of them.
//
// clang's CUDA runtime wrapper includes "driver_types.h" before any other
// CUDA header does, and finds this file first (an -isystem folder comes
// before the toolkit's include folder); the toolkit's own quoted includes
// then meet its include guard.
//
//===----------------------------------------------------------------------===//
#pragma push_macro("hostNumaMultinodeIpcSupported")
#define hostNumaMultinodeIpcSupported                                          \
  hostNumaMultinodeIpcSupported;                                               \
  int clockRate;                                                               \
  int memoryClockRate;                                                         \
  int deviceOverlap;                                                           \
  int kernelExecTimeoutEnabled;                                                \
  int computeMode;                                                             \
  int maxTexture1DLinear;                                                      \
  int singleToDoublePrecisionPerfRatio;                                        \
  int cooperativeMultiDeviceLaunch
#include_next <driver_types.h>
#pragma pop_macro("hostNumaMultinodeIpcSupported")
