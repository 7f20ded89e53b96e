//===- ReportEntriesTest.cpp - typed findings, errors and inputs ----------===//
//
// The worker's JSON read into the typed entries and written back is the
// same JSON, for every shape a worker or the merge writes: --format=json is
// a contract (docs/json-format.md).
//
//===----------------------------------------------------------------------===//

#include "ReportEntries.h"

#include "JsonText.h"

#include <gtest/gtest.h>

#include <string>

using namespace warpcheck::tool;
using warpcheck::test::parseObject;
using warpcheck::test::text;

namespace {

TEST(ReportEntries, FindingRoundTrips) {
  const char *Json =
      R"({"check":"cuda-shared-bank-conflict","column":5,"file":"/w/k.cu","fixes":[)"
      R"({"column":24,"file":"/w/k.cu","length":2,"line":9,"offset":301,"replacement":"33"}],)"
      R"("line":15,"message":"32-way bank conflict","notes":[{"column":3,"file":"/w/k.cu",)"
      R"("line":9,"message":"padding","source_line":"  float t[32][32];"},)"
      R"({"column":null,"file":null,"line":null,"message":"no file"}],)"
      R"("severity":"error","source_line":"    t[x][y] = 1;"})";
  llvm::json::Object O = parseObject(Json);
  Finding F = findingFromJson(O);
  EXPECT_EQ(F.Check, "cuda-shared-bank-conflict");
  EXPECT_EQ(F.Severity, "error");
  ASSERT_EQ(F.Notes.size(), 2u);
  EXPECT_FALSE(F.Notes[1].File);
  ASSERT_EQ(F.Fixes.size(), 1u);
  EXPECT_EQ(F.Fixes[0].Offset, 301);
  EXPECT_EQ(text(toJson(F)), Json);
  // The JSON report leaves the line text out, of the notes too.
  std::string Without = text(toJson(F, /*WithSourceLine=*/false));
  EXPECT_EQ(Without.find("source_line"), std::string::npos) << Without;
}

TEST(ReportEntries, ErrorsWithAndWithoutAPosition) {
  const char *Compiler = R"({"check":"clang-diagnostic-error","column":9,"file":"b.cu",)"
                         R"("line":3,"message":"expected expression","source_line":"  x = ;"})";
  const char *Input = R"({"file":"missing.cu","message":"cannot be read"})";
  ReportedError E = errorFromJson(parseObject(Compiler));
  EXPECT_EQ(*E.Line, 3);
  EXPECT_EQ(text(toJson(E)), Compiler);
  ReportedError I = errorFromJson(parseObject(Input));
  EXPECT_FALSE(I.HasPosition);
  EXPECT_FALSE(I.Check);
  EXPECT_EQ(text(toJson(I)), Input);
}

TEST(ReportEntries, InputsOfEveryKind) {
  for (const char *Json :
       {R"({"errors":0,"file":"a.cu","kernels_analysed":2,"kernels_with_errors":0,)"
        R"("status":"analysed"})",
        R"({"cause":"the parse stopped","errors":1,"file":"b.cu","kernels_analysed":0,)"
        R"("kernels_with_errors":1,"notes":["-arch=native modelled as sm_90"],)"
        R"("status":"analysed_with_errors"})",
        R"({"file":"k.cu","notes":["analysed through w.cu, which includes it"],)"
        R"("status":"included"})",
        R"({"cause":"the analysis produced no summary","file":"c.cu","status":"not_analysed"})"})
    EXPECT_EQ(text(toJson(inputFromJson(parseObject(Json)))), Json);
}

} // namespace
