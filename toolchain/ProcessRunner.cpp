//===- ProcessRunner.cpp - starting a program without a shell -------------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//

#include "warpcheck/toolchain/ProcessRunner.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <optional>

extern "C" char **environ;

namespace warpcheck::toolchain {

ProcessResult runProcess(llvm::ArrayRef<std::string> Argv,
                         llvm::ArrayRef<std::string> EnvOverrides, llvm::StringRef CaptureDir,
                         unsigned TimeoutSeconds) {
  ProcessResult R;
  // An absolute path is started as it is: ExecuteAndWait searches no PATH
  // and uses no shell, so no argument is ever interpreted.
  if (Argv.empty() || !llvm::sys::path::is_absolute(Argv.front())) {
    R.StartFailed = true;
    R.StartError = "the program to start is not named by an absolute path";
    return R;
  }
  // This process's environment, where an override replaces its variable.
  std::vector<std::string> Env;
  for (char **E = environ; E && *E; ++E) {
    llvm::StringRef Var(*E);
    llvm::StringRef Name = Var.split('=').first;
    bool Overridden = false;
    for (const std::string &O : EnvOverrides)
      if (llvm::StringRef(O).split('=').first == Name)
        Overridden = true;
    if (!Overridden)
      Env.push_back(Var.str());
  }
  Env.insert(Env.end(), EnvOverrides.begin(), EnvOverrides.end());
  std::vector<llvm::StringRef> EnvRefs(Env.begin(), Env.end());
  std::vector<llvm::StringRef> ArgRefs(Argv.begin(), Argv.end());

  llvm::SmallString<256> Out(CaptureDir), Err(CaptureDir);
  llvm::sys::path::append(Out, "stdout.txt");
  llvm::sys::path::append(Err, "stderr.txt");
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(Out),
                                                llvm::StringRef(Err)};
  bool ExecutionFailed = false;
  R.ExitCode = llvm::sys::ExecuteAndWait(ArgRefs.front(), ArgRefs, EnvRefs, Redirects,
                                         TimeoutSeconds, /*MemoryLimit=*/0, &R.StartError,
                                         &ExecutionFailed);
  R.StartFailed = ExecutionFailed;
  for (const auto &File : {Err, Out})
    if (auto B = llvm::MemoryBuffer::getFile(File))
      R.Output += (*B)->getBuffer().str();
  if (auto B = llvm::MemoryBuffer::getFile(Out))
    R.StandardOutput = (*B)->getBuffer().str();
  return R;
}

} // namespace warpcheck::toolchain
