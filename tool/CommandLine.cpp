//===- CommandLine.cpp - warpcheck's options ------------------------------===//

#include "CommandLine.h"
#include "Shards.h"

#include "warpcheck/analysis/LaunchConfig.h"
#include "warpcheck/model/Arch.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

namespace warpcheck::tool {

void error(const llvm::Twine &Message) {
  llvm::WithColor::error(llvm::errs(), "warpcheck") << Message << "\n";
}

void warning(const llvm::Twine &Message) {
  llvm::WithColor::warning(llvm::errs(), "warpcheck") << Message << "\n";
}

void note(const llvm::Twine &Message) {
  llvm::WithColor::note(llvm::errs(), "warpcheck") << Message << "\n";
}

static const char *HelpHead = R"(USAGE: warpcheck [options] <source files or folders...> [-- <compiler arguments>]
       warpcheck -p <build dir> [options] [source files or folders...]
       warpcheck occupancy --arch=sm_90 --registers=R --block=B [...]   (see warpcheck occupancy --help)
       warpcheck merge [options] <shard results...>   (see warpcheck merge --help)
       warpcheck launch [options] [--] <compiler> <arguments...>
                 as the build's compiler launcher (CMAKE_CUDA_COMPILER_LAUNCHER):
                 analyses the command's .cu sources with its arguments, reports
                 on standard error (nothing for a clean unit), then runs the
                 compiler exactly as given; the exit code is the compiler's

Predicts, from CUDA source alone, how each kernel's global and shared memory
accesses behave on a real GPU (32-byte sectors per warp request, bank
conflicts) and reports the accesses that waste bandwidth.

A folder stands for the .cu and .cuh files under it (with -p: the files of
the compile database under it), in path order; a file another one includes
(a kernel.cu included by a wrapper, a .cuh) is analysed through it, not on
its own.

OPTIONS:
  -p <dir>                 Build directory holding compile_commands.json. Without
                           source files, every CUDA file in it is analysed (.cu,
                           and any file compiled with -x cu).
  --checks=<globs>         Checks to run, clang-tidy glob syntax: exactly these.
                           Without it, each file's .clang-tidy decides (its Checks
                           after the default cuda-*, as clang-tidy merges them).
  --arch=<sm_XX>[,<sm_YY>...]
                           Target architecture of the hardware model (default: from
                           the compile flags, else sm_90). A list compares
                           occupancy: the first is the target, cuda-occupancy's
                           notes and the JSON's "occupancy_by_arch" add the rest.
                           Known: )";

