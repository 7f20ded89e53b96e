//===- CrossUnitLaunches.cpp - launches one unit makes of another's kernels ===//

#include "CrossUnitLaunches.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

namespace warpcheck::tool {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

Value dim3ToJson(const analysis::Dim3 &D) { return Array{D.X, D.Y, D.Z}; }

bool dim3FromJson(const Value *V, analysis::Dim3 &D) {
  const Array *A = V ? V->getAsArray() : nullptr;
  if (!A || A->size() != 3)
    return false;
  std::uint32_t *Out[3] = {&D.X, &D.Y, &D.Z};
  for (unsigned I = 0; I < 3; ++I) {
    std::optional<std::int64_t> N = (*A)[I].getAsInteger();
    if (!N || *N <= 0 || *N > 0xffffffffLL)
      return false;
    *Out[I] = static_cast<std::uint32_t>(*N);
  }
  return true;
}

} // namespace

Value crossUnitLaunchesToJson(const analysis::CrossUnitLaunches &L) {
  Object Out;
  for (const auto &[Kernel, Launches] : L) {
    Array List;
    for (const analysis::CrossUnitLaunch &X : Launches) {
      Object O{{"block", dim3ToJson(X.Block)}, {"location", X.Location}};
      if (X.GridKnown)
        O["grid"] = dim3ToJson(X.Grid);
      if (X.DynamicSharedBytes)
        O["shared_bytes"] = static_cast<std::int64_t>(*X.DynamicSharedBytes);
      Array Context;
      for (const std::string &C : X.Context)
        Context.push_back(C);
      O["context"] = std::move(Context);
      Object Args;
      for (const auto &[Index, Arg] : X.Arguments) {
        Object A;
        if (Arg.Integer)
          A["integer"] = *Arg.Integer;
        if (Arg.PointerOffsetBytes)
          A["pointer_offset_bytes"] = *Arg.PointerOffsetBytes;
        Args[std::to_string(Index)] = std::move(A);
      }
      O["arguments"] = std::move(Args);
      List.push_back(std::move(O));
    }
    Out[Kernel] = std::move(List);
  }
  return Out;
}

bool crossUnitLaunchesFromJson(const Value &V, analysis::CrossUnitLaunches &Out) {
  const Object *Table = V.getAsObject();
  if (!Table)
    return false;
  for (const auto &[Kernel, ListV] : *Table) {
    const Array *List = ListV.getAsArray();
    if (!List)
      return false;
    for (const Value &Item : *List) {
      const Object *O = Item.getAsObject();
      analysis::CrossUnitLaunch X;
      if (!O || !dim3FromJson(O->get("block"), X.Block))
        return false;
      X.GridKnown = dim3FromJson(O->get("grid"), X.Grid);
      if (std::optional<std::int64_t> B = O->getInteger("shared_bytes"))
        X.DynamicSharedBytes = static_cast<std::uint64_t>(*B);
      if (std::optional<llvm::StringRef> L = O->getString("location"))
        X.Location = L->str();
      if (const Array *C = O->getArray("context"))
        for (const Value &S : *C)
          if (std::optional<llvm::StringRef> T = S.getAsString())
            X.Context.push_back(T->str());
      if (const Object *Args = O->getObject("arguments"))
        for (const auto &[Index, AV] : *Args) {
          unsigned I = 0;
          const Object *A = AV.getAsObject();
          if (!A || llvm::StringRef(Index).getAsInteger(10, I))
            return false;
          analysis::BoundArgument Arg;
          Arg.Integer = A->getInteger("integer");
          Arg.PointerOffsetBytes = A->getInteger("pointer_offset_bytes");
          X.Arguments[I] = Arg;
        }
      Out[Kernel.str()].push_back(std::move(X));
    }
  }
  return true;
}

bool readCrossUnitLaunches(const std::string &Path, analysis::CrossUnitLaunches &Out,
                           std::string &Error) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer) {
    Error = "cannot read " + Path + ": " + Buffer.getError().message();
    return false;
  }
  llvm::Expected<Value> Parsed = llvm::json::parse((*Buffer)->getBuffer());
  if (!Parsed) {
    Error = Path + ": " + llvm::toString(Parsed.takeError());
    return false;
  }
  if (!crossUnitLaunchesFromJson(*Parsed, Out)) {
    Error = Path + ": not a table of launches";
    return false;
  }
  return true;
}

void bindLaunchesAcrossUnits(
    std::vector<TranslationUnitJob> &Jobs, std::vector<JobOutcome> &Outcomes,
    const std::function<std::vector<JobOutcome>(const std::vector<TranslationUnitJob> &)>
        &Rerun) {
  // Every launch of another unit's kernel, in job order.
  analysis::CrossUnitLaunches Table;
  for (const JobOutcome &O : Outcomes)
    if (O.Output)
      for (const auto &[Kernel, Launches] : O.Output->LaunchesOfOtherUnitsKernels) {
        std::vector<analysis::CrossUnitLaunch> &All = Table[Kernel];
        All.insert(All.end(), Launches.begin(), Launches.end());
      }
  std::vector<size_t> Again;
  for (size_t I = 0; I < Outcomes.size() && !Table.empty(); ++I) {
    if (!Outcomes[I].Output)
      continue;
    for (const std::string &Name : Outcomes[I].Output->KernelsWithoutLaunch)
      if (Table.count(Name)) {
        Again.push_back(I);
        break;
      }
  }
  llvm::SmallString<128> Path;
  if (!Again.empty() && !llvm::sys::fs::createTemporaryFile("warpcheck-launches", "json", Path)) {
    std::error_code EC;
    {
      llvm::raw_fd_ostream OS(Path, EC);
      if (!EC)
        OS << crossUnitLaunchesToJson(Table);
    }
    if (!EC) {
      std::vector<TranslationUnitJob> Subset;
      for (size_t I : Again) {
        Jobs[I].OtherUnitsFile = Path.str().str();
        Subset.push_back(Jobs[I]);
      }
      std::vector<JobOutcome> Second = Rerun(Subset);
      // A second run that fails keeps the first run's result.
      for (size_t J = 0; J < Again.size() && J < Second.size(); ++J)
        if (Second[J].Output)
          Outcomes[Again[J]] = std::move(Second[J]);
    }
    llvm::sys::fs::remove(Path);
  }
}

} // namespace warpcheck::tool
