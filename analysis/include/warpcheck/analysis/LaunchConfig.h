//===- LaunchConfig.h - the launch shape a kernel is analysed with --------===//
//
// Coalescing and bank conflicts depend on how threads are laid out in warps,
// so every analysis runs under one launch configuration, and every
// diagnostic says which one and where it came from.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_LAUNCHCONFIG_H
#define WARPCHECK_ANALYSIS_LAUNCHCONFIG_H

#include "warpcheck/model/Arch.h"
#include "warpcheck/model/Occupancy.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::analysis {

struct Dim3 {
  std::uint32_t X = 1, Y = 1, Z = 1;
  std::uint64_t count() const { return std::uint64_t(X) * Y * Z; }
  bool operator==(const Dim3 &O) const { return X == O.X && Y == O.Y && Z == O.Z; }
  std::string str() const; // "(32, 8, 1)"
};

/// Where a launch configuration came from, most trustworthy first.
enum class LaunchSource {
  LaunchSite,   ///< kernel<<<grid, block, smem>>>(...) or cudaLaunchKernel.
  Annotation,   ///< a `// warpcheck: block(...)` comment above the kernel.
  Inferred,     ///< the kernel's own code: blockDim compared with a
                ///< constant, __shared__ dimensions indexed by threadIdx.
  LaunchBounds, ///< __launch_bounds__(N): N threads assumed, as (N, 1, 1) or
                ///< spread over the axes the kernel reads.
  Default,      ///< the configured default block (spread over the axes the
                ///< kernel reads).
};

/// A kernel argument value known at the launch site.
struct BoundArgument {
  /// Integer value of a scalar parameter.
  std::optional<std::int64_t> Integer;
  /// Byte offset of a pointer argument from its allocation (d_in + 1 -> 4).
  std::optional<std::int64_t> PointerOffsetBytes;
  /// An integer known only to be Residue more than a multiple of this (a
  /// pitch in elements, `pitch / sizeof(short)`: 256, Residue 0; a size
  /// rounded to 32 less a halo of 8: 32, Residue 24): the values it is
  /// simulated with are.
  std::optional<std::int64_t> Multiple;
  std::int64_t Residue = 0;
  /// An integer the launch passes as its own block's extent along this axis
  /// (0 = x, 1 = y, 2 = z): `kernel<<<grid, block>>>(..., block.x)` with the
  /// block read at run time. Whatever shape the analysis then assumes, the
  /// parameter has that shape's extent (BlockExtentArguments.h).
  std::optional<unsigned> BlockExtentAxis;
  /// An integer the launch's host code leaves open (a command-line option's
  /// value) but passes as this when the program runs without command-line
  /// arguments, as the launch's shape is there (`dimsA.x`, 320 unless
  /// `-wA=` is given): the primary simulation takes it, and the numbers
  /// stated are those of that run, the sweep's range beside them.
  std::optional<std::int64_t> CommandLineDefault;
};

/// A launch the architecture cannot run at all (a block over 1024 threads,
/// a zero extent, more dynamic shared memory than a block may have): it
/// fails with cudaErrorInvalidConfiguration and runs no thread.
struct InvalidLaunch {
  const clang::Expr *Site = nullptr;
  std::string Location; ///< "main.cu:7"
  /// Which limit it breaks: "the block (2048, 1, 1) has 2048 threads along
  /// x, over the 1024 a block may have along x on sm_90".
  std::string Reason;
};

