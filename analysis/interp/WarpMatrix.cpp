//===- WarpMatrix.cpp - the warp matrix functions (nvcuda::wmma) ----------===//
//
// store_matrix_sync(p, fragment, ldm, layout) writes a warp's accumulator
// fragment (the call recognised by analysis/WarpMatrix.h): the stores nvcc
// emits and the elements each lane writes are the model's
// (model/MatrixFragment.h); here they become per-lane addresses from p and
// ldm as the lanes hold them, one request per store instruction, all at
// the call.
// Any other form (a shape or element type the model does not describe, a
// layout or leading dimension not known) stays an opaque call.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "warpcheck/analysis/WarpMatrix.h"
#include "warpcheck/model/MatrixFragment.h"

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// The value every active lane holds, if they agree on a known integer.
std::optional<std::uint64_t> uniformInteger(const interp::Lanes &V, interp::Mask Active) {
  std::optional<std::uint64_t> Value;
  for (unsigned L = 0; L < interp::WarpSize; ++L) {
    if (!interp::isBitSet(Active, L))
      continue;
    if (V[L].K != interp::LaneValue::Int || (Value && *Value != V[L].Bits))
      return std::nullopt;
    Value = V[L].Bits;
  }
  return Value;
}

} // namespace

std::optional<Lanes> WarpInterpreter::Impl::warpMatrixStoreCall(const CallExpr *CE,
                                                                unsigned) {
  std::optional<WarpMatrixStore> Store = warpMatrixStore(CE, Ctx);
  if (!Store)
    return std::nullopt;
  const model::AccumulatorFragment *Fragment = &Store->Fragment;
  Lanes Ptr = eval(CE->getArg(0));
  evalLValue(CE->getArg(1));
  Lanes Ld = eval(CE->getArg(2));
  Lanes Layout = eval(CE->getArg(3));
  // nvcuda::wmma::layout_t: mem_row_major is 0, mem_col_major 1 (mma.h).
  std::optional<std::uint64_t> LayoutValue = uniformInteger(Layout, Active);
  std::optional<std::uint64_t> LdValue = uniformInteger(Ld, Active);
  // The arguments are evaluated: from here on the call is handled, its
  // stores recorded only where the layout, the leading dimension and the
  // fragment's stores are known (an opaque call records nothing either).
  if (!LayoutValue || *LayoutValue > 1 || !LdValue)
    return Lanes{};
  bool RowMajor = *LayoutValue == 0;
  auto Stores = model::accumulatorStores(*Fragment, RowMajor);
  if (!Stores)
    return Lanes{};
  // Every lane's p is the tile's start (the function requires it uniform);
  // each lane then writes the elements the layout gives it.
  for (const model::FragmentStoreInstruction &I : *Stores) {
    Lanes Addr = Ptr;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (Addr[L].K == LaneValue::Pointer)
        Addr[L].Bits += static_cast<std::uint64_t>(model::fragmentElementOffset(
            I.Row[L], I.Col[L], static_cast<std::int64_t>(*LdValue), RowMajor,
            Fragment->ElementBytes));
    recordAccess(CE, AccessOp::Store, Addr, CE->getArg(0)->getType()->getPointeeType(), false,
                 0, I.BytesPerLane);
  }
  return Lanes{};
}

} // namespace warpcheck::analysis
