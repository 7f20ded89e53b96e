//===- CompileCommand.cpp - nvcc/clang command lines to clang 19 args -----===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//
//
// The translation is a single left-to-right pass over the argument vector:
//
//   1. Security denials first, whatever the compiler: anything that can make
//      the driver start a program, load a plugin or module, read more
//      arguments (response/config/options files), change the directory or
//      write files is dropped together with its value.
//   2. nvcc's own options (only when the command is an nvcc command): a table
//      of every option nvcc 13's --help lists, with whether it takes a value,
//      drives what is translated (-arch, -gencode, -rdc, -Xcompiler, ...) and
//      what is dropped.
//   3. Everything else is checked against an allowlist of flags that are safe
//      and meaningful for a parse; the rest is dropped.
//
//===----------------------------------------------------------------------===//

#include "CompileCommand.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using llvm::ArrayRef;
using llvm::StringRef;

namespace warpcheck::tool {

namespace {

//===----------------------------------------------------------------------===//
// CUDA arches.
//===----------------------------------------------------------------------===//

/// The arches clang 19 accepts for --cuda-gpu-arch, oldest first.
// clang-format off
constexpr StringRef Clang19Arches[] = {
    "sm_20", "sm_21", "sm_30", "sm_32", "sm_35", "sm_37", "sm_50", "sm_52",
    "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72", "sm_75", "sm_80",
    "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a"};
// clang-format on

/// Splits "sm_90a" into 90 and "a". False when not an arch.
bool splitArch(StringRef Arch, unsigned &Number, StringRef &Suffix) {
  StringRef Rest;
  if (Arch.starts_with("sm_"))
    Rest = Arch.drop_front(3);
  else if (Arch.starts_with("compute_"))
    Rest = Arch.drop_front(8);
  else if (Arch.starts_with("lto_"))
    Rest = Arch.drop_front(4);
  else
    return false;
  size_t Digits = 0;
  while (Digits < Rest.size() && llvm::isDigit(Rest[Digits]))
    ++Digits;
  if (Digits == 0 || Rest.size() - Digits > 1)
    return false;
  // sm_90a (arch-specific), sm_120f (family-specific).
  Suffix = Rest.drop_front(Digits);
  if (!Suffix.empty() && Suffix != "a" && Suffix != "f")
    return false;
  return !Rest.take_front(Digits).getAsInteger(10, Number);
}

//===----------------------------------------------------------------------===//
// nvcc's options.
//===----------------------------------------------------------------------===//

enum class NvccAction {
  Drop,              // Not meaningful for a parse, or unsafe.
  Arch,              // -arch / --gpu-architecture
  Code,              // -code / --gpu-code
  Gencode,           // -gencode / --generate-code
  Rdc,               // -rdc / --relocatable-device-code {true|false}
  DeviceC,           // -dc: -rdc=true -c
  MaxRegCount,       // -maxrregcount
  DefaultStream,     // --default-stream {legacy|null|per-thread}
  FastMath,          // --use_fast_math
  Ftz,               // -ftz {true|false}
  Fmad,              // -fmad {true|false}
  Xcompiler,         // -Xcompiler / --compiler-options
  Xptxas,            // -Xptxas / --ptxas-options
  Define,            // --define-macro
  Undefine,          // --undefine-macro
  IncludePath,       // --include-path
  SystemInclude,     // -isystem / --system-include (nvcc allows -isystem=X)
  PreInclude,        // --pre-include
  Std,               // -std / --std
  Language,          // -x / --x
  Optimize,          // -O / --optimize (separate value)
  Machine,           // -m / --machine
  TemplateDepth,     // -ftemplate-depth N
  TemplateBacktrace, // -ftemplate-backtrace-limit N
  NoExceptions,      // -noeh / --no-exceptions
  HostDebug,         // -g / --debug
  NvccWerror,        // -Werror <kind>,...
  KeepAsIs,          // A flag clang understands the same way.
};

struct NvccOption {
  StringRef Long;  // Without the leading "--"; empty when none.
  StringRef Short; // Without the leading "-"; empty when none.
  bool TakesValue;
  NvccAction Action;
};

// Every option of `nvcc --help` (CUDA 13.0), plus -Xcudafe and -Xfatbin.
// clang-compatible ones that need no special treatment (-D, -I, -c, -o,
// -MD...) are left to the generic path, except where nvcc's spelling
// differs (long names, -isystem=, separate values).
const NvccOption NvccOptions[] = {
    {"cuda", "cuda", false, NvccAction::Drop},
    {"cubin", "cubin", false, NvccAction::Drop},
    {"fatbin", "fatbin", false, NvccAction::Drop},
    {"ptx", "ptx", false, NvccAction::Drop},
    {"optix-ir", "optix-ir", false, NvccAction::Drop},
    {"ltoir", "ltoir", false, NvccAction::Drop},
    {"preprocess", "E", false, NvccAction::Drop},
    {"generate-dependencies", "M", false, NvccAction::Drop},
    {"generate-nonsystem-dependencies", "MM", false, NvccAction::Drop},
    {"generate-dependencies-with-compile", "MD", false, NvccAction::Drop},
    {"generate-nonsystem-dependencies-with-compile", "MMD", false,
     NvccAction::Drop},
    {"dependency-output", "MF", true, NvccAction::Drop},
    {"generate-dependency-targets", "MP", false, NvccAction::Drop},
    {"compile", "c", false, NvccAction::Drop},
    {"device-c", "dc", false, NvccAction::DeviceC},
    {"device-w", "dw", false, NvccAction::Drop},
    {"device-link", "dlink", false, NvccAction::Drop},
    {"link", "link", false, NvccAction::Drop},
    {"lib", "lib", false, NvccAction::Drop},
    {"run", "run", false, NvccAction::Drop},
    {"output-file", "o", true, NvccAction::Drop},
    {"pre-include", "", true, NvccAction::PreInclude},
    {"objdir-as-tempdir", "objtemp", false, NvccAction::Drop},
    {"library", "l", true, NvccAction::Drop},
    {"define-macro", "", true, NvccAction::Define},
    {"undefine-macro", "", true, NvccAction::Undefine},
    {"include-path", "", true, NvccAction::IncludePath},
    {"system-include", "isystem", true, NvccAction::SystemInclude},
    {"library-path", "L", true, NvccAction::Drop},
    {"output-directory", "odir", true, NvccAction::Drop},
    {"compiler-bindir", "ccbin", true, NvccAction::Drop},
    {"allow-unsupported-compiler", "allow-unsupported-compiler", false,
     NvccAction::Drop},
    {"archiver-binary", "arbin", true, NvccAction::Drop},
    {"cudart", "cudart", true, NvccAction::Drop},
    {"cudadevrt", "cudadevrt", true, NvccAction::Drop},
    {"libdevice-directory", "ldir", true, NvccAction::Drop},
    {"target-directory", "target-dir", true, NvccAction::Drop},
    {"use-local-env", "use-local-env", false, NvccAction::Drop},
    {"force-cl-env-setup", "force-cl-env-setup", false, NvccAction::Drop},
    {"profile", "pg", false, NvccAction::Drop},
    {"debug", "g", false, NvccAction::HostDebug},
    {"device-debug", "G", false, NvccAction::Drop},
    {"generate-line-info", "lineinfo", false, NvccAction::Drop},
    {"optimization-info", "opt-info", true, NvccAction::Drop},
    {"optimize", "O", true, NvccAction::Optimize},
    {"Ofast-compile", "Ofc", true, NvccAction::Drop},
    {"dopt", "dopt", true, NvccAction::Drop},
    {"dlink-time-opt", "dlto", false, NvccAction::Drop},
    {"lto", "lto", false, NvccAction::Drop},
    {"gen-opt-lto", "gen-opt-lto", false, NvccAction::Drop},
    {"ftemplate-backtrace-limit", "ftemplate-backtrace-limit", true,
     NvccAction::TemplateBacktrace},
    {"ftemplate-depth", "ftemplate-depth", true, NvccAction::TemplateDepth},
    {"no-exceptions", "noeh", false, NvccAction::NoExceptions},
    {"shared", "shared", false, NvccAction::Drop},
    {"x", "x", true, NvccAction::Language},
    {"std", "std", true, NvccAction::Std},
    {"no-host-device-initializer-list", "nohdinitlist", false,
     NvccAction::Drop},
    {"no-host-device-move-forward", "nohdmoveforward", false, NvccAction::Drop},
    {"expt-relaxed-constexpr", "expt-relaxed-constexpr", false,
     NvccAction::Drop},
    {"extended-lambda", "extended-lambda", false, NvccAction::Drop},
    {"expt-extended-lambda", "expt-extended-lambda", false, NvccAction::Drop},
    {"machine", "m", true, NvccAction::Machine},
    {"m64", "m64", false, NvccAction::KeepAsIs},
    {"compiler-options", "Xcompiler", true, NvccAction::Xcompiler},
    {"linker-options", "Xlinker", true, NvccAction::Drop},
    {"archive-options", "Xarchive", true, NvccAction::Drop},
    {"ptxas-options", "Xptxas", true, NvccAction::Xptxas},
    {"nvlink-options", "Xnvlink", true, NvccAction::Drop},
    {"", "Xcudafe", true, NvccAction::Drop},
    {"fatbin-options", "Xfatbin", true, NvccAction::Drop},
    {"static-global-template-stub", "static-global-template-stub", true,
     NvccAction::Drop},
    {"device-entity-has-hidden-visibility",
     "device-entity-has-hidden-visibility", true, NvccAction::Drop},
    {"forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler",
     false, NvccAction::Drop},
    {"forward-unknown-to-host-linker", "forward-unknown-to-host-linker", false,
     NvccAction::Drop},
    {"forward-unknown-opts", "forward-unknown-opts", false, NvccAction::Drop},
    {"dont-use-profile", "noprof", false, NvccAction::Drop},
    {"dryrun", "dryrun", false, NvccAction::Drop},
    {"verbose", "v", false, NvccAction::Drop},
    {"threads", "t", true, NvccAction::Drop},
    {"split-compile", "split-compile", true, NvccAction::Drop},
    {"split-compile-extended", "split-compile-extended", true,
     NvccAction::Drop},
    {"fdevice-syntax-only", "fdevice-syntax-only", false, NvccAction::Drop},
    {"fdevice-time-trace", "fdevice-time-trace", true, NvccAction::Drop},
    {"keep", "keep", false, NvccAction::Drop},
    {"keep-dir", "keep-dir", true, NvccAction::Drop},
    {"save-temps", "save-temps", false, NvccAction::Drop},
    {"clean-targets", "clean", false, NvccAction::Drop},
    {"time", "time", true, NvccAction::Drop},
    {"run-args", "run-args", true, NvccAction::Drop},
    {"input-drive-prefix", "idp", true, NvccAction::Drop},
    {"dependency-drive-prefix", "ddp", true, NvccAction::Drop},
    {"drive-prefix", "dp", true, NvccAction::Drop},
    {"dependency-target-name", "MT", true, NvccAction::Drop},
    {"no-align-double", "", false, NvccAction::Drop},
    {"no-device-link", "nodlink", false, NvccAction::Drop},
    {"gpu-architecture", "arch", true, NvccAction::Arch},
    {"gpu-code", "code", true, NvccAction::Code},
    {"generate-code", "gencode", true, NvccAction::Gencode},
    {"relocatable-device-code", "rdc", true, NvccAction::Rdc},
    {"entries", "e", true, NvccAction::Drop},
    {"maxrregcount", "maxrregcount", true, NvccAction::MaxRegCount},
    {"use_fast_math", "use_fast_math", false, NvccAction::FastMath},
    {"ftz", "ftz", true, NvccAction::Ftz},
    {"prec-div", "prec-div", true, NvccAction::Drop},
    {"prec-sqrt", "prec-sqrt", true, NvccAction::Drop},
    {"fmad", "fmad", true, NvccAction::Fmad},
    {"extra-device-vectorization", "extra-device-vectorization", false,
     NvccAction::Drop},
    {"default-stream", "default-stream", true, NvccAction::DefaultStream},
    {"disable-warnings", "w", false, NvccAction::Drop},
    {"keep-device-functions", "keep-device-functions", false, NvccAction::Drop},
    {"source-in-ptx", "src-in-ptx", false, NvccAction::Drop},
    {"restrict", "restrict", false, NvccAction::Drop},
    {"Wreorder", "Wreorder", false, NvccAction::Drop},
    {"Wdefault-stream-launch", "Wdefault-stream-launch", false,
     NvccAction::Drop},
    {"Wmissing-launch-bounds", "Wmissing-launch-bounds", false,
     NvccAction::Drop},
    {"Wext-lambda-captures-this", "Wext-lambda-captures-this", false,
     NvccAction::Drop},
    {"Wno-deprecated-declarations", "Wno-deprecated-declarations", false,
     NvccAction::KeepAsIs},
    {"Wno-deprecated-gpu-targets", "Wno-deprecated-gpu-targets", false,
     NvccAction::Drop},
    {"Werror", "Werror", true, NvccAction::NvccWerror},
    {"resource-usage", "res-usage", false, NvccAction::Drop},
    {"extensible-whole-program", "ewp", false, NvccAction::Drop},
    {"no-compress", "no-compress", false, NvccAction::Drop},
    {"qpp-config", "qpp-config", false, NvccAction::Drop},
    {"compile-as-tools-patch", "astoolspatch", false, NvccAction::Drop},
    {"list-gpu-code", "code-ls", false, NvccAction::Drop},
    {"list-gpu-arch", "arch-ls", false, NvccAction::Drop},
    {"display-error-number", "err-no", false, NvccAction::Drop},
    {"no-display-error-number", "no-err-no", false, NvccAction::Drop},
    {"diag-error", "diag-error", true, NvccAction::Drop},
    {"diag-suppress", "diag-suppress", true, NvccAction::Drop},
    {"diag-warn", "diag-warn", true, NvccAction::Drop},
    {"host-linker-script", "hls", true, NvccAction::Drop},
    {"augment-host-linker-script", "aug-hls", false, NvccAction::Drop},
    {"relocatable-link", "r", false, NvccAction::Drop},
    {"brief-diagnostics", "brief-diag", true, NvccAction::Drop},
    {"jump-table-density", "jtd", true, NvccAction::Drop},
    {"relocatable-ptx", "reloc-ptx", false, NvccAction::Drop},
    {"device-stack-protector", "device-stack-protector", true,
     NvccAction::Drop},
    {"compress-mode", "compress-mode", true, NvccAction::Drop},
    {"frandom-seed", "frandom-seed", true, NvccAction::Drop},
    {"sanitize", "sanitize", true, NvccAction::Drop},
    {"jobserver", "jobserver", false, NvccAction::Drop},
    {"help", "h", false, NvccAction::Drop},
    {"version", "V", false, NvccAction::Drop},
    {"options-file", "optf", true, NvccAction::Drop},
};

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

//===----------------------------------------------------------------------===//
// Security: flags dropped whatever the compiler.
//===----------------------------------------------------------------------===//

/// Flags whose value is the next argument and which are dropped together with
/// it. Several can start programs, load code or read/write files.
// clang-format off
constexpr StringRef DeniedWithSeparateValue[] = {
    // Raw cc1 flags (-load, -plugin, -add-plugin ...), LLVM options (some
    // write files), other tools' flags.
    "-Xclang", "-mllvm", "-Xpreprocessor", "-Xassembler", "-Xlinker",
    "-Xanalyzer", "-Xcuda-fatbinary", "-Xopenmp-target", "-Xoffload-linker",
    "-Xflang", "-Xthinlto-distributor",
    // Plugins, precompiled ASTs built elsewhere, file remapping.
    "-load", "-plugin", "-add-plugin", "-plugin-arg", "-include-pch",
    "-ivfsoverlay", "-fmodule-file",
    // Where the driver finds programs, headers and itself.
    "-B", "--prefix", "--config", "-ccc-install-dir", "-ccc-gcc-name",
    "--gcc-toolchain", "--gcc-install-dir", "--gcc-triple", "--sysroot",
    "-isysroot", "-resource-dir", "--driver-mode", "-target", "--cuda-path",
    "--ptxas-path", "-iframework", "-cxx-isystem", "-iprefix", "-iwithprefix",
    "-iwithprefixbefore", "-iwithsysroot", "-isystem-after",
    // The working directory and files written.
    "-working-directory", "-serialize-diagnostics", "--serialize-diagnostics",
    "-dependency-file", "-dependency-dot", "-MJ", "-main-file-name",
    // nvcc: the host compiler, options files.
    "-ccbin", "--compiler-bindir", "--options-file", "-optf"};
// clang-format on

/// Other flags whose value is the next argument, dropped with it (outputs,
/// linker inputs, Darwin's -arch). For nvcc commands, nvcc's table is
/// consulted first (its -arch is the GPU architecture).
// clang-format off
constexpr StringRef DroppedWithSeparateValue[] = {
    "-o", "-MF", "-MT", "-MQ", "-arch", "-T", "-z", "-u", "-e", "-l", "-L",
    "-framework", "-Xthinlto-distributor", "-filelist", "-force_load",
    "-imultilib", "-image_base", "-init", "-install_name"};
// clang-format on

/// Prefixes of flags (joined forms included) that are always dropped.
// clang-format off
constexpr StringRef DeniedPrefixes[] = {
    // A response file: more arguments, unfiltered.
    "@",
    // Raw cc1/LLVM/tool flags, joined forms (-Xclang=..., -Wp,-load,x.so).
    "-Xclang", "-mllvm", "-Xarch_", "-Xcuda-", "-Xopenmp-target",
    "-Xoffload-linker", "-Xpreprocessor", "-Xassembler", "-Xlinker", "-Wp,",
    "-Wa,", "-Wl,",
    // Programs, configuration, toolchain and header roots.
    "--config", "-B", "--prefix", "--gcc-toolchain", "--gcc-install-dir",
    "--gcc-triple", "-ccc-", "--driver-mode", "-resource-dir", "--sysroot",
    "-isysroot", "-ivfsoverlay", "-working-directory", "--cuda-path",
    "--ptxas-path", "-no-integrated-as", "-integrated-as", "--target",
    "-target", "-ccbin", "--compiler-bindir", "--options-file", "-optf",
    // Plugins and precompiled headers.
    "-load", "-plugin", "-add-plugin", "-include-pch",
    // Files written.
    "-save-temps", "--save-temps", "-save-stats", "--save-stats",
    "-serialize-diagnostics", "--serialize-diagnostics", "-MJ"};
// clang-format on

/// -f flags that are dropped: plugins, modules and precompiled headers
/// (binary files from elsewhere), flags that write files or start programs,
/// offloading to other toolchains, profile data, and the diagnostics format.
// clang-format off
constexpr StringRef DeniedFPrefixes[] = {
    "-fplugin", "-fno-plugin", "-fpass-plugin", "-fmodule", "-fno-module",
    "-fmodules", "-fno-modules", "-fprebuilt-module", "-fimplicit-module",
    "-fno-implicit-module", "-fbuiltin-module-map", "-fpch", "-fno-pch",
    "-fcrash-diagnostics", "-ftime-trace", "-fproc-stat-report", "-fprofile",
    "-fno-profile", "-fcs-profile", "-fcoverage", "-fno-coverage",
    "-fsave-optimization-record", "-fno-save-optimization-record",
    "-foptimization-record", "-fstack-usage", "-fdriver-only",
    "-fintegrated-as", "-fno-integrated-as", "-fintegrated-cc1",
    "-fno-integrated-cc1", "-fuse-", "-fembed-offload-object",
    "-fthinlto-index", "-fopenmp-", "-foffload", "-fno-offload", "-fsycl",
    "-fno-sycl", "-fdiagnostics-format", "-fbuild-session", "-fapinotes-cache",
    "-fcxx-modules", "-fno-cxx-modules", "-fprebuilt-", "-fno-prebuilt-",
    "-fmemory-profile", "-fauto-profile", "-fno-auto-profile",
    "-fcreate-profile", "-ftime-report", "-fhip-", "-frandomize-layout-seed"};
// clang-format on

/// GCC-only -f flags clang 19's driver rejects ("unknown argument"), which
/// would make the whole parse fail. Each entry is a prefix; none is a prefix
/// of a flag clang 19 knows (checked against clang 19's Options.inc). The
/// list covers what real builds pass; TranslateOptions::IsKnownClangFlag is
/// the exact answer.
// clang-format off
constexpr StringRef GccOnlyFPrefixes[] = {
    "-fabi-version", "-fabi-compat-version", "-fno-abi-version",
    "-fno-abi-compat-version", "-fanalyzer", "-fno-analyzer", "-fconcepts",
    "-fno-concepts", "-fcontracts", "-fext-numeric-literals",
    "-fno-ext-numeric-literals", "-fgnu-unique", "-fno-gnu-unique", "-fipa-pta",
    "-fipa-icf", "-fipa-ra", "-fipa-sra", "-fipa-vrp", "-fipa-modref",
    "-fipa-cp-clone", "-fipa-bit-cp", "-fipa-profile", "-fipa-pure-const",
    "-fipa-reference", "-fipa-stack-alignment", "-fipa-strict-aliasing",
    "-fno-ipa-pta", "-fno-ipa-icf", "-fno-ipa-ra", "-fno-ipa-sra",
    "-fno-ipa-vrp", "-fno-ipa-modref", "-fno-ipa-cp-clone", "-fno-ipa-bit-cp",
    "-fno-ipa-profile", "-fno-ipa-pure-const", "-fno-ipa-reference",
    "-fvar-tracking", "-fno-var-tracking-", "-fkeep-inline-dllexport",
    "-fno-keep-inline-dllexport", "-fmax-include-depth", "-fimplicit-constexpr",
    "-fno-implicit-constexpr", "-fconstexpr-loop-limit",
    "-fconstexpr-ops-limit", "-fconstexpr-cache-depth", "-fconstexpr-fp-except",
    "-fnew-ttp-matching", "-fno-new-ttp-matching", "-fnew-inheriting-ctors",
    "-fno-new-inheriting-ctors", "-fstrong-eval-order",
    "-fno-strong-eval-order", "-fenforce-eh-specs", "-fno-enforce-eh-specs",
    "-fextern-tls-init", "-fno-extern-tls-init", "-fnothrow-opt",
    "-fno-nothrow-opt", "-fpretty-templates", "-fno-pretty-templates",
    "-fimplicit-inline-templates", "-fno-implicit-inline-templates",
    "-fconserve-stack", "-fno-conserve-stack", "-fcanonical-system-headers",
    "-fno-canonical-system-headers", "-ftrack-macro-expansion",
    "-fno-track-macro-expansion", "-flifetime-dse", "-fno-lifetime-dse",
    "-fdelete-dead-exceptions", "-fno-delete-dead-exceptions",
    "-fprintf-return-value", "-fno-printf-return-value", "-fstack-reuse",
    "-fstack-check=", "-fopt-info", "-fno-opt-info", "-flto-partition",
    "-flto-compression-level", "-flto-odr-type-merging",
    "-fno-lto-odr-type-merging", "-flto-report", "-fcompare-debug",
    "-fno-compare-debug", "-ftree-loop-", "-fno-tree-loop-", "-ftree-pre",
    "-fno-tree-pre", "-ftree-pta", "-fno-tree-pta", "-ftree-sra",
    "-fno-tree-sra", "-ftree-parallelize-loops", "-floop-", "-fno-loop-",
    "-fgraphite", "-fno-graphite", "-fsplit-paths", "-fno-split-paths",
    "-fsplit-loops", "-fno-split-loops", "-fsplit-wide-types",
    "-fno-split-wide-types", "-fsplit-ivs-in-unroller", "-fharden-",
    "-fno-harden-", "-fcallgraph-info", "-fno-callgraph-info",
    "-fdiagnostics-show-caret", "-fno-diagnostics-show-caret",
    "-fdiagnostics-show-labels", "-fno-diagnostics-show-labels",
    "-fdiagnostics-urls", "-fno-diagnostics-urls", "-fdiagnostics-plain-output",
    "-fno-diagnostics-plain-output", "-fdiagnostics-column-",
    "-fno-diagnostics-column-", "-fdiagnostics-path-format",
    "-fno-diagnostics-path-format", "-fdiagnostics-escape-format",
    "-fdiagnostics-show-cwe", "-fno-diagnostics-show-cwe",
    "-fdiagnostics-minimum-margin-width", "-fdiagnostics-generate-patch",
    "-fdiagnostics-show-path-depths", "-finline-limit-", "-fno-inline-limit=",
    "-fno-inline-limit-", "-finline-atomics", "-fno-inline-atomics",
    "-fvtable-verify", "-fno-vtable-verify", "-fvtv-", "-fno-vtv-",
    "-fsched-pressure", "-fno-sched-pressure", "-fschedule-fusion",
    "-fno-schedule-fusion", "-fno-stack-protector-all",
    "-fno-stack-protector-strong", "-fno-stack-protector-explicit",
    "-fstack-protector-explicit", "-fno-cf-protection", "-fno-trapv",
    "-fno-instrument-functions", "-finstrument-functions-exclude-",
    "-fallow-store-data-races",
    "-fno-allow-store-data-races", "-faggressive-loop-optimizations",
    "-fno-aggressive-loop-optimizations", "-fno-max-errors",
    "-fno-message-length", "-fno-tabstop", "-fno-diagnostics-color=",
    "-fno-template-depth", "-fno-template-backtrace-limit",
    "-fno-constexpr-depth", "-fno-debug-prefix-map", "-fno-macro-prefix-map",
    "-fno-file-prefix-map", "-fno-visibility=", "-fno-tls-model=",
    "-fno-exec-charset", "-fno-input-charset", "-fno-hosted",
    "-fno-freestanding", "-fno-signed-bitfields", "-fno-unsigned-bitfields",
    "-fno-pcc-struct-return", "-fno-reg-struct-return", "-fno-pack-struct=",
    "-fno-excess-precision", "-fno-fp-contract", "-fno-lto=",
    "-fno-random-seed", "-fno-syntax-only", "-fno-time-report",
    "-fno-stack-usage", "-fno-stats", "-fno-zero-call-used-regs",
    "-fno-trivial-auto-var-init", "-fno-patchable-function-entry",
    "-fno-use-ld", "-fno-sanitize-sections", "-fsanitize-sections",
    "-fno-align-functions=", "-fno-align-jumps=", "-fno-align-labels=",
    "-fno-align-loops=", "-fno-aligned-new=", "-fno-openacc", "-fmudflapir",
    "-fno-mudflap", "-fcilkplus", "-fno-cilkplus", "-fpre-include",
    "-fno-pre-include", "-fself-test", "-fdbg-cnt", "-fno-dbg-cnt",
    "-fdump-tree-", "-fdump-rtl-", "-fdump-ipa-", "-fdump-lang-",
    "-fdump-passes", "-fdump-statistics", "-fdump-noaddr", "-fdump-unnumbered",
    "-fdump-final-insns", "-fdump-analyzer", "-fmodule-mapper", "-fmodule-only",
    "-fmodule-lazy", "-fmodule-implicit-inline", "-fmodule-version-ignore",
    "-fmem-report", "-fno-mem-report", "-fstats", "-ftime-report-details",
    "-fno-time-report-details", "-fchecking", "-fno-checking",
    "-fcode-hoisting", "-fno-code-hoisting", "-fdevirtualize-at-ltrans",
    "-fno-devirtualize-at-ltrans", "-fgcse-lm", "-fno-gcse-lm",
    "-fpartial-inlining", "-fno-partial-inlining", "-fpeephole",
    "-fno-peephole", "-fpredictive-commoning", "-fno-predictive-commoning",
    "-fshrink-wrap", "-fno-shrink-wrap", "-fssa-", "-fno-ssa-",
    "-fstore-merging", "-fno-store-merging", "-fthread-jumps",
    "-fno-thread-jumps", "-fcprop-registers", "-fno-cprop-registers",
    "-fcrossjumping", "-fno-crossjumping", "-fcse-follow-jumps",
    "-fno-cse-follow-jumps", "-fcse-skip-blocks", "-fno-cse-skip-blocks",
    "-fforward-propagate", "-fno-forward-propagate", "-fif-conversion",
    "-fno-if-conversion", "-fguess-branch-probability",
    "-fno-guess-branch-probability", "-fhoist-adjacent-loads",
    "-fno-hoist-adjacent-loads", "-findirect-inlining",
    "-fno-indirect-inlining", "-fearly-inlining", "-fno-early-inlining",
    "-fmove-loop-", "-fno-move-loop-", "-foptimize-strlen",
    "-fno-optimize-strlen", "-freorder-blocks-", "-fno-reorder-blocks-",
    "-freorder-functions", "-fno-reorder-functions", "-frerun-", "-fno-rerun-",
    "-fsection-anchors", "-fno-section-anchors", "-fversion-loops-for-strides",
    "-fno-version-loops-for-strides", "-fbit-tests", "-fno-bit-tests",
    "-fallocation-dce", "-fno-allocation-dce", "-fauto-inc-dec",
    "-fno-auto-inc-dec", "-fcombine-stack-adjustments",
    "-fno-combine-stack-adjustments", "-fisolate-erroneous-paths",
    "-fno-isolate-erroneous-paths", "-flra-remat", "-fno-lra-remat",
    "-flive-range-shrinkage", "-fno-live-range-shrinkage", "-fsimd-cost-model",
    "-fno-simd-cost-model", "-fstdarg-opt", "-fno-stdarg-opt",
    "-ftoplevel-reorder", "-fno-toplevel-reorder", "-fno-vpt",
    "-fsync-libcalls", "-fno-sync-libcalls", "-ffp-int-builtin-inexact",
    "-fno-fp-int-builtin-inexact", "-ffold-simple-inlines",
    "-fno-fold-simple-inlines", "-fmerge-debug-strings",
    "-fno-merge-debug-strings", "-fgnu-tm", "-fno-gnu-tm", "-fcond-mismatch",
    "-fno-cond-mismatch", "-fdeclone-ctor-dtor", "-fno-declone-ctor-dtor",
    "-felide-type", "-femit-struct-debug-", "-fno-emit-struct-debug-",
    "-femit-class-debug-always", "-fno-emit-class-debug-always",
    "-ffunction-cse", "-fno-function-cse", "-fleading-underscore",
    "-fno-leading-underscore", "-fuse-cxa-get-exception-ptr",
    "-fno-use-cxa-get-exception-ptr", "-fwrapv-pointer", "-fno-wrapv-pointer",
    "-ftrampolines", "-fno-trampolines", "-fstrict-volatile-bitfields",
    "-fno-strict-volatile-bitfields", "-fsso-struct", "-fno-sso-struct",
    "-fno-nonansi-builtins", "-fnonansi-builtins", "-fpreprocessed",
    "-fno-preprocessed", "-fdebug-cpp", "-fno-debug-cpp", "-fworking-directory",
    "-flarge-source-files", "-fno-large-source-files", "-fplan9-extensions",
    "-fno-plan9-extensions", "-fpermitted-flt-eval-methods",
    "-fno-permitted-flt-eval-methods", "-flive-patching", "-fno-live-patching",
    "-foffload-abi", "-foffload-options", "-fopenacc-dim", "-freport-bug",
    "-fno-report-bug", "-fno-ree", "-fzee", "-fno-zee", "-frepo", "-fno-repo"};
// clang-format on

/// GCC-only spellings that are exactly these (clang knows longer ones:
/// -frandom-seed=N).
constexpr StringRef GccOnlyFExact[] = {"-frandom-seed", "-free"};

/// -W flags dropped: they only turn warnings into errors (a user's -Werror
/// would make warpcheck's parse fail on a warning).
constexpr StringRef DeniedWPrefixes[] = {"-Werror", "-pedantic-errors"};

/// Flags with a separate value that are kept (with their value).
constexpr StringRef KeptWithSeparateValue[] = {
    "-I",       "-isystem", "-iquote", "-idirafter",
    "-include", "-imacros", "-D",      "-U"};

/// Joined forms kept: -Ifoo, -DX=1, ...
constexpr StringRef KeptJoinedPrefixes[] = {
    "-isystem", "-iquote", "-idirafter", "-include",
    "-imacros", "-I",      "-D",         "-U"};

/// Flags kept exactly.
constexpr StringRef KeptExact[] = {"-m64", "-pthread", "-pedantic", "-ansi",
                                   "-fsyntax-only"};

/// File name extensions of inputs that are kept; other positional arguments
/// (objects, libraries, stray values) are dropped.
// clang-format off
constexpr StringRef SourceExtensions[] = {
    ".cu", ".cuh", ".cpp", ".cxx", ".cc", ".c", ".C", ".c++", ".cp", ".CPP",
    ".h", ".hh", ".hpp", ".hxx", ".inl", ".ipp", ".tpp", ".tcc", ".cuinc"};
// clang-format on

template <size_t N> bool isOneOf(StringRef S, const StringRef (&List)[N]) {
  return llvm::is_contained(List, S);
}

template <size_t N>
bool startsWithOneOf(StringRef S, const StringRef (&List)[N]) {
  return llvm::any_of(List, [&](StringRef P) { return S.starts_with(P); });
}

bool isLauncher(StringRef Program) {
  StringRef Name = llvm::sys::path::filename(Program);
  Name.consume_back(".exe");
  return Name == "ccache" || Name == "sccache" || Name == "distcc" ||
         Name == "icecc" || Name == "buildcache";
}

bool isNvccName(StringRef Program) {
  StringRef Name = llvm::sys::path::filename(Program);
  Name.consume_back(".exe");
  return Name.starts_with("nvcc");
}

bool isSourceFile(StringRef Arg) {
  StringRef Ext = llvm::sys::path::extension(Arg);
  return isOneOf(Ext, SourceExtensions);
}

std::optional<bool> parseBool(StringRef V) {
  V = V.trim();
  if (V.equals_insensitive("true") || V == "1")
    return true;
  if (V.equals_insensitive("false") || V == "0")
    return false;
  return std::nullopt;
}

/// Splits a list at commas that are not inside brackets or quotes, dropping
/// the brackets and quotes: `arch=compute_80,code=[compute_80,sm_80]` gives
/// `arch=compute_80` and `code=compute_80,sm_80`.
llvm::SmallVector<std::string, 4> splitTopLevel(StringRef S) {
  llvm::SmallVector<std::string, 4> Out;
  std::string Cur;
  int Depth = 0;
  char Quote = 0;
  for (char C : S) {
    if (Quote) {
      if (C == Quote)
        Quote = 0;
      else
        Cur += C;
      continue;
    }
    if (C == '"' || C == '\'') {
      Quote = C;
      continue;
    }
    if (C == '[' || C == '{') {
      ++Depth;
      continue;
    }
    if (C == ']' || C == '}') {
      Depth = Depth > 0 ? Depth - 1 : 0;
      continue;
    }
    if (C == ',' && Depth == 0 && !Quote) {
      Out.push_back(Cur);
      Cur.clear();
      continue;
    }
    Cur += C;
  }
  Out.push_back(Cur);
  return Out;
}

/// Splits a comma (and blank) separated list: nvcc's option values.
llvm::SmallVector<std::string, 4> splitList(StringRef S) {
  llvm::SmallVector<std::string, 4> Out;
  llvm::SmallVector<StringRef, 4> Parts;
  S.split(Parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Part : Parts) {
    llvm::SmallVector<StringRef, 2> Words;
    Part.split(Words, ' ', -1, false);
    for (StringRef W : Words) {
      W = W.trim().trim("\"'");
      if (!W.empty())
        Out.push_back(W.str());
    }
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// The translator.
//===----------------------------------------------------------------------===//

class Translator {
public:
  Translator(const TranslateOptions &Options) : Options(Options) {}

  TranslatedCommand run(ArrayRef<std::string> Args);

private:
  /// Translates Args[I] (and its value), returns the index after it.
  size_t translateOne(ArrayRef<std::string> Args, size_t I, bool Nvcc);
  /// nvcc-only handling; false when Args[I] is not an nvcc option.
  bool translateNvcc(ArrayRef<std::string> Args, size_t &I);
  void applyNvcc(const NvccOption &Opt, StringRef Spelling, StringRef Value,
                 bool HasValue);
  /// Host compiler flags from -Xcompiler (one mini command line).
  void translateHostFlags(ArrayRef<std::string> Pieces);
  void ptxasPieces(StringRef Value);
  void gencode(StringRef Spec, StringRef Spelling);
  void addArchs(StringRef List, std::vector<std::string> &To,
                StringRef Spelling);
  bool keepsFlag(StringRef Flag);
  void drop(StringRef Flag, StringRef Value = StringRef()) {
    Result.Dropped.push_back(Value.empty() ? Flag.str()
                                           : (Flag + " " + Value).str());
  }
  void emit(StringRef S) { Result.ClangArgs.push_back(S.str()); }

  const TranslateOptions &Options;
  TranslatedCommand Result;
  std::vector<std::string> ArchValues, CodeValues, GencodeArchs, ClangArchs;
  bool PendingPtxasMaxReg = false;
  bool EndOfOptions = false;
  bool InHostFlags = false;
};

TranslatedCommand Translator::run(ArrayRef<std::string> Args) {
  // The compiler, behind any launchers, is never used: warpcheck parses with
  // its own clang.
  size_t First = 0;
  while (First < Args.size() && isLauncher(Args[First]))
    ++First;
  bool Nvcc = First < Args.size() && isNvccName(Args[First]);
  for (size_t I = First + 1; I < Args.size() && !Nvcc; ++I) {
    StringRef A = Args[I];
    // The value of a pass-through flag (-Xcuda-ptxas --maxrregcount=N) is
    // not a flag of the command's.
    if (isOneOf(A, DeniedWithSeparateValue) || A.starts_with("-Xcuda-") ||
        A.starts_with("-Xarch_")) {
      ++I;
      continue;
    }
    Nvcc = isOneOf(A.split('=').first, NvccOnlyMarkers);
  }

  for (size_t I = First + 1; I < Args.size();)
    I = translateOne(Args, I, Nvcc);

  // Last line of defence: clang's driver reads any argument that starts with
  // '@' as a response file (more arguments, unfiltered), even a flag's
  // value. Remove such values together with their flag.
  std::vector<std::string> Clean;
  for (std::string &Arg : Result.ClangArgs) {
    if (!StringRef(Arg).starts_with("@")) {
      Clean.push_back(std::move(Arg));
      continue;
    }
    if (!Clean.empty() &&
        (isOneOf(StringRef(Clean.back()), KeptWithSeparateValue) ||
         Clean.back() == "-x")) {
      drop(Clean.back(), Arg);
      Clean.pop_back();
    } else {
      drop(Arg);
    }
  }
  Result.ClangArgs = std::move(Clean);

  // GPU arches: -gencode entries, then -arch/-code (with -code, its real
  // arches win, as in nvcc), then clang's --cuda-gpu-arch/--offload-arch.
  std::vector<std::string> Requested = GencodeArchs;
  if (!CodeValues.empty()) {
    bool AnyReal = llvm::any_of(CodeValues, [](const std::string &C) {
      return StringRef(C).starts_with("sm_");
    });
    for (const std::string &C : CodeValues)
      if (!AnyReal || StringRef(C).starts_with("sm_"))
        Requested.push_back(C);
  } else {
    llvm::append_range(Requested, ArchValues);
  }
  llvm::append_range(Requested, ClangArchs);
  llvm::StringSet<> Seen, SeenParse;
  for (const std::string &A : Requested) {
    std::string Norm = normalizeCudaArch(A);
    if (!Norm.empty() && Seen.insert(Norm).second)
      Result.GpuArchs.push_back(Norm);
  }
  for (const std::string &A : Result.GpuArchs) {
    std::string Parse = clangParseArchFor(A);
    if (!Parse.empty() && SeenParse.insert(Parse).second)
      emit("--cuda-gpu-arch=" + Parse);
  }
  if (PendingPtxasMaxReg)
    drop("-Xptxas --maxrregcount (no value)");
  // Kept GCC-only -W flags and flags a -fsyntax-only run does not use
  // (-fPIC, device-only flags on the host side) would otherwise each warn.
  emit("-Wno-unknown-warning-option");
  emit("-Qunused-arguments");
  return std::move(Result);
}

size_t Translator::translateOne(ArrayRef<std::string> Args, size_t I,
                                bool Nvcc) {
  StringRef A = Args[I];
  auto Next = [&]() -> std::optional<StringRef> {
    if (I + 1 < Args.size())
      return StringRef(Args[I + 1]);
    return std::nullopt;
  };

  // Positional arguments: keep source files only. Response files (@file),
  // stdin (-), objects, libraries and stray values are dropped.
  if (EndOfOptions || A.size() < 2 || A[0] != '-') {
    if (A.empty() || A[0] == '-' || A[0] == '@' || InHostFlags ||
        !isSourceFile(A))
      drop(A);
    else
      emit(A);
    return I + 1;
  }
  if (A == "--") {
    EndOfOptions = true;
    drop(A);
    return I + 1;
  }

  // 1. Security denials.
  if (isOneOf(A, DeniedWithSeparateValue)) {
    std::optional<StringRef> V = Next();
    drop(A, V.value_or(""));
    if (A == "-Xcuda-ptxas" && V)
      ptxasPieces(*V);
    return V ? I + 2 : I + 1;
  }
  if (A.starts_with("@") || startsWithOneOf(A, DeniedPrefixes)) {
    // -Xcuda-ptxas/-Xarch_device/-Xopenmp-target=<triple> etc. carry a value
    // in the next argument.
    bool SeparateValue =
        A.starts_with("-Xarch_") || A.starts_with("-Xopenmp-target") ||
        A.starts_with("-Xcuda-") || A.starts_with("-Xoffload-linker");
    if (A.starts_with("-Xarch_") && A.contains('='))
      SeparateValue = false;
    if (SeparateValue && Next()) {
      if (A.starts_with("-Xcuda-ptxas"))
        ptxasPieces(*Next());
      drop(A, *Next());
      return I + 2;
    }
    drop(A);
    return I + 1;
  }

  // 2. nvcc's own options.
  if (Nvcc) {
    size_t J = I;
    if (translateNvcc(Args, J))
      return J;
  }

  // 3. Everything else: clang/gcc flags.
  if (isOneOf(A, DroppedWithSeparateValue)) {
    std::optional<StringRef> V = Next();
    drop(A, V.value_or(""));
    return V ? I + 2 : I + 1;
  }
  // Kept flag/value pairs.
  if (isOneOf(A, KeptWithSeparateValue)) {
    std::optional<StringRef> V = Next();
    if (!V) {
      drop(A);
      return I + 1;
    }
    // clang's driver reads any argument that starts with '@' as a response
    // file, even a flag's value.
    if (V->starts_with("@")) {
      drop(A, *V);
      return I + 2;
    }
    emit(A);
    emit(*V);
    return I + 2;
  }
  if (A == "-x" || A.starts_with("-x")) {
    StringRef Lang;
    size_t Used = 1;
    if (A == "-x") {
      if (!Next()) {
        drop(A);
        return I + 1;
      }
      Lang = *Next();
      Used = 2;
    } else {
      Lang = A.drop_front(2);
    }
    StringRef Mapped = llvm::StringSwitch<StringRef>(Lang)
                           .Cases("cu", "cuda", "cuda")
                           .Case("c++", "c++")
                           .Case("c", "c")
                           .Case("c++-header", "c++-header")
                           .Case("c-header", "c-header")
                           .Default("");
    if (Mapped.empty()) {
      drop("-x", Lang);
    } else {
      emit("-x");
      emit(Mapped);
    }
    return I + Used;
  }
  if (A == "-std" || A == "--std") { // nvcc and clang's --std take a value.
    std::optional<StringRef> V = Next();
    if (!V) {
      drop(A);
      return I + 1;
    }
    emit(("-std=" + *V).str());
    return I + 2;
  }
  if (A.starts_with("--std=")) {
    emit(("-std=" + A.drop_front(6)).str());
    return I + 1;
  }
  if (A.starts_with("-std=")) {
    emit(A);
    return I + 1;
  }
  if (A.starts_with("--cuda-gpu-arch=") || A.starts_with("--offload-arch=")) {
    addArchs(A.split('=').second, ClangArchs, A);
    return I + 1;
  }
  if (A.starts_with("-isystem=") && Nvcc) {
    emit("-isystem");
    emit(A.drop_front(9));
    return I + 1;
  }
  if (startsWithOneOf(A, KeptJoinedPrefixes) && !A.starts_with("-include-")) {
    emit(A);
    return I + 1;
  }
  if (isOneOf(A, KeptExact)) {
    emit(A);
    return I + 1;
  }
  if (A.starts_with("-O")) {
    StringRef Level = A.drop_front(2);
    if (Level == "fast") { // Deprecated in clang 19; same meaning.
      emit("-O3");
      emit("-ffast-math");
    } else if (Level.empty() || Level == "0" || Level == "1" || Level == "2" ||
               Level == "3" || Level == "4" || Level == "s" || Level == "z" ||
               Level == "g") {
      emit(A);
    } else {
      drop(A);
    }
    return I + 1;
  }
  if (A.starts_with("-W")) {
    if (startsWithOneOf(A, DeniedWPrefixes))
      drop(A);
    else
      emit(A);
    return I + 1;
  }
  if (A.starts_with("-f")) {
    if (startsWithOneOf(A, DeniedFPrefixes) ||
        startsWithOneOf(A, GccOnlyFPrefixes) || isOneOf(A, GccOnlyFExact) ||
        !keepsFlag(A))
      drop(A);
    else
      emit(A);
    return I + 1;
  }
  if (A.starts_with("-g") && !A.starts_with("-gen") && !A.starts_with("-gpu")) {
    if (keepsFlag(A))
      emit(A);
    else
      drop(A);
    return I + 1;
  }
  drop(A);
  return I + 1;
}

bool Translator::keepsFlag(StringRef Flag) {
  return !Options.IsKnownClangFlag || Options.IsKnownClangFlag(Flag);
}

bool Translator::translateNvcc(ArrayRef<std::string> Args, size_t &I) {
  StringRef A = Args[I];
  StringRef Name, Value;
  bool HasValue = false;
  bool Long = A.starts_with("--");
  StringRef Body = A.drop_front(Long ? 2 : 1);
  std::tie(Name, Value) = Body.split('=');
  HasValue = Body.contains('=');

  const NvccOption *Found = nullptr;
  for (const NvccOption &Opt : NvccOptions) {
    if ((Long && Opt.Long == Name) || (!Long && Opt.Short == Name) ||
        (!Long && !Opt.Long.empty() && Opt.Long == Name)) {
      Found = &Opt;
      break;
    }
  }
  if (!Found)
    return false;
  // Some nvcc names are also clang flags with a different shape; those that
  // clang spells the same (-c, -E, -M*, -o, -g, -x, -std, -m64) fall here too
  // and are handled as nvcc does.
  if (!Found->TakesValue) {
    if (HasValue) { // e.g. -lineinfo=1: not an nvcc form.
      drop(A);
      ++I;
      return true;
    }
    applyNvcc(*Found, A, StringRef(), false);
    ++I;
    return true;
  }
  // Value-taking: `-opt=value`, `--opt=value`, or the next argument.
  if (!HasValue) {
    bool HasNext = I + 1 < Args.size();
    StringRef NextArg = HasNext ? StringRef(Args[I + 1]) : StringRef();
    if (Found->Action == NvccAction::NvccWerror &&
        (!HasNext ||
         !llvm::all_of(splitList(NextArg), [](const std::string &K) {
           return isOneOf(StringRef(K), NvccWerrorKinds);
         }))) {
      drop(A); // A host-compiler -Werror forwarded as is.
      ++I;
      return true;
    }
    if (Found->Action == NvccAction::Optimize &&
        (!HasNext || NextArg.size() != 1 ||
         !StringRef("0123sgz").contains(NextArg[0]))) {
      emit("-O"); // clang's bare -O.
      ++I;
      return true;
    }
    if (!HasNext) {
      drop(A);
      ++I;
      return true;
    }
    applyNvcc(*Found, A, NextArg, true);
    I += 2;
    return true;
  }
  applyNvcc(*Found, A, Value, true);
  ++I;
  return true;
}

void Translator::applyNvcc(const NvccOption &Opt, StringRef Spelling,
                           StringRef Value, bool HasValue) {
  auto DropIt = [&] { drop(Spelling, Spelling.contains('=') ? "" : Value); };
  switch (Opt.Action) {
  case NvccAction::Drop:
    DropIt();
    return;
  case NvccAction::KeepAsIs:
    emit(("-" + Opt.Short).str());
    return;
  case NvccAction::Arch:
    addArchs(Value, ArchValues, Spelling);
    return;
  case NvccAction::Code:
    addArchs(Value, CodeValues, Spelling);
    return;
  case NvccAction::Gencode:
    gencode(Value, Spelling);
    return;
  case NvccAction::Rdc:
    if (std::optional<bool> B = parseBool(Value)) {
      emit(*B ? "-fgpu-rdc" : "-fno-gpu-rdc");
      return;
    }
    DropIt();
    return;
  case NvccAction::DeviceC:
    emit("-fgpu-rdc");
    return;
  case NvccAction::MaxRegCount: {
    unsigned N = 0;
    if (!Value.trim().getAsInteger(10, N) && N > 0) {
      Result.MaxRegCount = N;
      return;
    }
    DropIt();
    return;
  }
  case NvccAction::DefaultStream:
    // nvcc defines this macro for per-thread (checked with nvcc --dryrun).
    if (Value == "per-thread") {
      emit("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
      return;
    }
    DropIt(); // legacy/null: nvcc's default, nothing to tell clang.
    return;
  case NvccAction::FastMath:
    emit("-fgpu-approx-transcendentals");
    emit("-fgpu-flush-denormals-to-zero");
    return;
  case NvccAction::Ftz:
    if (std::optional<bool> B = parseBool(Value)) {
      emit(*B ? "-fgpu-flush-denormals-to-zero"
              : "-fno-gpu-flush-denormals-to-zero");
      return;
    }
    DropIt();
    return;
  case NvccAction::Fmad:
    if (std::optional<bool> B = parseBool(Value)) {
      emit(*B ? "-ffp-contract=fast" : "-ffp-contract=off");
      return;
    }
    DropIt();
    return;
  case NvccAction::Xcompiler: {
    llvm::SmallVector<std::string, 4> Pieces = splitList(Value);
    translateHostFlags(Pieces);
    return;
  }
  case NvccAction::Xptxas:
    ptxasPieces(Value);
    drop(Spelling, Spelling.contains('=') ? "" : Value);
    return;
  case NvccAction::Define:
  case NvccAction::Undefine:
    if (Value.empty()) {
      DropIt();
      return;
    }
    emit(Opt.Action == NvccAction::Define ? "-D" : "-U");
    emit(Value);
    return;
  case NvccAction::IncludePath:
  case NvccAction::SystemInclude:
  case NvccAction::PreInclude:
    if (Value.empty()) {
      DropIt();
      return;
    }
    for (const std::string &Path : splitTopLevel(Value)) {
      if (Path.empty())
        continue;
      emit(Opt.Action == NvccAction::IncludePath     ? "-I"
           : Opt.Action == NvccAction::SystemInclude ? "-isystem"
                                                     : "-include");
      emit(Path);
    }
    return;
  case NvccAction::Std:
    emit(("-std=" + Value).str());
    return;
  case NvccAction::Language: {
    StringRef Mapped = llvm::StringSwitch<StringRef>(Value)
                           .Cases("cu", "cuda", "cuda")
                           .Case("c++", "c++")
                           .Case("c", "c")
                           .Default("");
    if (Mapped.empty()) {
      DropIt();
      return;
    }
    emit("-x");
    emit(Mapped);
    return;
  }
  case NvccAction::Optimize:
    if (Value.size() == 1 && StringRef("0123sgz").contains(Value[0])) {
      emit(("-O" + Value).str());
      return;
    }
    DropIt();
    return;
  case NvccAction::Machine:
    if (Value == "64") {
      emit("-m64");
      return;
    }
    DropIt();
    return;
  case NvccAction::TemplateDepth:
  case NvccAction::TemplateBacktrace: {
    unsigned N = 0;
    if (Value.trim().getAsInteger(10, N)) {
      DropIt();
      return;
    }
    emit((Opt.Action == NvccAction::TemplateDepth
              ? "-ftemplate-depth="
              : "-ftemplate-backtrace-limit=") +
         std::to_string(N));
    return;
  }
  case NvccAction::NoExceptions:
    emit("-fno-exceptions");
    return;
  case NvccAction::HostDebug:
    emit("-g");
    return;
  case NvccAction::NvccWerror:
    DropIt();
    return;
  }
  (void)HasValue;
}

void Translator::translateHostFlags(ArrayRef<std::string> Pieces) {
  // The host compiler's flags, passed through by nvcc: the same rules as for
  // any flag, without nvcc's own options (they are not nvcc's). A lone
  // positional piece is never an input file.
  bool SavedEnd = EndOfOptions;
  EndOfOptions = false;
  InHostFlags = true;
  size_t FirstDropped = Result.Dropped.size();
  for (size_t I = 0; I < Pieces.size();)
    I = translateOne(Pieces, I, /*Nvcc=*/false);
  InHostFlags = false;
  EndOfOptions = SavedEnd;
  for (size_t I = FirstDropped; I < Result.Dropped.size(); ++I)
    Result.Dropped[I] = "-Xcompiler " + Result.Dropped[I];
}

void Translator::ptxasPieces(StringRef Value) {
  for (const std::string &P : splitList(Value)) {
    StringRef Piece = P;
    if (PendingPtxasMaxReg) {
      PendingPtxasMaxReg = false;
      unsigned N = 0;
      if (!Piece.getAsInteger(10, N) && N > 0)
        Result.MaxRegCount = N;
      continue;
    }
    StringRef Name, Val;
    std::tie(Name, Val) = Piece.split('=');
    if (Name == "--maxrregcount" || Name == "-maxrregcount") {
      if (!Piece.contains('=')) {
        PendingPtxasMaxReg = true;
        continue;
      }
      unsigned N = 0;
      if (!Val.getAsInteger(10, N) && N > 0)
        Result.MaxRegCount = N;
    }
  }
}

void Translator::gencode(StringRef Spec, StringRef Spelling) {
  std::string Arch;
  std::vector<std::string> Codes;
  bool InCode = false;
  for (const std::string &Tok : splitTopLevel(Spec)) {
    StringRef T = StringRef(Tok).trim();
    if (T.consume_front("arch=")) {
      Arch = T.str();
      InCode = false;
    } else if (T.consume_front("code=")) {
      InCode = true;
      for (const std::string &C : splitTopLevel(T))
        if (!C.empty())
          Codes.push_back(C);
    } else if (InCode && !T.empty()) {
      Codes.push_back(T.str());
    }
  }
  std::vector<std::string> Picked;
  for (const std::string &C : Codes)
    if (StringRef(C).starts_with("sm_"))
      Picked.push_back(C);
  if (Picked.empty())
    Picked = Codes;
  if (Picked.empty() && !Arch.empty())
    Picked.push_back(Arch);
  bool Any = false;
  for (const std::string &P : Picked)
    if (!normalizeCudaArch(P).empty()) {
      GencodeArchs.push_back(P);
      Any = true;
    }
  if (!Any)
    drop(Spelling, Spelling.contains('=') ? "" : Spec);
}

void Translator::addArchs(StringRef List, std::vector<std::string> &To,
                          StringRef Spelling) {
  bool Any = false;
  for (const std::string &A : splitTopLevel(List)) {
    if (!normalizeCudaArch(A).empty()) {
      To.push_back(A);
      Any = true;
    } else if (A == "native" || A == "all" || A == "all-major") {
      // No architecture to tell the hardware model; the caller says which
      // one it models instead.
      if (!llvm::is_contained(Result.ArchKeywords, A))
        Result.ArchKeywords.push_back(A);
    }
  }
  if (!Any)
    drop(Spelling, Spelling.contains('=') ? "" : List);
}

} // namespace

std::vector<std::string> makeIncludePathsAbsolute(ArrayRef<std::string> Args,
                                                  StringRef Directory) {
  // Flags whose value is a path, separate or joined (-Idir, -isystemdir).
  static constexpr StringRef PathFlags[] = {"-I",        "-isystem", "-iquote",
                                            "-idirafter", "-include", "-imacros"};
  auto Absolute = [&](StringRef Path) {
    llvm::SmallString<256> P(Path);
    if (!Path.empty() && !llvm::sys::path::is_absolute(P) && !Directory.empty())
      llvm::sys::fs::make_absolute(Directory, P);
    if (llvm::sys::path::is_absolute(P))
      llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    return std::string(P.str());
  };
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (isOneOf(A, PathFlags) && I + 1 < Args.size()) {
      Out.push_back(A.str());
      Out.push_back(Absolute(Args[++I]));
      continue;
    }
    // -I<dir>, -isystem<dir>...: the longer spellings first (-isystem is
    // not -I with "system"). A joined -include is not a form clang takes.
    bool Joined = false;
    for (StringRef F : {"-idirafter", "-isystem", "-iquote", "-I"})
      if (A.size() > F.size() && A.starts_with(F)) {
        Out.push_back((F + Absolute(A.drop_front(F.size()))).str());
        Joined = true;
        break;
      }
    if (!Joined)
      Out.push_back(A.str());
  }
  return Out;
}

std::string normalizeCudaArch(StringRef Arch) {
  unsigned Number = 0;
  StringRef Suffix;
  if (!splitArch(Arch.trim(), Number, Suffix))
    return "";
  return "sm_" + std::to_string(Number) + Suffix.str();
}

std::string clangParseArchFor(StringRef RequestedArch) {
  unsigned Number = 0;
  StringRef Suffix;
  if (!splitArch(RequestedArch.trim(), Number, Suffix))
    return "";
  std::string Exact = "sm_" + std::to_string(Number) + Suffix.str();
  if (isOneOf(StringRef(Exact), Clang19Arches)) {
    // clang 19 knows sm_20..sm_37 but refuses them with CUDA 12 and newer;
    // parse those as sm_50, the oldest arch every supported toolkit has.
    return Number < 50 ? "sm_50" : Exact;
  }
  if (Number > 90)
    return "sm_90";
  // An arch clang 19 does not know (sm_88, sm_87f ...): the newest known
  // one below it, without a suffix.
  std::string Best = "sm_50";
  for (StringRef Known : Clang19Arches) {
    unsigned KnownNumber = 0;
    StringRef KnownSuffix;
    if (splitArch(Known, KnownNumber, KnownSuffix) && KnownSuffix.empty() &&
        KnownNumber <= Number && KnownNumber >= 50)
      Best = Known.str();
  }
  return Best;
}

TranslatedCommand translateCompileCommand(ArrayRef<std::string> Args) {
  return translateCompileCommand(Args, TranslateOptions());
}

TranslatedCommand translateCompileCommand(ArrayRef<std::string> Args,
                                          const TranslateOptions &Options) {
  return Translator(Options).run(Args);
}

} // namespace warpcheck::tool
