//===- JsonFields.h - the fields of the typed entries' JSON ---------------===//
//
// What every typed entry's toJson and fromJson (ReportEntries.h,
// KernelEntries.h, JobResult.h) needs: an absent value written as null, and
// lists of strings. A field of the wrong type reads as absent.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_JSONFIELDS_H
#define WARPCHECK_TOOL_JSONFIELDS_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool {

template <class T> llvm::json::Value orNull(const std::optional<T> &V) {
  return V ? llvm::json::Value(*V) : llvm::json::Value(nullptr);
}

inline std::optional<std::string> stringField(const llvm::json::Object &O, llvm::StringRef Key) {
  if (std::optional<llvm::StringRef> S = O.getString(Key))
    return S->str();
  return std::nullopt;
}

inline llvm::json::Array strings(const std::vector<std::string> &List) {
  llvm::json::Array Out;
  for (const std::string &S : List)
    Out.push_back(S);
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

} // namespace warpcheck::tool

#endif
