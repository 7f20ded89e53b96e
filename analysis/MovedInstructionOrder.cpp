//===- MovedInstructionOrder.cpp - which moved instruction is whose -------===//

#include "MovedInstructionOrder.h"

namespace warpcheck::analysis {

std::optional<std::vector<size_t>>
pairMovedInOrder(const std::vector<unsigned> &AccessLines,
                 const std::vector<unsigned> &InstructionLines,
                 llvm::function_ref<bool(size_t, size_t)> Fits) {
  const size_t N = AccessLines.size();
  if (N == 0 || N != InstructionLines.size())
    return std::nullopt;
  std::vector<size_t> Pairs(N);
  for (size_t I = 0; I < N; ++I) {
    if (!Fits(I, I))
      return std::nullopt;
    Pairs[I] = I;
  }
  // Each instruction line before its access and after the previous one
  // (hoisted), or each after its access and before the next (sunk).
  bool Before = true, After = true;
  for (size_t I = 0; I < N; ++I) {
    unsigned A = AccessLines[I], L = InstructionLines[I];
    Before &= L < A && (I == 0 || L > AccessLines[I - 1]);
    After &= L > A && (I + 1 == N || L < AccessLines[I + 1]);
  }
  if (!Before && !After)
    return std::nullopt;
  return Pairs;
}

} // namespace warpcheck::analysis
