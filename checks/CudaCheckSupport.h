//===- CudaCheckSupport.h - what the cuda-* checks share ------------------===//
//
// Options every cuda-* check understands and the formatting of numbers in
// messages, so that both front doors print the same words.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_CHECKS_CUDACHECKSUPPORT_H
#define WARPCHECK_CHECKS_CUDACHECKSUPPORT_H

#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/analysis/RegisterUsage.h"

#include "clang-tidy/ClangTidyCheck.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda {

/// The target architecture: the check's (or global) `Arch` option when set,
/// else the GPU the translation unit is compiled for (--cuda-gpu-arch), else
/// sm_90.
std::string resolveArch(llvm::StringRef ArchOption, const ASTContext &Ctx);

/// Analysis options from the check options `Arch` and `DefaultBlock`.
warpcheck::analysis::AnalysisOptions
makeAnalysisOptions(llvm::StringRef ArchOption, llvm::StringRef DefaultBlock,
                    const ASTContext &Ctx);

/// "true"/"1"/"yes" -> true. Boolean options are read as strings: the
/// OptionsView::get<bool> specialization is compiled into clang-tidy-19 and
/// its mangled name differs between GCC and Clang builds of the plugin.
bool parseBoolOption(llvm::StringRef Value);
/// A boolean option's value: true/1/yes/on, false/0/no/off (any case);
/// nullopt for anything else, which the check reports with
/// configurationDiag.
std::optional<bool> readBoolOption(llvm::StringRef Value);

/// The DefaultDynamicShared option: bytes of dynamic shared memory assumed
/// for launches that do not give them. Empty (unset) or not a number:
/// nullopt.
std::optional<std::uint64_t> parseDefaultDynamicShared(llvm::StringRef Value);

/// Where a check's register counts (and the dynamic shared memory a launch
/// does not give) come from: the options RegisterMode, MaxRegisterCount and
/// DefaultDynamicShared, each the check's own or the global one, read alike
/// by every check that computes occupancy (cuda-occupancy, the padding note
/// of cuda-shared-bank-conflict: CudaKernelCheck owns them for both) and by
/// the JSON report, so that their numbers agree.
class RegisterCountOptions {
public:
  explicit RegisterCountOptions(ClangTidyCheck::OptionsView &Options);
  void store(ClangTidyCheck::OptionsView &Options, ClangTidyOptions::OptionMap &Opts) const;
  /// Why an option is malformed (for configurationDiag), or empty.
  std::string problem() const;
  /// The options RegisterUsage is asked with, for Arch and the parse's PP.
  warpcheck::analysis::RegisterOptions registerOptions(llvm::StringRef Arch,
                                                       const Preprocessor *PP) const;
  std::optional<std::uint64_t> defaultDynamicSharedBytes() const {
    return parseDefaultDynamicShared(DefaultDynamicShared);
  }

private:
  /// "auto", "ptxas" or "estimate".
  const std::string Mode;
  /// -maxrregcount the build uses; 0 for none.
  const unsigned MaxRegisterCount;
  /// Bytes of dynamic shared memory assumed for launches that do not give
  /// them; empty for 0 (noted).
  const std::string DefaultDynamicShared;
};

/// Where the numbers of an access that depends on unbound parameters are
/// the ones said (its worst case): " when 'size' <= 16", " unless 'offset'
/// is a multiple of 8", ", reached only when 'n' <= 15"; empty for an
/// access with no such dependence or the same efficiency for every value.
std::string worstCaseClause(const warpcheck::analysis::AccessResult &A);
/// What the other values give: "; 1 otherwise", "; 1 to 1.5 otherwise";
/// empty when nothing else or when the access is only sometimes reached.
std::string otherwiseClause(const warpcheck::analysis::AccessResult &A);

/// What executes an access where the compiled kernel's listing shows
/// another instruction than the one the source writes, one sentence per
/// kind of instruction: "the compiler merges 'sdata[index]' and 'sdata[index
/// + s]' into one 64-bit load per lane (LDS.64, 2 wavefronts per request)
/// in 16 of its 48 requests", "the compiler hoists this read out of the
/// loop and emits it at line 85 (LDG.E, 4 sectors per request): 16
/// requests for its 1024 executions". Empty for an access costed as
/// written or whose instructions are the source's.
std::vector<std::string> executedAs(const warpcheck::analysis::AccessResult &A,
                                    const ASTContext &Ctx);

/// An access in a device function run inline from calls whose requests
/// cost differently (a helper called with a coalesced index and with a
/// strided one): at each call, what its requests cost, "through this call:
/// 32 sectors per warp request (ideal 4)". The warning's numbers average
/// the calls; these say which call the cost is at. Empty for an access of
/// one call, or of calls that cost alike.
std::vector<std::pair<SourceLocation, std::string>>
callSiteNotes(const warpcheck::analysis::AccessResult &A);

/// 32 -> "32", 4.5 -> "4.5", 4.333 -> "4.33".
std::string formatCount(double Value);
/// 0.125 -> "12.5%".
std::string formatPercent(double Fraction);

} // namespace clang::tidy::cuda

#endif
