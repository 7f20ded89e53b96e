//===- HostOccupancyCalls.cpp - the runtime's occupancy functions ---------===//
//
// Host code that sizes its launches by occupancy asks the runtime:
//   cudaOccupancyMaxPotentialBlockSize(&minGridSize, &blockSize, kernel,
//                                      dynamicSMemSize, blockSizeLimit)
//   cudaOccupancyMaxActiveBlocksPerMultiprocessor(&numBlocks, kernel,
//                                                 blockSize, dynamicSMemSize)
// Their answers are the occupancy model's (model/Occupancy.h: the same
// calculation as the toolkit's cuda_occupancy.h, checked against the
// runtime on the H200, test/inputs/occupancy-sized-launches.cu), given
// what the kernel asks of an SM (its registers, as the occupancy report
// counts them, and static shared memory). The block size is capped by
// __launch_bounds__ as the runtime caps it by cudaFuncAttributes::
// maxThreadsPerBlock. The minimum grid size is the active blocks per SM
// times the device's SM count, which the architecture does not fix
// (DeviceProperties.h): it stays unknown.
//
//===----------------------------------------------------------------------===//

#include "HostEvaluator.h"

#include "warpcheck/model/Occupancy.h"

#include "clang/AST/Attr.h"

#include <algorithm>

using namespace clang;

namespace warpcheck::analysis::host {

std::optional<HostValue> HostEvaluator::occupancyCall(llvm::StringRef Name,
                                                      const CallExpr *CE) {
  bool PotentialBlockSize = Name == "cudaOccupancyMaxPotentialBlockSize" ||
                            Name == "cudaOccupancyMaxPotentialBlockSizeWithFlags";
  bool ActiveBlocks = Name == "cudaOccupancyMaxActiveBlocksPerMultiprocessor" ||
                      Name == "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags";
  if ((!PotentialBlockSize && !ActiveBlocks) || CE->getNumArgs() < (PotentialBlockSize ? 3u : 4u))
    return std::nullopt;
  std::vector<HostValue> Args;
  for (const Expr *A : CE->arguments())
    Args.push_back(eval(A));
  // The kernel: the third argument (the second for active blocks).
  const HostValue &Func = Args[PotentialBlockSize ? 2 : 1];
  const FunctionDecl *Kernel =
      Func.K == HostValue::Functions && Func.Callees.size() == 1 ? Func.Callees[0] : nullptr;
  std::string Why;
  std::optional<KernelOccupancyInputs> Inputs;
  if (!Kernel || !Kernel->hasAttr<CUDAGlobalAttr>())
    Why = "a kernel not known here";
  else if (!OccupancyInputs || !*OccupancyInputs)
    Why = "what '" + Kernel->getNameAsString() + "' asks of an SM, not known here";
  else
    Inputs = (*OccupancyInputs)(Kernel, Why);
  auto IntegerArg = [&](unsigned I, std::uint64_t Default) -> std::optional<std::uint64_t> {
    if (I >= Args.size())
      return Default;
    if (Args[I].K != HostValue::Int)
      return std::nullopt;
    return Args[I].Bits;
  };
  QualType Int = Ctx.IntTy;
  std::string Where = " (" + where(CE) + ")";
  if (PotentialBlockSize) {
    std::optional<std::uint64_t> Dynamic = IntegerArg(3, 0), Limit = IntegerArg(4, 0);
    HostValue Block = HostValue::unknown("a block size '" + Name.str() + "' chooses for " + Why + Where);
    HostValue MinGrid = HostValue::unknown("a grid size '" + Name.str() + "' gives at run time" + Where);
    if (Inputs && Dynamic && Limit) {
      unsigned Cap = static_cast<unsigned>(std::min<std::uint64_t>(*Limit, ~0u));
      if (Inputs->MaxThreadsPerBlock && (!Cap || Cap > Inputs->MaxThreadsPerBlock))
        Cap = Inputs->MaxThreadsPerBlock;
      model::KernelResources K = Inputs->Resources;
      K.DynamicSharedBytes = *Dynamic;
      model::BlockSizeSuggestion S = model::suggestBlockSize(Arch, K, 0, Cap);
      if (S.BlockSize)
        Block = HostValue::integer(S.BlockSize);
      // Blocks per SM times the device's SM count, which the architecture
      // does not fix.
      MinGrid = HostValue::unknown("a grid size of " + std::to_string(S.ActiveBlocksPerSM) +
                                   " blocks per SM times the device's SM count, known at "
                                   "run time" + Where);
    } else if (Inputs) {
      Block = HostValue::unknown("a block size '" + Name.str() +
                                 "' chooses for a dynamic shared size or limit known only at "
                                 "run time" + Where);
    }
    writeThrough(Args[0], toType(MinGrid, Int));
    writeThrough(Args[1], toType(Block, Int));
  } else {
    std::optional<std::uint64_t> Threads = IntegerArg(2, 0), Dynamic = IntegerArg(3, 0);
    HostValue Blocks = HostValue::unknown("the active blocks per SM '" + Name.str() +
                                          "' gives for " + Why + Where);
    if (Inputs && Threads && Dynamic && *Threads > 0 && *Threads <= ~0u) {
      model::KernelResources K = Inputs->Resources;
      K.ThreadsPerBlock = static_cast<unsigned>(*Threads);
      K.DynamicSharedBytes = *Dynamic;
      model::OccupancyResult R = model::computeOccupancy(Arch, K);
      // A block larger than __launch_bounds__ allows cannot launch: 0.
      bool TooLarge = Inputs->MaxThreadsPerBlock && *Threads > Inputs->MaxThreadsPerBlock;
      Blocks = HostValue::integer(R.valid() && !TooLarge ? R.ActiveBlocksPerSM : 0);
    } else if (Inputs) {
      Blocks = HostValue::unknown("the active blocks per SM '" + Name.str() +
                                  "' gives for a block size or dynamic shared size known only "
                                  "at run time" + Where);
    }
    writeThrough(Args[0], toType(Blocks, Int));
  }
  return HostValue::unknown("the error code of " + Name.str());
}

} // namespace warpcheck::analysis::host
