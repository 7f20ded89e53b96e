// Global-memory request/sector microbenchmark for warpcheck's hardware model (sm_90, H200).
//
// Each launch = ONE block of ONE warp (32 threads) executing exactly ONE global-memory
// instruction at base + off[lane], where base = cudaMalloc'd buffer (256-B aligned) + base_shift.
// The pattern (32 byte offsets, active mask, base pointer) is passed BY VALUE as a kernel parameter
// and read with LDC: there is no index-array load, so the only global access the counters see is
// the one under test.
//
// Kernels (extern "C", so ncu prints the plain name):
//   ldg_w1 ldg_w2 ldg_w4 ldg_w8 ldg_w16   one LDG.E.U8 / .U16 / (32) / .64 / .128
//   stg_w1 stg_w2 stg_w4 stg_w8 stg_w16   one STG.E.U8 / .U16 / (32) / .64 / .128
//   atom_w4   one ATOMG.E.ADD (atomicAdd on int whose result is used)
//   red_w4    one RED.E.ADD   (inline PTX red.global.add.s32: an atomicAdd whose result is ignored)
// The loads are inline PTX `ld.global.*` (default .ca caching, never .nc / LDG.CONSTANT); a loaded
// value is "used" by comparing it with `magic` (a run-time parameter, 0xFFFFFFFF, never equal to
// any value the buffer holds): only then would lane write it to `out`. So a load kernel's extra STG
// is present in the SASS but never executes: the op_st counters of load launches must read 0, and
// the converter checks that. ATOM kernels guard their result the same way.
//
// SASS expectation (checked on the device by test/hw/scripts/check_microbench_sass.py from
// `cuobjdump -sass`): exactly one LDG (resp. STG / ATOMG / RED) of the intended width, no LD/LDL/
// LDS, plus for ldg_* and atom_* one guarded STG. The development machine has no cuobjdump, so
// there (nvcc 13.0.88) it was checked on the PTX (one ld.global.{u8,u16,u32,v2.u32,v4.u32} /
// st.global.* / atom.global.add / red.global.add each, 0 bytes stack frame) and with the cubin
// opcode census (test/hw/scripts/cubin_census.py): ldg_wN = one LDG (0x981) of size U8/U16/32/64/
// 128 + one STG.32; stg_wN = one STG (0x986) of that size only; atom_w4 = one ATOMG (0x9a8) + one
// STG.32; red_w4 = one RED (0x98e) only; no LD/ST/LDL/STL/LDS anywhere.
//
// Usage: global_patterns OUT.csv [--list]   (--list: write the CSV, launch nothing, no GPU needed)
//   One launch per CSV row, in order:
//   launch,kernel,pattern_id,width,op,active_mask,base_shift,off0..off31   (bytes, from base)
// Metrics (one ncu run, all eight):
//   l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_{ld,st,atom,red}.sum

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "microbench_common.h"

struct GlobalPattern {
  unsigned char* base;  // buffer + base_shift
  uint32_t off[32];     // byte offsets from base
  uint32_t mask;        // bit i set = lane i executes the access
  uint32_t magic;       // 0xFFFFFFFF at run time
};

constexpr uint32_t kBufBytes = 1u << 20;  // 1 MiB; patterns stay below 512 KiB + shift

template <int W>
__device__ __forceinline__ void global_load(const GlobalPattern& p, unsigned* out) {
  const unsigned lane = threadIdx.x & 31u;
  if ((p.mask >> lane) & 1u) {
    const size_t a = __cvta_generic_to_global(p.base + p.off[lane]);
    unsigned x = 0, y = 0, z = 0, w = 0;
    if constexpr (W == 1) {
      asm volatile("ld.global.u8 %0, [%1];" : "=r"(x) : "l"(a) : "memory");
    } else if constexpr (W == 2) {
      asm volatile("ld.global.u16 %0, [%1];" : "=r"(x) : "l"(a) : "memory");
    } else if constexpr (W == 4) {
      asm volatile("ld.global.u32 %0, [%1];" : "=r"(x) : "l"(a) : "memory");
    } else if constexpr (W == 8) {
      asm volatile("ld.global.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "l"(a) : "memory");
    } else {
      static_assert(W == 16, "width");
      asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                   : "l"(a)
                   : "memory");
    }
    const unsigned v = x ^ y ^ z ^ w;
    if (v == p.magic) out[lane] = v;  // never true at run time
  }
}

