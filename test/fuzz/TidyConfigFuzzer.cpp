//===- TidyConfigFuzzer.cpp - .clang-tidy files and the checks' options ---===//
//
// A .clang-tidy file belongs to the analysed project: untrusted. It is read
// as clang-tidy reads it (parseConfiguration), then warpcheck's checks are
// made from it as clang-tidy makes them, each reading its options (Arch,
// DefaultBlock, RegisterMode, MaxRegisterCount, MinOccupancy, ...) and
// reporting bad values with configurationDiag, and storing them back. No
// crash, whatever the values.
//
// LLVM's YAML parser recurses once per level of nested flow collections
// (`[[[[...`): deeper than a few thousand levels it exhausts the stack,
// in clang-tidy itself too. The warpcheck binary reads .clang-tidy inside
// the unit's contained run (docs/reliability.md), where that is an error
// by file name; here such inputs are skipped, so that the fuzzer looks for
// faults of its own.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"
#include "clang-tidy/ClangTidyOptions.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticOptions.h"

#include <cstdint>

using namespace clang;
using namespace clang::tidy;

namespace clang::tidy {
// The cuda module's anchor: links it in (as the warpcheck binary does).
extern volatile int WarpcheckCudaModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED CudaModuleAnchorDestination =
    WarpcheckCudaModuleAnchorSource;
} // namespace clang::tidy

namespace {

/// The deepest nesting of YAML flow collections in Text.
unsigned flowNesting(llvm::StringRef Text) {
  unsigned Depth = 0, Deepest = 0;
  for (char C : Text) {
    if (C == '[' || C == '{')
      Deepest = std::max(Deepest, ++Depth);
    else if ((C == ']' || C == '}') && Depth > 0)
      --Depth;
  }
  return Deepest;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data, std::size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  if (flowNesting(Text) > 200)
    return 0;
  llvm::ErrorOr<ClangTidyOptions> Parsed =
      parseConfiguration(llvm::MemoryBufferRef(Text, ".clang-tidy"));
  if (!Parsed)
    return 0;
  ClangTidyOptions Options = ClangTidyOptions::getDefaults().merge(*Parsed, 0);
  Options.Checks = "-*,cuda-*";
  ClangTidyContext Context(
      std::make_unique<DefaultOptionsProvider>(ClangTidyGlobalOptions(), Options));
  IgnoringDiagConsumer Ignore;
  DiagnosticsEngine Diags(new DiagnosticIDs(), new DiagnosticOptions(), &Ignore,
                          /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(&Diags);
  ClangTidyCheckFactories Factories;
  for (const auto &Module : ClangTidyModuleRegistry::entries())
    Module.instantiate()->addCheckFactories(Factories);
  // Every cuda-* check the module registers is made, whatever the options.
  std::size_t Registered = 0;
  for (const auto &Factory : Factories)
    Registered += llvm::StringRef(Factory.getKey()).starts_with("cuda-");
  std::vector<std::unique_ptr<ClangTidyCheck>> Checks = Factories.createChecks(&Context);
  if (Registered == 0 || Checks.size() != Registered)
    warpcheck::fuzz::invariantBroken("the cuda-* checks were not all made",
                                     std::to_string(Checks.size()));
  for (const std::unique_ptr<ClangTidyCheck> &Check : Checks) {
    ClangTidyOptions::OptionMap Stored;
    Check->storeOptions(Stored);
  }
  return 0;
}
