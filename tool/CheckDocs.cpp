//===- CheckDocs.cpp - the checks' documentation pages, embedded ----------===//

#include "CheckDocs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <vector>

#ifndef WARPCHECK_DOCS_URL
#define WARPCHECK_DOCS_URL ""
#endif

namespace warpcheck::tool {

namespace {
struct EmbeddedPage {
  const char *Check;
  const char *Text;
};
const EmbeddedPage Pages[] = {
#include "CheckDocs.inc"
};
} // namespace

llvm::StringRef checkDocPage(llvm::StringRef Check) {
  for (const EmbeddedPage &P : Pages)
    if (Check == P.Check)
      return P.Text;
  return "";
}

std::string checkDocUri(llvm::StringRef Check) {
  return (llvm::Twine(WARPCHECK_DOCS_URL) + Check + ".rst").str();
}

static std::vector<llvm::StringRef> linesOf(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  std::vector<llvm::StringRef> Out;
  for (llvm::StringRef L : Lines)
    Out.push_back(L.rtrim("\r \t"));
  return Out;
}

static size_t indentOf(llvm::StringRef Line) { return Line.size() - Line.ltrim(' ').size(); }

/// A section title's underline: one punctuation character repeated, at
/// least as long as the title.
static bool isUnderline(llvm::StringRef Line, llvm::StringRef Title) {
  if (Line.empty() || Title.trim().empty() || Line.size() < Title.trim().size())
    return false;
  char C = Line[0];
  return llvm::StringRef("=-~^\"'*+#").contains(C) &&
         llvm::all_of(Line, [C](char X) { return X == C; });
}

/// Inline markup: ``literal``, `interpreted`, `link <url>`_, `Target`_ and
/// :role:`text`, as Markdown (code spans and links) or as plain text.
static std::string inlineMarkup(llvm::StringRef Text, bool Markdown) {
  std::string Out;
  while (!Text.empty()) {
    size_t Tick = Text.find('`');
    if (Tick == llvm::StringRef::npos) {
      Out += Text;
      break;
    }
    llvm::StringRef Before = Text.take_front(Tick);
    // :role:`x` keeps x.
    if (Before.ends_with(":")) {
      size_t RoleStart = Before.drop_back().rfind(':');
      if (RoleStart != llvm::StringRef::npos &&
          !Before.substr(RoleStart + 1, Before.size() - RoleStart - 2).contains(' '))
        Before = Before.take_front(RoleStart);
    }
    Out += Before;
    Text = Text.drop_front(Tick);
    bool Literal = Text.starts_with("``");
    llvm::StringRef Mark = Literal ? "``" : "`";
    size_t End = Text.find(Mark, Mark.size());
    if (End == llvm::StringRef::npos) {
      Out += Text;
      break;
    }
    llvm::StringRef Inner = Text.slice(Mark.size(), End);
    Text = Text.drop_front(End + Mark.size());
    if (Literal) {
      Out += Markdown ? (llvm::Twine("`") + Inner + "`").str() : Inner.str();
      continue;
    }
    bool Link = Text.consume_front("_");
    Text.consume_front("_");
    size_t Open = Inner.rfind('<');
    if (Link && Open != llvm::StringRef::npos && Inner.ends_with(">")) {
      llvm::StringRef Label = Inner.take_front(Open).trim();
      llvm::StringRef Url = Inner.slice(Open + 1, Inner.size() - 1);
      Out += Markdown ? (llvm::Twine("[") + Label + "](" + Url + ")").str()
                      : (llvm::Twine(Label) + " (" + Url + ")").str();
    } else if (Link) {
      Out += Inner;
    } else {
      Out += Markdown ? (llvm::Twine("`") + Inner + "`").str() : Inner.str();
    }
  }
  return Out;
}

/// Index of the first line after the title directive, the title and its
/// underline.
static size_t bodyStart(const std::vector<llvm::StringRef> &Lines) {
  for (size_t I = 0; I + 1 < Lines.size(); ++I)
    if (isUnderline(Lines[I + 1], Lines[I]) && !Lines[I].starts_with(".."))
      return I + 2;
  return 0;
}

std::string firstParagraph(llvm::StringRef Rst) {
  std::vector<llvm::StringRef> Lines = linesOf(Rst);
  size_t I = bodyStart(Lines);
  while (I < Lines.size() && Lines[I].empty())
    ++I;
  std::string Paragraph;
  for (; I < Lines.size() && !Lines[I].empty(); ++I)
    Paragraph += (Paragraph.empty() ? "" : " ") + Lines[I].trim().str();
  if (llvm::StringRef(Paragraph).ends_with("::"))
    Paragraph.pop_back();
  return inlineMarkup(Paragraph, /*Markdown=*/false);
}

std::string rstAsText(llvm::StringRef Rst) {
  std::string Out;
  for (llvm::StringRef L : linesOf(Rst))
    if (!L.starts_with(".. title::"))
      Out += L.str() + "\n";
  return llvm::StringRef(Out).trim().str() + "\n";
}

std::string rstToMarkdown(llvm::StringRef Rst) {
  std::vector<llvm::StringRef> Lines = linesOf(Rst);
  std::string Out;
  std::string Adornments; // Underline characters in order of appearance.
  // The block indented deeper than Indent that follows line I, fenced.
  auto Fence = [&](size_t &I, size_t Indent, llvm::StringRef Language) {
    size_t First = I + 1, Last = I + 1;
    size_t Dedent = std::string::npos;
    for (size_t J = I + 1; J < Lines.size(); ++J) {
      if (Lines[J].empty())
        continue;
      if (indentOf(Lines[J]) <= Indent)
        break;
      Dedent = std::min(Dedent, indentOf(Lines[J]));
      Last = J + 1;
    }
    while (First < Last && Lines[First].empty())
      ++First;
    Out += "```" + Language.str() + "\n";
    for (size_t J = First; J < Last; ++J)
      Out += (Lines[J].empty() ? "" : Lines[J].drop_front(Dedent).str()) + "\n";
    Out += "```\n";
    I = Last - 1;
  };
  for (size_t I = 0; I < Lines.size(); ++I) {
    llvm::StringRef L = Lines[I];
    llvm::StringRef Trimmed = L.ltrim(' ');
    if (Trimmed.starts_with(".. title::"))
      continue;
    if (I + 1 < Lines.size() && !Trimmed.empty() && !Trimmed.starts_with("..") &&
        isUnderline(Lines[I + 1], L)) {
      char C = Lines[I + 1][0];
      size_t Level = Adornments.find(C);
      if (Level == std::string::npos) {
        Level = Adornments.size();
        Adornments += C;
      }
      Out += std::string(Level + 1, '#') + " " + inlineMarkup(Trimmed, true) + "\n";
      ++I;
      continue;
    }
    if (Trimmed.consume_front(".. code-block::")) {
      llvm::StringRef Language = Trimmed.trim();
      Fence(I, indentOf(L), Language == "c++" ? "cpp" : Language);
      continue;
    }
    if (Trimmed.consume_front(".. option::")) {
      Out += "#### `" + Trimmed.trim().str() + "`\n";
      continue;
    }
    if (Trimmed.ends_with("::")) {
      llvm::StringRef Text = Trimmed.drop_back(2).rtrim();
      if (!Text.empty())
        Out += inlineMarkup(Text, true) + (Trimmed.ends_with(" ::") ? "" : ":") + "\n\n";
      Fence(I, indentOf(L), "");
      continue;
    }
    Out += inlineMarkup(Trimmed, true) + "\n";
  }
  return llvm::StringRef(Out).ltrim('\n').str();
}

} // namespace warpcheck::tool
