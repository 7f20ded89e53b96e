//===- PtxasCache.cpp - ptxas's counts on disk, keyed by content ----------===//
//
// Where the cache lives (registerCacheDirectory), what a result's key is
// made of, and the file format: a header line, "ok" or "error<TAB>reason",
// then one line per kernel: name, arch, registers, shared bytes, stack
// frame, spill stores, spill loads, barriers ("-" for unknown), tab
// separated.
//
//===----------------------------------------------------------------------===//

#include "PtxasCache.h"

#include "warpcheck/toolchain/CudaToolkit.h"

#include "warpcheck/toolchain/CacheDirectory.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace warpcheck::analysis {

std::string registerCacheDirectory(const RegisterOptions &Options) {
  if (Options.CacheDir == "none")
    return "";
  // --register-cache-dir DIR holds its own ptxas/ folder, as the default does.
  llvm::SmallString<256> Dir(Options.CacheDir);
  if (Dir.empty())
    Dir = toolchain::userCacheDirectory("ptxas");
  else
    llvm::sys::path::append(Dir, "ptxas");
  if (Dir.empty())
    return "";
  if (llvm::sys::fs::create_directories(Dir))
    return "";
  // Unwritable: no cache.
  if (llvm::sys::fs::access(Dir, llvm::sys::fs::AccessMode::Write))
    return "";
  return std::string(Dir.str());
}

namespace registers {

namespace {

// Part of every key: raised when the way nvcc is run changes what a unit's
// entry holds (2: units that launch kernels from device code are retried
// with -rdc=true, where version 1 kept their failure).
constexpr llvm::StringLiteral CacheHeader = "warpcheck-ptxas-cache 2";

} // namespace

std::string hexDigest(llvm::SHA256 &Hash) {
  auto Digest = Hash.final();
  return llvm::toHex(llvm::ArrayRef<uint8_t>(Digest.data(), Digest.size()),
                     /*LowerCase=*/true);
}

std::string ptxasCacheKey(llvm::StringRef ToolkitRoot, llvm::StringRef Arch,
                          std::optional<unsigned> MaxRegisterCount, const SanitizedFlags &Flags,
                          llvm::StringRef SourcePath, llvm::StringRef SourceContents,
                          llvm::StringRef ExtraKey) {
  llvm::SHA256 Hash;
  Hash.update(CacheHeader);
  Hash.update(ToolkitRoot);
  Hash.update(toolchain::cudaCompilerIdentity(ToolkitRoot));
  Hash.update(Arch);
  Hash.update(std::to_string(MaxRegisterCount.value_or(0)));
  for (const std::string &F : Flags.Kept) {
    Hash.update(F);
    Hash.update(llvm::StringRef("\0", 1));
  }
  Hash.update(std::to_string(Flags.MaxRegisterCount.value_or(0)));
  Hash.update(SourcePath);
  Hash.update(SourceContents);
  Hash.update(ExtraKey);
  return hexDigest(Hash);
}

std::optional<TranslationUnitRegisters> readCache(llvm::StringRef File) {
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, false);
  if (Lines.size() < 2 || Lines[0] != CacheHeader)
    return std::nullopt;
  TranslationUnitRegisters R;
  R.Source = RegisterSource::Ptxas;
  R.FromCache = true;
  if (Lines[1].starts_with("error\t")) {
    R.FallbackReason = Lines[1].drop_front(6).str();
    return R;
  }
  if (Lines[1] != "ok")
    return std::nullopt;
  for (size_t I = 2; I < Lines.size(); ++I) {
    llvm::SmallVector<llvm::StringRef, 8> Cells;
    Lines[I].split(Cells, '\t');
    if (Cells.size() != 8)
      return std::nullopt;
    FunctionRegisters F;
    F.Source = RegisterSource::Ptxas;
    F.Arch = Cells[1].str();
    std::uint64_t N = 0;
    if (Cells[2].getAsInteger(10, N))
      return std::nullopt;
    F.Registers = static_cast<unsigned>(N);
    if (Cells[3] != "-" && !Cells[3].getAsInteger(10, N))
      F.SharedBytes = N;
    if (Cells[4].getAsInteger(10, F.StackFrameBytes) ||
        Cells[5].getAsInteger(10, F.SpillStoreBytes) ||
        Cells[6].getAsInteger(10, F.SpillLoadBytes))
      return std::nullopt;
    if (Cells[7] != "-" && !Cells[7].getAsInteger(10, N))
      F.Barriers = static_cast<unsigned>(N);
    R.ByMangledName[Cells[0].str()] = F;
  }
  return R;
}

void writeCache(llvm::StringRef File, const TranslationUnitRegisters &R) {
  std::string Text = CacheHeader.str() + "\n";
  if (!R.FallbackReason.empty()) {
    std::string Reason = R.FallbackReason;
    std::replace(Reason.begin(), Reason.end(), '\n', ' ');
    std::replace(Reason.begin(), Reason.end(), '\t', ' ');
    Text += "error\t" + Reason + "\n";
  } else {
    Text += "ok\n";
    for (const auto &[Name, F] : R.ByMangledName) {
      if (Name.find_first_of("\t\n") != std::string::npos)
        return;
      Text += Name + "\t" + F.Arch + "\t" + std::to_string(F.Registers) + "\t" +
              (F.SharedBytes ? std::to_string(*F.SharedBytes) : "-") + "\t" +
              std::to_string(F.StackFrameBytes) + "\t" + std::to_string(F.SpillStoreBytes) +
              "\t" + std::to_string(F.SpillLoadBytes) + "\t" +
              (F.Barriers ? std::to_string(*F.Barriers) : "-") + "\n";
    }
  }
  // Write to a private file, then rename: readers never see half a file.
  llvm::SmallString<256> Temp;
  int FD = -1;
  if (llvm::sys::fs::createUniqueFile(File + ".tmp-%%%%%%%%", FD, Temp))
    return;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    if (OS.has_error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      return;
    }
  }
  if (llvm::sys::fs::rename(Temp, File))
    llvm::sys::fs::remove(Temp);
}

} // namespace registers

} // namespace warpcheck::analysis
