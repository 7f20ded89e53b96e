//===- KernelEntriesTest.cpp - typed kernels, launches and accesses -------===//
//
// A worker's kernel objects read into KernelEntry give the numbers the
// analysis reported, and written back give the same JSON: --format=json is
// a contract (docs/json-format.md) and a worker process hands its kernels
// over in it.
//
//===----------------------------------------------------------------------===//

#include "KernelEntries.h"

#include "JsonText.h"

#include <gtest/gtest.h>

#include <string>

using namespace warpcheck::tool;
using warpcheck::test::parseObject;
using warpcheck::test::text;
using warpcheck::analysis::AccessOp;
using warpcheck::analysis::AccessStatus;
using warpcheck::analysis::AssumptionKind;
using warpcheck::analysis::MemorySpace;

namespace {

/// A launch from main with a global store, a shared load whose numbers
/// depend on an unbound parameter, an aggregated atomic and an access whose
/// address is read from memory; occupancy on the target and on an --arch
/// list where one architecture has no register count.
const char *AnalysedKernel = R"json({
  "name": "transposeNaive", "file": "/w/main.cu", "line": 12, "status": "analysed",
  "launch": {"block": [32, 8, 1], "grid": [32, 128, 1], "source": "launch",
             "description": "the launch at main.cu:40", "dynamic_shared_bytes": 0,
             "location": "main.cu:40", "context": ["'run' called at main.cu:60",
             "the branch at main.cu:58 not taken"], "without_arguments": true,
             "unevaluated_launches": []},
  "simulated_warps": 128, "total_warps": 32768, "simulated_blocks": 16,
  "sampled_symbols": ["size"],
  "aos": [{"file": "/w/main.cu", "line": 14, "column": 12, "struct": "Particle",
           "struct_bytes": 24, "pointer": "p",
           "fields": [{"name": "x", "offset": 0, "bytes": 4, "loaded": true, "stored": false,
                       "loads": {"instructions": 1, "l1_sectors": 24, "soa_l1_sectors": 4,
                                 "dram_bytes": 768, "soa_dram_bytes": 128, "useful_bytes": 128},
                       "stores": {"instructions": 0, "l1_sectors": 0, "soa_l1_sectors": 0,
                                  "dram_bytes": 0, "soa_dram_bytes": 0, "useful_bytes": 0}},
                      {"name": "y", "offset": 4, "bytes": 4, "loaded": true, "stored": true,
                       "loads": {"instructions": 1, "l1_sectors": 24, "soa_l1_sectors": 4,
                                 "dram_bytes": 768, "soa_dram_bytes": 128, "useful_bytes": 128},
                       "stores": {"instructions": 1, "l1_sectors": 24, "soa_l1_sectors": 4,
                                  "dram_bytes": 768, "soa_dram_bytes": 128, "useful_bytes": 128}}],
           "whole_copy": false,
           "loads": {"instructions": 2, "l1_sectors": 48, "soa_l1_sectors": 8,
                     "dram_bytes": 768, "soa_dram_bytes": 256, "useful_bytes": 256},
           "stores": {"instructions": 1, "l1_sectors": 24, "soa_l1_sectors": 4,
                      "dram_bytes": 768, "soa_dram_bytes": 128, "useful_bytes": 128},
           "l1_efficiency": 0.1667, "dram_efficiency": 0.25,
           "alternatives": [{"kind": "structure_of_arrays", "l1_sectors": 12, "dram_bytes": 384}],
           "status": "assumed",
           "assumptions": ["the block shape (32, 8, 1) is assumed"],
           "assumption_kinds": ["block_shape"]}],
  "limitations": ["the simulation budget of the launch allowed 16 of the 128 warps otherwise sampled; the numbers average those"],
  "budget_cuts": ["the simulation budget of the launch allowed 16 of the 128 warps otherwise sampled; the numbers average those"],
  "accesses": [
    {"file": "/w/main.cu", "line": 15, "column": 3, "expression": "out[x * N + y]",
     "space": "global", "op": "store", "bytes_per_lane": 4, "status": "exact",
     "requests_simulated": 128, "sectors_per_request": 32, "ideal_sectors_per_request": 4,
     "lines_per_request": 32, "ideal_lines_per_request": 1, "line_efficiency": 0.03125,
     "wavefronts_per_request": null, "ideal_wavefronts_per_request": null,
     "efficiency": 0.125, "aggregated": null, "assumptions": [], "assumption_kinds": [],
     "instructions_from": "source", "instructions": []},
    {"file": "/w/main.cu", "line": 17, "column": 9, "end_line": 18, "expression": "s[pos]",
     "space": "shared", "op": "load", "bytes_per_lane": 4, "status": "assumed",
     "requests_simulated": 64, "sectors_per_request": null, "ideal_sectors_per_request": null,
     "lines_per_request": null, "ideal_lines_per_request": null, "line_efficiency": null,
     "wavefronts_per_request": 2, "ideal_wavefronts_per_request": 1, "efficiency": 0.5,
     "aggregated": null, "shared_variable": "s", "conflict_degree": 2,
     "assumptions": ["the numbers depend on 'size'", "the block shape (32, 8, 1) is assumed"],
     "assumption_kinds": ["unbound_value", "block_shape"],
     "value_dependence": {"symbols": ["size"], "memory_reads": ["*flag"],
                          "representative_value": null, "command_line_defaults": [],
                          "metric": "wavefronts_per_request",
                          "worst": 2, "best": 1, "condition": "unless 'size' is a multiple of 32",
                          "truncated": false,
                          "samples": [{"value": 1, "reached": true, "wavefronts_per_request": 2},
                                      {"value": 32, "reached": true, "wavefronts_per_request": 1},
                                      {"value": 64, "reached": false, "wavefronts_per_request": null}]},
     "instructions_from": "listing",
     "instructions": [{"opcode": "LDS.64", "bytes_per_lane": 8, "file": "/w/main.cu", "line": 17,
                       "other_lines": [15, 16], "changes": ["merged"], "serves": ["s[pos]", "s[pos + 1]"],
                       "counted_with": null, "requests_simulated": 32, "served_executions": 32,
                       "sectors_per_request": null, "ideal_sectors_per_request": null,
                       "wavefronts_per_request": 2, "ideal_wavefronts_per_request": 2},
                      {"opcode": "LDS", "bytes_per_lane": 4, "file": "/w/main.cu", "line": 17,
                       "other_lines": [], "changes": [], "serves": ["s[pos]"], "counted_with": null,
                       "requests_simulated": 32, "served_executions": 32,
                       "sectors_per_request": null, "ideal_sectors_per_request": null,
                       "wavefronts_per_request": 2, "ideal_wavefronts_per_request": 1}],
     "call_sites": [{"file": "/w/main.cu", "line": 30, "column": 12, "requests_simulated": 32,
                     "sectors_per_request": null, "ideal_sectors_per_request": null,
                     "wavefronts_per_request": 1, "ideal_wavefronts_per_request": 1},
                    {"file": "/w/main.cu", "line": 31, "column": 12, "requests_simulated": 32,
                     "sectors_per_request": null, "ideal_sectors_per_request": null,
                     "wavefronts_per_request": 3, "ideal_wavefronts_per_request": 1}]},
    {"file": "/w/main.cu", "line": 20, "column": 5, "expression": "atomicAdd(&count[0], 1)",
     "space": "global", "op": "atomic", "bytes_per_lane": 4, "status": "exact",
     "requests_simulated": 8, "sectors_per_request": 1, "ideal_sectors_per_request": 1,
     "lines_per_request": 1, "ideal_lines_per_request": 1, "line_efficiency": 1,
     "wavefronts_per_request": null, "ideal_wavefronts_per_request": null, "efficiency": 1,
     "aggregated": true, "assumptions": [], "assumption_kinds": [],
     "instructions_from": "source", "instructions": []},
    {"file": null, "line": null, "column": null, "expression": "in[idx[i]]",
     "space": "global", "op": "load", "bytes_per_lane": 4, "status": "unknown",
     "requests_simulated": 0, "sectors_per_request": null, "ideal_sectors_per_request": null,
     "lines_per_request": null, "ideal_lines_per_request": null, "line_efficiency": null,
     "wavefronts_per_request": null, "ideal_wavefronts_per_request": null, "efficiency": null,
     "aggregated": null, "assumptions": ["the address depends on values read from memory"],
     "assumption_kinds": ["data_dependent_address"],
     "instructions_from": "source", "instructions": []}
  ],
  "registers": 30, "registers_source": "ptxas",
  "shared_bytes_static": 4096, "shared_bytes_dynamic": 0,
  "spill_store_bytes": 24, "spill_load_bytes": 40,
  "occupancy": {"arch": "sm_90", "active_blocks_per_sm": 8, "active_warps_per_sm": 64,
                "theoretical": 1, "limiter": "warps"},
  "occupancy_assumptions": [],
  "occupancy_by_arch": [
    {"arch": "sm_90", "registers": 30, "registers_source": "ptxas", "active_blocks_per_sm": 8,
     "active_warps_per_sm": 64, "theoretical": 1, "limiter": "warps"},
    {"arch": "sm_75", "registers": null, "registers_source": null, "active_blocks_per_sm": null,
     "active_warps_per_sm": null, "theoretical": null, "limiter": null,
     "unavailable": "ptxas failed"}],
  "flops": {"status": "assumed", "total": 524288,
            "fp16": {"add": 0, "mul": 0, "fma": 0, "flops": 0},
            "fp32": {"add": 0, "mul": 0, "fma": 262144, "flops": 524288},
            "fp64": {"add": 0, "mul": 0, "fma": 0, "flops": 0},
            "assumptions": ["'a / b' compiles to a sequence of instructions that is not counted"],
            "assumption_kinds": ["uncounted_operation"],
            "per_thread_formula": {"symbols": ["m", "n"], "fitted_step": 1024, "fitted_up_to": 4096,
              "total": {"formula": "m*n/32 + 1", "terms": [
                {"numerator": 1, "denominator": 32, "powers": [1, 1]},
                {"numerator": 1, "denominator": 1, "powers": [0, 0]}]},
              "fp16": {"add": {"formula": "0", "terms": []}, "mul": {"formula": "0", "terms": []},
                       "fma": {"formula": "0", "terms": []}, "flops": {"formula": "0", "terms": []}},
              "fp32": {"add": {"formula": "1", "terms": [
                         {"numerator": 1, "denominator": 1, "powers": [0, 0]}]},
                       "mul": {"formula": "0", "terms": []},
                       "fma": {"formula": "m*n/64", "terms": [
                         {"numerator": 1, "denominator": 64, "powers": [1, 1]}]},
                       "flops": {"formula": "m*n/32 + 1", "terms": [
                         {"numerator": 1, "denominator": 32, "powers": [1, 1]},
                         {"numerator": 1, "denominator": 1, "powers": [0, 0]}]}},
              "fp64": {"add": {"formula": "0", "terms": []}, "mul": {"formula": "0", "terms": []},
                       "fma": {"formula": "0", "terms": []}, "flops": {"formula": "0", "terms": []}}}},
  "dram_bytes": {"status": "exact", "read": 32768, "write": 16384, "total": 49152,
                 "assumptions": [], "assumption_kinds": []},
  "intensity": 10.6667,
  "roofline": [{"arch": "sm_90", "part": "H200 SXM", "precision": "fp32",
                "peak_flops_per_second": 6.7e13, "peak_source": "vendor",
                "bandwidth_bytes_per_second": 4.8e12, "ridge": 13.9583, "bound": "memory",
                "attainable_flops_per_second": 5.12e13, "time_bound_seconds": 1.024e-08,
                "status": "assumed"}],
  "work_blocks_simulated": 11, "total_blocks": 4096
})json";

