//===- ResultsCache.cpp - results of unchanged units, reused --------------===//
//
// One file per key, <dir>/<key>.json: {"format": "warpcheck-results-cache",
// "version": 1, "key": <key>, "result": <JobResult>}, the result with its
// "dependencies" (the files its parse read, with digests).
//
//===----------------------------------------------------------------------===//

#include "ResultsCache.h"

#include "warpcheck/toolchain/CacheTrim.h"
#include "warpcheck/toolchain/CacheDirectory.h"

#include "warpcheck/toolchain/CudaToolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace warpcheck::tool {

namespace {

// Part of every key and of every entry: raised when what an entry holds,
// or what a job's result depends on, changes meaning.
constexpr llvm::StringLiteral Format = "warpcheck-results-cache";
constexpr int FormatVersion = 1;

/// Each part, then a NUL: "ab"+"c" and "a"+"bc" are different keys.
class KeyBuilder {
public:
  void add(llvm::StringRef Part) {
    Hash.update(Part);
    Hash.update(llvm::StringRef("\0", 1));
  }
  std::string hex() { return llvm::toHex(Hash.final(), /*LowerCase=*/true); }

private:
  llvm::BLAKE3 Hash;
};

std::string cacheKeyPath(llvm::StringRef File, llvm::StringRef Directory) {
  llvm::SmallString<256> Path(File);
  if (!llvm::sys::path::is_absolute(Path)) {
    if (!Directory.empty())
      llvm::sys::fs::make_absolute(Directory, Path);
    else
      llvm::sys::fs::make_absolute(Path);
  }
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
  return Path.str().str();
}

} // namespace

toolchain::CacheTrimResult ResultsCache::trim(uint64_t LimitBytes) const {
  return toolchain::trimCache(Dir, ".json", LimitBytes);
}

std::string defaultResultsCacheDir() { return toolchain::userCacheDirectory("results"); }

std::string warpcheckBuildIdentity(llvm::StringRef Version, llvm::StringRef Executable) {
  std::string Identity = Version.str() + "\n" + Executable.str();
  llvm::sys::fs::file_status S;
  if (!llvm::sys::fs::status(Executable, S))
    Identity += " " + std::to_string(S.getSize()) + " " +
                std::to_string(S.getLastModificationTime().time_since_epoch().count());
  return Identity;
}

ResultsCache::ResultsCache(std::string Dir, std::string BuildIdentity)
    : Dir(std::move(Dir)), BuildIdentity(std::move(BuildIdentity)) {}

std::string ResultsCache::entryPath(const std::string &Key) const {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Key + ".json");
  return Path.str().str();
}

std::string ResultsCache::digestOfFile(const std::string &Path) {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (auto It = FileDigests.find(Path); It != FileDigests.end())
      return It->second;
  }
  std::string Digest;
  // Only a regular file is read (a device named by a symbolic link would
  // be read without end); anything else is "changed".
  if (llvm::sys::fs::is_regular_file(Path))
    if (auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                                  /*RequiresNullTerminator=*/false))
      Digest = contentDigest((*Buffer)->getBuffer());
  std::lock_guard<std::mutex> Guard(Lock);
  FileDigests[Path] = Digest;
  return Digest;
}

std::string ResultsCache::configFilesAbove(llvm::StringRef Directory) {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (auto It = ConfigsAbove.find(Directory.str()); It != ConfigsAbove.end())
      return It->second;
  }
  // clang-tidy reads the nearest .clang-tidy and, when it says
  // InheritParentConfig, the ones above it: every one above the unit is
  // part of the key, whether the nearest inherits or not (a changed
  // parent invalidates a little more than needed, never less).
  std::string Configs;
  for (llvm::StringRef D = Directory; !D.empty(); D = llvm::sys::path::parent_path(D)) {
    llvm::SmallString<256> Config(D);
    llvm::sys::path::append(Config, ".clang-tidy");
    if (llvm::sys::fs::exists(Config))
      Configs += Config.str().str() + " " + digestOfFile(Config.str().str()) + "\n";
    if (llvm::sys::path::parent_path(D) == D)
      break;
  }
  std::lock_guard<std::mutex> Guard(Lock);
  ConfigsAbove[Directory.str()] = Configs;
  return Configs;
}

