#include "CudaCheckSupport.h"

#include "warpcheck/model/Arch.h"

#include "clang/Basic/TargetInfo.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

namespace clang::tidy::cuda {

std::string resolveArch(llvm::StringRef ArchOption, const ASTContext &Ctx) {
  if (!ArchOption.empty())
    return ArchOption.str();
  auto FromTarget = [](const TargetInfo *TI) -> std::string {
    if (!TI || !TI->getTriple().isNVPTX())
      return "";
    return TI->getTargetOpts().CPU;
  };
  std::string Arch = FromTarget(&Ctx.getTargetInfo());
  if (Arch.empty())
    Arch = FromTarget(Ctx.getAuxTargetInfo());
  return Arch.empty() ? std::string(warpcheck::model::DefaultArchName) : Arch;
}

warpcheck::analysis::AnalysisOptions
makeAnalysisOptions(llvm::StringRef ArchOption, llvm::StringRef DefaultBlock,
                    const ASTContext &Ctx) {
  warpcheck::analysis::AnalysisOptions Options;
  if (auto Block = warpcheck::analysis::parseDim3(DefaultBlock))
    Options.Defaults.Block = *Block;
  std::string Arch = resolveArch(ArchOption, Ctx);
  if (const warpcheck::model::ArchSpec *Spec = warpcheck::model::findArch(Arch)) {
    Options.SharedGeometry = Spec->SharedBanks;
    Options.Defaults.Arch = Spec->Name;
  }
  return Options;
}

bool parseBoolOption(llvm::StringRef Value) {
  Value = Value.trim();
  return Value.equals_insensitive("true") || Value == "1" ||
         Value.equals_insensitive("yes") || Value.equals_insensitive("on");
}

std::optional<bool> readBoolOption(llvm::StringRef Value) {
  Value = Value.trim();
  if (parseBoolOption(Value))
    return true;
  if (Value.equals_insensitive("false") || Value == "0" || Value.equals_insensitive("no") ||
      Value.equals_insensitive("off"))
    return false;
  return std::nullopt;
}

std::optional<std::uint64_t> parseDefaultDynamicShared(llvm::StringRef Value) {
  std::uint64_t Bytes = 0;
  if (Value.trim().empty() || Value.trim().getAsInteger(10, Bytes))
    return std::nullopt;
  return Bytes;
}

RegisterCountOptions::RegisterCountOptions(ClangTidyCheck::OptionsView &Options)
    : Mode(Options.getLocalOrGlobal("RegisterMode", "auto")),
      MaxRegisterCount(Options.getLocalOrGlobal("MaxRegisterCount", 0U)),
      DefaultDynamicShared(Options.getLocalOrGlobal("DefaultDynamicShared", "")) {}

void RegisterCountOptions::store(ClangTidyCheck::OptionsView &Options,
                                 ClangTidyOptions::OptionMap &Opts) const {
  Options.store(Opts, "RegisterMode", Mode);
  Options.store(Opts, "MaxRegisterCount", MaxRegisterCount);
  Options.store(Opts, "DefaultDynamicShared", DefaultDynamicShared);
}

std::string RegisterCountOptions::problem() const {
  if (!warpcheck::analysis::parseRegisterMode(Mode))
    return "invalid RegisterMode '" + Mode + "'; expected 'auto', 'ptxas' or 'estimate'";
  // A thread has at most 255 registers on every architecture since sm_35
  // (CUDA C++ Programming Guide, "Technical Specifications"); nvcc refuses
  // a larger -maxrregcount.
  if (MaxRegisterCount > 255)
    return "invalid MaxRegisterCount '" + std::to_string(MaxRegisterCount) +
           "'; expected 0 (none) to 255";
  if (!llvm::StringRef(DefaultDynamicShared).trim().empty() && !defaultDynamicSharedBytes())
    return "invalid DefaultDynamicShared '" + DefaultDynamicShared +
           "'; expected a number of bytes";
  return "";
}

warpcheck::analysis::RegisterOptions
RegisterCountOptions::registerOptions(llvm::StringRef Arch, const Preprocessor *PP) const {
  // The program ptxas mode starts comes from the embedding tool or the
  // user's environment, never from a check option (RegisterUsage.h).
  return warpcheck::analysis::standardRegisterOptions(
      Arch, PP,
      warpcheck::analysis::parseRegisterMode(Mode).value_or(
          warpcheck::analysis::RegisterMode::Auto),
      MaxRegisterCount);
}

std::string worstCaseClause(const warpcheck::analysis::AccessResult &A) {
  if (!A.Dependence || A.Dependence->WorstCondition == "for every value tried")
    return "";
  const std::string &C = A.Dependence->WorstCondition;
  // The numbers of a representative value, not the worst case: say which.
  if (A.Dependence->RepresentativeValue)
    return " with the values read from memory taken as " +
           std::to_string(*A.Dependence->RepresentativeValue);
  if (!A.Dependence->CommandLineDefaults.empty())
    return " with " + warpcheck::analysis::commandLineDefaultsText(*A.Dependence) +
           " (a run without command-line arguments)";
  return (llvm::StringRef(C).starts_with("reached") ? ", " : " ") + C;
}

std::string otherwiseClause(const warpcheck::analysis::AccessResult &A) {
  using warpcheck::analysis::MemorySpace;
  if (!A.Dependence || worstCaseClause(A).empty() ||
      llvm::StringRef(A.Dependence->WorstCondition).starts_with("reached"))
    return "";
  // The metric of the samples outside the worst case.
  bool Shared = A.Site.Space == MemorySpace::Shared;
  double Worst = A.Cost.efficiency(A.Site.Space);
  std::optional<double> Lo, Hi;
  for (const auto &S : A.Dependence->Samples) {
    if (!S.Reached || std::fabs(S.Cost.efficiency(A.Site.Space) - Worst) < 1e-9)
      continue;
    double M = Shared ? S.Cost.WavefrontsPerRequest : S.Cost.SectorsPerRequest;
    Lo = Lo ? std::min(*Lo, M) : M;
    Hi = Hi ? std::max(*Hi, M) : M;
  }
  if (!Lo)
    return "";
  return "; " + formatCount(*Lo) +
         (*Hi - *Lo > 0.005 ? " to " + formatCount(*Hi) : std::string()) + " otherwise";
}

std::vector<std::pair<SourceLocation, std::string>>
callSiteNotes(const warpcheck::analysis::AccessResult &A) {
  using namespace warpcheck::analysis;
  bool Shared = A.Site.Space == MemorySpace::Shared;
  auto PerRequest = [&](const AccessCost &C) {
    return Shared ? C.WavefrontsPerRequest : C.SectorsPerRequest;
  };
  std::vector<std::pair<SourceLocation, std::string>> Out;
  bool Differ = false;
  for (const CallSiteCost &C : A.CallSites)
    Differ |= C.Cost.Requests > 0 && A.CallSites.front().Cost.Requests > 0 &&
              std::abs(PerRequest(C.Cost) - PerRequest(A.CallSites.front().Cost)) > 1e-9;
  if (!Differ)
    return Out;
  for (const CallSiteCost &C : A.CallSites) {
    if (C.Cost.Requests == 0)
      continue;
    double Cost = PerRequest(C.Cost);
    std::string Unit = Shared ? " wavefront" : " sector";
    Out.push_back({C.Call->getBeginLoc(),
                   "through this call: " + formatCount(Cost) + Unit + (Cost == 1 ? "" : "s") +
                       (Shared ? " per request (ideal " : " per warp request (ideal ") +
                       formatCount(Shared ? C.Cost.IdealWavefrontsPerRequest
                                          : C.Cost.IdealSectorsPerRequest) +
                       ")"});
  }
  return Out;
}

std::vector<std::string> executedAs(const warpcheck::analysis::AccessResult &A,
                                    const ASTContext &Ctx) {
  using namespace warpcheck::analysis;
  std::vector<std::string> Out;
  if (A.InstructionsFrom == InstructionOrigin::Source)
    return Out;
  bool Shared = A.Site.Space == MemorySpace::Shared;
  const char *Noun = A.Site.Op == AccessOp::Load    ? "read"
                     : A.Site.Op == AccessOp::Store ? "write"
                                                    : "atomic";
  const char *Kind = A.Site.Op == AccessOp::Load    ? "load"
                     : A.Site.Op == AccessOp::Store ? "store"
                                                    : "atomic";
  for (const EmittedInstruction &I : A.Instructions) {
    if (I.CountedWith || I.Cost.Requests == 0 ||
        !(I.Merged || I.Split || I.Moved || I.Hoisted || I.RepeatsRemoved))
      continue;
    std::string Cost = I.Opcode + ", " +
                       formatCount(Shared ? I.Cost.WavefrontsPerRequest
                                          : I.Cost.SectorsPerRequest) +
                       (Shared ? " wavefronts" : " sectors") + " per request";
    std::string Where = I.Moved ? " at line " + std::to_string(I.Line) : "";
    std::string S;
    if (I.Merged) {
      std::string Names;
      for (size_t K = 0; K < I.Serves.size(); ++K)
        Names += (K ? (K + 1 == I.Serves.size() ? " and '" : ", '") : "'") +
                 sourceText(I.Serves[K], Ctx) + "'";
      std::string What = I.Serves.size() > 1
                             ? Names
                             : std::to_string(I.ServedExecutions / std::max(1u, I.Cost.Requests)) +
                                   " executions of this " + Noun;
      // Requests of several accesses at the width of each: the loads of a
      // branch's arms as one load of the address the branch selects.
      if (I.Serves.size() > 1 && I.BytesPerLane == A.Site.BytesPerLane)
        S = "the compiler makes " + Names + " one " + Kind +
            " of the address the branch selects" + Where + " (" + Cost + ")";
      else
        S = "the compiler merges " + What + " into one " + std::to_string(8 * I.BytesPerLane) +
            "-bit " + Kind + " per lane" + Where + " (" + Cost + ")";
    } else if (I.Split) {
      S = "the compiler " + std::string(Kind) + "s these " +
          std::to_string(A.Site.BytesPerLane) + " bytes per lane with " +
          std::to_string(I.BytesPerLane) + "-byte instructions" + Where + " (" + Cost + ")";
    } else if (I.Hoisted) {
      S = "the compiler hoists this " + std::string(Noun) + " out of the loop and emits it" +
          Where + " (" + Cost + "): " + std::to_string(I.Cost.Requests) + " requests for its " +
          std::to_string(I.ServedExecutions) + " executions";
    } else if (I.RepeatsRemoved) {
      S = "the compiler unrolls the loop and keeps one " + std::string(Kind) +
          " per distinct address" + Where + " (" + Cost + "): " +
          std::to_string(I.Cost.Requests) + " requests for its " +
          std::to_string(I.ServedExecutions) + " executions";
    } else {
      S = "the compiler emits this " + std::string(Noun) + Where + " (" + Cost + ")";
    }
    if (I.Cost.Requests < A.Cost.Requests)
      S += " in " + std::to_string(I.Cost.Requests) + " of its " +
           std::to_string(A.Cost.Requests) + " requests";
    Out.push_back(std::move(S));
  }
  return Out;
}

std::string formatCount(double Value) {
  if (std::fabs(Value - std::round(Value)) < 0.005)
    return std::to_string(static_cast<long long>(std::llround(Value)));
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::format("%.2f", Value);
  OS.flush();
  while (!S.empty() && S.back() == '0')
    S.pop_back();
  return S;
}

std::string formatPercent(double Fraction) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::format("%.1f", Fraction * 100.0) << "%";
  OS.flush();
  return S;
}

} // namespace clang::tidy::cuda
