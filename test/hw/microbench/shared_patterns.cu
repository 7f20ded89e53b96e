// Shared-memory wavefront microbenchmark for warpcheck's hardware model (sm_90, H200).
//
// Each launch = ONE block of ONE warp (32 threads) executing exactly ONE shared-memory instruction
// of width W bytes (1, 2, 4, 8, 16), load or store, at per-lane byte offsets given by a pattern.
// The pattern (32 byte offsets + active-lane mask) is passed BY VALUE as a kernel parameter, so it
// is read with LDC from the constant bank (no global or local load at all).
//
// Kernels (extern "C", so ncu prints the plain name):
//   lds_w1 lds_w2 lds_w4 lds_w8 lds_w16   one LDS.U8 / LDS.U16 / LDS / LDS.64 / LDS.128
//   sts_w1 sts_w2 sts_w4 sts_w8 sts_w16   one STS.U8 / STS.U16 / STS / STS.64 / STS.128
// The access is written in inline PTX (ld.volatile.shared.* / st.volatile.shared.*) so that its
// width is exactly the one named, and so that it can be neither removed, duplicated nor sunk into
// a branch by the compiler. A load's value is "used" by comparing it with `magic` (a run-time
// parameter, 0xFFFFFFFF): only on a match is it written to global memory (a guarded STG, which is
// a global store and so does not touch any shared-memory counter).
//
// SASS expectation (checked on the device by test/hw/scripts/check_microbench_sass.py, from
// `cuobjdump -sass`): each kernel holds exactly one shared-memory instruction, the one named above,
// and no LD/LDG/LDL (the pattern comes through LDC c[0x0][R+...]); lds_* kernels also hold one
// guarded STG. The development machine has no cuobjdump/nvdisasm, so there (nvcc 13.0.88) it was
// checked two other ways:
//   * PTX: each kernel has exactly one ld.volatile.shared.{u8,u16,u32,v2.u32,v4.u32} (resp.
//     st.volatile.shared.*), no ld.global/ld.local; lds_* one guarded st.global.u32.
//   * cubin opcode census (test/hw/scripts/cubin_census.py on `nvcc -cubin`): lds_wN = one LDS
//     (opcode 0x984) with size field U8/U16/32/64/128 for N = 1/2/4/8/16 + one STG.32 (0x986);
//     sts_wN = one STS (0x988) of the same sizes and no other memory instruction; no LDL/STL/LD/ST
//     anywhere; the pattern is read by an indexed LDC (0xb82). ptxas -v: 0 bytes stack frame,
//     6-10 registers, 49152 bytes smem.
//
// Usage: shared_patterns OUT.csv [--list]   (--list: write the CSV, launch nothing, no GPU needed)
//   Runs every pattern once (one launch each, in the order of the CSV rows) and writes
//   launch,kernel,pattern_id,width,op,active_mask,off0..off31   (offsets in bytes)
// Measure with (see test/hw/scripts/run_microbench.sh):
//   ncu --clock-control none --csv --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,...
//       shared_patterns OUT.csv
// ncu's launch IDs follow launch order: the Nth profiled kernel is CSV row N (launch column).

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "microbench_common.h"

struct SharedPattern {
  uint32_t off[32];  // byte offset of each lane into the shared buffer
  uint32_t mask;     // bit i set = lane i executes the access
  uint32_t magic;    // 0xFFFFFFFF at run time; loads write their value out only if equal
};

constexpr uint32_t kSharedBytes = 48 * 1024;

template <int W>
__device__ __forceinline__ void shared_load(const SharedPattern& p, unsigned* out) {
  __shared__ __align__(128) unsigned char buf[kSharedBytes];
  const unsigned lane = threadIdx.x & 31u;
  if ((p.mask >> lane) & 1u) {
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(buf)) + p.off[lane];
    unsigned x = 0, y = 0, z = 0, w = 0;
    if constexpr (W == 1) {
      asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(x) : "r"(a) : "memory");
    } else if constexpr (W == 2) {
      asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=r"(x) : "r"(a) : "memory");
    } else if constexpr (W == 4) {
      asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x) : "r"(a) : "memory");
    } else if constexpr (W == 8) {
      asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(a) : "memory");
    } else {
      static_assert(W == 16, "width");
      asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                   : "r"(a)
                   : "memory");
    }
    const unsigned v = x ^ y ^ z ^ w;
    if (v == p.magic) out[lane] = v;  // never true at run time (magic = 0xFFFFFFFF)
  }
}

