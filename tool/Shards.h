//===- Shards.h - one run split over machines, merged back ----------------===//
//
// --shard K/N analyses the K-th of N parts of the inputs and writes, as
// JSON, what that part adds to the run (RunRecord.h); `warpcheck merge`
// replays the events of all N parts in the order of a whole run and
// reports as one run over all the inputs would (docs/ci.md, "Sharding").
//
// Every shard collects the same inputs (the same checkout, the same
// command) and keeps its part: the inputs are taken largest first (then by
// path) and each goes to the part with the fewest bytes so far (then the
// lowest K), so parts take about the same time and the split depends on
// nothing but the files. The inputs that could not be collected and the
// notes on files analysed through others belong to part 1.
//
// A kernel launched in one part and defined in another is not bound across
// parts (CrossUnitLaunches.h binds launches within one run): it is
// analysed with its default block, as in a run over its own unit.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_SHARDS_H
#define WARPCHECK_TOOL_SHARDS_H

#include "Inputs.h"
#include "RunRecord.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace warpcheck::tool {

struct ShardSpec {
  /// 1-based: K of K/N.
  unsigned Index = 0;
  unsigned Count = 0;
};

/// "K/N" with 1 <= K <= N; false with Error otherwise.
bool parseShard(llvm::StringRef Text, ShardSpec &Out, std::string &Error);

/// Which inputs the part analyses; Sizes[I] is input I's size in bytes.
std::vector<bool> inputsOfShard(llvm::ArrayRef<uint64_t> Sizes, ShardSpec Shard);

/// The size in bytes of each input's file (0 when it cannot be read).
std::vector<uint64_t> inputSizes(const std::vector<Input> &Inputs);

/// What every part of one run agrees on (hex): warpcheck's version, the
/// inputs (files, directories, compile commands) and the options that
/// decide the results. Parts of different runs are never merged.
std::string runIdentity(llvm::StringRef Version, const std::vector<Input> &Inputs,
                        const CommandLine &CL);

/// The part's file: {"format": "warpcheck-shard", "version": 1,
/// "warpcheck", "run", "shard": K, "shards": N, "events": [...]}.
std::string shardFileText(llvm::StringRef Version, llvm::StringRef RunIdentity,
                          ShardSpec Shard, const RunRecord &Record);

/// Reads the parts' files into one record. False, with Error naming the
/// file and the cause, when a file is not a part's file, when the parts
/// come from different runs (or versions), when a part is given twice or
/// missing.
bool mergeShardFiles(llvm::ArrayRef<std::string> Files, RunRecord &Out, std::string &Error);

} // namespace warpcheck::tool

#endif
