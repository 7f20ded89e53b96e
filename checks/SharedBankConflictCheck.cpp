//===--- SharedBankConflictCheck.cpp - clang-tidy -------------------------===//

#include "SharedBankConflictCheck.h"
#include "CudaCheckSupport.h"

#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/analysis/KernelResources.h"
#include "warpcheck/analysis/RegisterUsage.h"
#include "warpcheck/analysis/SharedArrayPadding.h"
#include "warpcheck/analysis/WarpMatrix.h"
#include "warpcheck/model/Arch.h"
#include "warpcheck/model/MatrixFragment.h"
#include "warpcheck/model/Occupancy.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/TypeLoc.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"

#include <cmath>

using namespace clang::ast_matchers;
using namespace warpcheck::analysis;
namespace model = warpcheck::model;

namespace clang::tidy::cuda {

SharedBankConflictCheck::SharedBankConflictCheck(StringRef Name,
                                                 ClangTidyContext *Context,
                                                 std::shared_ptr<CheckSessions> Sessions)
    : CudaKernelCheck(Name, Context, std::move(Sessions), RegisterCounts::Needed),
      MinExtraWavefronts(Options.get("MinExtraWavefronts", "1")),
      MaxPadding(Options.get("MaxPadding", 32U)),
      ReportDataDependent(
          readBoolOption(Options.get("ReportDataDependent", "false")).value_or(false)) {
  if (std::string Value = Options.get("ReportDataDependent", "false").str();
      !readBoolOption(Value))
    configurationDiag("%0: invalid configuration value '%1' for option "
                      "'%0.ReportDataDependent'; expected true or false, using the default false")
        << Name << Value;
  // getAsDouble takes "nan" and "inf": a threshold no access can meet (or
  // every access meets) would silence the check without a word.
  double Value = 0;
  if (llvm::StringRef(MinExtraWavefronts).trim().getAsDouble(Value) || !std::isfinite(Value) ||
      Value < 0)
    configurationDiag("%0: invalid configuration value '%1' for option "
                      "'%0.MinExtraWavefronts'; expected a finite number of wavefronts >= 0, "
                      "using the default 1")
        << Name << MinExtraWavefronts;
  else
    MinExtraWavefrontsValue = Value;
}

SharedBankConflictCheck::~SharedBankConflictCheck() = default;

void SharedBankConflictCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MinExtraWavefronts", MinExtraWavefronts);
  Options.store(Opts, "MaxPadding", MaxPadding);
  Options.store(Opts, "ReportDataDependent", ReportDataDependent ? "true" : "false");
  CudaKernelCheck::storeOptions(Opts);
}

namespace {

/// For a store of a warp matrix accumulator (wmma::store_matrix_sync): the
/// leading dimension that removes the conflict, which is the store's
/// argument and the tile's row length, not the array's declaration.
std::optional<std::string> leadingDimensionNote(const AccessResult &A, const ASTContext &Ctx) {
  std::optional<WarpMatrixStore> Store =
      warpMatrixStore(dyn_cast_or_null<CallExpr>(A.Site.Expr), Ctx);
  if (!Store)
    return std::nullopt;
  std::string Ld = sourceText(cast<CallExpr>(A.Site.Expr)->getArg(2), Ctx);
  // Row-major a store writes eight rows of the tile, column-major columns
  // (model/MatrixFragment.h), 'ldm' elements apart.
  std::string Rows = std::string("each store writes eight ") +
                     (Store->RowMajor.value_or(true) ? "rows" : "columns") +
                     " of the tile, 'ldm' (" + Ld + ") elements apart";
  if (!Store->RowMajor || !Store->LeadingDimension)
    return "no padding offered: " + Rows + "; a leading dimension that is not a multiple of "
           "128 bytes spreads them over the banks (pad the tile to match)";
  std::optional<std::int64_t> Better = model::conflictFreeLeadingDimension(
      Store->Fragment, *Store->RowMajor, *Store->LeadingDimension);
  if (!Better)
    return "no padding offered: " + Rows + ", and no leading dimension up to 128 bytes "
           "longer serves them without a conflict";
  return Rows + ": with 'ldm' " + std::to_string(*Better) + " (" +
         std::to_string(*Better - *Store->LeadingDimension) +
         " more, the tile padded to match) every store is conflict-free";
}

} // namespace

