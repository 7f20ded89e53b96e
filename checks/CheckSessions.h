//===--- CheckSessions.h - one session per unit for the checks --*- C++ -*-===//
//
// The cuda-* checks of one translation unit ask the same questions: each
// simulates the unit's kernels, two of them need its register counts. They
// share one TranslationUnitSession, which answers each question once.
// clang-tidy creates the checks of a unit as independent objects; the
// module hands each of them the same CheckSessions, through which the
// first check to match a kernel of a unit starts its session and the others
// find it. The checks hold the session, not this object: it lives as long
// as some check of the unit holds it (each drops it at the end of the unit,
// CudaKernelCheck.h), so nothing outlives the AST it describes.
//
// The warpcheck binary parses each unit itself and owns its session (the
// JSON report asks it first); it lends it to the checks that run in the same
// parse with a Loan, so that they reuse its analyses instead of starting a
// second session.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_CHECKS_CHECKSESSIONS_H
#define WARPCHECK_CHECKS_CHECKSESSIONS_H

#include "warpcheck/analysis/TranslationUnitSession.h"

#include "clang/AST/ASTContext.h"

#include <memory>
#include <mutex>
#include <vector>

namespace clang::tidy::cuda {

class CheckSessions {
public:
  /// The session of Ctx's unit: the one lent for it on this thread, else
  /// the one another check of the unit holds, else a new one.
  std::shared_ptr<warpcheck::analysis::TranslationUnitSession> acquire(ASTContext &Ctx);

  /// While a Loan lives, the checks that run on its thread use Session for
  /// Session's unit. Loans nest (the innermost wins).
  class Loan {
  public:
    explicit Loan(std::shared_ptr<warpcheck::analysis::TranslationUnitSession> Session);
    ~Loan();
    Loan(const Loan &) = delete;
    Loan &operator=(const Loan &) = delete;

  private:
    std::shared_ptr<warpcheck::analysis::TranslationUnitSession> Previous;
  };

private:
  /// clangd parses several units at once with one set of check factories:
  /// every unit being checked has its entry.
  std::mutex Mutex;
  std::vector<std::weak_ptr<warpcheck::analysis::TranslationUnitSession>> Live;
};

} // namespace clang::tidy::cuda

#endif