template <int W>
__device__ __forceinline__ void global_store(const GlobalPattern& p) {
  const unsigned lane = threadIdx.x & 31u;
  if ((p.mask >> lane) & 1u) {
    const size_t a = __cvta_generic_to_global(p.base + p.off[lane]);
    const unsigned x = lane + 1u, y = lane + 2u, z = lane + 3u, w = lane + 4u;
    if constexpr (W == 1) {
      asm volatile("st.global.u8 [%0], %1;" ::"l"(a), "r"(x) : "memory");
    } else if constexpr (W == 2) {
      asm volatile("st.global.u16 [%0], %1;" ::"l"(a), "r"(x) : "memory");
    } else if constexpr (W == 4) {
      asm volatile("st.global.u32 [%0], %1;" ::"l"(a), "r"(x) : "memory");
    } else if constexpr (W == 8) {
      asm volatile("st.global.v2.u32 [%0], {%1, %2};" ::"l"(a), "r"(x), "r"(y) : "memory");
    } else {
      static_assert(W == 16, "width");
      asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(a), "r"(x), "r"(y), "r"(z), "r"(w)
                   : "memory");
    }
  }
}

#define MB_GLOBAL_KERNELS(W)                                                                   \
  extern "C" __global__ void __launch_bounds__(32) ldg_w##W(GlobalPattern p, unsigned* out) {  \
    global_load<W>(p, out);                                                                    \
  }                                                                                            \
  extern "C" __global__ void __launch_bounds__(32) stg_w##W(GlobalPattern p, unsigned* out) {  \
    (void)out;                                                                                 \
    global_store<W>(p);                                                                        \
  }

MB_GLOBAL_KERNELS(1)
MB_GLOBAL_KERNELS(2)
MB_GLOBAL_KERNELS(4)
MB_GLOBAL_KERNELS(8)
MB_GLOBAL_KERNELS(16)

// atomicAdd with the result used (ATOMG) and ignored (RED).
extern "C" __global__ void __launch_bounds__(32) atom_w4(GlobalPattern p, unsigned* out) {
  const unsigned lane = threadIdx.x & 31u;
  if ((p.mask >> lane) & 1u) {
    int* a = reinterpret_cast<int*>(p.base + p.off[lane]);
    const unsigned old = static_cast<unsigned>(atomicAdd(a, 1));
    if (old == p.magic) out[lane] = old;  // never true at run time
  }
}
extern "C" __global__ void __launch_bounds__(32) red_w4(GlobalPattern p, unsigned* out) {
  (void)out;
  const unsigned lane = threadIdx.x & 31u;
  if ((p.mask >> lane) & 1u) {
    const size_t a = __cvta_generic_to_global(p.base + p.off[lane]);
    asm volatile("red.global.add.s32 [%0], 1;" ::"l"(a) : "memory");
  }
}

using KernelFn = void (*)(GlobalPattern, unsigned*);

static KernelFn kernel_for(int width, bool load) {
  switch (width) {
    case 1: return load ? ldg_w1 : stg_w1;
    case 2: return load ? ldg_w2 : stg_w2;
    case 4: return load ? ldg_w4 : stg_w4;
    case 8: return load ? ldg_w8 : stg_w8;
    case 16: return load ? ldg_w16 : stg_w16;
    default: return nullptr;
  }
}

struct GlobalHostPattern {
  mb::HostPattern p;
  uint32_t shift;  // base_shift in bytes
};

