//===- ExportCompileCommands.h - a compile database clang-tidy can read ---===//
//
// CMake writes nvcc's commands into compile_commands.json, and clang-tidy
// parses each entry with clang: nvcc's flags (-arch, -Xcompiler,
// --generate-code, -forward-unknown-to-host-compiler, ...) are errors there
// ("unknown argument"), and clang-tidy 19 can only add arguments
// (ExtraArgsBefore, ExtraArgs), not remove them.
// warpcheck already translates them for its own parse; this writes the
// translated commands as a database of their own, so that
// `clang-tidy-19 -p <its folder> -load libwarpcheck.so` reads the project
// (README, "From clang-tidy").
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_EXPORTCOMPILECOMMANDS_H
#define WARPCHECK_TOOL_EXPORTCOMPILECOMMANDS_H

#include "RunRecord.h"
#include "TranslationUnitJob.h"

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace warpcheck::tool {

/// The compiler every exported entry names: clang-tidy reads only its
/// driver mode (C++) from it and never starts it.
inline constexpr llvm::StringLiteral ExportedCompiler = "clang++-19";

/// Writes the first InputJobs of Jobs to Path as a compile database
/// (directory, file, arguments: ExportedCompiler, the job's clang arguments,
/// the file). Inputs that could not be planned (in Record) are said as
/// errors. Exit code: 0, 3 when an input was left out, 4 when Path cannot
/// be written.
int exportCompileCommands(llvm::StringRef Path, const std::vector<TranslationUnitJob> &Jobs,
                          size_t InputJobs, RunRecord &Record);

} // namespace warpcheck::tool

#endif