std::string ResultsCache::keyOf(const TranslationUnitJob &Job) {
  KeyBuilder Key;
  Key.add(Format);
  Key.add(std::to_string(FormatVersion));
  Key.add(BuildIdentity);
  // The job as a worker is given it, but the table of other units'
  // launches (a temporary file) by its contents.
  TranslationUnitJob Given = Job;
  Given.OtherUnitsFile.clear();
  Given.RecordDependencies = true;
  for (const std::string &A : jobToArguments(Given, ""))
    Key.add(A);
  if (!Job.OtherUnitsFile.empty())
    Key.add("other units " + digestOfFile(Job.OtherUnitsFile));
  std::string Unit = cacheKeyPath(Job.File, Job.Directory);
  Key.add(configFilesAbove(llvm::sys::path::parent_path(Unit)));
  if (!Job.ToolkitRoot.empty()) {
    std::lock_guard<std::mutex> Guard(Lock);
    auto [It, New] = CompilerIdentities.try_emplace(Job.ToolkitRoot);
    if (New)
      It->second = toolchain::cudaCompilerIdentity(Job.ToolkitRoot);
    Key.add(It->second);
  }
  return Key.hex();
}

std::optional<JobResult> ResultsCache::lookup(const TranslationUnitJob &Job, std::string &Note) {
  std::string Key = keyOf(Job);
  std::string Path = entryPath(Key);
  if (!llvm::sys::fs::exists(Path))
    return std::nullopt;
  auto Ignored = [&](const std::string &Why) -> std::optional<JobResult> {
    Note = "results cache entry '" + Path + "' ignored (" + Why + "); '" + Job.File +
           "' is analysed again";
    return std::nullopt;
  };
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return Ignored("cannot be read: " + Buffer.getError().message());
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse((*Buffer)->getBuffer());
  if (!Parsed) {
    std::string Why = llvm::toString(Parsed.takeError());
    return Ignored("not JSON: " + Why);
  }
  const llvm::json::Object *Entry = Parsed->getAsObject();
  if (!Entry || Entry->getString("format") != Format ||
      Entry->getInteger("version") != FormatVersion)
    return Ignored("not an entry of this version of warpcheck's results cache");
  if (Entry->getString("key") != Key)
    return Ignored("it holds the entry of another key");
  const llvm::json::Object *Stored = Entry->getObject("result");
  if (!Stored)
    return Ignored("it holds no result");
  JobResult Result = jobResultFromJson(*Stored);
  if (Result.Dependencies.empty() || !Result.Input || Result.Input->Status != "analysed")
    return Ignored("it holds no result of an analysed unit");
  for (const FileDigest &D : Result.Dependencies)
    if (D.File.empty() || digestOfFile(D.File) != D.Digest)
      return std::nullopt; // a file changed: the ordinary miss
  // The dependencies are the cache's own: the merged results never see
  // them, whether the result came from here or from a worker.
  Result.Dependencies.clear();
  toolchain::markCacheEntryUsed(Path);
  ++Reused;
  return Result;
}

bool ResultsCache::store(const TranslationUnitJob &Job, const JobResult &Result,
                         std::string &Problem) {
  if (Result.Dependencies.empty() || !Result.Input || Result.Input->Status != "analysed")
    return true;
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir)) {
    Problem = "cannot create the results cache folder '" + Dir + "': " + EC.message();
    return false;
  }
  std::string Key = keyOf(Job);
  std::string Path = entryPath(Key);
  llvm::json::Object Entry{{"format", Format},
                           {"version", FormatVersion},
                           {"key", Key},
                           {"result", toJson(Result)}};
  // A private file, renamed over the entry: a reader sees the old entry
  // or the new one, never half of one.
  llvm::SmallString<256> Temp;
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Path + ".tmp-%%%%%%%%", FD, Temp)) {
    Problem = "cannot write to the results cache folder '" + Dir + "': " + EC.message();
    return false;
  }
  std::error_code EC;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << llvm::json::Value(std::move(Entry));
    OS.close();
    EC = OS.error();
    OS.clear_error();
  }
  if (!EC)
    EC = llvm::sys::fs::rename(Temp, Path);
  if (EC) {
    llvm::sys::fs::remove(Temp);
    Problem = "cannot write the results cache entry '" + Path + "': " + EC.message();
    return false;
  }
  ++Stored;
  return true;
}

} // namespace warpcheck::tool
