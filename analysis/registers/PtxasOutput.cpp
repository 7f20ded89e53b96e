//===- PtxasOutput.cpp - reading `ptxas -v` output ------------------------===//
//
// Each "Compiling entry function 'X' for 'sm_NN'" line names a kernel; the
// "Used N registers, ..." line after it gives its registers, barriers and
// shared bytes, and the "Function properties for X" block its stack frame
// and spills.
//
//===----------------------------------------------------------------------===//

#include "warpcheck/analysis/RegisterUsage.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

namespace warpcheck::analysis {

namespace {

/// "N" at the start of Text, as an integer.
std::optional<std::uint64_t> leadingNumber(llvm::StringRef Text) {
  Text = Text.ltrim();
  llvm::StringRef Digits = Text.take_while(llvm::isDigit);
  std::uint64_t N = 0;
  if (Digits.empty() || Digits.getAsInteger(10, N))
    return std::nullopt;
  return N;
}

/// The text after Marker up to the next quote: "'X'" -> X.
std::optional<llvm::StringRef> quotedAfter(llvm::StringRef Line, llvm::StringRef Marker) {
  size_t At = Line.find(Marker);
  if (At == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Rest = Line.drop_front(At + Marker.size());
  size_t End = Rest.find('\'');
  if (End == llvm::StringRef::npos)
    return std::nullopt;
  return Rest.take_front(End);
}

} // namespace

std::map<std::string, FunctionRegisters> parsePtxasOutput(llvm::StringRef Text) {
  std::map<std::string, FunctionRegisters> Result;
  std::map<std::string, FunctionRegisters> Properties; // stack/spills by name
  std::string Current, PropertiesOf;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.rtrim("\r");
    if (auto Name = quotedAfter(Line, "Compiling entry function '")) {
      // No kernel has an empty name: a line that names none (output cut
      // or garbled, found by the ptxas_output fuzz target) gives the
      // "Used" line after it to nobody.
      Current = Name->str();
      if (Current.empty())
        continue;
      FunctionRegisters &F = Result[Current];
      F.Source = RegisterSource::Ptxas;
      if (auto Arch = quotedAfter(Line, "' for '"))
        F.Arch = Arch->str();
      PropertiesOf.clear();
      continue;
    }
    size_t Props = Line.find("Function properties for ");
    if (Props != llvm::StringRef::npos) {
      PropertiesOf = Line.drop_front(Props + 24).trim().str();
      continue;
    }
    if (Line.contains("bytes stack frame")) {
      if (PropertiesOf.empty())
        continue;
      FunctionRegisters &P = Properties[PropertiesOf];
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      Line.split(Parts, ',');
      for (llvm::StringRef Part : Parts) {
        // "ptxas         .     0 bytes stack frame" in older releases.
        size_t Digit = Part.find_first_of("0123456789");
        if (Digit == llvm::StringRef::npos)
          continue;
        auto N = leadingNumber(Part.drop_front(Digit));
        if (!N)
          continue;
        if (Part.contains("stack frame"))
          P.StackFrameBytes = *N;
        else if (Part.contains("spill stores"))
          P.SpillStoreBytes = *N;
        else if (Part.contains("spill loads"))
          P.SpillLoadBytes = *N;
      }
      PropertiesOf.clear();
      continue;
    }
    size_t Used = Line.find("Used ");
    if (Used != llvm::StringRef::npos && Line.contains(" registers") && !Current.empty()) {
      FunctionRegisters &F = Result[Current];
      llvm::SmallVector<llvm::StringRef, 8> Parts;
      Line.drop_front(Used).split(Parts, ',');
      for (llvm::StringRef Part : Parts) {
        Part = Part.trim();
        if (Part.consume_front("Used ")) {
          if (auto N = leadingNumber(Part); N && Part.contains("register"))
            F.Registers = static_cast<unsigned>(*N);
        } else if (Part.consume_front("used ")) {
          if (auto N = leadingNumber(Part); N && Part.contains("barrier"))
            F.Barriers = static_cast<unsigned>(*N);
        } else if (Part.ends_with("bytes smem")) {
          if (auto N = leadingNumber(Part))
            F.SharedBytes = *N;
        }
      }
      if (!F.SharedBytes)
        F.SharedBytes = 0; // ptxas omits "0 bytes smem"
      Current.clear();
    }
  }
  for (auto &[Name, F] : Result) {
    auto P = Properties.find(Name);
    if (P != Properties.end()) {
      F.StackFrameBytes = P->second.StackFrameBytes;
      F.SpillStoreBytes = P->second.SpillStoreBytes;
      F.SpillLoadBytes = P->second.SpillLoadBytes;
    }
  }
  return Result;
}

} // namespace warpcheck::analysis
