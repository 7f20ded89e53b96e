/*===- cooperative_groups/reduce.h - warpcheck's group reductions ---------===//
 *
 * warpcheck's bundled stand-in for the CUDA toolkit's
 * cooperative_groups/reduce.h, used only when no CUDA toolkit was found:
 * cg::reduce and its function objects as the CUDA C++ Programming Guide
 * ("Cooperative Groups", "reduce") gives them. The analysis treats reduce
 * as a library call that reads its value (analysis/interp/
 * CooperativeGroups.cpp), as it does with the toolkit's; the body (a
 * butterfly of shuffles over the tile) is for the register estimate.
 *
 *===----------------------------------------------------------------------===*/

#ifndef WARPCHECK_FORWARD_COOPERATIVE_GROUPS_REDUCE_H
#define WARPCHECK_FORWARD_COOPERATIVE_GROUPS_REDUCE_H

#pragma clang system_header

#include "../cooperative_groups.h"

#if defined(__cplusplus) && defined(__CUDA__)

namespace cooperative_groups {

template <typename Ty> struct plus {
  __device__ Ty operator()(const Ty &a, const Ty &b) const { return a + b; }
};
template <typename Ty> struct less {
  __device__ Ty operator()(const Ty &a, const Ty &b) const { return b < a ? b : a; }
};
template <typename Ty> struct greater {
  __device__ Ty operator()(const Ty &a, const Ty &b) const { return a < b ? b : a; }
};
template <typename Ty> struct bit_and {
  __device__ Ty operator()(const Ty &a, const Ty &b) const { return a & b; }
};
template <typename Ty> struct bit_or {
  __device__ Ty operator()(const Ty &a, const Ty &b) const { return a | b; }
};
template <typename Ty> struct bit_xor {
  __device__ Ty operator()(const Ty &a, const Ty &b) const { return a ^ b; }
};

namespace details {
template <typename Ty> struct plain { typedef Ty type; };
template <typename Ty> struct plain<Ty &> { typedef Ty type; };
template <typename Ty> struct plain<const Ty> { typedef Ty type; };
template <typename Ty> struct plain<const Ty &> { typedef Ty type; };
} // namespace details

/// The group's values combined by op, in every lane of the group.
template <typename TyGroup, typename TyVal, typename TyOp>
__device__ typename details::plain<TyVal>::type reduce(const TyGroup &group, TyVal &&val,
                                                      TyOp &&op) {
  typename details::plain<TyVal>::type v = val;
  for (unsigned int delta = 1; delta < group.size(); delta *= 2)
    v = op(v, group.shfl_xor(v, delta));
  return v;
}

} // namespace cooperative_groups

#endif // __cplusplus && __CUDA__
#endif // WARPCHECK_FORWARD_COOPERATIVE_GROUPS_REDUCE_H