namespace {

/// "0-31", "0, 16", "0-7, 16-23".
std::string laneList(const std::vector<unsigned> &Lanes) {
  std::string S;
  for (size_t I = 0; I < Lanes.size();) {
    size_t J = I;
    while (J + 1 < Lanes.size() && Lanes[J + 1] == Lanes[J] + 1)
      ++J;
    if (!S.empty())
      S += ", ";
    S += std::to_string(Lanes[I]);
    if (J > I)
      S += "-" + std::to_string(Lanes[J]);
    I = J + 1;
  }
  return S;
}

/// Source range of the innermost dimension's size: `32` in `float t[32][32]`.
std::optional<SourceRange> lastDimensionRange(const VarDecl *Var) {
  TypeSourceInfo *TSI = Var->getTypeSourceInfo();
  if (!TSI)
    return std::nullopt;
  TypeLoc TL = TSI->getTypeLoc();
  std::optional<SourceRange> Last;
  while (auto AL = TL.getAs<ConstantArrayTypeLoc>()) {
    if (Expr *Size = AL.getSizeExpr())
      Last = Size->getSourceRange();
    else
      return std::nullopt;
    TL = AL.getElementLoc();
  }
  return Last;
}

/// The file text of Var's last extent, which a fix-it may replace, or why
/// there is none. The extent may be written with a macro (`[TILE]` with
/// `#define TILE 32`): the declaration is the user's text, and `TILE + 1`
/// pads this array alone. It may not come from a macro's argument or body
/// (a `SMEM(32)` that spells both extents: editing it would change both),
/// nor lie in a system header.
std::string editableLastDimension(const VarDecl *Var, const ASTContext &Ctx,
                                  CharSourceRange &Out) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::optional<SourceRange> Dim = lastDimensionRange(Var);
  if (!Dim)
    return "its last extent is not written out";
  if (Var->getLocation().isMacroID())
    return "it is written by a macro";
  if (SM.isInSystemHeader(SM.getFileLoc(Var->getLocation())))
    return "it is in a system header";
  for (SourceLocation L : {Dim->getBegin(), Dim->getEnd()})
    if (L.isMacroID() && SM.isMacroArgExpansion(L))
      return "its extent is a macro's argument";
  CharSourceRange File = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(*Dim), SM,
                                                  Ctx.getLangOpts());
  if (File.isInvalid())
    return "its extent comes from inside a macro";
  Out = File;
  return "";
}

} // namespace

