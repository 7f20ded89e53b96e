//===- FuzzSupport.h - what warpcheck's fuzz targets share ------*- C++ -*-===//
//
// Each fuzz target defines LLVMFuzzerTestOneInput over text warpcheck reads
// from untrusted places (a compile database, a .clang-tidy file, nvcc's
// output), or over inputs of the hardware model's functions. With
// WARPCHECK_FUZZ, libFuzzer drives it; without, ReplayMain.cpp runs it over
// the committed corpus (ctest fuzz_replay_<target>), so that every input a
// fuzzer ever found stays a regression test.
//
// A target states invariants of its own besides "no crash": one that does
// not hold is reported and aborts, as a crash would.
//
// Plain C++ (no LLVM): a target over the model alone builds without LLVM
// (test/fuzz_smoke.py compiles one with nothing but clang and libFuzzer).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TEST_FUZZ_FUZZSUPPORT_H
#define WARPCHECK_TEST_FUZZ_FUZZSUPPORT_H

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace warpcheck::fuzz {

/// Reports a broken invariant, with the text that broke it, and aborts.
[[noreturn]] inline void invariantBroken(std::string_view What, std::string_view Detail) {
  std::fprintf(stderr, "fuzz invariant broken: %.*s: '%.*s'\n", static_cast<int>(What.size()),
               What.data(), static_cast<int>(Detail.size()), Detail.data());
  std::fflush(stderr);
  std::abort();
}

} // namespace warpcheck::fuzz

#endif
