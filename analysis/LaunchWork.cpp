//===- LaunchWork.cpp - the FLOPs and DRAM bytes of one whole launch ------===//

#include "warpcheck/analysis/LaunchWork.h"

#include "interp/WarpInterpreter.h"

#include "warpcheck/analysis/AosAccesses.h"
#include "warpcheck/analysis/CountFormula.h"
#include "warpcheck/model/SectorFootprint.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// Lane-steps all the blocks run whole for one launch may take (about a
/// tenth of a second of simulation: bench/analysis_overhead.py's 400
/// million lane-steps a second). A naive matrix multiply's inner loop
/// takes about 1200 per warp and iteration: 256 iterations over 11 blocks
/// of 8 warps, 27 million.
constexpr std::uint64_t WorkStepBudget = 48'000'000;
/// The footprint's limits: translated ranges marked, and sectors spanned
/// (a bit each: 2^29 sectors = 16 GiB of data, 64 MiB of bits).
constexpr std::uint64_t MaxPlacements = std::uint64_t(1) << 27;
constexpr std::uint64_t MaxSpanSectors = std::uint64_t(1) << 29;

/// A site's bytes in one allocation, read or written.
using RangeKey = std::tuple<const Expr *, std::uint64_t, bool>;

/// What one block run whole did.
struct BlockTrace {
  model::FlopCounts Flops;
  std::map<RangeKey, std::vector<model::ByteRange>> Ranges;
  /// Global accesses with an address not known.
  std::set<const Expr *> UnknownSites;
};

/// The grid's extents.
struct GridShape {
  std::array<std::uint64_t, 3> Extent{1, 1, 1};
  std::uint64_t blocks() const { return Extent[0] * Extent[1] * Extent[2]; }
};

/// Where a block lies along one axis: the first, one of the interior ones,
/// or the last. Guards at the edges of the data (`x > 0`, `x < n - 1`, a
/// partial last block) make the first and the last blocks differ from the
/// others; the interior ones differ only by a shift of their addresses.
enum Place : unsigned { First = 0, Interior = 1, Last = 2 };

/// A class of blocks: a place along each axis (x + 3y + 9z).
using BlockClass = unsigned;
Place placeOf(BlockClass C, unsigned Axis) {
  for (unsigned A = 0; A < Axis; ++A)
    C /= 3;
  return static_cast<Place>(C % 3);
}

/// The classes that have blocks: an axis of extent 1 has only its first
/// block, one of extent 2 its first and last.
std::vector<BlockClass> classes(const GridShape &G) {
  std::vector<BlockClass> Out;
  for (BlockClass C = 0; C < 27; ++C) {
    bool Empty = false;
    for (unsigned A = 0; A < 3; ++A) {
      Place P = placeOf(C, A);
      if ((P == Interior && G.Extent[A] < 3) || (P == Last && G.Extent[A] < 2))
        Empty = true;
    }
    if (!Empty)
      Out.push_back(C);
  }
  return Out;
}

/// The block simulated for a class: index 0, 1 or the last along each axis.
Dim3 representative(const GridShape &G, BlockClass C) {
  std::array<std::uint32_t, 3> I{};
  for (unsigned A = 0; A < 3; ++A) {
    Place P = placeOf(C, A);
    I[A] = P == First ? 0 : P == Interior ? 1 : static_cast<std::uint32_t>(G.Extent[A] - 1);
  }
  return {I[0], I[1], I[2]};
}

/// Blocks in a class: one first and one last along each axis, the
/// extent less two interior ones.
std::uint64_t classSize(const GridShape &G, BlockClass C) {
  std::uint64_t N = 1;
  for (unsigned A = 0; A < 3; ++A)
    if (placeOf(C, A) == Interior)
      N *= G.Extent[A] - 2;
  return N;
}

/// The class interior along every axis that has an interior, first along
/// the others: the blocks most of a large grid is made of.
BlockClass bulkClass(const GridShape &G) {
  BlockClass C = 0, Weight = 1;
  for (unsigned A = 0; A < 3; ++A, Weight *= 3)
    if (G.Extent[A] >= 3)
      C += Interior * Weight;
  return C;
}

