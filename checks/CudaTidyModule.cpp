//===--- CudaTidyModule.cpp - warpcheck's clang-tidy module ---------------===//

#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

#include "AosLayoutCheck.h"
#include "CheckSessions.h"
#include "MissedDataReuseCheck.h"
#include "OccupancyCheck.h"
#include "SharedBankConflictCheck.h"
#include "UncoalescedGlobalAccessCheck.h"

#include <memory>

namespace clang::tidy {
namespace cuda {

class CudaModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &CheckFactories) override {
    // Every check this module makes shares one CheckSessions, through which
    // the checks of a unit share its analyses (CheckSessions.h).
    auto Sessions = std::make_shared<CheckSessions>();
    registerSharing<SharedBankConflictCheck>(CheckFactories, "cuda-shared-bank-conflict",
                                             Sessions);
    registerSharing<UncoalescedGlobalAccessCheck>(
        CheckFactories, "cuda-uncoalesced-global-access", Sessions);
    registerSharing<OccupancyCheck>(CheckFactories, "cuda-occupancy", Sessions);
    registerSharing<AosLayoutCheck>(CheckFactories, "cuda-aos-layout", Sessions);
    registerSharing<MissedDataReuseCheck>(CheckFactories, "cuda-missed-data-reuse", Sessions);
  }

private:
  template <typename Check>
  static void registerSharing(ClangTidyCheckFactories &Factories, StringRef Name,
                              const std::shared_ptr<CheckSessions> &Sessions) {
    Factories.registerCheckFactory(
        Name, [Sessions](StringRef CheckName, ClangTidyContext *Context) {
          return std::make_unique<Check>(CheckName, Context, Sessions);
        });
  }
};

} // namespace cuda

// Register the module using this statically initialized variable.
static ClangTidyModuleRegistry::Add<cuda::CudaModule>
    X("cuda-module", "Adds warpcheck's CUDA memory-access checks.");

// This anchor is used to force the linker to link in the generated object
// file and thus register the module (the warpcheck binary references it).
volatile int WarpcheckCudaModuleAnchorSource = 0;

} // namespace clang::tidy
