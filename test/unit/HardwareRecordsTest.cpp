// The hardware model against what Nsight Compute measured on an H200
// (sm_90): test/hw/global_patterns.json and test/hw/shared_patterns.json
// (and test/hw/partial_warp_shared.json, measured on an H100, also sm_90),
// made by test/hw/scripts/run_microbench.sh and microbench_to_records.py.
// Every record is one warp-wide instruction with known per-lane byte
// offsets; the model must predict its sectors (global) or wavefronts
// (shared) exactly.
#include "warpcheck/model/Arch.h"
#include "warpcheck/model/GlobalMemory.h"
#include "warpcheck/model/SharedMemory.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace warpcheck::model;

namespace {

llvm::json::Array loadRecords(const std::string &Name) {
  std::string Path = std::string(WARPCHECK_HW_DIR) + "/" + Name;
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer) {
    ADD_FAILURE() << Path << ": cannot be read";
    return {};
  }
  auto Parsed = llvm::json::parse((*Buffer)->getBuffer());
  if (!Parsed) {
    ADD_FAILURE() << Path << ": " << llvm::toString(Parsed.takeError());
    return {};
  }
  if (auto *A = Parsed->getAsArray())
    return std::move(*A);
  if (auto *O = Parsed->getAsObject())
    if (auto *A = O->getArray("records"))
      return std::move(*A);
  ADD_FAILURE() << Path << ": expected an array of records";
  return {};
}

/// The request a record describes: lane L active when bit L of the mask is
/// set, at Base + offset[L].
WarpAddressSet requestOf(const llvm::json::Object &R, std::uint64_t Base) {
  unsigned Width = static_cast<unsigned>(R.getInteger("width").value_or(4));
  std::uint64_t Mask = 0xffffffffu;
  if (auto M = R.getString("active_mask"))
    Mask = std::stoull(M->str(), nullptr, 0);
  else if (auto M = R.getInteger("active_mask"))
    Mask = static_cast<std::uint64_t>(*M);
  std::int64_t Shift = R.getInteger("base_shift").value_or(0);
  WarpAddressSet S(Width);
  const llvm::json::Array *Offsets = R.getArray("offsets");
  for (unsigned L = 0; Offsets && L < Offsets->size() && L < WarpSize; ++L)
    if ((Mask >> L) & 1u)
      S.setLane(L, Base + Shift + static_cast<std::uint64_t>(*(*Offsets)[L].getAsInteger()));
  return S;
}

std::string describe(const llvm::json::Object &R) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::json::Value(llvm::json::Object(R));
  return OS.str();
}

} // namespace

TEST(HardwareRecords, GlobalSectorsPerRequestMatchTheH200) {
  llvm::json::Array Records = loadRecords("global_patterns.json");
  ASSERT_GT(Records.size(), 20u);
  unsigned Compared = 0;
  for (const llvm::json::Value &V : Records) {
    const llvm::json::Object *R = V.getAsObject();
    ASSERT_TRUE(R);
    auto Measured = R->getNumber("sectors_per_request");
    if (!Measured)
      continue;
    // cudaMalloc bases are 256-byte aligned; the records' offsets are from
    // such a base.
    llvm::StringRef Op = R->getString("op").value_or("load");
    GlobalRequestCost C = computeGlobalRequestCost(
        requestOf(*R, 1ull << 32), {},
        Op == "atom" || Op == "red" || Op == "atomic" ? GlobalAccessKind::Atomic
                                                      : GlobalAccessKind::LoadOrStore);
    EXPECT_NEAR(C.Sectors, *Measured, 0.05) << describe(*R);
    ++Compared;
  }
  EXPECT_GT(Compared, 20u);
}

