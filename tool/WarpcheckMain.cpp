//===- WarpcheckMain.cpp - the warpcheck command line ---------------------===//
//
// warpcheck [options] <files...> [-- <compiler args>]
// warpcheck -p <build dir> [options] [files...]
//
// Each translation unit is analysed in a worker process (this executable
// started again with an argument vector, never through a shell), in
// parallel; results are merged and rendered as text, JSON, SARIF or HTML.
//
//===----------------------------------------------------------------------===//

#include "CompileCommand.h"
#include "CudaEnvironment.h"
#include "Reporters.h"
#include "TranslationUnitJob.h"

#include "warpcheck/analysis/LaunchConfig.h"
#include "warpcheck/model/Arch.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#ifndef WARPCHECK_VERSION
#define WARPCHECK_VERSION "0.1.0"
#endif
#ifndef WARPCHECK_CLANG_RESOURCE_DIR
#define WARPCHECK_CLANG_RESOURCE_DIR ""
#endif

namespace clang::tidy {
// Defined in checks/CudaTidyModule.cpp; referencing it links the module in.
extern volatile int WarpcheckCudaModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED WarpcheckCudaModuleAnchorDestination =
    WarpcheckCudaModuleAnchorSource;
} // namespace clang::tidy

using namespace warpcheck;
using namespace warpcheck::tool;

namespace {

// Exit codes (documented in --help).
constexpr int ExitOk = 0;
constexpr int ExitFindingsAsErrors = 1;
constexpr int ExitUsage = 2;
constexpr int ExitInputErrors = 3;

const char *HelpText = R"(USAGE: warpcheck [options] <source files...> [-- <compiler arguments>]
       warpcheck -p <build dir> [options] [source files...]
       warpcheck occupancy --arch=sm_90 --registers=R --block=B [...]   (see warpcheck occupancy --help)

Predicts, from CUDA source alone, how each kernel's global and shared memory
accesses behave on a real GPU (32-byte sectors per warp request, bank
conflicts) and reports the accesses that waste bandwidth.

OPTIONS:
  -p <dir>                 Build directory holding compile_commands.json. Without
                           source files, every .cu file in it is analysed.
  --checks=<globs>         Checks to run, clang-tidy glob syntax (default: cuda-*).
  --arch=<sm_XX>[,<sm_YY>...]
                           Target architecture of the hardware model (default: from
                           the compile flags, else sm_90). A list compares
                           occupancy: the first is the target, cuda-occupancy's
                           notes and the JSON's "occupancy_by_arch" add the rest.
                           Known: )";

const char *HelpText2 = R"(
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
  --default-block=<x,y,z>  Block shape for kernels with no launch site (default 256,1,1).
  --config=<check>.<Option>=<value>
                           Set a check option, e.g.
                           --config=cuda-uncoalesced-global-access.MinEfficiency=80
  --warnings-as-errors=<globs>
                           Findings of these checks are errors (exit code 1).
  --timeout=<seconds>      Time limit for one translation unit (default 600).
  --isolate                Analyse even a single file in a worker process (several
                           files always are: one crash never stops the others).
  --list-checks            List the enabled checks and exit.
  --print-clang-args       Print, one per line, the clang arguments warpcheck parses
                           the first input with (for clang-tidy's -- or ExtraArgs).
  --version                Print the version and exit.
  --help                   Print this help and exit.

Compiler arguments after -- apply to every file given on the command line;
with -p, each file's own compile command is used (nvcc flags are translated,
flags that could start a program or load a plugin are dropped).

EXIT CODES:
  0  every input was analysed (findings, if any, are warnings)
  1  a finding of a check named by --warnings-as-errors
  2  usage error: unknown option, --checks matching no check, unknown --arch,
     malformed --default-block, unreadable or malformed compile database
  3  at least one input could not be analysed (missing or unreadable file,
     parse errors, a crash or time-out of its analysis); the others were
     analysed and reported
)";

