//===- SourceErrors.h - which kernels compile, whatever the rest does -----===//
//
// Real programs written for nvcc often hold host code clang rejects (runtime
// APIs CUDA 12 removed, `cudaDeviceProp` fields CUDA 13 removed, headers of
// the build machine that are not here). Such an error says nothing about a
// kernel whose own body, and the device functions it calls, compiled
// cleanly: clang's recovery AST keeps every declaration it could build, so
// that kernel is analysed as usual. Only a kernel that itself holds an error
// is left out, and said to be.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_SOURCEERRORS_H
#define WARPCHECK_ANALYSIS_SOURCEERRORS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <string>
#include <vector>

namespace warpcheck::analysis {

/// An error the compiler reported, where it reported it.
struct CompilerError {
  clang::SourceLocation Loc;
  std::string Message;
};

/// The first error inside a kernel, or inside a function it calls.
struct KernelError {
  /// Where: the error's location, a file location.
  clang::SourceLocation Loc;
  /// The function whose body holds it (the kernel or a callee).
  const clang::FunctionDecl *In = nullptr;
  /// The compiler's message when one was reported there, else what the
  /// recovery AST shows ("an expression clang could not compile").
  std::string Message;
};

/// Finds the first error in Kernel's body or in the body of a function it
/// calls, directly or not (calls, constructors, destructors, operators,
/// function references). An error is an expression or declaration clang's
/// error recovery built (RecoveryExpr, `containsErrors()`, an invalid
/// declaration), or one of Reported located inside such a body: a
/// statement dropped by the parser leaves no node, only its diagnostic.
/// Reported may be empty (clang-tidy's plugin cannot see the compiler's
/// diagnostics); the recovery AST alone then decides.
/// DroppedLaunches, when given, receives the kernel launches from device
/// code clang dropped whole (a non-template `child<<<g, b>>>(...)`: only
/// "reference to __global__ function" is left, no node), in the bodies
/// walked; they are accepted as errors, and not followed.
std::optional<KernelError> firstErrorIn(const clang::FunctionDecl *Kernel,
                                        const std::vector<CompilerError> &Reported,
                                        std::vector<clang::SourceLocation> *DroppedLaunches = nullptr);

/// True for what clang 19 leaves of a kernel launched from device code
/// (dynamic parallelism, `child<<<g, b>>>(p, n)` inside a kernel): a
/// RecoveryExpr of the callee's name, every candidate a __global__ function,
/// and the arguments; the launch configuration is gone. firstErrorIn accepts
/// it, and the warp interpreter evaluates its arguments and goes on.
bool isDeviceSideLaunch(const clang::RecoveryExpr *E);

/// Makes a missing header (`#include <helper_cuda.h>` of the build machine,
/// not here) an error of the lines that use it instead of a fatal error of
/// the whole file, as clangd does: the preprocessor skips the #include and
/// parsing goes on, so template kernels are still instantiated and kernels
/// after it still seen. Call it before preprocessing starts.
void continueAfterMissingHeaders(clang::DiagnosticsEngine &Diags);

/// "file.cu:12:7", the file named by its base name.
std::string shortLocation(const clang::SourceManager &SM, clang::SourceLocation Loc);

} // namespace warpcheck::analysis

#endif
