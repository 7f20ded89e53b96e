//===- LaunchMode.cpp - warpcheck as the build's compiler launcher --------===//

#include "LaunchMode.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace warpcheck::tool {

std::vector<std::string> cudaSourcesOfCommand(llvm::ArrayRef<std::string> Command) {
  std::vector<std::string> Sources;
  for (size_t I = 1; I < Command.size(); ++I) {
    llvm::StringRef A = Command[I];
    llvm::StringRef Before = Command[I - 1];
    if (Before == "-o" || Before == "-MF" || Before == "-MT" || Before == "-MQ")
      continue;
    if (!A.starts_with("-") && llvm::sys::path::extension(A) == ".cu")
      Sources.push_back(A.str());
  }
  return Sources;
}

LaunchArguments splitLaunchArguments(llvm::ArrayRef<const char *> Argv) {
  LaunchArguments Out;
  Out.Warpcheck.push_back(Argv.empty() ? "warpcheck" : Argv[0]);
  // With a `--`, the first one separates (an option's value may then be a
  // separate argument); without one, the command starts at the first
  // argument that is not an option.
  size_t DashDash = Argv.size();
  for (size_t I = 2; I < Argv.size(); ++I)
    if (llvm::StringRef(Argv[I]) == "--") {
      DashDash = I;
      break;
    }
  size_t I = 2;
  for (; I < Argv.size() && I < DashDash; ++I) {
    if (DashDash == Argv.size() && !llvm::StringRef(Argv[I]).starts_with("-"))
      break;
    Out.Warpcheck.push_back(Argv[I]);
  }
  if (I == DashDash)
    ++I;
  for (; I < Argv.size(); ++I)
    Out.Command.push_back(Argv[I]);
  return Out;
}

namespace {

/// Why CL cannot be a launcher's, or empty: the inputs are the command's,
/// and the report is text on standard error (the build's output is the
/// compiler's).
std::string unusableInLaunchMode(const CommandLine &CL) {
  if (!CL.Files.empty())
    return "input files (the inputs are the compile command's CUDA sources)";
  if (!CL.BuildDir.empty())
    return "-p (the compile command is the build's own)";
  if (CL.FormatGiven && CL.Format != "text")
    return "--format=" + CL.Format + " (the report is text on standard error)";
  if (!CL.Output.empty())
    return "-o (the report goes to standard error)";
  if (CL.Fix || !CL.ExportFixes.empty())
    return "--fix and --export-fixes (sources are not changed during a build)";
  if (CL.ShardCount)
    return "--shard";
  if (CL.Help || CL.Version || CL.ListChecks || CL.PrintToolkit || CL.PrintClangArgs ||
      CL.VerifyConfig)
    return "an option that analyses nothing";
  return "";
}

} // namespace

int launchMain(llvm::ArrayRef<const char *> Argv, AnalyseRun Analyse) {
  LaunchArguments Args = splitLaunchArguments(Argv);
  if (Args.Command.empty()) {
    error("launch: no compiler command (warpcheck launch [options] [--] <compiler> "
          "<arguments...>)");
    return ExitUsage;
  }
  CommandLine CL;
  if (!parseCommandLine(Args.Warpcheck, CL))
    return ExitUsage;
  if (std::string Why = unusableInLaunchMode(CL); !Why.empty()) {
    error("launch: " + Why + " cannot be used in launch mode");
    return ExitUsage;
  }
  if (!cudaSourcesOfCommand(Args.Command).empty()) {
    CL.LaunchCommand = Args.Command;
    // A worker process per unit: whatever the analysis does, the compiler
    // still runs.
    CL.Isolate = true;
    Analyse(CL, Args.Warpcheck.front());
  }
  llvm::outs().flush();
  llvm::errs().flush();
  std::vector<char *> Exec;
  for (std::string &A : Args.Command)
    Exec.push_back(A.data());
  Exec.push_back(nullptr);
  ::execvp(Exec.front(), Exec.data());
  error("launch: cannot start the compiler '" + Args.Command.front() +
        "': " + std::strerror(errno));
  return 127;
}

} // namespace warpcheck::tool
