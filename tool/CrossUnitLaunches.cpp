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
    if (Arg.Multiple && Arg.Residue)
      A["residue"] = Arg.Residue;
    Args[std::to_string(Index)] = std::move(A);
  }
  return Args;
}

/// Arguments by parameter index, as argumentsToJson writes them.
bool argumentsFromJson(const Object *Args, std::map<unsigned, analysis::BoundArgument> &Arguments) {
  if (Args)
    for (const auto &[Index, AV] : *Args) {
      unsigned I = 0;
      const Object *A = AV.getAsObject();
      if (!A || llvm::StringRef(Index).getAsInteger(10, I))
        return false;
      analysis::BoundArgument Arg;
      Arg.Integer = A->getInteger("integer");
      Arg.PointerOffsetBytes = A->getInteger("pointer_offset_bytes");
      Arg.CommandLineDefault = A->getInteger("command_line_default");
      // A multiple is a positive number (1 says nothing), its residue less
      // than it (anything else is not what argumentsToJson writes: none).
      if (std::optional<std::int64_t> M = A->getInteger("multiple"); M && *M > 1) {
        std::int64_t Residue = A->getInteger("residue").value_or(0);
        if (Residue >= 0 && Residue < *M) {
          Arg.Multiple = M;
          Arg.Residue = Residue;
        }
      }
      Arguments[I] = Arg;
    }
  return true;
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
  return argumentsFromJson(O.getObject("arguments"), Arguments);
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
    for (const analysis::CrossUnitCall &X : Calls) {
      Object O{{"location", X.Location},
               {"context", contextToJson(X.Context)},
               {"arguments", argumentsToJson(X.Arguments)}};
      if (!X.ObjectConstructor.empty()) {
        O["object_constructor"] = X.ObjectConstructor;
        O["object_constructor_arguments"] = argumentsToJson(X.ObjectConstructorArguments);
      }
      if (!X.ObjectFields.empty()) {
        Object Fields;
        for (const auto &[Name, V] : X.ObjectFields)
          Fields[Name] = V;
        O["object_fields"] = std::move(Fields);
      }
      if (X.WithoutArguments)
        O["without_arguments"] = true;
      List.push_back(std::move(O));
    }
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
      if (!O || !placeFromJson(*O, X.Location, X.Context, X.Arguments) ||
          !argumentsFromJson(O->getObject("object_constructor_arguments"),
                             X.ObjectConstructorArguments))
        return false;
      if (std::optional<llvm::StringRef> C = O->getString("object_constructor"))
        X.ObjectConstructor = C->str();
      if (const Object *Fields = O->getObject("object_fields"))
        for (const auto &[Name, V] : *Fields)
          if (std::optional<std::int64_t> I = V.getAsInteger())
            X.ObjectFields[Name.str()] = *I;
      X.WithoutArguments = O->getBoolean("without_arguments").value_or(false);
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
  // What each unit's last run was given of the table (its entries for the
  // unit's kernels without launch and functions without caller, as JSON):
  // a unit runs again when that changes. A chain of calls through units
  // (main.cpp calls Test::operator() of test.cpp, which builds a
  // PiEstimator and calls its operator(), whose launches are in
  // piestimator.cu) takes a round per link; units parsed for their
  // launches only run again too when they are a link, to pass the calls on.
  std::vector<std::string> Given(Outcomes.size());
  // The kernels and functions each unit found without a launch or caller
  // of its own, from its first run (a run given their calls no longer
  // lists them).
  std::vector<std::set<std::string>> Kernels(Outcomes.size()), Functions(Outcomes.size());
  for (unsigned Round = 0; Round < MaxCrossUnitRounds; ++Round) {
    for (size_t I = 0; I < Outcomes.size(); ++I)
      if (Outcomes[I].Output) {
        Kernels[I].insert(Outcomes[I].Output->KernelsWithoutLaunch.begin(),
                          Outcomes[I].Output->KernelsWithoutLaunch.end());
        Functions[I].insert(Outcomes[I].Output->FunctionsWithoutCaller.begin(),
                            Outcomes[I].Output->FunctionsWithoutCaller.end());
      }
    // Every launch of another unit's kernel and every call of another
    // unit's function, in job order, from each unit's latest run.
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
      if (!Outcomes[I].Output)
        continue;
      analysis::CrossUnitLaunches Launches;
      analysis::CrossUnitCalls Calls;
      // A unit parsed for its launches only reports no kernel: only the
      // calls it is given matter to it.
      if (!Jobs[I].LaunchesOnly)
        for (const std::string &K : Kernels[I])
          if (auto It = Table.Launches.find(K); It != Table.Launches.end())
            Launches.insert(*It);
      for (const std::string &F : Functions[I])
        if (auto It = Table.Calls.find(F); It != Table.Calls.end())
          Calls.insert(*It);
      if (Launches.empty() && Calls.empty())
        continue;
      std::string Mine;
      llvm::raw_string_ostream OS(Mine);
      OS << Value(Object{{"launches", crossUnitLaunchesToJson(Launches)},
                         {"calls", crossUnitCallsToJson(Calls)}});
      if (OS.str() != Given[I]) {
        Given[I] = OS.str();
        Again.push_back(I);
      }
    }
    if (Again.empty())
      return;
    llvm::SmallString<128> Path;
    if (llvm::sys::fs::createTemporaryFile("warpcheck-launches", "json", Path))
      return;
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
      // A run that fails keeps the previous run's result.
      for (size_t J = 0; J < Again.size() && J < Second.size(); ++J)
        if (Second[J].Output)
          Outcomes[Again[J]] = std::move(Second[J]);
    }
    llvm::sys::fs::remove(Path);
    if (EC)
      return;
  }
}

} // namespace warpcheck::tool
