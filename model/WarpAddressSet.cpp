#include "warpcheck/model/WarpAddressSet.h"

#include <algorithm>
#include <bitset>
#include <utility>
#include <vector>

namespace warpcheck::model {

unsigned WarpAddressSet::activeLanes() const {
  return static_cast<unsigned>(std::bitset<32>(ActiveMask).count());
}

std::uint64_t WarpAddressSet::uniqueBytes() const {
  // Union of the byte intervals [addr, addr + width) of the active lanes.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> Intervals;
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
    if (isActive(Lane))
      Intervals.emplace_back(Addresses[Lane], Addresses[Lane] + BytesPerLane);
  std::sort(Intervals.begin(), Intervals.end());
  std::uint64_t Total = 0, End = 0;
  bool First = true;
  for (const auto &[Begin, Finish] : Intervals) {
    if (First || Begin >= End) {
      Total += Finish - Begin;
      End = Finish;
      First = false;
    } else if (Finish > End) {
      Total += Finish - End;
      End = Finish;
    }
  }
  return Total;
}

WarpAddressSet WarpAddressSet::strided(std::uint64_t Base,
                                       std::int64_t StrideBytes,
                                       unsigned BytesPerLane,
                                       unsigned ActiveLanes) {
  WarpAddressSet Set(BytesPerLane);
  for (unsigned Lane = 0; Lane < ActiveLanes && Lane < WarpSize; ++Lane)
    Set.setLane(Lane, Base + static_cast<std::uint64_t>(StrideBytes * Lane));
  return Set;
}

} // namespace warpcheck::model
