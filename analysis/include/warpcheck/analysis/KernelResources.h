//===- KernelResources.h - what a kernel asks of an SM, from the AST ------===//
//
// The inputs of the occupancy calculator (model/Occupancy.h) for one kernel
// and launch shape:
//  - registers per thread (RegisterUsage.h: ptxas, or the estimate),
//  - static shared memory: the __shared__ variables declared in the kernel,
//    in the device functions it calls (transitively) and at namespace scope
//    when it uses them; ptxas's own figure ("N bytes smem") replaces the
//    AST's sum when ptxas ran,
//  - dynamic shared memory: the launch's third <<<>>> argument,
//  - the block size of the launch,
//  - __launch_bounds__ and -maxrregcount, which cap the registers.
//
// occupancyFor() puts them together for the JSON report and the
// cuda-occupancy check.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_KERNELRESOURCES_H
#define WARPCHECK_ANALYSIS_KERNELRESOURCES_H

#include "warpcheck/analysis/LaunchBounds.h"
#include "warpcheck/analysis/LaunchConfig.h"
#include "warpcheck/analysis/RegisterUsage.h"
#include "warpcheck/model/Arch.h"
#include "warpcheck/model/Occupancy.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::analysis {

/// One __shared__ variable that counts for a kernel.
struct SharedVariable {
  const clang::VarDecl *Var = nullptr;
  std::uint64_t Bytes = 0;
  std::uint64_t Alignment = 1;
  /// The function it is declared in; null at namespace scope.
  const clang::FunctionDecl *DeclaredIn = nullptr;
};

/// Static shared memory of a kernel, from the AST.
struct StaticSharedMemory {
  /// Sum of the variables' sizes, each placed at its alignment, in the order
  /// they are met (ptxas may drop variables it finds unused).
  std::uint64_t Bytes = 0;
  std::vector<SharedVariable> Variables;
  /// The kernel (or a function it calls) uses `extern __shared__` memory:
  /// the launch's dynamic size matters.
  bool UsesDynamicShared = false;
  /// Variables whose size the AST does not give (incomplete or dependent
  /// types), by name.
  std::vector<std::string> Unsized;
};

/// The __shared__ variables a kernel uses: declared in its body, in every
/// function it calls (directly or through other calls, constructors and
/// operators included), and namespace-scope ones it refers to.
StaticSharedMemory staticSharedMemory(const clang::FunctionDecl *Kernel,
                                      clang::ASTContext &Ctx);

/// What the JSON report carries for one kernel launch:
///   "registers", "registers_source", "shared_bytes_static",
///   "shared_bytes_dynamic", "occupancy": {"arch", "active_blocks_per_sm",
///   "active_warps_per_sm", "theoretical", "limiter"}.
struct KernelOccupancyReport {
  unsigned Registers = 0;
  /// "ptxas" or "estimate".
  std::string RegistersSource;
  std::uint64_t SharedBytesStatic = 0;
  std::uint64_t SharedBytesDynamic = 0;
  struct Figures {
    std::string Arch;
    unsigned ActiveBlocksPerSM = 0;
    unsigned ActiveWarpsPerSM = 0;
    /// Active warps / maximum warps per SM, 0 to 1.
    double Theoretical = 0;
    /// model::limiterName: "warps", "blocks", "registers", "shared memory",
    /// "barriers", "invalid".
    std::string Limiter;
  } Occupancy;

  // Details for the check and for notes; not part of the JSON contract.
  /// Where SharedBytesStatic comes from: "ptxas" or "ast".
  std::string SharedBytesStaticSource;
  /// The dynamic size was not known at the launch (0 assumed) although the
  /// kernel uses extern __shared__ memory.
  bool DynamicSharedUnknown = false;
  FunctionRegisters RegisterDetails;
  model::KernelResources Resources;
  model::OccupancyResult Result;
  const model::ArchSpec *ArchSpec = nullptr;
  std::optional<LaunchBounds> Bounds;
  /// One sentence each: what the numbers assume (an estimated register
  /// count, why ptxas was not used, an unknown dynamic size).
  std::vector<std::string> Assumptions;
};

class TranslationUnitSession;

/// The occupancy of Kernel launched as Launch on Options.Arch (sm_90 when
/// empty), with registers from the session's RegisterUsage under Options
/// (Session is the unit's, TranslationUnitSession.h). nullopt when the
/// architecture is unknown or no register count can be had; WhyNot (when
/// given) then says which, with the register source's reason.
/// DefaultDynamicSharedBytes: the dynamic shared memory assumed (and said
/// so) when the launch does not give it and the kernel uses extern
/// __shared__ memory; 0 when absent.
std::optional<KernelOccupancyReport>
occupancyFor(const clang::FunctionDecl *Kernel, const LaunchConfig &Launch,
             TranslationUnitSession &Session, const RegisterOptions &Options,
             std::optional<std::uint64_t> DefaultDynamicSharedBytes = std::nullopt,
             std::string *WhyNot = nullptr);

} // namespace warpcheck::analysis

#endif
