//===--- UncoalescedGlobalAccessCheck.cpp - clang-tidy --------------------===//

#include "UncoalescedGlobalAccessCheck.h"
#include "CudaCheckSupport.h"

#include "warpcheck/analysis/AosAccesses.h"

#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/model/GlobalMemory.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <algorithm>
#include <map>

using namespace clang::ast_matchers;
using namespace warpcheck::analysis;

namespace clang::tidy::cuda {

UncoalescedGlobalAccessCheck::UncoalescedGlobalAccessCheck(StringRef Name,
                                                           ClangTidyContext *Context,
                                                           std::shared_ptr<CheckSessions> Sessions)
    : CudaKernelCheck(Name, Context, std::move(Sessions)),
      MinEfficiency(Options.get("MinEfficiency", 50U)),
      ReportMisaligned(readBoolOption(Options.get("ReportMisaligned", "true")).value_or(true)),
      ReportDataDependent(
          readBoolOption(Options.get("ReportDataDependent", "false")).value_or(false)) {
  if (MinEfficiency > 101)
    configurationDiag("%0: MinEfficiency %1 is not a percentage (0 to 100, or 101 to report "
                      "every access)")
        << Name << MinEfficiency;
  for (auto [Option, Default] : {std::pair{"ReportMisaligned", "true"},
                                 std::pair{"ReportDataDependent", "false"}})
    if (std::string Value = Options.get(Option, Default).str(); !readBoolOption(Value))
      configurationDiag("%0: invalid configuration value '%1' for option '%0.%2'; expected "
                        "true or false, using the default %3")
          << Name << Value << Option << Default;
}

void UncoalescedGlobalAccessCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MinEfficiency", MinEfficiency);
  Options.store(Opts, "ReportMisaligned", ReportMisaligned ? "true" : "false");
  Options.store(Opts, "ReportDataDependent", ReportDataDependent ? "true" : "false");
  CudaKernelCheck::storeOptions(Opts);
}

/// The access is contiguous (lane i at base + i * width) and wastes sectors
/// only because the warp's first byte is not on a sector boundary.
static bool isMisalignedContiguous(const AccessResult &A) {
  if (!A.WorstRequest || !A.LaneStrideBytes)
    return false;
  return *A.LaneStrideBytes == static_cast<std::int64_t>(A.Site.BytesPerLane) &&
         A.WorstGlobal.Sectors > A.WorstGlobal.IdealSectors;
}

/// The most lanes of the request that name one address: the rounds an
/// atomic's lanes are served in (1 for a load, store or distinct addresses).
static unsigned lanesPerAddress(const warpcheck::model::WarpAddressSet &S) {
  std::map<std::uint64_t, unsigned> Count;
  unsigned Most = 0;
  for (unsigned L = 0; L < warpcheck::model::WarpSize; ++L)
    if (S.isActive(L))
      Most = std::max(Most, ++Count[S.address(L)]);
  return Most;
}

static std::uint64_t firstAddress(const warpcheck::model::WarpAddressSet &S) {
  for (unsigned L = 0; L < warpcheck::model::WarpSize; ++L)
    if (S.isActive(L))
      return S.address(L);
  return 0;
}