TEST(HardwareRecords, SharedWavefrontsPerRequestMatchTheH200) {
  llvm::json::Array Records = loadRecords("shared_patterns.json");
  ASSERT_GT(Records.size(), 20u);
  const ArchSpec *H200 = findArch("sm_90");
  ASSERT_TRUE(H200);
  unsigned Compared = 0;
  for (const llvm::json::Value &V : Records) {
    const llvm::json::Object *R = V.getAsObject();
    ASSERT_TRUE(R);
    auto Measured = R->getNumber("wavefronts_per_request");
    if (!Measured)
      continue;
    SharedAccessKind Kind = R->getString("op") == "store" ? SharedAccessKind::Store
                                                          : SharedAccessKind::Load;
    SharedRequestCost C = computeSharedRequestCost(requestOf(*R, 0), H200->SharedBanks, Kind);
    EXPECT_NEAR(C.Wavefronts, *Measured, 0.05) << describe(*R);
    // ncu's bank-conflict counter counts the wavefronts beyond one per
    // phase with an active lane (its source counters' ideal is another
    // number: the distinct bytes over 128, test/inputs/shared-wide-partial-warps.cu).
    auto Conflicts = R->getNumber("bank_conflicts");
    auto Instructions = R->getNumber("instructions");
    if (Conflicts && Instructions && *Instructions > 0)
      EXPECT_NEAR(double(C.Wavefronts) - C.ActivePhases, *Conflicts / *Instructions, 0.05)
          << describe(*R);
    ++Compared;
  }
  EXPECT_GT(Compared, 20u);
}

// A warp of a block whose size is not a multiple of 32 has lanes that do
// not exist. On sm_90 they cost a shared access exactly what lanes switched
// off by a branch cost: test/hw/partial_warp_shared.json (an H100, ncu), 210
// launches of 4-, 8- and 16-byte loads and stores, 16, 8 or 24 lanes absent
// or off. The model counts the lanes that run the access either way.
TEST(HardwareRecords, AbsentLanesCostWhatLanesSwitchedOffCost) {
  llvm::json::Array Records = loadRecords("partial_warp_shared.json");
  ASSERT_EQ(Records.size(), 210u);
  const ArchSpec *Sm90 = findArch("sm_90");
  ASSERT_TRUE(Sm90);
  // The measured cost of each (op, width, offsets, lanes that run it).
  std::map<std::string, std::set<double>> MeasuredBySameLanes;
  unsigned Compared = 0;
  for (const llvm::json::Value &V : Records) {
    const llvm::json::Object *R = V.getAsObject();
    ASSERT_TRUE(R);
    auto Measured = R->getNumber("wavefronts_per_request");
    auto Threads = R->getInteger("threads");
    auto MaskText = R->getString("active_mask");
    ASSERT_TRUE(Measured && Threads && MaskText) << describe(*R);
    std::uint64_t Existing = *Threads >= 32 ? 0xffffffffu : (1u << *Threads) - 1;
    std::uint64_t Runs = std::stoull(MaskText->str(), nullptr, 0) & Existing;
    llvm::json::Object Lanes = *R;
    Lanes["active_mask"] = static_cast<std::int64_t>(Runs);
    SharedAccessKind Kind = R->getString("op") == "store" ? SharedAccessKind::Store
                                                          : SharedAccessKind::Load;
    SharedRequestCost C = computeSharedRequestCost(requestOf(Lanes, 0), Sm90->SharedBanks, Kind);
    EXPECT_NEAR(C.Wavefronts, *Measured, 0.05) << describe(*R);
    std::string Key = R->getString("op")->str() + "/" +
                      std::to_string(*R->getInteger("width")) + "/" +
                      llvm::formatv("{0}", *R->get("offsets")).str() + "/" + std::to_string(Runs);
    MeasuredBySameLanes[Key].insert(*Measured);
    ++Compared;
  }
  EXPECT_EQ(Compared, 210u);
  // Absent and switched-off lanes: one cost for the same lanes running.
  unsigned Pairs = 0;
  for (const auto &[Key, Costs] : MeasuredBySameLanes) {
    EXPECT_EQ(Costs.size(), 1u) << Key;
    ++Pairs;
  }
  EXPECT_EQ(Pairs, 120u); // 6 kinds x 5 patterns x 4 lane sets (8, 16, 24, 32)
}

