// Global-atomic aggregation microbenchmark for warpcheck's hardware model (sm_90, H200).
//
// Question: which atomics does nvcc turn into one instruction per warp (a vote, a reduction, then
// one ATOMG/REDG issued by a single lane), and which stay one instruction whose lanes the memory
// system serialises per address? The answer decides what one warp request costs, and it depends on
// the value type, the operation, whether the address and the operand are warp-uniform (as the
// compiler can prove it), whether the old value is used, which lanes are active and the scope.
//
// Each launch = ONE block of ONE warp (32 threads) executing ONE atomic function call of the
// source (the case). Everything else the kernel reads comes from its parameters by value (LDC): the
// buffer base, the warp-uniform operand, the per-lane offsets of the `param` address and the
// run-time lane mask. So the atomic counters (op_atom, op_red) see that one call only. When the
// old value is used it is compared with `magic` (0xFFFFFFFF at run time, never a value the buffer
// holds) and only then stored: that guarded STG is in the SASS but never executes.
//
// A case is named TYPE_OP_ADDRESS_OPERAND[_ret][_ACTIVE][_SCOPE]:
//   TYPE     i32 u32 i64 u64 f32 f64 f16 h2 (__half2) bf2 (__nv_bfloat162) f32x2 (float2) f32x4
//   OP       add sub min max and or xor exch cas inc dec   (atomicAdd ... atomicDec; cas compares
//            with 0 and writes the operand, inc/dec take the operand as their limit)
//   ADDRESS  zero   &p[0]: the same word for all lanes, a kernel parameter (compile-time uniform)
//            block  &p[blockIdx.x]: warp-uniform, not a constant
//            lane   &p[lane]: 32 distinct, adjacent elements
//            grp4   &p[lane / 4]: 8 elements, each named by 4 lanes
//            warp   &p[threadIdx.x / 32]: uniform at run time, not provably so (no launch bounds)
//            param  p + off[lane] with every off 0 (from the parameters): uniform at run time only
//            gvar   &g_words[0], a __device__ variable (compile-time uniform)
//   OPERAND  k      a constant (1 for add/sub, 7 for min/max/exch, a bit pattern for and/or/xor,
//                   1000 for inc/dec)
//            uni    a kernel parameter (warp-uniform, not a constant)
//            var    lane + 1 (differs between lanes)
//   _ret     the old value is used (else it is ignored: ptxas may emit RED instead of ATOM)
//   ACTIVE   (all lanes) | lt16 (if (lane < 16)) | odd (if (lane & 1)) | rtmask (a run-time mask
//            parameter, 0x0000ffff: which lanes is data the compiler does not see)
//   SCOPE    (device: atomicAdd) | scblock (atomicAdd_block) | scsys (atomicAdd_system)
// The host table below holds the fields; the program checks that every name spells its fields.
//
// SASS census (no GPU needed): test/hw/scripts/atomic_sass_census.py reads `cuobjdump -sass` of
// this program and the --list CSV and writes test/hw/atomics/sass_census.csv (per kernel the
// atomic opcodes with their modifiers and whether a warp-aggregation sequence surrounds one atomic).
//
// Usage: atomic_patterns OUT.csv [--list]   (--list: write the CSV, launch nothing, no GPU needed)
//   One launch per CSV row, in order:
//   launch,kernel,type,op,bytes,address,operand,result,active,scope,active_mask,distinct_addresses
// Measured by test/hw/scripts/measure_atomics.sh (ncu --clock-control none, the op_atom and op_red
// request, sector and instruction counters); records by test/hw/scripts/atomics_to_records.py.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "microbench_common.h"

struct AtomicArgs {
  unsigned char* base;      // 256-byte aligned, zeroed buffer
  unsigned* out;            // where a used old value would go (never written at run time)
  uint32_t off[32];         // byte offsets of the `param` address (all 0 at run time)
  uint32_t mask;            // the `rtmask` lanes (0x0000ffff at run time)
  uint32_t magic;           // 0xFFFFFFFF at run time
  unsigned long long uval;  // the warp-uniform operand (3 at run time)
};

