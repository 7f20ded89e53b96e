//===--- AosLayoutCheck.cpp - clang-tidy ----------------------------------===//

#include "AosLayoutCheck.h"
#include "CudaCheckSupport.h"

#include "warpcheck/analysis/AosAccesses.h"
#include "warpcheck/analysis/KernelAnalysis.h"

#include "clang/AST/ASTContext.h"

using namespace warpcheck::analysis;

namespace clang::tidy::cuda {

AosLayoutCheck::AosLayoutCheck(StringRef Name, ClangTidyContext *Context,
                               std::shared_ptr<CheckSessions> Sessions)
    : CudaKernelCheck(Name, Context, std::move(Sessions)),
      MinEfficiency(Options.get("MinEfficiency", 60U)),
      MinStructBytes(Options.get("MinStructBytes", 8U)),
      ReportL1Only(parseBoolOption(Options.get("ReportL1Only", "true"))) {
  if (MinEfficiency > 100)
    configurationDiag("%0: MinEfficiency %1 is not a percentage (0 to 100)") << Name
                                                                            << MinEfficiency;
}

void AosLayoutCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MinEfficiency", MinEfficiency);
  Options.store(Opts, "MinStructBytes", MinStructBytes);
  Options.store(Opts, "ReportL1Only", ReportL1Only ? "true" : "false");
  CudaKernelCheck::storeOptions(Opts);
}

/// "reads fields x, y", "writes field z", "reads fields x, y and writes
/// field z".
static std::string whatTheKernelDoes(const AosGroup &G) {
  std::string Read, Written;
  unsigned Reads = 0, Writes = 0;
  for (const AosField &F : G.Fields) {
    if (F.Loaded)
      Read += (Reads++ ? ", " : "") + F.Name;
    if (F.Stored)
      Written += (Writes++ ? ", " : "") + F.Name;
  }
  std::string Out;
  if (Reads)
    Out = std::string("reads field") + (Reads > 1 ? "s " : " ") + Read;
  if (Writes)
    Out += std::string(Reads ? " and writes field" : "writes field") + (Writes > 1 ? "s " : " ") +
           Written;
  return Out;
}

void AosLayoutCheck::checkKernel(const FunctionDecl *Kernel, ASTContext &Ctx) {
  const auto &Launches = unitSession()->analyze(Kernel, analysisOptions(Ctx));
  for (const KernelLaunchAnalysis &Launch : Launches) {
    warnIfAccessesLost(Kernel, Launch, Ctx);
    for (const AosGroup &G : findAosGroups(Launch, Ctx)) {
      const warpcheck::model::AosTraffic &T = G.Traffic;
      double Efficiency = T.l1Efficiency();
      bool DramWaste = T.dramBytes() > T.soaDramBytes();
      if (G.StructBytes < MinStructBytes || Efficiency * 100.0 >= MinEfficiency - 1e-9 ||
          (!DramWaste && !ReportL1Only))
        continue;
      SourceLocation Loc = Launch.Accesses[G.Accesses.front()].Site.Expr->getBeginLoc();
      diag(Loc, "kernel '%0' %1 of '%2' (%3 bytes) through '%4': %5 sectors per warp, %6 as "
                "structure-of-arrays (%7 efficiency) %8")
          << kernelName(Kernel, Ctx) << whatTheKernelDoes(G) << G.StructName
          << static_cast<unsigned>(G.StructBytes) << G.PointerName << T.l1Sectors()
          << T.soaL1Sectors() << formatPercent(Efficiency) << launchClause(Kernel, Launch.Launch, Ctx);
      if (!T.Loads.empty() && !T.Stores.empty())
        diag(Loc, "loads: %0 sectors per warp (%1 as structure-of-arrays); stores: %2 (%3)",
             DiagnosticIDs::Note)
            << T.Loads.L1Sectors << T.Loads.SoaL1Sectors << T.Stores.L1Sectors
            << T.Stores.SoaL1Sectors;
      // Which level the rewrite helps at: unread fields come from DRAM with
      // the read ones; when every byte is used, the other fields' loads hit
      // in L1 and DRAM moves what SoA moves (issue #15, measured on the
      // H200 for a 24-byte particle).
      if (DramWaste)
        diag(Loc, "the waste reaches DRAM: %0 bytes per warp against %1 as structure-of-arrays "
                  "(the bytes of the fields not %2 are fetched with the others)",
             DiagnosticIDs::Note)
            << static_cast<unsigned>(T.dramBytes()) << static_cast<unsigned>(T.soaDramBytes())
            << (T.Stores.empty() ? "read" : T.Loads.empty() ? "written" : "accessed");
      else
        diag(Loc, "the waste is in L1 sectors only: DRAM moves %0 bytes per warp either way "
                  "(every field is used)",
             DiagnosticIDs::Note)
            << static_cast<unsigned>(T.dramBytes());
      diag(Loc, "structure-of-arrays: one array per field, indexed as '%0' is", DiagnosticIDs::Note)
          << G.PointerName;
      if (T.Vector && T.Vector->L1Sectors < T.l1Sectors()) {
        const warpcheck::model::VectorAlternative &V = *T.Vector;
        std::string How = V.PaddingBytes
                              ? "padded by " + std::to_string(V.PaddingBytes) + " bytes with __align__(" +
                                    std::to_string(V.VectorBytes) + ")"
                              : "declared __align__(" + std::to_string(V.VectorBytes) + ")";
        diag(Loc, "or move each element whole with one %0-byte vector access (%1, read as a "
                  "whole struct): %2 sectors per warp, %3 DRAM bytes",
             DiagnosticIDs::Note)
            << V.VectorBytes << How << V.L1Sectors << static_cast<unsigned>(V.DramBytes);
      }
      for (const std::string &Cut : Launch.BudgetCuts)
        diag(Loc, "%0", DiagnosticIDs::Note) << Cut;
    }
  }
}

} // namespace clang::tidy::cuda