void SharedBankConflictCheck::checkKernel(const FunctionDecl *Kernel, ASTContext &Ctx) {
  double Threshold = MinExtraWavefrontsValue;
  AnalysisOptions Opts = analysisOptions(Ctx);
  TranslationUnitSession &TU = *unitSession();
  const auto Launches = TU.analyze(Kernel, Opts);
  const SourceManager &SM = Ctx.getSourceManager();

  for (size_t LaunchIndex = 0; LaunchIndex < Launches.size(); ++LaunchIndex) {
    const KernelLaunchAnalysis &Launch = Launches[LaunchIndex];
    warnIfAccessesLost(Kernel, Launch, Ctx);
    for (const AccessResult &A : Launch.Accesses) {
      if (A.Site.Space == MemorySpace::Shared && A.Status == AccessStatus::Unknown &&
          ReportDataDependent && !A.DataSource.empty()) {
        // No number is claimed: which banks the lanes hit depends on the
        // data (ranks of a sort scatter without a conflict when distinct
        // keys are spread, a histogram's bins serialise when the data
        // repeats a value).
        warnDataDependent(A, Kernel, Launch, Ctx);
        continue;
      }
      if (A.Site.Space != MemorySpace::Shared || A.Status == AccessStatus::Unknown || A.MayMergeWith ||
          A.Cost.Requests == 0)
        continue;
      double Extra = A.Cost.WavefrontsPerRequest - A.Cost.IdealWavefrontsPerRequest;
      if (Extra < Threshold - 1e-9)
        continue;
      const char *Verb = A.Site.Op == AccessOp::Load    ? "reading"
                         : A.Site.Op == AccessOp::Store ? "writing"
                                                        : "atomically updating";
      const auto &W = A.WorstShared;
      std::string Lanes = laneList(W.WorstBankLanes);
      bool AllLanes = A.WorstRequest &&
                      W.WorstBankLanes.size() == A.WorstRequest->activeLanes();
      std::string Who = (AllLanes ? "lanes " + Lanes + " all hit bank "
                                  : "lanes " + Lanes + " hit bank ") +
                        std::to_string(W.WorstBank) +
                        (AllLanes ? "" : " with different words");
      // Atomics the hardware serves per lane: lanes naming one word wait
      // for each other, a conflict no padding removes.
      if (W.WorstBankLanesShareWords)
        Who = "lanes " + Lanes + " update bank " + std::to_string(W.WorstBank) +
              " one after another, lanes naming one word included";
      SourceLocation Loc = A.Site.Expr->getBeginLoc();
      if (W.ConflictDegree <= 1 && A.WorstRequest) {
        // No bank serves two words within a phase: the extra wavefronts
        // come from a wide access whose active lanes fall in several of its
        // phases (8 lanes of 16 bytes, 16 lanes of 8 bytes), which padding
        // cannot change. Measured on the H200
        // (test/inputs/shared-wide-partial-warps.cu).
        Pending.push_back(phaseSplit(A, Kernel, Launch, Verb, Ctx));
        continue;
      }
      // The fix: the smallest padding of the last dimension under which this
      // access is conflict-free and no access to the array got worse.
      const VarDecl *Var = A.Site.SharedVar;
      std::string NoFix;
      std::optional<ArrayLayout> Layout = Var ? arrayLayoutOf(Var->getType(), Ctx) : std::nullopt;
      CharSourceRange DimRange;
      if (!Var)
        NoFix = "the shared buffer is not a named array";
      else if (!Layout || Layout->Dims.size() < 2)
        NoFix = "'" + Var->getNameAsString() + "' is one-dimensional";
      else if (std::string Why = editableLastDimension(Var, Ctx, DimRange); !Why.empty())
        NoFix = "the declaration of '" + Var->getNameAsString() + "' cannot be edited: " + Why;
      else
        NoFix = layoutDependentUse(Var, Ctx, static_cast<unsigned>(Layout->Dims.size()));

      PaddingAnswer Padding;
      if (NoFix.empty()) {
        PaddingQuestion Q;
        Q.Kernel = Kernel;
        Q.Options = Opts;
        Q.Launches = &Launches;
        Q.LaunchIndex = LaunchIndex;
        Q.Conflict = &A;
        Q.Var = Var;
        Q.Layout = *Layout;
        Q.MaxPadding = MaxPadding;
        Q.Arch = model::findArch(targetArch(Ctx));
        Padding = findConflictFreePadding(TU, Q);
        NoFix = Padding.WhyNone;
      }
      // The diagnostic is assembled here and emitted at the end of the
      // translation unit (see onEndOfTranslationUnit).
      PendingConflict P;
      P.Loc = Loc;
      P.Kernel = Kernel;
      P.Launch = Launch.Launch;
      P.Message = std::to_string(W.ConflictDegree) + "-way bank conflict " + Verb + " '" +
                  sourceText(A.Site.Expr, Ctx) + "'" + worstCaseClause(A) + ": " + Who + " (" +
                  formatCount(A.Cost.WavefrontsPerRequest) + " wavefronts per request, ideal " +
                  formatCount(A.Cost.IdealWavefrontsPerRequest) + otherwiseClause(A) +
                  ") " + launchClause(Kernel, Launch.Launch, Ctx);
      if (Padding.Elements) {
        llvm::StringRef OldText = Lexer::getSourceText(DimRange, SM, Ctx.getLangOpts()).trim();
        unsigned long long Literal;
        // `32` -> `33`; `TILE` -> `TILE + 1`; `N << 1` -> `(N << 1) + 1`.
        bool Simple = !OldText.empty() && llvm::all_of(OldText, [](char C) {
          return llvm::isAlnum(C) || C == '_';
        });
        std::string NewSize = !OldText.getAsInteger(10, Literal)
                                  ? std::to_string(Literal + *Padding.Elements)
                                  : (Simple ? OldText.str() : "(" + OldText.str() + ")") +
                                        " + " + std::to_string(*Padding.Elements);
        P.Fix = FixItHint::CreateReplacement(DimRange, NewSize);
        P.PaddedVar = Var;
        P.PaddedSize = NewSize;
        P.AddedBytes = Padding.AddedBytes;
        P.PaddingNote = "padding the last dimension of '" + Var->getNameAsString() + "' to " +
                        NewSize + " removes the conflict and makes no access to it worse (+" +
                        std::to_string(Padding.AddedBytes) + " bytes, " +
                        formatPercent(double(Padding.AddedBytes) / double(arrayBytes(*Layout))) +
                        ")";
      } else if (std::optional<std::string> Note = leadingDimensionNote(A, Ctx)) {
        P.Notes.push_back({Loc, *Note});
      } else if (Layout && Layout->Dims.size() >= 2) {
        P.Notes.push_back({Loc, "no padding offered: " + NoFix +
                                    "; an XOR swizzle spreads the rows over the banks "
                                    "instead: index column c of row r as (c ^ (r % 32))"});
      } else {
        P.Notes.push_back({Loc, "no padding offered: " + NoFix +
                                    "; index it so that adjacent lanes use adjacent words "
                                    "(in a tree reduction: sequential addressing, a[tid] "
                                    "+= a[tid + s] with s halving)"});
      }
      for (const std::string &Executed : executedAs(A, Ctx))
        P.Notes.push_back({Loc, Executed});
      for (auto &CallNote : callSiteNotes(A))
        P.Notes.push_back(std::move(CallNote));
      for (const Assumption &Assumed : A.Assumptions)
        P.Notes.push_back({Loc, "assumed: " + Assumed.Text});
      for (const std::string &Cut : Launch.BudgetCuts)
        P.Notes.push_back({Loc, Cut});
      Pending.push_back(std::move(P));
    }
  }
}

