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

Value contextToJson(const std::vector<std::string> &Context) {
  Array Out;
  for (const std::string &C : Context)
    Out.push_back(C);
  return Out;
}

Value argumentsToJson(const std::map<unsigned, analysis::BoundArgument> &Arguments) {
  Object Args;
  for (const auto &[Index, Arg] : Arguments) {
    Object A;
    if (Arg.Integer)
      A["integer"] = *Arg.Integer;
    if (Arg.PointerOffsetBytes)
      A["pointer_offset_bytes"] = *Arg.PointerOffsetBytes;
    if (Arg.CommandLineDefault)
      A["command_line_default"] = *Arg.CommandLineDefault;
    if (Arg.Multiple)
      A["multiple"] = *Arg.Multiple;
    Args[std::to_string(Index)] = std::move(A);
  }
  return Args;
}

/// The location, context and arguments of a launch or a call.
bool placeFromJson(const Object &O, std::string &Location, std::vector<std::string> &Context,
                   std::map<unsigned, analysis::BoundArgument> &Arguments) {
  if (std::optional<llvm::StringRef> L = O.getString("location"))
    Location = L->str();
  if (const Array *C = O.getArray("context"))
    for (const Value &S : *C)
      if (std::optional<llvm::StringRef> T = S.getAsString())
        Context.push_back(T->str());
  if (const Object *Args = O.getObject("arguments"))
    for (const auto &[Index, AV] : *Args) {
      unsigned I = 0;
      const Object *A = AV.getAsObject();
      if (!A || llvm::StringRef(Index).getAsInteger(10, I))
        return false;
      analysis::BoundArgument Arg;
      Arg.Integer = A->getInteger("integer");
      Arg.PointerOffsetBytes = A->getInteger("pointer_offset_bytes");
      Arg.CommandLineDefault = A->getInteger("command_line_default");
      // A multiple is a positive number (1 says nothing).
      if (std::optional<std::int64_t> M = A->getInteger("multiple"); M && *M > 1)
        Arg.Multiple = M;
      Arguments[I] = Arg;
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
      O["context"] = contextToJson(X.Context);
      O["arguments"] = argumentsToJson(X.Arguments);
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
      if (!placeFromJson(*O, X.Location, X.Context, X.Arguments))
        return false;
      Out[Kernel.str()].push_back(std::move(X));
    }
  }
  return true;
}

Value crossUnitCallsToJson(const analysis::CrossUnitCalls &C) {
  Object Out;
  for (const auto &[Function, Calls] : C) {
    Array List;
    for (const analysis::CrossUnitCall &X : Calls)
      List.push_back(Object{{"location", X.Location},
                            {"context", contextToJson(X.Context)},
                            {"arguments", argumentsToJson(X.Arguments)}});
    Out[Function] = std::move(List);
  }
  return Out;
}

bool crossUnitCallsFromJson(const Value &V, analysis::CrossUnitCalls &Out) {
  const Object *Table = V.getAsObject();
  if (!Table)
    return false;
  for (const auto &[Function, ListV] : *Table) {
    const Array *List = ListV.getAsArray();
    if (!List)
      return false;
    for (const Value &Item : *List) {
      const Object *O = Item.getAsObject();
      analysis::CrossUnitCall X;
      if (!O || !placeFromJson(*O, X.Location, X.Context, X.Arguments))
        return false;
      Out[Function.str()].push_back(std::move(X));
    }
  }
  return true;
}

bool readOtherUnitsTable(const std::string &Path, OtherUnitsTable &Out, std::string &Error) {
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
  const Object *O = Parsed->getAsObject();
  const Value *Launches = O ? O->get("launches") : nullptr;
  const Value *Calls = O ? O->get("calls") : nullptr;
  if (!Launches || !Calls || !crossUnitLaunchesFromJson(*Launches, Out.Launches) ||
      !crossUnitCallsFromJson(*Calls, Out.Calls)) {
    Error = Path + ": not a table of launches and calls";
    return false;
  }
  return true;
}

void bindLaunchesAcrossUnits(
    std::vector<TranslationUnitJob> &Jobs, std::vector<JobOutcome> &Outcomes,
    const std::function<std::vector<JobOutcome>(const std::vector<TranslationUnitJob> &)>
        &Rerun) {
  // Every launch of another unit's kernel and every call of another
  // unit's function, in job order.
  OtherUnitsTable Table;
  for (const JobOutcome &O : Outcomes)
    if (O.Output) {
      for (const auto &[Kernel, Launches] : O.Output->LaunchesOfOtherUnitsKernels) {
        std::vector<analysis::CrossUnitLaunch> &All = Table.Launches[Kernel];
        All.insert(All.end(), Launches.begin(), Launches.end());
      }
      for (const auto &[Function, Calls] : O.Output->CallsOfOtherUnitsFunctions) {
        std::vector<analysis::CrossUnitCall> &All = Table.Calls[Function];
        All.insert(All.end(), Calls.begin(), Calls.end());
      }
    }
  std::vector<size_t> Again;
  for (size_t I = 0; I < Outcomes.size(); ++I) {
    // A unit parsed for its launches only is not analysed again.
    if (!Outcomes[I].Output || Jobs[I].LaunchesOnly)
      continue;
    const JobResult &R = *Outcomes[I].Output;
    if (llvm::any_of(R.KernelsWithoutLaunch,
                     [&](const std::string &K) { return Table.Launches.count(K) != 0; }) ||
        llvm::any_of(R.FunctionsWithoutCaller,
                     [&](const std::string &F) { return Table.Calls.count(F) != 0; }))
      Again.push_back(I);
  }
  llvm::SmallString<128> Path;
  if (!Again.empty() && !llvm::sys::fs::createTemporaryFile("warpcheck-launches", "json", Path)) {
    std::error_code EC;
    {
      llvm::raw_fd_ostream OS(Path, EC);
      if (!EC)
        OS << Value(Object{{"launches", crossUnitLaunchesToJson(Table.Launches)},
                           {"calls", crossUnitCallsToJson(Table.Calls)}});
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