template <int W>
__device__ __forceinline__ void shared_store(const SharedPattern& p) {
  __shared__ __align__(128) unsigned char buf[kSharedBytes];
  const unsigned lane = threadIdx.x & 31u;
  if ((p.mask >> lane) & 1u) {
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(buf)) + p.off[lane];
    const unsigned x = lane + 1u, y = lane + 2u, z = lane + 3u, w = lane + 4u;
    if constexpr (W == 1) {
      asm volatile("st.volatile.shared.u8 [%0], %1;" ::"r"(a), "r"(x) : "memory");
    } else if constexpr (W == 2) {
      asm volatile("st.volatile.shared.u16 [%0], %1;" ::"r"(a), "r"(x) : "memory");
    } else if constexpr (W == 4) {
      asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(a), "r"(x) : "memory");
    } else if constexpr (W == 8) {
      asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %2};" ::"r"(a), "r"(x), "r"(y) : "memory");
    } else {
      static_assert(W == 16, "width");
      asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(x), "r"(y),
                   "r"(z), "r"(w)
                   : "memory");
    }
  }
}

#define MB_SHARED_KERNELS(W)                                                                   \
  extern "C" __global__ void __launch_bounds__(32) lds_w##W(SharedPattern p, unsigned* out) {  \
    shared_load<W>(p, out);                                                                    \
  }                                                                                            \
  extern "C" __global__ void __launch_bounds__(32) sts_w##W(SharedPattern p, unsigned* out) {  \
    (void)out;                                                                                 \
    shared_store<W>(p);                                                                        \
  }

MB_SHARED_KERNELS(1)
MB_SHARED_KERNELS(2)
MB_SHARED_KERNELS(4)
MB_SHARED_KERNELS(8)
MB_SHARED_KERNELS(16)

using KernelFn = void (*)(SharedPattern, unsigned*);

static KernelFn kernel_for(int width, bool load) {
  switch (width) {
    case 1: return load ? lds_w1 : sts_w1;
    case 2: return load ? lds_w2 : sts_w2;
    case 4: return load ? lds_w4 : sts_w4;
    case 8: return load ? lds_w8 : sts_w8;
    case 16: return load ? lds_w16 : sts_w16;
    default: return nullptr;
  }
}

