//===- CompileCommand.cpp - nvcc/clang command lines to clang 19 args -----===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//
//
// The translation is a single left-to-right pass over the argument vector:
//
//   1. Security denials first, whatever the compiler: anything that can make
//      the driver start a program, load a plugin or module, read more
//      arguments (response/config/options files), change the directory or
//      write files is dropped together with its value.
//   2. nvcc's own options (only when the command is an nvcc command): the
//      flag table (warpcheck/toolchain/CompileFlags.h), every option nvcc
//      13's --help lists with whether it takes a value, drives what is
//      translated (-arch, -gencode, -rdc, -Xcompiler, ...) and what is
//      dropped (NvccOptionTranslation.cpp).
//   3. Everything else is checked against an allowlist of flags that are safe
//      and meaningful for a parse; the rest is dropped.
//
//===----------------------------------------------------------------------===//

#include "CommandTranslator.h"

#include "warpcheck/toolchain/CompileFlags.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using llvm::ArrayRef;
using llvm::StringRef;

namespace warpcheck::tool {

namespace detail {

using namespace toolchain;

namespace {

/// File name extensions of inputs that are kept; other positional arguments
/// (objects, libraries, stray values) are dropped.
// clang-format off
constexpr StringRef SourceExtensions[] = {
    ".cu", ".cuh", ".cpp", ".cxx", ".cc", ".c", ".C", ".c++", ".cp", ".CPP",
    ".h", ".hh", ".hpp", ".hxx", ".inl", ".ipp", ".tpp", ".tcc", ".cuinc"};
// clang-format on

bool isLauncher(StringRef Program) {
  StringRef Name = llvm::sys::path::filename(Program);
  Name.consume_back(".exe");
  return Name == "ccache" || Name == "sccache" || Name == "distcc" ||
         Name == "icecc" || Name == "buildcache";
}

bool isNvccName(StringRef Program) {
  StringRef Name = llvm::sys::path::filename(Program);
  Name.consume_back(".exe");
  return Name.starts_with("nvcc");
}

bool isSourceFile(StringRef Arg) {
  StringRef Ext = llvm::sys::path::extension(Arg);
  return llvm::is_contained(SourceExtensions, Ext);
}

} // namespace

std::optional<bool> parseBool(StringRef V) {
  V = V.trim();
  if (V.equals_insensitive("true") || V == "1")
    return true;
  if (V.equals_insensitive("false") || V == "0")
    return false;
  return std::nullopt;
}

llvm::SmallVector<std::string, 4> splitTopLevel(StringRef S) {
  llvm::SmallVector<std::string, 4> Out;
  std::string Cur;
  int Depth = 0;
  char Quote = 0;
  for (char C : S) {
    if (Quote) {
      if (C == Quote)
        Quote = 0;
      else
        Cur += C;
      continue;
    }
    if (C == '"' || C == '\'') {
      Quote = C;
      continue;
    }
    if (C == '[' || C == '{') {
      ++Depth;
      continue;
    }
    if (C == ']' || C == '}') {
      Depth = Depth > 0 ? Depth - 1 : 0;
      continue;
    }
    if (C == ',' && Depth == 0 && !Quote) {
      Out.push_back(Cur);
      Cur.clear();
      continue;
    }
    Cur += C;
  }
  Out.push_back(Cur);
  return Out;
}

llvm::SmallVector<std::string, 4> splitList(StringRef S) {
  llvm::SmallVector<std::string, 4> Out;
  for (StringRef Item : toolchain::splitFlagList(S))
    Out.push_back(Item.str());
  return Out;
}

TranslatedCommand Translator::run(ArrayRef<std::string> Args) {
  // The compiler, behind any launchers, is never used: warpcheck parses with
  // its own clang.
  size_t First = 0;
  while (First < Args.size() && isLauncher(Args[First]))
    ++First;
  bool Nvcc = First < Args.size() && isNvccName(Args[First]);
  for (size_t I = First + 1; I < Args.size() && !Nvcc; ++I) {
    StringRef A = Args[I];
    // The value of a pass-through flag (-Xcuda-ptxas --maxrregcount=N) is
    // not a flag of the command's.
    if (isDeniedWithSeparateValue(A) || A.starts_with("-Xcuda-") ||
        A.starts_with("-Xarch_")) {
      ++I;
      continue;
    }
    Nvcc = isNvccOnlyFlag(A.split('=').first);
  }

  for (size_t I = First + 1; I < Args.size();)
    I = translateOne(Args, I, Nvcc);

  // Last line of defence: clang's driver reads any argument that starts with
  // '@' as a response file (more arguments, unfiltered), even a flag's
  // value. Remove such values together with their flag.
  std::vector<std::string> Clean;
  for (std::string &Arg : Result.ClangArgs) {
    if (!StringRef(Arg).starts_with("@")) {
      Clean.push_back(std::move(Arg));
      continue;
    }
    if (!Clean.empty() &&
        (isKeptWithSeparateValue(Clean.back()) ||
         Clean.back() == "-x")) {
      drop(Clean.back(), Arg);
      Clean.pop_back();
    } else {
      drop(Arg);
    }
  }
  Result.ClangArgs = std::move(Clean);

  // GPU arches: -gencode entries, then -arch/-code (with -code, its real
  // arches win, as in nvcc), then clang's --cuda-gpu-arch/--offload-arch.
  std::vector<std::string> Requested = GencodeArchs;
  if (!CodeValues.empty()) {
    bool AnyReal = llvm::any_of(CodeValues, [](const std::string &C) {
      return StringRef(C).starts_with("sm_");
    });
    for (const std::string &C : CodeValues)
      if (!AnyReal || StringRef(C).starts_with("sm_"))
        Requested.push_back(C);
  } else {
    llvm::append_range(Requested, ArchValues);
  }
  llvm::append_range(Requested, ClangArchs);
  llvm::StringSet<> Seen, SeenParse;
  for (const std::string &A : Requested) {
    std::string Norm = normalizeCudaArch(A);
    if (!Norm.empty() && Seen.insert(Norm).second)
      Result.GpuArchs.push_back(Norm);
  }
  for (const std::string &A : Result.GpuArchs) {
    std::string Parse = clangParseArchFor(A);
    if (!Parse.empty() && SeenParse.insert(Parse).second)
      emit("--cuda-gpu-arch=" + Parse);
  }
  if (PendingPtxasMaxReg)
    drop("-Xptxas --maxrregcount (no value)");
  // Kept GCC-only -W flags and flags a -fsyntax-only run does not use
  // (-fPIC, device-only flags on the host side) would otherwise each warn.
  emit("-Wno-unknown-warning-option");
  emit("-Qunused-arguments");
  return std::move(Result);
}

size_t Translator::translateOne(ArrayRef<std::string> Args, size_t I,
                                bool Nvcc) {
  StringRef A = Args[I];
  auto Next = [&]() -> std::optional<StringRef> {
    if (I + 1 < Args.size())
      return StringRef(Args[I + 1]);
    return std::nullopt;
  };

  // Positional arguments: keep source files only. Response files (@file),
  // stdin (-), objects, libraries and stray values are dropped.
  if (EndOfOptions || A.size() < 2 || A[0] != '-') {
    if (A.empty() || A[0] == '-' || A[0] == '@' || InHostFlags ||
        !isSourceFile(A))
      drop(A);
    else
      emit(A);
    return I + 1;
  }
  if (A == "--") {
    EndOfOptions = true;
    drop(A);
    return I + 1;
  }

  // 1. Security denials.
  if (isDeniedWithSeparateValue(A)) {
    std::optional<StringRef> V = Next();
    drop(A, V.value_or(""));
    if (A == "-Xcuda-ptxas" && V)
      ptxasPieces(*V);
    return V ? I + 2 : I + 1;
  }
  if (hasDeniedPrefix(A)) {
    // -Xcuda-ptxas/-Xarch_device/-Xopenmp-target=<triple> etc. carry a value
    // in the next argument.
    // So does a denied flag the table knows to take one (nvcc's -target-dir
    // X): its value must not be read as a flag of its own.
    bool SeparateValue =
        A.starts_with("-Xarch_") || A.starts_with("-Xopenmp-target") ||
        A.starts_with("-Xcuda-") || A.starts_with("-Xoffload-linker") ||
        takesSeparateValue(A);
    if (A.starts_with("-Xarch_") && A.contains('='))
      SeparateValue = false;
    if (SeparateValue && Next()) {
      if (A.starts_with("-Xcuda-ptxas"))
        ptxasPieces(*Next());
      drop(A, *Next());
      return I + 2;
    }
    drop(A);
    return I + 1;
  }

  // 2. nvcc's own options.
  if (Nvcc) {
    size_t J = I;
    if (translateNvcc(Args, J))
      return J;
  }

  // 3. Everything else: clang/gcc flags.
  if (isDroppedWithSeparateValue(A)) {
    std::optional<StringRef> V = Next();
    drop(A, V.value_or(""));
    return V ? I + 2 : I + 1;
  }
  // Kept flag/value pairs.
  if (isKeptWithSeparateValue(A)) {
    std::optional<StringRef> V = Next();
    if (!V) {
      drop(A);
      return I + 1;
    }
    // clang's driver reads any argument that starts with '@' as a response
    // file, even a flag's value.
    if (V->starts_with("@")) {
      drop(A, *V);
      return I + 2;
    }
    emit(A);
    emit(*V);
    return I + 2;
  }
  if (A == "-x" || A.starts_with("-x")) {
    StringRef Lang;
    size_t Used = 1;
    if (A == "-x") {
      if (!Next()) {
        drop(A);
        return I + 1;
      }
      Lang = *Next();
      Used = 2;
    } else {
      Lang = A.drop_front(2);
    }
    StringRef Mapped = llvm::StringSwitch<StringRef>(Lang)
                           .Cases("cu", "cuda", "cuda")
                           .Case("c++", "c++")
                           .Case("c", "c")
                           .Case("c++-header", "c++-header")
                           .Case("c-header", "c-header")
                           .Default("");
    if (Mapped.empty()) {
      drop("-x", Lang);
    } else {
      emit("-x");
      emit(Mapped);
    }
    return I + Used;
  }
  if (A == "-std" || A == "--std") { // nvcc and clang's --std take a value.
    std::optional<StringRef> V = Next();
    if (!V) {
      drop(A);
      return I + 1;
    }
    emit(("-std=" + *V).str());
    return I + 2;
  }
  if (A.starts_with("--std=")) {
    emit(("-std=" + A.drop_front(6)).str());
    return I + 1;
  }
  if (A.starts_with("-std=")) {
    emit(A);
    return I + 1;
  }
  if (A.starts_with("--cuda-gpu-arch=") || A.starts_with("--offload-arch=")) {
    addArchs(A.split('=').second, ClangArchs, A);
    return I + 1;
  }
  if (A.starts_with("-isystem=") && Nvcc) {
    emit("-isystem");
    emit(A.drop_front(9));
    return I + 1;
  }
  if (hasKeptJoinedPrefix(A) && !A.starts_with("-include-")) {
    emit(A);
    return I + 1;
  }
  if (isKeptExactly(A)) {
    emit(A);
    return I + 1;
  }
  if (A.starts_with("-O")) {
    StringRef Level = A.drop_front(2);
    if (Level == "fast") { // Deprecated in clang 19; same meaning.
      emit("-O3");
      emit("-ffast-math");
    } else if (Level.empty() || Level == "0" || Level == "1" || Level == "2" ||
               Level == "3" || Level == "4" || Level == "s" || Level == "z" ||
               Level == "g") {
      emit(A);
    } else {
      drop(A);
    }
    return I + 1;
  }
  if (A.starts_with("-W")) {
    if (isDeniedWFlag(A))
      drop(A);
    else
      emit(A);
    return I + 1;
  }
  if (A.starts_with("-f")) {
    if (isDeniedFFlag(A) || isGccOnlyFFlag(A) ||
        !keepsFlag(A))
      drop(A);
    else
      emit(A);
    return I + 1;
  }
  if (A.starts_with("-g") && !A.starts_with("-gen") && !A.starts_with("-gpu")) {
    if (keepsFlag(A))
      emit(A);
    else
      drop(A);
    return I + 1;
  }
  drop(A);
  return I + 1;
}

bool Translator::keepsFlag(StringRef Flag) {
  return !Options.IsKnownClangFlag || Options.IsKnownClangFlag(Flag);
}


void Translator::translateHostFlags(ArrayRef<std::string> Pieces) {
  // The host compiler's flags, passed through by nvcc: the same rules as for
  // any flag, without nvcc's own options (they are not nvcc's). A lone
  // positional piece is never an input file.
  bool SavedEnd = EndOfOptions;
  EndOfOptions = false;
  InHostFlags = true;
  size_t FirstDropped = Result.Dropped.size();
  for (size_t I = 0; I < Pieces.size();)
    I = translateOne(Pieces, I, /*Nvcc=*/false);
  InHostFlags = false;
  EndOfOptions = SavedEnd;
  for (size_t I = FirstDropped; I < Result.Dropped.size(); ++I)
    Result.Dropped[I] = "-Xcompiler " + Result.Dropped[I];
}


} // namespace detail

std::vector<std::string> makeIncludePathsAbsolute(ArrayRef<std::string> Args,
                                                  StringRef Directory) {
  // Flags whose value is a path, separate or joined (-Idir, -isystemdir).
  static constexpr StringRef PathFlags[] = {"-I",        "-isystem", "-iquote",
                                            "-idirafter", "-include", "-imacros"};
  auto Absolute = [&](StringRef Path) {
    llvm::SmallString<256> P(Path);
    if (!Path.empty() && !llvm::sys::path::is_absolute(P) && !Directory.empty())
      llvm::sys::fs::make_absolute(Directory, P);
    if (llvm::sys::path::is_absolute(P))
      llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    return std::string(P.str());
  };
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (llvm::is_contained(PathFlags, A) && I + 1 < Args.size()) {
      Out.push_back(A.str());
      Out.push_back(Absolute(Args[++I]));
      continue;
    }
    // -I<dir>, -isystem<dir>...: the longer spellings first (-isystem is
    // not -I with "system"). A joined -include is not a form clang takes.
    bool Joined = false;
    for (StringRef F : {"-idirafter", "-isystem", "-iquote", "-I"})
      if (A.size() > F.size() && A.starts_with(F)) {
        Out.push_back((F + Absolute(A.drop_front(F.size()))).str());
        Joined = true;
        break;
      }
    if (!Joined)
      Out.push_back(A.str());
  }
  return Out;
}


TranslatedCommand translateCompileCommand(ArrayRef<std::string> Args) {
  return translateCompileCommand(Args, TranslateOptions());
}

TranslatedCommand translateCompileCommand(ArrayRef<std::string> Args,
                                          const TranslateOptions &Options) {
  return detail::Translator(Options).run(Args);
}

} // namespace warpcheck::tool
