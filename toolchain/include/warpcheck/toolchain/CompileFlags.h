//===- CompileFlags.h - the one table of compile flags --------------------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What warpcheck knows about the flags of a compile command (nvcc's and
/// clang's/gcc's), and what becomes of each in the two places that read a
/// compile command:
///
///  - the parse: tool/CompileCommand translates a compile database entry
///    into clang 19 arguments;
///  - the nvcc run that counts registers with ptxas: sanitizeCompileFlags()
///    (NvccInvocation.h) keeps what nvcc must see to compile the unit as the
///    build does.
///
/// Both look a flag up here, so a flag cannot be kept by one and forgotten
/// by the other, nor take a value for one and none for the other. Each
/// spelling maps to a FlagMeaning; each meaning has one FlagFates row saying
/// what each consumer does with it, and why.
///
/// SECURITY: the compile database is untrusted. Nothing taken from it may
/// name a program that is started, a file loaded as code, a response or
/// configuration file, or a file written: the flags that could are listed
/// here (isDeniedWithSeparateValue, hasDeniedPrefix, isDeniedFFlag) and
/// dropped by both consumers, values included.
///
//===----------------------------------------------------------------------===//

#ifndef WARPCHECK_TOOLCHAIN_COMPILEFLAGS_H
#define WARPCHECK_TOOLCHAIN_COMPILEFLAGS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace warpcheck::toolchain {

/// What a flag means, whichever compiler spells it.
enum class FlagMeaning {
  Unused,            // A build step, an output, linking, diagnostics.
  Unsafe,            // Names a program, a file read for arguments or written.
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
  PrecDiv,           // -prec-div {true|false}
  PrecSqrt,          // -prec-sqrt {true|false}
  HostCompilerFlags, // -Xcompiler / --compiler-options
  PtxasFlags,        // -Xptxas / --ptxas-options
  Define,            // -D / --define-macro
  Undefine,          // -U / --undefine-macro
  IncludePath,       // -I / --include-path
  SystemInclude,     // -isystem / --system-include (nvcc allows -isystem=X)
  PreInclude,        // -include / --pre-include
  Std,               // -std / --std
  Language,          // -x / --x
  Optimize,          // -O / --optimize (separate value)
  Machine,           // -m / --machine
  TemplateDepth,     // -ftemplate-depth N
  TemplateBacktrace, // -ftemplate-backtrace-limit N
  NoExceptions,      // -noeh / --no-exceptions
  HostDebug,         // -g / --debug
  NvccWerror,        // -Werror <kind>,...
  ExtendedLambda,    // --extended-lambda (clang: always on)
  RelaxedConstexpr,  // --expt-relaxed-constexpr (clang: always on)
  AnyHostCompiler,   // -allow-unsupported-compiler
  Cubin,             // -cubin: device code only, as a cubin
  LineInfo,          // -lineinfo / --generate-line-info
  OtherOutput,       // -ptx, -fatbin, -E, -M ...: other things nvcc produces
  SameInClang,       // A flag clang understands the same way (-m64).
};

/// What a consumer does with a flag.
enum class FlagFate {
  /// Passed on as it is (normalised: absolute paths, one spelling).
  Kept,
  /// Turned into other flags or into a setting (-use_fast_math into clang's
  /// -fgpu-* flags; -maxrregcount into the register limit).
  Translated,
  /// Left out, with its value; listed among the dropped flags.
  Dropped,
  /// Left out of the compile command because warpcheck always sets it
  /// itself (nvcc's -arch, -x cu, --extended-lambda ...).
  SetByWarpcheck,
};

/// "kept", "translated", "dropped", "set by warpcheck".
const char *flagFateName(FlagFate Fate);

/// One row per meaning: its fate in the parse and in the nvcc run.
struct FlagFates {
  FlagMeaning Meaning;
  FlagFate ForParse;
  FlagFate ForNvcc;
  /// Why, in a few words (for --verbose and the docs).
  llvm::StringRef Reason;
};

/// The row of \p Meaning.
const FlagFates &fatesOf(FlagMeaning Meaning);

/// One flag as nvcc 13's --help lists it (plus -Xcudafe and -Xfatbin), with
/// the clang spelling of the same flag where the two compilers share one.
struct CompileFlag {
  llvm::StringRef Long;  // Without the leading "--"; empty when none.
  llvm::StringRef Short; // Without the leading "-"; empty when none.
  bool TakesValue;
  FlagMeaning Meaning;
  /// clang's/gcc's spelling ("-I"), empty when clang has none or spells it
  /// as nvcc's Short; ClangJoined: clang also takes the value joined
  /// ("-Idir").
  llvm::StringRef ClangSpelling = "";
  bool ClangJoined = false;
};

