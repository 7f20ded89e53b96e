//===- SharedMemory.h - bank mapping and conflicts of a shared request ----===//
//
// Hardware fact (CUDA C++ Programming Guide, "Shared Memory" of compute
// capability 5.x and later): shared memory has 32 banks of 4 bytes;
// bank = (byte address / 4) mod 32. Lanes that access the same 4-byte word are
// served together (broadcast); the conflict degree of a request is the largest
// number of distinct words any one bank must serve. The G80 (compute 1.x,
// seed 003) had 16 banks served per half-warp.
//
// Accesses wider than one bank word are split into passes of consecutive
// lanes that request at most 128 bytes each (8-byte: half-warps, 16-byte:
// quarter-warps); a load whose lane pairs (2k, 2k+1) read the same address
// is served in passes twice as long. Measured on the H200 for 410 patterns
// (test/hw/shared_patterns.json; docs/hardware-model.md).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_MODEL_SHAREDMEMORY_H
#define WARPCHECK_MODEL_SHAREDMEMORY_H

#include "warpcheck/model/WarpAddressSet.h"

#include <cstdint>
#include <vector>

namespace warpcheck::model {

struct SharedMemoryGeometry {
  unsigned Banks = 32;
  unsigned BankWidthBytes = 4;
  /// Lanes whose requests are served in one pass before any splitting by
  /// width: 32 on sm_50 and later, 16 (a half-warp) on the G80.
  unsigned LanesPerPass = 32;
  /// Wide loads whose lane pairs read the same address use passes twice as
  /// long (measured on sm_90).
  bool MergeEqualLanePairs = true;

  /// Bytes one wavefront can deliver when no bank is used twice.
  unsigned bytesPerWavefront() const { return Banks * BankWidthBytes; }
};

/// What one warp-wide shared-memory request costs.
struct SharedRequestCost {
  /// Passes through the banks (ncu: l1tex__data_pipe_lsu_wavefronts_mem_shared).
  unsigned Wavefronts = 0;
  /// Wavefronts the request needs with no conflict at all, as Nsight Compute
  /// counts them: the bytes its lanes request (a wide load's lane pairs that
  /// share an address once) over 128 (a bank row), rounded up, per
  /// pass of LanesPerPass lanes with an active lane. Nsight Compute's source
  /// counters call the rest excessive.
  unsigned IdealWavefronts = 0;
  /// Phases with an active lane: the wavefronts with no bank conflict
  /// within a phase. Nsight Compute's bank-conflict counter
  /// (l1tex__data_bank_conflicts_pipe_lsu_mem_shared) counts the wavefronts
  /// beyond these; its source counters' ideal is IdealWavefronts, which can
  /// be fewer (a wide access by lanes spread over several phases).
  unsigned ActivePhases = 0;
  /// Largest number of distinct words one bank serves within one phase.
  unsigned ConflictDegree = 0;
  /// The bank with that degree (first one when several tie) and the lanes
  /// that hit it with distinct words.
  unsigned WorstBank = 0;
  std::vector<unsigned> WorstBankLanes;
  /// An atomic served per lane (SharedAccessKind::AtomicPerLane) whose
  /// worst bank's lanes include lanes updating one word: they are served
  /// one after another, and WorstBankLanes lists every one of them.
  bool WorstBankLanesShareWords = false;

  bool hasConflict() const { return Wavefronts > IdealWavefronts; }
};

/// Bank of a byte address: (address / width) mod banks.
unsigned bankOf(std::uint64_t ByteAddress, const SharedMemoryGeometry &Geometry = {});

/// Atomic: lanes that name one word are served together, as for a load
/// (the ATOMS.POPC.INC nvcc emits for an increment by 1 whose old value is
/// ignored). AtomicPerLane: every lane is served on its own, lanes naming
/// one word one after another (ATOMS.EXCH, .CAS, .INC, .ADD of a per-lane
/// operand...). Measured on the H200 (test/hw/inputs/shared-atomics.json):
/// 32 lanes exchanging one word take 32 wavefronts, four lanes on each of
/// eight words in eight banks 4; the same lanes incrementing by 1 take 1.
enum class SharedAccessKind { Load, Store, Atomic, AtomicPerLane };

SharedRequestCost computeSharedRequestCost(const WarpAddressSet &Request,
                                           const SharedMemoryGeometry &Geometry = {},
                                           SharedAccessKind Kind = SharedAccessKind::Load);

/// True when a load or store of BytesPerLane bytes per lane into an array of
/// ArrayBytes can never conflict, whatever the indices: any run of Banks
/// consecutive words lies in Banks distinct banks, so an array no larger
/// than one row of the banks (128 bytes on sm_90) has each of its words in
/// a bank of its own, and lanes that meet in a bank meet at one word (a
/// broadcast, or one write). Such a request takes the ideal wavefront,
/// with accesses no wider than a bank and passes of a whole warp (not the
/// G80's half-warps, whose ideal depends on which lanes are active). Not
/// for atomics: lanes updating one word are served one after another.
bool isConflictFreeFootprint(std::uint64_t ArrayBytes, unsigned BytesPerLane,
                             const SharedMemoryGeometry &Geometry = {});

struct AtomicTraits;

/// How the lanes of a shared-memory atomic that nvcc does not aggregate to
/// one lane (atomicAggregation, GlobalMemory.h: the same rule holds for
/// shared memory on the H200) are served: Atomic for a 32-bit integer
/// increment by the constant 1 whose old value is ignored (ATOMS.POPC.INC:
/// one update per distinct word), AtomicPerLane for every other.
SharedAccessKind sharedAtomicKind(const AtomicTraits &Traits);

/// Floating-point and 64-bit integer atomics on shared memory (other than
/// exchange and compare-and-swap) compile to a compare-and-swap loop
/// (ATOMS.CAST.SPIN), even when nvcc aggregates them to one lane: its
/// rounds, and so its wavefronts, depend on how the lanes and warps race.
/// The cost modelled is one round (a lower bound).
bool isSharedAtomicRetryLoop(const AtomicTraits &Traits);

} // namespace warpcheck::model

#endif