TEST(KernelEntries, AnalysedKernelHasItsNumbers) {
  KernelEntry K = kernelFromJson(parseObject(AnalysedKernel));
  EXPECT_EQ(K.Name, "transposeNaive");
  EXPECT_EQ(K.Status, KernelStatus::Analysed);
  ASSERT_TRUE(K.Launch);
  EXPECT_EQ(K.Launch->Block, (Dims{32, 8, 1}));
  ASSERT_TRUE(K.Launch->Grid);
  EXPECT_EQ((*K.Launch->Grid)[1], 128);
  EXPECT_EQ(K.Launch->Location, "main.cu:40");
  EXPECT_EQ(K.Launch->WithoutArguments, std::optional<bool>(true));
  EXPECT_EQ(K.TotalWarps, 32768);
  ASSERT_EQ(K.BudgetCuts.size(), 1u);
  EXPECT_EQ(K.BudgetCuts[0], K.Limitations[0]);
  ASSERT_EQ(K.Aos.size(), 1u);
  EXPECT_EQ(K.Aos[0].Struct, "Particle");
  EXPECT_EQ(K.Aos[0].StructBytes, 24);
  EXPECT_EQ(K.Aos[0].Fields[1].Name, "y");
  EXPECT_TRUE(K.Aos[0].Fields[1].Stored);
  EXPECT_EQ(K.Aos[0].Loads.L1Sectors, 48);
  EXPECT_EQ(K.Aos[0].Stores.SoaDramBytes, 128);
  EXPECT_FALSE(K.Aos[0].Vector);
  // Per field: y's store, 24 sectors as laid out, 4 as structure of arrays.
  EXPECT_EQ(K.Aos[0].Fields[1].Stores.L1Sectors, 24);
  EXPECT_EQ(K.Aos[0].Fields[1].Stores.SoaL1Sectors, 4);
  EXPECT_EQ(K.Aos[0].Fields[0].Stores.Instructions, 0);
  EXPECT_FALSE(K.Aos[0].Exact);
  ASSERT_EQ(K.Aos[0].Assumptions.size(), 1u);
  EXPECT_EQ(K.Aos[0].Assumptions[0].Kind, AssumptionKind::BlockShape);
  ASSERT_EQ(K.Accesses.size(), 4u);

  // A multi-line expression: nvcc may put its instruction on any line of it.
  EXPECT_EQ(K.Accesses[1].EndLine, 18);
  EXPECT_EQ(K.Accesses[0].EndLine, std::nullopt);
  const AccessEntry &Store = K.Accesses[0];
  EXPECT_EQ(Store.Space, MemorySpace::Global);
  EXPECT_EQ(Store.Op, AccessOp::Store);
  EXPECT_EQ(Store.Status, AccessStatus::Exact);
  EXPECT_EQ(Store.SectorsPerRequest, 32.0);
  EXPECT_EQ(Store.IdealSectorsPerRequest, 4.0);
  EXPECT_EQ(Store.Efficiency, 0.125);
  EXPECT_FALSE(Store.WavefrontsPerRequest);
  EXPECT_FALSE(Store.Aggregated);

  const AccessEntry &Shared = K.Accesses[1];
  EXPECT_EQ(Shared.Space, MemorySpace::Shared);
  EXPECT_EQ(Shared.WavefrontsPerRequest, 2.0);
  EXPECT_EQ(Shared.ConflictDegree, 2);
  EXPECT_EQ(Shared.SharedVariable, "s");
  ASSERT_EQ(Shared.Assumptions.size(), 2u);
  EXPECT_EQ(Shared.Assumptions[0].Kind, AssumptionKind::UnboundValue);
  EXPECT_EQ(Shared.Assumptions[1].Kind, AssumptionKind::BlockShape);
  EXPECT_EQ(Shared.Assumptions[1].Text, "the block shape (32, 8, 1) is assumed");
  ASSERT_TRUE(Shared.ValueDependence);
  EXPECT_EQ(Shared.ValueDependence->Worst, 2.0);
  ASSERT_EQ(Shared.ValueDependence->Samples.size(), 3u);
  EXPECT_EQ(Shared.ValueDependence->Samples[1].Metric, 1.0);
  EXPECT_FALSE(Shared.ValueDependence->Samples[2].Reached);
  EXPECT_FALSE(Shared.ValueDependence->Samples[2].Metric);
  EXPECT_EQ(Shared.InstructionsFrom, "listing");
  ASSERT_EQ(Shared.Instructions.size(), 2u);
  EXPECT_EQ(Shared.Instructions[0].Opcode, "LDS.64");
  EXPECT_EQ(Shared.Instructions[0].Changes, std::vector<std::string>{"merged"});
  EXPECT_EQ(Shared.Instructions[0].Serves.size(), 2u);
  EXPECT_FALSE(Shared.Instructions[0].CountedWith);
  EXPECT_EQ(Shared.Instructions[0].WavefrontsPerRequest, 2.0);
  EXPECT_FALSE(Shared.Instructions[0].SectorsPerRequest);
  EXPECT_EQ(Shared.Instructions[1].IdealWavefrontsPerRequest, 1.0);
  EXPECT_EQ(Store.InstructionsFrom, "source");
  EXPECT_TRUE(Store.Instructions.empty());

  EXPECT_EQ(K.Accesses[2].Aggregated, true);
  const AccessEntry &Unknown = K.Accesses[3];
  EXPECT_EQ(Unknown.Status, AccessStatus::Unknown);
  EXPECT_FALSE(Unknown.File);
  EXPECT_FALSE(Unknown.Efficiency);
  ASSERT_EQ(Unknown.Assumptions.size(), 1u);
  EXPECT_EQ(Unknown.Assumptions[0].Kind, AssumptionKind::DataDependentAddress);

  ASSERT_TRUE(K.Resources);
  EXPECT_EQ(K.Resources->Occupancy.Registers, 30);
  EXPECT_EQ(K.Resources->Occupancy.Arch, "sm_90");
  EXPECT_EQ(K.Resources->Occupancy.ActiveWarpsPerSM, 64);
  EXPECT_EQ(K.Resources->SharedBytesStatic, 4096);
  EXPECT_EQ(K.Resources->SpillStoreBytes, 24);
  EXPECT_EQ(K.Resources->SpillLoadBytes, 40);
  ASSERT_TRUE(K.OccupancyByArch);
  ASSERT_EQ(K.OccupancyByArch->size(), 2u);
  EXPECT_TRUE((*K.OccupancyByArch)[0].Occupancy);
  EXPECT_FALSE((*K.OccupancyByArch)[1].Occupancy);
  EXPECT_EQ((*K.OccupancyByArch)[1].Unavailable, "ptxas failed");

  ASSERT_TRUE(K.Work);
  EXPECT_EQ(K.Work->Flops.Status, AccessStatus::Assumed);
  EXPECT_EQ(K.Work->Flops.Total, 524288);
  EXPECT_EQ(K.Work->Flops.ByPrecision[1].Fma, 262144);
  ASSERT_EQ(K.Work->Flops.Assumptions.size(), 1u);
  EXPECT_EQ(K.Work->Flops.Assumptions[0].Kind, AssumptionKind::UncountedOperation);
  ASSERT_TRUE(K.Work->Flops.PerThread);
  const warpcheck::analysis::FlopFormula &F = *K.Work->Flops.PerThread;
  EXPECT_EQ(F.PerThreadTotal.text(F.Symbols), "m*n/32 + 1");
  EXPECT_EQ(F.PerThread[1].Fma.text(F.Symbols), "m*n/64");
  EXPECT_EQ(F.PerThreadTotal.evaluate({64, 128}), 257);
  EXPECT_EQ(F.Step, 1024);
  std::optional<warpcheck::model::FlopCounts> At = F.countsAt({64, 128}, 256);
  ASSERT_TRUE(At);
  EXPECT_EQ((*At)[warpcheck::model::FloatPrecision::Single].Fma, 128u * 256);
  EXPECT_EQ(K.Work->Dram.Read, 32768);
  EXPECT_EQ(K.Work->Dram.Write, 16384);
  EXPECT_EQ(K.Work->Intensity, 10.6667);
  ASSERT_EQ(K.Work->Roofline.size(), 1u);
  EXPECT_EQ(K.Work->Roofline[0].Bound, "memory");
  EXPECT_EQ(K.Work->Roofline[0].PeakSource, "vendor");
  EXPECT_DOUBLE_EQ(K.Work->Roofline[0].TimeBoundSeconds, 1.024e-08);
  EXPECT_EQ(K.Work->BlocksSimulated, 11);
  EXPECT_EQ(K.SimulatedWarps, 128);
  EXPECT_EQ(K.SimulatedBlocks, 16);
}

