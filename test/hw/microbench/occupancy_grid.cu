// Occupancy ground truth for warpcheck's hardware model (sm_90, H200).
//
// Records what the CUDA runtime says about occupancy for kernels of controlled register counts
// and static shared-memory sizes, over block sizes, dynamic shared sizes and carveout settings;
// the device properties that govern occupancy; and launches a few of the kernels so that ncu's
// launch__* metrics can be read for them (joined by launch order with the launch CSV).
//
// Kernels:
//   occ_kernel<R, S>  __maxnreg__(R), S bytes of static __shared__; it keeps R + 8 floats live
//                     (capped at 256) so ptxas fills the cap (and spills the rest): numRegs == R
//                     is expected but the measured value is recorded, never assumed. R = 16 is
//                     left out: ptxas 13.0 warns "adjusting per thread register count of 16 to
//                     lower bound of 24" for sm_90.
//   nat_kernel<K>     no register cap, K floats live: whatever ptxas picks (small counts, to see
//                     how launch__registers_per_thread rounds them).
//   empty_kernel      does nothing.
//
// Usage: occupancy_grid GRID.csv PROPS.json LAUNCHES.csv [--no-grid]
//   GRID.csv      phase,kernel,reg_cap,static_smem_req,num_regs,local_bytes,static_smem,
//                 max_threads_per_block,max_dyn_smem_attr,carveout,block,dyn_smem,status,
//                 active_blocks,active_warps,occupancy_pct
//   PROPS.json    device properties and attributes
//   LAUNCHES.csv  launch,kernel,reg_cap,static_smem_req,num_regs,local_bytes,static_smem,block,
//                 dyn_smem,grid,status,runtime_active_blocks   (launch = ncu result ID; -1 = refused)
// Phases: "default" (no function attribute set), "optin" (cudaFuncAttributeMaxDynamicSharedMemorySize
// = sharedMemPerBlockOptin - static), "carveout" (cudaFuncAttributePreferredSharedMemoryCarveout =
// 0/25/50/100 %, then reset to the default -1).

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "microbench_common.h"

#include "occupancy_kernel.cuh"

template <int K>
__global__ void nat_kernel(float* out, int iters, int sidx) {
  (void)sidx;
  float v[K];
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int i = 0; i < K; ++i) v[i] = out[t + i];
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int i = 0; i < K; ++i) v[i] = fmaf(v[i], v[(i + 1) % K], 1.0f);
  }
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < K; ++i) s += v[i];
  out[t] = s;
}

__global__ void empty_kernel(float* out, int iters, int sidx) {
  (void)out;
  (void)iters;
  (void)sidx;
}

using KFn = void (*)(float*, int, int);

struct KernelInfo {
  std::string name;
  int reg_cap;      // __maxnreg__ value, 0 = none
  int smem_req;     // static shared bytes asked for in the source
  KFn fn;
  cudaFuncAttributes attr;
};

#define OCC(R, S) {"occ_kernel<" #R "," #S ">", R, S, occ_kernel<R, S>, {}}
#define OCC_ALL_S(R) OCC(R, 0), OCC(R, 1024), OCC(R, 8192), OCC(R, 16384), OCC(R, 40960)

static std::vector<KernelInfo> make_kernels() {
  return {
      {"empty_kernel", 0, 0, empty_kernel, {}},
      {"nat_kernel<1>", 0, 0, nat_kernel<1>, {}},
      {"nat_kernel<2>", 0, 0, nat_kernel<2>, {}},
      {"nat_kernel<4>", 0, 0, nat_kernel<4>, {}},
      {"nat_kernel<8>", 0, 0, nat_kernel<8>, {}},
      {"nat_kernel<12>", 0, 0, nat_kernel<12>, {}},
      {"nat_kernel<16>", 0, 0, nat_kernel<16>, {}},
      {"nat_kernel<24>", 0, 0, nat_kernel<24>, {}},
      {"nat_kernel<32>", 0, 0, nat_kernel<32>, {}},
      OCC_ALL_S(24), OCC_ALL_S(32), OCC_ALL_S(40), OCC_ALL_S(48), OCC_ALL_S(56), OCC_ALL_S(64),
      OCC_ALL_S(72), OCC_ALL_S(80), OCC_ALL_S(96), OCC_ALL_S(128), OCC_ALL_S(168), OCC_ALL_S(200),
      OCC_ALL_S(255),
      // Odd caps, no shared memory: register allocation granularity.
      OCC(25, 0), OCC(28, 0), OCC(30, 0), OCC(33, 0), OCC(36, 0), OCC(41, 0), OCC(44, 0),
      OCC(65, 0), OCC(100, 0), OCC(129, 0), OCC(232, 0),
  };
}

