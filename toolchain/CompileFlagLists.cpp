//===- CompileFlagLists.cpp - clang's and gcc's flags in the flag table ---===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//
//
// The flags of clang and gcc (nvcc's are the rows of CompileFlags.cpp): the
// security denials that both consumers of a compile command apply, whatever
// the compiler, and what the parse keeps.
//
//===----------------------------------------------------------------------===//

#include "warpcheck/toolchain/CompileFlags.h"

#include "llvm/ADT/STLExtras.h"

using llvm::StringRef;

namespace warpcheck::toolchain {

namespace {

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

template <size_t N> bool isOneOf(StringRef S, const StringRef (&List)[N]) {
  return llvm::is_contained(List, S);
}

template <size_t N> bool startsWithOneOf(StringRef S, const StringRef (&List)[N]) {
  return llvm::any_of(List, [&](StringRef P) { return S.starts_with(P); });
}

} // namespace

bool isDeniedWithSeparateValue(StringRef Flag) { return isOneOf(Flag, DeniedWithSeparateValue); }

bool hasDeniedPrefix(StringRef Flag) {
  return Flag.starts_with("@") || startsWithOneOf(Flag, DeniedPrefixes);
}

bool isDeniedFFlag(StringRef Flag) { return startsWithOneOf(Flag, DeniedFPrefixes); }

bool isDroppedWithSeparateValue(StringRef Flag) { return isOneOf(Flag, DroppedWithSeparateValue); }

bool isGccOnlyFFlag(StringRef Flag) {
  return startsWithOneOf(Flag, GccOnlyFPrefixes) || isOneOf(Flag, GccOnlyFExact);
}

bool isDeniedWFlag(StringRef Flag) { return startsWithOneOf(Flag, DeniedWPrefixes); }

bool isKeptWithSeparateValue(StringRef Flag) { return isOneOf(Flag, KeptWithSeparateValue); }

bool hasKeptJoinedPrefix(StringRef Flag) { return startsWithOneOf(Flag, KeptJoinedPrefixes); }

bool isKeptExactly(StringRef Flag) { return isOneOf(Flag, KeptExact); }

} // namespace warpcheck::toolchain
