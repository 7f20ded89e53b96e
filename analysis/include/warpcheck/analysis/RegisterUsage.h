//===- RegisterUsage.h - registers per thread of each kernel --------------===//
//
// Occupancy depends on how many registers ptxas gives each thread of a
// kernel (cudaFuncAttributes::numRegs). Two sources:
//
//  ptxas     exact: the translation unit's device code is compiled for the
//            target architecture by the CUDA toolkit's own nvcc, as a build
//            would (`nvcc -cubin -arch=sm_XX -Xptxas -v`), and ptxas's
//            "Used N registers" lines are read back. Seconds per
//            translation unit, so results are cached on disk by content.
//  estimate  no program is started: clang's code generator lowers the
//            kernel from the AST to LLVM IR for NVPTX, LLVM's -O3 pipeline
//            runs on it, and the largest number of 32-bit values live at
//            once is turned into a register count (calibrated against
//            ptxas; bench/register_estimator.py measures the error).
//
// Security. The only program ever started is <toolkit>/bin/nvcc of a
// toolkit the caller located itself (RegisterOptions::ToolkitRoot; never a
// PATH search, never a name from a compile database), with an argument
// vector and a time limit; the guards, the flags that survive and the
// command line are the toolchain layer's (warpcheck/toolchain/
// NvccInvocation.h, ProcessRunner.h). The source file reaches nvcc through
// `#include "<path>"` in a wrapper file in a private temporary folder, so
// its name never appears on a command line.
//
// Implemented in analysis/registers/, one file per part: RegisterNames.cpp
// (names, options, kernel names), ParsedFlags.cpp (the parse's flags for
// nvcc, the standard options), NvccRunner.cpp (runPtxas),
// PtxasOutput.cpp (the ptxas -v parser), PtxasCache.cpp (the disk cache),
// DeviceCodeGen.cpp (clang CodeGen to optimized NVPTX IR),
// NvptxInstructions.cpp, PressureModel.cpp and PressureModelValues.cpp (the
// live values), Estimate.cpp (the estimate, its caps, the device reparse;
// the calibrated formula is model/RegisterEstimate.h) and RegisterUsage.cpp
// (the results of one AST, per options).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_REGISTERUSAGE_H
#define WARPCHECK_ANALYSIS_REGISTERUSAGE_H

#include "warpcheck/analysis/SassListing.h"
#include "warpcheck/toolchain/CudaArch.h"
#include "warpcheck/toolchain/NvccInvocation.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
}
namespace llvm {
class Function;
class LLVMContext;
class Module;
} // namespace llvm

namespace warpcheck::analysis {

/// Where a register count comes from.
enum class RegisterSource { Ptxas, Estimate };
/// "ptxas" or "estimate" (the JSON field registers_source).
const char *registerSourceName(RegisterSource Source);

/// Which source to use.
enum class RegisterMode {
  /// ptxas when a toolkit was located, else the estimate.
  Auto,
  /// Run nvcc/ptxas; falls back to the estimate (with a note) when the
  /// toolkit is missing or the compilation fails.
  Ptxas,
  /// Never start a program.
  Estimate,
};
/// "auto" (or empty), "ptxas", "estimate"; case-insensitive. nullopt for
/// anything else.
std::optional<RegisterMode> parseRegisterMode(llvm::StringRef Text);
const char *registerModeName(RegisterMode Mode);

struct RegisterOptions {
  RegisterMode Mode = RegisterMode::Auto;
  /// Root of the CUDA toolkit the caller located itself (holding
  /// bin/nvcc). Its bin/nvcc is the only program ever started. Empty: no
  /// toolkit, the estimate is used.
  std::string ToolkitRoot;
  /// Architecture to compile for: "sm_90", "sm_90a", "sm_100"... Empty
  /// means the model's default (model::DefaultArchName).
  std::string Arch;
  /// Flags of the translation unit, from a compile database or from the
  /// parse (compileFlagsFromPreprocessor). Untrusted: only what
  /// sanitizeCompileFlags keeps reaches nvcc.
  std::vector<std::string> CompileFlags;
  /// Directory relative -I/-isystem paths in CompileFlags are relative to
  /// (the compile command's directory). Empty: the source's directory.
  std::string WorkingDirectory;
  /// -maxrregcount set by the tool's own options; the smaller of this and a
  /// -maxrregcount in CompileFlags applies.
  std::optional<unsigned> MaxRegisterCount;
  /// The file to compile. Empty: the main file of the AST.
  std::string SourceFile;
  /// Where ptxas results are cached. Empty: $XDG_CACHE_HOME/warpcheck, else
  /// $HOME/.cache/warpcheck. "none": no cache. A folder that cannot be
  /// created or written means no cache, silently.
  std::string CacheDir;
  /// Time limit of one nvcc run, in seconds.
  unsigned TimeoutSeconds = 180;

