//===- LaunchConfig.cpp - launch sites and the host run that reaches them -===//
//
// The launch sites of a unit (<<<>>>, cudaLaunchKernel, cudaLaunchKernelEx,
// by name or through a function pointer), the calls between host functions,
// the host evaluation that runs them (host/HostEvaluator.h), and the calls
// and launches that cross into other units. Each kernel's shapes are made
// from them in LaunchShapes.cpp.
//
//===----------------------------------------------------------------------===//

#include "warpcheck/analysis/LaunchConfig.h"

#include "host/HostEvaluator.h"
#include "warpcheck/model/Arch.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <set>

using namespace clang;

namespace warpcheck::analysis {

std::string Dim3::str() const {
  return "(" + std::to_string(X) + ", " + std::to_string(Y) + ", " +
         std::to_string(Z) + ")";
}

const char *LaunchConfig::sourceName() const {
  switch (Source) {
  case LaunchSource::LaunchSite:
    return "launch";
  case LaunchSource::Annotation:
    return "annotation";
  case LaunchSource::Inferred:
    return "inferred";
  case LaunchSource::LaunchBounds:
    return "launch_bounds";
  case LaunchSource::Default:
    return "default";
  }
  return "default";
}

std::optional<Dim3> parseDim3(llvm::StringRef Text) {
  Text = Text.trim();
  if (Text.consume_front("("))
    if (!Text.consume_back(")"))
      return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Text.split(Parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  if (Parts.empty() || Parts.size() > 3)
    return std::nullopt;
  std::uint32_t Values[3] = {1, 1, 1};
  for (size_t I = 0; I < Parts.size(); ++I) {
    unsigned long long V;
    if (llvm::getAsUnsignedInteger(Parts[I].trim(), 10, V) || V == 0 ||
        V > 0xffffffffULL)
      return std::nullopt;
    Values[I] = static_cast<std::uint32_t>(V);
  }
  return Dim3{Values[0], Values[1], Values[2]};
}

namespace {

const FunctionDecl *kernelOf(const Expr *Callee) {
  Callee = Callee->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Callee))
    if (UO->getOpcode() == UO_AddrOf)
      Callee = UO->getSubExpr()->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      if (FD->hasAttr<CUDAGlobalAttr>())
        return FD;
  return nullptr;
}

} // namespace

