//===- NvccInvocation.h - the nvcc command line and its guards ------------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The command line of the one program warpcheck ever starts: the located
/// toolkit's bin/nvcc, compiling a unit's device code for ptxas's register
/// counts (analysis/registers/ runs it and reads ptxas's output).
///
/// Security. The program is <toolkit>/bin/nvcc of a toolkit the caller
/// located itself (never a PATH search, never a name from a compile
/// database), started by runProcess() (ProcessRunner.h) with an argument
/// vector and a time limit. nvcc itself runs its sub-steps through a shell
/// (`nvcc -dryrun` shows them) and does not escape `$(...)` or backquotes in
/// -D values, so every argument handed to it is checked against a
/// conservative character set, and of a compile database's flags only those
/// the flag table keeps for nvcc survive (-I, -isystem, -include, -D, -U,
/// -std, -maxrregcount: sanitizeCompileFlags).
///
//===----------------------------------------------------------------------===//

#ifndef WARPCHECK_TOOLCHAIN_NVCCINVOCATION_H
#define WARPCHECK_TOOLCHAIN_NVCCINVOCATION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace warpcheck::toolchain {

/// True when every character of Arg is one nvcc can be trusted to pass
/// through its internal shell literally: ASCII letters, digits and
/// `_ . / + , = @ % : ~ -`, plus the space and, with ForMacro, `(` and `)`.
bool isShellSafeArgument(llvm::StringRef Arg, bool ForMacro = false);

struct SanitizedFlags {
  /// Flags for nvcc, normalized ("-I/abs/dir", "-isystem", "/abs/dir",
  /// "-DNAME=value", "-UNAME", "-std=c++17").
  std::vector<std::string> Kept;
  /// Flags left out because they are not on the allow-list (with their
  /// values), e.g. "-ccbin=/tmp/evil.sh".
  std::vector<std::string> Dropped;
  /// Allow-listed flags whose value holds characters that are not
  /// shell-safe: their presence means nvcc cannot compile the unit as the
  /// build does, so ptxas is not run.
  std::vector<std::string> Refused;
  /// -maxrregcount=N of the flags (1..255).
  std::optional<unsigned> MaxRegisterCount;
  /// The build compiles device code relocatable (-rdc=true, -dc, clang's
  /// -fgpu-rdc; the last one given wins). ptxas then places no __shared__
  /// array itself and merges none of its accesses into wider ones
  /// (UnrolledMerges.h: sortingNetworks' Comparator reads `s_key[pos]`
  /// and `s_key[pos + 1]` with two LDS in the samples' -rdc=true build, one
  /// LDS.64 without it), so nvcc is run so too: the instructions read are
  /// the build's.
  bool RelocatableDeviceCode = false;
};

/// Filters a compile command (or clang arguments) through the flag table
/// (CompileFlags.h): the flags it keeps for nvcc (-I, -isystem, -include,
/// -D, -U, -std, -maxrregcount, in their nvcc and clang spellings) survive;
/// everything else is dropped, values of flags known to take one included
/// (-ccbin X, -Xptxas X, --options-file X, -o X, ...). Relative include
/// paths are made absolute against WorkingDirectory. Include folders of a
/// toolchain (clang's resource folder, a CUDA toolkit's include folder,
/// CCCL, the system's C/C++ folders, warpcheck's bundled header shims) are
/// left out too: nvcc brings its own.
SanitizedFlags sanitizeCompileFlags(llvm::ArrayRef<std::string> Flags,
                                    llvm::StringRef WorkingDirectory);

/// The system's own C and C++ include folders (/usr/include and the like,
/// GCC's): a compiler driver adds them itself.
bool isSystemIncludeDir(llvm::StringRef Dir);

/// Folders nvcc brings itself or that belong to another compiler: clang's
/// resource folder (\p ResourceDir, may be empty) and CUDA wrappers, a CUDA
/// toolkit's include folder and CCCL, the system's C and C++ folders,
/// warpcheck's bundled header shims.
bool isToolchainIncludeDir(llvm::StringRef Dir, llvm::StringRef ResourceDir);

/// The lower of two -maxrregcount limits; either may be absent.
std::optional<unsigned> lowerMaxRegisterCount(std::optional<unsigned> A,
                                              std::optional<unsigned> B);

/// ToolkitRoot if it holds an executable regular file bin/nvcc (symlinks
/// resolved), else nullopt and Why says what is missing. Nothing is
/// searched.
std::optional<std::string> validateToolkitRoot(llvm::StringRef ToolkitRoot,
                                               std::string *Why = nullptr);

/// The toolkit to use when the caller names none: the candidates of the
/// toolkit search (cudaToolkitCandidates: $CUDA_PATH, $CUDA_HOME, then
/// /usr/local/cuda), the first that validateToolkitRoot accepts. These come
/// from the user's environment, never from a compile database.
std::optional<std::string> defaultToolkitRoot();

/// The toolkit root an embedding tool located itself (the warpcheck binary:
/// its --cuda-path or its own search), for checks that are not handed
/// one. Process-wide; empty by default. Deliberately not a check option: a
/// .clang-tidy file of the analysed project must not be able to name the
/// program that is started.
void setTrustedToolkitRoot(llvm::StringRef ToolkitRoot);
std::string trustedToolkitRoot();

/// The argument vector nvcc is started with (element 0 is
/// <ToolkitRoot>/bin/nvcc): `-cubin -arch=<Arch> -o <OutputFile> -Xptxas -v
/// -lineinfo --extended-lambda --expt-relaxed-constexpr -allow-unsupported-compiler
/// [-maxrregcount=N] [-rdc=true] <Flags.Kept> -x cu <WrapperSource>`. Fails
/// (Error set) if any argument is not shell-safe.
std::optional<std::vector<std::string>>
nvccArguments(llvm::StringRef ToolkitRoot, llvm::StringRef Arch,
              const SanitizedFlags &Flags, std::optional<unsigned> MaxRegisterCount,
              llvm::StringRef WrapperSource, llvm::StringRef OutputFile,
              std::string *Error, bool RelocatableDeviceCode = false);

} // namespace warpcheck::toolchain

#endif // WARPCHECK_TOOLCHAIN_NVCCINVOCATION_H