static const int kBlocks[] = {32, 64, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024};

struct GridWriter {
  FILE* f;
  const cudaDeviceProp* prop;
  void header() {
    std::fprintf(f,
                 "phase,kernel,reg_cap,static_smem_req,num_regs,local_bytes,static_smem,max_threads_per_block,"
                 "max_dyn_smem_attr,carveout,block,dyn_smem,status,active_blocks,active_warps,occupancy_pct\n");
  }
  void row(const char* phase, const KernelInfo& k, int max_dyn_attr, int carveout, int block, size_t dyn) {
    int nb = -1;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k.fn, block, dyn);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();  // not sticky; clear it
      nb = -1;
    }
    const int warps_per_block = (block + 31) / 32;
    const int aw = nb > 0 ? nb * warps_per_block : 0;
    const double pct = 100.0 * aw / (prop->maxThreadsPerMultiProcessor / 32);
    std::fprintf(f, "%s,\"%s\",%d,%d,%d,%zu,%zu,%d,%d,%d,%d,%zu,%s,%d,%d,%.4f\n", phase, k.name.c_str(),
                 k.reg_cap, k.smem_req, k.attr.numRegs, k.attr.localSizeBytes, k.attr.sharedSizeBytes,
                 k.attr.maxThreadsPerBlock, max_dyn_attr, carveout, block, dyn, cudaGetErrorName(e), nb, aw,
                 pct);
  }
};