static const char *HelpTail = R"(
  --format=text|json|sarif|html
                           Output format (default: text). json is the stable
                           contract; sarif (2.1.0) is for code scanning; html is
                           one self-contained page for audits.
  -o <file>                Write the report to <file> instead of standard output.
  -j <n>                   Translation units analysed in parallel (default: cores).
  --cuda-path=<dir>        CUDA toolkit to parse with (default: $CUDA_PATH,
                           $CUDA_HOME, /usr/local/cuda; none: bundled declarations).
  --no-cuda                Ignore any CUDA toolkit: parse with warpcheck's bundled
                           declarations of the CUDA built-ins.
  --sass-listing=<file>    Cost the kernels with the memory instructions of <file>,
                           an `nvdisasm -gi` listing of the build's cubin (compiled
                           with -lineinfo), instead of those of the located toolkit's
                           nvcc and nvdisasm.
  --default-block=<x,y,z>  Block shape for kernels with no launch site (default 256,1,1).
  --launches-from=inputs|database
                           Where the launches of a kernel defined in one unit and
                           the calls of a host function that launches are looked
                           for: the inputs (default), or, with -p, every entry of
                           the compile database (its other C, C++ and CUDA files
                           are parsed for their host code only, not reported).
  --header-filter=<regex>  User headers whose findings and kernels are reported
                           (default: every user header, '.*'; system headers such
                           as CUDA's and CCCL's never). An empty value restores
                           clang-tidy's default: the main files only. A finding in
                           a header that several files include is reported once.
  --config=<check>.<Option>=<value>
                           Set a check option, e.g.
                           --config=cuda-uncoalesced-global-access.MinEfficiency=80
                           (over the CheckOptions of each file's .clang-tidy, which
                           apply as clang-tidy applies them).
  --verify-config          Verify the configuration of the inputs (or of a file in
                           the current folder) and exit: .clang-tidy files that
                           cannot be read, cuda checks and options that do not
                           exist, values the checks refuse (exit code 1 for any;
                           "No config errors detected." otherwise). Every run
                           verifies it first: a problem is an error, the refused
                           value is replaced by the check's default, exit code 2.
  --warnings-as-errors=<globs>
                           Findings of these checks are errors (exit code 1).
  --fail-on=warning|error|never
                           Which reported findings give exit code 1: any finding
                           (warning), findings that --warnings-as-errors makes
                           errors (error, the default), or none (never).
  --baseline=<file>        An earlier report of warpcheck (a --write-baseline file,
                           --format=json or --format=sarif): its findings, matched
                           by fingerprint, are neither reported nor fail the run.
  --write-baseline=<file>  Write the fingerprints of the reported findings to
                           <file> (JSON), to pass to --baseline later.
  --diff=<rev>             Report only findings on lines added or changed since the
                           git revision <rev> (git diff <rev>, in the repository
                           each file is in; git is found on PATH).
  --line-filter=<json>     clang-tidy's syntax: report only findings on these lines,
                           e.g. [{"name":"file.cu","lines":[[1,3]]},{"name":"b.cu"}]
  --fix                    Make the fix-its of the reported findings (those left
                           after --baseline, --diff and --line-filter) in the files,
                           as clang-tidy --fix: a fix-it overlapping one already
                           made is left out and said on standard error; the same
                           fix-it from several launches or files is made once; only
                           the analysed files and their user headers are written,
                           each atomically.
  --fix-notes              A finding without a fix-it of its own takes the first
                           fix-it of its notes (with --fix and --export-fixes).
  --export-fixes=<file>    Write the fix-its --fix would make to <file> as YAML
                           that clang-apply-replacements accepts (clang-tidy's
                           format).
  --source-root=<dir>      Name files under <dir> relative to it: SARIF's %SRCROOT%
                           and the fingerprints (default: the current directory).
  --timeout=<seconds>      Time limit of each translation unit (default 600), with
                           any number of inputs; its worker and the programs the
                           worker started are killed on it.
  --memory-limit=<MB>      Memory limit of each translation unit's worker process
                           (default: none): its address space, which includes
                           320 MB of stack reserved for deeply nested code, and
                           that of each program it starts (nvcc); a unit over it
                           is reported as out of memory, the others go on. Even
                           a single file then runs in a worker.
  --isolate                Analyse even a single file in a worker process (several
                           files always are: one crash never stops the others).
  --cache-dir=<dir>        Keep each unit's result in <dir> and reuse it while the
                           unit, every file its parse read, the .clang-tidy files
                           above it, the options and warpcheck itself are unchanged
                           (only units analysed without a compiler error are kept).
  --cache                  The same in $XDG_CACHE_HOME/warpcheck/results, else
                           $HOME/.cache/warpcheck/results.
  --cache-limit=<MiB>      After a run that stored results, the least recently used
                           are removed until the results cache takes at most 3/4 of
                           <MiB> (default 512; the ptxas cache keeps the default).
  --progress, --no-progress
                           Say on standard error which unit finished, how many are
                           left and about how long they take ("[12/340] a.cu, about
                           3 min left"); by default only when standard error is a
                           terminal. Never in the report. (On a terminal, the text
                           report prints each unit's findings as it finishes.)
  --shard=<K>/<N>          Analyse only the K-th of N parts of the inputs (split by
                           file size, the same on every machine) and write that
                           part's results as JSON (-o or standard output) for
                           `warpcheck merge`, which reports as one run over all the
                           inputs would; exit code 0 once written (see docs/ci.md).
  --list-checks            List the enabled checks and exit.
  --print-clang-args       Print, one per line, the clang arguments warpcheck parses
                           the first input with (for clang-tidy's -- or ExtraArgs).
  --export-compile-commands=<file>
                           Write a compile database of the inputs with the clang
                           commands warpcheck parses them with (each nvcc command
                           of -p translated) and exit: clang-tidy-19 -p <its folder>
                           -load libwarpcheck.so then reads a CMake nvcc project.
  --print-toolkit          Print, as JSON, the CUDA toolkit warpcheck found (honours
                           --cuda-path and --no-cuda) and exit; exit code 1 when a
                           named location is not a toolkit.
  --version                Print the version and exit.
  --help                   Print this help and exit.

Compiler arguments after -- apply to every file given on the command line;
with -p, each file's own compile command is used (nvcc flags are translated,
flags that could start a program or load a plugin are dropped; relative paths
are taken from the entry's directory).

Each input ends in one of three states, counted in the summary line:
analysed (no compiler error), analysed with errors (the compiler reported
errors, for instance in host code written for an older CUDA; every kernel
that compiles is still analysed and reported, a kernel that does not is
listed with its error, as is a kernel whose analysis failed inside
warpcheck), or not analysed (missing or unreadable file, no usable compile
command, code nested too deeply to parse, a crash, time-out or lack of
memory of its analysis).

Register counts (cuda-occupancy, the JSON's "registers") come from the
located toolkit's nvcc (ptxas), run once per translation unit with an
environment of its own, and are cached in $XDG_CACHE_HOME/warpcheck/ptxas,
else $HOME/.cache/warpcheck/ptxas (remove the folder to compile again);
without a toolkit, or with --no-cuda, they are estimated and nothing is run.
The cubin of that run is listed by the toolkit's nvdisasm, when it has one:
the memory accesses are then costed as the instructions the compiler emitted
(merged, split, moved out of loops; the JSON's "instructions"), cached with
the registers.

EXIT CODES:
  0  every input was analysed without a compiler error (findings, if any, are
     warnings)
  1  a reported finding that fails the run (and no input error): by default
     one of a check named by --warnings-as-errors; with --fail-on=warning any
     finding; with --fail-on=never none. Findings the --baseline holds or
     outside --diff / --line-filter never count
  2  usage error: unknown option, --checks matching or enabling no check, unknown --arch,
     malformed --default-block, --header-filter, --fail-on or --line-filter,
     unreadable or malformed compile database or --baseline, --source-root
     not a folder, --diff's git failing, --write-baseline not writable,
     -o or --export-fixes naming one of the inputs, --cache-dir not a
     folder; or a problem of the checks' configuration (a .clang-tidy that
     cannot be read, an unknown cuda check or option, a refused value: the
     report is still written, with the check's default for that value)
  3  at least one input was analysed with errors or not analysed; the others
     were analysed and everything found is reported
  4  the report could not be written (-o names a file that cannot be created,
     or writing failed: a full disk, /dev/full), nor the --export-fixes file
     or a file --fix changes; -o naming one of the inputs is refused with exit
     code 2 and the input is left as it is
)";

std::string helpText() {
  return std::string(HelpHead) + llvm::join(model::knownArchNames(), ", ") + HelpTail;
}

bool parseCommandLine(llvm::ArrayRef<const char *> Argv, CommandLine &CL) {
  for (size_t I = 1; I < Argv.size(); ++I) {
    llvm::StringRef A = Argv[I];
    if (CL.HaveDashDash) {
      CL.ExtraArgs.push_back(A.str());
      continue;
    }
    auto Take = [&](llvm::StringRef Name, std::string &Into) -> int {
      // --name=value, or -name value / --name value
      if (A.starts_with(Name.str() + "=")) {
        Into = A.drop_front(Name.size() + 1).str();
        return 1;
      }
      if (A == Name) {
        if (I + 1 >= Argv.size()) {
          error("option '" + Name + "' needs a value");
          return -1;
        }
        Into = Argv[++I];
        return 1;
      }
      return 0;
    };
    std::string Value;
    int R;
    if (A == "--") {
      CL.HaveDashDash = true;
    } else if (A == "--help" || A == "-h" || A == "-help") {
      CL.Help = true;
    } else if (A == "--version") {
      CL.Version = true;
    } else if (A == "--list-checks") {
      CL.ListChecks = true;
    } else if (A == "--isolate") {
      CL.Isolate = true;
    } else if (A == "--no-cuda") {
      CL.NoCuda = true;
    } else if (A == "--print-clang-args") {
      CL.PrintClangArgs = true;
    } else if (A == "--print-toolkit") {
      CL.PrintToolkit = true;
    } else if (A == "--verify-config" || A == "-verify-config") {
      CL.VerifyConfig = true;
    } else if (A == "--cache") {
      CL.Cache = true;
    } else if (A == "--progress" || A == "--no-progress") {
      CL.Progress = A == "--progress";
    } else if (A == "--fix" || A == "-fix") {
      CL.Fix = true;
    } else if (A == "--fix-notes" || A == "-fix-notes") {
      CL.FixNotes = true;
    } else if ((R = Take("-p", CL.BuildDir)) || (R = Take("--checks", CL.Checks)) ||
               (R = Take("-checks", CL.Checks)) || (R = Take("--arch", CL.Arch)) ||
               (R = Take("--format", CL.Format)) || (R = Take("-o", CL.Output)) ||
               (R = Take("--cuda-path", CL.CudaPath)) ||
               (R = Take("--default-block", CL.DefaultBlock)) ||
               (R = Take("--header-filter", CL.HeaderFilter)) ||
               (R = Take("-header-filter", CL.HeaderFilter)) ||
               (R = Take("--warnings-as-errors", CL.WarningsAsErrors))) {
      if (R < 0)
        return false;
      CL.FormatGiven |= A.starts_with("--format");
      CL.ChecksGiven |= A.starts_with("--checks") || A.starts_with("-checks");
      CL.DefaultBlockGiven |= A.starts_with("--default-block");
    } else if ((R = Take("--baseline", CL.Baseline)) ||
               (R = Take("--write-baseline", CL.WriteBaseline)) ||
               (R = Take("--source-root", CL.SourceRoot)) ||
               (R = Take("--diff", CL.DiffRevision)) ||
               (R = Take("--line-filter", CL.LineFilterJson)) ||
               (R = Take("--export-fixes", CL.ExportFixes)) ||
               (R = Take("--export-compile-commands", CL.ExportCompileCommands)) ||
               (R = Take("--cache-dir", CL.CacheDir)) ||
               (R = Take("--sass-listing", CL.SassListing)) ||
               (R = Take("-export-fixes", CL.ExportFixes)) ||
               (R = Take("-line-filter", CL.LineFilterJson))) {
      if (R < 0)
        return false;
      // An empty value would silently turn a gate off.
      if (A.ends_with("=")) {
        error("option '" + A.drop_back() + "' needs a value");
        return false;
      }
    } else if ((R = Take("--config", Value))) {
      if (R < 0)
        return false;
      if (!llvm::StringRef(Value).contains('=')) {
        error("--config needs <check>.<Option>=<value>, got '" + Value + "'");
        return false;
      }
      CL.CheckOptions.push_back(Value);
    } else if ((R = Take("--shard", Value))) {
      ShardSpec Shard;
      std::string Why;
      if (R < 0)
        return false;
      if (!parseShard(Value, Shard, Why)) {
        error(Why);
        return false;
      }
      CL.ShardIndex = Shard.Index;
      CL.ShardCount = Shard.Count;
    } else if ((R = Take("--launches-from", Value))) {
      if (R < 0)
        return false;
      if (Value != "inputs" && Value != "database") {
        error("--launches-from needs inputs or database, got '" + Value + "'");
        return false;
      }
      CL.LaunchesFromDatabase = Value == "database";
    } else if ((R = Take("--fail-on", Value))) {
      if (R < 0)
        return false;
      if (Value == "warning")
        CL.FailPolicy = FailOn::Warning;
      else if (Value == "error")
        CL.FailPolicy = FailOn::Error;
      else if (Value == "never")
        CL.FailPolicy = FailOn::Never;
      else {
        error("--fail-on needs warning, error or never, got '" + Value + "'");
        return false;
      }
    } else if ((R = Take("-j", Value)) || (R = Take("--jobs", Value))) {
      if (R < 0 || llvm::StringRef(Value).getAsInteger(10, CL.Jobs) || CL.Jobs == 0) {
        error("-j needs a positive number, got '" + Value + "'");
        return false;
      }
    } else if (A.starts_with("-j") && A.size() > 2) {
      if (A.drop_front(2).getAsInteger(10, CL.Jobs) || CL.Jobs == 0) {
        error("-j needs a positive number, got '" + A.drop_front(2) + "'");
        return false;
      }
    } else if ((R = Take("--timeout", Value))) {
      if (R < 0 || llvm::StringRef(Value).getAsInteger(10, CL.TimeoutSeconds) ||
          CL.TimeoutSeconds == 0) {
        error("--timeout needs a positive number of seconds, got '" + Value + "'");
        return false;
      }
    } else if ((R = Take("--memory-limit", Value))) {
      // Up to 1 TB: the limit is shifted into bytes.
      if (R < 0 || llvm::StringRef(Value).getAsInteger(10, CL.MemoryLimitMB) ||
          CL.MemoryLimitMB == 0 || CL.MemoryLimitMB > (1u << 20)) {
        error("--memory-limit needs a positive number of megabytes (at most 1048576), got '" +
              Value + "'");
        return false;
      }
    } else if ((R = Take("--cache-limit", Value))) {
      if (R < 0 || llvm::StringRef(Value).getAsInteger(10, CL.CacheLimitMB) ||
          CL.CacheLimitMB == 0 || CL.CacheLimitMB > (1u << 24)) {
        error("--cache-limit needs a positive number of MiB (at most 16777216), got '" + Value +
              "'");
        return false;
      }
    } else if (A.starts_with("-") && A != "-") {
      error("unknown option '" + A + "' (see warpcheck --help)");
      return false;
    } else {
      CL.Files.push_back(A.str());
    }
  }
  return true;
}

/// Names of all checks warpcheck provides.
static std::vector<std::string> allCheckNames() {
  clang::tidy::ClangTidyOptions Opts;
  Opts.Checks = "cuda-*";
  return clang::tidy::getCheckNames(Opts, false);
}

/// Every positive glob of --checks must name at least one check: a typo
/// must not silently analyse nothing.
static bool validateChecks(const std::string &Checks, std::vector<std::string> &Enabled) {
  std::vector<std::string> All = allCheckNames();
  llvm::SmallVector<llvm::StringRef, 8> Globs;
  llvm::StringRef(Checks).split(Globs, ',', -1, false);
  for (llvm::StringRef G : Globs) {
    G = G.trim();
    if (G.empty() || G.starts_with("-"))
      continue;
    std::string Pattern = "^";
    for (char C : G)
      Pattern += C == '*' ? std::string(".*") : llvm::Regex::escape(std::string(1, C));
    Pattern += "$";
    llvm::Regex Re(Pattern);
    bool Any = false;
    for (const std::string &Name : All)
      Any |= Re.match(Name);
    if (!Any && G != "*") {
      error("--checks pattern '" + G + "' matches no check; known checks: " +
            llvm::join(All, ", "));
      return false;
    }
  }
  clang::tidy::ClangTidyOptions Opts;
  Opts.Checks = "-*," + Checks;
  Enabled = clang::tidy::getCheckNames(Opts, false);
  // As clang-tidy's "no checks enabled": `--checks=-*` would analyse every
  // unit and report nothing.
  if (!llvm::StringRef(Checks).trim().empty() && Enabled.empty()) {
    error("--checks '" + Checks + "' enables no check; known checks: " + llvm::join(All, ", "));
    return false;
  }
  return true;
}

bool validateCommandLine(CommandLine &CL, std::vector<std::string> &Enabled) {
  if (!validateChecks(CL.Checks, Enabled))
    return false;
  if (CL.LaunchesFromDatabase && CL.BuildDir.empty()) {
    error("--launches-from=database needs a compile database (-p)");
    return false;
  }
  if (!CL.Arch.empty()) {
    // --arch=sm_90,sm_80,sm_75: the model's target first; occupancy is also
    // computed for the others (cuda-occupancy's notes, "occupancy_by_arch").
    llvm::SmallVector<llvm::StringRef, 4> Names;
    llvm::StringRef(CL.Arch).split(Names, ',', -1, false);
    std::vector<std::string> List;
    for (llvm::StringRef N : Names) {
      const model::ArchSpec *Spec = model::findArch(N.trim());
      if (!Spec) {
        error("unknown --arch '" + N.trim() + "'; known: " +
              llvm::join(model::knownArchNames(), ", "));
        return false;
      }
      if (!llvm::is_contained(List, Spec->Name))
        List.push_back(Spec->Name);
    }
    if (List.empty()) {
      error("empty --arch; known: " + llvm::join(model::knownArchNames(), ", "));
      return false;
    }
    CL.Arch = List.front();
    CL.CompareArchs.assign(List.begin() + 1, List.end());
    // Before the user's --config, which wins.
    if (!CL.CompareArchs.empty())
      CL.CheckOptions.insert(CL.CheckOptions.begin(),
                             "cuda-occupancy.Archs=" + llvm::join(CL.CompareArchs, ","));
  }
  if (!analysis::parseDim3(CL.DefaultBlock)) {
    error("malformed --default-block '" + CL.DefaultBlock +
          "' (expected x[,y[,z]] with positive integers)");
    return false;
  }
  if (std::string Why; !CL.HeaderFilter.empty() && !llvm::Regex(CL.HeaderFilter).isValid(Why)) {
    error("malformed --header-filter '" + CL.HeaderFilter + "': " + Why);
    return false;
  }
  if (!llvm::is_contained({"text", "json", "sarif", "html"}, CL.Format)) {
    error("unknown --format '" + CL.Format + "' (expected text, json, sarif or html)");
    return false;
  }
  return validateShardOptions(CL);
}

bool validateShardOptions(const CommandLine &CL) {
  if (!CL.ShardCount)
    return true;
  // A part writes what it analysed for warpcheck merge; what is reported,
  // and how, is merge's business.
  if (CL.FormatGiven && CL.Format != "json") {
    error("--shard writes the part's results as JSON for warpcheck merge; give --format=" +
          CL.Format + " to warpcheck merge");
    return false;
  }
  std::vector<std::pair<bool, const char *>> MergeOptions = {
      {!CL.Baseline.empty(), "--baseline"},       {!CL.WriteBaseline.empty(), "--write-baseline"},
      {!CL.DiffRevision.empty(), "--diff"},       {!CL.LineFilterJson.empty(), "--line-filter"},
      {!CL.SourceRoot.empty(), "--source-root"},  {CL.Fix, "--fix"},
      {!CL.ExportFixes.empty(), "--export-fixes"}, {CL.FailPolicy != FailOn::Error, "--fail-on"},
      {CL.PrintClangArgs, "--print-clang-args"},
      {!CL.ExportCompileCommands.empty(), "--export-compile-commands"}};
  for (const auto &[Given, Name] : MergeOptions)
    if (Given) {
      error(std::string(Name) + " is an option of warpcheck merge, not of a --shard run");
      return false;
    }
  return true;
}

} // namespace warpcheck::tool