// Global atomics: which ones nvcc aggregates per warp (the SASS census of
// test/hw/microbench/atomic_patterns.cu, test/hw/atomics/sass_census.csv)
// and what each case's one warp request costs (the census's expectation,
// and the H200's count in test/hw/atomic_patterns.json once measured).
namespace {

using Fields = std::map<std::string, std::string>;

/// A case of atomic_patterns.cu: what the analysis would know of it, and
/// its warp request (one block of one warp, 256-byte aligned buffer).
struct AtomicCase {
  AtomicTraits Traits;
  WarpAddressSet Request{4};
};

AtomicCase atomicCase(const Fields &F) {
  static const std::map<std::string, AtomicOperation> Ops = {
      {"add", AtomicOperation::Add},       {"sub", AtomicOperation::Sub},
      {"min", AtomicOperation::Min},       {"max", AtomicOperation::Max},
      {"and", AtomicOperation::And},       {"or", AtomicOperation::Or},
      {"xor", AtomicOperation::Xor},       {"exch", AtomicOperation::Exchange},
      {"cas", AtomicOperation::CompareAndSwap}, {"inc", AtomicOperation::Increment},
      {"dec", AtomicOperation::Decrement}};
  AtomicCase C;
  const std::string &Type = F.at("type");
  C.Traits.Type = Type == "i32" || Type == "u32"   ? AtomicValueType::Int32
                  : Type == "i64" || Type == "u64" ? AtomicValueType::Int64
                                                   : AtomicValueType::FloatingPoint;
  C.Traits.Operation = Ops.at(F.at("op"));
  C.Traits.ResultUsed = F.at("result") == "used";
  const std::string &Address = F.at("address");
  // zero, block and gvar are uniform to the compiler; warp and param only
  // at run time.
  C.Traits.UniformAddress = Address == "zero" || Address == "block" || Address == "gvar";
  C.Traits.UniformOperand = F.at("operand") != "var";
  const std::string &Active = F.at("active");
  std::uint32_t Mask = Active == "all" ? 0xffffffffu : Active == "odd" ? 0xaaaaaaaau : 0x0000ffffu;
  unsigned Bytes = static_cast<unsigned>(std::stoul(F.at("bytes")));
  C.Request = WarpAddressSet(Bytes);
  for (unsigned L = 0; L < WarpSize; ++L) {
    unsigned Word = Address == "lane" ? L : Address == "grp4" ? L / 4 : 0;
    if ((Mask >> L) & 1u)
      C.Request.setLane(L, (1ull << 32) + std::uint64_t(Word) * Bytes);
  }
  return C;
}

std::vector<Fields> readCsv(const std::string &Name) {
  std::vector<Fields> Rows;
  auto Buffer = llvm::MemoryBuffer::getFile(std::string(WARPCHECK_HW_DIR) + "/" + Name);
  if (!Buffer) {
    ADD_FAILURE() << Name << ": cannot be read";
    return Rows;
  }
  llvm::SmallVector<llvm::StringRef, 0> Lines, Header, Cells;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, false);
  if (Lines.empty())
    return Rows;
  Lines[0].split(Header, ',');
  for (size_t I = 1; I < Lines.size(); ++I) {
    Cells.clear();
    Lines[I].split(Cells, ',');
    Fields F;
    for (size_t C = 0; C < Header.size() && C < Cells.size(); ++C)
      F[Header[C].str()] = Cells[C].str();
    Rows.push_back(std::move(F));
  }
  return Rows;
}

const char *aggregationName(AtomicAggregation A) {
  return A == AtomicAggregation::Warp ? "yes" : A == AtomicAggregation::FullWarpOnly ? "full_warp" : "no";
}

} // namespace