struct LaunchConfig {
  Dim3 Block;
  /// Grid dimensions when known; otherwise an assumed grid (GridKnown false).
  Dim3 Grid;
  bool GridKnown = false;
  std::optional<std::uint64_t> DynamicSharedBytes;
  LaunchSource Source = LaunchSource::Default;
  /// Human readable origin: "the launch at main.cu:40", "__launch_bounds__(256)",
  /// "the annotation at k.cu:3", "the default block".
  std::string Description;
  /// file:line of the launch site or annotation, empty otherwise.
  std::string Location;
  /// Kernel parameter -> value known at this launch site.
  std::map<const clang::ParmVarDecl *, BoundArgument> Arguments;
  /// What led the host code to this launch with these values, outermost
  /// first: the calls ("'run' called at main.cu:60"), the loop iterations
  /// ("the loop at main.cu:58 with bs = 64") and the cases of a switch
  /// ("the case 256 of the switch at main.cu:70"). Empty for a launch in
  /// the straight-line code of the function the host evaluation ran.
  std::vector<std::string> Context;
  /// For a launch on a way of host branches (Context ends with them):
  /// whether the program run without command-line arguments goes those
  /// ways (true), or one of them is a way only an option takes (false:
  /// "the branch at transpose.cu:316 taken", `-dimX=` given). Unset off
  /// branches or where no main was run.
  std::optional<bool> WithoutArguments;
  /// For a shape that is not a launch site's (an annotation,
  /// __launch_bounds__, the default block): why each launch of the kernel
  /// could not be evaluated, one sentence each ("the launch at main.cu:120
  /// uses 'block_size', a parameter of 'run' whose callers pass ...").
  /// Empty when the source launches the kernel nowhere.
  std::vector<std::string> Unevaluated;
  /// The launches of the kernel that cannot run (also among Unevaluated,
  /// which says why each launch has no shape), for a diagnostic at each.
  std::vector<InvalidLaunch> CannotRun;
  /// A `// warpcheck:` annotation above the kernel that is not understood
  /// ("the annotation at k.cu:3 is not understood (unknown key 'blok'); ..."),
  /// and where it is; empty when there is none. It is reported, never
  /// skipped for another annotation.
  std::string AnnotationProblem;
  clang::SourceLocation AnnotationProblemAt;

  /// Short form used in JSON: "launch", "annotation", "inferred",
  /// "launch_bounds", "default".
  const char *sourceName() const;
};

/// A launch one translation unit evaluated for a kernel it only declares:
/// plain data, so that the unit defining the kernel can use it (a compile
/// database's units are parsed one at a time).
struct CrossUnitLaunch {
  Dim3 Block, Grid;
  bool GridKnown = false;
  std::optional<std::uint64_t> DynamicSharedBytes;
  std::string Location; ///< "main.cu:40"
  std::vector<std::string> Context;
  /// Parameter index -> value bound at the launch.
  std::map<unsigned, BoundArgument> Arguments;
};

/// Kernel (by mangled name, which names one kernel across units) -> the
/// launches other units make of it, in input order.
using CrossUnitLaunches = std::map<std::string, std::vector<CrossUnitLaunch>>;

/// A call one translation unit evaluated of a host function it only
/// declares (main.cpp calls `bitonicSort(..., arrayLength, dir)`, defined in
/// bitonicSort.cu, where it launches): the arguments it passes, so that the
/// defining unit runs the function with them instead of with unknown
/// parameters. Plain data, like CrossUnitLaunch.
struct CrossUnitCall {
  std::string Location; ///< "main.cpp:111"
  /// The calls, loop iterations and cases that led to the call in its unit.
  std::vector<std::string> Context;
  /// Parameter index -> value passed (integers only; the others unknown).
  std::map<unsigned, BoundArgument> Arguments;
  /// A method's call (test.cpp's `PiEstimator<Real> estimator(numSims,
  /// device, threadBlockSize); estimator();`, the constructor and
  /// operator() defined in piestimator.cu): the constructor that built its
  /// object (by crossUnitName; empty when none is known) with the
  /// arguments passed to it, and the object's integer fields the calling
  /// unit knows, by name.
  std::string ObjectConstructor;
  std::map<unsigned, BoundArgument> ObjectConstructorArguments;
  std::map<std::string, std::int64_t> ObjectFields;
  /// Made by a run of main without command-line arguments: the callee's
  /// launches are the ones such a run makes (LaunchConfig::WithoutArguments).
  bool WithoutArguments = false;
};

/// Host function (by mangled name) -> the calls other units make of it.
using CrossUnitCalls = std::map<std::string, std::vector<CrossUnitCall>>;

/// The name a kernel (or any function) has across translation units: its
/// mangled name, or its name for extern "C".
std::string crossUnitName(const clang::FunctionDecl *Kernel);

struct LaunchDefaults {
  Dim3 Block{256, 1, 1};
  /// The target architecture, whose limits a launch must respect and whose
  /// properties host code reads (cudaDeviceProp::maxThreadsPerBlock).
  std::string Arch = std::string(model::DefaultArchName);
  /// Launches other translation units make of this unit's kernels (the
  /// warpcheck binary over several inputs); used when this unit has no
  /// launch of the kernel it can evaluate. Not owned; may be null.
  const CrossUnitLaunches *OtherUnits = nullptr;
};