// ---------------------------------------------------------------------------------------------
// Pattern catalogue (offsets in BYTES). Every pattern is generated for loads and for stores.
// ---------------------------------------------------------------------------------------------
static std::vector<mb::HostPattern> patterns_for_width(uint32_t W) {
  using mb::HostPattern;
  using mb::kLanes;
  std::vector<HostPattern> v;
  uint32_t o[kLanes];
  auto add = [&](const std::string& name, uint32_t mask) { v.push_back(mb::make_pattern(name, mask, o)); };
  const uint32_t ALL = 0xFFFFFFFFu;

  // Strides in elements of W bytes.
  for (uint32_t s : {1u, 2u, 4u, 8u, 16u, 32u, 33u}) {
    for (int i = 0; i < kLanes; ++i) o[i] = W * s * i;
    add("stride_" + std::to_string(s), ALL);
  }
  // Unit stride starting 64 B into the buffer (wraps around the 32 banks).
  for (int i = 0; i < kLanes; ++i) o[i] = 64 + W * i;
  add("stride_1_shift64", ALL);
  // Reversed unit stride.
  for (int i = 0; i < kLanes; ++i) o[i] = W * (31 - i);
  add("reverse_1", ALL);

  // Broadcast: all lanes on one address.
  for (int i = 0; i < kLanes; ++i) o[i] = 0;
  add("bcast_0", ALL);
  for (int i = 0; i < kLanes; ++i) o[i] = 4096 + 64;
  add("bcast_4160", ALL);
  // Lanes sharing addresses: pairs (2i, 2i+1), quads.
  for (int i = 0; i < kLanes; ++i) o[i] = W * (i / 2);
  add("pairs_same_addr", ALL);
  for (int i = 0; i < kLanes; ++i) o[i] = W * (i / 4);
  add("quads_same_addr", ALL);
  // Pairs share an address, the 16 pairs hit 16 distinct words of one bank (128-B apart).
  for (int i = 0; i < kLanes; ++i) o[i] = 128 * (i / 2);
  add("pairs_same_addr_one_bank", ALL);

  // Half-warp / quarter-warp structure (widths 4 as control, 8 and 16 as the subject):
  // lane i and lane i+P hit the same address (same_addr_pP) or the same bank(s) with
  // different words (same_bank_pP: groups of P lanes 1024 B apart).
  if (W >= 4) {
    for (uint32_t P : {4u, 8u, 16u}) {
      for (int i = 0; i < kLanes; ++i) o[i] = W * (i % P);
      add("same_addr_p" + std::to_string(P), ALL);
      for (int i = 0; i < kLanes; ++i) o[i] = W * (i % P) + 1024 * (i / P);
      add("same_bank_p" + std::to_string(P), ALL);
    }
    // Swap the two half-warps.
    for (int i = 0; i < kLanes; ++i) o[i] = W * ((i + 16) % 32);
    add("swap_halves", ALL);
    // Interleave the half-warps: lane i and lane i+16 adjacent elements.
    for (int i = 0; i < kLanes; ++i) o[i] = W * (2 * (i % 16) + i / 16);
    add("interleave_halves", ALL);
    // Adjacent lanes conflict (same bank, different word, 1024 B apart): within any phase.
    for (int i = 0; i < kLanes; ++i) o[i] = W * (i / 2) + 1024 * (i % 2);
    add("adjacent_pairs_same_bank", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = W * (i / 4) + 1024 * (i % 4);
    add("adjacent_quads_same_bank", ALL);
  }

  // Few distinct addresses in lane orders other than pairs and quads (widths 8 and 16): a
  // generated kernel's LDS.128 whose even lanes read one float4 and odd lanes another took 2
  // wavefronts, where same_addr_p4 (4 addresses, period 4) takes 4: which orders does a wide
  // load serve in passes of 16 lanes?
  if (W >= 8) {
    for (int i = 0; i < kLanes; ++i) o[i] = W * (i % 2);
    add("alt2_adjacent", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = (i % 2) ? 528u : 2640u;
    add("alt2_rows_apart", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = 1024 * (i % 2);
    add("alt2_one_bank", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = W * ((i / 2) % 2);
    add("aabb", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = W * (i % 3);
    add("alt3", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = W * (i / 16);
    add("halves_bcast", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = W * (i / 8);
    add("quarters_bcast", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = W * (i % 2) + 2 * W * (i / 8);
    add("alt2_per_quarter", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = W * (i % 2) + 2 * W * (i / 16);
    add("alt2_per_half", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = W * ((i % 8) < 4 ? 0 : 1);
    add("quads_alt", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = W * (i % 4 == 0 ? 1 : 0);
    add("one_in_four", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = W * ((i * 7 + 3) % 11 % 2);
    add("two_scattered", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = W * ((i * 5 + 1) % 13 % 4);
    add("four_scattered", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = W * (i % 8);
    add("same_addr_p8_w", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = W * ((i % 16) / 2);
    add("pairs_per_half_repeat", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = W * (i % 2) + 1024 * ((i / 2) % 2);
    add("alt2_alt_bank", ALL);
  }

  // Transposed 32x32 float tile: lane i reads tile[i][c], row stride 32 words (32-way conflict)
  // and with padding 33 (conflict-free).
  if (W == 4) {
    for (uint32_t c : {0u, 7u}) {
      for (int i = 0; i < kLanes; ++i) o[i] = 4 * (32 * i + c);
      add("tile32x32_col" + std::to_string(c), ALL);
      for (int i = 0; i < kLanes; ++i) o[i] = 4 * (33 * i + c);
      add("tile32x33_col" + std::to_string(c), ALL);
    }
  }

  // Sub-word cases (misaligned within a bank word).
  if (W == 1) {
    for (int i = 0; i < kLanes; ++i) o[i] = 4 * i + 1;
    add("byte1_of_word_stride4", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = 4 * i + 3;
    add("byte3_of_word_stride4", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = 128 * i + 2;
    add("byte2_one_bank_32words", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = (i % 4) + 128 * (i / 4);
    add("4bytes_per_word_one_bank_8words", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = i ^ 3;
    add("bytes_reversed_in_word", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = 2 * i + 1;
    add("odd_bytes_stride2", ALL);
  }
  if (W == 2) {
    for (int i = 0; i < kLanes; ++i) o[i] = 4 * i + 2;
    add("half2_of_word_stride4", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = 128 * i + 2;
    add("half2_one_bank_32words", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = 2 * (i % 2) + 128 * (i / 2);
    add("2halves_per_word_one_bank_16words", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = 2 * (i ^ 1);
    add("halves_swapped_in_word", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = 2 + 2 * i;
    add("stride_1_shift2", ALL);
  }

  // Random patterns within 128 / 256 / 512 B (fixed seed per width and region).
  for (uint32_t region : {128u, 256u, 512u}) {
    mb::Rng rng(0x5EED0000ull + 1000ull * W + region);
    for (int k = 0; k < 3; ++k) {
      const bool distinct = (k < 2);
      mb::random_offsets(rng, region, W, distinct, o);
      const uint32_t slots = region / W;
      const bool is_distinct = distinct && slots >= 32;
      add("rand" + std::to_string(region) + (is_distinct ? "_distinct_" : "_repeat_") + std::to_string(k),
          ALL);
    }
  }

  // Partial warps (inactive lanes skip the access through the `if`).
  for (int i = 0; i < kLanes; ++i) o[i] = W * i;
  add("partial_k1_stride_1", 0x00000001u);
  add("partial_k8_stride_1", 0x000000FFu);
  add("partial_k16_stride_1", 0x0000FFFFu);
  add("partial_k31_stride_1", 0x7FFFFFFFu);
  add("partial_odd_lanes_stride_1", 0xAAAAAAAAu);
  add("partial_upper_half_stride_1", 0xFFFF0000u);
  add("partial_none_stride_1", 0x00000000u);  // baseline: no lane executes the access
  for (int i = 0; i < kLanes; ++i) o[i] = W * 32 * i;
  add("partial_k8_stride_32", 0x000000FFu);
  add("partial_k16_stride_32", 0x0000FFFFu);

  // Wide loads whose few distinct addresses do not start at the buffer's first byte, and
  // half-warps of the period-8 pattern: two generated kernels measured what the patterns above
  // do not explain (an LDS.64 whose quads read 8 doubles 32 B into a row took 2 wavefronts
  // where quads_same_addr takes 1; an LDS.128 of 16 active lanes, lanes k and k + 8 on one
  // float4, took 1 where the full warp's same_addr_p8 takes 4).
  if (W >= 8) {
    for (uint32_t shift : {8u, 16u, 32u, 64u, 96u, 128u}) {
      if (shift % W != 0) continue;
      for (int i = 0; i < kLanes; ++i) o[i] = shift + W * (i / 4);
      add("quads_shift" + std::to_string(shift), ALL);
      for (int i = 0; i < kLanes; ++i) o[i] = shift + W * (i / 2);
      add("pairs_shift" + std::to_string(shift), ALL);
      for (int i = 0; i < kLanes; ++i) o[i] = shift + W * i;
      add("unit_shift" + std::to_string(shift), ALL);
    }
    // Rows of 17 elements, 8 consecutive ones wrapping from the row's end to its start.
    for (int i = 0; i < kLanes; ++i) o[i] = W * ((12 + i / 4) % 17);
    add("quads_wrap17", ALL);
    for (int i = 0; i < kLanes; ++i) o[i] = W * (i % 8);
    add("same_addr_p8_lower_half", 0x0000FFFFu);
    add("same_addr_p8_upper_half", 0xFFFF0000u);
    add("same_addr_p8_odd_lanes", 0xAAAAAAAAu);
    for (int i = 0; i < kLanes; ++i) o[i] = W * (i % 4);
    add("same_addr_p4_lower_half", 0x0000FFFFu);
    for (int i = 0; i < kLanes; ++i) o[i] = W * (i % 8) + 8 * W * (i / 16);
    add("same_addr_p8_halves_apart", ALL);
  }
  return v;
}

int main(int argc, char** argv) {
  bool list_only = false;
  FILE* csv = mb::open_output(argc, argv, list_only);
  const mb::DeviceBuffers dev = mb::device_buffers(list_only, 0);
  unsigned* d_out = dev.out;

  std::fprintf(csv, "launch,kernel,pattern_id,width,op,active_mask");
  for (int i = 0; i < 32; ++i) std::fprintf(csv, ",off%d", i);
  std::fprintf(csv, "\n");

  int launch = 0;
  for (uint32_t W : {1u, 2u, 4u, 8u, 16u}) {
    const std::vector<mb::HostPattern> pats = patterns_for_width(W);
    for (int op = 0; op < 2; ++op) {
      const bool load = (op == 0);
      const char* opname = load ? "load" : "store";
      const std::string kname = std::string(load ? "lds_w" : "sts_w") + std::to_string(W);
      KernelFn fn = kernel_for(static_cast<int>(W), load);
      for (const mb::HostPattern& hp : pats) {
        SharedPattern p;
        p.mask = hp.mask;
        p.magic = 0xFFFFFFFFu;
        for (int i = 0; i < 32; ++i) {
          p.off[i] = hp.off[i];
          if (hp.off[i] % W != 0 || hp.off[i] + W > kSharedBytes) {
            std::fprintf(stderr, "bad offset %u for width %u in %s\n", hp.off[i], W, hp.name.c_str());
            return 3;
          }
        }
        if (!list_only) {
          fn<<<1, 32>>>(p, d_out);
          MB_CHECK(cudaGetLastError());
          MB_CHECK(cudaDeviceSynchronize());
        }
        const std::string id = kname + "." + hp.name;
        std::fprintf(csv, "%d,%s,%s,%u,%s,%s", launch, kname.c_str(), id.c_str(), W, opname,
                     mb::hex32(hp.mask).c_str());
        std::printf("launch %d %s mask=%s offs=", launch, id.c_str(), mb::hex32(hp.mask).c_str());
        for (int i = 0; i < 32; ++i) {
          std::fprintf(csv, ",%u", hp.off[i]);
          std::printf("%s%u", i ? " " : "", hp.off[i]);
        }
        std::fprintf(csv, "\n");
        std::printf("\n");
        ++launch;
      }
    }
  }
  return mb::finish(csv, dev, launch);
}
