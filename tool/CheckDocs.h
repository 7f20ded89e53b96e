//===- CheckDocs.h - the checks' documentation pages, embedded --*- C++ -*-===//
//
// Code scanning shows a rule's help beside each alert: SARIF's rules carry
// the check's page, docs/checks/<check>.rst, which CMake embeds in the
// binary when it builds (cmake/EmbedCheckDocs.cmake), so that the help is
// the page of the very version that found the alert, installed or not.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_CHECKDOCS_H
#define WARPCHECK_TOOL_CHECKDOCS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace warpcheck::tool {

/// The reStructuredText page of Check; empty for a check without one.
llvm::StringRef checkDocPage(llvm::StringRef Check);

/// Where the page is published: WARPCHECK_DOCS_URL (CMake) and the page's
/// file name.
std::string checkDocUri(llvm::StringRef Check);

/// The first paragraph after the page's title, as one line of plain text.
std::string firstParagraph(llvm::StringRef Rst);

/// The page without its title directive, as plain text (rst reads as such).
std::string rstAsText(llvm::StringRef Rst);

/// The page as Markdown: titles as headings, code blocks and literal blocks
/// fenced, inline literals and links converted.
std::string rstToMarkdown(llvm::StringRef Rst);

} // namespace warpcheck::tool

#endif
