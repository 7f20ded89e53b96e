//===- Shards.cpp - one run split over machines, merged back --------------===//

#include "Shards.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <numeric>

namespace warpcheck::tool {

static constexpr llvm::StringLiteral ShardFormat = "warpcheck-shard";
static constexpr int ShardFormatVersion = 1;

bool parseShard(llvm::StringRef Text, ShardSpec &Out, std::string &Error) {
  auto [K, N] = Text.split('/');
  unsigned Index = 0, Count = 0;
  if (K.getAsInteger(10, Index) || N.getAsInteger(10, Count) || Count == 0 || Index == 0 ||
      Index > Count) {
    Error = "--shard needs K/N with 1 <= K <= N (e.g. 2/4), got '" + Text.str() + "'";
    return false;
  }
  Out = {Index, Count};
  return true;
}

std::vector<bool> inputsOfShard(llvm::ArrayRef<uint64_t> Sizes, ShardSpec Shard) {
  // Largest first, then in input order (the same on every machine): each
  // to the part with the fewest bytes so far, then the lowest index.
  std::vector<size_t> Order(Sizes.size());
  std::iota(Order.begin(), Order.end(), 0);
  llvm::stable_sort(Order, [&](size_t A, size_t B) { return Sizes[A] > Sizes[B]; });
  std::vector<uint64_t> Load(Shard.Count, 0);
  std::vector<bool> Mine(Sizes.size(), false);
  for (size_t I : Order) {
    size_t Lightest = std::min_element(Load.begin(), Load.end()) - Load.begin();
    // An empty file still costs a parse: counted as one byte.
    Load[Lightest] += std::max<uint64_t>(Sizes[I], 1);
    Mine[I] = Lightest + 1 == Shard.Index;
  }
  return Mine;
}

std::vector<uint64_t> inputSizes(const std::vector<Input> &Inputs) {
  std::vector<uint64_t> Sizes;
  for (const Input &In : Inputs) {
    llvm::SmallString<256> Path(In.File);
    if (!llvm::sys::path::is_absolute(Path))
      llvm::sys::fs::make_absolute(In.Directory, Path);
    uint64_t Size = 0;
    if (llvm::sys::fs::file_size(Path, Size))
      Size = 0;
    Sizes.push_back(Size);
  }
  return Sizes;
}

std::string runIdentity(llvm::StringRef Version, const std::vector<Input> &Inputs,
                        const CommandLine &CL) {
  llvm::BLAKE3 Hash;
  auto Add = [&](llvm::StringRef Part) {
    Hash.update(Part);
    Hash.update(llvm::StringRef("\0", 1));
  };
  Add(Version);
  for (const Input &In : Inputs) {
    Add(In.File);
    Add(In.Directory);
    Add(llvm::join(In.CommandArgs, "\x1f"));
  }
  for (llvm::StringRef Option :
       {llvm::StringRef(CL.Checks), llvm::StringRef(CL.Arch), llvm::StringRef(CL.DefaultBlock),
        llvm::StringRef(CL.WarningsAsErrors), llvm::StringRef(CL.HeaderFilter),
        llvm::StringRef(CL.CudaPath), llvm::StringRef(CL.BuildDir)})
    Add(Option);
  Add(llvm::join(CL.CompareArchs, ","));
  Add(llvm::join(CL.CheckOptions, "\x1f"));
  Add(llvm::join(CL.ExtraArgs, "\x1f"));
  Add(CL.NoCuda ? "no-cuda" : "cuda");
  return llvm::toHex(Hash.final(), /*LowerCase=*/true);
}

std::string shardFileText(llvm::StringRef Version, llvm::StringRef RunIdentity,
                          ShardSpec Shard, const RunRecord &Record) {
  llvm::json::Array Events;
  for (const RunEvent &E : Record.events())
    Events.push_back(toJson(E));
  llvm::json::Object Root{{"format", ShardFormat},
                          {"version", ShardFormatVersion},
                          {"warpcheck", Version},
                          {"run", RunIdentity},
                          {"shard", static_cast<int64_t>(Shard.Index)},
                          {"shards", static_cast<int64_t>(Shard.Count)},
                          {"events", std::move(Events)}};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::json::Value(std::move(Root)) << "\n";
  return OS.str();
}

bool mergeShardFiles(llvm::ArrayRef<std::string> Files, RunRecord &Out, std::string &Error) {
  std::string Run, Version, RunFile;
  int64_t Count = 0;
  std::vector<std::string> ByIndex;
  for (const std::string &File : Files) {
    auto Fail = [&](const std::string &Why) {
      Error = "'" + File + "': " + Why;
      return false;
    };
    auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!Buffer)
      return Fail("cannot be read: " + Buffer.getError().message());
    llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse((*Buffer)->getBuffer());
    if (!Parsed)
      return Fail("not JSON: " + llvm::toString(Parsed.takeError()));
    const llvm::json::Object *Root = Parsed->getAsObject();
    if (!Root || Root->getString("format") != ShardFormat)
      return Fail("not a part written by warpcheck --shard");
    if (Root->getInteger("version") != ShardFormatVersion)
      return Fail("a part of another version of the format");
    std::optional<int64_t> Index = Root->getInteger("shard"), N = Root->getInteger("shards");
    std::optional<llvm::StringRef> ThisRun = Root->getString("run"),
                                   ThisVersion = Root->getString("warpcheck");
    const llvm::json::Array *Events = Root->getArray("events");
    if (!Index || !N || *N < 1 || *Index < 1 || *Index > *N || !ThisRun || !ThisVersion ||
        !Events)
      return Fail("a damaged part (shard, shards, run, warpcheck or events missing)");
    if (RunFile.empty()) {
      Run = ThisRun->str();
      Version = ThisVersion->str();
      Count = *N;
      RunFile = File;
      ByIndex.assign(Count, "");
    } else if (*ThisVersion != Version) {
      return Fail("written by warpcheck " + ThisVersion->str() + ", '" + RunFile +
                  "' by warpcheck " + Version);
    } else if (*N != Count || *ThisRun != Run) {
      return Fail("a part of another run than '" + RunFile +
                  "' (other inputs, options or number of shards)");
    }
    if (!ByIndex[*Index - 1].empty())
      return Fail("shard " + std::to_string(*Index) + "/" + std::to_string(Count) +
                  " again (also '" + ByIndex[*Index - 1] + "')");
    ByIndex[*Index - 1] = File;
    for (const llvm::json::Value &V : *Events) {
      RunEvent E;
      const llvm::json::Object *O = V.getAsObject();
      if (!O || !runEventFromJson(*O, E))
        return Fail("a damaged part (an event that cannot be read)");
      Out.add(std::move(E));
    }
  }
  std::vector<std::string> Missing;
  for (int64_t I = 0; I < Count; ++I)
    if (ByIndex[I].empty())
      Missing.push_back(std::to_string(I + 1) + "/" + std::to_string(Count));
  if (!Missing.empty()) {
    Error = "shard" + std::string(Missing.size() == 1 ? " " : "s ") + llvm::join(Missing, ", ") +
            " missing: the merged report would leave out their inputs";
    return false;
  }
  return true;
}

} // namespace warpcheck::tool