class LaunchSiteCollector : public RecursiveASTVisitor<LaunchSiteCollector> {
public:
  LaunchSiteCollector(LaunchSiteIndex &Index, const SourceManager &SM)
      : Index(Index), SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  // Launches in system headers (CUB, Thrust) launch library kernels: their
  // bodies are skipped, which keeps the walk cheap on CCCL-heavy units.
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && !isa<NamespaceDecl>(D) &&
        !isa<LinkageSpecDecl>(D) && SM.isInSystemHeader(SM.getFileLoc(D->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    if (FD->isMain() && FD->doesThisDeclarationHaveABody())
      Index.Main = FD;
    return within(FD, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(FD); });
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *MD) {
    return within(MD, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(MD); });
  }
  bool TraverseLambdaExpr(LambdaExpr *LE) {
    if (!within(LE->getCallOperator(),
                [&] { return RecursiveASTVisitor::TraverseLambdaExpr(LE); }))
      return false;
    // A generic lambda's body above is its pattern, dependent on the
    // parameters' types; its launches are made by the call operators the
    // calls instantiate (llm.c's `auto launch = [&](auto int_const) {
    // kernel<int_const.value><<<grid, int_const.value>>>(...); }` called
    // once per block size by a switch), which the walk does not otherwise
    // visit: each is a caller of its own.
    if (const FunctionTemplateDecl *Pattern = LE->getDependentCallOperator())
      for (FunctionDecl *Instance : Pattern->specializations())
        if (Instance->doesThisDeclarationHaveABody() &&
            !within(Instance, [&] { return TraverseStmt(Instance->getBody()); }))
          return false;
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *KC) {
    if (!Caller || Caller->isDependentContext())
      return true;
    auto S = site(KC);
    S->Kernel = KC->getDirectCallee();
    if (!S->Kernel || !S->Kernel->hasAttr<CUDAGlobalAttr>()) {
      S->Kernel = nullptr;
      S->Callee = KC->getCallee(); // a function pointer
    }
    if (const CallExpr *Config = KC->getConfig()) {
      if (Config->getNumArgs() > 0)
        S->Grid = Config->getArg(0);
      if (Config->getNumArgs() > 1)
        S->Block = Config->getArg(1);
      if (Config->getNumArgs() > 2 && !isa<CXXDefaultArgExpr>(Config->getArg(2)))
        S->SharedBytes = Config->getArg(2);
    }
    for (const Expr *A : KC->arguments())
      S->Args.push_back(A);
    add(std::move(S));
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    // cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
    //                  size_t sharedMem, cudaStream_t stream), also its
    // templated C++ overload.
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || isa<CUDAKernelCallExpr>(CE) || !Caller || Caller->isDependentContext())
      return true;
    Index.Callers[FD->getCanonicalDecl()].push_back(Caller->getCanonicalDecl());
    if (host::definedInAnotherUnit(FD, SM) &&
        (Index.Forwarders.empty() || Index.Forwarders.back() != Caller))
      Index.Forwarders.push_back(Caller);
    if (!FD->getIdentifier())
      return true;
    llvm::StringRef Name = FD->getName();
    if (Name == "cudaLaunchKernelEx" || Name == "cudaLaunchKernelExC")
      return visitLaunchKernelEx(CE, Name == "cudaLaunchKernelEx");
    if (Name != "cudaLaunchKernel" && Name != "cudaLaunchCooperativeKernel")
      return true;
    if (CE->getNumArgs() < 3)
      return true;
    auto S = site(CE);
    S->Kernel = kernelOf(CE->getArg(0));
    S->Callee = CE->getArg(0);
    S->Grid = CE->getArg(1);
    S->Block = CE->getArg(2);
    if (CE->getNumArgs() > 4 && !isa<CXXDefaultArgExpr>(CE->getArg(4)))
      S->SharedBytes = CE->getArg(4);
    add(std::move(S));
    return true;
  }

private:
  template <typename F> bool within(const FunctionDecl *FD, F Traverse) {
    const FunctionDecl *Saved = Caller;
    Caller = FD;
    bool R = Traverse();
    Caller = Saved;
    return R;
  }

  std::unique_ptr<host::LaunchSite> site(const Expr *Call) {
    auto S = std::make_unique<host::LaunchSite>();
    S->Call = Call;
    S->Caller = Caller;
    S->Location = host::shortLocation(SM, Call->getBeginLoc());
    return S;
  }
  void add(std::unique_ptr<host::LaunchSite> S) {
    Index.SiteByCall[S->Call] = S.get();
    Index.Sites.push_back(std::move(S));
  }

  /// cudaLaunchKernelEx(&config, kernel, args...) and its C form
  /// cudaLaunchKernelExC(&config, (const void *)kernel, args): the shape is
  /// in the fields of a cudaLaunchConfig_t variable, as the host code sets
  /// them before the call.
  bool visitLaunchKernelEx(const CallExpr *CE, bool Templated) {
    if (CE->getNumArgs() < 2)
      return true;
    const auto *Addr = dyn_cast<UnaryOperator>(CE->getArg(0)->IgnoreParenImpCasts());
    const DeclRefExpr *Ref =
        Addr && Addr->getOpcode() == UO_AddrOf
            ? dyn_cast<DeclRefExpr>(Addr->getSubExpr()->IgnoreParenImpCasts())
            : nullptr;
    const auto *Config = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Config)
      return true;
    auto S = site(CE);
    S->Kernel = kernelOf(CE->getArg(1));
    S->Callee = CE->getArg(1);
    S->ConfigVar = Config;
    // The C++ form passes the kernel's arguments themselves.
    if (Templated)
      for (unsigned I = 2; I < CE->getNumArgs(); ++I)
        S->Args.push_back(CE->getArg(I));
    add(std::move(S));
    return true;
  }

  LaunchSiteIndex &Index;
  const SourceManager &SM;
  const FunctionDecl *Caller = nullptr;
};