bool sameShifted(const std::vector<model::ByteRange> &A, const std::vector<model::ByteRange> &B,
                 std::int64_t Shift) {
  if (A.size() != B.size())
    return false;
  for (std::size_t I = 0; I < A.size(); ++I)
    if (A[I].Begin + Shift != B[I].Begin || A[I].End + Shift != B[I].End)
      return false;
  return true;
}

/// Runs blocks whole and keeps what each did.
class BlockRunner {
public:
  /// The interpreter keeps references to K's launch and to Samples.
  BlockRunner(const KernelLaunchAnalysis &K, const SampleValues &Samples,
              std::uint64_t Budget = WorkStepBudget)
      : K(K), Limits(limits()), Budget(Budget),
        Interp(K.Kernel->getASTContext(), K.Launch, Samples, Limits, NoLayouts,
               [this](const RecordedRequest &R) { record(R); }) {}

  /// Runs the block at Where (every warp); false when the budget ran out
  /// or a loop was cut.
  bool run(const Dim3 &Where, BlockTrace &Out) {
    Current = &Out;
    std::uint64_t Threads = K.Launch.Block.count();
    unsigned Warps = static_cast<unsigned>((Threads + model::WarpSize - 1) / model::WarpSize);
    WarpPosition P;
    P.BlockIdx = Where;
    for (unsigned W = 0; W < Warps; ++W) {
      P.WarpInBlock = W;
      Interp.runWarp(K.Kernel, P);
      Out.Flops += Interp.flopsOfLastWarp();
      Steps += Interp.stepsOfLastWarp();
      if (!Interp.truncatedLoops().empty() || Steps > Budget)
        return false;
    }
    for (auto &[Key, Ranges] : Out.Ranges)
      Ranges = model::mergedRanges(std::move(Ranges));
    return true;
  }

  /// Lane-steps run so far.
  std::uint64_t steps() const { return Steps; }

private:
  const KernelLaunchAnalysis &K;
  const InterpreterLimits Limits;
  const std::uint64_t Budget;

public:
  WarpInterpreter Interp;

private:
  static InterpreterLimits limits() {
    InterpreterLimits L;
    // Every iteration of every loop: the budget is the launch's, checked
    // after each warp; a warp alone stops at WorkStepBudget.
    L.MaxLoopIterations = ~0u;
    // A loop whose exit depends on data has no trip count to multiply out:
    // cut (and the launch not counted) instead of run to the budget.
    L.MaxUncertainLoopIterations = 64;
    L.MaxSteps = 2 * WorkStepBudget;
    return L;
  }

  void record(const RecordedRequest &R) {
    if (R.Site.Space != MemorySpace::Global)
      return;
    if (!R.Addresses) {
      Current->UnknownSites.insert(R.Site.Expr);
      return;
    }
    const model::WarpAddressSet &A = *R.Addresses;
    bool Reads = R.Site.Op != AccessOp::Store, Writes = R.Site.Op != AccessOp::Load;
    // The request's lanes as ranges, merged before they join the block's.
    std::vector<std::pair<std::uint64_t, model::ByteRange>> Lanes;
    for (unsigned L = 0; L < model::WarpSize; ++L) {
      if (!A.isActive(L))
        continue;
      auto Offset = static_cast<std::int64_t>(allocationOffset(A.address(L)));
      Lanes.push_back({allocationOf(A.address(L)), {Offset, Offset + A.bytesPerLane()}});
    }
    std::map<std::uint64_t, std::vector<model::ByteRange>> PerAllocation;
    for (auto &[Allocation, Range] : Lanes)
      PerAllocation[Allocation].push_back(Range);
    for (auto &[Allocation, Ranges] : PerAllocation) {
      std::vector<model::ByteRange> Merged = model::mergedRanges(std::move(Ranges));
      for (bool Write : {false, true}) {
        if (Write ? !Writes : !Reads)
          continue;
        auto &Into = Current->Ranges[{R.Site.Expr, Allocation, Write}];
        Into.insert(Into.end(), Merged.begin(), Merged.end());
      }
    }
  }

