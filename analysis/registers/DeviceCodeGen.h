//===- DeviceCodeGen.h - clang CodeGen to optimized NVPTX IR --------------===//
//
// Internal to analysis/registers/: what lowerForEstimate (RegisterUsage.h)
// shares with the estimate: the kernels of an AST and a diagnostic consumer
// that keeps the first error.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_REGISTERS_DEVICECODEGEN_H
#define WARPCHECK_ANALYSIS_REGISTERS_DEVICECODEGEN_H

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"

#include "llvm/ADT/SmallString.h"

#include <string>
#include <vector>

namespace warpcheck::analysis::registers {

/// Every kernel definition of the AST, instantiations included, and every
/// function template instantiation (the code generator needs to be told
/// about them, as Sema does at the end of a translation unit).
struct KernelCollector : clang::RecursiveASTVisitor<KernelCollector> {
  std::vector<const clang::FunctionDecl *> Kernels;
  std::vector<clang::FunctionDecl *> Instantiations;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitFunctionDecl(clang::FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext() || FD->isInvalidDecl())
      return true;
    if (FD->hasAttr<clang::CUDAGlobalAttr>())
      Kernels.push_back(FD);
    clang::TemplateSpecializationKind K = FD->getTemplateSpecializationKind();
    if (K == clang::TSK_ImplicitInstantiation || K == clang::TSK_ExplicitInstantiationDefinition)
      Instantiations.push_back(FD);
    return true;
  }
};

/// Prints nothing, counts errors (the base class does, and tooling's
/// success is that count) and keeps the first error's text, for the reason
/// an estimate is unavailable.
class FirstErrorConsumer : public clang::DiagnosticConsumer {
public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < clang::DiagnosticsEngine::Error || !Text.empty())
      return;
    llvm::SmallString<128> Message;
    Info.FormatDiagnostic(Message);
    Text = Message.str().str();
  }
  /// ": <first error>", or nothing.
  std::string suffix() const { return Text.empty() ? std::string() : ": " + Text; }

private:
  std::string Text;
};

} // namespace warpcheck::analysis::registers

#endif
