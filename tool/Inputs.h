//===- Inputs.h - what warpcheck analyses, and with which arguments -------===//
//
// The inputs of a run, from the command line (files and folders) or a
// compile database (-p), each with the compile command it is analysed
// with; then, per input, the job a worker runs: clang's arguments, the
// architecture the model uses, what the input's flags say about registers.
// An input that cannot become a job (a missing file, no compile command, an
// architecture the model does not have) is a problem of that input alone.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_INPUTS_H
#define WARPCHECK_TOOL_INPUTS_H

#include "CommandLine.h"
#include "TranslationUnitJob.h"

#include <string>
#include <vector>

namespace warpcheck::tool {

struct Input {
  /// The source file: absolute for a compile database's entries (whose
  /// relative names are the entry directory's), as given (relative to the
  /// current directory) for files on the command line.
  std::string File;
  /// The compile command's working directory (the current one for files
  /// given on the command line).
  std::string Directory;
  /// The compile database entry's arguments, program first; empty for files
  /// given on the command line.
  std::vector<std::string> CommandArgs;
};

/// Something about one input, for the summary and the JSON "inputs".
struct InputMessage {
  std::string File;
  std::string Message;
};

struct InputSet {
  std::vector<Input> Inputs;
  /// Inputs that are not analysed, with the cause.
  std::vector<InputMessage> Problems;
  /// Files left out because another input includes them (analysed
  /// through it), and other facts worth a note.
  std::vector<InputMessage> Notes;
  /// --launches-from=database: the compile database's other entries (C,
  /// C++ and CUDA), parsed for their launches and calls only.
  std::vector<Input> LaunchSources;
};

/// Collects the inputs: the files and folders of CL (relative to Cwd), or
/// the compile database's CUDA files (-p; every entry of a .cu or .cuh
/// file, or compiled with `-x cu`/`-x cuda`), restricted to the files and
/// folders given. A folder stands for its .cu and .cuh files (database
/// entries under it with -p), recursively, in path order; a file included by
/// another input of the same folder walk is dropped, with a note. False,
/// after printing the error, for a usage error (no inputs at all, an
/// unreadable or malformed compile database).
bool collectInputs(const CommandLine &CL, llvm::StringRef Cwd, InputSet &Out);

/// A job for one input, or the reason there is none.
struct PlannedJob {
  TranslationUnitJob Job;
  /// Why the input cannot be analysed; empty when Job is usable.
  std::string Problem;
  /// What was assumed for it (an -arch=native build modelled as sm_90).
  std::vector<std::string> Notes;
};

/// The job for In: clang arguments (the translated compile command with
/// paths made absolute, the CUDA environment's CudaArgs, one device
/// architecture to parse for), the model's architecture (--arch, else the
/// newest the build targets that the architecture table has), the
/// -maxrregcount of the build, and CL's options.
PlannedJob planJob(const Input &In, const CommandLine &CL,
                   const std::vector<std::string> &CudaArgs, const std::string &ToolkitRoot);

} // namespace warpcheck::tool

#endif
