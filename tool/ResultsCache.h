//===- ResultsCache.h - results of unchanged units, reused ----------------===//
//
// --cache-dir: a translation unit whose inputs did not change is not
// analysed again; its stored result (JobResult, as toJson writes it) is
// reused. An entry is found by a key made of everything the job is given
// (TranslationUnitJob: the file, its directory, the clang arguments, the
// checks, the architectures, the options; the table of other units'
// launches by its contents), the .clang-tidy files above the unit, the
// toolkit's compilers and this warpcheck (version, and the size and
// modification time of its executable). The entry lists every file the
// parse read with the digest of what it read; it is reused only when each
// of them still has that digest (ccache's "direct mode"), so an edited
// header invalidates every unit that includes it.
//
// Only units analysed without a compiler error are stored: an error may
// come from a header that is missing now and present later, which no
// digest of the files read would notice.
//
// An entry is written to a private file and renamed, so that readers (the
// threads of this run, other warpcheck runs sharing the folder) never see
// half of one. An entry that cannot be read, is not JSON, or holds another
// key is ignored with a note, and replaced.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_RESULTSCACHE_H
#define WARPCHECK_TOOL_RESULTSCACHE_H

#include "TranslationUnitJob.h"

#include "warpcheck/toolchain/CacheTrim.h"

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// --cache without a folder: $XDG_CACHE_HOME/warpcheck/results, else
/// $HOME/.cache/warpcheck/results; empty when neither is set.
std::string defaultResultsCacheDir();

/// What identifies this build of warpcheck in every key: its version and
/// the size and modification time of its executable (a rebuilt warpcheck
/// may report differently, whatever its version says).
std::string warpcheckBuildIdentity(llvm::StringRef Version, llvm::StringRef Executable);

class ResultsCache {
public:
  /// Dir: the cache folder (created when the first entry is stored).
  ResultsCache(std::string Dir, std::string BuildIdentity);

  /// The key of Job (hex); it reads the job's table of other units'
  /// launches and the .clang-tidy files above the unit.
  std::string keyOf(const TranslationUnitJob &Job);

  /// The stored result of Job when every file it read is unchanged. An
  /// entry that is damaged or not of this key is ignored, and Note says so.
  std::optional<JobResult> lookup(const TranslationUnitJob &Job, std::string &Note);

  /// Stores the result of Job, if it may be reused (analysed without a
  /// compiler error, its files recorded). Thread-safe. False when the
  /// entry could not be written (Problem says why).
  bool store(const TranslationUnitJob &Job, const JobResult &Result, std::string &Problem);

  const std::string &directory() const { return Dir; }
  /// Brings the folder's entries within LimitBytes, least recently used
  /// (stored or reused) first (CacheTrim.h).
  toolchain::CacheTrimResult trim(uint64_t LimitBytes) const;

  /// How many results this run reused, and stored.
  unsigned reused() const { return Reused; }
  unsigned stored() const { return Stored; }

private:
  std::string entryPath(const std::string &Key) const;
  /// The digest of the file's contents now, or empty when it cannot be
  /// read; memoised for the run (headers are shared by many units).
  std::string digestOfFile(const std::string &Path);
  /// The .clang-tidy files in Dir and the folders above it, with digests.
  std::string configFilesAbove(llvm::StringRef Dir);

  std::string Dir;
  std::string BuildIdentity;
  std::mutex Lock;
  std::map<std::string, std::string> FileDigests;
  std::map<std::string, std::string> ConfigsAbove;
  std::map<std::string, std::string> CompilerIdentities;
  std::atomic<unsigned> Reused{0}, Stored{0};
};

} // namespace warpcheck::tool

#endif
