//===- WarpAddressSet.h - the addresses one warp instruction touches ------===//
//
// A warp executes a memory instruction for its active lanes at once; the
// memory system sees the set of (lane, byte address) pairs. Everything the
// model says about coalescing and bank conflicts is a function of this set
// and the access width.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_MODEL_WARPADDRESSSET_H
#define WARPCHECK_MODEL_WARPADDRESSSET_H

#include <array>
#include <cstdint>
#include <string>

namespace warpcheck::model {

/// Threads per warp on every NVIDIA architecture since the G80.
inline constexpr unsigned WarpSize = 32;

/// The byte addresses of the active lanes of one warp-wide memory request.
class WarpAddressSet {
public:
  explicit WarpAddressSet(unsigned BytesPerLane) : BytesPerLane(BytesPerLane) {}

  void setLane(unsigned Lane, std::uint64_t Address) {
    Addresses[Lane] = Address;
    ActiveMask |= (1u << Lane);
  }
  bool isActive(unsigned Lane) const { return (ActiveMask >> Lane) & 1u; }
  std::uint64_t address(unsigned Lane) const { return Addresses[Lane]; }
  std::uint32_t activeMask() const { return ActiveMask; }
  unsigned activeLanes() const;
  unsigned bytesPerLane() const { return BytesPerLane; }
  bool empty() const { return ActiveMask == 0; }

  /// The first and the last unit of UnitBytes (a 32-byte sector, a 128-byte
  /// line, a 4-byte bank word) that lane Lane's bytes fall in: more than one
  /// when the access is misaligned for its width or wider than a unit, and
  /// the memory system serves every unit it touches.
  struct UnitRange {
    std::uint64_t First = 0;
    std::uint64_t Last = 0;
  };
  UnitRange unitsOfLane(unsigned Lane, std::uint64_t UnitBytes) const {
    return {Addresses[Lane] / UnitBytes, (Addresses[Lane] + BytesPerLane - 1) / UnitBytes};
  }

  /// Bytes requested by the active lanes, each byte counted once (lanes that
  /// read the same bytes are served by one delivery: broadcast).
  std::uint64_t uniqueBytes() const;

  /// The same lanes, width and addresses: one request serves both.
  bool sameRequest(const WarpAddressSet &O) const {
    if (ActiveMask != O.ActiveMask || BytesPerLane != O.BytesPerLane)
      return false;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (isActive(L) && Addresses[L] != O.Addresses[L])
        return false;
    return true;
  }

  /// Every lane of this request is a lane of Earlier with the same
  /// address, at the same width: what Earlier loaded into each lane's
  /// register serves this request (a load hoisted out of a loop, which
  /// the loop's last iterations reach with fewer lanes).
  bool servedBy(const WarpAddressSet &Earlier) const {
    if ((ActiveMask & ~Earlier.ActiveMask) != 0 || BytesPerLane != Earlier.BytesPerLane)
      return false;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (isActive(L) && Addresses[L] != Earlier.Addresses[L])
        return false;
    return true;
  }

  /// Convenience for tests and worked examples: lane L reads Base + L * Stride.
  static WarpAddressSet strided(std::uint64_t Base, std::int64_t StrideBytes,
                                unsigned BytesPerLane,
                                unsigned ActiveLanes = WarpSize);

private:
  std::array<std::uint64_t, WarpSize> Addresses{};
  std::uint32_t ActiveMask = 0;
  unsigned BytesPerLane;
};

} // namespace warpcheck::model

#endif
