//===- Arch.h - per-architecture limits of one streaming multiprocessor ---===//
//
// One ArchSpec per compute capability: the per-SM and per-block limits that
// decide occupancy, the allocation granularities the CUDA runtime applies, the
// shared-memory bank geometry, and one common part's SM count, clock and
// memory bandwidth for roofline estimates.
//
// Sources, cited per value in Arch.cpp:
//  [PG]   CUDA C++ Programming Guide, "Compute Capabilities", table
//         "Technical Specifications per Compute Capability".
//  [OCC]  cuda_occupancy.h of the CUDA 13.0 toolkit (the calculator behind
//         cudaOccupancyMaxActiveBlocksPerMultiprocessor): allocation
//         granularities, sub-partitions, blocks per SM, carveout steps,
//         barrier limit.
//  [PROP] cudaDeviceProp values (sharedMemPerMultiprocessor,
//         sharedMemPerBlockOptin, reservedSharedMemPerBlock, regsPerBlock)
//         as reported by deviceQuery on the named part.
//  [SPEC] the vendor's product page or datasheet for the named part.
//  [XLS]  the CUDA Occupancy Calculator spreadsheet (GPU Data sheet), for
//         the G80 (compute capability 1.0) only.
//  [H200] measured on the project's H200 (see docs/occupancy-model.md).
//
// Custom architectures (the seeds' hypothetical SMs) are built with
// makeTextbookArch() or by copying a real ArchSpec and editing its fields.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_MODEL_ARCH_H
#define WARPCHECK_MODEL_ARCH_H

#include "warpcheck/model/Roofline.h"
#include "warpcheck/model/SharedMemory.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpcheck::model {

/// How the register file is handed out.
enum class RegisterAllocationScope {
  /// Compute capability 2.0 and later: each warp gets
  /// roundUp(registers per thread x 32, RegisterAllocationUnit) registers
  /// from the file of one warp scheduler (sub-partition).
  PerWarp,
  /// Compute capability 1.x ([XLS]): each block gets
  /// roundUp(roundUp(warps, WarpAllocationGranularity) x 32 x registers per
  /// thread, RegisterAllocationUnit) registers from the whole file.
  PerBlock,
};

/// One common part of an architecture, for roofline estimates. A value of 0
/// means "not published / not known"; Source says where the others come from.
struct PartSpec {
  std::string Name;
  unsigned SMCount = 0;
  /// Highest SM clock the part is specified to boost to.
  unsigned BoostClockMHz = 0;
  /// Peak DRAM bandwidth by the vendor.
  double MemoryBandwidthGBps = 0;
  std::string Source;
  /// Peak non-tensor FLOP rates of the part as its vendor publishes them,
  /// in GFLOP/s, by precision (fp16, fp32, fp64); 0 where the vendor
  /// publishes none (peakFlopsPerSecond then derives one).
  std::array<double, 3> VendorPeakGflops{};
  /// Where the vendor figures come from; empty when there are none.
  std::string PeakSource;
};

struct ArchSpec {
  /// Canonical name: "sm_90", "g80", or the name given to a custom arch.
  std::string Name;
  /// Marketing family ("Hopper"); informative only.
  std::string Family;
  unsigned ComputeMajor = 0;
  unsigned ComputeMinor = 0;

  unsigned WarpSize = 32;
  unsigned MaxThreadsPerSM = 0;
  /// MaxThreadsPerSM / WarpSize; kept as its own field because occupancy is
  /// a fraction of it.
  unsigned MaxWarpsPerSM = 0;
  unsigned MaxBlocksPerSM = 0;
  unsigned MaxThreadsPerBlock = 0;
  /// Largest block extent along x, y and z (cudaDeviceProp::maxThreadsDim).
  std::array<unsigned, 3> MaxBlockDim{};
  /// Largest grid extent along x, y and z (cudaDeviceProp::maxGridSize).
  std::array<unsigned, 3> MaxGridDim{};

  /// 32-bit registers in one SM's register file.
  unsigned RegistersPerSM = 0;
  /// Most registers one block may hold (cudaDeviceProp::regsPerBlock).
  unsigned MaxRegistersPerBlock = 0;
  /// Most registers one thread may use (ptxas's limit).
  unsigned MaxRegistersPerThread = 0;
  RegisterAllocationScope RegisterAllocation = RegisterAllocationScope::PerWarp;
  /// Registers are allocated in multiples of this many (per warp, or per
  /// block for PerBlock).
  unsigned RegisterAllocationUnit = 1;
  /// Warps are counted in multiples of this: [OCC]'s sub-partitions per SM
  /// (warp schedulers). With PerWarp allocation the register file is split
  /// evenly between this many schedulers, each warp lives in one, and the
  /// per-block hardware check rounds the block's warps up to a multiple of
  /// it. 1 means no split.
  unsigned WarpAllocationGranularity = 1;