LaunchSiteIndex::LaunchSiteIndex(ASTContext &Ctx, const CrossUnitCalls *OtherUnitCalls,
                                 KernelOccupancyInputsFn KernelOccupancy)
    : Ctx(Ctx), OtherUnitCalls(OtherUnitCalls), KernelOccupancy(std::move(KernelOccupancy)) {
  LaunchSiteCollector Collector(*this, Ctx.getSourceManager());
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
}

LaunchSiteIndex::~LaunchSiteIndex() = default;


/// The integers (and, for unknown values, the congruences) a cross-unit
/// call's arguments carry, as the host evaluator takes them, and back.
static void takeArguments(const std::map<unsigned, BoundArgument> &Arguments,
                          std::map<unsigned, std::uint64_t> &Integers,
                          std::map<unsigned, host::Congruence> &Multiples) {
  for (const auto &[Index, Arg] : Arguments)
    if (Arg.Integer)
      Integers[Index] = static_cast<std::uint64_t>(*Arg.Integer);
    else if (Arg.Multiple && *Arg.Multiple > 1)
      Multiples[Index] = {static_cast<std::uint64_t>(*Arg.Multiple),
                          static_cast<std::uint64_t>(Arg.Residue)};
}

static std::map<unsigned, BoundArgument>
boundArguments(const std::map<unsigned, std::uint64_t> &Integers,
               const std::map<unsigned, host::Congruence> &Multiples) {
  std::map<unsigned, BoundArgument> Out;
  for (const auto &[Index, Bits] : Integers)
    Out[Index].Integer = static_cast<std::int64_t>(Bits);
  for (const auto &[Index, C] : Multiples) {
    Out[Index].Multiple = static_cast<std::int64_t>(C.Multiple);
    Out[Index].Residue = static_cast<std::int64_t>(C.Residue);
  }
  return Out;
}

