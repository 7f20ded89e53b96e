//===- KernelEntryBuilder.h - the typed kernel entries of one unit --------===//
//
// The translation-unit job turns each analysed launch, and each kernel that
// does not compile, into a KernelEntry (KernelEntries.h) here, once: the
// numbers rounded as reported, the assumptions with their kinds, and the
// registers and occupancy of the launch.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_KERNELENTRYBUILDER_H
#define WARPCHECK_TOOL_KERNELENTRYBUILDER_H

#include "KernelEntries.h"

#include "warpcheck/analysis/AccessReport.h"
#include "warpcheck/analysis/SourceErrors.h"
#include "warpcheck/analysis/TranslationUnitSession.h"

#include "CudaCheckSupport.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Preprocessor.h"

namespace warpcheck::tool {

/// Session: the unit's, whose register counts the entry uses. Arch and PP:
/// the model's architecture and the preprocessor of the translation unit
/// (for the registers: ptxas through the located toolkit, or the
/// estimate). Registers: the options cuda-occupancy is configured with, so
/// that the report and the check give the same registers from the same
/// nvcc run. CompareArchs (the rest of an --arch list): when not empty,
/// OccupancyByArch holds Arch and each of them. Work: the launch's FLOPs
/// and DRAM bytes (the session's work() for K), whose roofline verdict is
/// given on Arch and each of CompareArchs.
KernelEntry kernelLaunchEntry(const analysis::KernelLaunchAnalysis &K,
                              analysis::TranslationUnitSession &Session, llvm::StringRef Arch,
                              const clang::Preprocessor *PP,
                              const clang::tidy::cuda::RegisterCountOptions &Registers,
                              const analysis::LaunchWork &Work,
                              llvm::ArrayRef<std::string> CompareArchs = {});

/// A kernel that does not compile (its body, or a function it calls, holds
/// an error): its one limitation is "not analysed: the kernel does not
/// compile: <message> (k.cu:12:7)".
KernelEntry kernelErrorEntry(const clang::FunctionDecl *Kernel,
                             const analysis::KernelError &Error, clang::ASTContext &Ctx);

/// A kernel whose analysis failed inside warpcheck (Why, from
/// TranslationUnitSession::failureIn): its one limitation is "not analysed:
/// warpcheck could not analyse the kernel: <why>".
KernelEntry kernelFailureEntry(const clang::FunctionDecl *Kernel, const std::string &Why,
                               clang::ASTContext &Ctx);

} // namespace warpcheck::tool

#endif
