//===- ContainedRun.cpp - running analysis work that may fail badly -------===//

#include "warpcheck/analysis/ContainedRun.h"

#include "llvm/Support/CrashRecoveryContext.h"

#include <array>
#include <atomic>
#include <csignal>
#include <cstdint>
#include <mutex>
#include <pthread.h>
#include <sys/mman.h>

namespace warpcheck::analysis {

namespace {

/// Below each contained run's stack, a guard of this size that is never
/// mapped: a function whose frame is larger than the guard could step over
/// it into other memory, and no function of clang or of the analysis has a
/// frame near 1 MB.
constexpr std::size_t GuardBytes = std::size_t(1) << 20;
/// The alternate stack the fault handler runs on: the thread's own stack is
/// used up when it overflows.
constexpr std::size_t SignalStackBytes = std::size_t(64) << 10;

/// The guard of each contained run now running, for the fault handler (a
/// signal handler may read it: plain atomics, no allocation, no lock). More
/// runs at once than slots only means that the extra ones report a stack
/// overflow as a fault.
struct GuardSlot {
  std::atomic<std::uintptr_t> Owner{0}; ///< pthread_self() of the run's thread
  std::atomic<std::uintptr_t> Low{0}, High{0};
  std::atomic<bool> Exhausted{false};
};
std::array<GuardSlot, 64> Guards;

constexpr std::array<int, 2> WatchedSignals = {SIGSEGV, SIGBUS};
struct sigaction PreviousActions[WatchedSignals.size()];

/// Passes a fault that is not a contained run's stack overflow to the
/// handler that was there before (LLVM's crash recovery, which returns to
/// the RunSafely of the fault's thread, or ends the process).
void forwardFault(int Sig, siginfo_t *Info, void *Context) {
  for (std::size_t I = 0; I < WatchedSignals.size(); ++I) {
    if (WatchedSignals[I] != Sig)
      continue;
    const struct sigaction &Previous = PreviousActions[I];
    if (Previous.sa_flags & SA_SIGINFO) {
      Previous.sa_sigaction(Sig, Info, Context);
      return;
    }
    if (Previous.sa_handler != SIG_DFL && Previous.sa_handler != SIG_IGN) {
      Previous.sa_handler(Sig);
      return;
    }
  }
  // Nothing to pass it to: the default action (the process ends), once the
  // handler returns.
  signal(Sig, SIG_DFL);
  raise(Sig);
}

void onFault(int Sig, siginfo_t *Info, void *Context) {
  // si_code > 0: the processor's fault, not a signal some process sent.
  if (Info && Info->si_code > 0) {
    auto Address = reinterpret_cast<std::uintptr_t>(Info->si_addr);
    auto Self = static_cast<std::uintptr_t>(pthread_self());
    for (GuardSlot &G : Guards) {
      if (G.Owner.load() != Self)
        continue;
      // In the guard, or (a large frame) just below it.
      if (Address + GuardBytes >= G.Low.load() && Address < G.High.load()) {
        G.Exhausted.store(true);
        if (llvm::CrashRecoveryContext *CRC = llvm::CrashRecoveryContext::GetCurrent()) {
          sigset_t Mask;
          sigemptyset(&Mask);
          sigaddset(&Mask, Sig);
          pthread_sigmask(SIG_UNBLOCK, &Mask, nullptr);
          CRC->HandleExit(128 + Sig); // back to the run's RunSafely
        }
      }
      break;
    }
  }
  forwardFault(Sig, Info, Context);
}

/// LLVM's crash recovery, and above it (so that it sees a fault first, on
/// the alternate stack) the handler that tells a stack overflow.
void installHandlers() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    llvm::CrashRecoveryContext::Enable();
    struct sigaction Action = {};
    Action.sa_sigaction = onFault;
    Action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&Action.sa_mask);
    for (std::size_t I = 0; I < WatchedSignals.size(); ++I)
      sigaction(WatchedSignals[I], &Action, &PreviousActions[I]);
  });
}

struct Run {
  llvm::function_ref<void()> Fn;
  GuardSlot *Guard = nullptr;
  bool Ok = false;
  int RetCode = 0;
  bool Exhausted = false;
};

