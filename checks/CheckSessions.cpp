//===--- CheckSessions.cpp - one session per unit for the cuda-* checks ---===//

#include "CheckSessions.h"

#include <algorithm>
#include <utility>

using warpcheck::analysis::TranslationUnitSession;

namespace clang::tidy::cuda {

namespace {
/// The session lent to the checks running on this thread, if any.
thread_local std::shared_ptr<TranslationUnitSession> LentSession;
} // namespace

CheckSessions::Loan::Loan(std::shared_ptr<TranslationUnitSession> Session)
    : Previous(std::exchange(LentSession, std::move(Session))) {}

CheckSessions::Loan::~Loan() { LentSession = std::move(Previous); }

std::shared_ptr<TranslationUnitSession> CheckSessions::acquire(ASTContext &Ctx) {
  if (LentSession && &LentSession->context() == &Ctx)
    return LentSession;
  std::lock_guard<std::mutex> Lock(Mutex);
  // A session whose checks all dropped it is gone: its AST may be too, and
  // a new AST may sit at the same address.
  Live.erase(std::remove_if(Live.begin(), Live.end(),
                            [](const auto &W) { return W.expired(); }),
             Live.end());
  for (const std::weak_ptr<TranslationUnitSession> &W : Live)
    if (std::shared_ptr<TranslationUnitSession> S = W.lock(); S && &S->context() == &Ctx)
      return S;
  auto Session = std::make_shared<TranslationUnitSession>(Ctx);
  Live.push_back(Session);
  return Session;
}

} // namespace clang::tidy::cuda
