//===- CudaTestUnit.h - a CUDA source parsed for a unit test --------------===//
//
// The analysis's unit tests parse small programs of their own with the
// bundled CUDA declarations (tool/include/cuda-minimal), so that they need
// no toolkit, and look their kernels up by name. Host side for the host
// evaluator (it runs main), device side for the warp interpreter (the side
// warpcheck analyses kernels on, tool/Inputs.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TEST_UNIT_CUDATESTUNIT_H
#define WARPCHECK_TEST_UNIT_CUDATESTUNIT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <memory>
#include <string>
#include <vector>

namespace warpcheck::testing {

enum class CudaSide { Host, Device };

/// Code parsed on one side of a CUDA compilation.
/// Extra: more arguments (`-fgpu-rdc`).
inline std::unique_ptr<clang::ASTUnit> parseCuda(const std::string &Code, CudaSide Side,
                                                 const std::vector<std::string> &Extra = {}) {
  std::string Include = std::string(WARPCHECK_SOURCE_DIR) + "/tool/include/cuda-minimal";
  std::vector<std::string> Args = {"-resource-dir=" WARPCHECK_CLANG_RESOURCE_DIR,
                                   "--cuda-gpu-arch=sm_90",
                                   Side == CudaSide::Host ? "--cuda-host-only"
                                                          : "--cuda-device-only",
                                   "-Wno-unknown-cuda-version", "-nocudainc", "-nocudalib",
                                   "--cuda-path=/nonexistent", "-include",
                                   Include + "/warpcheck_cuda_minimal.h", "-isystem", Include};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  return clang::tooling::buildASTFromCodeWithArgs(Code, Args, "unit.cu");
}

/// The __global__ function with a body spelled Name: "k", or "reduce<256>"
/// for a specialization by its one integral argument; null when none.
inline const clang::FunctionDecl *kernelNamed(clang::ASTContext &Ctx, llvm::StringRef Name) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    llvm::StringRef Name;
    const clang::FunctionDecl *Found = nullptr;
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitFunctionDecl(clang::FunctionDecl *FD) {
      if (!FD->hasAttr<clang::CUDAGlobalAttr>() || !FD->doesThisDeclarationHaveABody() ||
          FD->isDependentContext())
        return true;
      std::string Spelled = FD->getNameAsString();
      if (const auto *Args = FD->getTemplateSpecializationArgs())
        if (Args->size() == 1 && Args->get(0).getKind() == clang::TemplateArgument::Integral)
          Spelled += "<" + std::to_string(Args->get(0).getAsIntegral().getExtValue()) + ">";
      if (Spelled == Name)
        Found = FD;
      return true;
    }
  } F;
  F.Name = Name;
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return F.Found;
}

/// The element accesses (array subscripts) of a kernel's body, in source
/// order.
inline std::vector<const clang::ArraySubscriptExpr *>
elementAccessesOf(const clang::FunctionDecl *K) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    std::vector<const clang::ArraySubscriptExpr *> Found;
    bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E) {
      Found.push_back(E);
      return true;
    }
  } F;
  F.TraverseStmt(K->getBody());
  return F.Found;
}

} // namespace warpcheck::testing

#endif