  /// Identifies the options for the per-AST cache.
  std::string fingerprint() const;
};

/// What is known about one kernel's registers.
struct FunctionRegisters {
  unsigned Registers = 0;
  RegisterSource Source = RegisterSource::Estimate;
  std::string Arch;
  /// ptxas: "N bytes smem" of the kernel (cudaFuncAttributes::sharedSizeBytes).
  std::optional<std::uint64_t> SharedBytes;
  /// ptxas: stack frame and spills, in bytes; barriers used.
  std::uint64_t StackFrameBytes = 0, SpillStoreBytes = 0, SpillLoadBytes = 0;
  std::optional<unsigned> Barriers;
  /// Estimate: the measures it rests on (LiveValueMeasures) and the count
  /// before __launch_bounds__ or -maxrregcount capped it.
  unsigned InOrderLiveValues = 0;
  unsigned ScheduledLiveValues = 0;
  unsigned UncappedRegisters = 0;
  /// Estimate: what capped the count ("__launch_bounds__(256, 4)",
  /// "-maxrregcount=32"); empty if nothing did.
  std::string CappedBy;
};

/// Registers of every kernel of one translation unit, from one source.
struct TranslationUnitRegisters {
  RegisterSource Source = RegisterSource::Estimate;
  std::string Arch;
  /// By mangled name as the device compilation spells it.
  std::map<std::string, FunctionRegisters> ByMangledName;
  /// ptxas only: the memory instructions of every kernel of the compiled
  /// unit (those of the functions it calls included), by mangled name, as
  /// the toolkit's nvdisasm lists them (SassListing.h). Set only when the
  /// listing was read.
  std::optional<std::map<std::string, std::vector<SassMemoryInstruction>>> MemoryInstructions;
  /// Why the memory instructions were not read ("the toolkit has no
  /// nvdisasm"); empty when they were, or when nvcc was not run.
  std::string MemoryInstructionsNote;
  /// Set when the requested source could not be used, and why.
  std::string FallbackReason;
  /// nvcc ran out of this time limit (seconds; 0: it did not). Cached like
  /// a failure: a later run with the same limit does not wait for it again,
  /// a run with a longer one tries again.
  unsigned TimedOutAfterSeconds = 0;
  /// Flags left out of the nvcc command (for the report's assumptions).
  std::vector<std::string> DroppedFlags;
  bool FromCache = false;
};

//===--- The nvcc/ptxas runner, its guards and its parser -----------------===//

// The nvcc command line, its guards and the trusted toolkit are the
// toolchain layer's (warpcheck/toolchain/NvccInvocation.h); their names stay
// usable here.
using toolchain::defaultToolkitRoot;
using toolchain::isShellSafeArgument;
using toolchain::nvccArchName;
using toolchain::nvccArguments;
using toolchain::SanitizedFlags;
using toolchain::sanitizeCompileFlags;
using toolchain::setTrustedToolkitRoot;
using toolchain::trustedToolkitRoot;
using toolchain::validateToolkitRoot;

/// The -I/-isystem/-D/-U/-std flags the translation unit was parsed with,
/// read back from the preprocessor's options (toolchain folders excluded).
std::vector<std::string> compileFlagsFromPreprocessor(const clang::Preprocessor &PP);

/// The options the cuda-occupancy check uses: the trusted toolkit
/// (trustedToolkitRoot(), else defaultToolkitRoot()), Arch, the flags of
/// the parse (compileFlagsFromPreprocessor, when PP is given), Mode and
/// MaxRegisterCount (0: none). A caller that builds its options the same
/// way (the JSON report) gets the very same numbers from the same nvcc run.
RegisterOptions standardRegisterOptions(llvm::StringRef Arch, const clang::Preprocessor *PP,
                                        RegisterMode Mode = RegisterMode::Auto,
                                        unsigned MaxRegisterCount = 0);

/// Parses `ptxas -v` output: each "Compiling entry function 'X' for 'sm_NN'"
/// and the "Used N registers, ..." line after it.
std::map<std::string, FunctionRegisters> parsePtxasOutput(llvm::StringRef Text);

/// Compiles SourceFile with nvcc and reads ptxas's counts, and the memory
/// instructions of the cubin when the toolkit has bin/nvdisasm (started as
/// nvcc is: an argument vector, its own environment, a time limit). ExtraKey is mixed
/// into the cache key (e.g. the contents of every file the parse read).
/// Never throws; on failure the result has FallbackReason set and no
/// entries.
TranslationUnitRegisters runPtxas(const RegisterOptions &Options,
                                  llvm::StringRef SourceFile,
                                  llvm::StringRef ExtraKey = "");

/// The cache folder RegisterOptions::CacheDir names (created), or "" for
/// no cache.
std::string registerCacheDirectory(const RegisterOptions &Options);

//===--- The estimator ----------------------------------------------------===//

/// The estimator's two measures of a kernel in optimized NVPTX IR, in
/// 32-bit registers: the most values live at one point in the IR's order,
/// and the same under a rough model of ptxas's scheduling (loads and
/// atomics issued early, warp-uniform values in uniform registers,
/// parameters live from the entry, except structs passed by value, which
/// stay in the constant bank). Calls add their callee's measure.
struct LiveValueMeasures {
  unsigned InOrder = 0;
  unsigned Scheduled = 0;
};

/// Whether the libdevice function Name (__nv_popc, __nv_float_as_int,
/// __nv_fmaxf, __nv_float2int_rn, ...) is one to three instructions once
/// linked: without a toolkit there is no libdevice to link, and a call to
/// one of these costs the estimate its result, not a call.
bool isShortLibdeviceFunction(llvm::StringRef Name);

/// The calibrated register estimate for those measures. MaxThreads is the
/// kernel's __launch_bounds__ thread count, if any: ptxas spends spare
/// registers on scheduling only up to the count that keeps as many blocks
/// of that size resident. The count is even below those caps, as ptxas's
/// nearly always is. (model::estimateRegisterCount, on the two counts.)
unsigned estimateRegisterCount(const LiveValueMeasures &Live,
                               std::optional<unsigned> MaxThreads = std::nullopt);

/// The optimized NVPTX module the estimate measures: every kernel of a
/// device-side AST lowered by clang's code generator (libdevice linked when
/// Options.ToolkitRoot has one) and run through LLVM's -O3 pipeline.
/// nullptr (and Error) for a host-side AST or when lowering fails.
std::unique_ptr<llvm::Module> lowerForEstimate(clang::ASTContext &Ctx, llvm::LLVMContext &LLCtx,
                                               const RegisterOptions &Options,
                                               const clang::Preprocessor *PP,
                                               std::string &Error);

/// The estimator's measures of a function of that module.
LiveValueMeasures measureLiveValues(const llvm::Function &F);

/// Estimates the registers of every kernel of the AST. Needs a device-side
/// AST (--cuda-device-only); for a host-side AST the source is parsed again
/// for the device, in-process. Kernels it cannot lower are absent.
TranslationUnitRegisters estimateRegisters(clang::ASTContext &Ctx,
                                           const RegisterOptions &Options,
                                           const clang::Preprocessor *PP = nullptr);

//===--- Per-AST access ---------------------------------------------------===//

/// The mangled name of a kernel as the device compilation spells it
/// (Itanium, the kernel itself and not its host-side stub).
std::string deviceMangledName(const clang::FunctionDecl *Kernel,
                              clang::ASTContext &Ctx);

/// A mangled name with nvcc's and clang's differences for internal linkage
/// removed: demangled, "(anonymous namespace)" for nvcc's
/// "_GLOBAL__N__<hash>" namespaces (static functions demangle alike).
std::string normalizedKernelName(llvm::StringRef MangledName);

/// Register counts of the kernels of one AST, computed once per options.
/// The unit's TranslationUnitSession holds the one every check and the JSON
/// report ask.
class RegisterUsage {
public:
  explicit RegisterUsage(clang::ASTContext &Ctx);

