//===- SassListing.cpp - the memory instructions of nvdisasm's listing ----===//

#include "warpcheck/analysis/SassListing.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace warpcheck::analysis {

const char *sassSpaceName(SassSpace S) {
  switch (S) {
  case SassSpace::Global:
    return "global";
  case SassSpace::Shared:
    return "shared";
  case SassSpace::Local:
    return "local";
  case SassSpace::Generic:
    return "generic";
  }
  return "global";
}

const char *sassOpName(SassOp Op) {
  switch (Op) {
  case SassOp::Load:
    return "load";
  case SassOp::Store:
    return "store";
  case SassOp::Atomic:
    return "atomic";
  }
  return "load";
}

std::optional<SassMemoryShape> decodeMemoryOpcode(llvm::StringRef Opcode) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Opcode.split(Parts, '.');
  if (Parts.empty())
    return std::nullopt;
  SassMemoryShape S;
  llvm::StringRef Family = Parts.front();
  // The families of the sm_70..sm_90 instruction sets that read or write
  // memory a warp addresses (CUDA Binary Utilities, "Instruction Set
  // Reference"). RED is the global reduction before sm_90 named it REDG;
  // ATOM without a suffix is generic.
  if (Family == "LDG" || Family == "LDGSTS") {
    S.Space = SassSpace::Global;
    S.Op = SassOp::Load;
    S.AlsoSharedStore = Family == "LDGSTS";
  } else if (Family == "STG") {
    S.Space = SassSpace::Global;
    S.Op = SassOp::Store;
  } else if (Family == "ATOMG" || Family == "REDG" || Family == "RED") {
    S.Space = SassSpace::Global;
    S.Op = SassOp::Atomic;
  } else if (Family == "LDS") {
    S.Space = SassSpace::Shared;
    S.Op = SassOp::Load;
  } else if (Family == "STS") {
    S.Space = SassSpace::Shared;
    S.Op = SassOp::Store;
  } else if (Family == "ATOMS") {
    S.Space = SassSpace::Shared;
    S.Op = SassOp::Atomic;
  } else if (Family == "LDL" || Family == "STL") {
    S.Space = SassSpace::Local;
    S.Op = Family == "LDL" ? SassOp::Load : SassOp::Store;
  } else if (Family == "LD" || Family == "ST" || Family == "ATOM") {
    S.Space = SassSpace::Generic;
    S.Op = Family == "LD" ? SassOp::Load : Family == "ST" ? SassOp::Store : SassOp::Atomic;
  } else {
    return std::nullopt;
  }
  for (llvm::StringRef M : llvm::ArrayRef(Parts).drop_front()) {
    unsigned Bytes = llvm::StringSwitch<unsigned>(M)
                         .Cases("U8", "S8", 1)
                         .Cases("U16", "S16", "F16", "BF16", 2)
                         .Cases("32", "F16x2", "BF16x2", 4)
                         .Cases("64", "F64", 8)
                         .Case("128", 16)
                         .Default(0);
    if (Bytes)
      S.BytesPerLane = Bytes;
  }
  return S;
}

