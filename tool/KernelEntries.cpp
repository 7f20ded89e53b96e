//===- KernelEntries.cpp - kernels, launches and accesses of a run, typed -===//

#include "KernelEntries.h"
#include "JsonFields.h"

namespace warpcheck::tool {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;
using namespace warpcheck::analysis;

namespace {

Value dimsToJson(const Dims &D) { return Array{D[0], D[1], D[2]}; }

std::optional<Dims> dimsOf(const Array *A) {
  if (!A || A->size() != 3)
    return std::nullopt;
  Dims D;
  for (unsigned I = 0; I < 3; ++I) {
    std::optional<std::int64_t> N = (*A)[I].getAsInteger();
    if (!N)
      return std::nullopt;
    D[I] = *N;
  }
  return D;
}

/// The metric a value dependence follows: sectors per request for a
/// global access, wavefronts for a shared one.
const char *dependenceMetric(MemorySpace Space) {
  return Space == MemorySpace::Global ? "sectors_per_request" : "wavefronts_per_request";
}

Object toJson(const LaunchEntry &L) {
  Object O{{"block", dimsToJson(L.Block)},
           {"grid", L.Grid ? dimsToJson(*L.Grid) : Value(nullptr)},
           {"source", L.Source},
           {"description", L.Description},
           {"context", strings(L.Context)},
           {"unevaluated_launches", strings(L.UnevaluatedLaunches)}};
  if (L.DynamicSharedBytes)
    O["dynamic_shared_bytes"] = *L.DynamicSharedBytes;
  if (!L.Location.empty())
    O["location"] = L.Location;
  if (L.WithoutArguments)
    O["without_arguments"] = *L.WithoutArguments;
  return O;
}

LaunchEntry launchFromJson(const Object &O) {
  LaunchEntry L;
  L.Block = dimsOf(O.getArray("block")).value_or(L.Block);
  L.Grid = dimsOf(O.getArray("grid"));
  L.Source = O.getString("source").value_or("").str();
  L.Description = O.getString("description").value_or("").str();
  L.DynamicSharedBytes = O.getInteger("dynamic_shared_bytes");
  L.Location = O.getString("location").value_or("").str();
  L.Context = stringsOf(O.getArray("context"));
  L.UnevaluatedLaunches = stringsOf(O.getArray("unevaluated_launches"));
  L.WithoutArguments = O.getBoolean("without_arguments");
  return L;
}

Object toJson(const ValueDependenceEntry &D, MemorySpace Space) {
  const char *Metric = dependenceMetric(Space);
  Array Samples;
  for (const ValueDependenceEntry::Sample &S : D.Samples)
    Samples.push_back(Object{{"value", S.Value}, {"reached", S.Reached}, {Metric, orNull(S.Metric)}});
  Array Defaults;
  for (const auto &[Name, Value] : D.CommandLineDefaults)
    Defaults.push_back(Object{{"parameter", Name}, {"value", Value}});
  return Object{{"symbols", strings(D.Symbols)}, {"memory_reads", strings(D.MemoryReads)},
                {"representative_value", orNull(D.RepresentativeValue)},
                {"command_line_defaults", std::move(Defaults)},
                {"metric", Metric},
                {"worst", D.Worst},                {"best", D.Best},
                {"condition", D.Condition},        {"truncated", D.Truncated},
                {"samples", std::move(Samples)}};
}

ValueDependenceEntry dependenceFromJson(const Object &O, MemorySpace Space) {
  ValueDependenceEntry D;
  D.Symbols = stringsOf(O.getArray("symbols"));
  D.MemoryReads = stringsOf(O.getArray("memory_reads"));
  D.RepresentativeValue = O.getInteger("representative_value");
  if (const Array *Defaults = O.getArray("command_line_defaults"))
    for (const Value &V : *Defaults)
      if (const Object *X = V.getAsObject())
        if (auto Name = X->getString("parameter"); Name && X->getInteger("value"))
          D.CommandLineDefaults.push_back({Name->str(), *X->getInteger("value")});
  D.Worst = O.getNumber("worst").value_or(0);
  D.Best = O.getNumber("best").value_or(0);
  D.Condition = O.getString("condition").value_or("").str();
  D.Truncated = O.getBoolean("truncated").value_or(false);
  if (const Array *Samples = O.getArray("samples"))
    for (const Value &V : *Samples)
      if (const Object *S = V.getAsObject())
        D.Samples.push_back({S->getInteger("value").value_or(0),
                             S->getBoolean("reached").value_or(false),
                             S->getNumber(dependenceMetric(Space))});
  return D;
}

Object toJson(const InstructionEntry &I) {
  return Object{{"opcode", I.Opcode},
                {"bytes_per_lane", I.BytesPerLane},
                {"file", orNull(I.File)},
                {"line", I.Line},
                {"other_lines", integers(I.OtherLines)},
                {"changes", strings(I.Changes)},
                {"serves", strings(I.Serves)},
                {"counted_with", orNull(I.CountedWith)},
                {"requests_simulated", I.RequestsSimulated},
                {"served_executions", I.ServedExecutions},
                {"sectors_per_request", orNull(I.SectorsPerRequest)},
                {"ideal_sectors_per_request", orNull(I.IdealSectorsPerRequest)},
                {"wavefronts_per_request", orNull(I.WavefrontsPerRequest)},
                {"ideal_wavefronts_per_request", orNull(I.IdealWavefrontsPerRequest)}};
}

InstructionEntry instructionFromJson(const Object &O) {
  InstructionEntry I;
  I.Opcode = O.getString("opcode").value_or("").str();
  I.BytesPerLane = O.getInteger("bytes_per_lane").value_or(0);
  I.File = stringField(O, "file");
  I.Line = O.getInteger("line").value_or(0);
  if (const Array *Other = O.getArray("other_lines"))
    for (const Value &V : *Other)
      if (std::optional<std::int64_t> N = V.getAsInteger())
        I.OtherLines.push_back(*N);
  I.Changes = stringsOf(O.getArray("changes"));
  I.Serves = stringsOf(O.getArray("serves"));
  I.CountedWith = stringField(O, "counted_with");
  I.RequestsSimulated = O.getInteger("requests_simulated").value_or(0);
  I.ServedExecutions = O.getInteger("served_executions").value_or(0);
  I.SectorsPerRequest = O.getNumber("sectors_per_request");
  I.IdealSectorsPerRequest = O.getNumber("ideal_sectors_per_request");
  I.WavefrontsPerRequest = O.getNumber("wavefronts_per_request");
  I.IdealWavefrontsPerRequest = O.getNumber("ideal_wavefronts_per_request");
  return I;
}

Object toJson(const AccessEntry &A) {
  Object O{{"file", orNull(A.File)},
           {"line", orNull(A.Line)},
           {"column", orNull(A.Column)},
           {"expression", A.Expression},
           {"space", spaceName(A.Space)},
           {"op", opName(A.Op)},
           {"bytes_per_lane", A.BytesPerLane},
           {"status", statusName(A.Status)},
           {"requests_simulated", A.RequestsSimulated},
           {"sectors_per_request", orNull(A.SectorsPerRequest)},
           {"ideal_sectors_per_request", orNull(A.IdealSectorsPerRequest)},
           {"lines_per_request", orNull(A.LinesPerRequest)},
           {"ideal_lines_per_request", orNull(A.IdealLinesPerRequest)},
           {"line_efficiency", orNull(A.LineEfficiency)},
           {"wavefronts_per_request", orNull(A.WavefrontsPerRequest)},
           {"ideal_wavefronts_per_request", orNull(A.IdealWavefrontsPerRequest)},
           {"efficiency", orNull(A.Efficiency)},
           {"aggregated", orNull(A.Aggregated)}};
  putAssumptions(O, A.Assumptions);
  if (A.EndLine)
    O["end_line"] = *A.EndLine;
  if (A.SharedVariable)
    O["shared_variable"] = *A.SharedVariable;
  if (A.ConflictDegree)
    O["conflict_degree"] = *A.ConflictDegree;
  if (A.ValueDependence)
    O["value_dependence"] = toJson(*A.ValueDependence, A.Space);
  if (A.DataSource)
    O["data_source"] = *A.DataSource;
  O["instructions_from"] = A.InstructionsFrom;
  Array Instructions;
  for (const InstructionEntry &I : A.Instructions)
    Instructions.push_back(toJson(I));
  O["instructions"] = std::move(Instructions);
  if (!A.CallSites.empty()) {
    Array Calls;
    for (const CallSiteEntry &S : A.CallSites)
      Calls.push_back(Object{{"file", orNull(S.File)},
                             {"line", S.Line},
                             {"column", S.Column},
                             {"requests_simulated", S.RequestsSimulated},
                             {"sectors_per_request", orNull(S.SectorsPerRequest)},
                             {"ideal_sectors_per_request", orNull(S.IdealSectorsPerRequest)},
                             {"wavefronts_per_request", orNull(S.WavefrontsPerRequest)},
                             {"ideal_wavefronts_per_request",
                              orNull(S.IdealWavefrontsPerRequest)}});
    O["call_sites"] = std::move(Calls);
  }
  return O;
}

AccessEntry accessFromJson(const Object &O) {
  AccessEntry A;
  A.File = stringField(O, "file");
  A.Line = O.getInteger("line");
  A.Column = O.getInteger("column");
  A.EndLine = O.getInteger("end_line");
  A.Expression = O.getString("expression").value_or("").str();
  A.Space = enumNamed(O.getString("space"), AllMemorySpaces, spaceName, MemorySpace::Global);
  A.Op = enumNamed(O.getString("op"), AllAccessOps, opName, AccessOp::Load);
  A.BytesPerLane = O.getInteger("bytes_per_lane").value_or(0);
  A.Status = enumNamed(O.getString("status"), AllAccessStatuses, statusName,
                       AccessStatus::Unknown);
  A.RequestsSimulated = O.getInteger("requests_simulated").value_or(0);
  A.SectorsPerRequest = O.getNumber("sectors_per_request");
  A.IdealSectorsPerRequest = O.getNumber("ideal_sectors_per_request");
  A.LinesPerRequest = O.getNumber("lines_per_request");
  A.IdealLinesPerRequest = O.getNumber("ideal_lines_per_request");
  A.LineEfficiency = O.getNumber("line_efficiency");
  A.WavefrontsPerRequest = O.getNumber("wavefronts_per_request");
  A.IdealWavefrontsPerRequest = O.getNumber("ideal_wavefronts_per_request");
  A.Efficiency = O.getNumber("efficiency");
  A.Aggregated = O.getBoolean("aggregated");
  A.SharedVariable = stringField(O, "shared_variable");
  A.ConflictDegree = O.getInteger("conflict_degree");
  A.DataSource = stringField(O, "data_source");
  A.Assumptions = assumptionsOf(O);
  if (const Object *D = O.getObject("value_dependence"))
    A.ValueDependence = dependenceFromJson(*D, A.Space);
  A.InstructionsFrom = O.getString("instructions_from").value_or("source").str();
  if (const Array *Instructions = O.getArray("instructions"))
    for (const Value &V : *Instructions)
      if (const Object *I = V.getAsObject())
        A.Instructions.push_back(instructionFromJson(*I));
  if (const Array *Calls = O.getArray("call_sites"))
    for (const Value &V : *Calls)
      if (const Object *S = V.getAsObject()) {
        CallSiteEntry E;
        E.File = stringField(*S, "file");
        E.Line = S->getInteger("line").value_or(0);
        E.Column = S->getInteger("column").value_or(0);
        E.RequestsSimulated = S->getInteger("requests_simulated").value_or(0);
        E.SectorsPerRequest = S->getNumber("sectors_per_request");
        E.IdealSectorsPerRequest = S->getNumber("ideal_sectors_per_request");
        E.WavefrontsPerRequest = S->getNumber("wavefronts_per_request");
        E.IdealWavefrontsPerRequest = S->getNumber("ideal_wavefronts_per_request");
        A.CallSites.push_back(std::move(E));
      }
  return A;
}

/// "arch", "active_blocks_per_sm", "active_warps_per_sm", "theoretical",
/// "limiter": the kernel's "occupancy" object (its registers are the
/// kernel's fields) and part of an "occupancy_by_arch" entry.
Object occupancyFigures(const OccupancyEntry &E) {
  return Object{{"arch", E.Arch},
                {"active_blocks_per_sm", E.ActiveBlocksPerSM},
                {"active_warps_per_sm", E.ActiveWarpsPerSM},
                {"theoretical", E.Theoretical},
                {"limiter", E.Limiter}};
}

/// The figures from Figures, the registers from RegistersFrom.
OccupancyEntry occupancyFromJson(const Object &Figures, const Object &RegistersFrom) {
  OccupancyEntry E;
  E.Arch = Figures.getString("arch").value_or("").str();
  E.Registers = RegistersFrom.getInteger("registers").value_or(0);
  E.RegistersSource = RegistersFrom.getString("registers_source").value_or("").str();
  E.ActiveBlocksPerSM = Figures.getInteger("active_blocks_per_sm").value_or(0);
  E.ActiveWarpsPerSM = Figures.getInteger("active_warps_per_sm").value_or(0);
  E.Theoretical = Figures.getNumber("theoretical").value_or(0);
  E.Limiter = Figures.getString("limiter").value_or("").str();
  return E;
}

Object toJson(const ArchOccupancyEntry &A) {
  if (!A.Occupancy) {
    Object O{{"arch", A.Arch}, {"unavailable", A.Unavailable}};
    for (const char *Key : {"registers", "registers_source", "active_blocks_per_sm",
                            "active_warps_per_sm", "theoretical", "limiter"})
      O[Key] = nullptr;
    return O;
  }
  Object O = occupancyFigures(*A.Occupancy);
  O["arch"] = A.Arch;
  O["registers"] = A.Occupancy->Registers;
  O["registers_source"] = A.Occupancy->RegistersSource;
  return O;
}

ArchOccupancyEntry archOccupancyFromJson(const Object &O) {
  ArchOccupancyEntry A;
  A.Arch = O.getString("arch").value_or("").str();
  if (O.getInteger("registers"))
    A.Occupancy = occupancyFromJson(O, O);
  else
    A.Unavailable = O.getString("unavailable").value_or("").str();
  return A;
}

Object toJson(const KernelErrorEntry &E) {
  Object O{{"file", orNull(E.File)},
           {"line", orNull(E.Line)},
           {"column", orNull(E.Column)},
           {"message", E.Message}};
  if (E.Function)
    O["function"] = *E.Function;
  return O;
}

KernelErrorEntry kernelErrorFromJson(const Object &O) {
  return {stringField(O, "file"), O.getInteger("line"), O.getInteger("column"),
          O.getString("message").value_or("").str(), stringField(O, "function")};
}

} // namespace

Object toJson(const KernelEntry &K) {
  Array Accesses;
  for (const AccessEntry &A : K.Accesses)
    Accesses.push_back(toJson(A));
  Object O{{"name", K.Name},
           {"file", orNull(K.File)},
           {"line", orNull(K.Line)},
           {"launch", K.Launch ? Value(toJson(*K.Launch)) : Value(nullptr)},
           {"accesses", std::move(Accesses)},
           {"sampled_symbols", strings(K.SampledSymbols)},
           {"limitations", strings(K.Limitations)}};
  if (K.Status != KernelStatus::Analysed) {
    // Nothing was analysed: no warps, registers or occupancy.
    O["status"] = K.Status == KernelStatus::Error ? "error" : "failed";
    O["error"] = K.Error ? Value(toJson(*K.Error)) : Value(nullptr);
    return O;
  }
  O["status"] = "analysed";
  Array Aos;
  for (const AosEntry &A : K.Aos)
    Aos.push_back(toJson(A));
  O["aos"] = std::move(Aos);
  O["budget_cuts"] = strings(K.BudgetCuts);
  O["simulated_warps"] = K.SimulatedWarps;
  O["total_warps"] = K.TotalWarps;
  // The launch's blocks are "total_blocks", written with the work fields.
  O["simulated_blocks"] = K.SimulatedBlocks;
  if (const std::optional<LaunchResourcesEntry> &R = K.Resources) {
    O["registers"] = R->Occupancy.Registers;
    O["registers_source"] = R->Occupancy.RegistersSource;
    O["shared_bytes_static"] = R->SharedBytesStatic;
    O["shared_bytes_dynamic"] = R->SharedBytesDynamic;
    O["spill_store_bytes"] = R->SpillStoreBytes ? Value(*R->SpillStoreBytes) : Value(nullptr);
    O["spill_load_bytes"] = R->SpillLoadBytes ? Value(*R->SpillLoadBytes) : Value(nullptr);
    O["occupancy"] = occupancyFigures(R->Occupancy);
    O["occupancy_assumptions"] = strings(R->Assumptions);
  } else {
    for (const char *Key : {"registers", "registers_source", "shared_bytes_static",
                            "shared_bytes_dynamic", "spill_store_bytes", "spill_load_bytes",
                            "occupancy"})
      O[Key] = nullptr;
  }
  if (K.OccupancyByArch) {
    Array ByArch;
    for (const ArchOccupancyEntry &A : *K.OccupancyByArch)
      ByArch.push_back(toJson(A));
    O["occupancy_by_arch"] = std::move(ByArch);
  }
  if (K.Work)
    addWorkFields(*K.Work, O);
  return O;
}

KernelEntry kernelFromJson(const Object &O) {
  KernelEntry K;
  K.Name = O.getString("name").value_or("").str();
  K.File = stringField(O, "file");
  K.Line = O.getInteger("line");
  std::optional<llvm::StringRef> Status = O.getString("status");
  K.Status = Status == "error"    ? KernelStatus::Error
             : Status == "failed" ? KernelStatus::Failed
                                  : KernelStatus::Analysed;
  if (const Object *E = O.getObject("error"))
    K.Error = kernelErrorFromJson(*E);
  if (const Object *L = O.getObject("launch"))
    K.Launch = launchFromJson(*L);
  K.SimulatedWarps = O.getInteger("simulated_warps").value_or(0);
  K.TotalWarps = O.getInteger("total_warps").value_or(0);
  K.SimulatedBlocks = O.getInteger("simulated_blocks").value_or(0);
  K.SampledSymbols = stringsOf(O.getArray("sampled_symbols"));
  K.Limitations = stringsOf(O.getArray("limitations"));
  K.BudgetCuts = stringsOf(O.getArray("budget_cuts"));
  if (const Array *Accesses = O.getArray("accesses"))
    for (const Value &V : *Accesses)
      if (const Object *A = V.getAsObject())
        K.Accesses.push_back(accessFromJson(*A));
  if (const Array *Aos = O.getArray("aos"))
    for (const Value &V : *Aos)
      if (const Object *A = V.getAsObject())
        K.Aos.push_back(aosFromJson(*A));
  if (const Object *Occupancy = O.getObject("occupancy")) {
    LaunchResourcesEntry R;
    R.Occupancy = occupancyFromJson(*Occupancy, O);
    R.SharedBytesStatic = O.getInteger("shared_bytes_static").value_or(0);
    R.SharedBytesDynamic = O.getInteger("shared_bytes_dynamic").value_or(0);
    R.SpillStoreBytes = O.getInteger("spill_store_bytes");
    R.SpillLoadBytes = O.getInteger("spill_load_bytes");
    R.Assumptions = stringsOf(O.getArray("occupancy_assumptions"));
    K.Resources = std::move(R);
  }
  if (const Array *ByArch = O.getArray("occupancy_by_arch")) {
    K.OccupancyByArch.emplace();
    for (const Value &V : *ByArch)
      if (const Object *A = V.getAsObject())
        K.OccupancyByArch->push_back(archOccupancyFromJson(*A));
  }
  K.Work = workFromJson(O);
  return K;
}

} // namespace warpcheck::tool
