//===- NvccOptionTranslation.cpp - nvcc's own options to clang 19 args ----===//
//
// Part of warpcheck.
//
// Step 2 of the translation (CompileCommand.cpp): an nvcc option, looked up
// in the flag table (warpcheck/toolchain/CompileFlags.h), becomes clang
// flags, an architecture, a register limit, or a dropped flag.
//
//===----------------------------------------------------------------------===//

#include "CommandTranslator.h"

#include "warpcheck/toolchain/CudaArch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

using llvm::ArrayRef;
using llvm::StringRef;

namespace warpcheck::tool::detail {

using namespace toolchain;

bool Translator::translateNvcc(ArrayRef<std::string> Args, size_t &I) {
  StringRef A = Args[I];
  StringRef Name, Value;
  bool HasValue = false;
  bool Long = A.starts_with("--");
  StringRef Body = A.drop_front(Long ? 2 : 1);
  std::tie(Name, Value) = Body.split('=');
  HasValue = Body.contains('=');

  const CompileFlag *Found = findNvccFlag(Name, Long);
  if (!Found)
    return false;
  // Some nvcc names are also clang flags with a different shape; those that
  // clang spells the same (-c, -E, -M*, -o, -g, -x, -std, -m64) fall here too
  // and are handled as nvcc does.
  if (!Found->TakesValue) {
    if (HasValue) { // e.g. -lineinfo=1: not an nvcc form.
      drop(A);
      ++I;
      return true;
    }
    applyNvcc(*Found, A, StringRef(), false);
    ++I;
    return true;
  }
  // Value-taking: `-opt=value`, `--opt=value`, or the next argument.
  if (!HasValue) {
    bool HasNext = I + 1 < Args.size();
    StringRef NextArg = HasNext ? StringRef(Args[I + 1]) : StringRef();
    if (!takesNextAsValue(*Found, HasNext, NextArg)) {
      if (Found->Meaning == FlagMeaning::Optimize)
        emit("-O"); // clang's bare -O.
      else
        drop(A); // No value; for -Werror, a host-compiler -Werror as is.
      ++I;
      return true;
    }
    applyNvcc(*Found, A, NextArg, true);
    I += 2;
    return true;
  }
  applyNvcc(*Found, A, Value, true);
  ++I;
  return true;
}

void Translator::applyNvcc(const CompileFlag &Opt, StringRef Spelling,
                           StringRef Value, bool HasValue) {
  auto DropIt = [&] { drop(Spelling, Spelling.contains('=') ? "" : Value); };
  switch (Opt.Meaning) {
  case FlagMeaning::Unused:
  case FlagMeaning::Unsafe:
  case FlagMeaning::ExtendedLambda:
  case FlagMeaning::RelaxedConstexpr:
  case FlagMeaning::AnyHostCompiler:
  case FlagMeaning::Cubin:
  case FlagMeaning::LineInfo:
  case FlagMeaning::OtherOutput:
  case FlagMeaning::PrecDiv:
  case FlagMeaning::PrecSqrt:
    DropIt();
    return;
  case FlagMeaning::SameInClang:
    emit(("-" + Opt.Short).str());
    return;
  case FlagMeaning::Arch:
    addArchs(Value, ArchValues, Spelling);
    return;
  case FlagMeaning::Code:
    addArchs(Value, CodeValues, Spelling);
    return;
  case FlagMeaning::Gencode:
    gencode(Value, Spelling);
    return;
  case FlagMeaning::Rdc:
    if (std::optional<bool> B = parseBool(Value)) {
      emit(*B ? "-fgpu-rdc" : "-fno-gpu-rdc");
      return;
    }
    DropIt();
    return;
  case FlagMeaning::DeviceC:
    emit("-fgpu-rdc");
    return;
  case FlagMeaning::MaxRegCount: {
    unsigned N = 0;
    if (!Value.trim().getAsInteger(10, N) && N > 0) {
      Result.MaxRegCount = N;
      return;
    }
    DropIt();
    return;
  }
  case FlagMeaning::DefaultStream:
    // nvcc defines this macro for per-thread (checked with nvcc --dryrun).
    if (Value == "per-thread") {
      emit("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
      return;
    }
    DropIt(); // legacy/null: nvcc's default, nothing to tell clang.
    return;
  case FlagMeaning::FastMath:
    emit("-fgpu-approx-transcendentals");
    emit("-fgpu-flush-denormals-to-zero");
    return;
  case FlagMeaning::Ftz:
    if (std::optional<bool> B = parseBool(Value)) {
      emit(*B ? "-fgpu-flush-denormals-to-zero"
              : "-fno-gpu-flush-denormals-to-zero");
      return;
    }
    DropIt();
    return;
  case FlagMeaning::Fmad:
    if (std::optional<bool> B = parseBool(Value)) {
      emit(*B ? "-ffp-contract=fast" : "-ffp-contract=off");
      return;
    }
    DropIt();
    return;
  case FlagMeaning::HostCompilerFlags: {
    llvm::SmallVector<std::string, 4> Pieces = splitList(Value);
    translateHostFlags(Pieces);
    return;
  }
  case FlagMeaning::PtxasFlags:
    ptxasPieces(Value);
    drop(Spelling, Spelling.contains('=') ? "" : Value);
    return;
  case FlagMeaning::Define:
  case FlagMeaning::Undefine:
    if (Value.empty()) {
      DropIt();
      return;
    }
    emit(Opt.Meaning == FlagMeaning::Define ? "-D" : "-U");
    emit(Value);
    return;
  case FlagMeaning::IncludePath:
  case FlagMeaning::SystemInclude:
  case FlagMeaning::PreInclude:
    if (Value.empty()) {
      DropIt();
      return;
    }
    for (const std::string &Path : splitTopLevel(Value)) {
      if (Path.empty())
        continue;
      emit(Opt.Meaning == FlagMeaning::IncludePath     ? "-I"
           : Opt.Meaning == FlagMeaning::SystemInclude ? "-isystem"
                                                     : "-include");
      emit(Path);
    }
    return;
  case FlagMeaning::Std:
    emit(("-std=" + Value).str());
    return;
  case FlagMeaning::Language: {
    StringRef Mapped = llvm::StringSwitch<StringRef>(Value)
                           .Cases("cu", "cuda", "cuda")
                           .Case("c++", "c++")
                           .Case("c", "c")
                           .Default("");
    if (Mapped.empty()) {
      DropIt();
      return;
    }
    emit("-x");
    emit(Mapped);
    return;
  }
  case FlagMeaning::Optimize:
    if (Value.size() == 1 && StringRef("0123sgz").contains(Value[0])) {
      emit(("-O" + Value).str());
      return;
    }
    DropIt();
    return;
  case FlagMeaning::Machine:
    if (Value == "64") {
      emit("-m64");
      return;
    }
    DropIt();
    return;
  case FlagMeaning::TemplateDepth:
  case FlagMeaning::TemplateBacktrace: {
    unsigned N = 0;
    if (Value.trim().getAsInteger(10, N)) {
      DropIt();
      return;
    }
    emit((Opt.Meaning == FlagMeaning::TemplateDepth
              ? "-ftemplate-depth="
              : "-ftemplate-backtrace-limit=") +
         std::to_string(N));
    return;
  }
  case FlagMeaning::NoExceptions:
    emit("-fno-exceptions");
    return;
  case FlagMeaning::HostDebug:
    emit("-g");
    return;
  case FlagMeaning::NvccWerror:
    DropIt();
    return;
  }
  (void)HasValue;
}


void Translator::ptxasPieces(StringRef Value) {
  for (const std::string &P : splitList(Value)) {
    StringRef Piece = P;
    if (PendingPtxasMaxReg) {
      PendingPtxasMaxReg = false;
      unsigned N = 0;
      if (!Piece.getAsInteger(10, N) && N > 0)
        Result.MaxRegCount = N;
      continue;
    }
    StringRef Name, Val;
    std::tie(Name, Val) = Piece.split('=');
    if (Name == "--maxrregcount" || Name == "-maxrregcount") {
      if (!Piece.contains('=')) {
        PendingPtxasMaxReg = true;
        continue;
      }
      unsigned N = 0;
      if (!Val.getAsInteger(10, N) && N > 0)
        Result.MaxRegCount = N;
    }
  }
}

void Translator::gencode(StringRef Spec, StringRef Spelling) {
  std::string Arch;
  std::vector<std::string> Codes;
  bool InCode = false;
  for (const std::string &Tok : splitTopLevel(Spec)) {
    StringRef T = StringRef(Tok).trim();
    if (T.consume_front("arch=")) {
      Arch = T.str();
      InCode = false;
    } else if (T.consume_front("code=")) {
      InCode = true;
      for (const std::string &C : splitTopLevel(T))
        if (!C.empty())
          Codes.push_back(C);
    } else if (InCode && !T.empty()) {
      Codes.push_back(T.str());
    }
  }
  std::vector<std::string> Picked;
  for (const std::string &C : Codes)
    if (StringRef(C).starts_with("sm_"))
      Picked.push_back(C);
  if (Picked.empty())
    Picked = Codes;
  if (Picked.empty() && !Arch.empty())
    Picked.push_back(Arch);
  bool Any = false;
  for (const std::string &P : Picked)
    if (!normalizeCudaArch(P).empty()) {
      GencodeArchs.push_back(P);
      Any = true;
    }
  if (!Any)
    drop(Spelling, Spelling.contains('=') ? "" : Spec);
}

void Translator::addArchs(StringRef List, std::vector<std::string> &To,
                          StringRef Spelling) {
  bool Any = false;
  for (const std::string &A : splitTopLevel(List)) {
    if (!normalizeCudaArch(A).empty()) {
      To.push_back(A);
      Any = true;
    } else if (A == "native" || A == "all" || A == "all-major") {
      // No architecture to tell the hardware model; the caller says which
      // one it models instead.
      if (!llvm::is_contained(Result.ArchKeywords, A))
        Result.ArchKeywords.push_back(A);
    }
  }
  if (!Any)
    drop(Spelling, Spelling.contains('=') ? "" : List);
}


} // namespace warpcheck::tool::detail