void *runThread(void *P) {
  Run &R = *static_cast<Run *>(P);
  void *SignalStack = mmap(nullptr, SignalStackBytes, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  stack_t Alternate = {}, Previous = {};
  if (SignalStack != MAP_FAILED) {
    Alternate.ss_sp = SignalStack;
    Alternate.ss_size = SignalStackBytes;
    sigaltstack(&Alternate, &Previous);
  }
  if (R.Guard)
    R.Guard->Owner.store(static_cast<std::uintptr_t>(pthread_self()));
  llvm::CrashRecoveryContext CRC;
  R.Ok = CRC.RunSafely(R.Fn);
  R.RetCode = CRC.RetCode;
  if (R.Guard) {
    R.Exhausted = R.Guard->Exhausted.load();
    R.Guard->Owner.store(0);
  }
  if (SignalStack != MAP_FAILED) {
    stack_t Off = {};
    Off.ss_flags = SS_DISABLE;
    sigaltstack(&Off, nullptr);
    munmap(SignalStack, SignalStackBytes);
  }
  return nullptr;
}

std::string signalPhrase(int Sig) {
  switch (Sig) {
  case SIGSEGV:
    return "a segmentation fault (SIGSEGV)";
  case SIGBUS:
    return "a bus error (SIGBUS)";
  case SIGILL:
    return "an illegal instruction (SIGILL)";
  case SIGFPE:
    return "an arithmetic exception (SIGFPE)";
  case SIGABRT:
    return "an abort (SIGABRT: a failed assertion or a fatal error)";
  case SIGTRAP:
    return "a trap (SIGTRAP)";
  default:
    return "signal " + std::to_string(Sig);
  }
}

/// What a finished run says.
std::optional<RunFailure> outcome(const Run &R, std::size_t StackBytes) {
  if (R.Ok)
    return std::nullopt;
  if (R.Exhausted)
    return RunFailure{RunFailure::Cause::StackExhausted,
                      "the code is nested too deeply (it used up the " +
                          std::to_string(StackBytes >> 20) + " MB of stack the analysis has)"};
  if (llvm::CrashRecoveryContext::isCrash(R.RetCode))
    return RunFailure{RunFailure::Cause::Crash, signalPhrase(R.RetCode - 128)};
  return RunFailure{RunFailure::Cause::Crash,
                    "a fatal error (exit code " + std::to_string(R.RetCode) + ")"};
}

/// No stack or thread of its own could be had (the address space is
/// exhausted, or under a limit): the run is still contained, on the
/// caller's stack, where only an overflow is not caught.
std::optional<RunFailure> runOnThisThread(llvm::function_ref<void()> Fn) {
  Run R{Fn};
  llvm::CrashRecoveryContext CRC;
  R.Ok = CRC.RunSafely(Fn);
  R.RetCode = CRC.RetCode;
  return outcome(R, 0);
}

/// A stack mapped ahead of its runs (reserveStack), with its guard.
struct ReservedStack {
  std::size_t StackBytes = 0;
  void *Base = nullptr;
  std::atomic<bool> InUse{false};
};
ReservedStack Reserved;

/// Maps a stack of StackBytes with the guard below it, so that the guard's
/// place is known exactly; null when the address space has no room.
void *mapStack(std::size_t StackBytes) {
  std::size_t Mapped = StackBytes + GuardBytes;
  void *Base = mmap(nullptr, Mapped, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                    -1, 0);
  if (Base == MAP_FAILED)
    return nullptr;
  if (mprotect(static_cast<char *>(Base) + GuardBytes, StackBytes, PROT_READ | PROT_WRITE) !=
      0) {
    munmap(Base, Mapped);
    return nullptr;
  }
  return Base;
}

} // namespace

bool reserveStack(std::size_t StackBytes) {
  if (Reserved.Base)
    return Reserved.StackBytes == StackBytes;
  Reserved.Base = mapStack(StackBytes);
  Reserved.StackBytes = Reserved.Base ? StackBytes : 0;
  return Reserved.Base != nullptr;
}

std::optional<RunFailure> runContained(llvm::function_ref<void()> Fn, std::size_t StackBytes) {
  installHandlers();
  std::size_t Mapped = StackBytes + GuardBytes;
  // The stack reserved for runs of this size, when no other run has it.
  bool FromReserve = false;
  if (Reserved.Base && Reserved.StackBytes == StackBytes) {
    bool Free = false;
    FromReserve = Reserved.InUse.compare_exchange_strong(Free, true);
  }
  void *Base = FromReserve ? Reserved.Base : mapStack(StackBytes);
  if (!Base)
    return runOnThisThread(Fn);
  auto Unmap = [&] {
    if (FromReserve)
      Reserved.InUse.store(false);
    else
      munmap(Base, Mapped);
  };
  char *Stack = static_cast<char *>(Base) + GuardBytes;
  Run R{Fn};
  for (GuardSlot &G : Guards) {
    std::uintptr_t Free = 0;
    // Claimed with a placeholder owner; the thread puts its own id.
    if (G.Owner.compare_exchange_strong(Free, ~std::uintptr_t(0))) {
      G.Low.store(reinterpret_cast<std::uintptr_t>(Base));
      G.High.store(reinterpret_cast<std::uintptr_t>(Stack));
      G.Exhausted.store(false);
      R.Guard = &G;
      break;
    }
  }
  pthread_attr_t Attributes;
  pthread_attr_init(&Attributes);
  pthread_attr_setstack(&Attributes, Stack, StackBytes);
  pthread_t Thread;
  int Error = pthread_create(&Thread, &Attributes, runThread, &R);
  pthread_attr_destroy(&Attributes);
  if (Error == 0)
    pthread_join(Thread, nullptr);
  if (R.Guard)
    R.Guard->Owner.store(0);
  Unmap();
  if (Error != 0)
    return runOnThisThread(Fn);
  return outcome(R, StackBytes);
}

} // namespace warpcheck::analysis
