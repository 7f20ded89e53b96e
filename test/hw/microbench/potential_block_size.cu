// What cudaOccupancyMaxPotentialBlockSize and its VariableSMem form choose
// on the device, for `warpcheck occupancy --sweep`'s suggestion
// (model::suggestBlockSize): kernels of controlled register counts
// (__maxnreg__) and static shared memory, each with fixed dynamic shared
// memory or dynamic shared memory per thread of the block, and with and
// without a block size limit. Nothing is launched.
//
// Usage: potential_block_size OUT.csv
//   kernel,reg_cap,static_smem_req,num_regs,static_smem,max_threads_per_block,
//   mode,dyn_smem,per_thread,block_limit,status,min_grid,block
//   (mode "fixed": dyn_smem bytes whatever the block; "per_thread": per_thread
//   bytes times the block size, as blockSizeToDynamicSMemSize)
#include <cstdio>
#include <string>
#include <vector>

#include "microbench_common.h"
#include "occupancy_kernel.cuh"

using KFn = void (*)(float *, int, int);
struct Kernel {
  const char *name;
  int reg_cap, smem_req;
  KFn fn;
};
// Labelled pbs_kernel<R,S>, as the records name them; the kernel is
// occupancy_kernel.cuh's occ_kernel.
#define PBS(R, S) {"pbs_kernel<" #R "," #S ">", R, S, occ_kernel<R, S>}
#define PBS_ALL_S(R) PBS(R, 0), PBS(R, 8192), PBS(R, 40960)

struct PerThread {
  int bytes;
  __host__ __device__ size_t operator()(int block) const { return static_cast<size_t>(block) * bytes; }
};

int main(int argc, char **argv) {
  FILE *csv = std::fopen(argc > 1 ? argv[1] : "potential_block_size.csv", "w");
  if (!csv) return 2;
  const Kernel kernels[] = {PBS_ALL_S(24),  PBS_ALL_S(32),  PBS_ALL_S(40), PBS_ALL_S(56),
                            PBS_ALL_S(64),  PBS_ALL_S(72),  PBS_ALL_S(96), PBS_ALL_S(128),
                            PBS_ALL_S(168), PBS_ALL_S(255), PBS(33, 0),    PBS(80, 1024)};
  const int fixed[] = {0, 1024, 4096, 16384, 40000};
  const int per_thread[] = {4, 16, 40, 100};
  const int limits[] = {0, 96, 256, 500, 1000};
  std::fprintf(csv, "kernel,reg_cap,static_smem_req,num_regs,static_smem,max_threads_per_block,"
                    "mode,dyn_smem,per_thread,block_limit,status,min_grid,block\n");
  for (const Kernel &k : kernels) {
    cudaFuncAttributes a;
    MB_CHECK(cudaFuncGetAttributes(&a, k.fn));
    auto row = [&](const char *mode, int dyn, int pt, int limit, cudaError_t st, int grid,
                   int block) {
      std::fprintf(csv, "\"%s\",%d,%d,%d,%zu,%d,%s,%d,%d,%d,%s,%d,%d\n", k.name, k.reg_cap,
                   k.smem_req, a.numRegs, a.sharedSizeBytes, a.maxThreadsPerBlock, mode, dyn, pt,
                   limit, cudaGetErrorName(st), grid, block);
    };
    for (int limit : limits) {
      for (int dyn : fixed) {
        int grid = -1, block = -1;
        cudaError_t st = cudaOccupancyMaxPotentialBlockSize(&grid, &block, k.fn, dyn, limit);
        row("fixed", dyn, 0, limit, st, grid, block);
      }
      for (int pt : per_thread) {
        int grid = -1, block = -1;
        cudaError_t st = cudaOccupancyMaxPotentialBlockSizeVariableSMem(&grid, &block, k.fn,
                                                                        PerThread{pt}, limit);
        row("per_thread", 0, pt, limit, st, grid, block);
      }
    }
  }
  std::fclose(csv);
  return 0;
}