constexpr uint32_t kBufBytes = 1u << 16;

// The `gvar` address: a __device__ variable (its address is a link-time constant).
__device__ unsigned long long g_words[32];

enum class Op { add, sub, min, max, and_, or_, xor_, exch, cas, inc, dec };
enum class Addr { zero, block, lane, grp4, warp, param, gvar };
enum class Operand { k, uni, var };
enum class Active { all, lt16, odd, rtmask };
enum class Scope { dev, block, sys };

// ---------------------------------------------------------------------------------------------
// Values of each type: from an unsigned integer, and back to 32 bits for the guarded use.
// ---------------------------------------------------------------------------------------------
template <class T>
__device__ __forceinline__ T from_u32(unsigned x) {
  if constexpr (std::is_same_v<T, __half>) {
    return __uint2half_rn(x);
  } else if constexpr (std::is_same_v<T, __half2>) {
    return __halves2half2(__uint2half_rn(x), __uint2half_rn(x + 1u));
  } else if constexpr (std::is_same_v<T, __nv_bfloat162>) {
    return __halves2bfloat162(__uint2bfloat16_rn(x), __uint2bfloat16_rn(x + 1u));
  } else if constexpr (std::is_same_v<T, float2>) {
    return make_float2(static_cast<float>(x), static_cast<float>(x + 1u));
  } else if constexpr (std::is_same_v<T, float4>) {
    return make_float4(static_cast<float>(x), static_cast<float>(x + 1u), static_cast<float>(x + 2u),
                       static_cast<float>(x + 3u));
  } else {
    return static_cast<T>(x);
  }
}

template <class T>
__device__ __forceinline__ unsigned bits32(const T& v) {
  if constexpr (std::is_same_v<T, float2> || std::is_same_v<T, float4>) {
    return __float_as_uint(v.x);
  } else if constexpr (sizeof(T) == 2) {
    unsigned short s;
    memcpy(&s, &v, 2);
    return s;
  } else if constexpr (sizeof(T) == 4) {
    unsigned u;
    memcpy(&u, &v, 4);
    return u;
  } else {
    unsigned long long u;
    memcpy(&u, &v, 8);
    return static_cast<unsigned>(u) ^ static_cast<unsigned>(u >> 32);
  }
}

// The constant operand of each operation (chosen so that no atomic can be folded away: and with
// all ones, or/xor with 0 and add 0 would be no-ops).
template <class T, Op O>
__device__ __forceinline__ T constant_operand() {
  constexpr unsigned k = O == Op::add || O == Op::sub ? 1u
                         : O == Op::and_              ? 0x0F0F0F0Fu
                         : O == Op::or_ || O == Op::xor_ ? 0x100u
                         : O == Op::inc || O == Op::dec  ? 1000u
                                                         : 7u;  // min, max, exch, cas
  return from_u32<T>(k);
}

template <class T, Op O, Operand V>
__device__ __forceinline__ T operand(const AtomicArgs& a, unsigned lane) {
  if constexpr (V == Operand::k) {
    return constant_operand<T, O>();
  } else if constexpr (V == Operand::uni) {
    return from_u32<T>(static_cast<unsigned>(a.uval));
  } else {
    return from_u32<T>(lane + 1u);
  }
}

template <class T, Addr A>
__device__ __forceinline__ T* address(const AtomicArgs& a, unsigned lane) {
  T* p = reinterpret_cast<T*>(a.base);
  if constexpr (A == Addr::zero) {
    return p;
  } else if constexpr (A == Addr::block) {
    return p + blockIdx.x;
  } else if constexpr (A == Addr::lane) {
    return p + lane;
  } else if constexpr (A == Addr::grp4) {
    return p + lane / 4u;
  } else if constexpr (A == Addr::warp) {
    return p + threadIdx.x / 32u;
  } else if constexpr (A == Addr::param) {
    return reinterpret_cast<T*>(a.base + a.off[lane]);
  } else {
    static_assert(A == Addr::gvar, "address");
    return reinterpret_cast<T*>(g_words);
  }
}

