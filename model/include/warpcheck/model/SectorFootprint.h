//===- SectorFootprint.h - distinct DRAM sectors a whole launch touches ---===//
//
// The cache model of the DRAM traffic estimate (docs/hardware-model.md,
// "DRAM traffic of a launch"): every distinct 32-byte sector of global
// memory a launch reads is read from DRAM once, and every distinct sector
// it writes is written once, however many threads, warps and blocks touch
// it. That is the traffic of a cache that keeps everything the launch
// touches; L2 holds reused data when its reuse happens within a capacity's
// worth of other traffic, as in the streaming and tiled kernels the H200
// measurements cover (test/hw/roofline/).
//
// A grid of blocks is described without listing every block: the byte
// ranges one representative block touches in an allocation, and the
// lattice of translations (per grid axis, a byte step and a count) that
// gives the other blocks of its class. The footprint counts the distinct
// sectors of the union of all translated ranges, with one bit per sector
// of the span they cover.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_MODEL_SECTORFOOTPRINT_H
#define WARPCHECK_MODEL_SECTORFOOTPRINT_H

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace warpcheck::model {

/// Bytes [Begin, End) of one allocation (offsets into it).
struct ByteRange {
  std::int64_t Begin = 0, End = 0;
  bool operator==(const ByteRange &O) const { return Begin == O.Begin && End == O.End; }
};

/// Sorts Ranges and merges those that overlap or touch.
std::vector<ByteRange> mergedRanges(std::vector<ByteRange> Ranges);

/// The ranges of a representative block, and its class's other blocks as
/// the translations sum over axes of i x Step, 0 <= i < Count.
struct TranslatedRanges {
  std::vector<ByteRange> Ranges;
  struct Axis {
    std::int64_t Step = 0;
    std::uint64_t Count = 1;
  };
  std::vector<Axis> Axes;
  /// Ranges x translations: the ranges to mark (a zero step adds none).
  std::uint64_t placements() const;
};

/// The distinct sectors the union of translated ranges covers, in one
/// allocation.
class SectorFootprint {
public:
  /// At most MaxPlacements translated ranges are marked and at most
  /// MaxSpanSectors bits kept; beyond either, the count is not computed.
  SectorFootprint(std::uint64_t MaxPlacements, std::uint64_t MaxSpanSectors,
                  unsigned SectorBytes = 32);
  void add(TranslatedRanges R);
  struct Count {
    /// Distinct sectors the ranges touch.
    std::uint64_t Sectors = 0;
    /// Of those, the sectors whose bytes the ranges together do not cover
    /// whole. Written, such a sector is read from DRAM by the L2 before it
    /// is written back (measured on an H100: test/hw/partial_sector_writes.json).
    std::uint64_t PartialSectors = 0;
    /// A span of more than 2^24 sectors in which more than 2^20 sectors
    /// had a partial edge: the later ones were not followed, and
    /// PartialSectors counts those that were.
    bool PartialSectorsCapped = false;
    /// The partial sectors' numbers (byte offset / sector size), sorted.
    std::vector<std::int64_t> PartialSectorNumbers;
  };
  /// nullopt when a limit was exceeded.
  std::optional<Count> count() const;
  std::optional<std::uint64_t> distinctSectors() const {
    std::optional<Count> C = count();
    return C ? std::optional<std::uint64_t>(C->Sectors) : std::nullopt;
  }

private:
  std::vector<TranslatedRanges> Parts;
  std::uint64_t MaxPlacements, MaxSpanSectors;
  unsigned SectorBytes;
};

} // namespace warpcheck::model

#endif