// ---------------------------------------------------------------------------------------------
// Pattern catalogue (offsets in BYTES from base = allocation + shift).
// ---------------------------------------------------------------------------------------------
static std::vector<GlobalHostPattern> patterns_for_width(uint32_t W) {
  using mb::kLanes;
  std::vector<GlobalHostPattern> v;
  uint32_t o[kLanes];
  auto add = [&](const std::string& name, uint32_t mask, uint32_t shift) {
    v.push_back({mb::make_pattern(name, mask, o), shift});
  };
  const uint32_t ALL = 0xFFFFFFFFu;

  for (uint32_t s : {1u, 2u, 4u, 8u, 16u, 32u, 33u}) {
    for (int i = 0; i < kLanes; ++i) o[i] = W * s * i;
    add("stride_" + std::to_string(s), ALL, 0);
  }
  // Unit stride with the array start shifted off the 128-B line / 32-B sector boundaries.
  std::vector<uint32_t> shifts = {W, 32u, 64u, 96u};
  if (W < 4) shifts.push_back(4u);
  if (W == 1 || W == 2) shifts.push_back(2u);  // the "array starting at 0x102" seed
  for (uint32_t sh : shifts) {
    bool dup = false;
    for (const auto& e : v) dup |= (e.p.name == "stride_1_shift" + std::to_string(sh));
    if (dup || sh % W != 0) continue;
    for (int i = 0; i < kLanes; ++i) o[i] = W * i;
    add("stride_1_shift" + std::to_string(sh), ALL, sh);
  }
  // Stride 2 and stride 32 shifted by one element.
  for (uint32_t s : {2u, 32u}) {
    for (int i = 0; i < kLanes; ++i) o[i] = W * s * i;
    add("stride_" + std::to_string(s) + "_shift" + std::to_string(W), ALL, W);
  }
  // Reversed and half-swapped unit stride (same sectors as stride 1).
  for (int i = 0; i < kLanes; ++i) o[i] = W * (31 - i);
  add("reverse_1", ALL, 0);
  for (int i = 0; i < kLanes; ++i) o[i] = W * ((i + 16) % 32);
  add("swap_halves", ALL, 0);

  // Array of structures: field at byte f of a 24-byte struct (float at 0, 4, 20; double at 0, 8, 16).
  {
    std::vector<uint32_t> fields;
    for (uint32_t f = 0; f + W <= 24; f += W) fields.push_back(f);
    if (W == 4) fields = {0u, 4u, 20u};
    if (W == 8) fields = {0u, 8u, 16u};
    if (W == 16) fields.clear();  // 24 is not a multiple of 16
    if (W <= 2) fields = {0u};
    for (uint32_t f : fields) {
      for (int i = 0; i < kLanes; ++i) o[i] = 24 * i + f;
      add("aos24_field" + std::to_string(f), ALL, 0);
    }
    if (W == 4) {  // float3 (12-byte struct)
      for (uint32_t f : {0u, 4u, 8u}) {
        for (int i = 0; i < kLanes; ++i) o[i] = 12 * i + f;
        add("aos12_field" + std::to_string(f), ALL, 0);
      }
    }
    if (W == 16) {  // 48-byte struct of three 16-byte fields
      for (uint32_t f : {0u, 16u, 32u}) {
        for (int i = 0; i < kLanes; ++i) o[i] = 48 * i + f;
        add("aos48_field" + std::to_string(f), ALL, 0);
      }
    }
  }

  // Broadcast.
  for (int i = 0; i < kLanes; ++i) o[i] = 0;
  add("bcast_0", ALL, 0);
  for (int i = 0; i < kLanes; ++i) o[i] = 4096 + 96;
  add("bcast_4192", ALL, 0);
  // Pairs of lanes on one address.
  for (int i = 0; i < kLanes; ++i) o[i] = W * (i / 2);
  add("pairs_same_addr", ALL, 0);

  // 2-D tiles of a row-major matrix with 1024 elements per row: lane -> (x = lane % TX,
  // y = lane / TX), offset = (y * 1024 + x) * W.
  for (uint32_t TX : {4u, 8u, 16u}) {
    for (int i = 0; i < kLanes; ++i) o[i] = W * ((i / TX) * 1024 + (i % TX));
    add("tile2d_" + std::to_string(TX) + "x" + std::to_string(32 / TX) + "_pitch1024", ALL, 0);
  }
  // Column of a pitched matrix: lane i reads row i, column 5; pitch 32, 33 and 1024 elements.
  for (uint32_t pitch : {32u, 33u, 1024u}) {
    for (int i = 0; i < kLanes; ++i) o[i] = W * (i * pitch + 5);
    add("column5_pitch" + std::to_string(pitch), ALL, 0);
  }

  // Random within 4 KiB (fixed seed per width).
  {
    mb::Rng rng(0x61D0000ull + W);
    for (int k = 0; k < 3; ++k) {
      const bool distinct = (k < 2);
      mb::random_offsets(rng, 4096, W, distinct, o);
      add(std::string("rand4096_") + (distinct ? "distinct_" : "repeat_") + std::to_string(k), ALL, 0);
    }
  }

  // Partial warps (inactive lanes skip the access through the `if`).
  for (int i = 0; i < kLanes; ++i) o[i] = W * i;
  add("partial_k1_stride_1", 0x00000001u, 0);
  add("partial_k8_stride_1", 0x000000FFu, 0);
  add("partial_k16_stride_1", 0x0000FFFFu, 0);
  add("partial_k31_stride_1", 0x7FFFFFFFu, 0);
  add("partial_odd_lanes_stride_1", 0xAAAAAAAAu, 0);
  add("partial_upper_half_stride_1", 0xFFFF0000u, 0);
  add("partial_none_stride_1", 0x00000000u, 0);  // baseline: nothing must be counted
  for (int i = 0; i < kLanes; ++i) o[i] = W * 32 * i;
  add("partial_k8_stride_32", 0x000000FFu, 0);
  return v;
}