namespace {

/// `"path", line N` at the front of Text: the position, and Text advanced
/// past it.
std::optional<SassPosition> takePosition(llvm::StringRef &Text) {
  if (!Text.consume_front("\""))
    return std::nullopt;
  size_t End = Text.find("\", line ");
  if (End == llvm::StringRef::npos)
    return std::nullopt;
  SassPosition P;
  P.File = Text.take_front(End).str();
  Text = Text.drop_front(End + 8);
  llvm::StringRef Digits = Text.take_while(llvm::isDigit);
  if (Digits.empty() || Digits.getAsInteger(10, P.Line))
    return std::nullopt;
  Text = Text.drop_front(Digits.size());
  return P;
}

/// `//## File "a.cu", line 54 [inlined at "b.cu", line 98]...`: innermost
/// first.
std::vector<SassPosition> parseLineInfo(llvm::StringRef Text) {
  std::vector<SassPosition> Out;
  if (!Text.consume_front("File "))
    return Out;
  std::optional<SassPosition> P = takePosition(Text);
  while (P) {
    Out.push_back(std::move(*P));
    Text = Text.ltrim();
    if (!Text.consume_front("inlined at "))
      break;
    P = takePosition(Text);
  }
  return Out;
}

/// The function a `.section .text.<name>,"ax",@progbits` line opens; empty
/// for any other section.
std::string sectionFunction(llvm::StringRef Line) {
  llvm::StringRef Rest = Line.drop_front(8).ltrim(); // ".section"
  if (!Rest.consume_front(".text."))
    return "";
  return Rest.take_until([](char C) { return C == ',' || C == ' ' || C == '\t'; }).str();
}

/// The register an address operand is formed from: the first register of
/// the last `[...]` group of the operands (`desc[UR8][R4.64+0x4]`: R4).
std::string addressBase(llvm::StringRef Operands) {
  size_t Open = Operands.rfind('[');
  if (Open == llvm::StringRef::npos)
    return "";
  llvm::StringRef In = Operands.drop_front(Open + 1).take_until([](char C) { return C == ']'; });
  llvm::StringRef Reg = In.ltrim().take_while([](char C) { return llvm::isAlnum(C); });
  if (Reg.size() < 2 || (Reg[0] != 'R' && !Reg.starts_with("UR")) || Reg == "RZ")
    return "";
  return Reg.str();
}

/// Sets LoopHead of the instructions of one function from its labels (by
/// the offset they stand at) and branches (offset, target label).
void markLoops(std::vector<SassMemoryInstruction> &Instructions,
               const std::map<std::string, unsigned> &Labels,
               const std::vector<std::pair<unsigned, std::string>> &Branches) {
  // Backward branches: loops [Head, Tail]; the innermost one holding an
  // instruction is the shortest.
  std::vector<std::pair<unsigned, unsigned>> Loops;
  for (const auto &[At, Target] : Branches) {
    auto It = Labels.find(Target);
    if (It != Labels.end() && It->second <= At)
      Loops.emplace_back(It->second, At);
  }
  for (SassMemoryInstruction &I : Instructions) {
    unsigned Best = ~0u;
    for (const auto &[Head, Tail] : Loops)
      if (Head <= I.Offset && I.Offset <= Tail && Tail - Head < Best) {
        Best = Tail - Head;
        I.LoopHead = static_cast<int>(Head);
      }
  }
}

} // namespace