TEST(KernelEntries, WorkNotCountedRoundTrips) {
  const char *Json =
      R"json({"accesses":[],"aos":[],"budget_cuts":[],"dram_bytes":{"assumption_kinds":[],"assumptions":[],)json"
      R"json("not_counted":"the address of 'in[idx[i]]' depends on values read from memory",)json"
      R"json("read":null,"status":"unknown","total":null,"write":null},"file":"/w/k.cu",)json"
      R"json("flops":{"assumption_kinds":[],"assumptions":[],"fp16":{"add":0,"flops":0,"fma":0,)json"
      R"json("mul":0},"fp32":{"add":0,"flops":0,"fma":0,"mul":0},"fp64":{"add":0,"flops":0,)json"
      R"json("fma":0,"mul":0},"not_counted":"a loop of the launch runs longer than the )json"
      R"json(simulation budget allows to count every iteration, or its exit depends on values )json"
      R"json(read from memory","status":"unknown","total":null},)json"
      R"json("intensity":null,"launch":{"block":[256,1,1],"context":[],)json"
      R"json("description":"the default block (256, 1, 1)","grid":null,"source":"default",)json"
      R"json("unevaluated_launches":[]},"limitations":[],"line":3,"name":"lone",)json"
      R"json("occupancy":null,"registers":null,"registers_source":null,"roofline":[],)json"
      R"json("sampled_symbols":[],"shared_bytes_dynamic":null,"shared_bytes_static":null,)json"
      R"json("simulated_blocks":1,"simulated_warps":8,"spill_load_bytes":null,)json"
      R"json("spill_store_bytes":null,)json"
      R"json("status":"analysed","total_blocks":4096,"total_warps":8,)json"
      R"json("work_blocks_simulated":0})json";
  KernelEntry K = kernelFromJson(parseObject(Json));
  ASSERT_TRUE(K.Work);
  EXPECT_EQ(K.Work->Flops.Status, AccessStatus::Unknown);
  EXPECT_FALSE(K.Work->Flops.Total);
  EXPECT_FALSE(K.Work->Dram.Read);
  EXPECT_FALSE(K.Work->Intensity);
  EXPECT_EQ(text(toJson(K)), Json);
}

