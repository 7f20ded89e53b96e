//===- LaunchConfig.cpp - launch sites and the shapes of each kernel ------===//
//
// The launch sites of a unit (<<<>>>, cudaLaunchKernel, cudaLaunchKernelEx,
// by name or through a function pointer), the calls between host functions,
// and each kernel's shapes: what the host evaluation (host/HostEvaluator.h)
// recorded at its launches, else the annotation (KernelAnnotations.h),
// __launch_bounds__ or the default block, with why no launch could be used.
//
//===----------------------------------------------------------------------===//

#include "warpcheck/analysis/LaunchConfig.h"

#include "BlockExtentArguments.h"
#include "BlockShapeInference.h"
#include "KernelAnnotations.h"
#include "host/HostEvaluator.h"
#include "warpcheck/analysis/LaunchBounds.h"
#include "warpcheck/model/Arch.h"
#include "warpcheck/model/LaunchLimits.h"

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

static const model::ArchSpec &archFor(const std::string &Name) {
  const model::ArchSpec *A = model::findArch(Name);
  return A ? *A : *model::findArch(model::DefaultArchName);
}

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
  Run = std::make_unique<host::HostEvaluator>(Ctx, archFor(Defaults.Arch), SiteByCall);
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
    Run = std::make_unique<host::HostEvaluator>(Ctx, archFor(Defaults.Arch), SiteByCall);
    if (KernelOccupancy)
      Run->setKernelOccupancyInputs(&KernelOccupancy);
    Run->runWithoutArguments(Main);
  }
  return Run.get();
}

