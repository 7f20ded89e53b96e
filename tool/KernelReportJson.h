//===- KernelReportJson.h - the --format=json contract for kernels --------===//
//
// {"name", "file", "line", "launch": {"block": [x, y, z], "source", ...},
//  "accesses": [{"file", "line", "column", "space", "op", "bytes_per_lane",
//  "sectors_per_request", "ideal_sectors_per_request", "lines_per_request",
//  "wavefronts_per_request", "efficiency", "status", ...}]}
// Fields are only ever added, never renamed: scripts depend on them.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_KERNELREPORTJSON_H
#define WARPCHECK_TOOL_KERNELREPORTJSON_H

#include "warpcheck/analysis/AccessReport.h"
#include "warpcheck/analysis/RegisterUsage.h"
#include "warpcheck/analysis/SourceErrors.h"
#include "warpcheck/analysis/TranslationUnitSession.h"

#include "CudaCheckSupport.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/JSON.h"

namespace warpcheck::tool {

/// Session: the unit's, whose register counts the report uses. Arch and PP:
/// the model's architecture and the preprocessor of the
/// translation unit (for the registers: ptxas through the located toolkit,
/// or the estimate). Registers: the options cuda-occupancy is configured
/// with, so that the report and the check give the same registers from the
/// same nvcc run. CompareArchs (the rest of an --arch list): when not empty,
/// "occupancy_by_arch" lists Arch and each of them: {"arch", "registers",
/// "registers_source", "active_blocks_per_sm", "active_warps_per_sm",
/// "theoretical", "limiter"}.
llvm::json::Object kernelLaunchToJson(const analysis::KernelLaunchAnalysis &K,
                                      analysis::TranslationUnitSession &Session,
                                      llvm::StringRef Arch,
                                      const clang::Preprocessor *PP,
                                      const clang::tidy::cuda::RegisterCountOptions &Registers,
                                      llvm::ArrayRef<std::string> CompareArchs = {});

/// A kernel that does not compile (its body, or a function it calls, holds
/// an error): {"name", "file", "line", "status": "error", "error": {"file",
/// "line", "column", "message"[, "function"]}, "launch": null, "accesses":
/// [], "limitations": [kernelErrorSentence]}.
llvm::json::Object kernelErrorToJson(const clang::FunctionDecl *Kernel,
                                     const analysis::KernelError &Error, clang::ASTContext &Ctx);

/// "not analysed: the kernel does not compile: <message> (k.cu:12:7)".
std::string kernelErrorSentence(const clang::FunctionDecl *Kernel,
                                const analysis::KernelError &Error,
                                const clang::SourceManager &SM);

} // namespace warpcheck::tool

#endif