TEST(KernelEntries, AnalysedKernelRoundTrips) {
  llvm::json::Object O = parseObject(AnalysedKernel);
  std::string Original = text(llvm::json::Value(llvm::json::Object(O)));
  EXPECT_EQ(text(toJson(kernelFromJson(O))), Original);
}

TEST(KernelEntries, KernelThatDoesNotCompileRoundTrips) {
  const char *Json =
      R"json({"accesses":[],"error":{"column":52,"file":"/w/k.cu","function":"helper",)json"
      R"json("line":6,"message":"use of undeclared identifier 'missing'"},"file":"/w/k.cu",)json"
      R"json("launch":null,"limitations":["not analysed: the kernel does not compile: use of )json"
      R"json(undeclared identifier 'missing' (k.cu:6:52 in 'helper', which it calls)"],)json"
      R"json("line":6,"name":"broken","sampled_symbols":[],"status":"error"})json";
  KernelEntry K = kernelFromJson(parseObject(Json));
  EXPECT_EQ(K.Status, KernelStatus::Error);
  ASSERT_TRUE(K.Error);
  EXPECT_EQ(K.Error->Line, 6);
  EXPECT_EQ(K.Error->Function, "helper");
  EXPECT_FALSE(K.Launch);
  EXPECT_EQ(text(toJson(K)), Json);
}

