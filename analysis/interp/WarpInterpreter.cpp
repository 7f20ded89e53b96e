//===- WarpInterpreter.cpp - SIMT lockstep evaluation of a kernel ---------===//
//
// The facade: WarpInterpreter forwards to its Impl, and runWarp sets up
// one warp (the lanes' thread indices, the kernel's parameters) and runs
// the kernel's body. The parts of Impl are in the other files of this
// folder, one construct each (see InterpreterImpl.h).
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

using namespace clang;

namespace warpcheck::analysis {

void WarpInterpreter::Impl::runWarp(const FunctionDecl *Kernel,
                                     const WarpPosition &W) {
  Where = W;
  Steps = 0;
  Aborted = false;
  Uncertain = 0;
  Frames.clear();
  LocalMemory.clear();
  LocalWrites = 0;
  ReturnSlotCall = nullptr;
  WarpFlops = model::FlopCounts{};
  FloatContractions.analyse(Kernel);
  Grid = Launch.GridKnown ? Launch.Grid : Samples.AssumedGrid;
  GridSampled = !Launch.GridKnown;
  // Linear thread id -> (x, y, z): x fastest (CUDA C++ Programming Guide,
  // "Thread Hierarchy"); warp w holds linear ids 32w .. 32w + 31.
  Active = 0;
  std::uint64_t BlockThreads = Launch.Block.count();
  for (unsigned L = 0; L < WarpSize; ++L) {
    std::uint64_t Linear = std::uint64_t(W.WarpInBlock) * WarpSize + L;
    if (Linear >= BlockThreads)
      continue;
    Active |= 1u << L;
    Tx[L] = static_cast<std::uint32_t>(Linear % Launch.Block.X);
    Ty[L] = static_cast<std::uint32_t>((Linear / Launch.Block.X) % Launch.Block.Y);
    Tz[L] = static_cast<std::uint32_t>(Linear / (std::uint64_t(Launch.Block.X) * Launch.Block.Y));
  }
  Frame F;
  for (const ParmVarDecl *P : Kernel->parameters()) {
    Slot S;
    QualType T = P->getType();
    auto Bound = Launch.Arguments.find(P);
    if (T->isPointerType()) {
      std::int64_t Offset = 0;
      if (Bound != Launch.Arguments.end() && Bound->second.PointerOffsetBytes)
        Offset = *Bound->second.PointerOffsetBytes;
      S.Val = splat(LaneValue::pointer(regionFor(P, RegionKind::Global, nullptr),
                                       static_cast<std::uint64_t>(Offset)));
    } else if (T->isRecordType() && isObjectType(T)) {
      // A struct passed by value (a structure-of-arrays view, a struct of
      // pointers and sizes): the kernel's own copy, its pointers set.
      S.IsReference = true;
      S.Ref.K = LValue::Mem;
      S.Ref.Addr = newObject(P, 1, T);
      setParameterPointers(P, S.Ref.Addr, T, 0);
    } else if (T->isIntegerType()) {
      if (Bound != Launch.Arguments.end() && Bound->second.Integer)
        S.Val = splat(LaneValue::integer(normalize(
            static_cast<std::uint64_t>(*Bound->second.Integer), T)));
      else {
        // Unbound: the sampled value, rounded up to the next value the
        // host code guarantees it is congruent to (a pitch in elements, a
        // multiple of 32 less a halo of 8) when it says one.
        auto Own = Samples.ParameterValues.find(P);
        std::int64_t V = Own != Samples.ParameterValues.end() ? Own->second : Samples.UnboundInteger;
        if (Bound != Launch.Arguments.end() && Bound->second.Multiple && V > 0) {
          std::int64_t M = *Bound->second.Multiple, R = Bound->second.Residue;
          V = R + (V - R + M - 1) / M * M;
        }
        S.Val = splat(LaneValue::integer(normalize(static_cast<std::uint64_t>(V), T)));
        S.IsReference = false;
        SampledParams.insert(P);
      }
    }
    F.Vars[P] = S;
  }
  Frames.push_back(std::move(F));
  exec(Kernel->getBody());
  LastWarpSteps = Steps;
}

void WarpInterpreter::Impl::setParameterPointers(const ParmVarDecl *P, const Lanes &Object,
                                                 QualType T, std::uint64_t Offset) {
  const auto *RT = T.getCanonicalType()->getAs<RecordType>();
  const RecordDecl *RD = RT ? RT->getDecl()->getDefinition() : nullptr;
  if (!RD || RD->isUnion())
    return;
  for (const FieldDecl *F : RD->fields()) {
    if (F->isBitField())
      continue;
    std::uint64_t At = Offset + Ctx.getFieldOffset(F) / Ctx.getCharWidth();
    QualType FT = F->getType().getCanonicalType();
    if (FT->isPointerType() && !FT->isFunctionPointerType()) {
      // Each pointer field points to an allocation of its own, at its
      // start, as a pointer parameter does: the view's arrays are separate
      // cudaMalloc allocations, 256-byte aligned.
      auto [It, New] = ParameterFieldRegions.try_emplace({P, At}, -1);
      if (New)
        It->second = addRegion(RegionKind::Global, nullptr);
      storeLocal(offsetBy(Object, At), splat(LaneValue::pointer(It->second, 0)), sizeOf(FT));
    } else if (FT->isRecordType()) {
      setParameterPointers(P, Object, FT, At);
    }
  }
}

WarpInterpreter::WarpInterpreter(ASTContext &Ctx, const LaunchConfig &Launch,
                                 const SampleValues &Samples,
                                 const InterpreterLimits &Limits,
                                 const std::map<const VarDecl *, ArrayLayout> &Layouts,
                                 RequestSink Sink)
    : P(new Impl(Ctx, Launch, Samples, Limits, Layouts, std::move(Sink))) {}
WarpInterpreter::~WarpInterpreter() { delete P; }
void WarpInterpreter::runWarp(const FunctionDecl *Kernel, const WarpPosition &Where) {
  P->runWarp(Kernel, Where);
}
std::uint64_t WarpInterpreter::stepsOfLastWarp() const { return P->LastWarpSteps; }
bool WarpInterpreter::sawUndefinedArithmetic() const {
  return P->UndefinedArithmetic;
}
bool WarpInterpreter::sawOutOfBoundsShared() const { return P->OutOfBoundsShared; }
const std::set<std::string> &WarpInterpreter::sampledSymbolsRead() const {
  return P->SampledRead;
}
const std::vector<std::string> &WarpInterpreter::sweptReads() const {
  return P->SweptReads;
}
const std::vector<SourceRange> &WarpInterpreter::truncatedLoops() const {
  return P->Truncated;
}
const std::vector<SourceRange> &WarpInterpreter::budgetTruncatedLoops() const {
  return P->BudgetCut;
}
const model::FlopCounts &WarpInterpreter::flopsOfLastWarp() const { return P->WarpFlops; }
const std::set<std::string> &WarpInterpreter::uncountedFloatOperations() const {
  return P->UncountedFloatOps;
}
bool WarpInterpreter::flopsUnderUncertainMask() const { return P->FlopsUnderUncertainMask; }
const std::map<const Stmt *, double> &WarpInterpreter::flopsPerLoop() const {
  return P->LoopFlops;
}
const std::set<std::string> &WarpInterpreter::limitations() const {
  return P->Limitations;
}
bool WarpInterpreter::stepBudgetExhausted() const {
  return P->Limitations.count(StepBudgetExhausted) > 0;
}
const std::map<const Expr *, std::map<const Expr *, std::vector<std::int64_t>>> &
WarpInterpreter::capturedSubexpressions() const {
  return P->Captured;
}

} // namespace warpcheck::analysis
