//===- JobResult.cpp - what one translation-unit job gives, typed ---------===//

#include "JobResult.h"
#include "CrossUnitLaunches.h"
#include "JsonFields.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"

namespace warpcheck::tool {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

static constexpr const char *CrossUnitLaunchesKey = "cross_unit_launches";
static constexpr const char *KernelsWithoutLaunchKey = "kernels_without_launch";
static constexpr const char *CrossUnitCallsKey = "cross_unit_calls";
static constexpr const char *FunctionsWithoutCallerKey = "functions_without_caller";
static constexpr const char *DependenciesKey = "dependencies";

std::string contentDigest(llvm::StringRef Data) {
  llvm::BLAKE3Result<> Digest = llvm::BLAKE3::hash(llvm::arrayRefFromStringRef(Data));
  return llvm::toHex(Digest, /*LowerCase=*/true);
}

/// Each object of the array Key of O, read by FromJson.
template <class Entry>
static std::vector<Entry> entriesOf(const Object &O, llvm::StringRef Key,
                                    Entry (*FromJson)(const Object &)) {
  std::vector<Entry> Out;
  if (const Array *A = O.getArray(Key))
    for (const Value &V : *A)
      if (const Object *E = V.getAsObject())
        Out.push_back(FromJson(*E));
  return Out;
}

template <class Entry> static Array objectsOf(const std::vector<Entry> &Entries) {
  Array Out;
  for (const Entry &E : Entries)
    Out.push_back(toJson(E));
  return Out;
}

Object toJson(const JobResult &R) {
  Object O{{"file", R.File},
           {"headers", strings(R.Headers)},
           {"errors", objectsOf(R.Errors)},
           {"findings", objectsOf(R.Findings)},
           {"kernels", objectsOf(R.Kernels)}};
  if (R.Input)
    O["input"] = toJson(*R.Input);
  if (!R.LaunchesOfOtherUnitsKernels.empty())
    O[CrossUnitLaunchesKey] = crossUnitLaunchesToJson(R.LaunchesOfOtherUnitsKernels);
  if (!R.KernelsWithoutLaunch.empty())
    O[KernelsWithoutLaunchKey] = strings(R.KernelsWithoutLaunch);
  if (!R.CallsOfOtherUnitsFunctions.empty())
    O[CrossUnitCallsKey] = crossUnitCallsToJson(R.CallsOfOtherUnitsFunctions);
  if (!R.FunctionsWithoutCaller.empty())
    O[FunctionsWithoutCallerKey] = strings(R.FunctionsWithoutCaller);
  if (!R.Dependencies.empty()) {
    Array Files;
    for (const FileDigest &D : R.Dependencies)
      Files.push_back(Object{{"file", D.File}, {"digest", D.Digest}});
    O[DependenciesKey] = std::move(Files);
  }
  return O;
}

JobResult jobResultFromJson(const Object &O) {
  JobResult R;
  R.File = O.getString("file").value_or("").str();
  if (const Object *I = O.getObject("input"))
    R.Input = inputFromJson(*I);
  R.Headers = stringsOf(O.getArray("headers"));
  R.Errors = entriesOf(O, "errors", errorFromJson);
  R.Findings = entriesOf(O, "findings", findingFromJson);
  R.Kernels = entriesOf(O, "kernels", kernelFromJson);
  if (const Value *L = O.get(CrossUnitLaunchesKey))
    crossUnitLaunchesFromJson(*L, R.LaunchesOfOtherUnitsKernels);
  R.KernelsWithoutLaunch = stringsOf(O.getArray(KernelsWithoutLaunchKey));
  if (const Value *C = O.get(CrossUnitCallsKey))
    crossUnitCallsFromJson(*C, R.CallsOfOtherUnitsFunctions);
  R.FunctionsWithoutCaller = stringsOf(O.getArray(FunctionsWithoutCallerKey));
  if (const Array *Files = O.getArray(DependenciesKey))
    for (const Value &V : *Files)
      if (const Object *D = V.getAsObject())
        R.Dependencies.push_back({stringField(*D, "file").value_or(""),
                                  stringField(*D, "digest").value_or("")});
  return R;
}

} // namespace warpcheck::tool