SharedBankConflictCheck::PendingConflict
SharedBankConflictCheck::phaseSplit(const AccessResult &A, const FunctionDecl *Kernel,
                                    const KernelLaunchAnalysis &Launch, const char *Verb,
                                    ASTContext &Ctx) {
  const model::WarpAddressSet &Request = *A.WorstRequest;
  model::SharedMemoryGeometry G;
  unsigned Width = std::max(Request.bytesPerLane(), G.BankWidthBytes);
  unsigned PhaseLanes = std::max(1u, G.bytesPerWavefront() / Width);
  std::vector<unsigned> Active;
  unsigned Phases = 0;
  for (unsigned First = 0; First < model::WarpSize; First += PhaseLanes) {
    bool Used = false;
    for (unsigned Lane = First; Lane < First + PhaseLanes && Lane < model::WarpSize; ++Lane)
      if (Request.isActive(Lane)) {
        Active.push_back(Lane);
        Used = true;
      }
    Phases += Used;
  }
  std::string Bytes = std::to_string(Request.bytesPerLane());
  const char *Article = Bytes[0] == '8' || Bytes == "11" || Bytes == "18" ? "an " : "a ";
  PendingConflict P;
  P.Loc = A.Site.Expr->getBeginLoc();
  P.Kernel = Kernel;
  P.Launch = Launch.Launch;
  P.Message = "phase split " + std::string(Verb) + " '" + sourceText(A.Site.Expr, Ctx) + "'" +
              worstCaseClause(A) + ": lanes " + laneList(Active) + " fall in " +
              std::to_string(Phases) + " phases of " + std::to_string(PhaseLanes) +
              " lanes of " + Article + Bytes + "-byte access, no bank used twice (" + formatCount(A.Cost.WavefrontsPerRequest) +
              " wavefronts per request, ideal " + formatCount(A.Cost.IdealWavefrontsPerRequest) +
              otherwiseClause(A) + ") " + launchClause(Kernel, Launch.Launch, Ctx);
  P.Notes.push_back(
      {P.Loc, Article + Bytes + "-byte shared access is served " +
                  std::to_string(PhaseLanes) + " lanes at a time (lanes 0-" +
                  std::to_string(PhaseLanes - 1) + ", " + std::to_string(PhaseLanes) + "-" +
                  std::to_string(2 * PhaseLanes - 1) +
                  ", ...); let consecutive lanes make the accesses (the lane's rank among "
                  "the active ones, not its threadIdx) so that they share phases"});
  for (const std::string &Executed : executedAs(A, Ctx))
    P.Notes.push_back({P.Loc, Executed});
  for (auto &CallNote : callSiteNotes(A))
    P.Notes.push_back(std::move(CallNote));
  for (const Assumption &Assumed : A.Assumptions)
    P.Notes.push_back({P.Loc, "assumed: " + Assumed.Text});
  for (const std::string &Cut : Launch.BudgetCuts)
    P.Notes.push_back({P.Loc, Cut});
  return P;
}

