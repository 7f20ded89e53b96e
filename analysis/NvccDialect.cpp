//===- NvccDialect.cpp - respelling spaced launch chevrons ----------------===//

#include "warpcheck/analysis/NvccDialect.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <vector>

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// One raw token: its kind, its offset and length in the buffer.
struct RawToken {
  tok::TokenKind Kind;
  size_t Offset, Length;
  llvm::StringRef Text;
};

std::vector<RawToken> rawTokens(llvm::StringRef Source) {
  LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
  LO.CUDA = true; // `<<<` and `>>>` are tokens of their own
  LO.LineComment = true;
  Lexer L(SourceLocation(), LO, Source.begin(), Source.begin(), Source.end());
  std::vector<RawToken> Out;
  Token T;
  while (true) {
    L.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    size_t End = L.getBufferLocation() - Source.begin();
    size_t Begin = End - T.getLength();
    Out.push_back({T.getKind(), Begin, T.getLength(), Source.substr(Begin, T.getLength())});
  }
  return Out;
}

/// Chevrons a token stands for: `<` 1, `<<` 2, `<<<` 3 (negative for `>`).
int chevrons(tok::TokenKind K) {
  switch (K) {
  case tok::less:
    return 1;
  case tok::lessless:
    return 2;
  case tok::lesslessless:
    return 3;
  case tok::greater:
    return -1;
  case tok::greatergreater:
    return -2;
  case tok::greatergreatergreater:
    return -3;
  default:
    return 0;
  }
}

/// Tokens I, I+1 (, I+2) of one direction that add up to three chevrons
/// with only whitespace between them: how many tokens, or 0.
unsigned spacedTriple(const std::vector<RawToken> &Toks, size_t I, int Sign,
                      llvm::StringRef Source) {
  int Total = 0;
  for (size_t J = I; J < Toks.size() && J < I + 3; ++J) {
    int C = chevrons(Toks[J].Kind) * Sign;
    if (C <= 0)
      return 0;
    if (J > I) {
      size_t GapBegin = Toks[J - 1].Offset + Toks[J - 1].Length;
      if (!Source.substr(GapBegin, Toks[J].Offset - GapBegin).trim().empty())
        return 0; // a comment between them: not a spelling nvcc joins
    }
    Total += C;
    if (Total == 3)
      return J > I ? static_cast<unsigned>(J - I + 1) : 0;
    if (Total > 3)
      return 0;
  }
  return 0;
}

/// Moves the chevrons of tokens [I, I + N) to the front of their span and
/// the whitespace behind them: the same length, the same lines.
void respell(std::string &Out, const std::vector<RawToken> &Toks, size_t I, unsigned N,
             char Chevron) {
  size_t Begin = Toks[I].Offset;
  size_t End = Toks[I + N - 1].Offset + Toks[I + N - 1].Length;
  std::string Gap;
  for (size_t P = Begin; P < End; ++P)
    if (Out[P] != Chevron)
      Gap += Out[P];
  std::string Joined(3, Chevron);
  Joined += Gap;
  Out.replace(Begin, End - Begin, Joined);
}

} // namespace

