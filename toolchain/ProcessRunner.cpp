//===- ProcessRunner.cpp - starting a program without a shell -------------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//

#include "warpcheck/toolchain/ProcessRunner.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern "C" char **environ;

namespace warpcheck::toolchain {

namespace {

/// The process groups of the programs running now, for
/// killStartedProcessGroups (a signal handler may read it: plain atomics,
/// no allocation). More programs at once than slots only means the extra
/// ones are not killed by it; their own deadline still holds.
constexpr size_t GroupSlots = 256;
std::atomic<pid_t> RunningGroups[GroupSlots];

size_t rememberGroup(pid_t Group) {
  for (size_t I = 0; I < GroupSlots; ++I) {
    pid_t Free = 0;
    if (RunningGroups[I].compare_exchange_strong(Free, Group))
      return I;
  }
  return GroupSlots;
}

void forgetGroup(size_t Slot) {
  if (Slot < GroupSlots)
    RunningGroups[Slot].store(0);
}

std::vector<std::string> inheritedEnvironment(llvm::ArrayRef<std::string> Overrides) {
  std::vector<std::string> Env;
  for (char **E = environ; E && *E; ++E) {
    llvm::StringRef Var(*E);
    llvm::StringRef Name = Var.split('=').first;
    bool Overridden = false;
    for (const std::string &O : Overrides)
      if (llvm::StringRef(O).split('=').first == Name)
        Overridden = true;
    if (!Overridden)
      Env.push_back(Var.str());
  }
  Env.insert(Env.end(), Overrides.begin(), Overrides.end());
  return Env;
}

/// Waits for Pid until the deadline (none: TimeoutSeconds 0), polling, so
/// that no signal and no process-wide timer is involved. On the deadline
/// the whole process group is killed, then the program reaped.
void waitWithDeadline(pid_t Pid, unsigned TimeoutSeconds, ProcessResult &R) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point Deadline = Clock::now() + std::chrono::seconds(TimeoutSeconds);
  std::chrono::milliseconds Pause(1);
  int Status = 0;
  for (;;) {
    pid_t Done = waitpid(Pid, &Status, WNOHANG);
    if (Done == Pid)
      break;
    if (Done < 0 && errno != EINTR) {
      R.ExitCode = -1;
      R.StartError = std::string("waiting for the program failed: ") + std::strerror(errno);
      kill(-Pid, SIGKILL);
      return;
    }
    if (TimeoutSeconds && Clock::now() >= Deadline) {
      // The group, not only the program: nvcc's children would otherwise
      // be orphaned and go on (cicc has been seen at 6 GB). SIGTERM first,
      // so that a program that started groups of its own (a warpcheck
      // worker and its nvcc) ends them, then SIGKILL after a grace period.
      // The program is not reaped yet, so its id cannot have been reused.
      kill(-Pid, SIGTERM);
      const Clock::time_point Grace = Clock::now() + std::chrono::seconds(2);
      while (waitpid(Pid, &Status, WNOHANG) == 0 && Clock::now() < Grace)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      kill(-Pid, SIGKILL);
      while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
      }
      R.TimedOut = true;
      R.ExitCode = -2;
      R.StartError = "timed out after " + std::to_string(TimeoutSeconds) + " s";
      return;
    }
    std::this_thread::sleep_for(Pause);
    Pause = std::min(Pause * 2, std::chrono::milliseconds(50));
  }
  if (WIFEXITED(Status)) {
    R.ExitCode = WEXITSTATUS(Status);
  } else {
    R.ExitCode = -2;
    R.Signal = WIFSIGNALED(Status) ? WTERMSIG(Status) : 0;
    R.StartError = "ended by signal " + std::to_string(R.Signal);
  }
}

} // namespace

ProcessResult runProcessWithEnvironment(llvm::ArrayRef<std::string> Argv,
                                        llvm::ArrayRef<std::string> Environment,
                                        llvm::StringRef CaptureDir, unsigned TimeoutSeconds) {
  ProcessResult R;
  // An absolute path is started as it is: posix_spawn searches no PATH and
  // uses no shell, so no argument is ever interpreted.
  if (Argv.empty() || !llvm::sys::path::is_absolute(Argv.front())) {
    R.StartFailed = true;
    R.StartError = "the program to start is not named by an absolute path";
    return R;
  }
  std::vector<char *> ArgvC, EnvC;
  for (const std::string &A : Argv)
    ArgvC.push_back(const_cast<char *>(A.c_str()));
  ArgvC.push_back(nullptr);
  for (const std::string &E : Environment)
    EnvC.push_back(const_cast<char *>(E.c_str()));
  EnvC.push_back(nullptr);

  llvm::SmallString<256> Out(CaptureDir), Err(CaptureDir);
  llvm::sys::path::append(Out, "stdout.txt");
  llvm::sys::path::append(Err, "stderr.txt");
  posix_spawn_file_actions_t Files;
  posix_spawn_file_actions_init(&Files);
  posix_spawn_file_actions_addopen(&Files, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Files, 1, Out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&Files, 2, Err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  // A process group of its own (killed as one), no blocked signals and
  // default handlers for those this process may catch.
  posix_spawnattr_t Attributes;
  posix_spawnattr_init(&Attributes);
  posix_spawnattr_setflags(&Attributes,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&Attributes, 0);
  sigset_t None, Defaults;
  sigemptyset(&None);
  posix_spawnattr_setsigmask(&Attributes, &None);
  sigemptyset(&Defaults);
  for (int Sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGCHLD, SIGSEGV, SIGBUS,
                  SIGABRT, SIGILL, SIGFPE})
    sigaddset(&Defaults, Sig);
  posix_spawnattr_setsigdefault(&Attributes, &Defaults);

  pid_t Pid = 0;
  int Error = posix_spawn(&Pid, ArgvC.front(), &Files, &Attributes, ArgvC.data(), EnvC.data());
  posix_spawn_file_actions_destroy(&Files);
  posix_spawnattr_destroy(&Attributes);
  if (Error) {
    R.StartFailed = true;
    R.ExitCode = -1;
    R.StartError = std::string("cannot start '") + Argv.front() + "': " + std::strerror(Error);
    return R;
  }
  size_t Slot = rememberGroup(Pid);
  waitWithDeadline(Pid, TimeoutSeconds, R);
  forgetGroup(Slot);
  for (const auto &File : {Err, Out})
    if (auto B = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false))
      R.Output += (*B)->getBuffer().str();
  if (auto B = llvm::MemoryBuffer::getFile(Out))
    R.StandardOutput = (*B)->getBuffer().str();
  return R;
}

ProcessResult runProcess(llvm::ArrayRef<std::string> Argv,
                         llvm::ArrayRef<std::string> EnvOverrides, llvm::StringRef CaptureDir,
                         unsigned TimeoutSeconds) {
  return runProcessWithEnvironment(Argv, inheritedEnvironment(EnvOverrides), CaptureDir,
                                   TimeoutSeconds);
}

void killStartedProcessGroups() {
  for (std::atomic<pid_t> &Group : RunningGroups)
    if (pid_t G = Group.load())
      kill(-G, SIGKILL);
}

} // namespace warpcheck::toolchain
