//===- HostLaunchUnit.h - a host program and its kernels' launches -*- C++ -*-===//
//
// What the host evaluator's tests share: a program parsed host side with
// the bundled CUDA declarations, asked for a kernel's launch shapes as the
// engine asks (LaunchSiteIndex::configsFor).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TEST_UNIT_HOSTLAUNCHUNIT_H
#define WARPCHECK_TEST_UNIT_HOSTLAUNCHUNIT_H

#include "warpcheck/analysis/LaunchConfig.h"

#include "CudaTestUnit.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::testing {

struct HostUnit {
  std::unique_ptr<clang::ASTUnit> AST;
  std::unique_ptr<analysis::LaunchSiteIndex> Index;

  /// OtherUnitCalls: the calls other units make of this one's functions.
  explicit HostUnit(const std::string &Code,
                    const analysis::CrossUnitCalls *OtherUnitCalls = nullptr)
      : AST(parseCuda(Code, CudaSide::Host)) {
    Index = std::make_unique<analysis::LaunchSiteIndex>(AST->getASTContext(), OtherUnitCalls);
  }

  /// The calls this unit makes of functions other units define.
  analysis::CrossUnitCalls callsOfOtherUnits() {
    analysis::LaunchDefaults D;
    return Index->callsOfExternalFunctions(D);
  }

  const clang::FunctionDecl *kernel(llvm::StringRef Name) {
    return kernelNamed(AST->getASTContext(), Name);
  }

  std::vector<analysis::LaunchConfig> configs(llvm::StringRef Kernel,
                                              const std::string &Arch = "sm_90") {
    const clang::FunctionDecl *K = kernel(Kernel);
    EXPECT_TRUE(K) << Kernel.str();
    analysis::LaunchDefaults D;
    D.Arch = Arch;
    return K ? Index->configsFor(K, D) : std::vector<analysis::LaunchConfig>{};
  }
};

inline std::vector<std::string> blocks(const std::vector<analysis::LaunchConfig> &Cs) {
  std::vector<std::string> Out;
  for (const analysis::LaunchConfig &C : Cs)
    Out.push_back(C.Block.str());
  return Out;
}

/// The integer a launch binds to the kernel's parameter Name, if any.
inline std::optional<std::int64_t> integerArgument(const analysis::LaunchConfig &C,
                                                   llvm::StringRef Name) {
  for (const auto &[P, A] : C.Arguments)
    if (P->getName() == Name)
      return A.Integer;
  return std::nullopt;
}

/// The multiple (or, with Residues, the residue) the host code guarantees
/// for each unknown integer argument of the launches of Kernel, by
/// parameter name, in the order of the launches; -1 for an integer.
inline std::vector<std::map<std::string, std::int64_t>>
multiplesPassed(HostUnit &U, llvm::StringRef Kernel, bool Residues = false) {
  std::vector<std::map<std::string, std::int64_t>> Out;
  for (const analysis::LaunchConfig &C : U.configs(Kernel)) {
    std::map<std::string, std::int64_t> ByName;
    for (const auto &[P, A] : C.Arguments)
      ByName[P->getNameAsString()] = A.Integer    ? -1
                                     : Residues ? A.Residue
                                                : A.Multiple.value_or(0);
    Out.push_back(ByName);
  }
  return Out;
}

inline const char *Kernels = "__global__ void k(float *p, int n) {}\n";

} // namespace warpcheck::testing

#endif