const host::HostEvaluator &LaunchSiteIndex::hostRun(const LaunchDefaults &Defaults) const {
  std::unique_ptr<host::HostEvaluator> &Run = Runs[Defaults.Arch];
  if (Run)
    return *Run;
  Run = std::make_unique<host::HostEvaluator>(Ctx, model::findArchOrDefault(Defaults.Arch),
                                              SiteByCall);
  if (KernelOccupancy)
    Run->setKernelOccupancyInputs(&KernelOccupancy);
  std::vector<const FunctionDecl *> &Unbound = UnboundRoots[Defaults.Arch];
  if (Main)
    Run->run(Main, " (the command line)");
  // A root with no caller in this unit: once per call another unit makes
  // of it, with the arguments it passes; with unknown parameters when no
  // unit's call of it is known.
  auto RunRoot = [&](const FunctionDecl *Root, const std::string &ParamsWhy) {
    // A method's calls say what they know of its object too.
    if (OtherUnitCalls && (Root->getNumParams() > 0 || isa<CXXMethodDecl>(Root))) {
      auto It = OtherUnitCalls->find(crossUnitName(Root));
      if (It != OtherUnitCalls->end() && !It->second.empty()) {
        for (const CrossUnitCall &X : It->second) {
          host::ExternalCall Call;
          Call.Callee = Root;
          Call.Location = X.Location;
          Call.Context = X.Context;
          Call.WithoutArguments = X.WithoutArguments;
          takeArguments(X.Arguments, Call.Integers, Call.Multiples);
          if (const auto *MD = dyn_cast<CXXMethodDecl>(Root)) {
            for (const auto &[Name, Bits] : X.ObjectFields)
              Call.ObjectFields[Name] = static_cast<std::uint64_t>(Bits);
            for (const CXXConstructorDecl *Ctor : MD->getParent()->ctors())
              if (!X.ObjectConstructor.empty() && crossUnitName(Ctor) == X.ObjectConstructor) {
                auto By = std::make_shared<host::ObjectConstruction>();
                By->Constructor = Ctor;
                takeArguments(X.ObjectConstructorArguments, By->Integers, By->Multiples);
                Call.ObjectBuiltBy = std::move(By);
              }
          }
          Run->run(Root, Call);
        }
        return;
      }
    }
    if (Root->getNumParams() > 0 || isa<CXXMethodDecl>(Root))
      Unbound.push_back(Root);
    Run->run(Root, ParamsWhy);
  };
  // Launches main does not reach: from the functions that call their
  // function and that nothing calls, then from that function itself. The
  // same for calls of other units' functions (a method of test.cpp that
  // builds an estimator and calls its operator(), defined with its
  // launches in piestimator.cu): the calls are that unit's launches.
  std::vector<const FunctionDecl *> Entries;
  for (const auto &S : Sites)
    if (S->Caller)
      Entries.push_back(S->Caller);
  Entries.insert(Entries.end(), Forwarders.begin(), Forwarders.end());
  for (const FunctionDecl *Entry : Entries) {
    if (Run->reached(Entry))
      continue;
    std::vector<const FunctionDecl *> Work{Entry->getCanonicalDecl()}, Roots;
    std::set<const FunctionDecl *> Seen(Work.begin(), Work.end());
    while (!Work.empty() && Roots.size() < 16) {
      const FunctionDecl *F = Work.back();
      Work.pop_back();
      auto It = Callers.find(F);
      bool HasCaller = false;
      if (It != Callers.end())
        for (const FunctionDecl *C : It->second)
          if (C != F) {
            HasCaller = true;
            if (Seen.insert(C).second)
              Work.push_back(C);
          }
      if (!HasCaller)
        Roots.push_back(F);
    }
    for (const FunctionDecl *Root : Roots)
      if (!Run->reached(Root))
        RunRoot(Root, ", which no function of this file calls");
    if (!Run->reached(Entry))
      Run->run(Entry, " whose calls were not followed");
  }
  return *Run;
}

const host::HostEvaluator *
LaunchSiteIndex::runWithoutArguments(const LaunchDefaults &Defaults) const {
  if (!Main || Main->getNumParams() == 0)
    return nullptr;
  std::unique_ptr<host::HostEvaluator> &Run = ArgumentlessRuns[Defaults.Arch];
  if (!Run) {
    Run = std::make_unique<host::HostEvaluator>(Ctx, model::findArchOrDefault(Defaults.Arch),
                                              SiteByCall);
    if (KernelOccupancy)
      Run->setKernelOccupancyInputs(&KernelOccupancy);
    Run->runWithoutArguments(Main);
  }
  return Run.get();
}



std::string crossUnitName(const FunctionDecl *Kernel) {
  std::unique_ptr<MangleContext> Mangler(Kernel->getASTContext().createMangleContext());
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  // A constructor or destructor by its complete-object variant (C1, D1),
  // the one a declaration of a local object calls.
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(Kernel);
  const auto *Dtor = dyn_cast<CXXDestructorDecl>(Kernel);
  GlobalDecl GD = Ctor   ? GlobalDecl(Ctor, Ctor_Complete)
                  : Dtor ? GlobalDecl(Dtor, Dtor_Complete)
                         : GlobalDecl(Kernel);
  if (Mangler->shouldMangleDeclName(Kernel))
    Mangler->mangleName(GD, OS);
  else
    OS << Kernel->getName();
  return OS.str();
}