  static inline const std::map<const VarDecl *, ArrayLayout> NoLayouts;
  BlockTrace *Current = nullptr;
  std::uint64_t Steps = 0;
};

std::string axisName(unsigned A) { return A == 0 ? "x" : A == 1 ? "y" : "z"; }

/// What every count of the launch rests on: its shape, the values the
/// source leaves open, what the simulation could not run.
std::vector<Assumption> commonAssumptions(const KernelLaunchAnalysis &K,
                                          const WarpInterpreter &Interp) {
  std::vector<Assumption> Out = launchShapeAssumptions(K.Launch);
  if (!K.Launch.GridKnown)
    Out.push_back({AssumptionKind::GridShape,
                   "the grid is not known at a launch site (assumed (64, 64, 1))"});
  std::vector<std::string> Symbols;
  for (const std::string &S : K.SampledSymbols)
    if (S != "gridDim")
      Symbols.push_back("'" + S + "'");
  if (!Symbols.empty()) {
    std::string Names;
    for (std::size_t I = 0; I < Symbols.size(); ++I)
      Names += (I ? (I + 1 == Symbols.size() ? " and " : ", ") : "") + Symbols[I];
    Out.push_back({AssumptionKind::UnboundValue,
                   "the counts take " + Names + ", not known at a launch site, as " +
                       std::to_string(K.SampledInteger)});
  }
  if (!Interp.sweptReads().empty()) {
    std::string Reads;
    for (const std::string &R : Interp.sweptReads())
      Reads += (Reads.empty() ? "'" : ", '") + R + "'";
    Out.push_back({AssumptionKind::MemoryValue, "the counts take the values read from memory (" +
                                                    Reads + ") as " +
                                                    std::to_string(K.SampledInteger)});
  }
  for (const std::string &L : Interp.limitations())
    Out.push_back({AssumptionKind::IncompleteSimulation, L});
  return Out;
}

/// Lane-steps the formula's fit may run in all, over its up to 16 extra
/// counts (each at values no larger than the sampled one).
constexpr std::uint64_t FormulaStepBudget = 2 * WorkStepBudget;

/// The FLOPs per thread as a formula in the unbound integer parameters
/// the counts read (CountFormula.h): each count runs one block of every
/// class, as the launch's own does, with those parameters moved.
std::optional<FlopFormula> flopFormula(const KernelLaunchAnalysis &K, const GridShape &G,
                                       std::int64_t Base,
                                       std::optional<model::FlopCounts> AtBase,
                                       std::uint64_t &Left) {
  std::vector<const ParmVarDecl *> Params;
  std::vector<std::string> Symbols;
  for (const ParmVarDecl *P : K.Kernel->parameters())
    if (P->getType()->isIntegerType() &&
        std::count(K.SampledSymbols.begin(), K.SampledSymbols.end(), P->getNameAsString())) {
      Params.push_back(P);
      Symbols.push_back(P->getNameAsString());
    }
  if (Params.empty())
    return std::nullopt;
  FlopCounter Count = [&](const std::vector<std::int64_t> &Values)
      -> std::optional<model::FlopCounts> {
    SampleValues Samples;
    Samples.UnboundInteger = K.SampledInteger;
    for (std::size_t I = 0; I < Params.size(); ++I)
      Samples.ParameterValues[Params[I]] = Values[I];
    BlockRunner Runner(K, Samples, Left);
    model::FlopCounts Flops;
    bool Complete = true;
    for (BlockClass C : classes(G)) {
      BlockTrace Trace;
      if (!(Complete = Runner.run(representative(G, C), Trace)))
        break;
      Flops += Trace.Flops.scaled(classSize(G, C));
    }
    Left -= std::min(Left, Runner.steps());
    if (!Complete)
      return std::nullopt;
    return Flops;
  };
  return fitFlopFormula(Symbols, Base, G.blocks() * K.Launch.Block.count(), AtBase, Count);
}

/// The note the formula adds to the unbound values' assumption.
std::string formulaNote(const FlopFormula &F) {
  return "; per thread the FLOPs are " + F.PerThreadTotal.text(F.Symbols) +
         " (fitted at multiples of " + std::to_string(F.Step) + " up to " +
         std::to_string(F.Base);
}

