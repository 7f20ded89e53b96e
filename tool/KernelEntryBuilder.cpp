//===- KernelEntryBuilder.cpp - the typed kernel entries of one unit ------===//

#include "KernelEntryBuilder.h"

#include "warpcheck/analysis/AosAccesses.h"
#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/analysis/KernelResources.h"
#include "warpcheck/analysis/RegisterUsage.h"
#include "warpcheck/model/Arch.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

#include <cmath>

using namespace clang;
using namespace warpcheck::analysis;

namespace warpcheck::tool {

namespace {

double rounded(double V) {
  // Averages are exact fractions of the simulated requests; four decimals
  // keep them comparable with ncu's averages.
  return std::round(V * 10000.0) / 10000.0;
}

/// A file as reports name it: without "." and ".." (a header found through
/// -I../include is <dir>/include/x.cuh, however many units include it).
std::string reportedPath(llvm::StringRef File) {
  llvm::SmallString<256> P(File);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return P.str().str();
}

/// File, line and column of Loc, all nullopt when it names no file.
struct Position {
  std::optional<std::string> File;
  std::optional<std::int64_t> Line, Column;
};

Position positionOf(SourceLocation Loc, const SourceManager &SM) {
  PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(Loc));
  if (P.isInvalid())
    return {};
  return {reportedPath(P.getFilename()), P.getLine(), P.getColumn()};
}

/// The name, file and line of a kernel.
KernelEntry kernelIdentity(const FunctionDecl *K, ASTContext &Ctx) {
  KernelEntry Entry;
  llvm::raw_string_ostream NS(Entry.Name);
  K->getNameForDiagnostic(NS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
  NS.flush();
  Position P = positionOf(K->getLocation(), Ctx.getSourceManager());
  Entry.File = P.File;
  Entry.Line = P.Line;
  return Entry;
}

Dims dimsOf(const Dim3 &D) { return {D.X, D.Y, D.Z}; }

LaunchEntry launchEntry(const LaunchConfig &L) {
  LaunchEntry E;
  E.Block = dimsOf(L.Block);
  if (L.GridKnown)
    E.Grid = dimsOf(L.Grid);
  E.Source = L.sourceName();
  E.Description = L.Description;
  if (L.DynamicSharedBytes)
    E.DynamicSharedBytes = static_cast<std::int64_t>(*L.DynamicSharedBytes);
  E.Location = L.Location;
  E.Context = L.Context;
  E.UnevaluatedLaunches = L.Unevaluated;
  E.WithoutArguments = L.WithoutArguments;
  return E;
}

/// The requests of an instruction or a call site, and their rounded
/// per-request numbers of the access's space (none without requests).
template <typename Entry> void setPerRequest(Entry &X, const AccessCost &C, bool Global) {
  X.RequestsSimulated = C.Requests;
  if (C.Requests == 0)
    return;
  if (Global) {
    X.SectorsPerRequest = rounded(C.SectorsPerRequest);
    X.IdealSectorsPerRequest = rounded(C.IdealSectorsPerRequest);
  } else {
    X.WavefrontsPerRequest = rounded(C.WavefrontsPerRequest);
    X.IdealWavefrontsPerRequest = rounded(C.IdealWavefrontsPerRequest);
  }
}

AccessEntry accessEntry(const AccessResult &A, ASTContext &Ctx) {
  AccessEntry E;
  Position P = positionOf(A.Site.Expr->getBeginLoc(), Ctx.getSourceManager());
  E.File = P.File;
  E.Line = P.Line;
  E.Column = P.Column;
  Position End = positionOf(A.Site.Expr->getEndLoc(), Ctx.getSourceManager());
  E.EndLine = End.File == P.File && End.Line && P.Line && *End.Line >= *P.Line ? End.Line : P.Line;
  E.Expression = sourceText(A.Site.Expr, Ctx);
  E.Space = A.Site.Space;
  E.Op = A.Site.Op;
  E.BytesPerLane = A.Site.BytesPerLane;
  E.Status = A.Status;
  E.RequestsSimulated = A.Cost.Requests;
  bool Known = A.Status != AccessStatus::Unknown && A.Cost.Requests > 0;
  bool Global = A.Site.Space == MemorySpace::Global;
  auto Metric = [&](bool Applies, double V) -> std::optional<double> {
    if (!Known || !Applies)
      return std::nullopt;
    return rounded(V);
  };
  E.SectorsPerRequest = Metric(Global, A.Cost.SectorsPerRequest);
  E.IdealSectorsPerRequest = Metric(Global, A.Cost.IdealSectorsPerRequest);
  E.LinesPerRequest = Metric(Global, A.Cost.LinesPerRequest);
  E.IdealLinesPerRequest = Metric(Global, A.Cost.IdealLinesPerRequest);
  E.LineEfficiency = Metric(Global, A.Cost.lineEfficiency());
  E.WavefrontsPerRequest = Metric(!Global, A.Cost.WavefrontsPerRequest);
  E.IdealWavefrontsPerRequest = Metric(!Global, A.Cost.IdealWavefrontsPerRequest);
  E.Efficiency = Metric(true, A.Cost.efficiency(A.Site.Space));
  // Global atomics: whether the compiler issues each warp's as one lane's
  // request (docs/hardware-model.md, "Atomics the compiler aggregates").
  if (Known && Global && A.Site.Op == AccessOp::Atomic)
    E.Aggregated = A.AggregatedRequests == A.Cost.Requests;
  if (A.Site.SharedVar)
    E.SharedVariable = A.Site.SharedVar->getNameAsString();
  if (!Global && Known)
    E.ConflictDegree = A.WorstShared.ConflictDegree;
  if (!A.DataSource.empty())
    E.DataSource = A.DataSource;
  E.Assumptions = A.Assumptions;
  if (A.InstructionsFrom == InstructionOrigin::Model)
    E.InstructionsFrom = "model";
  if (A.InstructionsFrom == InstructionOrigin::Listing)
    E.InstructionsFrom = "listing";
  // Read from the listing, or predicted (an unrolled loop's merged
  // iterations: UnrolledMerges.h).
  if (A.InstructionsFrom != InstructionOrigin::Source) {
    for (const EmittedInstruction &I : A.Instructions) {
      InstructionEntry X;
      X.Opcode = I.Opcode;
      X.BytesPerLane = I.BytesPerLane;
      // The reconciliation pairs an access only with instructions of its
      // own file (EmittedInstructions.h).
      X.File = E.File;
      X.Line = I.Line;
      X.OtherLines.assign(I.OtherLines.begin(), I.OtherLines.end());
      for (auto [Change, Name] : {std::pair{I.Merged, "merged"}, std::pair{I.Split, "split"},
                                  std::pair{I.Moved, "moved"}, std::pair{I.Hoisted, "hoisted"},
                                  std::pair{I.RepeatsRemoved, "repeats_removed"}})
        if (Change)
          X.Changes.push_back(Name);
      for (const Expr *S : I.Serves)
        X.Serves.push_back(sourceText(S, Ctx));
      if (I.CountedWith)
        X.CountedWith = sourceText(I.CountedWith, Ctx);
      X.ServedExecutions = I.ServedExecutions;
      setPerRequest(X, I.Cost, Global);
      E.Instructions.push_back(std::move(X));
    }
  }
  if (Known)
    for (const CallSiteCost &C : A.CallSites) {
      CallSiteEntry S;
      Position At = positionOf(C.Call->getBeginLoc(), Ctx.getSourceManager());
      S.File = At.File;
      S.Line = At.Line.value_or(0);
      S.Column = At.Column.value_or(0);
      setPerRequest(S, C.Cost, Global);
      E.CallSites.push_back(std::move(S));
    }
  if (A.Dependence) {
    // The numbers above are the sweep's worst case; this says where it is
    // and what the other values give.
    const ValueDependence &D = *A.Dependence;
    ValueDependenceEntry V;
    V.Symbols = D.Symbols;
    V.MemoryReads = D.MemoryReads;
    V.RepresentativeValue = D.RepresentativeValue;
    V.CommandLineDefaults = D.CommandLineDefaults;
    V.Worst = rounded(D.Worst);
    V.Best = rounded(D.Best);
    V.Condition = D.WorstCondition;
    V.Truncated = D.Truncated;
    for (const ValueDependence::Sample &X : D.Samples) {
      std::optional<double> Metric;
      if (X.Reached)
        Metric = rounded(Global ? X.Cost.SectorsPerRequest : X.Cost.WavefrontsPerRequest);
      V.Samples.push_back({X.Value, X.Reached, Metric});
    }
    E.ValueDependence = std::move(V);
  }
  return E;
}

AosEntry aosEntry(const AosGroup &G, const KernelLaunchAnalysis &K, ASTContext &Ctx) {
  AosEntry E;
  Position P =
      positionOf(K.Accesses[G.Accesses.front()].Site.Expr->getBeginLoc(), Ctx.getSourceManager());
  E.File = P.File;
  E.Line = P.Line;
  E.Column = P.Column;
  E.Struct = G.StructName;
  E.StructBytes = static_cast<std::int64_t>(G.StructBytes);
  E.Pointer = G.PointerName;
  auto Traffic = [](const model::LayoutTraffic &T) {
    return AosTrafficEntry{T.Instructions,
                           T.L1Sectors,
                           T.SoaL1Sectors,
                           static_cast<std::int64_t>(T.DramBytes),
                           static_cast<std::int64_t>(T.SoaDramBytes),
                           static_cast<std::int64_t>(T.UsefulBytes)};
  };
  for (const AosField &F : G.Fields)
    E.Fields.push_back({F.Name, static_cast<std::int64_t>(F.Offset),
                        static_cast<std::int64_t>(F.Bytes), F.Loaded, F.Stored,
                        Traffic(F.Traffic.Loads), Traffic(F.Traffic.Stores)});
  E.WholeCopy = G.WholeCopy;
  E.Exact = G.Exact;
  E.Assumptions = G.Assumptions;
  E.Loads = Traffic(G.Traffic.Loads);
  E.Stores = Traffic(G.Traffic.Stores);
  E.L1Efficiency = rounded(G.Traffic.l1Efficiency());
  E.DramEfficiency = rounded(G.Traffic.dramEfficiency());
  if (const auto &V = G.Traffic.Vector)
    E.Vector = AosVectorEntry{V->VectorBytes, V->PaddingBytes, V->L1Sectors,
                              static_cast<std::int64_t>(V->DramBytes)};
  return E;
}

OccupancyEntry occupancyEntry(const KernelOccupancyReport &R) {
  return {R.Occupancy.Arch,
          R.Registers,
          R.RegistersSource,
          R.Occupancy.ActiveBlocksPerSM,
          R.Occupancy.ActiveWarpsPerSM,
          rounded(R.Occupancy.Theoretical),
          R.Occupancy.Limiter};
}

/// The roofline verdict of a launch on one architecture's part; nullopt
/// when the part's peak or bandwidth is not known.
std::optional<RooflineEntry> rooflineOn(const std::string &ArchName,
                                        const model::FlopCounts &Flops, double Bytes,
                                        AccessStatus Status) {
  const model::ArchSpec *Arch = model::findArch(ArchName);
  if (!Arch)
    return std::nullopt;
  model::FloatPrecision P = Flops.dominantPrecision();
  bool Vendor = false;
  double Peak = model::peakFlopsPerSecond(*Arch, P, &Vendor);
  model::RooflineMachine M{Peak, Arch->Part.MemoryBandwidthGBps * 1e9};
  if (M.PeakFlopsPerSecond <= 0 || M.BandwidthBytesPerSecond <= 0)
    return std::nullopt;
  model::RooflineVerdict V =
      model::rooflineVerdict(M, static_cast<double>(Flops.totalFlops()), Bytes);
  RooflineEntry E;
  E.Arch = Arch->Name;
  E.Part = Arch->Part.Name;
  E.Precision = model::precisionName(P);
  E.PeakFlopsPerSecond = M.PeakFlopsPerSecond;
  E.PeakSource = Vendor ? "vendor" : "derived";
  E.BandwidthBytesPerSecond = M.BandwidthBytesPerSecond;
  E.Ridge = rounded(V.Ridge);
  E.Bound = model::boundName(V.Bound);
  E.AttainableFlopsPerSecond = V.AttainableFlopsPerSecond;
  E.TimeBoundSeconds = V.TimeBoundSeconds;
  E.Status = Status;
  return E;
}

WorkEntry workEntry(const LaunchWork &W, llvm::ArrayRef<std::string> Archs) {
  WorkEntry E;
  E.BlocksSimulated = W.SimulatedBlocks;
  E.TotalBlocks = static_cast<std::int64_t>(W.TotalBlocks);
  E.Flops.Status = W.FlopsStatus;
  E.Flops.Assumptions = W.FlopsAssumptions;
  E.Flops.NotCounted = W.FlopsNotCounted;
  E.Flops.PerThread = W.FlopsPerThread;
  if (W.Flops) {
    for (model::FloatPrecision P : model::AllFloatPrecisions) {
      const model::PrecisionOps &O = (*W.Flops)[P];
      E.Flops.ByPrecision[static_cast<int>(P)] = {
          static_cast<std::int64_t>(O.Add), static_cast<std::int64_t>(O.Mul),
          static_cast<std::int64_t>(O.Fma), static_cast<std::int64_t>(O.Flops)};
    }
    E.Flops.Total = static_cast<std::int64_t>(W.Flops->totalFlops());
  }
  E.Dram.Status = W.DramStatus;
  E.Dram.Assumptions = W.DramAssumptions;
  E.Dram.NotCounted = W.DramNotCounted;
  if (W.DramReadBytes && W.DramWriteBytes) {
    E.Dram.Read = static_cast<std::int64_t>(*W.DramReadBytes);
    E.Dram.Write = static_cast<std::int64_t>(*W.DramWriteBytes);
  }
  if (!W.Flops || !E.Dram.Read || *E.Dram.Read + *E.Dram.Write == 0)
    return E;
  double Bytes = static_cast<double>(*E.Dram.Read + *E.Dram.Write);
  E.Intensity = rounded(model::arithmeticIntensity(static_cast<double>(W.Flops->totalFlops()), Bytes));
  AccessStatus Status = W.FlopsStatus == AccessStatus::Exact && W.DramStatus == AccessStatus::Exact
                            ? AccessStatus::Exact
                            : AccessStatus::Assumed;
  for (const std::string &A : Archs)
    if (std::optional<RooflineEntry> R = rooflineOn(A, *W.Flops, Bytes, Status))
      E.Roofline.push_back(std::move(*R));
  return E;
}

std::string kernelErrorSentence(const FunctionDecl *K, const KernelError &E,
                                const SourceManager &SM) {
  std::string Where = shortLocation(SM, E.Loc);
  std::string In = E.In && E.In != K ? " in '" + E.In->getNameAsString() + "', which it calls" : "";
  return "not analysed: the kernel does not compile: " + E.Message + " (" + Where + In + ")";
}

} // namespace

KernelEntry kernelErrorEntry(const FunctionDecl *K, const KernelError &E, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  KernelEntry Kernel = kernelIdentity(K, Ctx);
  Kernel.Status = KernelStatus::Error;
  Position P = positionOf(E.Loc, SM);
  KernelErrorEntry Error{P.File, P.Line, P.Column, E.Message, std::nullopt};
  if (E.In && E.In != K)
    Error.Function = E.In->getNameAsString();
  Kernel.Error = std::move(Error);
  Kernel.Limitations = {kernelErrorSentence(K, E, SM)};
  return Kernel;
}

KernelEntry kernelFailureEntry(const FunctionDecl *K, const std::string &Why, ASTContext &Ctx) {
  KernelEntry Kernel = kernelIdentity(K, Ctx);
  Kernel.Status = KernelStatus::Failed;
  Position P = positionOf(K->getLocation(), Ctx.getSourceManager());
  Kernel.Error = KernelErrorEntry{P.File, P.Line, P.Column,
                                  "warpcheck could not analyse the kernel: " + Why, std::nullopt};
  Kernel.Limitations = {"not analysed: warpcheck could not analyse the kernel: " + Why};
  return Kernel;
}

KernelEntry kernelLaunchEntry(const KernelLaunchAnalysis &K, TranslationUnitSession &Session,
                              llvm::StringRef Arch, const Preprocessor *PP,
                              const clang::tidy::cuda::RegisterCountOptions &Registers,
                              const LaunchWork &Work, llvm::ArrayRef<std::string> CompareArchs) {
  ASTContext &Ctx = Session.context();
  KernelEntry Kernel = kernelIdentity(K.Kernel, Ctx);
  Kernel.Launch = launchEntry(K.Launch);
  Kernel.SimulatedWarps = K.SimulatedWarps;
  Kernel.TotalWarps = static_cast<std::int64_t>(K.TotalWarps);
  Kernel.SimulatedBlocks = K.SimulatedBlocks;
  Kernel.SampledSymbols = K.SampledSymbols;
  Kernel.Limitations = K.Limitations;
  Kernel.BudgetCuts = K.BudgetCuts;
  for (const AccessResult &A : K.Accesses)
    Kernel.Accesses.push_back(accessEntry(A, Ctx));
  for (const AosGroup &G : findAosGroups(K, Ctx))
    Kernel.Aos.push_back(aosEntry(G, K, Ctx));
  std::vector<std::string> RooflineArchs = {Arch.str()};
  RooflineArchs.insert(RooflineArchs.end(), CompareArchs.begin(), CompareArchs.end());
  Kernel.Work = workEntry(Work, RooflineArchs);

  // Registers, shared memory and theoretical occupancy of this launch.
  std::string WhyNot;
  if (auto Occ = occupancyFor(K.Kernel, K.Launch, Session, Registers.registerOptions(Arch, PP),
                              Registers.defaultDynamicSharedBytes(), &WhyNot)) {
    // What the numbers rest on: registers estimated because ptxas could not
    // compile the unit (and why), a shared size not known.
    LaunchResourcesEntry R;
    R.Occupancy = occupancyEntry(*Occ);
    R.SharedBytesStatic = static_cast<std::int64_t>(Occ->SharedBytesStatic);
    R.SharedBytesDynamic = static_cast<std::int64_t>(Occ->SharedBytesDynamic);
    if (Occ->RegisterDetails.Source == RegisterSource::Ptxas) {
      R.SpillStoreBytes = static_cast<std::int64_t>(Occ->RegisterDetails.SpillStoreBytes);
      R.SpillLoadBytes = static_cast<std::int64_t>(Occ->RegisterDetails.SpillLoadBytes);
    }
    R.Assumptions = Occ->Assumptions;
    Kernel.Resources = std::move(R);
  } else
    Kernel.Limitations.push_back("occupancy not computed: " + WhyNot);
  // The same launch on the other architectures of an --arch list: ptxas
  // compiles for each (its count differs between architectures), or the
  // estimate.
  if (!CompareArchs.empty()) {
    Kernel.OccupancyByArch.emplace();
    std::vector<std::string> All = {Arch.str()};
    All.insert(All.end(), CompareArchs.begin(), CompareArchs.end());
    for (const std::string &A : All) {
      ArchOccupancyEntry Entry{A, std::nullopt, ""};
      if (auto Occ = occupancyFor(K.Kernel, K.Launch, Session, Registers.registerOptions(A, PP),
                                  Registers.defaultDynamicSharedBytes(), &Entry.Unavailable))
        Entry.Occupancy = occupancyEntry(*Occ);
      Kernel.OccupancyByArch->push_back(std::move(Entry));
    }
  }
  return Kernel;
}

} // namespace warpcheck::tool