namespace {

/// The extents of a dim3 from a host value (an integer, or a record of x,
/// y and z), each as dim3's unsigned int holds it: -1 is 4294967295.
std::optional<std::array<std::uint64_t, 3>> extentsOf(const host::HostValue &V,
                                                      std::string &Why) {
  if (!V.known()) {
    Why = "uses " + V.describe();
    return std::nullopt;
  }
  std::array<std::uint64_t, 3> X{{1, 1, 1}};
  if (V.K == host::HostValue::Int) {
    X[0] = V.Bits;
  } else if (V.K == host::HostValue::Record) {
    const char *Names[3] = {"x", "y", "z"};
    for (unsigned I = 0; I < 3; ++I) {
      const host::HostValue *F = V.field(Names[I]);
      if (!F || F->K != host::HostValue::Int) {
        Why = "uses " + (F ? F->describe() : std::string("a dim3 whose ") + Names[I] +
                                                 " is not known");
        return std::nullopt;
      }
      X[I] = F->Bits;
    }
  } else {
    Why = "uses a value that is not a dim3";
    return std::nullopt;
  }
  for (std::uint64_t &D : X)
    D &= 0xffffffffULL;
  return X;
}

Dim3 dim3Of(const std::array<std::uint64_t, 3> &X) {
  return Dim3{static_cast<std::uint32_t>(X[0]), static_cast<std::uint32_t>(X[1]),
              static_cast<std::uint32_t>(X[2])};
}

/// The block extents a launch gives even when its whole block is not known
/// (`dimBlock.x = 32; dimBlock.y = userBlockSize / 32;` with the size read
/// at run time): axis by axis, the value when it is a known integer.
std::array<std::optional<std::uint32_t>, 3> knownBlockExtents(const host::HostValue &V) {
  std::array<std::optional<std::uint32_t>, 3> Out;
  if (V.K != host::HostValue::Record)
    return Out;
  const char *Names[3] = {"x", "y", "z"};
  for (unsigned I = 0; I < 3; ++I)
    if (const host::HostValue *F = V.field(Names[I]);
        F && F->K == host::HostValue::Int && F->Bits > 0 && F->Bits <= 0xffffffffULL)
      Out[I] = static_cast<std::uint32_t>(F->Bits);
  return Out;
}

bool sameShape(const LaunchConfig &A, const LaunchConfig &B) {
  if (!(A.Block == B.Block && A.Grid == B.Grid && A.GridKnown == B.GridKnown &&
        A.DynamicSharedBytes == B.DynamicSharedBytes &&
        A.Arguments.size() == B.Arguments.size()))
    return false;
  for (const auto &[P, Arg] : A.Arguments) {
    auto It = B.Arguments.find(P);
    if (It == B.Arguments.end() || It->second.Integer != Arg.Integer ||
        It->second.PointerOffsetBytes != Arg.PointerOffsetBytes ||
        It->second.CommandLineDefault != Arg.CommandLineDefault)
      return false;
  }
  return true;
}

/// The kernel's parameters the launch's arguments give: integers, and
/// pointers at a known offset into their allocation; an integer not known
/// that is the launch's own block extent is bound as that.
std::map<const ParmVarDecl *, BoundArgument> boundArguments(const host::LaunchSite &S,
                                                           const host::LaunchRecord &R,
                                                           const FunctionDecl *Kernel) {
  std::map<const ParmVarDecl *, BoundArgument> Out;
  for (unsigned I = 0; I < R.Args.size() && I < Kernel->getNumParams(); ++I) {
    const ParmVarDecl *P = Kernel->getParamDecl(I);
    BoundArgument Arg;
    if (P->getType()->isIntegerType() && R.Args[I].K == host::HostValue::Int)
      Arg.Integer = static_cast<std::int64_t>(R.Args[I].Bits);
    else if (P->getType()->isPointerType() && R.Args[I].K == host::HostValue::Pointer)
      Arg.PointerOffsetBytes = static_cast<std::int64_t>(R.Args[I].Bits);
    else if (std::optional<host::Congruence> C = R.Args[I].congruence();
             P->getType()->isIntegerType() && C && !R.Args[I].isChoice()) {
      Arg.Multiple = static_cast<std::int64_t>(C->Multiple);
      Arg.Residue = static_cast<std::int64_t>(C->Residue);
    }
    if (P->getType()->isIntegerType() && !Arg.Integer && I < S.Args.size())
      Arg.BlockExtentAxis = blockExtentAxisOf(S.Args[I], S.Block);
    if (Arg.Integer || Arg.PointerOffsetBytes || Arg.Multiple || Arg.BlockExtentAxis)
      Out[P] = Arg;
  }
  return Out;
}

/// The shape of one recorded launch, or why there is none. A launch the
/// architecture cannot run at all (model::whyLaunchCannotRun) has no
/// shape: CannotRun then says why (the model's sentence), and Why too.
std::optional<LaunchConfig> configOf(const host::LaunchSite &S, const host::LaunchRecord &R,
                                     const FunctionDecl *Kernel, const model::ArchSpec &A,
                                     std::string &Why, std::string &CannotRun) {
  std::optional<std::array<std::uint64_t, 3>> Block = extentsOf(R.Block, Why);
  if (!Block) {
    Why = "the launch at " + S.Location + " " + Why;
    return std::nullopt;
  }
  model::LaunchRequest Request;
  Request.Block = *Block;
  std::string Ignored;
  Request.Grid = extentsOf(R.Grid, Ignored);
  std::optional<std::uint64_t> SharedBytes;
  if (R.HasSharedBytes && R.SharedBytes.K == host::HostValue::Int)
    SharedBytes = Request.DynamicSharedBytes = R.SharedBytes.Bits;
  if (std::string Reason = model::whyLaunchCannotRun(A, Request); !Reason.empty()) {
    // cudaErrorInvalidConfiguration: no thread runs, there is no
    // occupancy to report.
    CannotRun = Reason;
    Why = "the launch at " + S.Location + " cannot run: " + Reason;
    return std::nullopt;
  }
  LaunchConfig C;
  C.Source = LaunchSource::LaunchSite;
  C.Block = dim3Of(*Block);
  if (Request.Grid) {
    C.Grid = dim3Of(*Request.Grid);
    C.GridKnown = true;
  }
  C.DynamicSharedBytes = SharedBytes;
  C.Location = S.Location;
  C.Description = "the launch at " + C.Location;
  // One way of a branch: the message says which.
  for (size_t I = 0; I < R.Ways.size(); ++I)
    C.Description += (I == 0 ? " (" : ", ") + R.Ways[I] + (I + 1 == R.Ways.size() ? ")" : "");
  C.Context = R.Context;
  C.Arguments = boundArguments(S, R, Kernel);
  return C;
}

bool sameArgument(const BoundArgument &A, const BoundArgument &B) {
  return A.Integer == B.Integer && A.PointerOffsetBytes == B.PointerOffsetBytes &&
         A.Multiple == B.Multiple && A.Residue == B.Residue &&
         A.BlockExtentAxis == B.BlockExtentAxis &&
         A.CommandLineDefault == B.CommandLineDefault;
}

/// The arguments every one of Records passes alike: what launches whose
/// shape cannot be evaluated still say about the kernel's parameters (a
/// stencil's `bufferIn + padding` and its sizes).
std::map<const ParmVarDecl *, BoundArgument>
commonArguments(const std::vector<std::map<const ParmVarDecl *, BoundArgument>> &Records) {
  if (Records.empty())
    return {};
  std::map<const ParmVarDecl *, BoundArgument> Common = Records.front();
  for (const auto &Args : Records)
    for (auto It = Common.begin(); It != Common.end();) {
      auto Other = Args.find(It->first);
      if (Other == Args.end() || !sameArgument(Other->second, It->second))
        It = Common.erase(It);
      else
        ++It;
    }
  return Common;
}

/// A launch whose shape holds choices made by branches of the host code
/// (`if (n <= 1024) threads = n / 2; else threads = 512;` with n read at
/// run time): one launch per way the branches may go, each with the ways in
/// its context and description ("the branch at main.cu:30 taken") and its
/// arguments as that way computes them. A branch that chooses arguments
/// only (`count = argc > 1 ? atoi(argv[1]) : 1 << 16`, the usual default of
/// a command-line size) is no launch of its own: such an argument stays
/// unknown and is swept, so that four such options are one launch, not
/// sixteen. Branches are taken as independent of each other: two that test
/// one condition give combinations the program never makes as well. Past
/// MaxChoiceLaunches, the record as it is (the choices unknown).
std::vector<host::LaunchRecord> launchesPerWay(const host::LaunchRecord &R) {
  constexpr unsigned MaxChoiceLaunches = 16;
  // Split on the shape's choices only; the arguments go along each way (a
  // branch that chooses only an argument, such as a command-line option's
  // default, stays one launch with the argument swept).
  std::vector<host::HostValue> Values{R.Grid, R.Block, R.SharedBytes};
  Values.insert(Values.end(), R.Args.begin(), R.Args.end());
  std::vector<host::ValueWay> Ways = host::waysOf(std::move(Values), 3, MaxChoiceLaunches);
  if (Ways.empty())
    return {R};
  std::vector<host::LaunchRecord> Out;
  for (host::ValueWay &W : Ways) {
    host::LaunchRecord L = R;
    L.Grid = std::move(W.Values[0]);
    L.Block = std::move(W.Values[1]);
    L.SharedBytes = std::move(W.Values[2]);
    std::move(W.Values.begin() + 3, W.Values.end(), L.Args.begin());
    L.Ways.insert(L.Ways.end(), W.Chosen.begin(), W.Chosen.end());
    L.Context.insert(L.Context.end(), W.Chosen.begin(), W.Chosen.end());
    Out.push_back(std::move(L));
  }
  return Out;
}

/// The integer parameters of Kernel that C binds to nothing.
std::vector<const ParmVarDecl *> openIntegers(const LaunchConfig &C, const FunctionDecl *Kernel) {
  std::vector<const ParmVarDecl *> Open;
  for (const ParmVarDecl *P : Kernel->parameters()) {
    auto It = C.Arguments.find(P);
    if (P->getType()->isIntegerType() &&
        (It == C.Arguments.end() || (!It->second.Integer && !It->second.BlockExtentAxis)))
      Open.push_back(P);
  }
  return Open;
}

/// Whether a run of main without command-line arguments (Plain) goes every
/// way of Ways ("the branch at main.cu:51 taken"): false where it went only
/// the other way of one of them (an option's way).
bool onWaysOfRunWithoutArguments(const std::vector<std::string> &Ways,
                                 const host::HostEvaluator &Plain) {
  for (const std::string &Chosen : Ways)
    for (const auto &[Where, Went] : Plain.decidedBranches()) {
      llvm::StringRef Word(Chosen);
      if (!Word.consume_front(Where + " "))
        continue;
      bool Holds = Word == host::IfWays.Holds || Word == host::ConditionWays.Holds;
      if (!(Went & (Holds ? 1u : 2u)))
        return false;
    }
  return true;
}

/// The launches of Kernel that main, run without command-line arguments
/// (Plain), makes at S, one per way of their shapes' choices, as configs:
/// what addCommandLineDefaults compares each of Kernel's launches there
/// with. Computed once per site and kernel (Parboil's bfs: 30 launches of
/// three kernels at six sites, each record's ways enumerated again for
/// every launch, 3.5 minutes).
std::vector<LaunchConfig> launchesWithoutArguments(const host::LaunchSite &S,
                                                   const FunctionDecl *Kernel,
                                                   const model::ArchSpec &Arch,
                                                   const host::HostEvaluator &Plain) {
  std::vector<LaunchConfig> Out;
  auto Records = Plain.records().find(&S);
  if (Records == Plain.records().end())
    return Out;
  const FunctionDecl *Canonical = Kernel->getCanonicalDecl();
  for (const host::LaunchRecord &Record : Records->second)
    for (const host::LaunchRecord &R : launchesPerWay(Record)) {
      if (R.InWidenedIteration || !llvm::is_contained(R.Kernels, Canonical))
        continue;
      std::string Why, CannotRun;
      if (std::optional<LaunchConfig> D = configOf(S, R, Kernel, Arch, Why, CannotRun))
        Out.push_back(std::move(*D));
    }
  return Out;
}

/// Sets CommandLineDefault on each integer of Open (those C, launched on
/// the branches' Ways, leaves open) that the launch at its site passes
/// alike whenever main, run without command-line arguments (Plain), makes
/// it there (PlainLaunches, launchesWithoutArguments) with C's block, its
/// grid when C's is known, and the integers C binds: each option's default
/// (`dimsA.x` is 320 unless `-wA=` is given). The two runs differ only in
/// argc, so a value known in Plain alone is one the command line decides.
void addCommandLineDefaults(LaunchConfig &C, const std::vector<const ParmVarDecl *> &Open,
                            const std::vector<std::string> &Ways,
                            const host::HostEvaluator &Plain,
                            const std::vector<LaunchConfig> &PlainLaunches) {
  if (Open.empty() || PlainLaunches.empty())
    return;
  // A way of a branch the run without arguments went only the other way
  // (`-wB=` given: "the branch at main.cu:51 taken") is a launch the
  // command line shapes: its values are no defaults.
  if (!onWaysOfRunWithoutArguments(Ways, Plain))
    return;
  std::map<const ParmVarDecl *, std::optional<std::int64_t>> Found;
  bool Any = false;
  for (const LaunchConfig &D : PlainLaunches) {
    if (!(D.Block == C.Block) || (C.GridKnown && (!D.GridKnown || !(D.Grid == C.Grid))))
      continue;
    bool Agrees = llvm::all_of(C.Arguments, [&](const auto &Bound) {
      if (!Bound.second.Integer)
        return true;
      auto It = D.Arguments.find(Bound.first);
      return It != D.Arguments.end() && It->second.Integer == Bound.second.Integer;
    });
    if (!Agrees)
      continue;
    for (const ParmVarDecl *P : Open) {
      auto It = D.Arguments.find(P);
      std::optional<std::int64_t> V = It != D.Arguments.end() ? It->second.Integer : std::nullopt;
      if (!Any)
        Found[P] = V;
      else if (Found[P] != V)
        Found[P].reset();
    }
    Any = true;
  }
  for (const auto &[P, V] : Found)
    if (V)
      C.Arguments[P].CommandLineDefault = *V;
}

} // namespace

