// Shared helpers for the warpcheck hardware microbenchmarks (host side only).
//
// A "pattern" is the exact per-lane byte offset of ONE memory instruction executed by ONE warp,
// plus the mask of lanes that execute it. Patterns travel to the GPU by value in the kernel
// parameter space (read there with LDC, never with a global load), so the only memory instruction
// the counters see is the one under test.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#define MB_CHECK(call)                                                                          \
  do {                                                                                          \
    cudaError_t mb_err_ = (call);                                                               \
    if (mb_err_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: CUDA error %s (%s) in %s\n", __FILE__, __LINE__,             \
                   cudaGetErrorName(mb_err_), cudaGetErrorString(mb_err_), #call);              \
      std::exit(2);                                                                             \
    }                                                                                           \
  } while (0)

namespace mb {

constexpr int kLanes = 32;

// Deterministic generator (splitmix64), so that the "random" patterns are the same on every run
// and every machine. The offsets themselves are written to the pattern CSV anyway.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
};

struct HostPattern {
  std::string name;    // unique within one (kernel) group, e.g. "stride_33"
  uint32_t mask;       // active lanes (bit i = lane i executes the access)
  uint32_t off[kLanes];  // byte offsets, for every lane (inactive lanes keep theirs for reference)
};

inline HostPattern make_pattern(const std::string& name, uint32_t mask, const uint32_t* offs) {
  HostPattern p;
  p.name = name;
  p.mask = mask;
  for (int i = 0; i < kLanes; ++i) p.off[i] = offs[i];
  return p;
}

// Random patterns: `region` bytes split into slots of `width` bytes. When there are at least 32
// slots and `distinct` is set, the lanes get 32 distinct slots in random order; otherwise each lane
// draws a slot independently (repetitions allowed).
inline void random_offsets(Rng& rng, uint32_t region, uint32_t width, bool distinct, uint32_t* out) {
  const uint32_t slots = region / width;
  if (distinct && slots >= static_cast<uint32_t>(kLanes)) {
    std::vector<uint32_t> all(slots);
    for (uint32_t i = 0; i < slots; ++i) all[i] = i;
    for (uint32_t i = slots - 1; i > 0; --i) {  // Fisher-Yates
      uint32_t j = rng.below(i + 1);
      uint32_t t = all[i];
      all[i] = all[j];
      all[j] = t;
    }
    for (int l = 0; l < kLanes; ++l) out[l] = all[l] * width;
  } else {
    for (int l = 0; l < kLanes; ++l) out[l] = rng.below(slots) * width;
  }
}

// The command line of every pattern program: OUT.csv [--list]. Opens OUT.csv for writing (exits
// with the usage, or the reason, when it cannot) and sets list_only when --list is given: write the
// CSV, launch nothing (for checks on machines without a GPU).
inline FILE* open_output(int argc, char** argv, bool& list_only) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUT.csv [--list]\n", argv[0]);
    std::exit(1);
  }
  FILE* csv = std::fopen(argv[1], "w");
  if (!csv) {
    std::perror(argv[1]);
    std::exit(1);
  }
  list_only = argc > 2 && std::string(argv[2]) == "--list";
  return csv;
}

// cudaMalloc'd memory, 256-byte aligned as the patterns assume (exits otherwise).
template <class T>
T* device_buffer(size_t bytes) {
  void* p = nullptr;
  MB_CHECK(cudaMalloc(&p, bytes));
  if (reinterpret_cast<uintptr_t>(p) % 256 != 0) {
    std::fprintf(stderr, "cudaMalloc returned a pointer not 256-B aligned\n");
    std::exit(3);
  }
  return static_cast<T*>(p);
}

// What a pattern program launches on: the memory its patterns address (`bytes` of it, none for 0)
// and 32 words for guarded results, on device 0 (its name printed for the log); both null with
// --list, which touches no GPU.
struct DeviceBuffers {
  unsigned char* base = nullptr;
  unsigned* out = nullptr;
};
inline DeviceBuffers device_buffers(bool list_only, size_t bytes) {
  DeviceBuffers b;
  if (list_only) return b;
  MB_CHECK(cudaSetDevice(0));
  cudaDeviceProp prop;
  MB_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# device %s sm_%d%d\n", prop.name, prop.major, prop.minor);
  if (bytes) b.base = device_buffer<unsigned char>(bytes);
  b.out = device_buffer<unsigned>(32 * sizeof(unsigned));
  return b;
}

// The end of a pattern program: the CSV closed, the buffers freed, the count of launches printed.
inline int finish(FILE* csv, const DeviceBuffers& b, int launches) {
  std::fclose(csv);
  if (b.base) MB_CHECK(cudaFree(b.base));
  if (b.out) MB_CHECK(cudaFree(b.out));
  std::printf("# %d launches\n", launches);
  return 0;
}

inline std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

}  // namespace mb
