//===- CommandTranslator.h - one compile command's translation, inside ---===//
//
// Part of warpcheck.
//
// Internal to tool/: the translator behind CompileCommand.h's
// translateCompileCommand(), shared by CompileCommand.cpp (the pass over the
// arguments, clang's and gcc's flags) and NvccOptionTranslation.cpp (nvcc's
// own options). Which flag is kept, translated or dropped is the flag
// table's (warpcheck/toolchain/CompileFlags.h).
//
//===----------------------------------------------------------------------===//

#ifndef WARPCHECK_TOOL_COMMANDTRANSLATOR_H
#define WARPCHECK_TOOL_COMMANDTRANSLATOR_H

#include "CompileCommand.h"

#include "warpcheck/toolchain/CompileFlags.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool::detail {

using toolchain::CompileFlag;

/// "true"/"1", "false"/"0" (any case); nullopt for anything else.
std::optional<bool> parseBool(llvm::StringRef V);

/// Splits a list at commas that are not inside brackets or quotes, dropping
/// the brackets and quotes: `arch=compute_80,code=[compute_80,sm_80]` gives
/// `arch=compute_80` and `code=compute_80,sm_80`.
llvm::SmallVector<std::string, 4> splitTopLevel(llvm::StringRef S);

/// Splits a comma (and blank) separated list: nvcc's option values.
llvm::SmallVector<std::string, 4> splitList(llvm::StringRef S);

class Translator {
public:
  Translator(const TranslateOptions &Options) : Options(Options) {}

  TranslatedCommand run(llvm::ArrayRef<std::string> Args);

private:
  /// Translates Args[I] (and its value), returns the index after it.
  size_t translateOne(llvm::ArrayRef<std::string> Args, size_t I, bool Nvcc);
  /// nvcc-only handling; false when Args[I] is not an nvcc option.
  bool translateNvcc(llvm::ArrayRef<std::string> Args, size_t &I);
  void applyNvcc(const CompileFlag &Opt, llvm::StringRef Spelling, llvm::StringRef Value,
                 bool HasValue);
  /// Host compiler flags from -Xcompiler (one mini command line).
  void translateHostFlags(llvm::ArrayRef<std::string> Pieces);
  void ptxasPieces(llvm::StringRef Value);
  void gencode(llvm::StringRef Spec, llvm::StringRef Spelling);
  void addArchs(llvm::StringRef List, std::vector<std::string> &To,
                llvm::StringRef Spelling);
  bool keepsFlag(llvm::StringRef Flag);
  void drop(llvm::StringRef Flag, llvm::StringRef Value = llvm::StringRef()) {
    Result.Dropped.push_back(Value.empty() ? Flag.str()
                                           : (Flag + " " + Value).str());
  }
  void emit(llvm::StringRef S) { Result.ClangArgs.push_back(S.str()); }

  const TranslateOptions &Options;
  TranslatedCommand Result;
  std::vector<std::string> ArchValues, CodeValues, GencodeArchs, ClangArchs;
  bool PendingPtxasMaxReg = false;
  bool EndOfOptions = false;
  bool InHostFlags = false;
};

} // namespace warpcheck::tool::detail

#endif // WARPCHECK_TOOL_COMMANDTRANSLATOR_H
