//===- SectorFootprint.cpp - distinct DRAM sectors a whole launch touches -===//

#include "warpcheck/model/SectorFootprint.h"

#include <algorithm>
#include <bitset>
#include <limits>
#include <unordered_map>

namespace warpcheck::model {

std::vector<ByteRange> mergedRanges(std::vector<ByteRange> Ranges) {
  std::sort(Ranges.begin(), Ranges.end(), [](const ByteRange &A, const ByteRange &B) {
    return A.Begin != B.Begin ? A.Begin < B.Begin : A.End < B.End;
  });
  std::vector<ByteRange> Out;
  for (const ByteRange &R : Ranges) {
    if (R.End <= R.Begin)
      continue;
    if (!Out.empty() && R.Begin <= Out.back().End)
      Out.back().End = std::max(Out.back().End, R.End);
    else
      Out.push_back(R);
  }
  return Out;
}

std::uint64_t TranslatedRanges::placements() const {
  unsigned __int128 N = Ranges.size();
  for (const Axis &A : Axes)
    if (A.Step != 0 && A.Count > 1)
      N *= A.Count;
  constexpr std::uint64_t Max = std::numeric_limits<std::uint64_t>::max();
  return N > Max ? Max : static_cast<std::uint64_t>(N);
}

SectorFootprint::SectorFootprint(std::uint64_t MaxPlacements, std::uint64_t MaxSpanSectors,
                                 unsigned SectorBytes)
    : MaxPlacements(MaxPlacements), MaxSpanSectors(MaxSpanSectors),
      SectorBytes(std::max(1u, SectorBytes)) {}

void SectorFootprint::add(TranslatedRanges R) {
  R.Ranges = mergedRanges(std::move(R.Ranges));
  // A zero step or a single block adds no translation.
  R.Axes.erase(std::remove_if(R.Axes.begin(), R.Axes.end(),
                              [](const TranslatedRanges::Axis &A) {
                                return A.Step == 0 || A.Count <= 1;
                              }),
               R.Axes.end());
  if (!R.Ranges.empty())
    Parts.push_back(std::move(R));
}

namespace {

std::int64_t floorDiv(std::int64_t A, std::int64_t B) {
  std::int64_t Q = A / B;
  return (A % B != 0 && ((A < 0) != (B < 0))) ? Q - 1 : Q;
}

/// Sets bits From to To (inclusive), a word at a time.
void setBits(std::vector<std::uint64_t> &Bits, std::uint64_t From, std::uint64_t To) {
  while (From <= To) {
    std::uint64_t Word = From / 64, Bit = From % 64;
    std::uint64_t Take = std::min<std::uint64_t>(64 - Bit, To - From + 1);
    std::uint64_t M = Take == 64 ? ~std::uint64_t(0) : ((std::uint64_t(1) << Take) - 1) << Bit;
    Bits[Word] |= M;
    From += Take;
  }
}

} // namespace

std::optional<SectorFootprint::Count> SectorFootprint::count() const {
  if (Parts.empty())
    return Count{};
  // The span: the lowest and highest byte any translation reaches.
  unsigned __int128 Placements = 0;
  __int128 Low = std::numeric_limits<std::int64_t>::max(), High = std::numeric_limits<std::int64_t>::min();
  for (const TranslatedRanges &P : Parts) {
    Placements += P.placements();
    __int128 MinShift = 0, MaxShift = 0;
    for (const TranslatedRanges::Axis &A : P.Axes) {
      __int128 Far = static_cast<__int128>(A.Step) * static_cast<__int128>(A.Count - 1);
      (Far < 0 ? MinShift : MaxShift) += Far;
    }
    Low = std::min<__int128>(Low, P.Ranges.front().Begin + MinShift);
    High = std::max<__int128>(High, P.Ranges.back().End + MaxShift);
  }
  if (Placements > MaxPlacements)
    return std::nullopt;
  if (Low < std::numeric_limits<std::int64_t>::min() / 2 ||
      High > std::numeric_limits<std::int64_t>::max() / 2)
    return std::nullopt;
  std::int64_t S = SectorBytes;
  std::int64_t FirstSector = floorDiv(static_cast<std::int64_t>(Low), S);
  std::int64_t LastSector = floorDiv(static_cast<std::int64_t>(High) - 1, S);
  std::uint64_t Span = static_cast<std::uint64_t>(LastSector - FirstSector + 1);
  if (Span > MaxSpanSectors)
    return std::nullopt;
  std::vector<std::uint64_t> Bits((Span + 63) / 64, 0);
  // Sectors one range covers whole, and the bytes ranges cover of the
  // others (a sector's edge ranges; at most two per range): a sector whose
  // bytes are not all covered by one range or by its edges together is
  // written in part. Byte masks need sectors of at most 64 bytes.
  std::vector<std::uint64_t> Whole((Span + 63) / 64, 0);
  // A span of up to 2^24 sectors keeps a byte mask per sector (64 MiB at
  // most): a naive transpose fills its sectors from many blocks, each
  // leaving a partial edge until the last. Larger spans keep the masks of
  // at most 2^20 sectors with a partial edge; past that, later edges are
  // not followed (Count says so).
  constexpr std::size_t MaxEdgeSectors = std::size_t(1) << 20;
  constexpr std::uint64_t MaxDenseSectors = std::uint64_t(1) << 24;
  const bool Masks = S <= 64;
  const bool Dense = S <= 32 && Span <= MaxDenseSectors;
  std::vector<std::uint32_t> DenseBytes(Dense ? Span : 0, 0);
  std::unordered_map<std::uint64_t, std::uint64_t> EdgeBytes;
  bool EdgesCapped = false;
  const std::uint64_t AllBytes = S == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << S) - 1;
  auto Mark = [&](std::int64_t Begin, std::int64_t End) {
    std::uint64_t From = static_cast<std::uint64_t>(floorDiv(Begin, S) - FirstSector);
    std::uint64_t To = static_cast<std::uint64_t>(floorDiv(End - 1, S) - FirstSector);
    if (Masks)
      for (std::uint64_t Sector : {From, To}) {
        std::int64_t SectorBegin = (static_cast<std::int64_t>(Sector) + FirstSector) * S;
        std::int64_t Lo = std::max(Begin, SectorBegin) - SectorBegin;
        std::int64_t Hi = std::min(End, SectorBegin + S) - SectorBegin;
        std::uint64_t Bytes = (Hi - Lo == 64 ? ~std::uint64_t(0)
                                             : ((std::uint64_t(1) << (Hi - Lo)) - 1))
                              << Lo;
        if (Bytes == AllBytes)
          Whole[Sector / 64] |= std::uint64_t(1) << (Sector % 64);
        else if (Dense)
          DenseBytes[Sector] |= static_cast<std::uint32_t>(Bytes);
        else if (EdgeBytes.size() < MaxEdgeSectors || EdgeBytes.count(Sector))
          EdgeBytes[Sector] |= Bytes;
        else
          EdgesCapped = true;
      }
    // The sectors strictly between the two edges are covered whole.
    if (Masks && To > From + 1)
      setBits(Whole, From + 1, To - 1);
    setBits(Bits, From, To);
  };
  for (const TranslatedRanges &P : Parts) {
    // Every translation: an odometer over the axes.
    std::vector<std::uint64_t> Index(P.Axes.size(), 0);
    while (true) {
      std::int64_t Shift = 0;
      for (std::size_t A = 0; A < P.Axes.size(); ++A)
        Shift += P.Axes[A].Step * static_cast<std::int64_t>(Index[A]);
      for (const ByteRange &R : P.Ranges)
        Mark(R.Begin + Shift, R.End + Shift);
      std::size_t A = 0;
      for (; A < P.Axes.size(); ++A) {
        if (++Index[A] < P.Axes[A].Count)
          break;
        Index[A] = 0;
      }
      if (A == P.Axes.size())
        break;
    }
  }
  Count C;
  for (std::uint64_t W : Bits)
    C.Sectors += std::bitset<64>(W).count();
  auto Partial = [&](std::uint64_t Sector, std::uint64_t Bytes) {
    if (Bytes != 0 && Bytes != AllBytes && !((Whole[Sector / 64] >> (Sector % 64)) & 1))
      C.PartialSectorNumbers.push_back(static_cast<std::int64_t>(Sector) + FirstSector);
  };
  for (std::uint64_t Sector = 0; Sector < DenseBytes.size(); ++Sector)
    Partial(Sector, DenseBytes[Sector]);
  for (const auto &[Sector, Bytes] : EdgeBytes)
    Partial(Sector, Bytes);
  std::sort(C.PartialSectorNumbers.begin(), C.PartialSectorNumbers.end());
  C.PartialSectors = C.PartialSectorNumbers.size();
  C.PartialSectorsCapped = EdgesCapped;
  return C;
}

} // namespace warpcheck::model