struct CommandLine {
  std::vector<std::string> Files;
  std::vector<std::string> ExtraArgs;
  bool HaveDashDash = false;
  std::string BuildDir;
  std::string Checks = "cuda-*";
  /// The model's architecture: the first of --arch's list.
  std::string Arch;
  /// The rest of --arch's list: compared with for occupancy.
  std::vector<std::string> CompareArchs;
  std::string Format = "text";
  std::string Output;
  unsigned Jobs = 0;
  std::string CudaPath;
  std::string DefaultBlock = "256,1,1";
  std::vector<std::string> CheckOptions;
  std::string WarningsAsErrors;
  unsigned TimeoutSeconds = 600;
  bool ListChecks = false, Help = false, Version = false, PrintClangArgs = false;
  bool NoCuda = false;
  /// Analyse even a single file in a worker process of its own.
  bool Isolate = false;
};

void error(const llvm::Twine &Message) {
  llvm::WithColor::error(llvm::errs(), "warpcheck") << Message << "\n";
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
    } else if ((R = Take("-p", CL.BuildDir)) || (R = Take("--checks", CL.Checks)) ||
               (R = Take("-checks", CL.Checks)) || (R = Take("--arch", CL.Arch)) ||
               (R = Take("--format", CL.Format)) || (R = Take("-o", CL.Output)) ||
               (R = Take("--cuda-path", CL.CudaPath)) ||
               (R = Take("--default-block", CL.DefaultBlock)) ||
               (R = Take("--warnings-as-errors", CL.WarningsAsErrors))) {
      if (R < 0)
        return false;
    } else if ((R = Take("--config", Value))) {
      if (R < 0)
        return false;
      if (!llvm::StringRef(Value).contains('=')) {
        error("--config needs <check>.<Option>=<value>, got '" + Value + "'");
        return false;
      }
      CL.CheckOptions.push_back(Value);
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
std::vector<std::string> allCheckNames() {
  clang::tidy::ClangTidyOptions Opts;
  Opts.Checks = "cuda-*";
  return clang::tidy::getCheckNames(Opts, false);
}

/// Every positive glob of --checks must name at least one check: a typo
/// must not silently analyse nothing.
bool validateChecks(const std::string &Checks, std::vector<std::string> &Enabled) {
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
  return true;
}

bool hasCudaExtension(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext == ".cu" || Ext == ".cuh";
}

struct Input {
  std::string File;
  std::string Directory;
  std::vector<std::string> CommandArgs; ///< compile command incl. program, or empty
};

/// The clang arguments for one input: its translated compile command, the
/// CUDA environment, one device architecture to parse for.
std::vector<std::string> clangArgumentsFor(const Input &In, const CommandLine &CL,
                                           const std::vector<std::string> &CudaArgs,
                                           std::string &ModelArch) {
  std::vector<std::string> Args;
  std::vector<std::string> RequestedArchs;
  if (!In.CommandArgs.empty()) {
    TranslatedCommand T = translateCompileCommand(In.CommandArgs);
    RequestedArchs = T.GpuArchs;
    for (const std::string &A : T.ClangArgs) {
      llvm::StringRef S = A;
      // The source file itself is added by the tool; one device
      // architecture is chosen below.
      if (S.starts_with("--cuda-gpu-arch=") || S.starts_with("--offload-arch=") ||
          S == "-fsyntax-only")
        continue;
      if (!S.starts_with("-") && (S == In.File || llvm::sys::path::filename(S) ==
                                                       llvm::sys::path::filename(In.File)))
        continue;
      Args.push_back(A);
    }
  }
  for (const std::string &A : CL.ExtraArgs) {
    llvm::StringRef S = A;
    if (S.starts_with("--cuda-gpu-arch=")) {
      RequestedArchs.push_back(S.drop_front(16).str());
      continue;
    }
    Args.push_back(A);
  }
  // The model's architecture: --arch, else the newest the build asks for.
  ModelArch = CL.Arch;
  if (ModelArch.empty()) {
    unsigned Best = 0;
    for (const std::string &A : RequestedArchs)
      if (const model::ArchSpec *S = model::findArch(A))
        if (S->ComputeMajor * 10 + S->ComputeMinor >= Best) {
          Best = S->ComputeMajor * 10 + S->ComputeMinor;
          ModelArch = S->Name;
        }
    if (ModelArch.empty())
      ModelArch = "sm_90";
  }
  // clang 19 knows GPU architectures up to sm_90a: newer ones are parsed as
  // sm_90 while the model keeps the requested one.
  std::string ParseArch = ModelArch;
  if (const model::ArchSpec *S = model::findArch(ModelArch))
    if (S->ComputeMajor * 10 + S->ComputeMinor > 90)
      ParseArch = "sm_90";
  std::vector<std::string> Final = {"-x", "cuda", "--cuda-device-only",
                                    "--cuda-gpu-arch=" + ParseArch};
  if (std::string(WARPCHECK_CLANG_RESOURCE_DIR).size() &&
      llvm::sys::fs::is_directory(WARPCHECK_CLANG_RESOURCE_DIR))
    Final.push_back(std::string("-resource-dir=") + WARPCHECK_CLANG_RESOURCE_DIR);
  Final.insert(Final.end(), CudaArgs.begin(), CudaArgs.end());
  Final.insert(Final.end(), Args.begin(), Args.end());
  return Final;
}

void mergeJobResult(llvm::json::Object &O, RunResult &Result, std::mutex &Lock,
                    bool &AnyInputError);

/// Runs the only job in this process: a process start is a sizeable part of
/// analysing one small file. A crash is caught and reported by file name; a
/// watchdog ends a run that outlives the time limit.
void runInProcess(const TranslationUnitJob &Job, unsigned TimeoutSeconds,
                  RunResult &Result, std::mutex &Lock, bool &AnyInputError) {
  std::thread([TimeoutSeconds, File = Job.File] {
    std::this_thread::sleep_for(std::chrono::seconds(TimeoutSeconds));
    llvm::errs() << "warpcheck: error: " << File << ": the analysis timed out after "
                 << TimeoutSeconds << " s\n";
    llvm::errs().flush();
    std::_Exit(ExitInputErrors);
  }).detach();
  llvm::json::Object Out;
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext CRC;
  bool Survived = CRC.RunSafely([&] { runTranslationUnitJob(Job, Out); });
  if (!Survived) {
    std::lock_guard<std::mutex> G(Lock);
    Result.Errors.push_back(llvm::json::Object{
        {"file", Job.File},
        {"message", "the analysis crashed; please report it with this file"}});
    AnyInputError = true;
    return;
  }
  mergeJobResult(Out, Result, Lock, AnyInputError);
}

/// Runs one job in a worker process and reads its JSON.
void runWorker(const std::string &Self, const TranslationUnitJob &Job,
               unsigned TimeoutSeconds, RunResult &Result, std::mutex &Lock,
               bool &AnyInputError) {
  auto Fail = [&](const std::string &Why) {
    std::lock_guard<std::mutex> G(Lock);
    Result.Errors.push_back(llvm::json::Object{{"file", Job.File}, {"message", Why}});
    AnyInputError = true;
  };
  llvm::SmallString<128> OutPath, ErrPath;
  if (llvm::sys::fs::createTemporaryFile("warpcheck", "json", OutPath) ||
      llvm::sys::fs::createTemporaryFile("warpcheck", "log", ErrPath))
    return Fail("cannot create a temporary file");
  std::vector<std::string> Args = {Self, "--worker"};
  std::vector<std::string> JobArgs = jobToArguments(Job, OutPath.str().str());
  Args.insert(Args.end(), JobArgs.begin(), JobArgs.end());
  std::vector<llvm::StringRef> Refs(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), ErrPath.str(),
                                                ErrPath.str()};
  std::string ErrMsg;
  bool ExecFailed = false;
  auto Start = std::chrono::steady_clock::now();
  int RC = llvm::sys::ExecuteAndWait(Self, Refs, std::nullopt, Redirects,
                                     TimeoutSeconds, 0, &ErrMsg, &ExecFailed);
  bool TimedOut = std::chrono::steady_clock::now() - Start >=
                  std::chrono::seconds(TimeoutSeconds);
  auto Log = llvm::MemoryBuffer::getFile(ErrPath);
  std::string LogText = Log ? (*Log)->getBuffer().trim().str() : "";
  llvm::sys::fs::remove(ErrPath);
  if (ExecFailed || RC < 0) {
    llvm::sys::fs::remove(OutPath);
    std::string Why = TimedOut ? "the analysis timed out after " +
                                     std::to_string(TimeoutSeconds) + " s"
                               : "the analysis crashed (" + ErrMsg +
                                     "); please report it with this file";
    if (!LogText.empty())
      Why += "\n" + LogText.substr(0, 2000);
    return Fail(Why);
  }
  auto Buffer = llvm::MemoryBuffer::getFile(OutPath);
  llvm::sys::fs::remove(OutPath);
  if (!Buffer)
    return Fail("the analysis produced no result" +
                (LogText.empty() ? std::string() : ": " + LogText.substr(0, 2000)));
  auto Parsed = llvm::json::parse((*Buffer)->getBuffer());
  if (!Parsed || !Parsed->getAsObject()) {
    if (!Parsed)
      llvm::consumeError(Parsed.takeError());
    return Fail("the analysis produced an unreadable result");
  }
  mergeJobResult(*Parsed->getAsObject(), Result, Lock, AnyInputError);
}