  /// Largest shared memory one SM can give to blocks, in bytes
  /// (cudaDeviceProp::sharedMemPerMultiprocessor): the largest carveout.
  std::uint64_t SharedMemoryPerSM = 0;
  /// The configurable shared sizes of the unified L1/shared array, in bytes,
  /// ascending ([OCC] cudaOccAlignUpShmemSizeVoltaPlus). Empty where shared
  /// memory is a fixed size (before Volta, and custom arches).
  std::vector<std::uint64_t> SharedCarveoutSteps;
  /// Shared memory a block may use without opting in (48 KB), in bytes.
  std::uint64_t SharedMemoryPerBlock = 0;
  /// Shared memory a block may use after cudaFuncSetAttribute(...,
  /// cudaFuncAttributeMaxDynamicSharedMemorySize, ...), excluding the
  /// reservation (cudaDeviceProp::sharedMemPerBlockOptin).
  std::uint64_t SharedMemoryPerBlockOptin = 0;
  /// Shared memory the driver reserves per block (1 KB on sm_80 and later).
  std::uint64_t ReservedSharedMemoryPerBlock = 0;
  /// Shared memory is allocated per block in multiples of this many bytes.
  std::uint64_t SharedAllocationUnit = 1;
  /// Largest static (__shared__) allocation the compiler accepts, in bytes;
  /// anything beyond has to be dynamic shared memory.
  std::uint64_t MaxStaticSharedPerBlock = 0;

  /// Named barriers one block can use (bar.sync 0..15).
  unsigned MaxBarriersPerBlock = 0;
  /// Block barriers an SM holds for all its resident blocks, as [OCC]
  /// models it on compute capability 9.0 and later; 0 where [OCC] applies no
  /// barrier limit.
  unsigned BlockBarriersPerSM = 0;

  SharedMemoryGeometry SharedBanks;
  /// Floating-point results per clock cycle per SM of the add, multiply
  /// and multiply-add instructions, by precision (fp16 counting both
  /// halves of a half2 instruction, fp32, fp64): [PG] "Arithmetic
  /// Instructions", throughput of native arithmetic instructions. 0 where
  /// the table gives none or it is not known here.
  std::array<unsigned, 3> FmaResultsPerClockPerSM{};
  PartSpec Part;

  /// "9.0".
  std::string computeCapability() const;
  bool hasConfigurableCarveout() const { return !SharedCarveoutSteps.empty(); }
};

/// The architecture modelled when nothing names one (no --arch, no
/// architecture in the compile flags): the H200's, the GPU every number of
/// the model is checked against (test/hw/).
inline constexpr std::string_view DefaultArchName = "sm_90";

/// The architecture for a name: "sm_90", "sm_90a", "sm_100f", "compute_90",
/// "90", "9.0", or "g80" (also "sm_10", "compute_10", "1.0"). Case and
/// surrounding spaces are ignored. Returns null for an unknown name.
const ArchSpec *findArch(std::string_view Name);

/// findArch(Name), or the default architecture's (DefaultArchName) for a
/// name findArch does not know: what the analysis models when a compile
/// command names an architecture the model has no table for.
const ArchSpec &findArchOrDefault(std::string_view Name);

/// Canonical names of every built-in architecture, oldest first
/// ("g80", "sm_50", ..., "sm_120").
std::vector<std::string> knownArchNames();

/// All built-in architectures, oldest first.
const std::vector<ArchSpec> &knownArchs();

/// The parameters of a hypothetical SM as textbooks (and the seeds) describe
/// one: a register file and thread/block limits, nothing else.
struct TextbookArchParams {
  std::string Name = "textbook";
  unsigned RegistersPerSM = 65536;
  unsigned MaxThreadsPerSM = 2048;
  unsigned MaxBlocksPerSM = 32;
  unsigned MaxThreadsPerBlock = 1024;
  std::uint64_t SharedMemoryPerSM = 48 * 1024;
  SharedMemoryGeometry SharedBanks;
};

/// A custom architecture that follows the textbook rule
///   blocks = floor(registers per SM / (threads per block x registers))
/// exactly: registers are allocated per warp in units of 1 register with a
/// warp granularity of 1 (no sub-partition split), so
///   floor(floor(R / (32 r)) / w) == floor(R / (32 r w)).
/// Shared memory is allocated in 1-byte units with no reservation and no
/// carveout, the per-block limits equal the per-SM ones, registers per
/// thread are capped at 255 and no barrier limit applies.
ArchSpec makeTextbookArch(const TextbookArchParams &Params);

/// The seeds' G80 under the textbook rule: 8,192 registers, 768 threads,
/// 8 blocks, 512 threads per block, 16 KB shared, 16 banks served per
/// half-warp. findArch("g80") is the G80 with its real (per-block,
/// 256-register) allocation rule instead.
ArchSpec makeTextbookG80();

/// The peak FLOP rate of Arch's part in one precision: the vendor's figure
/// where the part has one (FromVendor set), else SMs x boost clock x
/// results per clock per SM x 2 (a multiply-add is two operations); 0 when
/// neither is known.
double peakFlopsPerSecond(const ArchSpec &Arch, FloatPrecision P, bool *FromVendor = nullptr);

/// Arch's part as the roofline sees it in precision P: that peak and the
/// vendor's DRAM bandwidth.
RooflineMachine rooflineMachine(const ArchSpec &Arch, FloatPrecision P);

/// Empty if Arch is usable by the occupancy calculator, else what is wrong
/// (a zero limit, a zero allocation unit, inconsistent warps and threads).
std::string validateArch(const ArchSpec &Arch);

} // namespace warpcheck::model

#endif