CrossUnitCalls LaunchSiteIndex::callsOfExternalFunctions(const LaunchDefaults &Defaults) const {
  CrossUnitCalls Out;
  auto Add = [&](const host::ExternalCall &C, const char *Before) {
    CrossUnitCall X;
    X.Location = C.Location;
    if (Before)
      X.Context.push_back(Before);
    X.Context.insert(X.Context.end(), C.Context.begin(), C.Context.end());
    X.Arguments = boundArguments(C.Integers, C.Multiples);
    X.WithoutArguments = C.WithoutArguments;
    if (C.ObjectBuiltBy) {
      X.ObjectConstructor = crossUnitName(C.ObjectBuiltBy->Constructor);
      X.ObjectConstructorArguments =
          boundArguments(C.ObjectBuiltBy->Integers, C.ObjectBuiltBy->Multiples);
    }
    for (const auto &[Name, Bits] : C.ObjectFields)
      X.ObjectFields[Name] = static_cast<std::int64_t>(Bits);
    Out[crossUnitName(C.Callee)].push_back(std::move(X));
  };
  const host::HostEvaluator &Run = hostRun(Defaults);
  for (const host::ExternalCall &C : Run.externalCalls())
    Add(C, nullptr);
  // A run cut short by its steps leaves the calls after the cut unmade:
  // those of the run without arguments stand for them (the program run
  // without options), when it makes calls at places the run did not. A
  // call whose arguments chose among more ways than are followed was made
  // with the integers common to all of them (FDTD3d's edge, from the
  // device's memory or from three options, each clamped): the calls the
  // run without arguments makes there, on its fewer ways, are made too.
  std::set<std::string> Made, Cut;
  for (const host::ExternalCall &C : Run.externalCalls())
    (C.WaysCut ? Cut : Made).insert(C.Location);
  const host::HostEvaluator *Plain =
      Run.exhausted() || !Cut.empty() ? runWithoutArguments(Defaults) : nullptr;
  if (Plain) {
    auto Binds = [](const host::ExternalCall &A, const host::ExternalCall &B) {
      return A.Callee == B.Callee && A.Integers == B.Integers && A.Multiples == B.Multiples;
    };
    for (const host::ExternalCall &C : Plain->externalCalls()) {
      if (Run.exhausted() && !Made.count(C.Location) && !Cut.count(C.Location))
        Add(C, "a run without command-line arguments (the run with them was too long to "
               "follow)");
      else if (Cut.count(C.Location) && !C.WaysCut &&
               llvm::none_of(Run.externalCalls(),
                             [&](const host::ExternalCall &R) { return Binds(R, C); }))
        Add(C, "a run without command-line arguments (the run with them chose among more "
               "ways than are followed)");
    }
  }
  return Out;
}

std::vector<std::string>
LaunchSiteIndex::launchingFunctionsWithoutCaller(const LaunchDefaults &Defaults) const {
  hostRun(Defaults);
  std::vector<std::string> Out;
  for (const FunctionDecl *Root : UnboundRoots[Defaults.Arch])
    Out.push_back(crossUnitName(Root));
  return Out;
}

CrossUnitLaunches
LaunchSiteIndex::launchesOfExternalKernels(const LaunchDefaults &Defaults) const {
  CrossUnitLaunches Out;
  std::set<const FunctionDecl *> Done;
  for (const auto &S : Sites) {
    // A kernel declared here and defined elsewhere (extern in a .cu that
    // launches it, the definition in another unit).
    if (!S->Kernel || S->Kernel->isDefined() ||
        !Done.insert(S->Kernel->getCanonicalDecl()).second)
      continue;
    LaunchDefaults Local = Defaults;
    Local.OtherUnits = nullptr;
    for (const LaunchConfig &C : configsFor(S->Kernel, Local)) {
      if (C.Source != LaunchSource::LaunchSite)
        continue;
      CrossUnitLaunch X;
      X.Block = C.Block;
      X.Grid = C.Grid;
      X.GridKnown = C.GridKnown;
      X.DynamicSharedBytes = C.DynamicSharedBytes;
      X.Location = C.Location;
      X.Context = C.Context;
      for (const auto &[P, Arg] : C.Arguments)
        X.Arguments[P->getFunctionScopeIndex()] = Arg;
      Out[crossUnitName(S->Kernel)].push_back(std::move(X));
    }
  }
  return Out;
}

} // namespace warpcheck::analysis