TEST(HardwareRecords, AtomicAggregationMatchesTheSassCensus) {
  std::vector<Fields> Rows = readCsv("atomics/sass_census.csv");
  ASSERT_GT(Rows.size(), 100u);
  unsigned Costed = 0;
  for (const Fields &F : Rows) {
    AtomicCase C = atomicCase(F);
    EXPECT_STREQ(aggregationName(atomicAggregation(C.Traits)), F.at("aggregated").c_str())
        << F.at("kernel");
    EXPECT_EQ(whyNotAggregated(C.Traits) == nullptr, F.at("aggregated") == "yes") << F.at("kernel");
    if (F.at("expected_sectors").empty()) // a CAS loop (__half)
      continue;
    EXPECT_EQ(computeAtomicRequestCost(C.Request, C.Traits).Sectors,
              std::stoul(F.at("expected_sectors")))
        << F.at("kernel");
    ++Costed;
  }
  EXPECT_GT(Costed, 100u);
}

TEST(HardwareRecords, AtomicSectorsMatchTheH200) {
  if (!llvm::sys::fs::exists(std::string(WARPCHECK_HW_DIR) + "/atomic_patterns.json"))
    GTEST_SKIP() << "test/hw/atomic_patterns.json is not measured yet";
  llvm::json::Array Records = loadRecords("atomic_patterns.json");
  unsigned Compared = 0;
  for (const llvm::json::Value &V : Records) {
    const llvm::json::Object *R = V.getAsObject();
    ASSERT_TRUE(R);
    auto Requests = R->getInteger("requests");
    auto Sectors = R->getInteger("sectors");
    if (!Requests || !Sectors || *Requests != 1 || R->getString("type") == "f16")
      continue; // a CAS loop is many requests of one call
    Fields F;
    for (const char *K : {"kernel", "type", "op", "bytes", "address", "operand", "result", "active"}) {
      if (auto S = R->getString(K))
        F[K] = S->str();
      else if (auto I = R->getInteger(K))
        F[K] = std::to_string(*I);
    }
    AtomicCase C = atomicCase(F);
    EXPECT_EQ(computeAtomicRequestCost(C.Request, C.Traits).Sectors, std::uint64_t(*Sectors))
        << describe(*R);
    ++Compared;
  }
  EXPECT_GT(Compared, 90u);
}

// Nsight Compute's own occupancy limits for 23 launches
// (test/hw/occupancy_ncu.json): the runtime's block count, and the register
// and warp limits, each capped at the SM's 32 blocks as ncu reports them.
// (ncu's launch__registers_per_thread reads max(ptxas count, 16): kernels of
// 4 to 12 registers show 16. Below 32 registers the warp limit always binds
// first on sm_90, so occupancy never depends on it; the model uses the
// runtime's numRegs, which equals ptxas's count.)
#include "warpcheck/model/Occupancy.h"

TEST(HardwareRecords, OccupancyLimitsMatchNsightCompute) {
  llvm::json::Array Records = loadRecords("occupancy_ncu.json");
  ASSERT_GT(Records.size(), 10u);
  const ArchSpec *H200 = findArch("sm_90");
  ASSERT_TRUE(H200);
  for (const llvm::json::Value &V : Records) {
    const llvm::json::Object *R = V.getAsObject();
    ASSERT_TRUE(R);
    const llvm::json::Object *M = R->getObject("metrics");
    ASSERT_TRUE(M);
    KernelResources K;
    K.RegistersPerThread = static_cast<unsigned>(*R->getInteger("num_regs"));
    K.ThreadsPerBlock = static_cast<unsigned>(*R->getInteger("block"));
    K.StaticSharedBytes = static_cast<std::uint64_t>(*R->getInteger("static_smem"));
    K.DynamicSharedBytes = static_cast<std::uint64_t>(*R->getInteger("dyn_smem"));
    OccupancyResult O = computeOccupancy(*H200, K);
    std::string What = describe(*R).substr(0, 200);
    EXPECT_EQ(O.ActiveBlocksPerSM, *R->getInteger("runtime_active_blocks")) << What;
    auto Cap = [&](unsigned L) { return std::min(L, H200->MaxBlocksPerSM); };
    EXPECT_EQ(Cap(O.BlockLimitRegisters),
              *M->getNumber("launch__occupancy_limit_registers")) << What;
    EXPECT_EQ(Cap(O.BlockLimitWarps), *M->getNumber("launch__occupancy_limit_warps")) << What;
    EXPECT_GE(*M->getNumber("launch__registers_per_thread"), K.RegistersPerThread) << What;
  }
}

