//===--- CudaTidyModule.cpp - warpcheck's clang-tidy module ---------------===//

#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

#include "SharedBankConflictCheck.h"
#include "OccupancyCheck.h"
#include "UncoalescedGlobalAccessCheck.h"

namespace clang::tidy {
namespace cuda {

class CudaModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &CheckFactories) override {
    CheckFactories.registerCheck<SharedBankConflictCheck>(
        "cuda-shared-bank-conflict");
    CheckFactories.registerCheck<UncoalescedGlobalAccessCheck>(
        "cuda-uncoalesced-global-access");
    CheckFactories.registerCheck<OccupancyCheck>("cuda-occupancy");
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
