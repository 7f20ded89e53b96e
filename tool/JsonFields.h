//===- JsonFields.h - the fields of the typed entries' JSON ---------------===//
//
// What every typed entry's toJson and fromJson (ReportEntries.h,
// KernelEntries.h, AosEntries.h, JobResult.h) needs: an absent value written
// as null, lists of strings, enumerators by name, and the assumptions an
// entry's figures rest on. A field of the wrong type reads as absent.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_JSONFIELDS_H
#define WARPCHECK_TOOL_JSONFIELDS_H

#include "warpcheck/analysis/AccessKinds.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// Text from the code under review (a source line, a file name, a
/// message naming its identifiers) as a JSON string: bytes that are not
/// UTF-8 (a Latin-1 source file) become U+FFFD. llvm::json does the same
/// itself in a release build, and asserts in a build with assertions.
inline llvm::json::Value text(llvm::StringRef S) {
  return llvm::json::isUTF8(S) ? llvm::json::Value(S.str()) : llvm::json::Value(llvm::json::fixUTF8(S));
}

template <class T> llvm::json::Value orNull(const std::optional<T> &V) {
  return V ? llvm::json::Value(*V) : llvm::json::Value(nullptr);
}
inline llvm::json::Value orNull(const std::optional<std::string> &V) {
  return V ? text(*V) : llvm::json::Value(nullptr);
}

inline std::optional<std::string> stringField(const llvm::json::Object &O, llvm::StringRef Key) {
  if (std::optional<llvm::StringRef> S = O.getString(Key))
    return S->str();
  return std::nullopt;
}

inline llvm::json::Array strings(const std::vector<std::string> &List) {
  llvm::json::Array Out;
  for (const std::string &S : List)
    Out.push_back(text(S));
  return Out;
}

inline llvm::json::Array integers(const std::vector<std::int64_t> &List) {
  llvm::json::Array Out;
  for (std::int64_t N : List)
    Out.push_back(N);
  return Out;
}

/// V as compact text, keys in order: what the JSON report writes, and the
/// identity of an entry (the same text, the same entry).
inline std::string compactText(const llvm::json::Value &V) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << V;
  return OS.str();
}

/// The strings of A (none when A is missing).
inline std::vector<std::string> stringsOf(const llvm::json::Array *A) {
  std::vector<std::string> Out;
  if (A)
    for (const llvm::json::Value &V : *A)
      if (std::optional<llvm::StringRef> S = V.getAsString())
        Out.push_back(S->str());
  return Out;
}

/// The enumerator whose name (NameOf) is Name; Default for any other text.
template <class Enum, size_t N>
Enum enumNamed(std::optional<llvm::StringRef> Name, const Enum (&All)[N],
               const char *(*NameOf)(Enum), Enum Default) {
  for (Enum E : All)
    if (Name && *Name == NameOf(E))
      return E;
  return Default;
}

/// An entry's assumptions as the contract writes them: "assumptions" (the
/// sentences) and "assumption_kinds" (their kinds, in the same order).
inline void putAssumptions(llvm::json::Object &O,
                           const std::vector<analysis::Assumption> &List) {
  llvm::json::Array Texts, Kinds;
  for (const analysis::Assumption &X : List) {
    Texts.push_back(X.Text);
    Kinds.push_back(analysis::assumptionKindName(X.Kind));
  }
  O["assumptions"] = std::move(Texts);
  O["assumption_kinds"] = std::move(Kinds);
}

inline std::vector<analysis::Assumption> assumptionsOf(const llvm::json::Object &O) {
  std::vector<std::string> Texts = stringsOf(O.getArray("assumptions"));
  std::vector<std::string> Kinds = stringsOf(O.getArray("assumption_kinds"));
  std::vector<analysis::Assumption> Out;
  for (size_t I = 0; I < Texts.size(); ++I) {
    std::optional<llvm::StringRef> Kind;
    if (I < Kinds.size())
      Kind = Kinds[I];
    Out.push_back({enumNamed(Kind, analysis::AllAssumptionKinds, analysis::assumptionKindName,
                             analysis::AssumptionKind::DataDependentAddress),
                   Texts[I]});
  }
  return Out;
}

} // namespace warpcheck::tool

#endif
