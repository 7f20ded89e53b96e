//===--- AosLayoutCheck.cpp - clang-tidy ----------------------------------===//

#include "AosLayoutCheck.h"
#include "CudaCheckSupport.h"

#include "warpcheck/analysis/AosAccesses.h"
#include "warpcheck/analysis/KernelAnalysis.h"

#include "clang/AST/ASTContext.h"

using namespace warpcheck::analysis;
using warpcheck::analysis::SourceEdit;

namespace clang::tidy::cuda {

AosLayoutCheck::AosLayoutCheck(StringRef Name, ClangTidyContext *Context,
                               std::shared_ptr<CheckSessions> Sessions)
    : CudaKernelCheck(Name, Context, std::move(Sessions)),
      MinEfficiency(Options.get("MinEfficiency", 60U)),
      MinStructBytes(Options.get("MinStructBytes", 8U)),
      ReportL1Only(readBoolOption(Options.get("ReportL1Only", "true")).value_or(true)),
      OfferSoAFix(readBoolOption(Options.get("OfferSoAFix", "true")).value_or(true)) {
  if (MinEfficiency > 100)
    configurationDiag("%0: MinEfficiency %1 is not a percentage (0 to 100)") << Name
                                                                            << MinEfficiency;
  for (const char *Option : {"ReportL1Only", "OfferSoAFix"}) {
    std::string Value = Options.get(Option, "true").str();
    if (!readBoolOption(Value))
      configurationDiag("%0: invalid configuration value '%1' for option '%0.%2'; expected "
                        "true or false, using the default true")
          << Name << Value << Option;
  }
}

void AosLayoutCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MinEfficiency", MinEfficiency);
  Options.store(Opts, "MinStructBytes", MinStructBytes);
  Options.store(Opts, "ReportL1Only", ReportL1Only ? "true" : "false");
  Options.store(Opts, "OfferSoAFix", OfferSoAFix ? "true" : "false");
  CudaKernelCheck::storeOptions(Opts);
}

void AosLayoutCheck::onEndOfTranslationUnit() {
  References.reset();
  Plans.clear();
  FixOfferedAtLine.clear();
  ViewDeclaredBy.clear();
  CudaKernelCheck::onEndOfTranslationUnit();
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
      if (OfferSoAFix)
        offerRewrite(Kernel, G, Launch.Accesses[G.Accesses.front()].Site.Expr, Loc, Ctx);
    }
  }
}

/// "'update'", "'update' and the device function 'speed'", "'update' and
/// the device functions 'a', 'b'".
static std::string rewrittenFunctions(const FunctionDecl *Kernel, const SoaRewritePlan &Plan) {
  std::string Out = "'" + Kernel->getNameAsString() + "'";
  if (Plan.DeviceFunctions.empty())
    return Out;
  Out += Plan.DeviceFunctions.size() == 1 ? " and the device function "
                                           : " and the device functions ";
  for (std::size_t I = 0; I < Plan.DeviceFunctions.size(); ++I)
    Out += (I ? ", '" : "'") + Plan.DeviceFunctions[I]->getNameAsString() + "'";
  return Out;
}

void AosLayoutCheck::offerRewrite(const FunctionDecl *Kernel, const AosGroup &G,
                                  const Expr *Access, SourceLocation WarningLoc, ASTContext &Ctx) {
  const ParmVarDecl *Param = soaRewriteRoot(Kernel, Access, Ctx);
  if (!Param) {
    diag(WarningLoc, "no structure-of-arrays rewrite offered: the elements of '%0' do not come "
                     "through a pointer parameter of the kernel",
         DiagnosticIDs::Note)
        << G.PointerName;
    return;
  }
  if (!References)
    References = std::make_unique<FunctionReferences>(Ctx);
  auto [It, New] = Plans.try_emplace(Param);
  if (New)
    It->second = planSoaRewrite(Kernel, Param, *References, Ctx);
  const SoaRewritePlan &Plan = It->second;
  std::string Name = Param->getNameAsString();
  if (!Plan.offered()) {
    diag(Plan.BlockerLocation, "no structure-of-arrays rewrite offered for '%0': %1",
         DiagnosticIDs::Note)
        << Name << Plan.Blocker;
    return;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  auto [Offered, First] = FixOfferedAtLine.try_emplace(
      Param, SM.getPresumedLineNumber(SM.getExpansionLoc(WarningLoc)));
  if (!First) {
    diag(Param->getLocation(), "the structure-of-arrays rewrite of '%0' is the fix-it offered "
                               "with the warning at line %1",
         DiagnosticIDs::Note)
        << Name << Offered->second;
    return;
  }
  std::string DeclaredElsewhere;
  bool DeclaresView = false;
  if (!Plan.ViewDeclaration.empty()) {
    auto [Declarer, First] = ViewDeclaredBy.try_emplace(Plan.Record, Kernel->getNameAsString());
    DeclaresView = First;
    if (!First)
      DeclaredElsewhere = "; '" + Plan.ViewName + "' is declared by the fix-it offered for '" +
                          Declarer->second + "'";
  }
  std::string Fields;
  for (const std::string &F : Plan.Fields)
    Fields += (Fields.empty() ? "" : ", ") + F;
  {
    auto D = diag(Param->getLocation(),
                  "structure-of-arrays rewrite (a fix-it on this note): '%0' becomes a '%1' "
                  "view with one array per field of '%2', and each '%0[i].f' becomes "
                  "'%0.f[i]' in %3%4; the launches must then pass the view",
                  DiagnosticIDs::Note)
             << Name << Plan.ViewName << G.StructName << rewrittenFunctions(Kernel, Plan)
             << DeclaredElsewhere;
    if (DeclaresView)
      D << FixItHint::CreateInsertion(Plan.ViewLocation, Plan.ViewDeclaration);
    for (const SourceEdit &E : Plan.Edits) {
      if (E.Range.getBegin() == E.Range.getEnd())
        D << FixItHint::CreateInsertion(E.Range.getBegin(), E.Text);
      else if (E.Text.empty())
        D << FixItHint::CreateRemoval(E.Range);
      else
        D << FixItHint::CreateReplacement(E.Range, E.Text);
    }
  }
  for (const SoaLaunch &L : Plan.Launches)
    diag(L.Argument->getBeginLoc(),
         "this launch passes '%0' for '%1': once the kernel is rewritten it passes a '%2' of "
         "one device array per field, '%2{%3}', field f of element i at f[i]",
         DiagnosticIDs::Note)
        << sourceText(L.Argument, Ctx) << Name << Plan.ViewName << Fields;
  if (Plan.Launches.empty())
    diag(Param->getLocation(), "'%0' is not launched in this unit: the code that launches it "
                               "must pass a '%1' of one device array per field, '%1{%2}'",
         DiagnosticIDs::Note)
        << Kernel->getNameAsString() << Plan.ViewName << Fields;
}

} // namespace clang::tidy::cuda
