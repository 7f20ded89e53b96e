// Partial warps against predicated-off lanes, for __shared__ loads and
// stores of 4, 8 and 16 bytes: a warp of a block whose size is not a
// multiple of 32 has lanes that do not exist (threadIdx.x >= blockDim.x),
// where shared_patterns.cu's partial patterns switch existing lanes off
// with a branch. A generated kernel (test/inputs/generated/gen-7.cu line
// 402, block of 48 threads) measured fewer wavefronts for its 16-thread
// warp than the same pattern with 16 lanes switched off takes.
//
// Each launch: one block of T threads (T = 16, 24 or 32) running one
// shared access of width W at lane offsets W * f(lane), with lanes of mask
// M active (M covers all T lanes when the lanes are absent rather than off).
// Usage: partial_warp_shared OUT.csv  (one row per launch, in launch order)
#include <cstdint>
#include <cstdio>

struct Offsets { uint32_t off[32]; uint32_t mask; uint32_t magic; };

template <int W, bool Load>
__global__ void access(Offsets p, unsigned *out) {
  __shared__ __align__(128) unsigned char buf[8192];
  const unsigned lane = threadIdx.x & 31u;
  if ((p.mask >> lane) & 1u) {
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(buf)) + p.off[lane];
    unsigned x = lane + 1, y = lane + 2, z = lane + 3, w = lane + 4;
    if constexpr (Load) {
      if constexpr (W == 4)
        asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x) : "r"(a) : "memory");
      else if constexpr (W == 8)
        asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(a) : "memory");
      else
        asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a) : "memory");
      if ((x ^ y ^ z ^ w) == p.magic) out[lane] = x;
    } else {
      if constexpr (W == 4)
        asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(a), "r"(x) : "memory");
      else if constexpr (W == 8)
        asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %2};" ::"r"(a), "r"(x), "r"(y) : "memory");
      else
        asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(x), "r"(y),
                     "r"(z), "r"(w) : "memory");
    }
  }
}

using Kernel = void (*)(Offsets, unsigned *);

int main(int argc, char **argv) {
  FILE *csv = std::fopen(argc > 1 ? argv[1] : "partial_warp_shared.csv", "w");
  if (!csv) return 2;
  unsigned *out = nullptr;
  cudaMalloc(&out, 32 * sizeof(unsigned));
  std::fprintf(csv, "launch,pattern,width,op,threads,active_mask\n");
  struct K { int w; bool load; Kernel k; };
  const K kernels[] = {{4, true, access<4, true>},   {8, true, access<8, true>},
                       {16, true, access<16, true>}, {4, false, access<4, false>},
                       {8, false, access<8, false>}, {16, false, access<16, false>}};
  // Element index of each lane.
  auto p8 = [](int i) { return i % 8; };
  auto p4 = [](int i) { return i % 4; };
  auto unit = [](int i) { return i; };
  auto quads = [](int i) { return i / 4; };
  auto pairs = [](int i) { return i / 2; };
  struct P { const char *name; int (*f)(int); };
  const P pats[] = {{"same_addr_p8", +p8}, {"same_addr_p4", +p4}, {"stride_1", +unit},
                    {"quads_same_addr", +quads}, {"pairs_same_addr", +pairs}};
  // (threads, mask): 16 absent lanes; 16 lanes off; 8 absent; 8 off; a whole warp.
  const unsigned shapes[][2] = {{16, 0x0000FFFFu}, {32, 0x0000FFFFu}, {24, 0x00FFFFFFu},
                                {32, 0x00FFFFFFu}, {8, 0x000000FFu},  {32, 0x000000FFu},
                                {32, 0xFFFFFFFFu}};
  int launch = 0;
  for (const K &k : kernels)
    for (const P &pat : pats)
      for (const auto &s : shapes) {
        Offsets o;
        for (int i = 0; i < 32; ++i) o.off[i] = k.w * pat.f(i);
        o.mask = s[1];
        o.magic = 0xFFFFFFFFu;
        k.k<<<1, s[0]>>>(o, out);
        std::fprintf(csv, "%d,%s,%d,%s,%u,0x%08x\n", launch++, pat.name, k.w,
                     k.load ? "load" : "store", s[0], s[1]);
      }
  cudaDeviceSynchronize();
  std::fclose(csv);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