/// Every row.
llvm::ArrayRef<CompileFlag> compileFlagTable();

/// The row of an nvcc spelling: \p Name without its dashes and without a
/// joined `=value`; \p LongForm when it had two dashes. nvcc takes a long
/// name with one dash too.
const CompileFlag *findNvccFlag(llvm::StringRef Name, bool LongForm);

/// The first row of \p Meaning (nvcc's preferred spelling where a meaning
/// has several), for building nvcc's own command line from the table.
const CompileFlag &nvccFlag(FlagMeaning Meaning);

/// `-<Short>` of nvccFlag(Meaning), e.g. "-arch", "-Xptxas".
std::string nvccSpelling(FlagMeaning Meaning);

/// `--<Long>` of nvccFlag(Meaning), e.g. "--extended-lambda".
std::string nvccLongSpelling(FlagMeaning Meaning);

/// Whether a value-taking nvcc flag takes the next argument as its value:
/// nvcc's -O takes only a level (0-3, s, g, z), its -Werror only its own
/// kinds; anything else there is the next flag (or a host -Werror).
bool takesNextAsValue(const CompileFlag &Flag, bool HasNext, llvm::StringRef Next);

/// One argument recognised by the table.
struct MatchedFlag {
  const CompileFlag *Flag = nullptr;
  /// The value, joined (`--flag=value`, `-Ivalue`) or the next argument.
  llvm::StringRef Value;
  bool HasValue = false;
  /// 1, or 2 when the value was the next argument.
  unsigned ArgsUsed = 1;
};

/// Args[I] in any spelling of the table: `--long`, `--long=value`,
/// `-short`, `-short=value`, and clang's spelling (separate, or joined where
/// clang takes it so). A value-taking flag at the end has HasValue false.
std::optional<MatchedFlag> matchCompileFlag(llvm::ArrayRef<std::string> Args, size_t I);

/// The values nvcc's -Werror takes (all-warnings, reorder, ...).
bool isNvccWerrorKind(llvm::StringRef Kind);

/// The items of an nvcc list value ("a,b c"): split at commas and blanks,
/// quotes trimmed, empty items dropped (-Werror kinds, -I lists, -D lists).
llvm::SmallVector<llvm::StringRef, 4> splitFlagList(llvm::StringRef S);

/// Flags only nvcc has: their presence marks an nvcc command even when the
/// compiler is not called "nvcc" (a wrapper script, a renamed binary).
bool isNvccOnlyFlag(llvm::StringRef Flag);

//===--- clang's and gcc's flags (CompileFlagLists.cpp) -------------------===//

/// SECURITY: flags whose value is the next argument and which are dropped
/// together with it: they can start programs, load code, read or write
/// files, or reach the driver's raw options (-Xclang, -mllvm).
bool isDeniedWithSeparateValue(llvm::StringRef Flag);

/// SECURITY: prefixes of flags (joined forms included) that are always
/// dropped: response files (@file), raw cc1/LLVM/tool flags, programs,
/// configuration, toolchain and header roots, plugins, files written.
bool hasDeniedPrefix(llvm::StringRef Flag);

/// SECURITY: -f flags dropped: plugins, modules, precompiled headers, flags
/// that write files or start programs, offloading, profile data, the
/// diagnostics format.
bool isDeniedFFlag(llvm::StringRef Flag);

/// Other flags whose value is the next argument, dropped with it (outputs,
/// linker inputs, Darwin's -arch).
bool isDroppedWithSeparateValue(llvm::StringRef Flag);

/// GCC-only -f flags clang 19's driver rejects ("unknown argument").
bool isGccOnlyFFlag(llvm::StringRef Flag);

/// -W flags dropped: they only turn warnings into errors.
bool isDeniedWFlag(llvm::StringRef Flag);

/// Flags with a separate value that the parse keeps with their value: -I,
/// -isystem, -iquote, -idirafter, -include, -imacros, -D, -U.
bool isKeptWithSeparateValue(llvm::StringRef Flag);

/// Joined forms the parse keeps: -Ifoo, -DX=1, ...
bool hasKeptJoinedPrefix(llvm::StringRef Flag);

/// Flags the parse keeps exactly: -m64, -pthread, -pedantic, -ansi,
/// -fsyntax-only.
bool isKeptExactly(llvm::StringRef Flag);

/// Whether \p Flag, of either compiler, takes its value as the next
/// argument: every value-taking row of the table in nvcc's spellings, and
/// the clang/gcc flags above. Both consumers skip such a value with its
/// flag, so that a dropped flag's value is never read as a flag.
bool takesSeparateValue(llvm::StringRef Flag);

} // namespace warpcheck::toolchain

#endif // WARPCHECK_TOOLCHAIN_COMPILEFLAGS_H
