//===- CacheTrim.h - keeping warpcheck's caches within a size -------------===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The results cache and the ptxas cache gain an entry for every changed
/// unit; without a bound they grow for as long as a machine runs CI. Each
/// is trimmed at the end of a run that stored something: the least recently
/// used entries go first (a reused entry is marked used, as ccache does),
/// and the folder is brought down to three quarters of its limit, so that
/// the next runs do not trim at every store. Other runs may share the
/// folder: an entry that vanishes meanwhile is skipped, and an entry read
/// after it was removed is an ordinary miss.
///
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOLCHAIN_CACHETRIM_H
#define WARPCHECK_TOOLCHAIN_CACHETRIM_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace warpcheck::toolchain {

/// The default limit of each cache: 512 MiB (a results entry is a few KiB,
/// a ptxas entry less; this holds the results of about 100,000 units).
constexpr uint64_t DefaultCacheLimitBytes = 512ull << 20;

struct CacheTrimResult {
  unsigned Removed = 0;
  uint64_t BytesBefore = 0, BytesAfter = 0;
};

/// When the regular files directly in Dir whose names end in Suffix take
/// more than LimitBytes, removes the least recently used of them (oldest
/// modification time first) until they take at most 3/4 of LimitBytes.
/// Writers' private files (".tmp-" in the name) older than an hour, left by
/// a run that was killed, are removed whatever the size.
CacheTrimResult trimCache(llvm::StringRef Dir, llvm::StringRef Suffix, uint64_t LimitBytes);

/// Marks the cache entry Path as used now (its modification time), so that
/// trimCache keeps it longer. Errors are ignored: the entry is only older.
void markCacheEntryUsed(llvm::StringRef Path);

} // namespace warpcheck::toolchain

#endif
