//===- PtxasCache.cpp - ptxas's counts on disk, keyed by content ----------===//
//
// Where the cache lives (registerCacheDirectory), what a result's key is
// made of, and the file format: a header line, "ok" or "error<TAB>reason",
// then one line per kernel: name, arch, registers, shared bytes, stack
// frame, spill stores, spill loads, barriers ("-" for unknown), tab
// separated; then the kernels' memory instructions (InstructionsTag).
//
//===----------------------------------------------------------------------===//

#include "PtxasCache.h"

#include "warpcheck/toolchain/CacheTrim.h"
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
// with -rdc=true, where version 1 kept their failure; 3: -lineinfo, and the
// kernels' memory instructions read with nvdisasm; 4: each instruction's
// loop and address register; 5: compiled with -rdc=true first when the
// build is; 6: every level of an instruction's inlining kept).
constexpr llvm::StringLiteral CacheHeader = "warpcheck-ptxas-cache 6";

// The lines of the memory instructions, after the kernels' (no kernel name
// starts with '@'): "@instructions<TAB>read", or "@instructions<TAB>none
// <TAB>why"; then per instruction "@sass", the kernel, the function, the
// offset, the opcode, the predicate, the loop head (-1: none), the address
// register, and its positions (file, line, ...).
constexpr llvm::StringLiteral InstructionsTag = "@instructions";
constexpr llvm::StringLiteral SassTag = "@sass";

/// One "@sass" line's cells into Out; false if they are damaged.
bool readSassLine(llvm::ArrayRef<llvm::StringRef> Cells,
                  std::map<std::string, std::vector<SassMemoryInstruction>> &Out) {
  if (Cells.size() < 8 || Cells.size() % 2 != 0)
    return false;
  SassMemoryInstruction I;
  I.Function = Cells[2].str();
  if (Cells[3].getAsInteger(10, I.Offset))
    return false;
  I.Opcode = Cells[4].str();
  I.Predicate = Cells[5].str();
  std::optional<SassMemoryShape> Shape = decodeMemoryOpcode(I.Opcode);
  if (!Shape)
    return false;
  I.Shape = *Shape;
  if (Cells[6].getAsInteger(10, I.LoopHead) || I.LoopHead < -1)
    return false;
  I.AddressBase = Cells[7].str();
  for (size_t C = 8; C + 1 < Cells.size(); C += 2) {
    SassPosition P;
    P.File = Cells[C].str();
    if (Cells[C + 1].getAsInteger(10, P.Line))
      return false;
    I.Positions.push_back(std::move(P));
  }
  Out[Cells[1].str()].push_back(std::move(I));
  return true;
}

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
  Hash.update(Flags.RelocatableDeviceCode ? "rdc" : "whole-program");
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
  if (llvm::StringRef Rest = Lines[1]; Rest.consume_front("timeout\t")) {
    auto [Limit, Reason] = Rest.split('\t');
    if (Limit.getAsInteger(10, R.TimedOutAfterSeconds) || !R.TimedOutAfterSeconds)
      return std::nullopt;
    R.FallbackReason = Reason.str();
    return R;
  }
  if (Lines[1] != "ok")
    return std::nullopt;
  for (size_t I = 2; I < Lines.size(); ++I) {
    llvm::SmallVector<llvm::StringRef, 8> Cells;
    Lines[I].split(Cells, '\t');
    if (Cells.front() == InstructionsTag) {
      if (Cells.size() == 2 && Cells[1] == "read")
        R.MemoryInstructions.emplace();
      else if (Cells.size() == 3 && Cells[1] == "none")
        R.MemoryInstructionsNote = Cells[2].str();
      else
        return std::nullopt;
      continue;
    }
    if (Cells.front() == SassTag) {
      if (!R.MemoryInstructions || !readSassLine(Cells, *R.MemoryInstructions))
        return std::nullopt;
      continue;
    }
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
    Text += (R.TimedOutAfterSeconds ? "timeout\t" + std::to_string(R.TimedOutAfterSeconds) + "\t"
                                    : std::string("error\t")) +
            Reason + "\n";
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
    if (R.MemoryInstructions) {
      Text += InstructionsTag.str() + "\tread\n";
      for (const auto &[Kernel, List] : *R.MemoryInstructions)
        for (const SassMemoryInstruction &I : List) {
          std::string Line = SassTag.str() + "\t" + Kernel + "\t" + I.Function + "\t" +
                             std::to_string(I.Offset) + "\t" + I.Opcode + "\t" + I.Predicate +
                             "\t" + std::to_string(I.LoopHead) + "\t" + I.AddressBase;
          for (const SassPosition &P : I.Positions)
            Line += "\t" + P.File + "\t" + std::to_string(P.Line);
          // A tab or a line break in a name would break the line: no cache.
          if (std::count(Line.begin(), Line.end(), '\t') != 7 + 2 * long(I.Positions.size()) ||
              Line.find_first_of("\n\r") != std::string::npos)
            return;
          Text += Line + "\n";
        }
    } else {
      std::string Note = R.MemoryInstructionsNote;
      std::replace(Note.begin(), Note.end(), '\n', ' ');
      std::replace(Note.begin(), Note.end(), '\t', ' ');
      Text += InstructionsTag.str() + "\tnone\t" + Note + "\n";
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
  if (llvm::sys::fs::rename(Temp, File)) {
    llvm::sys::fs::remove(Temp);
    return;
  }
  // Within its limit (CacheTrim.h). An entry is stored only after an nvcc
  // run of seconds, so listing the folder at each store costs little.
  toolchain::trimCache(llvm::sys::path::parent_path(File), ".txt",
                       toolchain::DefaultCacheLimitBytes);
}

} // namespace registers

} // namespace warpcheck::analysis