TEST(KernelEntries, KernelWhoseAnalysisFailedRoundTrips) {
  const char *Json =
      R"json({"accesses":[],"error":{"column":17,"file":"/w/k.cu","line":5,)json"
      R"json("message":"warpcheck could not analyse the kernel: internal error: a )json"
      R"json(segmentation fault (SIGSEGV); please report it with this file"},"file":"/w/k.cu",)json"
      R"json("launch":null,"limitations":["not analysed: warpcheck could not analyse the )json"
      R"json(kernel: internal error: a segmentation fault (SIGSEGV); please report it with )json"
      R"json(this file"],"line":5,"name":"broken","sampled_symbols":[],"status":"failed"})json";
  KernelEntry K = kernelFromJson(parseObject(Json));
  EXPECT_EQ(K.Status, KernelStatus::Failed);
  ASSERT_TRUE(K.Error);
  EXPECT_EQ(K.Error->Column, 17);
  EXPECT_FALSE(K.Launch);
  EXPECT_EQ(text(toJson(K)), Json);
}

TEST(KernelEntries, NoRegisterCountIsNullOccupancy) {
  const char *Json =
      R"json({"accesses":[],"aos":[],"budget_cuts":[],"file":"/w/k.cu",)json"
      R"json("launch":{"block":[256,1,1],"context":[],)json"
      R"json("description":"the default block (256, 1, 1)","grid":null,"source":"default",)json"
      R"json("unevaluated_launches":[]},"limitations":["occupancy not computed: no count"],)json"
      R"json("line":3,"name":"lone","occupancy":null,"registers":null,"registers_source":null,)json"
      R"json("sampled_symbols":[],"shared_bytes_dynamic":null,"shared_bytes_static":null,)json"
      R"json("simulated_blocks":1,"simulated_warps":8,"spill_load_bytes":null,)json"
      R"json("spill_store_bytes":null,)json"
      R"json("status":"analysed","total_warps":8})json";
  KernelEntry K = kernelFromJson(parseObject(Json));
  EXPECT_FALSE(K.Resources);
  ASSERT_TRUE(K.Launch);
  EXPECT_FALSE(K.Launch->Grid);
  EXPECT_TRUE(K.Launch->Location.empty());
  EXPECT_FALSE(K.OccupancyByArch);
  EXPECT_EQ(text(toJson(K)), Json);
}

} // namespace
