//===- ProcessRunner.h - starting a program without a shell ---------------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one way warpcheck starts a program: posix_spawn with an argument
/// vector whose first element is an absolute path (no PATH search, no
/// shell), an empty standard input, its output captured in files, and a
/// deadline. The program runs in a process group of its own, so that on a
/// time-out it is killed together with every program it started (nvcc's
/// cicc, ptxas, the host compiler). Which program may be started is decided
/// by the caller (NvccInvocation.h: only a located toolkit's bin/nvcc).
///
/// The deadline is this call's own (a polled wait), not the process-wide
/// alarm() of llvm::sys::ExecuteAndWait, so any number of threads may each
/// run a program with a time limit.
///
//===----------------------------------------------------------------------===//

#ifndef WARPCHECK_TOOLCHAIN_PROCESSRUNNER_H
#define WARPCHECK_TOOLCHAIN_PROCESSRUNNER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace warpcheck::toolchain {

struct ProcessResult {
  /// The program could not be started (StartError says why); nothing ran.
  bool StartFailed = false;
  /// It ran past its time limit and was killed with its process group.
  bool TimedOut = false;
  /// The exit code; negative when the program did not finish (a time-out,
  /// a crash): StartError then says what happened.
  int ExitCode = 0;
  std::string StartError;
  /// The signal that ended the program, when one did (not on a time-out);
  /// else 0.
  int Signal = 0;
  /// Its standard error, then its standard output.
  std::string Output;
  /// Its standard output alone (for a program whose output is parsed).
  std::string StandardOutput;
};

/// Runs \p Argv (Argv[0] is the program, an absolute path) with this
/// process's environment, where \p EnvOverrides ("NAME=value") replace the
/// variables of the same name, standard input empty, and its standard output
/// and error written to files in \p CaptureDir. Gives up after
/// \p TimeoutSeconds (0: no limit). A relative program path is refused.
ProcessResult runProcess(llvm::ArrayRef<std::string> Argv,
                         llvm::ArrayRef<std::string> EnvOverrides,
                         llvm::StringRef CaptureDir, unsigned TimeoutSeconds);

/// As runProcess, with exactly the environment \p Environment
/// ("NAME=value" each) and nothing of this process's.
ProcessResult runProcessWithEnvironment(llvm::ArrayRef<std::string> Argv,
                                        llvm::ArrayRef<std::string> Environment,
                                        llvm::StringRef CaptureDir, unsigned TimeoutSeconds);

/// Kills (SIGKILL) the process groups of every program runProcess started
/// that is still running. Async-signal-safe: for a handler of the signal
/// that ends this process, so that what it started does not outlive it.
void killStartedProcessGroups();

} // namespace warpcheck::toolchain

#endif // WARPCHECK_TOOLCHAIN_PROCESSRUNNER_H