/// What a kernel asks of an SM, for the runtime's occupancy functions host
/// code calls to size its launches (cudaOccupancyMaxPotentialBlockSize,
/// cudaOccupancyMaxActiveBlocksPerMultiprocessor): registers per thread
/// and static shared memory as the occupancy report has them, and
/// __launch_bounds__'s thread count (cudaFuncAttributes::maxThreadsPerBlock;
/// 0 when the kernel has none).
struct KernelOccupancyInputs {
  model::KernelResources Resources;
  unsigned MaxThreadsPerBlock = 0;
  /// "ptxas" or "estimate": where the register count comes from.
  std::string RegistersSource;
};
/// The inputs for one kernel, or nullopt with WhyNot set.
using KernelOccupancyInputsFn = std::function<std::optional<KernelOccupancyInputs>(
    const clang::FunctionDecl *Kernel, std::string &WhyNot)>;

namespace host {
struct LaunchSite;
class HostEvaluator;
} // namespace host

/// Every kernel launch of a translation unit, found once.
class LaunchSiteIndex {
public:
  /// OtherUnitCalls: the calls other translation units make of this unit's
  /// host functions (not owned; may be null): a function that no function
  /// of this unit calls is run once per such call, with the arguments it
  /// passes, instead of once with unknown parameters.
  /// KernelOccupancy: what a kernel asks of an SM, for host code that
  /// sizes its launches with the runtime's occupancy functions (null: their
  /// results are unknown).
  explicit LaunchSiteIndex(clang::ASTContext &Ctx,
                           const CrossUnitCalls *OtherUnitCalls = nullptr,
                           KernelOccupancyInputsFn KernelOccupancy = nullptr);
  ~LaunchSiteIndex();

  /// All launch configurations of Kernel, in source order, one per distinct
  /// shape and argument binding, as the host code reaches its launches
  /// (host/HostEvaluator.h: from main, and from every other function that
  /// launches); falls back to the annotation, __launch_bounds__ and finally
  /// the default block, saying why no launch could be used.
  std::vector<LaunchConfig> configsFor(const clang::FunctionDecl *Kernel,
                                       const LaunchDefaults &Defaults) const;

  /// The launches this unit evaluates of kernels it declares but does not
  /// define, keyed by crossUnitName.
  CrossUnitLaunches launchesOfExternalKernels(const LaunchDefaults &Defaults) const;

  /// The calls this unit evaluates of host functions it declares but does
  /// not define (their definitions may launch in another unit), keyed by
  /// crossUnitName.
  CrossUnitCalls callsOfExternalFunctions(const LaunchDefaults &Defaults) const;
  /// The functions (crossUnitName) that launch and that no function of this
  /// unit calls, which the host evaluation ran with unknown parameters: the
  /// calls another unit makes of them would bind those.
  std::vector<std::string> launchingFunctionsWithoutCaller(const LaunchDefaults &Defaults) const;

private:
  /// The host evaluation for one target architecture (and the calls other
  /// units make of this unit's functions), run once.
  const host::HostEvaluator &hostRun(const LaunchDefaults &Defaults) const;
  /// main run with no command-line arguments (argc 1), or null when this
  /// unit has no main taking them.
  const host::HostEvaluator *runWithoutArguments(const LaunchDefaults &Defaults) const;

  clang::ASTContext &Ctx;
  const CrossUnitCalls *OtherUnitCalls;
  KernelOccupancyInputsFn KernelOccupancy;
  /// In source order.
  std::vector<std::unique_ptr<host::LaunchSite>> Sites;
  std::map<const clang::Expr *, const host::LaunchSite *> SiteByCall;
  /// Host functions that call a function another unit defines, in source
  /// order: their calls are that unit's launches (hostRun runs them).
  std::vector<const clang::FunctionDecl *> Forwarders;
  /// Host function -> the functions that call it.
  std::map<const clang::FunctionDecl *, std::vector<const clang::FunctionDecl *>> Callers;
  const clang::FunctionDecl *Main = nullptr;
  mutable std::map<std::string, std::unique_ptr<host::HostEvaluator>> Runs;
  /// Per architecture: main run without command-line arguments.
  mutable std::map<std::string, std::unique_ptr<host::HostEvaluator>> ArgumentlessRuns;
  /// Per architecture: the roots hostRun ran with unknown parameters.
  mutable std::map<std::string, std::vector<const clang::FunctionDecl *>> UnboundRoots;
  friend class LaunchSiteCollector;
};

/// Parses "32", "32,8", "(32, 8, 1)" into a Dim3. Returns nullopt if malformed.
std::optional<Dim3> parseDim3(llvm::StringRef Text);

} // namespace warpcheck::analysis

#endif
