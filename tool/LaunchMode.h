//===- LaunchMode.h - warpcheck as the build's compiler launcher ----------===//
//
// warpcheck launch [warpcheck options] [--] <compiler> <arguments...>
//
// Set as CMake's CMAKE_CUDA_COMPILER_LAUNCHER (or in a ninja or Bazel
// wrapper), warpcheck analyses the CUDA sources of each compile command the
// build runs, with that command's own arguments, then runs the compiler
// exactly as the build asked: the same program, arguments and environment,
// no shell. The build's parallelism and distribution (ninja -j, distcc,
// remote execution) then run the analysis per translation unit.
//
// Starting the compiler is safe here because the build chose it and already
// runs it; nothing else in warpcheck starts a program that a compile command
// names (a compile database under review is untrusted: -p never does this,
// docs/ci.md).
//
// The analysis never changes the build's outcome: each unit is analysed in
// a worker process (--isolate), so that a crash or a time-out is a warning;
// the report goes to standard error, nothing at all for a unit without
// findings; the exit code is the compiler's.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_LAUNCHMODE_H
#define WARPCHECK_TOOL_LAUNCHMODE_H

#include "CommandLine.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace warpcheck::tool {

/// The CUDA sources of a compile command (compiler first): the arguments
/// that name .cu files and are not the value of -o or of a dependency-file
/// option (-MF, -MT, -MQ).
std::vector<std::string> cudaSourcesOfCommand(llvm::ArrayRef<std::string> Command);

/// The options of warpcheck and the compile command of `warpcheck launch`
/// (Argv is main's, Argv[1] == "launch"): warpcheck's options up to the
/// first `--`, the command after it; without a `--`, the options up to the
/// first argument that is not an option (an option whose value is a
/// separate argument then needs the `--`).
struct LaunchArguments {
  std::vector<const char *> Warpcheck; // program name first
  std::vector<std::string> Command;    // compiler first
};
LaunchArguments splitLaunchArguments(llvm::ArrayRef<const char *> Argv);

/// The analysis of a run (WarpcheckMain.cpp), given the parsed command line.
using AnalyseRun = int (*)(CommandLine &CL, const char *Argv0);

/// `warpcheck launch ...`: analyses the command's CUDA sources with
/// Analyse, then replaces this process with the compiler (execvp). Returns
/// only when it cannot: 2 for a usage error (no compiler, an option that
/// launch mode has no use for), 127 when the compiler cannot be started.
int launchMain(llvm::ArrayRef<const char *> Argv, AnalyseRun Analyse);

} // namespace warpcheck::tool

#endif