  /// The preprocessor of the parse, when the caller has it: used to re-parse
  /// a host-side AST for the estimate with the same include paths.
  void setPreprocessor(const clang::Preprocessor *P) { PP = P; }

  /// Every kernel's registers under Options (computed on first use).
  const TranslationUnitRegisters &translationUnit(const RegisterOptions &Options);

  /// Kernel's registers under Options. Falls back to the estimate where
  /// ptxas has no entry for the kernel (Note says why); nullopt if neither
  /// source knows it.
  std::optional<FunctionRegisters> lookup(const clang::FunctionDecl *Kernel,
                                          const RegisterOptions &Options,
                                          std::string *Note = nullptr);

  /// Kernel's memory instructions under Options (SassListing.h): those of
  /// the ptxas run's listing, when its mode resolves to ptxas and the
  /// toolkit's nvdisasm listed the cubin; null otherwise (Note, when given,
  /// says why). Valid as long as this object.
  const std::vector<SassMemoryInstruction> *memoryInstructions(const clang::FunctionDecl *Kernel,
                                                               const RegisterOptions &Options,
                                                               std::string *Note = nullptr);

  /// Options with the toolkit and mode resolved as lookup uses them.
  static RegisterOptions resolve(const RegisterOptions &Options);

private:
  /// The mangled name R knows Kernel by: its own, else the one entry whose
  /// normalized name is Kernel's (IndexKey names the index of R's names).
  std::string knownName(const TranslationUnitRegisters &R, const std::string &IndexKey,
                        const std::string &Mangled);

  const TranslationUnitRegisters &estimate(const RegisterOptions &Options);

  clang::ASTContext &Ctx;
  const clang::Preprocessor *PP = nullptr;
  std::mutex Mutex;
  std::map<std::string, std::unique_ptr<TranslationUnitRegisters>> Results;
  std::map<std::string, std::unique_ptr<TranslationUnitRegisters>> Estimates;
  /// Normalized name -> mangled name of ptxas results, per options.
  std::map<std::string, std::map<std::string, std::string>> Normalized;
};

} // namespace warpcheck::analysis

#endif
