#include "KernelReportJson.h"

#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/analysis/KernelResources.h"
#include "warpcheck/analysis/RegisterUsage.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

#include <cmath>

using namespace clang;
using namespace warpcheck::analysis;

namespace warpcheck::tool {

static llvm::json::Value rounded(double V) {
  // Averages are exact fractions of the simulated requests; four decimals
  // keep them comparable with ncu's averages.
  return std::round(V * 10000.0) / 10000.0;
}

/// A file as reports name it: without "." and ".." (a header found through
/// -I../include is <dir>/include/x.cuh, however many units include it).
static std::string reportedPath(llvm::StringRef File) {
  llvm::SmallString<256> P(File);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return P.str().str();
}

static void putLocation(llvm::json::Object &O, SourceLocation Loc,
                        const SourceManager &SM) {
  Loc = SM.getFileLoc(Loc);
  PresumedLoc P = SM.getPresumedLoc(Loc);
  if (P.isInvalid()) {
    O["file"] = nullptr;
    O["line"] = nullptr;
    O["column"] = nullptr;
    return;
  }
  O["file"] = reportedPath(P.getFilename()); // json::Value keeps StringRefs unowned
  O["line"] = P.getLine();
  O["column"] = P.getColumn();
}

/// "name", "file", "line" of a kernel.
static llvm::json::Object kernelIdentity(const FunctionDecl *K, ASTContext &Ctx) {
  llvm::json::Object Kernel;
  std::string Name;
  llvm::raw_string_ostream NS(Name);
  K->getNameForDiagnostic(NS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
  NS.flush();
  Kernel["name"] = Name;
  SourceLocation Loc = Ctx.getSourceManager().getFileLoc(K->getLocation());
  PresumedLoc P = Ctx.getSourceManager().getPresumedLoc(Loc);
  Kernel["file"] = P.isValid() ? llvm::json::Value(reportedPath(P.getFilename())) : nullptr;
  Kernel["line"] = P.isValid() ? llvm::json::Value(P.getLine()) : nullptr;
  return Kernel;
}

llvm::json::Object kernelErrorToJson(const FunctionDecl *K, const KernelError &E,
                                     ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::json::Object Kernel = kernelIdentity(K, Ctx);
  Kernel["status"] = "error";
  llvm::json::Object Error;
  putLocation(Error, E.Loc, SM);
  Error["message"] = E.Message;
  if (E.In && E.In != K)
    Error["function"] = E.In->getNameAsString();
  Kernel["error"] = std::move(Error);
  Kernel["launch"] = nullptr;
  Kernel["accesses"] = llvm::json::Array();
  Kernel["sampled_symbols"] = llvm::json::Array();
  Kernel["limitations"] = llvm::json::Array{kernelErrorSentence(K, E, SM)};
  return Kernel;
}

std::string kernelErrorSentence(const FunctionDecl *K, const KernelError &E,
                                const SourceManager &SM) {
  std::string Where = shortLocation(SM, E.Loc);
  std::string In = E.In && E.In != K ? " in '" + E.In->getNameAsString() + "', which it calls" : "";
  return "not analysed: the kernel does not compile: " + E.Message + " (" + Where + In + ")";
}

llvm::json::Object kernelLaunchToJson(const KernelLaunchAnalysis &K,
                                      TranslationUnitSession &Session, llvm::StringRef Arch, const Preprocessor *PP,
                                      const clang::tidy::cuda::RegisterCountOptions &Registers,
                                      llvm::ArrayRef<std::string> CompareArchs) {
  ASTContext &Ctx = Session.context();
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::json::Object Kernel = kernelIdentity(K.Kernel, Ctx);
  Kernel["status"] = "analysed";

  llvm::json::Object Launch;
  Launch["block"] = llvm::json::Array{K.Launch.Block.X, K.Launch.Block.Y, K.Launch.Block.Z};
  if (K.Launch.GridKnown)
    Launch["grid"] = llvm::json::Array{K.Launch.Grid.X, K.Launch.Grid.Y, K.Launch.Grid.Z};
  else
    Launch["grid"] = nullptr;
  Launch["source"] = K.Launch.sourceName();
  Launch["description"] = K.Launch.Description;
  if (K.Launch.DynamicSharedBytes)
    Launch["dynamic_shared_bytes"] = static_cast<std::int64_t>(*K.Launch.DynamicSharedBytes);
  if (!K.Launch.Location.empty())
    Launch["location"] = K.Launch.Location;
  llvm::json::Array Context, Unevaluated;
  for (const std::string &S : K.Launch.Context)
    Context.push_back(S);
  for (const std::string &S : K.Launch.Unevaluated)
    Unevaluated.push_back(S);
  Launch["context"] = std::move(Context);
  Launch["unevaluated_launches"] = std::move(Unevaluated);
  Kernel["launch"] = std::move(Launch);
  Kernel["simulated_warps"] = K.SimulatedWarps;
  Kernel["total_warps"] = static_cast<std::int64_t>(K.TotalWarps);
  llvm::json::Array Sampled;
  for (const std::string &S : K.SampledSymbols)
    Sampled.push_back(S);
  Kernel["sampled_symbols"] = std::move(Sampled);
  llvm::json::Array Limits;
  for (const std::string &S : K.Limitations)
    Limits.push_back(S);
  Kernel["limitations"] = std::move(Limits);

  llvm::json::Array Accesses;
  for (const AccessResult &A : K.Accesses) {
    llvm::json::Object O;
    putLocation(O, A.Site.Expr->getBeginLoc(), SM);
    O["expression"] = sourceText(A.Site.Expr, Ctx);
    O["space"] = spaceName(A.Site.Space);
    O["op"] = opName(A.Site.Op);
    O["bytes_per_lane"] = A.Site.BytesPerLane;
    O["status"] = statusName(A.Status);
    O["requests_simulated"] = A.Cost.Requests;
    bool Known = A.Status != AccessStatus::Unknown && A.Cost.Requests > 0;
    bool Global = A.Site.Space == MemorySpace::Global;
    auto Metric = [&](bool Applies, double V) -> llvm::json::Value {
      if (!Known || !Applies)
        return nullptr;
      return rounded(V);
    };
    O["sectors_per_request"] = Metric(Global, A.Cost.SectorsPerRequest);
    O["ideal_sectors_per_request"] = Metric(Global, A.Cost.IdealSectorsPerRequest);
    O["lines_per_request"] = Metric(Global, A.Cost.LinesPerRequest);
    O["ideal_lines_per_request"] = Metric(Global, A.Cost.IdealLinesPerRequest);
    O["line_efficiency"] = Metric(Global, A.Cost.lineEfficiency());
    O["wavefronts_per_request"] = Metric(!Global, A.Cost.WavefrontsPerRequest);
    O["ideal_wavefronts_per_request"] = Metric(!Global, A.Cost.IdealWavefrontsPerRequest);
    O["efficiency"] = Metric(true, A.Cost.efficiency(A.Site.Space));
    // Global atomics: whether the compiler issues each warp's as one lane's
    // request (docs/hardware-model.md, "Atomics the compiler aggregates").
    if (Known && Global && A.Site.Op == AccessOp::Atomic)
      O["aggregated"] = A.AggregatedRequests == A.Cost.Requests;
    else
      O["aggregated"] = nullptr;
    if (A.Site.SharedVar)
      O["shared_variable"] = A.Site.SharedVar->getNameAsString();
    if (!Global && Known) {
      O["conflict_degree"] = A.WorstShared.ConflictDegree;
    }
    llvm::json::Array Assumptions;
    for (const std::string &S : A.Assumptions)
      Assumptions.push_back(S);
    O["assumptions"] = std::move(Assumptions);
    if (A.Dependence) {
      // The numbers above are the sweep's worst case; this says where it is
      // and what the other values give.
      const ValueDependence &D = *A.Dependence;
      const char *Metric = Global ? "sectors_per_request" : "wavefronts_per_request";
      llvm::json::Array Symbols, Samples;
      for (const std::string &S : D.Symbols)
        Symbols.push_back(S);
      for (const ValueDependence::Sample &X : D.Samples)
        Samples.push_back(llvm::json::Object{
            {"value", X.Value},
            {"reached", X.Reached},
            {Metric, X.Reached ? llvm::json::Value(rounded(Global ? X.Cost.SectorsPerRequest
                                                                  : X.Cost.WavefrontsPerRequest))
                               : llvm::json::Value(nullptr)}});
      O["value_dependence"] = llvm::json::Object{{"symbols", std::move(Symbols)},
                                                 {"metric", Metric},
                                                 {"worst", rounded(D.Worst)},
                                                 {"best", rounded(D.Best)},
                                                 {"condition", D.WorstCondition},
                                                 {"truncated", D.Truncated},
                                                 {"samples", std::move(Samples)}};
    }
    Accesses.push_back(std::move(O));
  }
  Kernel["accesses"] = std::move(Accesses);

  // Registers, shared memory and theoretical occupancy of this launch.
  std::string WhyNot;
  if (auto Occ = occupancyFor(K.Kernel, K.Launch, Session,
                              Registers.registerOptions(Arch, PP),
                              Registers.defaultDynamicSharedBytes(), &WhyNot)) {
    addOccupancyToJson(Kernel, *Occ);
    // What the numbers rest on: registers estimated because ptxas could not
    // compile the unit (and why), a shared size not known.
    llvm::json::Array OccupancyAssumptions;
    for (const std::string &A : Occ->Assumptions)
      OccupancyAssumptions.push_back(A);
    Kernel["occupancy_assumptions"] = std::move(OccupancyAssumptions);
  } else {
    Kernel["registers"] = nullptr;
    Kernel["registers_source"] = nullptr;
    Kernel["shared_bytes_static"] = nullptr;
    Kernel["shared_bytes_dynamic"] = nullptr;
    Kernel["occupancy"] = nullptr;
    if (llvm::json::Array *Limitations = Kernel.getArray("limitations"))
      Limitations->push_back("occupancy not computed: " + WhyNot);
  }
  // The same launch on the other architectures of an --arch list: ptxas
  // compiles for each (its count differs between architectures), or the
  // estimate.
  if (!CompareArchs.empty()) {
    llvm::json::Array ByArch;
    std::vector<std::string> All = {Arch.str()};
    All.insert(All.end(), CompareArchs.begin(), CompareArchs.end());
    for (const std::string &A : All) {
      llvm::json::Object Entry{{"arch", A}};
      std::string ArchWhyNot;
      if (auto Occ = occupancyFor(K.Kernel, K.Launch, Session,
                                  Registers.registerOptions(A, PP),
                                  Registers.defaultDynamicSharedBytes(), &ArchWhyNot)) {
        // The registers and the figures of the "occupancy" object; the
        // entry's "arch" stays the name asked for.
        Entry["registers"] = Occ->Registers;
        Entry["registers_source"] = Occ->RegistersSource;
        llvm::json::Object Figures = occupancyFiguresJson(*Occ);
        Figures.erase("arch");
        for (auto &Figure : Figures)
          Entry[Figure.first] = std::move(Figure.second);
      } else {
        for (const char *Key : {"registers", "registers_source", "active_blocks_per_sm",
                                "active_warps_per_sm", "theoretical", "limiter"})
          Entry[Key] = nullptr;
        Entry["unavailable"] = ArchWhyNot;
      }
      ByArch.push_back(std::move(Entry));
    }
    Kernel["occupancy_by_arch"] = std::move(ByArch);
  }
  return Kernel;
}

} // namespace warpcheck::tool
