//===- JsonText.h - JSON text for the typed entries' unit tests -----------===//
#ifndef WARPCHECK_TEST_UNIT_JSONTEXT_H
#define WARPCHECK_TEST_UNIT_JSONTEXT_H

#include "JsonFields.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <string>

namespace warpcheck::test {

/// V as the report writes it, compact (keys in order).
inline std::string text(const llvm::json::Value &V) { return tool::compactText(V); }

/// The object Json holds; a test failure and an empty object if none.
inline llvm::json::Object parseObject(llvm::StringRef Json) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Json);
  EXPECT_TRUE(bool(V));
  if (!V || !V->getAsObject())
    return {};
  return *V->getAsObject();
}

} // namespace warpcheck::test

#endif
