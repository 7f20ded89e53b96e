//===- CompileFlags.cpp - the one table of compile flags ------------------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//
//
// nvcc's options, one row each, and what each meaning becomes in the parse
// and in the nvcc run. clang's and gcc's own flags (the security denials, the
// allowlist, GCC-only flags) are in CompileFlagLists.cpp.
//
//===----------------------------------------------------------------------===//

#include "warpcheck/toolchain/CompileFlags.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"

using llvm::StringRef;

namespace warpcheck::toolchain {

namespace {

using M = FlagMeaning;
using F = FlagFate;

// What each meaning becomes. The nvcc run keeps only what decides how the
// unit's device code compiles and can be passed safely (include folders,
// forced includes, macros, the standard, the register limit); the rest of
// its command line warpcheck sets itself (NvccInvocation.cpp).
const FlagFates Fates[] = {
    {M::Unused, F::Dropped, F::Dropped,
     "a build step, an output, linking or diagnostics: nothing a parse or a register count needs"},
    {M::Unsafe, F::Dropped, F::Dropped,
     "names a program to start, or a file to read options from or to write"},
    {M::Arch, F::Translated, F::SetByWarpcheck,
     "parse: --cuda-gpu-arch; nvcc: compiled for the architecture warpcheck models"},
    {M::Code, F::Translated, F::SetByWarpcheck,
     "parse: --cuda-gpu-arch (real arches win, as in nvcc); nvcc: the modelled architecture"},
    {M::Gencode, F::Translated, F::SetByWarpcheck,
     "parse: --cuda-gpu-arch per entry; nvcc: the modelled architecture"},
    {M::Rdc, F::Translated, F::SetByWarpcheck,
     "parse: -fgpu-rdc; nvcc: -rdc=true as the build says, and retried so when device code "
     "calls other units"},
    {M::DeviceC, F::Translated, F::SetByWarpcheck,
     "parse: -fgpu-rdc; nvcc: -rdc=true as the build says, and retried so when device code "
     "calls other units"},
    {M::MaxRegCount, F::Translated, F::Translated,
     "the register limit: the lower of it and warpcheck's --maxrregcount applies"},
    {M::DefaultStream, F::Translated, F::Dropped,
     "parse: per-thread defines CUDA_API_PER_THREAD_DEFAULT_STREAM; host code only"},
    // The math flags change the device code nvcc emits, so the nvcc run
    // keeps them: llm.c's attention_forward.cu, built with --use_fast_math,
    // has the select-store of `S[..] = cond ? 0 : __expf(..)` on line 506
    // (where ncu counts its 32-way conflict on the H200); compiled without
    // it, on line 514.
    {M::FastMath, F::Translated, F::Kept,
     "parse: -fgpu-approx-transcendentals -fgpu-flush-denormals-to-zero; nvcc: kept (device code)"},
    {M::Ftz, F::Translated, F::Kept,
     "parse: -f[no-]gpu-flush-denormals-to-zero; nvcc: kept (device code)"},
    {M::Fmad, F::Translated, F::Kept, "parse: -ffp-contract=fast or off; nvcc: kept (device code)"},
    {M::PrecDiv, F::Dropped, F::Kept, "nvcc: kept (device code); the parse has no such switch"},
    {M::PrecSqrt, F::Dropped, F::Kept, "nvcc: kept (device code); the parse has no such switch"},
    {M::HostCompilerFlags, F::Translated, F::Dropped,
     "parse: each host flag by the same rules; nvcc: the host compiler only preprocesses"},
    {M::PtxasFlags, F::Translated, F::SetByWarpcheck,
     "parse: only its -maxrregcount is read (the register limit); "
     "nvcc: warpcheck's own -Xptxas -v"},
    {M::Define, F::Kept, F::Kept, "a macro"},
    {M::Undefine, F::Kept, F::Kept, "a macro"},
    {M::IncludePath, F::Kept, F::Kept, "an include folder (made absolute)"},
    {M::SystemInclude, F::Kept, F::Kept, "an include folder (made absolute)"},
    {M::PreInclude, F::Kept, F::Kept, "a forced include (made absolute)"},
    {M::Std, F::Kept, F::Kept, "the language standard"},
    {M::Language, F::Translated, F::SetByWarpcheck, "parse: -x cuda/c++/c; nvcc: always -x cu"},
    {M::Optimize, F::Translated, F::Dropped, "parse: -O<level>"},
    {M::Machine, F::Translated, F::Dropped, "parse: -m64"},
    {M::TemplateDepth, F::Translated, F::Dropped, "parse: -ftemplate-depth="},
    {M::TemplateBacktrace, F::Translated, F::Dropped, "parse: -ftemplate-backtrace-limit="},
    {M::NoExceptions, F::Translated, F::Dropped, "parse: -fno-exceptions"},
    {M::HostDebug, F::Translated, F::Dropped, "parse: -g"},
    {M::NvccWerror, F::Dropped, F::Dropped, "turns warnings into errors"},
    {M::ExtendedLambda, F::Dropped, F::SetByWarpcheck,
     "clang accepts extended lambdas by default; nvcc is always given it"},
    {M::RelaxedConstexpr, F::Dropped, F::SetByWarpcheck,
     "clang accepts constexpr calls across host and device by default; nvcc is always given it"},
    {M::AnyHostCompiler, F::Dropped, F::SetByWarpcheck,
     "no host compiler is used by the parse; nvcc's host compiler only preprocesses"},
    {M::Cubin, F::Dropped, F::SetByWarpcheck, "an output kind; nvcc always writes a cubin"},
    {M::LineInfo, F::Dropped, F::SetByWarpcheck,
     "source lines for the debugger; nvcc is always given it (the memory instructions' lines)"},
    {M::OtherOutput, F::Dropped, F::Dropped, "an output kind"},
    {M::SameInClang, F::Kept, F::Dropped, "clang spells it the same"},
};

// Every option of `nvcc --help` (CUDA 13.0), plus -Xcudafe and -Xfatbin.
// clang-compatible ones that need no special treatment in the parse (-D,
// -I, -c, -o, -MD...) are left to its generic path, except where nvcc's
// spelling differs (long names, -isystem=, separate values); the clang
// spelling column names the flags both compilers share.
// clang-format off
const CompileFlag Table[] = {
    {"cuda", "cuda", false, FlagMeaning::OtherOutput},
    {"cubin", "cubin", false, FlagMeaning::Cubin},
    {"fatbin", "fatbin", false, FlagMeaning::OtherOutput},
    {"ptx", "ptx", false, FlagMeaning::OtherOutput},
    {"optix-ir", "optix-ir", false, FlagMeaning::OtherOutput},
    {"ltoir", "ltoir", false, FlagMeaning::OtherOutput},
    {"preprocess", "E", false, FlagMeaning::OtherOutput},
    {"generate-dependencies", "M", false, FlagMeaning::OtherOutput},
    {"generate-nonsystem-dependencies", "MM", false, FlagMeaning::OtherOutput},
    {"generate-dependencies-with-compile", "MD", false, FlagMeaning::OtherOutput},
    {"generate-nonsystem-dependencies-with-compile", "MMD", false, FlagMeaning::OtherOutput},
    {"dependency-output", "MF", true, FlagMeaning::Unsafe},
    {"generate-dependency-targets", "MP", false, FlagMeaning::Unused},
    {"compile", "c", false, FlagMeaning::Unused},
    {"device-c", "dc", false, FlagMeaning::DeviceC},
    {"device-w", "dw", false, FlagMeaning::Unused},
    {"device-link", "dlink", false, FlagMeaning::Unused},
    {"link", "link", false, FlagMeaning::Unused},
    {"lib", "lib", false, FlagMeaning::Unused},
    {"run", "run", false, FlagMeaning::Unsafe},
    {"output-file", "o", true, FlagMeaning::Unsafe},
    {"pre-include", "", true, FlagMeaning::PreInclude, "-include", false},
    {"objdir-as-tempdir", "objtemp", false, FlagMeaning::Unsafe},
    {"library", "l", true, FlagMeaning::Unused},
    {"define-macro", "", true, FlagMeaning::Define, "-D", true},
    {"undefine-macro", "", true, FlagMeaning::Undefine, "-U", true},
    {"include-path", "", true, FlagMeaning::IncludePath, "-I", true},
    {"system-include", "isystem", true, FlagMeaning::SystemInclude, "-isystem", true},
    {"library-path", "L", true, FlagMeaning::Unused},
    {"output-directory", "odir", true, FlagMeaning::Unsafe},
    {"compiler-bindir", "ccbin", true, FlagMeaning::Unsafe},
    {"allow-unsupported-compiler", "allow-unsupported-compiler",
     false, FlagMeaning::AnyHostCompiler},
    {"archiver-binary", "arbin", true, FlagMeaning::Unsafe},
    {"cudart", "cudart", true, FlagMeaning::Unused},
    {"cudadevrt", "cudadevrt", true, FlagMeaning::Unused},
    {"libdevice-directory", "ldir", true, FlagMeaning::Unsafe},
    {"target-directory", "target-dir", true, FlagMeaning::Unsafe},
    {"use-local-env", "use-local-env", false, FlagMeaning::Unused},
    {"force-cl-env-setup", "force-cl-env-setup", false, FlagMeaning::Unused},
    {"profile", "pg", false, FlagMeaning::Unused},
    {"debug", "g", false, FlagMeaning::HostDebug},
    {"device-debug", "G", false, FlagMeaning::Unused},
    {"generate-line-info", "lineinfo", false, FlagMeaning::LineInfo},
    {"optimization-info", "opt-info", true, FlagMeaning::Unused},
    {"optimize", "O", true, FlagMeaning::Optimize},
    {"Ofast-compile", "Ofc", true, FlagMeaning::Unused},
    {"dopt", "dopt", true, FlagMeaning::Unused},
    {"dlink-time-opt", "dlto", false, FlagMeaning::Unused},
    {"lto", "lto", false, FlagMeaning::Unused},
    {"gen-opt-lto", "gen-opt-lto", false, FlagMeaning::Unused},
    {"ftemplate-backtrace-limit", "ftemplate-backtrace-limit",
     true, FlagMeaning::TemplateBacktrace},
    {"ftemplate-depth", "ftemplate-depth", true, FlagMeaning::TemplateDepth},
    {"no-exceptions", "noeh", false, FlagMeaning::NoExceptions},
    {"shared", "shared", false, FlagMeaning::Unused},
    {"x", "x", true, FlagMeaning::Language},
    {"std", "std", true, FlagMeaning::Std},
    {"no-host-device-initializer-list", "nohdinitlist", false, FlagMeaning::Unused},
    {"no-host-device-move-forward", "nohdmoveforward", false, FlagMeaning::Unused},
    {"expt-relaxed-constexpr", "expt-relaxed-constexpr", false, FlagMeaning::RelaxedConstexpr},
    {"extended-lambda", "extended-lambda", false, FlagMeaning::ExtendedLambda},
    {"expt-extended-lambda", "expt-extended-lambda", false, FlagMeaning::ExtendedLambda},
    {"machine", "m", true, FlagMeaning::Machine},
    {"m64", "m64", false, FlagMeaning::SameInClang},
    {"compiler-options", "Xcompiler", true, FlagMeaning::HostCompilerFlags},
    {"linker-options", "Xlinker", true, FlagMeaning::Unused},
    {"archive-options", "Xarchive", true, FlagMeaning::Unused},
    {"ptxas-options", "Xptxas", true, FlagMeaning::PtxasFlags},
    {"nvlink-options", "Xnvlink", true, FlagMeaning::Unused},
    {"", "Xcudafe", true, FlagMeaning::Unused},
    {"fatbin-options", "Xfatbin", true, FlagMeaning::Unused},
    {"static-global-template-stub", "static-global-template-stub", true, FlagMeaning::Unused},
    {"device-entity-has-hidden-visibility", "device-entity-has-hidden-visibility",
     true, FlagMeaning::Unused},
    {"forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler",
     false, FlagMeaning::Unused},
    {"forward-unknown-to-host-linker", "forward-unknown-to-host-linker",
     false, FlagMeaning::Unused},
    {"forward-unknown-opts", "forward-unknown-opts", false, FlagMeaning::Unused},
    {"dont-use-profile", "noprof", false, FlagMeaning::Unused},
    {"dryrun", "dryrun", false, FlagMeaning::Unused},
    {"verbose", "v", false, FlagMeaning::Unused},
    {"threads", "t", true, FlagMeaning::Unused},
    {"split-compile", "split-compile", true, FlagMeaning::Unused},
    {"split-compile-extended", "split-compile-extended", true, FlagMeaning::Unused},
    {"fdevice-syntax-only", "fdevice-syntax-only", false, FlagMeaning::Unused},
    {"fdevice-time-trace", "fdevice-time-trace", true, FlagMeaning::Unused},
    {"keep", "keep", false, FlagMeaning::Unsafe},
    {"keep-dir", "keep-dir", true, FlagMeaning::Unsafe},
    {"save-temps", "save-temps", false, FlagMeaning::Unsafe},
    {"clean-targets", "clean", false, FlagMeaning::Unsafe},
    {"time", "time", true, FlagMeaning::Unused},
    {"run-args", "run-args", true, FlagMeaning::Unsafe},
    {"input-drive-prefix", "idp", true, FlagMeaning::Unused},
    {"dependency-drive-prefix", "ddp", true, FlagMeaning::Unused},
    {"drive-prefix", "dp", true, FlagMeaning::Unused},
    {"dependency-target-name", "MT", true, FlagMeaning::Unused},
    {"no-align-double", "", false, FlagMeaning::Unused},
    {"no-device-link", "nodlink", false, FlagMeaning::Unused},
    {"gpu-architecture", "arch", true, FlagMeaning::Arch},
    {"gpu-code", "code", true, FlagMeaning::Code},
    {"generate-code", "gencode", true, FlagMeaning::Gencode},
    {"relocatable-device-code", "rdc", true, FlagMeaning::Rdc},
    {"entries", "e", true, FlagMeaning::Unused},
    {"maxrregcount", "maxrregcount", true, FlagMeaning::MaxRegCount},
    {"use_fast_math", "use_fast_math", false, FlagMeaning::FastMath},
    {"ftz", "ftz", true, FlagMeaning::Ftz},
    {"prec-div", "prec-div", true, FlagMeaning::PrecDiv},
    {"prec-sqrt", "prec-sqrt", true, FlagMeaning::PrecSqrt},
    {"fmad", "fmad", true, FlagMeaning::Fmad},
    {"extra-device-vectorization", "extra-device-vectorization", false, FlagMeaning::Unused},
    {"default-stream", "default-stream", true, FlagMeaning::DefaultStream},
    {"disable-warnings", "w", false, FlagMeaning::Unused},
    {"keep-device-functions", "keep-device-functions", false, FlagMeaning::Unused},
    {"source-in-ptx", "src-in-ptx", false, FlagMeaning::Unused},
    {"restrict", "restrict", false, FlagMeaning::Unused},
    {"Wreorder", "Wreorder", false, FlagMeaning::Unused},
    {"Wdefault-stream-launch", "Wdefault-stream-launch", false, FlagMeaning::Unused},
    {"Wmissing-launch-bounds", "Wmissing-launch-bounds", false, FlagMeaning::Unused},
    {"Wext-lambda-captures-this", "Wext-lambda-captures-this", false, FlagMeaning::Unused},
    {"Wno-deprecated-declarations", "Wno-deprecated-declarations", false, FlagMeaning::SameInClang},
    {"Wno-deprecated-gpu-targets", "Wno-deprecated-gpu-targets", false, FlagMeaning::Unused},
    {"Werror", "Werror", true, FlagMeaning::NvccWerror},
    {"resource-usage", "res-usage", false, FlagMeaning::Unused},
    {"extensible-whole-program", "ewp", false, FlagMeaning::Unused},
    {"no-compress", "no-compress", false, FlagMeaning::Unused},
    {"qpp-config", "qpp-config", false, FlagMeaning::Unused},
    {"compile-as-tools-patch", "astoolspatch", false, FlagMeaning::Unused},
    {"list-gpu-code", "code-ls", false, FlagMeaning::Unused},
    {"list-gpu-arch", "arch-ls", false, FlagMeaning::Unused},
    {"display-error-number", "err-no", false, FlagMeaning::Unused},
    {"no-display-error-number", "no-err-no", false, FlagMeaning::Unused},
    {"diag-error", "diag-error", true, FlagMeaning::Unused},
    {"diag-suppress", "diag-suppress", true, FlagMeaning::Unused},
    {"diag-warn", "diag-warn", true, FlagMeaning::Unused},
    {"host-linker-script", "hls", true, FlagMeaning::Unsafe},
    {"augment-host-linker-script", "aug-hls", false, FlagMeaning::Unused},
    {"relocatable-link", "r", false, FlagMeaning::Unused},
    {"brief-diagnostics", "brief-diag", true, FlagMeaning::Unused},
    {"jump-table-density", "jtd", true, FlagMeaning::Unused},
    {"relocatable-ptx", "reloc-ptx", false, FlagMeaning::Unused},
    {"device-stack-protector", "device-stack-protector", true, FlagMeaning::Unused},
    {"compress-mode", "compress-mode", true, FlagMeaning::Unused},
    {"frandom-seed", "frandom-seed", true, FlagMeaning::Unused},
    {"sanitize", "sanitize", true, FlagMeaning::Unused},
    {"jobserver", "jobserver", false, FlagMeaning::Unused},
    {"help", "h", false, FlagMeaning::Unused},
    {"version", "V", false, FlagMeaning::Unused},
    {"options-file", "optf", true, FlagMeaning::Unsafe},};
// clang-format on

/// The values nvcc's -Werror takes.
// clang-format off
constexpr StringRef NvccWerrorKinds[] = {
    "all-warnings", "cross-execution-space-call", "reorder",
    "default-stream-launch", "missing-launch-bounds",
    "ext-lambda-captures-this", "deprecated-declarations"};
// clang-format on

/// Flags only nvcc has: their presence marks an nvcc command even when the
/// compiler is not called "nvcc" (a wrapper script, a renamed binary).
// clang-format off
constexpr StringRef NvccOnlyMarkers[] = {
    "-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler",
    "-gencode", "--generate-code", "-Xcompiler", "--compiler-options", "-ccbin",
    "--compiler-bindir", "--expt-relaxed-constexpr", "--expt-extended-lambda",
    "--extended-lambda", "-Xptxas", "-Xcudafe", "--options-file", "-optf",
    "--use_fast_math", "-use_fast_math", "-maxrregcount", "--maxrregcount",
    "--gpu-architecture", "-rdc", "--relocatable-device-code",
    "--default-stream", "-lineinfo"};
// clang-format on

/// Flags the parse drops by prefix (hasDeniedPrefix) or as unknown, whose
/// value is nonetheless the next argument: pass-through flags of clang's
/// driver and cc1's own spellings, as a compile command may carry them.
// clang-format off
constexpr StringRef OtherSeparateValueFlags[] = {
    "-Xcuda-ptxas", "-Xarch_host", "-Xarch_device", "--target", "--std-lib",
    "-fplugin", "-aux-triple", "-triple", "-fprebuilt-module-path"};
// clang-format on

} // namespace

llvm::SmallVector<StringRef, 4> splitFlagList(StringRef S) {
  llvm::SmallVector<StringRef, 4> Out, Parts;
  S.split(Parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Part : Parts) {
    llvm::SmallVector<StringRef, 2> Words;
    Part.split(Words, ' ', -1, false);
    for (StringRef W : Words) {
      W = W.trim().trim("\"'");
      if (!W.empty())
        Out.push_back(W);
    }
  }
  return Out;
}

const char *flagFateName(FlagFate Fate) {
  switch (Fate) {
  case FlagFate::Kept:
    return "kept";
  case FlagFate::Translated:
    return "translated";
  case FlagFate::Dropped:
    return "dropped";
  case FlagFate::SetByWarpcheck:
    return "set by warpcheck";
  }
  return "dropped";
}

const FlagFates &fatesOf(FlagMeaning Meaning) {
  for (const FlagFates &Row : Fates)
    if (Row.Meaning == Meaning)
      return Row;
  llvm_unreachable("every meaning has a row");
}

llvm::ArrayRef<CompileFlag> compileFlagTable() { return Table; }

const CompileFlag *findNvccFlag(StringRef Name, bool LongForm) {
  for (const CompileFlag &Opt : Table)
    if ((LongForm && Opt.Long == Name) || (!LongForm && Opt.Short == Name) ||
        (!LongForm && !Opt.Long.empty() && Opt.Long == Name))
      return &Opt;
  return nullptr;
}

const CompileFlag &nvccFlag(FlagMeaning Meaning) {
  for (const CompileFlag &Opt : Table)
    if (Opt.Meaning == Meaning)
      return Opt;
  llvm_unreachable("no nvcc flag has this meaning");
}

std::string nvccSpelling(FlagMeaning Meaning) {
  return "-" + nvccFlag(Meaning).Short.str();
}

std::string nvccLongSpelling(FlagMeaning Meaning) {
  return "--" + nvccFlag(Meaning).Long.str();
}

bool takesNextAsValue(const CompileFlag &Flag, bool HasNext, StringRef Next) {
  if (!Flag.TakesValue || !HasNext)
    return false;
  if (Flag.Meaning == FlagMeaning::NvccWerror)
    return llvm::all_of(splitFlagList(Next), isNvccWerrorKind);
  if (Flag.Meaning == FlagMeaning::Optimize)
    return Next.size() == 1 && StringRef("0123sgz").contains(Next[0]);
  return true;
}

std::optional<MatchedFlag> matchCompileFlag(llvm::ArrayRef<std::string> Args, size_t I) {
  if (I >= Args.size())
    return std::nullopt;
  StringRef A = Args[I];
  if (A.size() < 2 || A[0] != '-')
    return std::nullopt;
  bool HasNext = I + 1 < Args.size();
  StringRef Next = HasNext ? StringRef(Args[I + 1]) : StringRef();
  MatchedFlag Match;
  // nvcc's spellings: --long, -short, -long, each with `=value` or the
  // value in the next argument.
  bool LongForm = A.starts_with("--");
  StringRef Body = A.drop_front(LongForm ? 2 : 1);
  auto [Name, Value] = Body.split('=');
  if (const CompileFlag *Row = findNvccFlag(Name, LongForm)) {
    Match.Flag = Row;
    if (Body.contains('=')) {
      Match.Value = Value;
      Match.HasValue = true;
    } else if (takesNextAsValue(*Row, HasNext, Next)) {
      Match.Value = Next;
      Match.HasValue = true;
      Match.ArgsUsed = 2;
    }
    return Match;
  }
  // clang's spellings of the flags both compilers share.
  for (const CompileFlag &Row : Table) {
    if (Row.ClangSpelling.empty())
      continue;
    if (A == Row.ClangSpelling) {
      Match.Flag = &Row;
      if (HasNext) {
        Match.Value = Next;
        Match.HasValue = true;
        Match.ArgsUsed = 2;
      }
      return Match;
    }
    if (Row.ClangJoined && A.size() > Row.ClangSpelling.size() &&
        A.starts_with(Row.ClangSpelling)) {
      Match.Flag = &Row;
      Match.Value = A.drop_front(Row.ClangSpelling.size());
      Match.HasValue = true;
      return Match;
    }
  }
  return std::nullopt;
}

bool isNvccWerrorKind(StringRef Kind) { return llvm::is_contained(NvccWerrorKinds, Kind); }

bool isNvccOnlyFlag(StringRef Flag) { return llvm::is_contained(NvccOnlyMarkers, Flag); }

bool takesSeparateValue(StringRef Flag) {
  if (isDeniedWithSeparateValue(Flag) || isDroppedWithSeparateValue(Flag) ||
      isKeptWithSeparateValue(Flag) || Flag == "-x" ||
      llvm::is_contained(OtherSeparateValueFlags, Flag))
    return true;
  bool LongForm = Flag.starts_with("--");
  if (!Flag.starts_with("-") || Flag.contains('='))
    return false;
  const CompileFlag *Row = findNvccFlag(Flag.drop_front(LongForm ? 2 : 1), LongForm);
  return Row && Row->TakesValue;
}

} // namespace warpcheck::toolchain
