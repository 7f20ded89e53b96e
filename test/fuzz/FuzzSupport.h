//===- FuzzSupport.h - what warpcheck's fuzz targets share ------*- C++ -*-===//
//
// Each fuzz target defines LLVMFuzzerTestOneInput over text warpcheck reads
// from untrusted places (a compile database, a .clang-tidy file, nvcc's
// output). With WARPCHECK_FUZZ, libFuzzer drives it; without, ReplayMain.cpp
// runs it over the committed corpus (ctest fuzz_corpus_replay), so that
// every input a fuzzer ever found stays a regression test.
//
// A target states invariants of its own besides "no crash": one that does
// not hold is reported and aborts, as a crash would.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TEST_FUZZ_FUZZSUPPORT_H
#define WARPCHECK_TEST_FUZZ_FUZZSUPPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace warpcheck::fuzz {

/// Reports a broken invariant, with the text that broke it, and aborts.
[[noreturn]] inline void invariantBroken(llvm::StringRef What, llvm::StringRef Detail) {
  llvm::errs() << "fuzz invariant broken: " << What << ": '" << Detail << "'\n";
  llvm::errs().flush();
  std::abort();
}

} // namespace warpcheck::fuzz

#endif
