//===- LaneValue.h - what the lanes of a simulated warp hold ---*- C++ -*-===//
//
// The value domain of the warp interpreter: what one lane holds (an
// integer, a pointer into a memory region, or nothing known), the 32 lanes
// of a warp, lane masks, and lvalues (a tracked variable, or memory at
// per-lane addresses). Private to analysis/interp/.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_INTERP_LANEVALUE_H
#define WARPCHECK_ANALYSIS_INTERP_LANEVALUE_H

#include "values/IntegerSemantics.h"
#include "warpcheck/model/WarpAddressSet.h"

#include "clang/AST/Decl.h"

#include <array>
#include <cstdint>

namespace warpcheck::analysis::interp {

using model::WarpSize;
/// One bit per lane: bit L is lane L.
using Mask = std::uint32_t;

inline bool isBitSet(Mask M, unsigned Lane) { return (M >> Lane) & 1u; }

/// What one lane holds: an integer, a pointer into a region, a pointer into
/// a region at an offset not known (`s[data[i]]`: which memory it is, and
/// so its address space, is still known from the declaration), or nothing
/// known.
struct LaneValue {
  enum Kind : std::uint8_t { Unknown, Int, Pointer, RegionOnly };
  Kind K = Unknown;
  std::uint64_t Bits = 0; ///< Int: normalised bits; Pointer: byte offset.
  int Region = -1;

  static LaneValue integer(std::uint64_t B) { return {Int, B, -1}; }
  static LaneValue pointer(int R, std::uint64_t Off) { return {Pointer, Off, R}; }
  static LaneValue inRegion(int R) { return {RegionOnly, 0, R}; }
  /// A pointer whose region is known, its offset or not.
  bool hasRegion() const { return K == Pointer || K == RegionOnly; }
  bool operator==(const LaneValue &O) const {
    if (K != O.K)
      return false;
    if (K == Unknown)
      return true;
    return Region == O.Region && (K == RegionOnly || Bits == O.Bits);
  }
  bool operator!=(const LaneValue &O) const { return !(*this == O); }
};

/// What a lane holds when it may hold A or B (a data-dependent branch):
/// two pointers into one region are still into that region.
inline LaneValue join(const LaneValue &A, const LaneValue &B) {
  if (A == B)
    return A;
  if (A.hasRegion() && B.hasRegion() && A.Region == B.Region)
    return LaneValue::inRegion(A.Region);
  return LaneValue{};
}

using Lanes = std::array<LaneValue, WarpSize>;

inline Lanes splat(LaneValue V) {
  Lanes L;
  L.fill(V);
  return L;
}

enum class RegionKind { Global, Shared, Local, Constant };

/// A memory region: a kernel pointer parameter's allocation, a __shared__,
/// __constant__ or __device__ variable, or a local array.
struct Region {
  RegionKind Kind;
  std::uint64_t Base;
  const clang::VarDecl *Var = nullptr;
};

/// An lvalue: a tracked variable, or memory at per-lane addresses.
struct LValue {
  enum Kind { None, Var, Mem } K = None;
  const clang::VarDecl *Variable = nullptr;
  /// Var: the index of the frame holding it (a lambda's by-reference
  /// capture lives in an enclosing frame); -1 for the current frame.
  int Frame = -1;
  Lanes Addr;
};

/// How values of an integer type are normalised: the analysis's one
/// integer semantics (values/IntegerSemantics.h).
using IntFormat = values::IntegerType;

} // namespace warpcheck::analysis::interp

#endif