static void write_props(const char* path, const cudaDeviceProp& p, int dev) {
  FILE* f = std::fopen(path, "w");
  if (!f) {
    std::perror(path);
    std::exit(1);
  }
  int drv = 0, rt = 0;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  std::fprintf(f, "{\n  \"name\": \"%s\",\n  \"major\": %d,\n  \"minor\": %d,\n", p.name, p.major, p.minor);
  std::fprintf(f, "  \"driver_version\": %d,\n  \"runtime_version\": %d,\n", drv, rt);
  std::fprintf(f, "  \"props\": {\n");
  std::fprintf(f, "    \"multiProcessorCount\": %d,\n", p.multiProcessorCount);
  std::fprintf(f, "    \"maxThreadsPerMultiProcessor\": %d,\n", p.maxThreadsPerMultiProcessor);
  std::fprintf(f, "    \"maxBlocksPerMultiProcessor\": %d,\n", p.maxBlocksPerMultiProcessor);
  std::fprintf(f, "    \"maxThreadsPerBlock\": %d,\n", p.maxThreadsPerBlock);
  std::fprintf(f, "    \"regsPerMultiprocessor\": %d,\n", p.regsPerMultiprocessor);
  std::fprintf(f, "    \"regsPerBlock\": %d,\n", p.regsPerBlock);
  std::fprintf(f, "    \"sharedMemPerMultiprocessor\": %zu,\n", p.sharedMemPerMultiprocessor);
  std::fprintf(f, "    \"sharedMemPerBlock\": %zu,\n", p.sharedMemPerBlock);
  std::fprintf(f, "    \"sharedMemPerBlockOptin\": %zu,\n", p.sharedMemPerBlockOptin);
  std::fprintf(f, "    \"reservedSharedMemPerBlock\": %zu,\n", p.reservedSharedMemPerBlock);
  std::fprintf(f, "    \"warpSize\": %d,\n", p.warpSize);
  std::fprintf(f, "    \"l2CacheSize\": %d,\n", p.l2CacheSize);
  std::fprintf(f, "    \"persistingL2CacheMaxSize\": %d,\n", p.persistingL2CacheMaxSize);
  std::fprintf(f, "    \"totalGlobalMem\": %zu,\n", p.totalGlobalMem);
  std::fprintf(f, "    \"totalConstMem\": %zu,\n", p.totalConstMem);
  std::fprintf(f, "    \"memoryBusWidth\": %d\n", p.memoryBusWidth);
  std::fprintf(f, "  },\n  \"attributes\": {\n");
  struct A {
    const char* n;
    cudaDeviceAttr a;
  };
  const A attrs[] = {
      {"cudaDevAttrClockRate_kHz", cudaDevAttrClockRate},
      {"cudaDevAttrMemoryClockRate_kHz", cudaDevAttrMemoryClockRate},
      {"cudaDevAttrGlobalMemoryBusWidth", cudaDevAttrGlobalMemoryBusWidth},
      {"cudaDevAttrMultiProcessorCount", cudaDevAttrMultiProcessorCount},
      {"cudaDevAttrMaxThreadsPerMultiProcessor", cudaDevAttrMaxThreadsPerMultiProcessor},
      {"cudaDevAttrMaxBlocksPerMultiprocessor", cudaDevAttrMaxBlocksPerMultiprocessor},
      {"cudaDevAttrMaxRegistersPerMultiprocessor", cudaDevAttrMaxRegistersPerMultiprocessor},
      {"cudaDevAttrMaxRegistersPerBlock", cudaDevAttrMaxRegistersPerBlock},
      {"cudaDevAttrMaxSharedMemoryPerMultiprocessor", cudaDevAttrMaxSharedMemoryPerMultiprocessor},
      {"cudaDevAttrMaxSharedMemoryPerBlock", cudaDevAttrMaxSharedMemoryPerBlock},
      {"cudaDevAttrMaxSharedMemoryPerBlockOptin", cudaDevAttrMaxSharedMemoryPerBlockOptin},
      {"cudaDevAttrReservedSharedMemoryPerBlock", cudaDevAttrReservedSharedMemoryPerBlock},
      {"cudaDevAttrMaxThreadsPerBlock", cudaDevAttrMaxThreadsPerBlock},
      {"cudaDevAttrWarpSize", cudaDevAttrWarpSize},
      {"cudaDevAttrL2CacheSize", cudaDevAttrL2CacheSize},
      {"cudaDevAttrComputeCapabilityMajor", cudaDevAttrComputeCapabilityMajor},
      {"cudaDevAttrComputeCapabilityMinor", cudaDevAttrComputeCapabilityMinor},
      {"cudaDevAttrSingleToDoublePrecisionPerfRatio", cudaDevAttrSingleToDoublePrecisionPerfRatio},
      {"cudaDevAttrGlobalL1CacheSupported", cudaDevAttrGlobalL1CacheSupported},
      {"cudaDevAttrLocalL1CacheSupported", cudaDevAttrLocalL1CacheSupported},
      {"cudaDevAttrClusterLaunch", cudaDevAttrClusterLaunch},
  };
  const size_t n = sizeof(attrs) / sizeof(attrs[0]);
  for (size_t i = 0; i < n; ++i) {
    int v = 0;
    cudaError_t e = cudaDeviceGetAttribute(&v, attrs[i].a, dev);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      std::fprintf(f, "    \"%s\": null%s\n", attrs[i].n, i + 1 < n ? "," : "");
    } else {
      std::fprintf(f, "    \"%s\": %d%s\n", attrs[i].n, v, i + 1 < n ? "," : "");
    }
  }
  std::fprintf(f, "  }\n}\n");
  std::fclose(f);
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s GRID.csv PROPS.json LAUNCHES.csv [--no-grid]\n", argv[0]);
    return 1;
  }
  const bool do_grid = !(argc > 4 && std::strcmp(argv[4], "--no-grid") == 0);
  const int dev = 0;
  MB_CHECK(cudaSetDevice(dev));
  cudaDeviceProp prop;
  MB_CHECK(cudaGetDeviceProperties(&prop, dev));
  std::printf("# device %s sm_%d%d, %d SMs\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
  write_props(argv[2], prop, dev);

  std::vector<KernelInfo> ks = make_kernels();
  for (KernelInfo& k : ks) MB_CHECK(cudaFuncGetAttributes(&k.attr, k.fn));

  const int optin = static_cast<int>(prop.sharedMemPerBlockOptin);
  FILE* g = std::fopen(argv[1], "w");
  if (!g) {
    std::perror(argv[1]);
    return 1;
  }
  GridWriter gw{g, &prop};
  gw.header();
  int rows = 0;
  for (KernelInfo& k : ks) {
    const int max_dyn = optin - static_cast<int>(k.attr.sharedSizeBytes);
    // Phase "default": no function attribute set (dynamic shared up to the 48 KB default).
    if (do_grid) {
      for (int b : kBlocks) {
        if (b > k.attr.maxThreadsPerBlock) continue;
        for (size_t d : {size_t(0), size_t(1024), size_t(4096), size_t(16384), size_t(49152)}) {
          gw.row("default", k, k.attr.maxDynamicSharedSizeBytes, -1, b, d);
          ++rows;
        }
      }
    }
    // Phase "optin": allow the whole opt-in size.
    MB_CHECK(cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, max_dyn));
    MB_CHECK(cudaFuncGetAttributes(&k.attr, k.fn));
    if (do_grid) {
      for (int b : kBlocks) {
        if (b > k.attr.maxThreadsPerBlock) continue;
        for (size_t d : {size_t(0), size_t(1024), size_t(4096), size_t(16384), size_t(49152), size_t(65536),
                         size_t(102400), static_cast<size_t>(max_dyn)}) {
          if (d > static_cast<size_t>(max_dyn)) continue;  // invalid for this kernel
          gw.row("optin", k, k.attr.maxDynamicSharedSizeBytes, -1, b, d);
          ++rows;
        }
      }
    }
  }
  // Phase "carveout": a subset of kernels, then back to the default preference.
  if (do_grid) {
    for (KernelInfo& k : ks) {
      const bool pick = (k.reg_cap == 32 || k.reg_cap == 64 || k.reg_cap == 128 || k.reg_cap == 255) &&
                        (k.smem_req == 0 || k.smem_req == 16384);
      if (!pick) continue;
      const int max_dyn = optin - static_cast<int>(k.attr.sharedSizeBytes);
      for (int c : {0, 25, 50, 100}) {
        cudaError_t e = cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, c);
        if (e != cudaSuccess) {
          (void)cudaGetLastError();
          std::fprintf(stderr, "carveout %d refused for %s: %s\n", c, k.name.c_str(), cudaGetErrorName(e));
          continue;
        }
        for (int b : {128, 256, 512, 1024}) {
          if (b > k.attr.maxThreadsPerBlock) continue;
          for (size_t d : {size_t(0), size_t(16384), size_t(65536)}) {
            if (d > static_cast<size_t>(max_dyn)) continue;
            gw.row("carveout", k, k.attr.maxDynamicSharedSizeBytes, c, b, d);
            ++rows;
          }
        }
      }
      MB_CHECK(cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, -1));
    }
  }
  std::fclose(g);
  std::printf("# %d occupancy rows\n", rows);

  // Launches for ncu (launch__* metrics). One launch each, grid of 2 blocks, in this order.
  struct L {
    const char* name;
    int block;
    size_t dyn;
  };
  const L launches[] = {
      {"empty_kernel", 128, 0},           {"nat_kernel<1>", 128, 0},          {"nat_kernel<4>", 128, 0},
      {"nat_kernel<8>", 256, 0},          {"nat_kernel<16>", 256, 0},         {"nat_kernel<32>", 256, 0},
      {"occ_kernel<24,0>", 256, 0},       {"occ_kernel<25,0>", 256, 0},       {"occ_kernel<32,0>", 256, 0},
      {"occ_kernel<33,0>", 256, 0},       {"occ_kernel<40,0>", 512, 0},       {"occ_kernel<41,0>", 512, 0},
      {"occ_kernel<48,0>", 256, 0},       {"occ_kernel<64,0>", 256, 0},       {"occ_kernel<65,0>", 256, 0},
      {"occ_kernel<72,1024>", 384, 0},    {"occ_kernel<128,0>", 256, 0},      {"occ_kernel<168,8192>", 128, 0},
      {"occ_kernel<255,0>", 256, 0},      {"occ_kernel<32,40960>", 256, 0},   {"occ_kernel<64,16384>", 128, 16384},
      {"occ_kernel<32,0>", 1024, 102400}, {"occ_kernel<96,16384>", 640, 65536},
  };
  FILE* lf = std::fopen(argv[3], "w");
  if (!lf) {
    std::perror(argv[3]);
    return 1;
  }
  std::fprintf(lf,
               "launch,kernel,reg_cap,static_smem_req,num_regs,local_bytes,static_smem,block,dyn_smem,grid,status,"
               "runtime_active_blocks\n");
  float* d_out = nullptr;
  MB_CHECK(cudaMalloc(&d_out, (1u << 20) * sizeof(float)));
  {
    std::vector<float> zeros(1u << 20, 0.f);
    MB_CHECK(cudaMemcpy(d_out, zeros.data(), zeros.size() * sizeof(float), cudaMemcpyHostToDevice));
  }
  // `launch` numbers the launches that reached the GPU (0, 1, 2, ...: ncu's result IDs); a
  // configuration this kernel cannot take is not launched at all, and a launch that the runtime
  // refuses anyway is listed with launch = -1 and its error, so the numbering stays aligned.
  int li = 0;
  for (const L& l : launches) {
    const KernelInfo* k = nullptr;
    for (const KernelInfo& c : ks)
      if (c.name == l.name) k = &c;
    if (!k) {
      std::fprintf(stderr, "unknown launch kernel %s\n", l.name);
      return 3;
    }
    const size_t max_dyn = static_cast<size_t>(optin) - k->attr.sharedSizeBytes;
    if (l.block > k->attr.maxThreadsPerBlock || l.dyn > max_dyn) {
      std::printf("skip %s block=%d dyn=%zu: maxThreadsPerBlock=%d max_dyn=%zu\n", k->name.c_str(), l.block, l.dyn,
                  k->attr.maxThreadsPerBlock, max_dyn);
      continue;
    }
    int nb = -1;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k->fn, l.block, l.dyn) != cudaSuccess) {
      (void)cudaGetLastError();
      nb = -1;
    }
    const int grid = 2;
    k->fn<<<grid, l.block, l.dyn>>>(d_out, 1, 0);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    const int id = (e == cudaSuccess) ? li++ : -1;
    std::fprintf(lf, "%d,\"%s\",%d,%d,%d,%zu,%zu,%d,%zu,%d,%s,%d\n", id, k->name.c_str(), k->reg_cap, k->smem_req,
                 k->attr.numRegs, k->attr.localSizeBytes, k->attr.sharedSizeBytes, l.block, l.dyn, grid,
                 cudaGetErrorName(e), nb);
    std::printf("launch %d %s numRegs=%d static_smem=%zu block=%d dyn=%zu status=%s runtime_blocks=%d\n", id,
                k->name.c_str(), k->attr.numRegs, k->attr.sharedSizeBytes, l.block, l.dyn, cudaGetErrorName(e), nb);
    if (e != cudaSuccess && e != cudaErrorLaunchOutOfResources && e != cudaErrorInvalidConfiguration &&
        e != cudaErrorInvalidValue) {
      std::fclose(lf);
      return 4;  // a fault inside a kernel is sticky: stop
    }
  }
  std::fclose(lf);
  MB_CHECK(cudaFree(d_out));
  return 0;
}