std::optional<std::string> respellSpacedLaunches(llvm::StringRef Source) {
  // Cheap test first: most files have no spaced chevrons at all.
  if (!Source.contains("< <") && !Source.contains("<< ") && !Source.contains("> >") &&
      !Source.contains(">> ") && !Source.contains("<\n") && !Source.contains(">\n"))
    return std::nullopt;
  std::vector<RawToken> Toks = rawTokens(Source);
  std::string Out = Source.str();
  bool Changed = false;
  // Launch configurations open, with the bracket nesting at their opening.
  std::vector<int> OpenAt;
  int Depth = 0;
  for (size_t I = 0; I < Toks.size(); ++I) {
    tok::TokenKind K = Toks[I].Kind;
    if (K == tok::l_paren || K == tok::l_square || K == tok::l_brace) {
      ++Depth;
      continue;
    }
    if (K == tok::r_paren || K == tok::r_square || K == tok::r_brace) {
      --Depth;
      continue;
    }
    if (K == tok::lesslessless) {
      OpenAt.push_back(Depth);
      continue;
    }
    if (K == tok::greatergreatergreater) {
      if (!OpenAt.empty() && OpenAt.back() == Depth)
        OpenAt.pop_back();
      continue;
    }
    if (chevrons(K) > 0) {
      // `operator<< <T>(...)`: explicit template arguments, not a launch.
      bool AfterOperator = I > 0 && Toks[I - 1].Kind == tok::raw_identifier &&
                           Toks[I - 1].Text == "operator";
      if (unsigned N = spacedTriple(Toks, I, +1, Source); N && !AfterOperator) {
        respell(Out, Toks, I, N, '<');
        Changed = true;
        OpenAt.push_back(Depth);
        I += N - 1;
      }
      continue;
    }
    if (chevrons(K) < 0 && !OpenAt.empty() && OpenAt.back() == Depth) {
      if (unsigned N = spacedTriple(Toks, I, -1, Source)) {
        respell(Out, Toks, I, N, '>');
        Changed = true;
        OpenAt.pop_back();
        I += N - 1;
      }
    }
  }
  if (!Changed)
    return std::nullopt;
  return Out;
}

std::optional<std::string> respellAlignasAfterSpaceQualifier(llvm::StringRef Source) {
  if (!Source.contains("alignas"))
    return std::nullopt;
  std::vector<RawToken> Toks = rawTokens(Source);
  std::string Out = Source.str();
  bool Changed = false;
  for (size_t I = 0; I + 2 < Toks.size(); ++I) {
    if (Toks[I].Kind != tok::raw_identifier ||
        !llvm::is_contained({"__shared__", "__device__", "__constant__", "__managed__"},
                            Toks[I].Text))
      continue;
    if (Toks[I + 1].Kind != tok::raw_identifier || Toks[I + 1].Text != "alignas" ||
        Toks[I + 2].Kind != tok::l_paren)
      continue;
    // The matching parenthesis of alignas( ... ).
    size_t J = I + 2;
    int Depth = 0;
    for (; J < Toks.size(); ++J) {
      Depth += Toks[J].Kind == tok::l_paren ? 1 : Toks[J].Kind == tok::r_paren ? -1 : 0;
      if (Depth == 0)
        break;
    }
    if (J == Toks.size())
      break;
    // `__shared__ alignas(16)` -> `alignas(16) __shared__`: the same
    // characters, the gap between them kept in the middle.
    size_t QBegin = Toks[I].Offset, QEnd = QBegin + Toks[I].Length;
    size_t ABegin = Toks[I + 1].Offset, AEnd = Toks[J].Offset + Toks[J].Length;
    std::string Qualifier = Out.substr(QBegin, QEnd - QBegin);
    std::string Gap = Out.substr(QEnd, ABegin - QEnd);
    std::string Alignas = Out.substr(ABegin, AEnd - ABegin);
    Out.replace(QBegin, AEnd - QBegin, Alignas + Gap + Qualifier);
    Changed = true;
    I = J;
  }
  if (!Changed)
    return std::nullopt;
  return Out;
}

std::optional<std::string> respellNvccDialect(llvm::StringRef Source) {
  std::optional<std::string> Launches = respellSpacedLaunches(Source);
  std::optional<std::string> Attributes =
      respellAlignasAfterSpaceQualifier(Launches ? llvm::StringRef(*Launches) : Source);
  return Attributes ? Attributes : Launches;
}

bool respellNvccDialectInMainFile(SourceManager &SM) {
  FileID Main = SM.getMainFileID();
  if (Main.isInvalid())
    return false;
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(Main);
  if (!Entry)
    return false;
  bool Invalid = false;
  llvm::StringRef Text = SM.getBufferData(Main, &Invalid);
  if (Invalid)
    return false;
  std::optional<std::string> Respelled = respellNvccDialect(Text);
  if (!Respelled)
    return false;
  SM.overrideFileContents(*Entry, llvm::MemoryBuffer::getMemBufferCopy(
                                      *Respelled, Entry->getName()));
  return true;
}

} // namespace warpcheck::analysis
