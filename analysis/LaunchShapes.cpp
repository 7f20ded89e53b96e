//===- LaunchShapes.cpp - the shapes a kernel is analysed with ------------===//
//
// LaunchSiteIndex::configsFor (LaunchConfig.h): a kernel's launch shapes from
// what the host evaluation recorded at its launches (one per distinct shape
// and arguments, each way a launch may go), the ones a run without
// command-line arguments makes, else the annotation (KernelAnnotations.h),
// the shape inferred from the kernel (BlockShapeInference.h),
// __launch_bounds__ or the default block, with why no launch could be used.
// The launch sites themselves are collected in LaunchConfig.cpp.
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

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <array>
#include <set>

using namespace clang;

namespace warpcheck::analysis {

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
  const model::ArchSpec &Arch = model::findArchOrDefault(Defaults.Arch);
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
