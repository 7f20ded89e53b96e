//===- CommandLine.h - warpcheck's options --------------------------------===//
#ifndef WARPCHECK_TOOL_COMMANDLINE_H
#define WARPCHECK_TOOL_COMMANDLINE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// Exit codes (documented in --help and README).
constexpr int ExitOk = 0;
constexpr int ExitFindingsAsErrors = 1;
constexpr int ExitUsage = 2;
constexpr int ExitInputErrors = 3;
/// The report could not be written (-o names a file that cannot be
/// created, a full disk, /dev/full, standard output closed): distinct from
/// 1, so that a lost report is never read as "findings".
constexpr int ExitReportNotWritten = 4;

/// Which reported findings give ExitFindingsAsErrors (--fail-on): any,
/// those that are errors (--warnings-as-errors; the default), or none.
enum class FailOn { Warning, Error, Never };

struct CommandLine {
  /// Source files and folders, as given.
  std::vector<std::string> Files;
  std::vector<std::string> ExtraArgs;
  bool HaveDashDash = false;
  std::string BuildDir;
  std::string Checks = "cuda-*";
  /// --checks was given: exactly its checks run, whatever a .clang-tidy
  /// enables (JobOptions.h).
  bool ChecksGiven = false;
  /// --default-block was given: it wins over a .clang-tidy's DefaultBlock.
  bool DefaultBlockGiven = false;
  /// The model's architecture: the first of --arch's list.
  std::string Arch;
  /// The rest of --arch's list: compared with for occupancy.
  std::vector<std::string> CompareArchs;
  std::string Format = "text";
  /// --format was given (merge's default is json; --shard takes none but
  /// json).
  bool FormatGiven = false;
  std::string Output;
  unsigned Jobs = 0;
  std::string CudaPath;
  std::string DefaultBlock = "256,1,1";
  std::vector<std::string> CheckOptions;
  std::string WarningsAsErrors;
  /// Which reported findings give exit code 1 (--fail-on).
  FailOn FailPolicy = FailOn::Error;
  /// --baseline: an earlier report whose findings are not reported again.
  std::string Baseline;
  /// --write-baseline: where to write the fingerprints of the findings.
  std::string WriteBaseline;
  /// --source-root: files under it are named relative to it (SARIF's
  /// %SRCROOT%, fingerprints). Empty: the current directory.
  std::string SourceRoot;
  /// --diff: only the lines changed since this git revision are reported.
  std::string DiffRevision;
  /// --line-filter: clang-tidy's JSON list of files and line ranges.
  std::string LineFilterJson;
  /// --fix: make the fix-its of the reported findings in the files.
  bool Fix = false;
  /// --fix-notes: a finding without a fix-it of its own takes its first
  /// note's (for --fix and --export-fixes).
  bool FixNotes = false;
  /// --export-fixes: where to write the fix-its as clang-tidy's YAML.
  std::string ExportFixes;
  /// Which user headers report findings and kernels (a regular expression
  /// matched against the header's path, clang-tidy's HeaderFilterRegex).
  /// Every user header by default; empty: none (clang-tidy's default).
  std::string HeaderFilter = ".*";
  unsigned TimeoutSeconds = 600;
  /// --memory-limit: each worker's address space in MB; 0: no limit.
  unsigned MemoryLimitMB = 0;
  bool ListChecks = false, Help = false, Version = false, PrintClangArgs = false;
  /// --verify-config: check the configuration of the inputs and exit.
  bool VerifyConfig = false;
  bool NoCuda = false;
  /// Print what the toolkit search found, as JSON, and exit.
  bool PrintToolkit = false;
  /// Analyse even a single file in a worker process of its own.
  bool Isolate = false;
  /// --cache-dir: the results cache's folder (ResultsCache.h); --cache:
  /// the default one. Empty and false: no results cache.
  std::string CacheDir;
  bool Cache = false;
  /// --cache-limit: the results cache's size limit in MiB; 0 for the
  /// default (toolchain::DefaultCacheLimitBytes, CacheTrim.h).
  unsigned CacheLimitMB = 0;
  /// --progress / --no-progress; nullopt: a progress line when standard
  /// error is a terminal.
  std::optional<bool> Progress;
  /// --shard K/N (Shards.h): 1-based K, and N; 0 and 0 for a whole run.
  unsigned ShardIndex = 0, ShardCount = 0;
  /// --sass-listing: an `nvdisasm -gi` listing of the build's cubin, whose
  /// memory instructions the kernels are costed with (instead of those of
  /// the located toolkit's nvcc and nvdisasm).
  std::string SassListing;
  /// --launches-from=database (with -p): the compile database's other
  /// entries are parsed for their host code only, so that their launches
  /// of the inputs' kernels and their calls of the inputs' host functions
  /// bind them (the inputs alone by default).
  bool LaunchesFromDatabase = false;
  /// warpcheck launch (LaunchMode.h): the build's compile command, compiler
  /// first. Its CUDA sources are the inputs, analysed with its arguments;
  /// the report goes to standard error, and a unit with nothing to say
  /// prints nothing.
  std::vector<std::string> LaunchCommand;
  /// --export-compile-commands=<file>: a compile database of the inputs
  /// with the clang commands warpcheck parses them with (nvcc's flags
  /// translated), for clang-tidy -p; written instead of analysing.
  std::string ExportCompileCommands;
};

/// Parses argv (argv[0] is the program). False after printing an error.
bool parseCommandLine(llvm::ArrayRef<const char *> Argv, CommandLine &CL);

/// Checks and normalises what parsing alone cannot: --checks names checks,
/// --arch names known architectures (the first is the target, the rest are
/// compared with), --default-block and --format are well formed. False
/// after printing an error. Enabled receives the enabled checks.
bool validateCommandLine(CommandLine &CL, std::vector<std::string> &Enabled);

/// With --shard: --format is json if given, and none of merge's options
/// (the gates, the fix-its) is given. False after printing an error.
bool validateShardOptions(const CommandLine &CL);

/// The --help text.
std::string helpText();

/// "warpcheck: error: <Message>" on standard error.
void error(const llvm::Twine &Message);
/// "warpcheck: warning: <Message>" on standard error.
void warning(const llvm::Twine &Message);
/// "warpcheck: note: <Message>" on standard error.
void note(const llvm::Twine &Message);

} // namespace warpcheck::tool

#endif
