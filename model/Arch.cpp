//===- Arch.cpp - the built-in architecture table -------------------------===//
//
// Every number below carries its source; the tags are defined in Arch.h:
//  [PG]   CUDA C++ Programming Guide, "Technical Specifications per Compute
//         Capability".
//  [OCC]  /usr/local/cuda/include/cuda_occupancy.h (CUDA 13.0), by function.
//  [PROP] cudaDeviceProp as deviceQuery prints it on the named part.
//  [SPEC] the vendor's product page / datasheet of the named part.
//  [XLS]  CUDA Occupancy Calculator spreadsheet, GPU Data sheet, cc 1.0.
//  [H200] read on the project's H200 with cudaGetDeviceProperties.
//
// Peak FLOP rates: the vendor's figure where the part's datasheet or
// whitepaper gives one (Part.VendorPeakGflops, each marked "vendor figure"
// below); otherwise derived as SMs x boost clock x [PG]'s results per clock
// per SM x 2, which reproduces every vendor figure here within 2%
// (test/unit/ArchTest.cpp).
//
//===----------------------------------------------------------------------===//
#include "warpcheck/model/Arch.h"

#include <algorithm>
#include <cctype>

namespace warpcheck::model {

namespace {

constexpr std::uint64_t KiB = 1024;

// [OCC] cudaOccAlignUpShmemSizeVoltaPlus: the shared-memory sizes the
// unified L1/shared array can be split into.
const std::vector<std::uint64_t> VoltaCarveouts = {
    0, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 96 * KiB};
const std::vector<std::uint64_t> TuringCarveouts = {32 * KiB, 64 * KiB};
// [OCC] compute 8.0 and 8.7.
const std::vector<std::uint64_t> GA100Carveouts = {
    0, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 100 * KiB, 132 * KiB, 164 * KiB};
// [OCC] the other 8.x (8.6, 8.9) and 12.0 / 12.1.
const std::vector<std::uint64_t> GA10xCarveouts = {
    0, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 100 * KiB};
// [OCC] compute 9.x, 10.0 / 10.1 / 10.3 and 11.0.
const std::vector<std::uint64_t> HopperCarveouts = {
    0,         8 * KiB,   16 * KiB,  32 * KiB,  64 * KiB,
    100 * KiB, 132 * KiB, 164 * KiB, 196 * KiB, 228 * KiB};

/// The fields that every compute capability from 5.0 on shares.
ArchSpec modernBase(std::string Name, std::string Family, unsigned Major,
                    unsigned Minor) {
  ArchSpec A;
  A.Name = std::move(Name);
  A.Family = std::move(Family);
  A.ComputeMajor = Major;
  A.ComputeMinor = Minor;
  A.WarpSize = 32;              // [PG] warp size
  A.MaxThreadsPerBlock = 1024;  // [PG] maximum number of threads per block
  // [PG] maximum x- or y-dimension of a block: 1024; z-dimension: 64.
  A.MaxBlockDim = {1024, 1024, 64};
  // [PG] maximum x-dimension of a grid: 2^31 - 1; y- or z-dimension: 65535.
  A.MaxGridDim = {2147483647u, 65535, 65535};
  A.RegistersPerSM = 64 * 1024; // [PG] 32-bit registers per SM: 64K
  A.MaxRegistersPerBlock = 64 * 1024; // [PG] registers per block: 64K (5.3,
                                      // 6.2 override below)
  // [PG] maximum number of 32-bit registers per thread: 255. ([OCC]
  // cudaOccRegAllocationMaxPerThread says 256 for cc 7 and later; ptxas never
  // emits more than 255, so 256 is unreachable.)
  A.MaxRegistersPerThread = 255;
  A.RegisterAllocation = RegisterAllocationScope::PerWarp;
  // [OCC] cudaOccRegAllocationGranularity: 256 registers per warp for every
  // compute capability 3.x to 12.x (= 8 registers per thread).
  A.RegisterAllocationUnit = 256;
  // [OCC] cudaOccSubPartitionsPerMultiprocessor: 4 (6.0 overrides to 2).
  A.WarpAllocationGranularity = 4;
  A.SharedMemoryPerBlock = 48 * KiB; // [PG] shared memory per block: 48 KB
  // [PG] "static allocation limited to 48 KB": bigger requests need dynamic
  // shared memory and the opt-in.
  A.MaxStaticSharedPerBlock = 48 * KiB;
  // [OCC] cudaOccSMemAllocationGranularity: 256 bytes for cc 3 to 7, 128
  // for cc 8 to 12 (set per arch below).
  A.SharedAllocationUnit = 256;
  // PTX ISA, "bar, barrier": a CTA has 16 barriers, numbered 0 to 15.
  A.MaxBarriersPerBlock = 16;
  // [PG] shared memory has 32 banks of 4 bytes, served for the whole warp
  // (compute capability 5.x and later).
  A.SharedBanks = SharedMemoryGeometry{32, 4, 32};
  return A;
}

PartSpec part(std::string Name, unsigned SMs, unsigned BoostMHz, double GBps,
              std::string Source) {
  PartSpec P;
  P.Name = std::move(Name);
  P.SMCount = SMs;
  P.BoostClockMHz = BoostMHz;
  P.MemoryBandwidthGBps = GBps;
  P.Source = std::move(Source);
  return P;
}

/// Sets the thread, warp and block limits.
void setThreadLimits(ArchSpec &A, unsigned ThreadsPerSM, unsigned BlocksPerSM) {
  A.MaxThreadsPerSM = ThreadsPerSM;
  A.MaxWarpsPerSM = ThreadsPerSM / A.WarpSize;
  A.MaxBlocksPerSM = BlocksPerSM;
}

std::vector<ArchSpec> buildTable() {
  std::vector<ArchSpec> Table;

  // --- G80 (compute capability 1.0), a documented historical architecture.
  {
    ArchSpec A;
    A.Name = "g80";
    A.Family = "Tesla (G80)";
    A.ComputeMajor = 1;
    A.ComputeMinor = 0;
    A.WarpSize = 32;
    // [PG] (CUDA 2.x-4.x editions) cc 1.0: 768 resident threads = 24 warps,
    // 8 resident blocks, 512 threads per block; seed 003 agrees.
    setThreadLimits(A, 768, 8);
    A.MaxThreadsPerBlock = 512;
    // [PG] (CUDA 2.x-4.x editions) cc 1.x: blocks of at most 512 x 512 x
    // 64 threads, grids of at most 65535 x 65535 blocks (two dimensions).
    A.MaxBlockDim = {512, 512, 64};
    A.MaxGridDim = {65535, 65535, 1};
    A.RegistersPerSM = 8192;       // [PG] 8K registers per SM; seed 003
    A.MaxRegistersPerBlock = 8192; // [XLS] a block may hold the whole file
    A.MaxRegistersPerThread = 124; // [XLS] "Max Registers per Thread" 1.0
    // [XLS] cc 1.x allocates registers per block, in units of 256, after
    // rounding the block's warps up to an even number.
    A.RegisterAllocation = RegisterAllocationScope::PerBlock;
    A.RegisterAllocationUnit = 256;
    A.WarpAllocationGranularity = 2;
    A.SharedMemoryPerSM = 16 * KiB;         // [PG] 16 KB per SM; seed 003
    A.SharedMemoryPerBlock = 16 * KiB;      // [PG] 16 KB per block
    A.SharedMemoryPerBlockOptin = 16 * KiB; // no opt-in on cc 1.x
    A.MaxStaticSharedPerBlock = 16 * KiB;   // [PG] all of it, statically
    A.SharedAllocationUnit = 512;           // [XLS] shared allocation unit
    A.MaxBarriersPerBlock = 1; // cc 1.x has only __syncthreads (barrier 0)
    // Seed 003: 16 banks of 32-bit words, conflicts only within a half-warp.
    A.SharedBanks = SharedMemoryGeometry{16, 4, 16};
    // [SPEC] GeForce 8800 GTX: 16 SMs (128 SPs), 1350 MHz shader clock,
    // 86.4 GB/s (384-bit GDDR3 at 1800 MT/s).
    A.Part = part("GeForce 8800 GTX", 16, 1350, 86.4,
                  "NVIDIA GeForce 8800 GTX product specifications");
    // [PG] (CUDA 2.x editions) cc 1.x: 8 single-precision multiply-adds per
    // clock per SM; no double or half arithmetic.
    A.FmaResultsPerClockPerSM = {0, 8, 0};
    Table.push_back(std::move(A));
  }

  // --- Maxwell.
  {
    ArchSpec A = modernBase("sm_50", "Maxwell", 5, 0);
    setThreadLimits(A, 2048, 32);   // [PG] 2048 threads; [OCC] 32 blocks
    A.SharedMemoryPerSM = 64 * KiB; // [PG] 64 KB per SM
    A.SharedMemoryPerBlockOptin = 48 * KiB; // [OCC] cudaOccSMemPerBlock:
                                            // no opt-in before cc 7
    // [SPEC] GeForce GTX 750 Ti (GM107): 5 SMs, 1085 MHz boost, 86.4 GB/s.
    A.Part = part("GeForce GTX 750 Ti", 5, 1085, 86.4,
                  "NVIDIA GeForce GTX 750 Ti specifications");
    // [PG] throughput table, cc 5.0: fp32 128, fp64 4, no fp16 arithmetic.
    A.FmaResultsPerClockPerSM = {0, 128, 4};
    Table.push_back(std::move(A));
  }
  {
    ArchSpec A = modernBase("sm_52", "Maxwell", 5, 2);
    setThreadLimits(A, 2048, 32);           // [PG]; [OCC] 32 blocks
    A.SharedMemoryPerSM = 96 * KiB;         // [PG] 96 KB per SM
    A.SharedMemoryPerBlockOptin = 48 * KiB; // [OCC] no opt-in before cc 7
    // [SPEC] GeForce GTX 980 (GM204): 16 SMs, 1216 MHz boost, 224 GB/s.
    A.Part = part("GeForce GTX 980", 16, 1216, 224,
                  "NVIDIA GeForce GTX 980 specifications");
    // [PG] throughput table, cc 5.2: fp32 128, fp64 4, no fp16 arithmetic.
    A.FmaResultsPerClockPerSM = {0, 128, 4};
    Table.push_back(std::move(A));
  }
  {
    ArchSpec A = modernBase("sm_53", "Maxwell", 5, 3);
    setThreadLimits(A, 2048, 32);           // [PG]; [OCC] 32 blocks
    A.MaxRegistersPerBlock = 32 * 1024;     // [PG] 32K per block on 5.3;
                                            // [PROP] Jetson Nano: 32768
    A.SharedMemoryPerSM = 64 * KiB;         // [PG] 64 KB per SM
    A.SharedMemoryPerBlockOptin = 48 * KiB; // [OCC] no opt-in before cc 7
    // [SPEC] Jetson Nano (GM20B): 1 SM (128 cores), 921.6 MHz, 25.6 GB/s.
    A.Part = part("Jetson Nano", 1, 921, 25.6,
                  "NVIDIA Jetson Nano module datasheet");
    // [PG] throughput table, cc 5.3: fp16 256, fp32 128, fp64 4.
    A.FmaResultsPerClockPerSM = {256, 128, 4};
    Table.push_back(std::move(A));
  }

  // --- Pascal.
  {
    ArchSpec A = modernBase("sm_60", "Pascal", 6, 0);
    setThreadLimits(A, 2048, 32);           // [PG]; [OCC] 32 blocks
    A.WarpAllocationGranularity = 2;        // [OCC] GP100 has 2 sub-partitions
    A.SharedMemoryPerSM = 64 * KiB;         // [PG] 64 KB per SM
    A.SharedMemoryPerBlockOptin = 48 * KiB; // [OCC] no opt-in before cc 7
    // [SPEC] Tesla P100 SXM2 16 GB: 56 SMs, 1480 MHz boost, 732 GB/s
    // (datasheet; the Pascal whitepaper rounds to 720 GB/s).
    A.Part =
        part("Tesla P100 SXM2", 56, 1480, 732, "NVIDIA Tesla P100 datasheet");
    // [PG] throughput table, cc 6.0: fp16 128, fp32 64, fp64 32.
    A.FmaResultsPerClockPerSM = {128, 64, 32};
    // [SPEC] Tesla P100 SXM2 datasheet: 21.2 TFLOPS half, 10.6 single, 5.3
    // double (vendor figures; derived: 21.2, 10.6, 5.30).
    A.Part.VendorPeakGflops = {21200, 10600, 5300};
    A.Part.PeakSource = "NVIDIA Tesla P100 datasheet";
    Table.push_back(std::move(A));
  }
  {
    ArchSpec A = modernBase("sm_61", "Pascal", 6, 1);
    setThreadLimits(A, 2048, 32);           // [PG]; [OCC] 32 blocks
    A.SharedMemoryPerSM = 96 * KiB;         // [PG] 96 KB per SM
    A.SharedMemoryPerBlockOptin = 48 * KiB; // [OCC] no opt-in before cc 7
    // [SPEC] GeForce GTX 1080 (GP104): 20 SMs, 1733 MHz boost, 320 GB/s.
    A.Part = part("GeForce GTX 1080", 20, 1733, 320,
                  "NVIDIA GeForce GTX 1080 specifications");
    // [PG] throughput table, cc 6.1: fp16 2, fp32 128, fp64 4.
    A.FmaResultsPerClockPerSM = {2, 128, 4};
    Table.push_back(std::move(A));
  }
  {
    ArchSpec A = modernBase("sm_62", "Pascal", 6, 2);
    setThreadLimits(A, 2048, 32);           // [PG]; [OCC] 32 blocks
    A.MaxRegistersPerBlock = 32 * 1024;     // [PG] 32K per block on 6.2;
                                            // [PROP] Jetson TX2: 32768
    A.SharedMemoryPerSM = 64 * KiB;         // [PG] 64 KB per SM
    A.SharedMemoryPerBlockOptin = 48 * KiB; // [OCC] no opt-in before cc 7
    // [SPEC] Jetson TX2 (GP10B): 2 SMs, 1300 MHz, 59.7 GB/s.
    A.Part =
        part("Jetson TX2", 2, 1300, 59.7, "NVIDIA Jetson TX2 module datasheet");
    // [PG] throughput table, cc 6.2: fp16 256, fp32 128, fp64 4.
    A.FmaResultsPerClockPerSM = {256, 128, 4};
    Table.push_back(std::move(A));
  }

  // --- Volta and Turing.
  {
    ArchSpec A = modernBase("sm_70", "Volta", 7, 0);
    setThreadLimits(A, 2048, 32);           // [PG]; [OCC] 32 blocks
    A.SharedMemoryPerSM = 96 * KiB;         // [PG] 96 KB per SM
    A.SharedCarveoutSteps = VoltaCarveouts; // [OCC] Volta steps
    A.SharedMemoryPerBlockOptin = 96 * KiB; // [PG] 96 KB per block (opt-in)
    // [SPEC] Tesla V100 SXM2: 80 SMs, 1530 MHz boost, 900 GB/s.
    A.Part =
        part("Tesla V100 SXM2", 80, 1530, 900, "NVIDIA Tesla V100 datasheet");
    // [PG] throughput table, cc 7.0: fp16 128, fp32 64, fp64 32.
    A.FmaResultsPerClockPerSM = {128, 64, 32};
    // [SPEC] Tesla V100 SXM2 datasheet: 15.7 TFLOPS single, 7.8 double
    // (vendor figures; derived: 15.67, 7.83).
    A.Part.VendorPeakGflops = {0, 15700, 7800};
    A.Part.PeakSource = "NVIDIA Tesla V100 datasheet";
    Table.push_back(std::move(A));
  }
  {
    ArchSpec A = modernBase("sm_72", "Volta", 7, 2);
    setThreadLimits(A, 2048, 32);           // [PG]; [OCC] 32 blocks
    A.SharedMemoryPerSM = 96 * KiB;         // [PG] 96 KB per SM
    A.SharedCarveoutSteps = VoltaCarveouts; // [OCC] non-Turing 7.x
    A.SharedMemoryPerBlockOptin = 96 * KiB; // [PG] 96 KB per block (opt-in)
    // [SPEC] Jetson AGX Xavier: 8 SMs (512 cores), 1377 MHz, 136.5 GB/s.
    A.Part = part("Jetson AGX Xavier", 8, 1377, 136.5,
                  "NVIDIA Jetson AGX Xavier module datasheet");
    // [PG] throughput table, cc 7.2: fp16 128, fp32 64; fp64 not known here.
    A.FmaResultsPerClockPerSM = {128, 64, 0};
    Table.push_back(std::move(A));
  }
  {
    ArchSpec A = modernBase("sm_75", "Turing", 7, 5);
    setThreadLimits(A, 1024, 16);   // [PG] 1024 threads; [OCC] 16 blocks
    A.SharedMemoryPerSM = 64 * KiB; // [PG] 64 KB per SM
    A.SharedCarveoutSteps = TuringCarveouts; // [OCC] 32 KB or 64 KB
    A.SharedMemoryPerBlockOptin = 64 * KiB;  // [PG] 64 KB per block (opt-in)
    // [SPEC] Tesla T4: 40 SMs, 1590 MHz boost, 320 GB/s.
    A.Part = part("Tesla T4", 40, 1590, 320, "NVIDIA T4 datasheet");
    // [PG] throughput table, cc 7.5: fp16 128, fp32 64, fp64 2.
    A.FmaResultsPerClockPerSM = {128, 64, 2};
    // [SPEC] T4 datasheet: 8.1 TFLOPS single precision (vendor figure;
    // derived: 8.14).
    A.Part.VendorPeakGflops = {0, 8100, 0};
    A.Part.PeakSource = "NVIDIA T4 datasheet";
    Table.push_back(std::move(A));
  }

  // --- Ampere and Ada.
  {
    ArchSpec A = modernBase("sm_80", "Ampere", 8, 0);
    setThreadLimits(A, 2048, 32);             // [PG]; [OCC] 32 blocks
    A.SharedMemoryPerSM = 164 * KiB;          // [PG] 164 KB per SM
    A.SharedCarveoutSteps = GA100Carveouts;   // [OCC] 8.0 steps
    A.SharedMemoryPerBlockOptin = 163 * KiB;  // [PG] 163 KB per block
    A.ReservedSharedMemoryPerBlock = 1 * KiB; // [PG] 1 KB reserved per block
    A.SharedAllocationUnit = 128;             // [OCC] 128 bytes from cc 8
    // [SPEC] A100 SXM4 40 GB: 108 SMs, 1410 MHz boost, 1555 GB/s.
    A.Part = part("A100 SXM4 40GB", 108, 1410, 1555, "NVIDIA A100 datasheet");
    // [PG] throughput table, cc 8.0: fp16 256, fp32 64, fp64 32.
    A.FmaResultsPerClockPerSM = {256, 64, 32};
    // [SPEC] A100 datasheet: 19.5 TFLOPS fp32, 9.7 fp64; A100 whitepaper:
    // 78 TFLOPS fp16 non-tensor (vendor figures; derived: 19.49, 9.75, 77.97).
    A.Part.VendorPeakGflops = {78000, 19500, 9700};
    A.Part.PeakSource = "NVIDIA A100 datasheet and Ampere (GA100) whitepaper";
    Table.push_back(std::move(A));
  }
  {
    ArchSpec A = modernBase("sm_86", "Ampere", 8, 6);
    setThreadLimits(A, 1536, 16);    // [PG] 1536 threads; [OCC] 16 blocks
    A.SharedMemoryPerSM = 100 * KiB; // [PG] 100 KB per SM
    A.SharedCarveoutSteps = GA10xCarveouts;   // [OCC] other 8.x steps
    A.SharedMemoryPerBlockOptin = 99 * KiB;   // [PG] 99 KB per block
    A.ReservedSharedMemoryPerBlock = 1 * KiB; // [PG] 1 KB from cc 8.0
    A.SharedAllocationUnit = 128;             // [OCC] 128 bytes from cc 8
    // [SPEC] GeForce RTX 3090: 82 SMs, 1695 MHz boost, 936 GB/s.
    A.Part = part("GeForce RTX 3090", 82, 1695, 936,
                  "NVIDIA GeForce RTX 3090 specifications");
    // [PG] throughput table, cc 8.6: fp32 128, fp64 2 (fp16 not known here).
    A.FmaResultsPerClockPerSM = {0, 128, 2};
    // [SPEC] GA102 whitepaper: 35.6 TFLOPS fp32 for the RTX 3090 (vendor
    // figure; derived: 35.58).
    A.Part.VendorPeakGflops = {0, 35600, 0};
    A.Part.PeakSource = "NVIDIA Ampere GA102 whitepaper";
    Table.push_back(std::move(A));
  }
  {
    ArchSpec A = modernBase("sm_87", "Ampere", 8, 7);
    // [PG] and [PROP] Jetson AGX Orin: 1536 threads per SM; [OCC] 16 blocks
    // (cudaOccMaxBlocksPerMultiprocessor: 8.x other than 8.0 and 8.9).
    setThreadLimits(A, 1536, 16);
    A.SharedMemoryPerSM = 164 * KiB;          // [PG] 164 KB per SM
    A.SharedCarveoutSteps = GA100Carveouts;   // [OCC] 8.7 shares 8.0's steps
    A.SharedMemoryPerBlockOptin = 163 * KiB;  // [PG] 163 KB per block
    A.ReservedSharedMemoryPerBlock = 1 * KiB; // [PG] 1 KB from cc 8.0
    A.SharedAllocationUnit = 128;             // [OCC] 128 bytes from cc 8
    // [SPEC] Jetson AGX Orin 64GB: 16 SMs (2048 cores), 1300 MHz,
    // 204.8 GB/s.
    A.Part = part("Jetson AGX Orin 64GB", 16, 1300, 204.8,
                  "NVIDIA Jetson AGX Orin series datasheet");
    // [PG] throughput table, cc 8.7: fp32 128 (fp16 and fp64 not known here).
    A.FmaResultsPerClockPerSM = {0, 128, 0};
    Table.push_back(std::move(A));
  }
  {
    ArchSpec A = modernBase("sm_89", "Ada Lovelace", 8, 9);
    setThreadLimits(A, 1536, 24);    // [PG] 1536 threads; [OCC] 24 blocks
    A.SharedMemoryPerSM = 100 * KiB; // [PG] 100 KB per SM
    A.SharedCarveoutSteps = GA10xCarveouts;   // [OCC] other 8.x steps
    A.SharedMemoryPerBlockOptin = 99 * KiB;   // [PG] 99 KB per block
    A.ReservedSharedMemoryPerBlock = 1 * KiB; // [PG] 1 KB from cc 8.0
    A.SharedAllocationUnit = 128;             // [OCC] 128 bytes from cc 8
    // [SPEC] GeForce RTX 4090: 128 SMs, 2520 MHz boost, 1008 GB/s.
    A.Part = part("GeForce RTX 4090", 128, 2520, 1008,
                  "NVIDIA GeForce RTX 4090 specifications");
    // [PG] throughput table, cc 8.9: fp32 128, fp64 2 (fp16 not known here).
    A.FmaResultsPerClockPerSM = {0, 128, 2};
    // [SPEC] Ada Lovelace whitepaper: 82.6 TFLOPS fp32 non-tensor for the
    // RTX 4090 (vendor figure; derived: 82.58).
    A.Part.VendorPeakGflops = {0, 82600, 0};
    A.Part.PeakSource = "NVIDIA Ada Lovelace architecture whitepaper";
    Table.push_back(std::move(A));
  }

  // --- Hopper. Every limit below was also read on the project's H200
  // (cudaGetDeviceProperties, CUDA 13.0): cc 9.0, 132 SMs, 2048 threads and
  // 32 blocks per SM, 65536 registers per SM and per block, 233472 bytes
  // shared per SM, 49152 per block, 232448 opt-in, 1024 reserved.
  {
    ArchSpec A = modernBase("sm_90", "Hopper", 9, 0);
    setThreadLimits(A, 2048, 32);             // [PG] [H200]; [OCC] 32 blocks
    A.SharedMemoryPerSM = 228 * KiB;          // [PG] [H200] 233472 bytes
    A.SharedCarveoutSteps = HopperCarveouts;  // [OCC] 9.x steps
    A.SharedMemoryPerBlockOptin = 227 * KiB;  // [PG] [H200] 232448 bytes
    A.ReservedSharedMemoryPerBlock = 1 * KiB; // [PG] [H200] 1024 bytes
    A.SharedAllocationUnit = 128;             // [OCC] 128 bytes from cc 8
    // [OCC] cudaOccMaxBlocksPerSMBlockBarrierLimit: 2 per block slot.
    A.BlockBarriersPerSM = 2 * 32;
    // H200 SXM: 132 SMs ([H200] multiProcessorCount), 1980 MHz ([H200]
    // nvidia-smi clocks.max.sm and cudaDevAttrClockRate), 4.8 TB/s HBM3e
    // ([SPEC] datasheet; [H200] 6016-bit bus x 2 x 3201 MHz = 4.81 TB/s).
    A.Part = part("H200 SXM", 132, 1980, 4800,
                  "NVIDIA H200 datasheet (bandwidth); SM count and clock read "
                  "on the project's H200");
    // [PG] throughput table, cc 9.0: fp16 256, fp32 128, fp64 64.
    A.FmaResultsPerClockPerSM = {256, 128, 64};
    // [SPEC] H200 datasheet: 67 TFLOPS fp32, 34 fp64 (vendor figures;
    // derived from 132 SMs at 1980 MHz: 66.9, 33.5). fp16 non-tensor is not
    // in the datasheet: derived, 133.8 (the H100 whitepaper's figure for the
    // same SM count and clock).
    A.Part.VendorPeakGflops = {0, 67000, 34000};
    A.Part.PeakSource = "NVIDIA H200 datasheet";
    Table.push_back(std::move(A));
  }

  // --- Blackwell.
  {
    ArchSpec A = modernBase("sm_100", "Blackwell", 10, 0);
    setThreadLimits(A, 2048, 32);    // [PG] 2048 threads; [OCC] 32 blocks
    A.SharedMemoryPerSM = 228 * KiB; // [PG] 228 KB per SM
    A.SharedCarveoutSteps = HopperCarveouts;  // [OCC] 10.0 / 10.1 / 10.3
    A.SharedMemoryPerBlockOptin = 227 * KiB;  // [PG] 227 KB per block
    A.ReservedSharedMemoryPerBlock = 1 * KiB; // [PG] 1 KB from cc 8.0
    A.SharedAllocationUnit = 128;             // [OCC] 128 bytes from cc 8
    A.BlockBarriersPerSM = 2 * 32;            // [OCC] 2 per block slot on 10.0
    // [SPEC] B200: 148 SMs, 8 TB/s HBM3e (DGX B200 datasheet, per GPU).
    // The boost clock is not in NVIDIA's datasheet: 0 = unknown.
    A.Part = part("B200", 148, 0, 8000,
                  "NVIDIA DGX B200 datasheet (bandwidth); SM count from "
                  "published deviceQuery output; clock not published");
    // [PG] throughput table, cc 10.0: fp32 128 (no clock published: no
    // derived peak).
    A.FmaResultsPerClockPerSM = {0, 128, 0};
    Table.push_back(std::move(A));
  }
  {
    ArchSpec A = modernBase("sm_103", "Blackwell Ultra", 10, 3);
    setThreadLimits(A, 2048, 32);    // [PG]; [OCC] 32 blocks (10.x != 10.1)
    A.SharedMemoryPerSM = 228 * KiB; // [PG] 228 KB per SM
    A.SharedCarveoutSteps = HopperCarveouts;  // [OCC] 10.3
    A.SharedMemoryPerBlockOptin = 227 * KiB;  // [PG] 227 KB per block
    A.ReservedSharedMemoryPerBlock = 1 * KiB; // [PG] 1 KB from cc 8.0
    A.SharedAllocationUnit = 128;             // [OCC] 128 bytes from cc 8
    A.BlockBarriersPerSM = 2 * 32;            // [OCC] 2 per block slot on 10.3
    // [SPEC] B300: 8 TB/s HBM3e (NVIDIA Blackwell Ultra announcement). The
    // enabled SM count and the boost clock of shipping parts are not
    // published: 0 = unknown.
    A.Part = part("B300", 0, 0, 8000,
                  "NVIDIA Blackwell Ultra announcement (bandwidth only)");
    // [PG] throughput table, cc 10.3: fp32 128 (no SM count or clock
    // published: no derived peak).
    A.FmaResultsPerClockPerSM = {0, 128, 0};
    Table.push_back(std::move(A));
  }
  {
    // Jetson Thor (CUDA 13 renamed its sm_101 to sm_110). [PROP] is the
    // deviceQuery of a Jetson AGX Thor under CUDA 13.0, as published in
    // NVIDIA/cutlass issue 2784 and in the Jetson AI Lab setup guide.
    ArchSpec A = modernBase("sm_110", "Blackwell (Jetson Thor)", 11, 0);
    setThreadLimits(A, 1536, 24);    // [PROP] 1536 threads; [OCC] 24 blocks on 11.0
    A.SharedMemoryPerSM = 228 * KiB; // [PROP] 233472 bytes per SM
    A.SharedCarveoutSteps = HopperCarveouts;  // [OCC] 11.0 as 10.x
    // Not printed by deviceQuery: the SM's capacity less the 1 KB the
    // runtime reserves per block, the rule every cc 8.0+ row above follows.
    A.SharedMemoryPerBlockOptin = 227 * KiB;
    A.ReservedSharedMemoryPerBlock = 1 * KiB; // [PG] 1 KB from cc 8.0
    A.SharedAllocationUnit = 128;             // [OCC] 128 bytes from cc 8
    A.BlockBarriersPerSM = 1 * 24;            // [OCC] 1 per block slot on 11.0
    // [PROP] 20 SMs, clock rate 1049 MHz; [SPEC] 273 GB/s LPDDR5X (Jetson
    // AGX Thor datasheet; [PROP] of CUDA 13.2: 256-bit at 4266 MHz x 2).
    A.Part = part("Jetson AGX Thor", 20, 1049, 273,
                  "deviceQuery of a Jetson AGX Thor (SMs, clock); Jetson AGX "
                  "Thor datasheet (bandwidth)");
    // [PROP] 128 CUDA cores per SM: fp32 128 per clock (fp16, fp64 not
    // known here).
    A.FmaResultsPerClockPerSM = {0, 128, 0};
    Table.push_back(std::move(A));
  }
  {
    ArchSpec A = modernBase("sm_120", "Blackwell (GeForce)", 12, 0);
    setThreadLimits(A, 1536, 24);    // [PG] 1536 threads; [OCC] 24 blocks
    A.SharedMemoryPerSM = 100 * KiB; // [PG] 100 KB per SM
    A.SharedCarveoutSteps = GA10xCarveouts;   // [OCC] 12.0 / 12.1
    A.SharedMemoryPerBlockOptin = 99 * KiB;   // [PG] 99 KB per block
    A.ReservedSharedMemoryPerBlock = 1 * KiB; // [PG] 1 KB from cc 8.0
    A.SharedAllocationUnit = 128;             // [OCC] 128 bytes from cc 8
    A.BlockBarriersPerSM = 1 * 24;            // [OCC] 1 per block slot on 12.x
    // [SPEC] GeForce RTX 5090: 170 SMs, 2407 MHz boost, 1792 GB/s.
    A.Part = part("GeForce RTX 5090", 170, 2407, 1792,
                  "NVIDIA GeForce RTX 5090 specifications");
    // [PG] throughput table, cc 12.0: fp32 128, fp64 2 (fp16 not known here).
    A.FmaResultsPerClockPerSM = {0, 128, 2};
    Table.push_back(std::move(A));
  }
  {
    // DGX Spark's GB10. cc 12.1 shares the 12.x column of [PG] and every
    // 12.x branch of [OCC] with 12.0: sm_120's limits, another part.
    ArchSpec A = Table.back();
    A.Name = "sm_121";
    A.Family = "Blackwell (GB10)";
    A.ComputeMinor = 1;
    // [PROP] 48 SMs, clock rate 2418 MHz (a published deviceQuery of a DGX
    // Spark, CUDA 13.0); [SPEC] 273 GB/s LPDDR5X (DGX Spark specifications).
    A.Part = part("DGX Spark GB10", 48, 2418, 273,
                  "deviceQuery of a DGX Spark (SMs, clock); NVIDIA DGX Spark "
                  "specifications (bandwidth)");
    Table.push_back(std::move(A));
  }
  return Table;
}

std::string lowerTrimmed(std::string_view Text) {
  std::size_t Begin = 0, End = Text.size();
  while (Begin < End && std::isspace(static_cast<unsigned char>(Text[Begin])))
    ++Begin;
  while (End > Begin && std::isspace(static_cast<unsigned char>(Text[End - 1])))
    --End;
  std::string Out;
  for (char C : Text.substr(Begin, End - Begin))
    Out.push_back(
        static_cast<char>(std::tolower(static_cast<unsigned char>(C))));
  return Out;
}

bool allDigits(std::string_view Text) {
  return !Text.empty() && std::all_of(Text.begin(), Text.end(), [](char C) {
    return std::isdigit(static_cast<unsigned char>(C));
  });
}

} // namespace

std::string ArchSpec::computeCapability() const {
  return std::to_string(ComputeMajor) + "." + std::to_string(ComputeMinor);
}

const std::vector<ArchSpec> &knownArchs() {
  static const std::vector<ArchSpec> Table = buildTable();
  return Table;
}

std::vector<std::string> knownArchNames() {
  std::vector<std::string> Names;
  for (const ArchSpec &A : knownArchs())
    Names.push_back(A.Name);
  return Names;
}

const ArchSpec *findArch(std::string_view Name) {
  std::string Key = lowerTrimmed(Name);
  if (Key.empty())
    return nullptr;
  for (const ArchSpec &A : knownArchs())
    if (A.Name == Key)
      return &A;

  // "sm_90", "sm_90a", "sm_100f", "compute_90", "compute_90a" -> "90".
  std::string_view Rest = Key;
  for (std::string_view Prefix : {"sm_", "compute_", "sm", "compute"}) {
    if (Rest.substr(0, Prefix.size()) == Prefix) {
      Rest.remove_prefix(Prefix.size());
      break;
    }
  }
  // The arch-specific ('a') and family-specific ('f') variants run on the
  // same SM as the plain target.
  if (!Rest.empty() && (Rest.back() == 'a' || Rest.back() == 'f'))
    Rest.remove_suffix(1);

  unsigned Major = 0, Minor = 0;
  if (std::size_t Dot = Rest.find('.'); Dot != std::string_view::npos) {
    // "9.0".
    std::string_view MajorText = Rest.substr(0, Dot);
    std::string_view MinorText = Rest.substr(Dot + 1);
    if (!allDigits(MajorText) || MinorText.size() != 1 || !allDigits(MinorText))
      return nullptr;
    Major = static_cast<unsigned>(std::stoul(std::string(MajorText)));
    Minor = static_cast<unsigned>(MinorText[0] - '0');
  } else {
    // "90", "100": the last digit is the minor version.
    if (!allDigits(Rest) || Rest.size() < 2 || Rest.size() > 3)
      return nullptr;
    unsigned Number = static_cast<unsigned>(std::stoul(std::string(Rest)));
    Major = Number / 10;
    Minor = Number % 10;
  }
  for (const ArchSpec &A : knownArchs())
    if (A.ComputeMajor == Major && A.ComputeMinor == Minor)
      return &A;
  return nullptr;
}

const ArchSpec &findArchOrDefault(std::string_view Name) {
  const ArchSpec *A = findArch(Name);
  return A ? *A : *findArch(DefaultArchName);
}

double peakFlopsPerSecond(const ArchSpec &A, FloatPrecision P, bool *FromVendor) {
  int I = static_cast<int>(P);
  if (FromVendor)
    *FromVendor = false;
  if (A.Part.VendorPeakGflops[I] > 0) {
    if (FromVendor)
      *FromVendor = true;
    return A.Part.VendorPeakGflops[I] * 1e9;
  }
  // A multiply-add is two operations: the peak counts every result as one.
  return 2.0 * A.FmaResultsPerClockPerSM[I] * A.Part.SMCount * A.Part.BoostClockMHz * 1e6;
}

RooflineMachine rooflineMachine(const ArchSpec &A, FloatPrecision P) {
  return {peakFlopsPerSecond(A, P), A.Part.MemoryBandwidthGBps * 1e9};
}

ArchSpec makeTextbookArch(const TextbookArchParams &Params) {
  ArchSpec A;
  A.Name = Params.Name;
  A.Family = "textbook";
  A.WarpSize = 32;
  setThreadLimits(A, Params.MaxThreadsPerSM, Params.MaxBlocksPerSM);
  A.MaxThreadsPerBlock = Params.MaxThreadsPerBlock;
  // Textbooks name no extents: any shape within the thread limit.
  A.MaxBlockDim = {Params.MaxThreadsPerBlock, Params.MaxThreadsPerBlock,
                   Params.MaxThreadsPerBlock};
  A.MaxGridDim = {2147483647u, 65535, 65535};
  A.RegistersPerSM = Params.RegistersPerSM;
  A.MaxRegistersPerBlock = Params.RegistersPerSM;
  A.MaxRegistersPerThread = 255;
  // The textbook rule has no granularity: allocating per warp in units of
  // one register with no sub-partition split gives exactly
  // floor(registers per SM / (threads x registers per thread)).
  A.RegisterAllocation = RegisterAllocationScope::PerWarp;
  A.RegisterAllocationUnit = 1;
  A.WarpAllocationGranularity = 1;
  A.SharedMemoryPerSM = Params.SharedMemoryPerSM;
  A.SharedMemoryPerBlock = Params.SharedMemoryPerSM;
  A.SharedMemoryPerBlockOptin = Params.SharedMemoryPerSM;
  A.MaxStaticSharedPerBlock = Params.SharedMemoryPerSM;
  A.SharedAllocationUnit = 1;
  A.ReservedSharedMemoryPerBlock = 0;
  A.MaxBarriersPerBlock = 16;
  A.BlockBarriersPerSM = 0;
  A.SharedBanks = Params.SharedBanks;
  return A;
}

ArchSpec makeTextbookG80() {
  TextbookArchParams P;
  P.Name = "g80-textbook";
  P.RegistersPerSM = 8192;        // seed 003: 8K registers per SM
  P.MaxThreadsPerSM = 768;        // [PG] cc 1.0
  P.MaxBlocksPerSM = 8;           // [PG] cc 1.0
  P.MaxThreadsPerBlock = 512;     // seed 003: 16 warps, 512 threads per block
  P.SharedMemoryPerSM = 16 * KiB; // seed 003: 16 KB per SM
  P.SharedBanks = SharedMemoryGeometry{16, 4, 16}; // seed 003: 16 banks,
                                                   // per half-warp
  ArchSpec A = makeTextbookArch(P);
  A.ComputeMajor = 1;
  A.ComputeMinor = 0;
  A.MaxBarriersPerBlock = 1;
  return A;
}

std::string validateArch(const ArchSpec &A) {
  if (A.WarpSize == 0)
    return "warp size is 0";
  if (A.MaxThreadsPerSM == 0 || A.MaxWarpsPerSM == 0)
    return "no threads per SM";
  if (A.MaxWarpsPerSM * A.WarpSize != A.MaxThreadsPerSM)
    return "threads per SM (" + std::to_string(A.MaxThreadsPerSM) +
           ") is not warps per SM (" + std::to_string(A.MaxWarpsPerSM) +
           ") x warp size";
  if (A.MaxBlocksPerSM == 0)
    return "no blocks per SM";
  if (A.MaxThreadsPerBlock == 0)
    return "no threads per block";
  if (A.RegistersPerSM == 0 || A.MaxRegistersPerBlock == 0)
    return "no registers";
  if (A.MaxRegistersPerThread == 0)
    return "no registers per thread";
  if (A.RegisterAllocationUnit == 0)
    return "register allocation unit is 0";
  if (A.WarpAllocationGranularity == 0)
    return "warp allocation granularity is 0";
  if (A.SharedAllocationUnit == 0)
    return "shared allocation unit is 0";
  if (A.SharedMemoryPerSM == 0)
    return "no shared memory per SM";
  if (!std::is_sorted(A.SharedCarveoutSteps.begin(),
                      A.SharedCarveoutSteps.end()))
    return "carveout steps are not ascending";
  if (!A.SharedCarveoutSteps.empty() &&
      A.SharedCarveoutSteps.back() < A.SharedMemoryPerSM)
    return "the largest carveout step is below the shared memory per SM";
  return {};
}

} // namespace warpcheck::model