/// What the FLOP count leaves out or assumes, as the interpreter ran it.
std::vector<Assumption> flopAssumptions(const WarpInterpreter &Interp) {
  std::vector<Assumption> Out;
  for (const std::string &Op : Interp.uncountedFloatOperations())
    Out.push_back({AssumptionKind::UncountedOperation,
                   "'" + Op + "' compiles to a sequence of instructions that is not counted"});
  if (Interp.flopsUnderUncertainMask())
    Out.push_back({AssumptionKind::DataDependentBranch,
                   "some operations are under a data-dependent condition; all lanes were assumed "
                   "to take it"});
  return Out;
}

AccessStatus statusOf(const std::vector<Assumption> &A) {
  return A.empty() ? AccessStatus::Exact : AccessStatus::Assumed;
}

} // namespace

LaunchWork analyzeLaunchWork(const KernelLaunchAnalysis &K) {
  LaunchWork Work;
  SampleValues Samples;
  Samples.UnboundInteger = K.SampledInteger;
  GridShape G;
  Dim3 Grid = K.Launch.GridKnown ? K.Launch.Grid : Samples.AssumedGrid;
  G.Extent = {std::max<std::uint64_t>(1, Grid.X), std::max<std::uint64_t>(1, Grid.Y),
              std::max<std::uint64_t>(1, Grid.Z)};
  Work.TotalBlocks = G.blocks();
  BlockRunner Runner(K, Samples);

  // The representative of every class, then, along each axis with more
  // than one interior block, the bulk class's block one further along it:
  // its shift from the representative is the step between interior blocks.
  std::map<BlockClass, BlockTrace> ByClass;
  std::array<std::optional<BlockTrace>, 3> Next;
  BlockClass Bulk = bulkClass(G);
  bool Complete = true;
  for (BlockClass C : classes(G)) {
    if (!Runner.run(representative(G, C), ByClass[C])) {
      Complete = false;
      break;
    }
    ++Work.SimulatedBlocks;
  }
  for (unsigned A = 0; A < 3 && Complete; ++A) {
    if (G.Extent[A] < 4)
      continue;
    Dim3 Where = representative(G, Bulk);
    (A == 0 ? Where.X : A == 1 ? Where.Y : Where.Z) += 1;
    Next[A].emplace();
    if (!Runner.run(Where, *Next[A])) {
      Complete = false;
      break;
    }
    ++Work.SimulatedBlocks;
  }
  std::uint64_t FormulaLeft = FormulaStepBudget;
  if (!Complete) {
    Work.FlopsNotCounted = Work.DramNotCounted =
        "a loop of the launch runs longer than the simulation budget allows to count every "
        "iteration, or its exit depends on values read from memory";
    Work.FlopsStatus = Work.DramStatus = AccessStatus::Unknown;
    // A trip count left to a sampled parameter may be what is too long:
    // the FLOPs then come from a formula fitted at a sixteenth of it (256
    // for 4096: a naive matrix multiply of 11 blocks of 8 warps takes 27
    // million lane-steps there, and 67 million for the fit's four values).
    if (K.SampledInteger / 16 >= 64)
      Work.FlopsPerThread = flopFormula(K, G, K.SampledInteger / 16, std::nullopt, FormulaLeft);
    if (!Work.FlopsPerThread)
      return Work;
    const FlopFormula &F = *Work.FlopsPerThread;
    std::vector<std::int64_t> AtSample(F.Symbols.size(), K.SampledInteger);
    Work.Flops = F.countsAt(AtSample, G.blocks() * K.Launch.Block.count());
    if (!Work.Flops) {
      Work.FlopsPerThread.reset();
      return Work;
    }
    Work.FlopsNotCounted.clear();
    Work.FlopsAssumptions = commonAssumptions(K, Runner.Interp);
    for (Assumption &A : flopAssumptions(Runner.Interp))
      Work.FlopsAssumptions.push_back(std::move(A));
    for (Assumption &A : Work.FlopsAssumptions)
      if (A.Kind == AssumptionKind::UnboundValue)
        A.Text += formulaNote(F) + "; at " + std::to_string(K.SampledInteger) +
                  " the launch runs longer than the simulation budget)";
    Work.FlopsStatus = AccessStatus::Assumed;
    return Work;
  }
  const BlockTrace &BulkTrace = ByClass.at(Bulk);
  std::vector<Assumption> Common = commonAssumptions(K, Runner.Interp);

  // FLOPs: each class's block times the blocks of the class.
  model::FlopCounts Flops;
  for (const auto &[C, Trace] : ByClass)
    Flops += Trace.Flops.scaled(classSize(G, C));
  Work.Flops = Flops;
  Work.FlopsAssumptions = Common;
  for (Assumption &A : flopAssumptions(Runner.Interp))
    Work.FlopsAssumptions.push_back(std::move(A));
  for (unsigned A = 0; A < 3; ++A)
    if (Next[A] && Next[A]->Flops != BulkTrace.Flops)
      Work.FlopsAssumptions.push_back(
          {AssumptionKind::IrregularBlocks,
           "the second and third blocks along " + axisName(A) +
               " execute different floating-point work; every interior block along it was "
               "counted as the second"});
  Work.FlopsStatus = statusOf(Work.FlopsAssumptions);
  if (Runner.steps() <= FormulaStepBudget / 4)
    Work.FlopsPerThread = flopFormula(K, G, K.SampledInteger, Flops, FormulaLeft);
  if (Work.FlopsPerThread)
    for (Assumption &A : Work.FlopsAssumptions)
      if (A.Kind == AssumptionKind::UnboundValue)
        A.Text += formulaNote(*Work.FlopsPerThread) + ")";

  // DRAM: a footprint per allocation and direction.
  std::set<const Expr *> Unknown;
  for (const auto &[C, Trace] : ByClass)
    Unknown.insert(Trace.UnknownSites.begin(), Trace.UnknownSites.end());
  if (!Unknown.empty()) {
    Work.DramNotCounted = "the address of '" + sourceText(*Unknown.begin(), K.Kernel->getASTContext()) +
                          "' depends on values read from memory";
    Work.DramStatus = AccessStatus::Unknown;
    return Work;
  }
  Work.DramAssumptions = Common;
  std::map<std::pair<std::uint64_t, bool>, model::SectorFootprint> Footprints;
  std::set<RangeKey> Keys;
  for (const auto &[C, Trace] : ByClass)
    for (const auto &[Key, Ranges] : Trace.Ranges)
      Keys.insert(Key);
  std::set<const Expr *> Irregular;
  std::uint64_t Read = 0, Written = 0, PartiallyWritten = 0;
  bool OverLimits = false, PartialCapped = false;
  for (const RangeKey &Key : Keys) {
    if (OverLimits)
      break;
    auto [Site, Allocation, Write] = Key;
    // The step from one block to the next along each axis, from the
    // second block's shift from the first.
    std::array<std::int64_t, 3> Step{};
    bool Regular = true;
    auto FirstRanges = BulkTrace.Ranges.find(Key);
    for (unsigned A = 0; A < 3; ++A) {
      if (!Next[A])
        continue;
      auto SecondRanges = Next[A]->Ranges.find(Key);
      bool HasFirst = FirstRanges != BulkTrace.Ranges.end() && !FirstRanges->second.empty();
      bool HasSecond = SecondRanges != Next[A]->Ranges.end() && !SecondRanges->second.empty();
      if (!HasFirst && !HasSecond)
        continue;
      if (HasFirst && HasSecond) {
        Step[A] = SecondRanges->second.front().Begin - FirstRanges->second.front().Begin;
        if (sameShifted(FirstRanges->second, SecondRanges->second, Step[A]))
          continue;
      }
      Regular = false;
    }
    if (!Regular)
      Irregular.insert(Site);
    auto It = Footprints.try_emplace({Allocation, Write}, MaxPlacements, MaxSpanSectors).first;
    for (const auto &[C, Trace] : ByClass) {
      auto R = Trace.Ranges.find(Key);
      if (R == Trace.Ranges.end())
        continue;
      model::TranslatedRanges T;
      T.Ranges = R->second;
      if (!Regular) {
        // No common shift: each block's sectors counted apart, as if no
        // two blocks of the class shared one.
        model::SectorFootprint One(MaxPlacements, MaxSpanSectors);
        One.add(std::move(T));
        std::optional<model::SectorFootprint::Count> Sectors = One.count();
        if (!Sectors) {
          OverLimits = true;
          break;
        }
        // (A block's sectors written in part may be whole with the other
        // blocks' stores, which this count does not see: no fills added.)
        (Write ? Written : Read) += Sectors->Sectors * 32 * classSize(G, C);
        continue;
      }
      for (unsigned A = 0; A < 3; ++A)
        if (placeOf(C, A) == Interior && G.Extent[A] > 3)
          T.Axes.push_back({Step[A], G.Extent[A] - 2});
      It->second.add(std::move(T));
    }
  }
  for (const Expr *Site : Irregular)
    Work.DramAssumptions.push_back(
        {AssumptionKind::IrregularBlocks,
         "the addresses of '" + sourceText(Site, K.Kernel->getASTContext()) +
             "' in the third block along an axis are not those of the second shifted: each block's sectors "
             "were counted apart"});
  // A sector written only in part is read from DRAM before the L2 writes
  // it back, once, unless the launch reads it anyway: an H100 read 474,208
  // sectors for 524,288 written a float each, and the H200 read the 5-point
  // stencil's input plus 15,360 sectors for its output's 16,380 partial
  // ones (test/hw/partial_sector_writes.json, test/hw/roofline/; the rest
  // still in L2 when the measurement ends, as for writes).
  std::map<std::uint64_t, std::uint64_t> ReadSectors;
  for (const auto &[Key, F] : Footprints) {
    if (OverLimits)
      break;
    std::optional<model::SectorFootprint::Count> Sectors = F.count();
    if (!Sectors) {
      OverLimits = true;
      continue;
    }
    (Key.second ? Written : Read) += Sectors->Sectors * 32;
    if (!Key.second) {
      ReadSectors[Key.first] = Sectors->Sectors;
      continue;
    }
    PartialCapped |= Sectors->PartialSectorsCapped;
    if (Sectors->PartialSectorNumbers.empty())
      continue;
    std::uint64_t Fills = Sectors->PartialSectors;
    auto Reads = Footprints.find({Key.first, false});
    if (Reads != Footprints.end()) {
      // The read footprint with the partial sectors added: what grows is
      // what the launch does not read itself.
      model::SectorFootprint Both = Reads->second;
      model::TranslatedRanges Partial;
      for (std::int64_t Sector : Sectors->PartialSectorNumbers)
        Partial.Ranges.push_back({Sector * 32, Sector * 32 + 32});
      Both.add(std::move(Partial));
      // (The map orders an allocation's reads before its writes.)
      std::optional<std::uint64_t> Union = Both.distinctSectors();
      if (!Union) {
        OverLimits = true;
        continue;
      }
      Fills = *Union - ReadSectors[Key.first];
    }
    PartiallyWritten += Fills;
  }
  Read += PartiallyWritten * 32;
  if (PartialCapped)
    Work.DramAssumptions.push_back(
        {AssumptionKind::PartialSectorWrite,
         "the stores span more than 2^24 sectors and leave more than 2^20 of them written in "
         "part at some point; the L2 reads a sector written only in part from DRAM before "
         "writing it back, and the reads count such sectors among the first 2^20 only"});
  if (OverLimits) {
    Work.DramNotCounted = "the launch touches more memory than the footprint's limits "
                          "(2^29 sectors, 2^27 ranges) allow to count";
    Work.DramStatus = AccessStatus::Unknown;
    Work.DramAssumptions.clear();
    return Work;
  }
  Work.DramReadBytes = Read;
  Work.DramWriteBytes = Written;
  Work.DramStatus = statusOf(Work.DramAssumptions);
  return Work;
}

} // namespace warpcheck::analysis
