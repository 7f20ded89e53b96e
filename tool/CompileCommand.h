//===- CompileCommand.h - nvcc/clang command lines to clang 19 args -------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Turns one compile_commands.json entry's argument vector, written for nvcc
/// or for clang/gcc, into arguments clang 19 can parse the file with.
///
/// SECURITY: the compile database and the code under review are untrusted.
/// Nothing taken from them may name a program that warpcheck (or the clang
/// driver) starts, a file clang loads as a plugin or module, a response or
/// configuration file the driver reads for more arguments, or a file clang
/// writes. The translation is therefore an allowlist (the flag table of
/// warpcheck/toolchain/CompileFlags.h, which the nvcc run for registers
/// reads too): only flags known to be
/// safe for a parse are kept (include paths, macros, language standard,
/// warnings, -f flags other than the denied ones, -O, -g, -m64); everything
/// else is dropped and listed in TranslatedCommand::Dropped. Argument strings
/// are never interpreted by a shell: `-DX=$(cmd)` stays a literal macro.
///
//===----------------------------------------------------------------------===//

#ifndef WARPCHECK_TOOL_COMPILECOMMAND_H
#define WARPCHECK_TOOL_COMPILECOMMAND_H

#include "warpcheck/toolchain/CudaArch.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// The result of translating one compile command.
struct TranslatedCommand {
  /// Arguments for clang 19, without a program name (the compiler named by
  /// the database is never used; give clang's driver a fixed name of your
  /// own, or hand these to clang::tooling::FixedCompilationDatabase): the
  /// kept and translated flags and the source file(s) in their original
  /// order; then one `--cuda-gpu-arch=` per distinct parse arch; last
  /// `-Wno-unknown-warning-option` and `-Qunused-arguments` (GCC-only -W
  /// flags are kept; some kept flags are unused by a parse). Neither
  /// -fsyntax-only nor CUDA environment flags are added: put
  /// cudaParseArguments() (CudaEnvironment.h) BEFORE these, so that
  /// warpcheck's CUDA headers come before any CUDA include folder the
  /// database names.
  std::vector<std::string> ClangArgs;
  /// The GPU architectures the command builds for, as requested, normalised
  /// to `sm_XX` plus suffix (`sm_80`, `sm_90a`, `sm_100`, `sm_120f`); a
  /// virtual `compute_XX` or `lto_XX` target counts as `sm_XX`. Empty when
  /// the command names none (or only `native`/`all`).
  std::vector<std::string> GpuArchs;
  /// -arch=native, -arch=all, -arch=all-major: no architecture the
  /// hardware model can take; the caller chooses one and says so.
  std::vector<std::string> ArchKeywords;
  /// -maxrregcount (nvcc, or ptxas through -Xptxas / -Xcuda-ptxas).
  std::optional<unsigned> MaxRegCount;
  /// Flags removed, each with its value when it has one ("-ccbin g++"), for
  /// --verbose.
  std::vector<std::string> Dropped;
};

/// Optional knobs for translateCompileCommand().
struct TranslateOptions {
  /// When set, asked about every flag that survived the allowlist; flags for
  /// which it returns false are dropped. The caller can answer exactly with
  /// clang's own driver option table (clang::driver::getDriverOptTable()),
  /// which this file may not use. It can only remove flags, never add any.
  /// When unset, a built-in list of GCC-only flags that clang 19 rejects is
  /// used instead.
  std::function<bool(llvm::StringRef Flag)> IsKnownClangFlag;
};

/// Translates \p Args, an entry's full argument vector (Args[0] is the
/// compiler, possibly behind a launcher such as ccache), into clang 19
/// arguments. nvcc is recognised by the compiler's name or by nvcc-only
/// flags. Relative paths are left as they are (ClangTool runs in the entry's
/// directory); flag/value pairs stay together.
TranslatedCommand translateCompileCommand(llvm::ArrayRef<std::string> Args);
TranslatedCommand translateCompileCommand(llvm::ArrayRef<std::string> Args,
                                          const TranslateOptions &Options);

/// The values of -I, -isystem, -iquote, -idirafter, -include and -imacros
/// (separate or joined, as clang spells them) made absolute against
/// Directory, the compile command's working directory: the parse and the
/// nvcc run of the register count then find the same headers wherever they
/// run.
std::vector<std::string> makeIncludePathsAbsolute(llvm::ArrayRef<std::string> ClangArgs,
                                                  llvm::StringRef Directory);

// Architecture names are the toolchain layer's (warpcheck/toolchain/
// CudaArch.h); their names stay usable here.
using toolchain::clangParseArchFor;
using toolchain::normalizeCudaArch;

} // namespace warpcheck::tool

#endif // WARPCHECK_TOOL_COMPILECOMMAND_H
