//===- RegisterUsage.cpp - registers per kernel, once per AST and options -===//
//
// The results of one AST (its TranslationUnitSession holds them for every
// check and the JSON report): ptxas's results per options, the estimate as
// the fallback where ptxas was not used or has no entry for a kernel.
//
//===----------------------------------------------------------------------===//

#include "Options.h"
#include "PtxasCache.h"

#include "warpcheck/analysis/ContainedRun.h"
#include "warpcheck/analysis/RegisterUsage.h"

#include "clang/Basic/SourceManager.h"

#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <utility>

using namespace clang;

namespace warpcheck::analysis {

using registers::hexDigest;

namespace {
/// Path and contents of every file the parse read, for the cache key.
std::string loadedFilesKey(const SourceManager &SM) {
  std::vector<std::pair<std::string, llvm::StringRef>> Files;
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
    if (!It->second)
      continue;
    std::optional<llvm::StringRef> Data = It->second->getBufferDataIfLoaded();
    if (!Data)
      continue;
    Files.emplace_back(It->first.getName().str(), *Data);
  }
  std::sort(Files.begin(), Files.end(),
            [](const auto &A, const auto &B) { return A.first < B.first; });
  llvm::SHA256 Hash;
  for (const auto &[Name, Data] : Files) {
    Hash.update(Name);
    Hash.update(llvm::StringRef("\0", 1));
    Hash.update(Data);
    Hash.update(llvm::StringRef("\0", 1));
  }
  return hexDigest(Hash);
}
/// Count's registers, counted contained (ContainedRun.h): the estimate
/// runs clang's code generator, which recurses as deep as the code nests,
/// and a crash or a stack overflow in it (or in reading nvcc's output) must
/// cost the unit its register counts, not the analysis of its kernels;
/// nor, with the mutex held, every later lookup. What names the step for
/// the reason given instead.
TranslationUnitRegisters countContained(llvm::function_ref<TranslationUnitRegisters()> Count,
                                        llvm::StringRef What) {
  // Handed over whole (a pointer) at the end: a failed run leaves nothing
  // half-built behind.
  std::unique_ptr<TranslationUnitRegisters> Counted;
  std::optional<RunFailure> Failed = runContained(
      [&] {
        auto R = std::make_unique<TranslationUnitRegisters>(Count());
        Counted = std::move(R);
      },
      KernelStackBytes);
  if (!Failed && Counted)
    return std::move(*Counted);
  TranslationUnitRegisters None;
  None.FallbackReason = What.str() + " failed: " + (Failed ? Failed->What : "no result");
  return None;
}
} // namespace

RegisterUsage::RegisterUsage(ASTContext &Ctx) : Ctx(Ctx) {}

RegisterOptions RegisterUsage::resolve(const RegisterOptions &Options) {
  RegisterOptions O = Options;
  O.Arch = registers::archOrDefault(O.Arch);
  if (!O.ToolkitRoot.empty())
    if (auto Real = validateToolkitRoot(O.ToolkitRoot))
      O.ToolkitRoot = *Real;
  if (O.Mode == RegisterMode::Auto)
    O.Mode = O.ToolkitRoot.empty() ? RegisterMode::Estimate : RegisterMode::Ptxas;
  return O;
}

const TranslationUnitRegisters &RegisterUsage::estimate(const RegisterOptions &O) {
  // The estimate does not depend on the mode; one per remaining options.
  RegisterOptions Key = O;
  Key.Mode = RegisterMode::Estimate;
  auto &Slot = Estimates[Key.fingerprint()];
  if (!Slot)
    Slot = std::make_unique<TranslationUnitRegisters>(countContained(
        [&] { return estimateRegisters(Ctx, O, PP); }, "the register estimate"));
  return *Slot;
}

const TranslationUnitRegisters &RegisterUsage::translationUnit(const RegisterOptions &Options) {
  RegisterOptions O = resolve(Options);
  std::lock_guard<std::mutex> Lock(Mutex);
  std::string Key = O.fingerprint();
  auto &Slot = Results[Key];
  if (Slot)
    return *Slot;
  if (O.Mode == RegisterMode::Estimate) {
    Slot = std::make_unique<TranslationUnitRegisters>(estimate(O));
    return *Slot;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Source = O.SourceFile;
  if (Source.empty())
    if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID())) {
      llvm::StringRef Real = Main->getFileEntry().tryGetRealPathName();
      Source = Real.empty() ? Main->getName().str() : Real.str();
    }
  TranslationUnitRegisters R = countContained(
      [&] { return runPtxas(O, Source, loadedFilesKey(SM)); }, "counting with nvcc");
  if (!R.FallbackReason.empty()) {
    TranslationUnitRegisters E = estimate(O);
    E.FallbackReason = "ptxas was not used (" + R.FallbackReason + ")" +
                       (E.FallbackReason.empty() ? "" : "; the estimate: " + E.FallbackReason);
    E.DroppedFlags = R.DroppedFlags;
    R = std::move(E);
  }
  Slot = std::make_unique<TranslationUnitRegisters>(std::move(R));
  return *Slot;
}

