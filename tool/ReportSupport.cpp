//===- ReportSupport.cpp - what the report writers share ------------------===//

#include "ReportSupport.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Unicode.h"
#include "llvm/Support/raw_ostream.h"

namespace warpcheck::tool {

std::map<std::string, unsigned> findingsPerCheck(const RunResult &R) {
  std::map<std::string, unsigned> Counts;
  for (const Finding &F : R.Findings)
    ++Counts[F.Check];
  return Counts;
}

llvm::StringRef checkSummary(llvm::StringRef Check) {
  if (Check == "cuda-uncoalesced-global-access")
    return "Global load, store or atomic touching more 32-byte sectors per warp "
           "request than its width requires";
  if (Check == "cuda-shared-bank-conflict")
    return "Shared memory access needing more wavefronts than its width requires "
           "(bank conflicts)";
  if (Check == "cuda-aos-layout")
    return "Array of structs whose fields a warp reads or writes one struct apart, moving more "
           "sectors than structure-of-arrays would";
  if (Check == "cuda-occupancy")
    return "Kernel launch whose theoretical occupancy is below the threshold";
  if (Check == "cuda-missed-data-reuse")
    return "Global load in a loop whose elements many threads of a block read, which a "
           "shared-memory tile would read once";
  if (Check.starts_with("clang-diagnostic-"))
    return "Compiler warning";
  return "";
}

ReportedFile reportedFile(llvm::StringRef Base, llvm::StringRef File) {
  llvm::SmallString<256> Abs(File);
  if (!llvm::sys::path::is_absolute(Abs) && !Base.empty())
    llvm::sys::fs::make_absolute(Base, Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  std::string Prefix = Base.str();
  if (!Prefix.empty() && Prefix.back() != '/')
    Prefix += '/';
  llvm::StringRef Path = Abs.str();
  if (!Base.empty() && Path.starts_with(Prefix) && Path.size() > Prefix.size())
    return {Path.drop_front(Prefix.size()).str(), true};
  return {Path.str(), false};
}

std::string printableText(llvm::StringRef Text, bool KeepTabs) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  const auto *Bytes = reinterpret_cast<const llvm::UTF8 *>(Text.data());
  size_t I = 0;
  while (I < Text.size()) {
    unsigned char C = Text[I];
    if (C < 0x80) {
      if (C == '\t' && KeepTabs)
        OS << '\t';
      else if (C < 0x20 || C == 0x7f)
        OS << llvm::format("<U+%04X>", C);
      else
        OS << static_cast<char>(C);
      ++I;
      continue;
    }
    unsigned Length = llvm::getNumBytesForUTF8(C);
    if (I + Length > Text.size() || !llvm::isLegalUTF8Sequence(Bytes + I, Bytes + I + Length)) {
      OS << llvm::format("<%02X>", C);
      ++I;
      continue;
    }
    llvm::UTF32 CodePoint = 0;
    const llvm::UTF8 *Begin = Bytes + I;
    llvm::UTF32 *Target = &CodePoint;
    llvm::ConvertUTF8toUTF32(&Begin, Bytes + I + Length, &Target, Target + 1,
                             llvm::strictConversion);
    if (llvm::sys::unicode::isPrintable(static_cast<int>(CodePoint)))
      OS << Text.substr(I, Length);
    else
      OS << llvm::format("<U+%04X>", CodePoint);
    I += Length;
  }
  return Out;
}

std::string caretIndent(llvm::StringRef Source, int64_t Column) {
  if (Column <= 1)
    return "";
  std::string Before =
      printableText(Source.take_front(static_cast<size_t>(Column - 1)), /*KeepTabs=*/true);
  // Tabs stay tabs so that the caret lines up whatever the tab width;
  // the rest is blanks as wide as the printed text.
  std::string Indent;
  llvm::SmallVector<llvm::StringRef, 8> Pieces;
  llvm::StringRef(Before).split(Pieces, '\t');
  for (size_t P = 0; P < Pieces.size(); ++P) {
    if (P > 0)
      Indent += '\t';
    int Width = llvm::sys::unicode::columnWidthUTF8(Pieces[P]);
    Indent.append(Width > 0 ? static_cast<size_t>(Width) : Pieces[P].size(), ' ');
  }
  return Indent;
}

} // namespace warpcheck::tool