/// Adds one translation unit's kernels, findings and errors to the run.
void mergeJobResult(llvm::json::Object &O, RunResult &Result, std::mutex &Lock,
                    bool &AnyInputError) {
  std::lock_guard<std::mutex> G(Lock);
  ++Result.FilesAnalysed;
  if (llvm::json::Array *K = O.getArray("kernels"))
    for (auto &V : *K)
      Result.Kernels.push_back(std::move(V));
  if (llvm::json::Array *F = O.getArray("findings"))
    for (auto &V : *F)
      Result.Findings.push_back(std::move(V));
  if (llvm::json::Array *E = O.getArray("errors")) {
    for (auto &V : *E)
      Result.Errors.push_back(std::move(V));
    if (!E->empty())
      AnyInputError = true;
  }
}

int workerMain(llvm::ArrayRef<const char *> Argv) {
  std::vector<std::string> Args(Argv.begin() + 2, Argv.end());
  TranslationUnitJob Job;
  std::string OutPath, Err;
  if (!jobFromArguments(Args, Job, OutPath, Err)) {
    error(Err);
    return ExitUsage;
  }
  llvm::json::Object Result;
  int RC = runTranslationUnitJob(Job, Result);
  std::error_code EC;
  llvm::raw_fd_ostream OS(OutPath, EC);
  if (EC) {
    error("cannot write " + OutPath + ": " + EC.message());
    return ExitInputErrors;
  }
  OS << llvm::json::Value(std::move(Result));
  return RC;
}

} // namespace