std::string RegisterUsage::knownName(const TranslationUnitRegisters &R,
                                     const std::string &IndexKey, const std::string &Mangled) {
  if (R.ByMangledName.count(Mangled))
    return Mangled;
  std::lock_guard<std::mutex> Lock(Mutex);
  auto &Index = Normalized[IndexKey];
  if (Index.empty()) {
    std::map<std::string, unsigned> Count;
    for (const auto &Entry : R.ByMangledName)
      ++Count[normalizedKernelName(Entry.first)];
    for (const auto &Entry : R.ByMangledName) {
      std::string N = normalizedKernelName(Entry.first);
      if (Count[N] == 1)
        Index[N] = Entry.first;
    }
    Index[""] = ""; // computed
  }
  auto N = Index.find(normalizedKernelName(Mangled));
  return N == Index.end() ? "" : N->second;
}

const std::vector<SassMemoryInstruction> *
RegisterUsage::memoryInstructions(const FunctionDecl *Kernel, const RegisterOptions &Options,
                                  std::string *Note) {
  RegisterOptions O = resolve(Options);
  if (O.Mode != RegisterMode::Ptxas) {
    if (Note)
      *Note = "no program is started (the registers are estimated)";
    return nullptr;
  }
  const TranslationUnitRegisters &TU = translationUnit(Options);
  if (TU.Source != RegisterSource::Ptxas || !TU.MemoryInstructions) {
    if (Note)
      *Note = !TU.MemoryInstructionsNote.empty() ? TU.MemoryInstructionsNote
                                                 : "nvcc did not compile the unit";
    return nullptr;
  }
  std::string Mangled = deviceMangledName(Kernel, Ctx);
  auto It = TU.MemoryInstructions->find(Mangled);
  if (It != TU.MemoryInstructions->end())
    return &It->second;
  // nvcc's and clang's names of an internal kernel differ (RegisterNames.cpp):
  // the one listed kernel of the same normalized name.
  const std::vector<SassMemoryInstruction> *Found = nullptr;
  unsigned Matches = 0;
  std::string Want = normalizedKernelName(Mangled);
  for (const auto &[Name, List] : *TU.MemoryInstructions)
    if (normalizedKernelName(Name) == Want) {
      Found = &List;
      ++Matches;
    }
  if (Matches == 1)
    return Found;
  if (Note)
    *Note = "the listing has no kernel named '" + Mangled + "'";
  return nullptr;
}

std::optional<FunctionRegisters> RegisterUsage::lookup(const FunctionDecl *Kernel,
                                                      const RegisterOptions &Options,
                                                      std::string *Note) {
  const TranslationUnitRegisters &TU = translationUnit(Options);
  std::string Mangled = deviceMangledName(Kernel, Ctx);
  auto Find = [&](const TranslationUnitRegisters &R,
                  const std::string &Key) -> std::optional<FunctionRegisters> {
    std::string Name = knownName(R, Key, Mangled);
    if (Name.empty())
      return std::nullopt;
    return R.ByMangledName.at(Name);
  };
  RegisterOptions O = resolve(Options);
  std::optional<FunctionRegisters> F = Find(TU, O.fingerprint() + "\x1d" + registerSourceName(TU.Source));
  if (F) {
    if (Note)
      *Note = TU.FallbackReason;
    return F;
  }
  if (TU.Source == RegisterSource::Ptxas) {
    const TranslationUnitRegisters *E;
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      E = &estimate(O);
    }
    F = Find(*E, O.fingerprint() + "\x1d" + "estimate");
    if (F && Note)
      *Note = "ptxas reported no kernel named '" + Mangled + "'";
    return F;
  }
  if (Note)
    *Note = TU.FallbackReason;
  return std::nullopt;
}

} // namespace warpcheck::analysis
