//===- ContainedRun.h - running analysis work that may fail badly -*- C++ -*-===//
//
// Users run warpcheck inside clang-tidy and clangd, where a crash of the
// analysis is a crash of their editor or their CI job. The analysis of one
// kernel, and in the warpcheck binary the parse and analysis of one unit,
// runs through runContained():
//
//  - under llvm::CrashRecoveryContext, as clang runs its compiler jobs: a
//    fault (SIGSEGV, SIGBUS, SIGILL, SIGFPE), an abort (a failed assertion,
//    most of LLVM's fatal errors) or a trap returns to the caller as a
//    failure, with what happened in words, and the process goes on;
//  - on a thread of its own with a large stack: clang's parser and code
//    generator, and the analysis's walks, recurse on the AST, and generated
//    code nested a few thousand deep (`a = b = c = ...`, `- - - x`) uses up
//    the 8 MB a thread has by default (clang itself then dies of SIGSEGV);
//  - and with that thread's stack watched: a run that still exhausts it is
//    stopped at the guard page (a handler on an alternate signal stack sees
//    the fault there) and reported as code nested too deeply, never a
//    silent SIGSEGV of the whole process.
//
// The memory a failed run allocated is not freed (its stack is abandoned,
// as after clang's own crash recovery); the caller reports the failure and
// drops what the run was building.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_CONTAINEDRUN_H
#define WARPCHECK_ANALYSIS_CONTAINEDRUN_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>
#include <optional>
#include <string>

namespace warpcheck::analysis {

/// The stacks of contained runs. clang's parser uses about 4 KB per level
/// of nested unary operators, its code generator about 1.6 KB per level of
/// nested assignments (clang 19, measured: both die within clang's own
/// 8 MB at 2,000 and 5,000 levels). A unit's parse and analysis (the
/// warpcheck binary) gets 256 MB, some 60,000 levels; the analysis of one
/// kernel 64 MB, eight times what clang gives its parser, in clang-tidy
/// too. Only the pages touched are ever backed by memory, but the whole
/// size counts against a limit of the address space (--memory-limit).
constexpr std::size_t UnitStackBytes = std::size_t(256) << 20;
constexpr std::size_t KernelStackBytes = std::size_t(64) << 20;


/// Why a contained run failed.
struct RunFailure {
  enum class Cause {
    /// A fault, an abort or a fatal error inside the run.
    Crash,
    /// The run used up its stack (code nested too deeply to follow).
    StackExhausted
  };
  Cause Why = Cause::Crash;
  /// What happened, a phrase: "a segmentation fault (SIGSEGV)", "the
  /// code is nested too deeply (it used up the 64 MB of stack the analysis
  /// has)".
  std::string What;
};

/// Runs Fn contained (see the file comment) on a thread with StackBytes of
/// stack; the calling thread waits. Nothing when Fn returned normally.
/// Runs may nest (a kernel's analysis inside a unit's). Where no stack or
/// thread can be had (the address space is exhausted, or limited), Fn runs
/// on the calling thread, still under crash recovery.
std::optional<RunFailure> runContained(llvm::function_ref<void()> Fn, std::size_t StackBytes);

/// Maps a stack of StackBytes now (with its 1 MB guard), kept for the runs
/// of that size that follow (one at a time; a nested run of the same size
/// maps its own): under a limit of the address space set next, a kernel's
/// run finds its stack, which the limit need not leave room for. Whether
/// it is mapped.
bool reserveStack(std::size_t StackBytes);

} // namespace warpcheck::analysis

#endif