static std::vector<GlobalHostPattern> atomic_patterns() {
  using mb::kLanes;
  std::vector<GlobalHostPattern> v;
  uint32_t o[kLanes];
  auto add = [&](const std::string& name, uint32_t mask, uint32_t shift) {
    v.push_back({mb::make_pattern(name, mask, o), shift});
  };
  const uint32_t ALL = 0xFFFFFFFFu;
  for (uint32_t s : {1u, 2u, 32u}) {
    for (int i = 0; i < kLanes; ++i) o[i] = 4 * s * i;
    add("stride_" + std::to_string(s), ALL, 0);
  }
  for (int i = 0; i < kLanes; ++i) o[i] = 4 * i;
  add("stride_1_shift64", ALL, 64);
  for (int i = 0; i < kLanes; ++i) o[i] = 0;
  add("same_addr", ALL, 0);
  for (int i = 0; i < kLanes; ++i) o[i] = 4 * (i / 2);
  add("pairs_same_addr", ALL, 0);
  for (int i = 0; i < kLanes; ++i) o[i] = 4 * (i % 8);
  add("same_addr_p8", ALL, 0);
  for (int i = 0; i < kLanes; ++i) o[i] = 4 * i;
  add("partial_k16_stride_1", 0x0000FFFFu, 0);
  add("partial_none_stride_1", 0x00000000u, 0);
  return v;
}

int main(int argc, char** argv) {
  bool list_only = false;
  FILE* csv = mb::open_output(argc, argv, list_only);
  const mb::DeviceBuffers dev = mb::device_buffers(list_only, kBufBytes);
  unsigned char* d_buf = dev.base;
  unsigned* d_out = dev.out;
  if (!list_only) {
    // Zero the buffer with a host copy (no memset kernel that a profiler could count as a launch).
    std::vector<unsigned char> zeros(kBufBytes, 0);
    MB_CHECK(cudaMemcpy(d_buf, zeros.data(), kBufBytes, cudaMemcpyHostToDevice));
  }

  std::fprintf(csv, "launch,kernel,pattern_id,width,op,active_mask,base_shift");
  for (int i = 0; i < 32; ++i) std::fprintf(csv, ",off%d", i);
  std::fprintf(csv, "\n");

  int launch = 0;
  auto run = [&](KernelFn fn, const std::string& kname, uint32_t W, const char* opname,
                 const GlobalHostPattern& gp) -> bool {
    GlobalPattern p;
    p.base = d_buf + gp.shift;
    p.mask = gp.p.mask;
    p.magic = 0xFFFFFFFFu;
    for (int i = 0; i < 32; ++i) {
      p.off[i] = gp.p.off[i];
      const uint64_t addr = static_cast<uint64_t>(gp.shift) + gp.p.off[i];
      if (addr % W != 0 || addr + W > kBufBytes) {
        std::fprintf(stderr, "bad offset %u (shift %u) for width %u in %s\n", gp.p.off[i], gp.shift, W,
                     gp.p.name.c_str());
        return false;
      }
    }
    if (!list_only) {
      fn<<<1, 32>>>(p, d_out);
      MB_CHECK(cudaGetLastError());
      MB_CHECK(cudaDeviceSynchronize());
    }
    const std::string id = kname + "." + gp.p.name;
    std::fprintf(csv, "%d,%s,%s,%u,%s,%s,%u", launch, kname.c_str(), id.c_str(), W, opname,
                 mb::hex32(gp.p.mask).c_str(), gp.shift);
    std::printf("launch %d %s mask=%s shift=%u offs=", launch, id.c_str(), mb::hex32(gp.p.mask).c_str(),
                gp.shift);
    for (int i = 0; i < 32; ++i) {
      std::fprintf(csv, ",%u", gp.p.off[i]);
      std::printf("%s%u", i ? " " : "", gp.p.off[i]);
    }
    std::fprintf(csv, "\n");
    std::printf("\n");
    ++launch;
    return true;
  };

  for (uint32_t W : {1u, 2u, 4u, 8u, 16u}) {
    const std::vector<GlobalHostPattern> pats = patterns_for_width(W);
    for (int op = 0; op < 2; ++op) {
      const bool load = (op == 0);
      const std::string kname = std::string(load ? "ldg_w" : "stg_w") + std::to_string(W);
      for (const GlobalHostPattern& gp : pats)
        if (!run(kernel_for(static_cast<int>(W), load), kname, W, load ? "load" : "store", gp)) return 3;
    }
  }
  for (const GlobalHostPattern& gp : atomic_patterns()) {
    if (!run(atom_w4, "atom_w4", 4, "atom", gp)) return 3;
  }
  for (const GlobalHostPattern& gp : atomic_patterns()) {
    if (!run(red_w4, "red_w4", 4, "red", gp)) return 3;
  }
  return mb::finish(csv, dev, launch);
}