template <Active D>
__device__ __forceinline__ bool is_active(const AtomicArgs& a, unsigned lane) {
  if constexpr (D == Active::all) return true;
  if constexpr (D == Active::lt16) return lane < 16u;
  if constexpr (D == Active::odd) return (lane & 1u) != 0u;
  return ((a.mask >> lane) & 1u) != 0u;
}

// The atomic function call of the case. Scopes other than the device's exist for add only here.
template <class T, Op O, Scope S>
__device__ __forceinline__ T apply(T* p, T v) {
  if constexpr (S == Scope::block) {
    static_assert(O == Op::add, "scoped variants: add only");
    return atomicAdd_block(p, v);
  } else if constexpr (S == Scope::sys) {
    static_assert(O == Op::add, "scoped variants: add only");
    return atomicAdd_system(p, v);
  } else if constexpr (O == Op::add) {
    return atomicAdd(p, v);
  } else if constexpr (O == Op::sub) {
    return atomicSub(p, v);
  } else if constexpr (O == Op::min) {
    return atomicMin(p, v);
  } else if constexpr (O == Op::max) {
    return atomicMax(p, v);
  } else if constexpr (O == Op::and_) {
    return atomicAnd(p, v);
  } else if constexpr (O == Op::or_) {
    return atomicOr(p, v);
  } else if constexpr (O == Op::xor_) {
    return atomicXor(p, v);
  } else if constexpr (O == Op::exch) {
    return atomicExch(p, v);
  } else if constexpr (O == Op::cas) {
    return atomicCAS(p, from_u32<T>(0u), v);
  } else if constexpr (O == Op::inc) {
    return atomicInc(p, v);
  } else {
    static_assert(O == Op::dec, "operation");
    return atomicDec(p, v);
  }
}