SassListing parseNvdisasmListing(llvm::StringRef Text) {
  SassListing Out;
  std::string Function;
  // The current function's labels (`.L_x_18:`, at the next instruction's
  // offset), those still waiting for it, and its branches.
  std::map<std::string, unsigned> Labels;
  std::vector<std::string> PendingLabels;
  std::vector<std::pair<unsigned, std::string>> Branches;
  auto EndFunction = [&] {
    if (!Function.empty()) {
      auto It = Out.Functions.find(Function);
      if (It != Out.Functions.end())
        markLoops(It->second, Labels, Branches);
    }
    Labels.clear();
    PendingLabels.clear();
    Branches.clear();
  };
  std::vector<SassPosition> Positions;
  // The previous line was line information too.
  bool AfterLineInfo = false;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    llvm::StringRef L = Line.trim();
    if (L.starts_with(".section")) {
      EndFunction();
      Function = sectionFunction(L);
      Positions.clear();
      continue;
    }
    if (L.starts_with(".other") && L.contains("STO_CUDA_ENTRY")) {
      llvm::StringRef Name = L.drop_front(6).ltrim().take_until([](char C) { return C == ','; });
      Out.Kernels.insert(Name.trim().str());
      continue;
    }
    if (Function.empty())
      continue;
    if (L.consume_front("//##")) {
      // Code of an inlined call is annotated once per level of the
      // inlining, innermost first, each line with the one it was inlined
      // at: `line 39 inlined at "common.h", line 53`, then `line 53
      // inlined at "global_norm.cu", line 102`, then `line 102` (llm.c's
      // blockReduce, called from a helper that a kernel calls). Each one
      // that starts where the chain so far ends continues it; one that is
      // the chain's end says nothing new. The innermost line is the one
      // profilers attribute the instruction to.
      std::vector<SassPosition> Next = parseLineInfo(L.ltrim());
      bool Suffix = AfterLineInfo && Next.size() <= Positions.size() &&
                    std::equal(Next.begin(), Next.end(), Positions.end() - Next.size());
      bool Continues = AfterLineInfo && !Suffix && !Positions.empty() && !Next.empty() &&
                       Next.front() == Positions.back();
      if (Continues)
        Positions.insert(Positions.end(), Next.begin() + 1, Next.end());
      else if (!Suffix)
        Positions = std::move(Next);
      AfterLineInfo = true;
      continue;
    }
    AfterLineInfo = false;
    if (L.starts_with(".L") && L.ends_with(":")) {
      PendingLabels.push_back(L.drop_back().str());
      continue;
    }
    // `/*0130*/  @!P0 LDS.64 R8, [R2] ;`
    if (!L.consume_front("/*"))
      continue;
    size_t Close = L.find("*/");
    if (Close == llvm::StringRef::npos)
      continue;
    unsigned Offset = 0;
    if (L.take_front(Close).getAsInteger(16, Offset))
      continue;
    L = L.drop_front(Close + 2).ltrim();
    for (std::string &Label : PendingLabels)
      Labels[std::move(Label)] = Offset;
    PendingLabels.clear();
    std::string Predicate;
    if (L.starts_with("@")) {
      Predicate = L.take_until(llvm::isSpace).str();
      L = L.drop_front(Predicate.size()).ltrim();
    }
    llvm::StringRef Opcode = L.take_until([](char C) { return llvm::isSpace(C) || C == ';'; });
    if (Opcode.starts_with("CALL")) {
      size_t Open = L.find("`(");
      if (Open != llvm::StringRef::npos) {
        llvm::StringRef Target = L.drop_front(Open + 2).take_until([](char C) { return C == ')'; });
        if (!Target.empty())
          Out.Calls[Function].insert(Target.str());
      }
      continue;
    }
    if (Opcode == "BRA" || Opcode.starts_with("BRA.")) {
      size_t Open = L.find("`(");
      if (Open != llvm::StringRef::npos)
        Branches.emplace_back(
            Offset, L.drop_front(Open + 2).take_until([](char C) { return C == ')'; }).str());
      continue;
    }
    std::optional<SassMemoryShape> Shape = decodeMemoryOpcode(Opcode);
    if (!Shape)
      continue;
    SassMemoryInstruction I;
    I.Function = Function;
    I.Offset = Offset;
    I.Opcode = Opcode.str();
    I.Predicate = std::move(Predicate);
    I.Shape = *Shape;
    I.AddressBase = addressBase(L.drop_front(Opcode.size()));
    I.Positions = Positions;
    Out.Functions[Function].push_back(std::move(I));
  }
  EndFunction();
  return Out;
}

std::vector<SassMemoryInstruction> kernelMemoryInstructions(const SassListing &Listing,
                                                            llvm::StringRef Kernel) {
  std::vector<SassMemoryInstruction> Out;
  std::set<std::string> Seen;
  std::vector<std::string> Work{Kernel.str()};
  while (!Work.empty()) {
    std::string F = std::move(Work.back());
    Work.pop_back();
    if (!Seen.insert(F).second)
      continue;
    auto It = Listing.Functions.find(F);
    if (It != Listing.Functions.end())
      Out.insert(Out.end(), It->second.begin(), It->second.end());
    auto C = Listing.Calls.find(F);
    if (C != Listing.Calls.end())
      for (auto Callee = C->second.rbegin(); Callee != C->second.rend(); ++Callee)
        Work.push_back(*Callee);
  }
  return Out;
}

} // namespace warpcheck::analysis
