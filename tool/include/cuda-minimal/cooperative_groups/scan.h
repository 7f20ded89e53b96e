/*===- cooperative_groups/scan.h - warpcheck's group scans ----------------===//
 *
 * warpcheck's bundled stand-in for the CUDA toolkit's
 * cooperative_groups/scan.h, used only when no CUDA toolkit was found:
 * cg::inclusive_scan and cg::exclusive_scan as the CUDA C++ Programming
 * Guide ("Cooperative Groups", "inclusive_scan and exclusive_scan") gives
 * them. The analysis treats them as library calls that read their value
 * (analysis/interp/CooperativeGroups.cpp); the bodies (shuffles up the
 * tile) are for the register estimate.
 *
 *===----------------------------------------------------------------------===*/

#ifndef WARPCHECK_FORWARD_COOPERATIVE_GROUPS_SCAN_H
#define WARPCHECK_FORWARD_COOPERATIVE_GROUPS_SCAN_H

#pragma clang system_header

#include "reduce.h"

#if defined(__cplusplus) && defined(__CUDA__)

namespace cooperative_groups {

/// The sum (or op) of the values of the lanes of rank up to this one's.
template <typename TyGroup, typename TyVal, typename TyOp>
__device__ typename details::plain<TyVal>::type inclusive_scan(const TyGroup &group, TyVal &&val,
                                                              TyOp &&op) {
  typename details::plain<TyVal>::type v = val;
  for (unsigned int delta = 1; delta < group.size(); delta *= 2) {
    typename details::plain<TyVal>::type below = group.shfl_up(v, delta);
    if (group.thread_rank() >= delta)
      v = op(v, below);
  }
  return v;
}
template <typename TyGroup, typename TyVal>
__device__ typename details::plain<TyVal>::type inclusive_scan(const TyGroup &group, TyVal &&val) {
  return inclusive_scan(group, val, plus<typename details::plain<TyVal>::type>());
}

/// The sum (or op) of the values of the lanes of rank below this one's
/// (a value-initialised one in the first lane).
template <typename TyGroup, typename TyVal, typename TyOp>
__device__ typename details::plain<TyVal>::type exclusive_scan(const TyGroup &group, TyVal &&val,
                                                              TyOp &&op) {
  typename details::plain<TyVal>::type v = inclusive_scan(group, val, op);
  typename details::plain<TyVal>::type below = group.shfl_up(v, 1);
  return group.thread_rank() == 0 ? typename details::plain<TyVal>::type() : below;
}
template <typename TyGroup, typename TyVal>
__device__ typename details::plain<TyVal>::type exclusive_scan(const TyGroup &group, TyVal &&val) {
  return exclusive_scan(group, val, plus<typename details::plain<TyVal>::type>());
}

} // namespace cooperative_groups

#endif // __cplusplus && __CUDA__
#endif // WARPCHECK_FORWARD_COOPERATIVE_GROUPS_SCAN_H