void UncoalescedGlobalAccessCheck::checkKernel(const FunctionDecl *Kernel, ASTContext &Ctx) {
  AnalysisOptions Opts = analysisOptions(Ctx);
  const auto &Launches = unitSession()->analyze(Kernel, Opts);
  for (const KernelLaunchAnalysis &Launch : Launches) {
    warnIfAccessesLost(Kernel, Launch, Ctx);
    // The arrays of structs of the launch: an access in one of them is
    // weighed with the struct's other fields by cuda-aos-layout.
    std::vector<AosGroup> Structs = findAosGroups(Launch, Ctx);
    auto StructOf = [&](std::size_t Index) -> const AosGroup * {
      for (const AosGroup &G : Structs)
        if (llvm::is_contained(G.Accesses, Index))
          return &G;
      return nullptr;
    };
    for (std::size_t Index = 0; Index < Launch.Accesses.size(); ++Index) {
      const AccessResult &A = Launch.Accesses[Index];
      if (A.Site.Space == MemorySpace::Global && A.Status == AccessStatus::Unknown &&
          ReportDataDependent && !A.DataSource.empty()) {
        // No number is claimed: the sectors depend on the data (sorted
        // indices coalesce, scattered ones cost up to 32 sectors).
        warnDataDependent(A, Kernel, Launch, Ctx);
        continue;
      }
      if (A.Site.Space != MemorySpace::Global || A.Status == AccessStatus::Unknown || A.MayMergeWith ||
          A.Cost.Requests == 0)
        continue;
      // An atomic the compiler turns into one lane's request per warp costs
      // one sector, however many lanes name the address.
      if (A.Site.Op == AccessOp::Atomic && A.AggregatedRequests == A.Cost.Requests)
        continue;
      double Efficiency = A.Cost.efficiency(MemorySpace::Global);
      bool Misaligned = isMisalignedContiguous(A);
      bool Below = Efficiency * 100.0 < MinEfficiency - 1e-9;
      if (!Below && !(Misaligned && ReportMisaligned))
        continue;
      std::string Text = sourceText(A.Site.Expr, Ctx);
      std::string What = std::string("global ") + opName(A.Site.Op);
      std::string Numbers = formatCount(A.Cost.SectorsPerRequest) +
                            " sectors per warp request (ideal " +
                            formatCount(A.Cost.IdealSectorsPerRequest) + ", " +
                            formatPercent(Efficiency) + " efficiency" + otherwiseClause(A) +
                            ")" + worstCaseClause(A);
      std::string Shape = launchClause(Kernel, Launch.Launch, Ctx);
      SourceLocation Loc = A.Site.Expr->getBeginLoc();
      if (Misaligned && !A.SpreadingTerm.size()) {
        diag(Loc, "%0 '%1' is misaligned: it touches %2 %3")
            << What << Text << Numbers << Shape;
        const unsigned Sector = warpcheck::model::GlobalMemoryGeometry().SectorBytes;
        std::uint64_t Offset = firstAddress(*A.WorstRequest) % Sector;
        diag(Loc, "the warp's first address is %0 bytes past a %1-byte sector "
                  "boundary (assuming a 256-byte aligned allocation); align the "
                  "start of the accessed range to %1 bytes or more",
             DiagnosticIDs::Note)
            << static_cast<unsigned>(Offset) << Sector;
      } else {
        diag(Loc, "%0 '%1' touches %2 %3") << What << Text << Numbers << Shape;
        std::string Remedy;
        const Expr *Inner = A.Site.Expr->IgnoreParenImpCasts();
        unsigned Rounds = A.Site.Op == AccessOp::Atomic && A.WorstRequest
                              ? lanesPerAddress(*A.WorstRequest)
                              : 1;
        if (Rounds > 1) {
          // Lanes updating one address wait for each other; no layout helps.
          const char *Why = warpcheck::model::whyNotAggregated(A.Site.Atomic);
          Remedy = "up to " + std::to_string(Rounds) +
                   " lanes update the same address, one after another" +
                   (Why ? std::string(" (the compiler does not combine them: ") + Why + ")"
                        : std::string()) +
                   "; combine the warp's values first (__reduce_add_sync, or "
                   "__shfl_down_sync steps) and let one lane update memory";
        } else if (const AosGroup *G = StructOf(Index)) {
          // The struct's advice is cuda-aos-layout's, for all its fields at
          // once; this says where to read it and its figure.
          Remedy = "each lane " + std::string(A.Site.Op == AccessOp::Store ? "writes " : "reads ") +
                   std::to_string(A.Site.BytesPerLane) + " bytes of the " +
                   std::to_string(G->StructBytes) + "-byte struct '" + G->StructName +
                   "' through '" + G->PointerName + "': its fields together take " +
                   std::to_string(G->Traffic.l1Sectors()) + " sectors per warp, " +
                   std::to_string(G->Traffic.soaL1Sectors()) +
                   " as structure of arrays (cuda-aos-layout weighs the layouts)";
        } else if (const auto *ME = dyn_cast<MemberExpr>(Inner);
                   ME && ME->getBase()->getType()->isRecordType()) {
          std::int64_t RecordBytes =
              Ctx.getTypeSizeInChars(ME->getBase()->getType()).getQuantity();
          std::string Size = std::to_string(RecordBytes);
          // "an 8-byte", "a 16-byte".
          std::string Article = Size[0] == '8' || Size == "11" || Size == "18" ? "an " : "a ";
          bool Store = A.Site.Op == AccessOp::Store;
          // Fields the compiler joins into one access of the whole element
          // (UnrolledMerges.h): the waste is the elements' spacing, not the
          // unread fields.
          bool WholeElement = std::any_of(
              A.Instructions.begin(), A.Instructions.end(), [&](const EmittedInstruction &I) {
                return I.Merged && std::int64_t(I.BytesPerLane) >= RecordBytes;
              });
          if (WholeElement)
            Remedy = std::string("each lane ") + (Store ? "writes" : "reads") + " a whole " +
                     Size + "-byte element, its fields with one instruction: make adjacent "
                     "lanes access adjacent elements";
          else
            Remedy = std::string("each lane ") + (Store ? "writes " : "reads ") +
                     std::to_string(A.Site.BytesPerLane) + " bytes of " + Article + Size +
                     "-byte struct: store this field in an array of its own (structure of "
                     "arrays) so that adjacent lanes " +
                     (Store ? "write" : "read") + " adjacent elements";
        } else {
          Remedy = "make threadIdx.x the fastest-varying index of this access, or "
                   "stage the data through shared memory (a tiled transpose) so "
                   "that global memory is read along rows";
        }
        std::string Why;
        if (!A.SpreadingTerm.empty())
          Why = A.SpreadingTerm;
        if (A.LaneStrideBytes && *A.LaneStrideBytes != 0) {
          std::string Stride = "adjacent lanes are " +
                               std::to_string(*A.LaneStrideBytes) + " bytes apart";
          Why = Why.empty() ? Stride : Why + ": " + Stride;
        }
        if (!Why.empty())
          diag(Loc, "%0; %1", DiagnosticIDs::Note) << Why << Remedy;
        else
          diag(Loc, "%0", DiagnosticIDs::Note) << Remedy;
      }
      for (const std::string &Executed : executedAs(A, Ctx))
        diag(Loc, "%0", DiagnosticIDs::Note) << Executed;
      for (const auto &[At, Note] : callSiteNotes(A))
        diag(At, "%0", DiagnosticIDs::Note) << Note;
      for (const Assumption &Assumed : A.Assumptions)
        diag(Loc, "assumed: %0", DiagnosticIDs::Note) << Assumed.Text;
      for (const std::string &Cut : Launch.BudgetCuts)
        diag(Loc, "%0", DiagnosticIDs::Note) << Cut;
    }
  }
}

} // namespace clang::tidy::cuda