std::optional<std::string>
SharedBankConflictCheck::occupancyCostOfPadding(const PendingConflict &P, ASTContext &Ctx) {
  // The padding's bytes count against the SM's shared memory like any
  // other static __shared__ byte: cudaOccupancyMaxActiveBlocksPerMultiprocessor
  // divides the SM's shared memory by the block's (static + dynamic +
  // reserved) bytes, rounded to the allocation unit (model/Occupancy.h,
  // checked against 13,000 runtime answers on the H200).
  RegisterOptions RO = registerOptions(Ctx);
  std::optional<KernelOccupancyReport> Before = occupancyFor(
      P.Kernel, P.Launch, *unitSession(), RO, Registers.defaultDynamicSharedBytes());
  if (!Before || !Before->ArchSpec || !Before->Result.valid())
    return std::nullopt;
  model::KernelResources Padded = Before->Resources;
  Padded.StaticSharedBytes += P.AddedBytes;
  model::OccupancyResult After = model::computeOccupancy(*Before->ArchSpec, Padded);
  const model::OccupancyResult &Now = Before->Result;
  if (After.valid() && After.ActiveBlocksPerSM >= Now.ActiveBlocksPerSM)
    return std::nullopt;
  std::string Shared = std::to_string(Before->Resources.StaticSharedBytes) + " + " +
                       std::to_string(P.AddedBytes) + " bytes of static shared memory";
  if (Before->Resources.DynamicSharedBytes)
    Shared += " (and " + std::to_string(Before->Resources.DynamicSharedBytes) + " dynamic)";
  std::string Threads = " of " + std::to_string(Before->Resources.ThreadsPerBlock) + " threads";
  std::string EstimatedRegisters =
      Before->RegistersSource == "estimate"
          ? "; with " + std::to_string(Before->Registers) + " registers per thread (estimated)"
          : "";
  if (!After.valid())
    return "the padding costs the launch on " + Before->ArchSpec->Name + ": " + Shared +
           " per block: " + After.Error;
  return "the padding costs occupancy on " + Before->ArchSpec->Name + ": " + Shared +
         " per block allow " + std::to_string(After.ActiveBlocksPerSM) + " blocks" + Threads +
         " per SM instead of " + std::to_string(Now.ActiveBlocksPerSM) + " (" +
         model::formatPercent(After.Theoretical) + " occupancy instead of " +
         model::formatPercent(Now.Theoretical) + ")" + EstimatedRegisters;
}

void SharedBankConflictCheck::onEndOfTranslationUnit() {
  // One diagnostic is in flight at a time: each warning (with its fix-it)
  // is followed by its own notes.
  TranslationUnitSession *Session = unitSession();
  ASTContext *Ctx = Session ? &Session->context() : nullptr;
  bool UsedRegisters = false;
  // One fix-it per array: clang-tidy applies none of two fix-its that
  // touch the same text, even identical ones ("this fix will not be
  // applied because it overlaps with another fix"), and an array with two
  // conflicting accesses (or one access under two launch shapes) would
  // otherwise carry one per warning. The first carries it; the others'
  // notes point to it.
  struct OfferedPadding {
    std::string Size;
    unsigned Line = 0;
  };
  std::map<const VarDecl *, OfferedPadding> Offered;
  for (const PendingConflict &P : Pending) {
    const OfferedPadding *Earlier = nullptr;
    if (P.PaddedVar)
      if (auto It = Offered.find(P.PaddedVar); It != Offered.end())
        Earlier = &It->second;
    {
      auto D = diag(P.Loc, "%0") << P.Message;
      if (P.Fix && !Earlier)
        D << *P.Fix;
    }
    if (P.PaddedVar && Earlier) {
      std::string Name = P.PaddedVar->getNameAsString();
      if (Earlier->Size == P.PaddedSize)
        diag(P.PaddedVar->getLocation(),
             "padding the last dimension of '%0' to %1, the fix-it offered with the "
             "warning at line %2, removes this conflict too",
             DiagnosticIDs::Note)
            << Name << P.PaddedSize << Earlier->Line;
      else
        diag(P.PaddedVar->getLocation(),
             "padding the last dimension of '%0' to %1 would remove this conflict, but the "
             "fix-it offered with the warning at line %2 pads it to %3",
             DiagnosticIDs::Note)
            << Name << P.PaddedSize << Earlier->Line << Earlier->Size;
    } else if (P.PaddedVar) {
      if (Ctx)
        Offered[P.PaddedVar] = {P.PaddedSize,
                                Ctx->getSourceManager().getPresumedLineNumber(
                                    Ctx->getSourceManager().getFileLoc(P.Loc))};
      diag(P.PaddedVar->getLocation(), "%0", DiagnosticIDs::Note) << P.PaddingNote;
      // No register count for a translation unit that does not compile
      // (see OccupancyCheck::onEndOfTranslationUnit).
      if (Ctx && !Ctx->getDiagnostics().hasErrorOccurred()) {
        if (!UsedRegisters)
          Session->registers().setPreprocessor(PP);
        UsedRegisters = true;
        std::optional<std::string> Cost;
        containedOnKernel(P.Kernel, *Ctx, [&] { Cost = occupancyCostOfPadding(P, *Ctx); });
        if (Cost)
          diag(P.PaddedVar->getLocation(), "%0", DiagnosticIDs::Note) << *Cost;
      }
    }
    for (const auto &[NoteLoc, Text] : P.Notes)
      diag(NoteLoc, "%0", DiagnosticIDs::Note) << Text;
  }
  Pending.clear();
  CudaKernelCheck::onEndOfTranslationUnit();
}

} // namespace clang::tidy::cuda