template <class T, Op O, Addr A, Operand V, bool Ret, Active D, Scope S>
__device__ __forceinline__ void atomic_case(const AtomicArgs& a) {
  const unsigned lane = threadIdx.x & 31u;
  if (is_active<D>(a, lane)) {
    const T old = apply<T, O, S>(address<T, A>(a, lane), operand<T, O, V>(a, lane));
    if constexpr (Ret) {
      const unsigned b = bits32(old);
      if (b == a.magic) a.out[lane] = b;  // never true at run time
    } else {
      (void)old;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The cases: NAME, type tag, C++ type, op, address, operand, old value used, active lanes, scope.
// ---------------------------------------------------------------------------------------------
#define AT_CASES(X)                                                                   \
  /* int add: every address and operand kind, the old value ignored and used */       \
  X(i32_add_zero_k, i32, int, add, zero, k, false, all, dev)                          \
  X(i32_add_zero_k_ret, i32, int, add, zero, k, true, all, dev)                       \
  X(i32_add_zero_uni, i32, int, add, zero, uni, false, all, dev)                      \
  X(i32_add_zero_uni_ret, i32, int, add, zero, uni, true, all, dev)                   \
  X(i32_add_zero_var, i32, int, add, zero, var, false, all, dev)                      \
  X(i32_add_zero_var_ret, i32, int, add, zero, var, true, all, dev)                   \
  X(i32_add_block_k, i32, int, add, block, k, false, all, dev)                        \
  X(i32_add_block_k_ret, i32, int, add, block, k, true, all, dev)                     \
  X(i32_add_block_uni, i32, int, add, block, uni, false, all, dev)                    \
  X(i32_add_block_uni_ret, i32, int, add, block, uni, true, all, dev)                 \
  X(i32_add_block_var, i32, int, add, block, var, false, all, dev)                    \
  X(i32_add_block_var_ret, i32, int, add, block, var, true, all, dev)                 \
  X(i32_add_lane_k, i32, int, add, lane, k, false, all, dev)                          \
  X(i32_add_lane_k_ret, i32, int, add, lane, k, true, all, dev)                       \
  X(i32_add_lane_var, i32, int, add, lane, var, false, all, dev)                      \
  X(i32_add_lane_var_ret, i32, int, add, lane, var, true, all, dev)                   \
  X(i32_add_grp4_k, i32, int, add, grp4, k, false, all, dev)                          \
  X(i32_add_grp4_k_ret, i32, int, add, grp4, k, true, all, dev)                       \
  X(i32_add_grp4_var, i32, int, add, grp4, var, false, all, dev)                      \
  X(i32_add_grp4_var_ret, i32, int, add, grp4, var, true, all, dev)                   \
  X(i32_add_warp_k, i32, int, add, warp, k, false, all, dev)                          \
  X(i32_add_warp_k_ret, i32, int, add, warp, k, true, all, dev)                       \
  X(i32_add_param_k, i32, int, add, param, k, false, all, dev)                        \
  X(i32_add_param_k_ret, i32, int, add, param, k, true, all, dev)                     \
  X(i32_add_gvar_k, i32, int, add, gvar, k, false, all, dev)                          \
  X(i32_add_gvar_k_ret, i32, int, add, gvar, k, true, all, dev)                       \
  /* the other int operations on one word */                                          \
  X(i32_sub_zero_k, i32, int, sub, zero, k, false, all, dev)                          \
  X(i32_sub_zero_var, i32, int, sub, zero, var, false, all, dev)                      \
  X(i32_sub_zero_var_ret, i32, int, sub, zero, var, true, all, dev)                   \
  X(i32_min_zero_k, i32, int, min, zero, k, false, all, dev)                          \
  X(i32_min_zero_var, i32, int, min, zero, var, false, all, dev)                      \
  X(i32_min_zero_var_ret, i32, int, min, zero, var, true, all, dev)                   \
  X(i32_min_zero_k_ret, i32, int, min, zero, k, true, all, dev)                       \
  X(i32_max_zero_k, i32, int, max, zero, k, false, all, dev)                          \
  X(i32_max_zero_var, i32, int, max, zero, var, false, all, dev)                      \
  X(i32_max_zero_var_ret, i32, int, max, zero, var, true, all, dev)                   \
  X(i32_and_zero_k, i32, int, and_, zero, k, false, all, dev)                         \
  X(i32_and_zero_var, i32, int, and_, zero, var, false, all, dev)                     \
  X(i32_and_zero_var_ret, i32, int, and_, zero, var, true, all, dev)                  \
  X(i32_or_zero_k, i32, int, or_, zero, k, false, all, dev)                           \
  X(i32_or_zero_var, i32, int, or_, zero, var, false, all, dev)                       \
  X(i32_or_zero_var_ret, i32, int, or_, zero, var, true, all, dev)                    \
  X(i32_xor_zero_k, i32, int, xor_, zero, k, false, all, dev)                         \
  X(i32_xor_zero_var, i32, int, xor_, zero, var, false, all, dev)                     \
  X(i32_xor_zero_var_ret, i32, int, xor_, zero, var, true, all, dev)                  \
  X(i32_exch_zero_k, i32, int, exch, zero, k, false, all, dev)                        \
  X(i32_exch_zero_var, i32, int, exch, zero, var, false, all, dev)                    \
  X(i32_cas_zero_k, i32, int, cas, zero, k, false, all, dev)                          \
  X(i32_cas_zero_k_ret, i32, int, cas, zero, k, true, all, dev)                       \
  /* unsigned: add, min, max (unsigned compares), inc and dec */                      \
  X(u32_add_zero_k, u32, unsigned, add, zero, k, false, all, dev)                     \
  X(u32_add_zero_var, u32, unsigned, add, zero, var, false, all, dev)                 \
  X(u32_min_zero_k, u32, unsigned, min, zero, k, false, all, dev)                     \
  X(u32_min_zero_var, u32, unsigned, min, zero, var, false, all, dev)                 \
  X(u32_max_zero_k, u32, unsigned, max, zero, k, false, all, dev)                     \
  X(u32_max_zero_var, u32, unsigned, max, zero, var, false, all, dev)                 \
  X(u32_inc_zero_k, u32, unsigned, inc, zero, k, false, all, dev)                     \
  X(u32_inc_zero_k_ret, u32, unsigned, inc, zero, k, true, all, dev)                  \
  X(u32_dec_zero_k, u32, unsigned, dec, zero, k, false, all, dev)                     \
  X(u32_dec_zero_k_ret, u32, unsigned, dec, zero, k, true, all, dev)                  \
  /* 64-bit integers */                                                               \
  X(u64_add_zero_k, u64, unsigned long long, add, zero, k, false, all, dev)           \
  X(u64_add_zero_k_ret, u64, unsigned long long, add, zero, k, true, all, dev)        \
  X(u64_add_zero_uni, u64, unsigned long long, add, zero, uni, false, all, dev)       \
  X(u64_add_zero_uni_ret, u64, unsigned long long, add, zero, uni, true, all, dev)    \
  X(u64_add_zero_var, u64, unsigned long long, add, zero, var, false, all, dev)       \
  X(u64_add_block_k, u64, unsigned long long, add, block, k, false, all, dev)         \
  X(u64_add_lane_k, u64, unsigned long long, add, lane, k, false, all, dev)           \
  X(u64_max_zero_k, u64, unsigned long long, max, zero, k, false, all, dev)           \
  X(u64_max_zero_var, u64, unsigned long long, max, zero, var, false, all, dev)       \
  X(u64_or_zero_k, u64, unsigned long long, or_, zero, k, false, all, dev)            \
  X(u64_or_zero_var, u64, unsigned long long, or_, zero, var, false, all, dev)        \
  X(u64_exch_zero_k, u64, unsigned long long, exch, zero, k, false, all, dev)         \
  X(u64_cas_zero_k_ret, u64, unsigned long long, cas, zero, k, true, all, dev)        \
  X(i64_min_zero_k, i64, long long, min, zero, k, false, all, dev)                    \
  X(i64_min_zero_var, i64, long long, min, zero, var, false, all, dev)                \
  /* floating point */                                                                \
  X(f32_add_zero_k, f32, float, add, zero, k, false, all, dev)                        \
  X(f32_add_zero_k_ret, f32, float, add, zero, k, true, all, dev)                     \
  X(f32_add_zero_uni, f32, float, add, zero, uni, false, all, dev)                    \
  X(f32_add_zero_var, f32, float, add, zero, var, false, all, dev)                    \
  X(f32_add_block_k, f32, float, add, block, k, false, all, dev)                      \
  X(f32_add_lane_k, f32, float, add, lane, k, false, all, dev)                        \
  X(f32_add_grp4_k, f32, float, add, grp4, k, false, all, dev)                        \
  X(f32_exch_zero_k, f32, float, exch, zero, k, false, all, dev)                      \
  X(f64_add_zero_k, f64, double, add, zero, k, false, all, dev)                       \
  X(f64_add_zero_var, f64, double, add, zero, var, false, all, dev)                   \
  X(f64_add_zero_k_ret, f64, double, add, zero, k, true, all, dev)                    \
  X(f64_add_lane_k, f64, double, add, lane, k, false, all, dev)                       \
  X(f16_add_zero_k, f16, __half, add, zero, k, false, all, dev)                       \
  X(f16_add_lane_k, f16, __half, add, lane, k, false, all, dev)                       \
  X(h2_add_zero_k, h2, __half2, add, zero, k, false, all, dev)                        \
  X(h2_add_lane_k, h2, __half2, add, lane, k, false, all, dev)                        \
  X(bf2_add_zero_k, bf2, __nv_bfloat162, add, zero, k, false, all, dev)               \
  X(f32x2_add_zero_k, f32x2, float2, add, zero, k, false, all, dev)                   \
  X(f32x2_add_lane_k, f32x2, float2, add, lane, k, false, all, dev)                   \
  X(f32x4_add_zero_k, f32x4, float4, add, zero, k, false, all, dev)                   \
  X(f32x4_add_lane_k, f32x4, float4, add, lane, k, false, all, dev)                   \
  /* divergent branches around an atomic on one word */                               \
  X(i32_add_zero_k_lt16, i32, int, add, zero, k, false, lt16, dev)                    \
  X(i32_add_zero_k_odd, i32, int, add, zero, k, false, odd, dev)                      \
  X(i32_add_zero_k_rtmask, i32, int, add, zero, k, false, rtmask, dev)                \
  X(i32_add_zero_k_ret_lt16, i32, int, add, zero, k, true, lt16, dev)                 \
  X(i32_add_zero_k_ret_rtmask, i32, int, add, zero, k, true, rtmask, dev)             \
  X(i32_add_zero_var_lt16, i32, int, add, zero, var, false, lt16, dev)                \
  X(i32_add_zero_var_rtmask, i32, int, add, zero, var, false, rtmask, dev)            \
  X(i32_add_zero_var_ret_lt16, i32, int, add, zero, var, true, lt16, dev)             \
  X(i32_add_zero_var_ret_rtmask, i32, int, add, zero, var, true, rtmask, dev)         \
  X(i32_add_lane_k_rtmask, i32, int, add, lane, k, false, rtmask, dev)                \
  X(f32_add_zero_k_lt16, f32, float, add, zero, k, false, lt16, dev)                  \
  /* scopes */                                                                        \
  X(i32_add_zero_k_scblock, i32, int, add, zero, k, false, all, block)                \
  X(i32_add_zero_k_scsys, i32, int, add, zero, k, false, all, sys)                    \
  X(i32_add_zero_var_scblock, i32, int, add, zero, var, false, all, block)            \
  X(f32_add_zero_k_scblock, f32, float, add, zero, k, false, all, block)              \
  X(f32_add_zero_k_scsys, f32, float, add, zero, k, false, all, sys)

#define AT_KERNEL(NAME, TAG, T, O, A, V, RET, D, S)                                             \
  extern "C" __global__ void NAME(AtomicArgs a) {                                               \
    atomic_case<T, Op::O, Addr::A, Operand::V, RET, Active::D, Scope::S>(a);                    \
  }
AT_CASES(AT_KERNEL)
#undef AT_KERNEL

struct AtomicCase {
  const char* name;
  void (*fn)(AtomicArgs);
  const char* type;
  unsigned bytes;
  Op op;
  Addr addr;
  Operand operand;
  bool ret;
  Active active;
  Scope scope;
};

#define AT_ENTRY(NAME, TAG, T, O, A, V, RET, D, S) \
  {#NAME, NAME, #TAG, sizeof(T), Op::O, Addr::A, Operand::V, RET, Active::D, Scope::S},
static const AtomicCase kCases[] = {AT_CASES(AT_ENTRY)};
#undef AT_ENTRY

static const char* op_name(Op o) {
  static const char* n[] = {"add", "sub", "min", "max", "and", "or", "xor", "exch", "cas", "inc", "dec"};
  return n[static_cast<int>(o)];
}
static const char* addr_name(Addr a) {
  static const char* n[] = {"zero", "block", "lane", "grp4", "warp", "param", "gvar"};
  return n[static_cast<int>(a)];
}
static const char* operand_name(Operand v) {
  static const char* n[] = {"k", "uni", "var"};
  return n[static_cast<int>(v)];
}
static const char* active_name(Active d) {
  static const char* n[] = {"all", "lt16", "odd", "rtmask"};
  return n[static_cast<int>(d)];
}
static const char* scope_name(Scope s) {
  static const char* n[] = {"dev", "block", "sys"};
  return n[static_cast<int>(s)];
}

static constexpr uint32_t kRuntimeMask = 0x0000FFFFu;

// The lanes that execute the call at run time.
static uint32_t active_mask(Active d) {
  switch (d) {
    case Active::all: return 0xFFFFFFFFu;
    case Active::lt16: return 0x0000FFFFu;
    case Active::odd: return 0xAAAAAAAAu;
    case Active::rtmask: return kRuntimeMask;
  }
  return 0;
}

// Distinct words the active lanes name at run time (one block, one warp: blockIdx.x = 0 and
// threadIdx.x / 32 = 0; the `param` offsets are all 0).
static unsigned distinct_addresses(const AtomicCase& c) {
  const uint32_t m = active_mask(c.active);
  std::vector<unsigned> seen;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!((m >> lane) & 1u)) continue;
    const unsigned w = c.addr == Addr::lane ? lane : c.addr == Addr::grp4 ? lane / 4 : 0;
    bool dup = false;
    for (unsigned s : seen) dup |= (s == w);
    if (!dup) seen.push_back(w);
  }
  return static_cast<unsigned>(seen.size());
}

// The name a case must have: its fields spelled as the header comment says.
static std::string spelled_name(const AtomicCase& c) {
  std::string n = std::string(c.type) + "_" + op_name(c.op) + "_" + addr_name(c.addr) + "_" +
                  operand_name(c.operand);
  if (c.ret) n += "_ret";
  if (c.active != Active::all) n += std::string("_") + active_name(c.active);
  if (c.scope != Scope::dev) n += std::string("_sc") + scope_name(c.scope);
  return n;
}

int main(int argc, char** argv) {
  for (const AtomicCase& c : kCases) {
    if (spelled_name(c) != c.name) {
      std::fprintf(stderr, "case %s: its fields spell %s\n", c.name, spelled_name(c).c_str());
      return 3;
    }
  }
  bool list_only = false;
  FILE* csv = mb::open_output(argc, argv, list_only);
  const mb::DeviceBuffers dev = mb::device_buffers(list_only, kBufBytes);
  unsigned char* d_buf = dev.base;
  unsigned* d_out = dev.out;
  std::fprintf(csv, "launch,kernel,type,op,bytes,address,operand,result,active,scope,active_mask,"
                    "distinct_addresses\n");
  std::vector<unsigned char> zeros(kBufBytes, 0);
  int launch = 0;
  for (const AtomicCase& c : kCases) {
    AtomicArgs a;
    a.base = d_buf;
    a.out = d_out;
    for (int i = 0; i < 32; ++i) a.off[i] = 0;
    a.mask = kRuntimeMask;
    a.magic = 0xFFFFFFFFu;
    a.uval = 3;
    if (!list_only) {
      // Zero the buffer with a host copy (no memset kernel that ncu would count as a launch), so
      // that every case starts from the same memory (inc/dec and cas depend on it).
      MB_CHECK(cudaMemcpy(d_buf, zeros.data(), kBufBytes, cudaMemcpyHostToDevice));
      MB_CHECK(cudaMemcpyToSymbol(g_words, zeros.data(), sizeof g_words));
      c.fn<<<1, 32>>>(a);
      MB_CHECK(cudaGetLastError());
      MB_CHECK(cudaDeviceSynchronize());
    }
    std::fprintf(csv, "%d,%s,%s,%s,%u,%s,%s,%s,%s,%s,%s,%u\n", launch, c.name, c.type, op_name(c.op),
                 c.bytes, addr_name(c.addr), operand_name(c.operand), c.ret ? "used" : "unused",
                 active_name(c.active), scope_name(c.scope), mb::hex32(active_mask(c.active)).c_str(),
                 distinct_addresses(c));
    ++launch;
  }
  return mb::finish(csv, dev, launch);
}
