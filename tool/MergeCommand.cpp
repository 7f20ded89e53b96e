//===- MergeCommand.cpp - warpcheck merge: the shards as one run ----------===//
//
// warpcheck merge [options] <shard results...>
//
// Reads the files that `warpcheck --shard K/N` wrote (Shards.h), replays
// their events in the order of a whole run (RunRecord.h) and reports them
// as one run over all the inputs would (RunReport.h): the same report in
// any format, the same gates, the same exit code.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "PullRequestGates.h"
#include "RunReport.h"
#include "Shards.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <filesystem>

using namespace warpcheck::tool;

static const char *MergeHelp = R"(USAGE: warpcheck merge [options] <shard results...>

Reports the parts of a run that `warpcheck --shard K/N -o part-K.json` wrote,
one per K from 1 to N, as one run over all the inputs: the same report, in
any format, and the same exit code. Parts of different runs (other inputs,
options, number of shards or warpcheck version), a part given twice and a
missing part are errors (exit code 2).

OPTIONS:
  --format=json|sarif|text|html
                           Output format (default: json).
  -o <file>                Write the report to <file> instead of standard output.
  --baseline=<file>, --write-baseline=<file>, --diff=<rev>, --line-filter=<json>,
  --source-root=<dir>, --fail-on=warning|error|never
                           As warpcheck's (see warpcheck --help), on the merged
                           findings. What is analysed and how (--checks, --arch,
                           --config, --warnings-as-errors, ...) is the parts' runs'.
  --help                   Print this help and exit.

The exit codes are warpcheck's (see warpcheck --help).
)";

int mergeMain(llvm::ArrayRef<const char *> Argv) {
  CommandLine CL;
  if (!parseCommandLine(Argv, CL))
    return ExitUsage;
  if (CL.Help) {
    llvm::outs() << MergeHelp;
    return ExitOk;
  }
  // Only what decides how the merged findings are reported: what was
  // analysed, and how, was decided by the parts' runs.
  CommandLine Defaults;
  std::vector<std::pair<bool, const char *>> RunOptions = {
      {!CL.BuildDir.empty(), "-p"},
      {CL.HaveDashDash, "--"},
      {CL.ChecksGiven, "--checks"},
      {!CL.Arch.empty(), "--arch"},
      {!CL.CudaPath.empty(), "--cuda-path"},
      {CL.NoCuda, "--no-cuda"},
      {CL.DefaultBlockGiven, "--default-block"},
      {!CL.CheckOptions.empty(), "--config"},
      {!CL.WarningsAsErrors.empty(), "--warnings-as-errors"},
      {CL.HeaderFilter != Defaults.HeaderFilter, "--header-filter"},
      {CL.Jobs != 0, "-j"},
      {CL.TimeoutSeconds != Defaults.TimeoutSeconds, "--timeout"},
      {CL.MemoryLimitMB != 0, "--memory-limit"},
      {!CL.SassListing.empty(), "--sass-listing"},
      {CL.Isolate, "--isolate"},
      {!CL.CacheDir.empty() || CL.Cache, "--cache-dir"},
      {CL.Progress.has_value(), "--progress"},
      {CL.ShardCount != 0, "--shard"},
      {CL.Fix || CL.FixNotes || !CL.ExportFixes.empty(), "--fix"},
      {CL.VerifyConfig, "--verify-config"},
      {CL.ListChecks || CL.PrintClangArgs || CL.PrintToolkit || CL.Version, "--list-checks"}};
  for (const auto &[Given, Name] : RunOptions)
    if (Given) {
      error(std::string(Name) + " is an option of the parts' runs (warpcheck --shard), not of "
                                "warpcheck merge (see warpcheck merge --help)");
      return ExitUsage;
    }
  if (CL.Files.empty()) {
    error("warpcheck merge needs the parts' files (warpcheck --shard K/N -o FILE)");
    return ExitUsage;
  }
  if (!CL.FormatGiven)
    CL.Format = "json";
  std::vector<std::string> Enabled;
  if (!validateCommandLine(CL, Enabled))
    return ExitUsage;

  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  if (!CL.Output.empty() && CL.Output != "-")
    for (const std::string &Part : CL.Files) {
      std::error_code EC;
      if (std::filesystem::equivalent(CL.Output, Part, EC) && !EC) {
        error("-o '" + CL.Output + "' is the part '" + Part +
              "': refused, the report would overwrite it");
        return ExitUsage;
      }
    }
  std::optional<GateOptions> Gates = readGateOptions(CL, Cwd);
  if (!Gates)
    return ExitUsage;
  RunRecord Record;
  std::string Why;
  if (!mergeShardFiles(CL.Files, Record, Why)) {
    error(Why);
    return ExitUsage;
  }
  RunResult Result = Record.replay();
  return reportRun(CL, *Gates, Cwd, Result, {});
}