std::vector<LaunchConfig>
LaunchSiteIndex::configsFor(const FunctionDecl *Kernel,
                            const LaunchDefaults &Defaults) const {
  std::vector<LaunchConfig> Result;
  std::vector<std::string> Unevaluated;
  std::vector<InvalidLaunch> Invalid;
  // Read whether or not a launch is evaluated: an annotation that is not
  // understood is reported either way.
  const KernelAnnotation Annotated = annotationFor(Kernel, Ctx);
  LaunchedExtents Partial;
  std::vector<std::map<const ParmVarDecl *, BoundArgument>> UnshapedArguments;
  std::array<bool, 3> PartialConflict{{false, false, false}};
  const FunctionDecl *Canonical = Kernel->getCanonicalDecl();
  const model::ArchSpec &Arch = archFor(Defaults.Arch);
  const host::HostEvaluator *Run = nullptr;
  for (const auto &S : Sites) {
    if (S->Kernel ? S->Kernel->getCanonicalDecl() != Canonical : !S->Callee)
      continue;
    if (!Run)
      Run = &hostRun(Defaults);
    auto Records = Run->records().find(S.get());
    // A run that spent its steps on a branch only an option takes (a shmoo
    // over every size, `-shmoo`) never reaches the launches of the other
    // way, the program's as it runs without options: when the run was cut
    // short, the launches the run without arguments makes here are added,
    // said so in their context.
    const std::vector<host::LaunchRecord> *PlainRecords = nullptr;
    if (S->Kernel && Run->exhausted())
      if (const host::HostEvaluator *Plain = runWithoutArguments(Defaults))
        if (auto P = Plain->records().find(S.get()); P != Plain->records().end())
          PlainRecords = &P->second;
    if (Records == Run->records().end() && !PlainRecords) {
      if (S->Kernel)
        Unevaluated.push_back(
            "the launch at " + S->Location + " is never executed: " +
            (Run->exhausted() ? "the host code before it was too long to follow"
                              : "no path through " +
                                    host::functionName(Ctx.getSourceManager(), S->Caller) +
                                    " reaches it"));
      continue;
    }
    auto LaunchesThis = [&](const host::LaunchRecord &R) {
      return std::find(R.Kernels.begin(), R.Kernels.end(), Canonical) != R.Kernels.end();
    };
    std::vector<host::LaunchRecord> Launches;
    std::vector<bool> FromPlainRun;
    // What the run without arguments launches here, once per site.
    std::optional<std::vector<LaunchConfig>> PlainLaunches;
    auto AddLaunches = [&](const std::vector<host::LaunchRecord> &From, bool Plain) {
      for (const host::LaunchRecord &R : From)
        for (host::LaunchRecord &W : launchesPerWay(R)) {
          if (Plain)
            W.Context.insert(W.Context.begin(),
                             "a run without command-line arguments (the run with them was too "
                             "long to follow)");
          Launches.push_back(std::move(W));
          FromPlainRun.push_back(Plain);
        }
    };
    if (Records != Run->records().end())
      AddLaunches(Records->second, false);
    if (PlainRecords)
      AddLaunches(*PlainRecords, true);
    // A loop followed iteration by iteration launched the kernel here with
    // its variables known: those are the launches analysed. Its widened
    // iteration, where they are unknown, stands for the iterations not
    // followed; it would only add numbers swept over values the loop never
    // takes (a stride of 3 in a loop of powers of two).
    bool FollowedIterations = llvm::any_of(Launches, [&](const host::LaunchRecord &R) {
      return LaunchesThis(R) && !R.InWidenedIteration;
    });
    bool SaidWidened = false;
    for (std::size_t Index = 0; Index < Launches.size(); ++Index) {
      const host::LaunchRecord &R = Launches[Index];
      if (!LaunchesThis(R))
        continue;
      if (R.InWidenedIteration && FollowedIterations) {
        if (!SaidWidened)
          Unevaluated.push_back("the launch at " + S->Location +
                                " in the iterations of its loop that were not followed one by "
                                "one (their values are known only at run time) is not analysed");
        SaidWidened = true;
        continue;
      }
      std::string Why, CannotRun;
      std::optional<LaunchConfig> C = configOf(*S, R, Kernel, Arch, Why, CannotRun);
      if (!CannotRun.empty() && llvm::none_of(Invalid, [&](const InvalidLaunch &I) {
            return I.Site == S->Call && I.Reason == CannotRun;
          }))
        Invalid.push_back({S->Call, S->Location, CannotRun});
      if (!C && !R.InWidenedIteration) {
        UnshapedArguments.push_back(boundArguments(*S, R, Kernel));
        // What the launch does say about the block, for the inference below;
        // launches that disagree on an axis say nothing about it.
        auto Known = knownBlockExtents(R.Block);
        for (unsigned A = 0; A < 3; ++A) {
          if (!Known[A] || PartialConflict[A])
            continue;
          if (Partial.Extent[A] && *Partial.Extent[A] != *Known[A]) {
            PartialConflict[A] = true;
            Partial.Extent[A].reset();
            continue;
          }
          Partial.Extent[A] = Known[A];
          Partial.Where[A] = S->Location;
        }
      }
      if (!C) {
        if (std::find(Unevaluated.begin(), Unevaluated.end(), Why) == Unevaluated.end())
          Unevaluated.push_back(Why);
        continue;
      }
      // Whether the program run without options makes a launch on branch
      // ways (a profiler's run, the one a user runs first).
      if ((!R.Ways.empty() && FromPlainRun[Index]) || R.WithoutArguments)
        C->WithoutArguments = true;
      else if (!R.Ways.empty())
        if (const host::HostEvaluator *Argumentless = runWithoutArguments(Defaults))
          C->WithoutArguments = onWaysOfRunWithoutArguments(R.Ways, *Argumentless);
      // Run main without arguments only for launches that leave integers open.
      if (std::vector<const ParmVarDecl *> Open = openIntegers(*C, Kernel);
          !Open.empty() && !FromPlainRun[Index])
        if (const host::HostEvaluator *Argumentless = runWithoutArguments(Defaults)) {
          if (!PlainLaunches)
            PlainLaunches = launchesWithoutArguments(*S, Kernel, Arch, *Argumentless);
          addCommandLineDefaults(*C, Open, R.Ways, *Argumentless, *PlainLaunches);
        }
      // One analysis per distinct shape and binding (made by the run
      // without arguments if any of its launches is).
      auto Same = std::find_if(Result.begin(), Result.end(),
                               [&](const LaunchConfig &Prev) { return sameShape(Prev, *C); });
      if (Same == Result.end())
        Result.push_back(std::move(*C));
      else if (C->WithoutArguments.value_or(false))
        Same->WithoutArguments = true;
    }
  }
  if (!Result.empty()) {
    // The launches that were not analysed are said beside those that were.
    for (LaunchConfig &C : Result) {
      C.Unevaluated = Unevaluated;
      C.CannotRun = Invalid;
      C.AnnotationProblem = Annotated.Problem;
      C.AnnotationProblemAt = Annotated.Where;
    }
    return Result;
  }
  // Launches of this kernel that another unit evaluated.
  if (Defaults.OtherUnits) {
    auto It = Defaults.OtherUnits->find(crossUnitName(Kernel));
    if (It != Defaults.OtherUnits->end()) {
      for (const CrossUnitLaunch &X : It->second) {
        LaunchConfig C;
        C.Source = LaunchSource::LaunchSite;
        C.Block = X.Block;
        C.Grid = X.Grid;
        C.GridKnown = X.GridKnown;
        C.DynamicSharedBytes = X.DynamicSharedBytes;
        C.Location = X.Location;
        C.Description = "the launch at " + X.Location;
        C.Context = X.Context;
        for (const auto &[Index, Arg] : X.Arguments)
          if (Index < Kernel->getNumParams())
            C.Arguments[Kernel->getParamDecl(Index)] = Arg;
        if (std::none_of(Result.begin(), Result.end(),
                         [&](const LaunchConfig &Prev) { return sameShape(Prev, C); }))
          Result.push_back(std::move(C));
      }
      if (!Result.empty())
        return Result;
    }
  }
  auto Fallback = [&](LaunchConfig C) {
    C.Unevaluated = Unevaluated;
    C.CannotRun = Invalid;
    C.AnnotationProblem = Annotated.Problem;
    C.AnnotationProblemAt = Annotated.Where;
    // The shape stands in for launches that could not be evaluated; the
    // arguments they all pass alike are still theirs.
    if (C.Arguments.empty())
      C.Arguments = commonArguments(UnshapedArguments);
    bindBlockExtentArguments(C);
    return std::vector<LaunchConfig>{std::move(C)};
  };
  if (Annotated.Config)
    return Fallback(*Annotated.Config);
  std::optional<std::uint32_t> MaxThreads;
  if (std::optional<LaunchBounds> Bounds = launchBounds(Kernel, Ctx);
      Bounds && Bounds->MaxThreads <= Arch.MaxThreadsPerBlock)
    MaxThreads = Bounds->MaxThreads;
  // What the kernel's own code says: never a 1-D block for a kernel that
  // reads threadIdx.y (BlockShapeInference.h).
  BlockShapeEvidence Evidence = collectBlockShapeEvidence(Kernel, Ctx, Arch.MaxThreadsPerBlock);
  addLaunchedExtents(Evidence, Partial);
  if (auto C = inferLaunchFromKernel(Evidence, MaxThreads, Defaults, Arch.MaxThreadsPerBlock))
    return Fallback(*C);
  if (MaxThreads) {
    LaunchConfig C;
    C.Source = LaunchSource::LaunchBounds;
    C.Block = Dim3{*MaxThreads, 1, 1};
    C.Description = "__launch_bounds__(" + std::to_string(*MaxThreads) + ")";
    return Fallback(C);
  }
  LaunchConfig C;
  C.Source = LaunchSource::Default;
  C.Block = Defaults.Block;
  C.Description = "the default block";
  return Fallback(C);
}

} // namespace warpcheck::analysis

namespace warpcheck::analysis {

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