int occupancyMain(llvm::ArrayRef<const char *> Argv);

int main(int argc, const char **argv) {
  llvm::InitLLVM X(argc, argv);
  llvm::ArrayRef<const char *> Argv(argv, argc);
  if (argc > 1 && llvm::StringRef(argv[1]) == "--worker")
    return workerMain(Argv);
  if (argc > 1 && llvm::StringRef(argv[1]) == "occupancy")
    return occupancyMain(Argv.drop_front());

  CommandLine CL;
  if (!parseCommandLine(Argv, CL))
    return ExitUsage;
  if (CL.Help) {
    llvm::outs() << HelpText;
    std::vector<std::string> Names = model::knownArchNames();
    llvm::outs() << llvm::join(Names, ", ") << HelpText2;
    return ExitOk;
  }
  if (CL.Version) {
    llvm::outs() << "warpcheck " << WARPCHECK_VERSION << " (LLVM/Clang "
                 << LLVM_VERSION_STRING << ")\n";
    return ExitOk;
  }
  std::vector<std::string> Enabled;
  if (!validateChecks(CL.Checks, Enabled))
    return ExitUsage;
  if (CL.ListChecks) {
    llvm::outs() << "Enabled checks:\n";
    for (const std::string &N : Enabled)
      llvm::outs() << "    " << N << "\n";
    return ExitOk;
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
        return ExitUsage;
      }
      if (!llvm::is_contained(List, Spec->Name))
        List.push_back(Spec->Name);
    }
    if (List.empty()) {
      error("empty --arch; known: " + llvm::join(model::knownArchNames(), ", "));
      return ExitUsage;
    }
    CL.Arch = List.front();
    CL.CompareArchs.assign(List.begin() + 1, List.end());
    // Before the user's --config, which wins.
    if (!CL.CompareArchs.empty())
      CL.CheckOptions.insert(CL.CheckOptions.begin(),
                             "cuda-occupancy.Archs=" + llvm::join(CL.CompareArchs, ","));
  }
  if (!warpcheck::analysis::parseDim3(CL.DefaultBlock)) {
    error("malformed --default-block '" + CL.DefaultBlock +
          "' (expected x[,y[,z]] with positive integers)");
    return ExitUsage;
  }
  if (!llvm::is_contained({"text", "json", "sarif", "html"}, CL.Format)) {
    error("unknown --format '" + CL.Format + "' (expected text, json, sarif or html)");
    return ExitUsage;
  }

  // Inputs and their compile commands.
  RunResult Result;
  bool AnyInputError = false;
  std::vector<Input> Inputs;
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  if (!CL.BuildDir.empty()) {
    std::string Err;
    llvm::SmallString<256> DbPath(CL.BuildDir);
    llvm::sys::path::append(DbPath, "compile_commands.json");
    if (!llvm::sys::fs::exists(DbPath)) {
      error(DbPath + ": no compile database (compile_commands.json) in '" +
            CL.BuildDir + "'");
      return ExitUsage;
    }
    auto Db = clang::tooling::JSONCompilationDatabase::loadFromFile(
        DbPath, Err, clang::tooling::JSONCommandLineSyntax::AutoDetect);
    if (!Db) {
      error(DbPath + ": malformed compile database: " + Err);
      return ExitUsage;
    }
    std::vector<std::string> Files = CL.Files;
    if (Files.empty())
      for (const std::string &F : Db->getAllFiles())
        if (hasCudaExtension(F))
          Files.push_back(F);
    if (Files.empty()) {
      error(DbPath + ": no CUDA source (.cu) in the compile database");
      return ExitInputErrors;
    }
    for (const std::string &F : Files) {
      llvm::SmallString<256> Abs(F);
      llvm::sys::fs::make_absolute(Abs);
      std::vector<clang::tooling::CompileCommand> Cmds = Db->getCompileCommands(Abs);
      if (Cmds.empty()) {
        Result.Errors.push_back(llvm::json::Object{
            {"file", F}, {"message", "no compile command for this file in " + DbPath.str().str()}});
        AnyInputError = true;
        continue;
      }
      Inputs.push_back({Cmds.front().Filename, Cmds.front().Directory,
                        Cmds.front().CommandLine});
    }
  } else {
    if (CL.Files.empty()) {
      error("no input files (see warpcheck --help)");
      return ExitUsage;
    }
    for (const std::string &F : CL.Files)
      Inputs.push_back({F, Cwd.str().str(), {}});
  }

  // The CUDA headers to parse with.
  std::string EnvDiagnostic;
  std::optional<CudaToolkit> Toolkit;
  if (!CL.NoCuda)
    Toolkit = findCudaToolkit(CL.CudaPath, EnvDiagnostic);
  if (!Toolkit && !EnvDiagnostic.empty()) {
    error(EnvDiagnostic);
    return ExitUsage;
  }
  std::vector<std::string> CudaArgs =
      cudaParseArguments(Toolkit, bundledIncludeRoot(argv[0], (void *)&main));

  // Missing or unreadable files are errors of their own; the rest go on.
  std::vector<TranslationUnitJob> Jobs;
  for (const Input &In : Inputs) {
    llvm::SmallString<256> Path(In.File);
    if (!llvm::sys::path::is_absolute(Path))
      llvm::sys::fs::make_absolute(In.Directory, Path);
    if (!llvm::sys::fs::exists(Path)) {
      Result.Errors.push_back(llvm::json::Object{
          {"file", In.File}, {"message", "no such file"}});
      AnyInputError = true;
      continue;
    }
    if (llvm::sys::fs::is_directory(Path)) {
      Result.Errors.push_back(llvm::json::Object{
          {"file", In.File}, {"message", "is a directory, not a source file"}});
      AnyInputError = true;
      continue;
    }
    if (auto Readable = llvm::MemoryBuffer::getFile(Path); !Readable) {
      Result.Errors.push_back(llvm::json::Object{
          {"file", In.File}, {"message", "cannot be read: " + Readable.getError().message()}});
      AnyInputError = true;
      continue;
    }
    TranslationUnitJob Job;
    Job.File = In.File;
    Job.Directory = In.Directory;
    Job.ClangArgs = clangArgumentsFor(In, CL, CudaArgs, Job.Arch);
    Job.Checks = CL.Checks;
    Job.WarningsAsErrors = CL.WarningsAsErrors;
    Job.DefaultBlock = CL.DefaultBlock;
    Job.CheckOptions = CL.CheckOptions;
    if (Toolkit)
      Job.ToolkitRoot = Toolkit->Root;
    Job.CompareArchs = CL.CompareArchs;
    Jobs.push_back(std::move(Job));
  }

  if (CL.PrintClangArgs) {
    if (!Jobs.empty())
      for (const std::string &A : Jobs.front().ClangArgs)
        llvm::outs() << A << "\n";
    return Jobs.empty() ? ExitInputErrors : ExitOk;
  }

  std::string Self = llvm::sys::fs::getMainExecutable(argv[0], (void *)&main);
  unsigned Parallel = CL.Jobs ? CL.Jobs : std::max(1u, std::thread::hardware_concurrency());
  std::mutex Lock;
  std::vector<std::thread> Threads;
  if (Jobs.size() == 1 && !CL.Isolate) {
    runInProcess(Jobs.front(), CL.TimeoutSeconds, Result, Lock, AnyInputError);
  } else {
    std::atomic<size_t> Next{0};
    for (unsigned T = 0; T < std::min<size_t>(Parallel, Jobs.size()); ++T)
      Threads.emplace_back([&] {
        for (size_t I = Next++; I < Jobs.size(); I = Next++)
          runWorker(Self, Jobs[I], CL.TimeoutSeconds, Result, Lock, AnyInputError);
      });
    for (auto &T : Threads)
      T.join();
  }

  // Report.
  std::unique_ptr<llvm::raw_fd_ostream> File;
  llvm::raw_ostream *OS = &llvm::outs();
  if (!CL.Output.empty() && CL.Output != "-") {
    std::error_code EC;
    File = std::make_unique<llvm::raw_fd_ostream>(CL.Output, EC);
    if (EC) {
      error("cannot write '" + CL.Output + "': " + EC.message());
      return ExitUsage;
    }
    OS = File.get();
  }
  ReportContext Context{WARPCHECK_VERSION, Cwd.str().str()};
  if (CL.Format == "json")
    renderJson(Result, *OS);
  else if (CL.Format == "sarif")
    renderSarif(Result, Context, *OS);
  else if (CL.Format == "html")
    renderHtml(Result, Context, *OS);
  else
    renderText(Result, *OS, File == nullptr && llvm::sys::Process::StandardOutHasColors());
  OS->flush();

  for (const llvm::json::Value &V : Result.Errors)
    if (const llvm::json::Object *E = V.getAsObject()) {
      std::string Where = E->getString("file").value_or("").str();
      if (auto Line = E->getInteger("line"))
        Where += ":" + std::to_string(*Line) + ":" +
                 std::to_string(E->getInteger("column").value_or(0));
      error(Where + ": " + E->getString("message").value_or("").str());
    }
  unsigned Errors = 0;
  for (const llvm::json::Value &V : Result.Findings)
    if (const llvm::json::Object *F = V.getAsObject())
      if (F->getString("severity") == "error")
        ++Errors;
  llvm::errs() << Result.Findings.size() << " finding" << (Result.Findings.size() == 1 ? "" : "s")
               << " in " << Result.FilesAnalysed << " of " << Inputs.size() << " file"
               << (Inputs.size() == 1 ? "" : "s") << " analysed ("
               << Result.Kernels.size() << " kernel launch"
               << (Result.Kernels.size() == 1 ? "" : "es") << ")\n";
  if (AnyInputError)
    return ExitInputErrors;
  if (Errors)
    return ExitFindingsAsErrors;
  return ExitOk;
}