// What cudaOccupancyMaxPotentialBlockSize (fixed dynamic shared memory) and
// cudaOccupancyMaxPotentialBlockSizeVariableSMem (bytes per thread) chose on
// the device: test/hw/potential_block_size.json, 1,440 calls (an H100,
// sm_90, 132 SMs). `warpcheck occupancy --sweep` suggests with
// suggestBlockSize; the runtime caps the block by the kernel's
// maxThreadsPerBlock (its registers) and by blockSizeLimit, and the dynamic
// shared memory by the kernel's maxDynamicSharedSizeBytes.
TEST(HardwareRecords, SuggestedBlockSizeMatchesTheRuntime) {
  std::string Path = std::string(WARPCHECK_HW_DIR) + "/potential_block_size.json";
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  ASSERT_TRUE(Buffer) << Path;
  auto Parsed = llvm::json::parse((*Buffer)->getBuffer());
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  const llvm::json::Object *Root = Parsed->getAsObject();
  ASSERT_TRUE(Root);
  const llvm::json::Array *Rows = Root->getArray("rows");
  ASSERT_TRUE(Rows);
  ASSERT_EQ(Rows->size(), 1440u);
  auto SMs = Root->getObject("device")->getInteger("multiProcessorCount");
  ASSERT_EQ(SMs.value_or(0), 132);
  const ArchSpec *Sm90 = findArch("sm_90");
  unsigned Compared = 0, NoBlock = 0, Limited = 0;
  for (const llvm::json::Value &V : *Rows) {
    const llvm::json::Array &R = *V.getAsArray();
    std::string Text;
    llvm::raw_string_ostream(Text) << V;
    ASSERT_EQ(R[8].getAsString().value_or(""), "cudaSuccess") << Text;
    KernelResources K;
    K.RegistersPerThread = static_cast<unsigned>(*R[1].getAsInteger());
    K.StaticSharedBytes = static_cast<std::uint64_t>(*R[2].getAsInteger());
    unsigned MaxThreads = static_cast<unsigned>(*R[3].getAsInteger());
    bool PerThread = R[4].getAsString() == "per_thread";
    K.DynamicSharedBytes = static_cast<std::uint64_t>(*R[5].getAsInteger());
    std::uint64_t BytesPerThread = static_cast<std::uint64_t>(*R[6].getAsInteger());
    unsigned Limit = static_cast<unsigned>(*R[7].getAsInteger());
    // These kernels keep the runtime's default limit on dynamic shared
    // memory (cudaFuncAttributes::maxDynamicSharedSizeBytes, 48 KB less the
    // static size): they never opt in.
    K.MaxDynamicSharedBytes = Sm90->SharedMemoryPerBlock - K.StaticSharedBytes;
    unsigned Cap = std::min(Limit ? Limit : Sm90->MaxThreadsPerBlock, MaxThreads);
    BlockSizeSuggestion S = suggestBlockSize(*Sm90, K, PerThread ? BytesPerThread : 0, Cap);
    EXPECT_EQ(S.BlockSize, *R[10].getAsInteger()) << Text;
    EXPECT_EQ(S.ActiveBlocksPerSM * 132, *R[9].getAsInteger()) << Text;
    NoBlock += *R[10].getAsInteger() == 0;
    Limited += Cap < Sm90->MaxThreadsPerBlock;
    ++Compared;
  }
  EXPECT_EQ(Compared, 1440u);
  // The records hold each kind of case: no block fits, and a cap applies.
  EXPECT_GT(NoBlock, 0u);
  EXPECT_GT(Limited, 500u);
}
