//===- OccupancyCommand.cpp - `warpcheck occupancy` -----------------------===//
//
// The occupancy calculator as a command: the model's computeOccupancy (the
// semantics of cudaOccupancyMaxActiveBlocksPerMultiprocessor) for one
// configuration or a CSV grid of them.
//
//===----------------------------------------------------------------------===//

#include "OccupancySvg.h"
#include "OccupancySweep.h"

#include "warpcheck/model/Arch.h"
#include "warpcheck/model/Occupancy.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

using namespace warpcheck::model;
using warpcheck::tool::OccupancySweep;

namespace {

const char *OccupancyHelp = R"(USAGE: warpcheck occupancy --arch=<sm_XX[,sm_YY...]> --registers=<R> --block=<B>
                           [--static-shared=<bytes>] [--dynamic-shared=<bytes>]
                           [--carveout=<percent>] [--format=text|json]
       warpcheck occupancy --arch=<sm_XX> --configs=<file.csv> [--format=text|json]
       warpcheck occupancy --arch=<sm_XX[,...]> --registers=<R> --sweep
                           [--static-shared=<bytes>] [--dynamic-shared=<bytes>]
                           [--dynamic-shared-per-thread=<bytes>] [--carveout=<percent>]
                           [--max-dynamic-shared=<bytes>] [--format=text|json|csv|svg]

Theoretical occupancy with the semantics of the CUDA runtime's
cudaOccupancyMaxActiveBlocksPerMultiprocessor: active blocks and warps per SM,
occupancy, and the resource that limits it.

  --configs=<file>  CSV with the header registers,block,static_shared,dynamic_shared
                    (optional fifth column carveout); one result per row, in order.
  --sweep           Every block size from 32 to 1024 threads in steps of 32, each
                    with its limiter, and the block size
                    cudaOccupancyMaxPotentialBlockSize suggests (the most active
                    threads per SM; the larger block on a tie), marked '*'.
  --dynamic-shared-per-thread=<bytes>
                    With --sweep: dynamic shared memory grows with the block
                    (the runtime's blockSizeToDynamicSMemSize). Block sizes
                    whose share exceeds the kernel's limit cannot run, as
                    cudaOccupancyMaxPotentialBlockSizeVariableSMem finds.
  --max-dynamic-shared=<bytes>
                    The kernel's cudaFuncAttributeMaxDynamicSharedMemorySize,
                    as the program sets it (the opt-in above 48 KB). Without
                    it a fixed --dynamic-shared is taken as opted in, and a
                    per-thread sweep has the runtime's default, 48 KB less the
                    static size, which is what the runtime chooses with for a
                    kernel that does not raise it (measured on an H100:
                    test/hw/potential_block_size.json).

Exit codes: 0 success, 2 usage error or malformed input (file and line named).
)";

void fail(const llvm::Twine &Message) {
  llvm::WithColor::error(llvm::errs(), "warpcheck occupancy") << Message << "\n";
}

template <typename T> bool parseNumber(llvm::StringRef Text, T &Out) {
  unsigned long long V;
  if (llvm::getAsUnsignedInteger(Text.trim(), 10, V))
    return false;
  Out = static_cast<T>(V);
  return static_cast<unsigned long long>(Out) == V;
}

/// Each resource's own block limit (null where it sets none): the
/// per-limit breakdown every output carries.
llvm::json::Object limitsJson(const OccupancyResult &R) {
  auto Limit = [](unsigned L) {
    return L == OccupancyResult::Unlimited ? llvm::json::Value(nullptr) : llvm::json::Value(L);
  };
  return llvm::json::Object{{"warps", Limit(R.BlockLimitWarps)},
                            {"blocks", Limit(R.BlockLimitBlocks)},
                            {"registers", Limit(R.BlockLimitRegisters)},
                            {"shared_memory", Limit(R.BlockLimitSharedMemory)},
                            {"barriers", Limit(R.BlockLimitBarriers)}};
}

std::string limitsText(const OccupancyResult &R) {
  std::string S;
  auto Add = [&](const char *Name, unsigned L) {
    if (L != OccupancyResult::Unlimited)
      S += (S.empty() ? "" : ", ") + std::string(Name) + " " + std::to_string(L);
  };
  Add("warps", R.BlockLimitWarps);
  Add("registers", R.BlockLimitRegisters);
  Add("shared memory", R.BlockLimitSharedMemory);
  Add("blocks", R.BlockLimitBlocks);
  Add("barriers", R.BlockLimitBarriers);
  return S;
}

/// The dynamic shared memory a block uses above the runtime's default
/// limit (48 KB less the static size): it runs only once the program
/// raises cudaFuncAttributeMaxDynamicSharedMemorySize to at least that.
bool needsOptIn(const ArchSpec &Arch, const KernelResources &C) {
  return C.StaticSharedBytes + C.DynamicSharedBytes > Arch.SharedMemoryPerBlock;
}

llvm::json::Object toJson(const ArchSpec &Arch, const KernelResources &C,
                          const OccupancyResult &R) {
  llvm::json::Object O{{"arch", Arch.Name},
                       {"registers", C.RegistersPerThread},
                       {"block", C.ThreadsPerBlock},
                       {"static_shared", static_cast<std::int64_t>(C.StaticSharedBytes)},
                       {"dynamic_shared", static_cast<std::int64_t>(C.DynamicSharedBytes)}};
  if (C.CarveoutPercent)
    O["carveout"] = *C.CarveoutPercent;
  O["needs_opt_in"] = needsOptIn(Arch, C);
  O["limits"] = limitsJson(R);
  if (!R.valid()) {
    O["error"] = R.Error;
    O["active_blocks_per_sm"] = 0;
    O["active_warps_per_sm"] = 0;
    O["theoretical"] = 0.0;
    O["limiter"] = "invalid";
    return O;
  }
  O["active_blocks_per_sm"] = R.ActiveBlocksPerSM;
  O["active_warps_per_sm"] = R.ActiveWarpsPerSM;
  O["theoretical"] = R.Theoretical;
  O["limiter"] = limiterName(R.Limiter);
  return O;
}

std::string toText(const ArchSpec &Arch, const KernelResources &C, const OccupancyResult &R) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << Arch.Name << ": " << C.RegistersPerThread << " registers x " << C.ThreadsPerBlock
     << " threads, " << C.StaticSharedBytes << " B static + " << C.DynamicSharedBytes
     << " B dynamic shared";
  if (C.CarveoutPercent)
    OS << ", carveout " << *C.CarveoutPercent << "%";
  OS << " -> ";
  if (!R.valid())
    OS << "cannot launch: " << R.Error;
  else
    OS << R.ActiveBlocksPerSM << " active block" << (R.ActiveBlocksPerSM == 1 ? "" : "s")
       << " per SM, " << R.ActiveWarpsPerSM << " warps, "
       << warpcheck::model::formatPercent(R.Theoretical) << " occupancy (limited by "
       << limiterName(R.Limiter) << "; blocks per SM by " << limitsText(R) << ")";
  if (needsOptIn(Arch, C))
    OS << "; needs cudaFuncAttributeMaxDynamicSharedMemorySize >= " << C.DynamicSharedBytes
       << " (the opt-in: the default is " << Arch.SharedMemoryPerBlock << " B less the static "
       << "size)";
  return OS.str();
}

/// --sweep: one row per block size of 32 to the device's limit, and the
/// suggestion (model::suggestBlockSize), in the format asked.
void printSweep(const ArchSpec &Arch, KernelResources C, std::uint64_t PerThread,
                llvm::StringRef Format, llvm::json::Array &Json) {
  OccupancySweep Sweep = warpcheck::tool::sweepBlockSizes(Arch, C, PerThread);
  const BlockSizeSuggestion &Best = Sweep.Suggested;
  llvm::json::Array Rows;
  if (Format == "text")
    llvm::outs() << Arch.Name << ": " << C.RegistersPerThread << " registers, "
                 << C.StaticSharedBytes << " B static shared, "
                 << (PerThread ? std::to_string(PerThread) + " B dynamic shared per thread"
                               : std::to_string(C.DynamicSharedBytes) + " B dynamic shared")
                 << "\n  block  blocks/SM  warps/SM  occupancy  limited by      blocks per SM "
                    "each resource allows\n";
  for (const OccupancySweep::Point &P : Sweep.Points) {
    const KernelResources &At = P.Resources;
    const OccupancyResult &R = P.Result;
    unsigned Block = At.ThreadsPerBlock;
    std::string Limiter = R.valid() ? limiterName(R.Limiter) : std::string("invalid");
    bool Suggested = Block == Best.BlockSize;
    if (Format == "text")
      llvm::outs() << llvm::formatv("  {0}{1,4}  {2,9}  {3,8}  {4,9}  {5,-14}  {6}\n",
                                    Suggested ? "*" : " ", Block, R.ActiveBlocksPerSM,
                                    R.ActiveWarpsPerSM, formatPercent(R.Theoretical), Limiter,
                                    R.valid() ? limitsText(R) : std::string("-"));
    else if (Format == "csv")
      llvm::outs() << Arch.Name << "," << At.RegistersPerThread << "," << At.StaticSharedBytes
                   << "," << At.DynamicSharedBytes << "," << Block << "," << R.ActiveBlocksPerSM
                   << "," << R.ActiveWarpsPerSM << "," << llvm::formatv("{0:F4}", R.Theoretical)
                   << "," << Limiter << "," << (Suggested ? 1 : 0);
    if (Format == "csv") {
      // The per-limit breakdown (empty where a resource sets no limit).
      for (unsigned L : {R.BlockLimitWarps, R.BlockLimitRegisters, R.BlockLimitSharedMemory,
                         R.BlockLimitBlocks, R.BlockLimitBarriers})
        llvm::outs() << "," << (L == OccupancyResult::Unlimited || !R.valid() ? std::string()
                                                                                : std::to_string(L));
      llvm::outs() << "," << (needsOptIn(Arch, At) ? 1 : 0) << "\n";
    }
    else
      Rows.push_back(toJson(Arch, At, R));
  }
  if (Format == "text") {
    // Sizes refused for the kernel's dynamic shared memory limit: say which
    // option lifts it (the opt-in).
    for (const OccupancySweep::Point &P : Sweep.Points)
      if (!P.Result.valid() &&
          llvm::StringRef(P.Result.Error).contains("cudaFuncAttributeMaxDynamicSharedMemorySize")) {
        std::uint64_t Limit = P.Resources.MaxDynamicSharedBytes.value_or(0);
        llvm::outs() << "  from block " << P.Resources.ThreadsPerBlock
                     << ": more dynamic shared memory than the kernel's "
                        "cudaFuncAttributeMaxDynamicSharedMemorySize of "
                     << Limit << " B" << (C.MaxDynamicSharedBytes ? "" : " (the default)")
                     << "; --max-dynamic-shared=<bytes> as the program raises it (at most "
                     << (Arch.SharedMemoryPerBlockOptin > C.StaticSharedBytes
                             ? Arch.SharedMemoryPerBlockOptin - C.StaticSharedBytes
                             : 0)
                     << " on " << Arch.Name << ")\n";
        break;
      }
    if (Best.BlockSize)
      llvm::outs() << "  suggested block size " << Best.BlockSize
                   << " (as cudaOccupancyMaxPotentialBlockSize): " << Best.ActiveBlocksPerSM
                   << " block" << (Best.ActiveBlocksPerSM == 1 ? "" : "s")
                   << " per SM, so a minimum grid of " << Best.ActiveBlocksPerSM
                   << " x the SM count\n";
    else
      llvm::outs() << "  no block size can run\n";
  } else if (Format == "json") {
    Json.push_back(llvm::json::Object{
        {"arch", Arch.Name},
        {"suggested_block", Best.BlockSize ? llvm::json::Value(Best.BlockSize) : nullptr},
        {"suggested_blocks_per_sm", Best.ActiveBlocksPerSM},
        {"sweep", std::move(Rows)}});
  }
}

} // namespace

int occupancyMain(llvm::ArrayRef<const char *> Argv) {
  std::string ArchList, ConfigsFile, Format = "text";
  // A configuration is the kernel's resources: what the calculator takes.
  KernelResources Single;
  bool HaveRegisters = false, HaveBlock = false, Sweep = false;
  std::uint64_t PerThread = 0;
  for (size_t I = 1; I < Argv.size(); ++I) {
    llvm::StringRef A = Argv[I];
    auto Value = [&](llvm::StringRef Name, llvm::StringRef &Out) {
      if (A.consume_front(Name)) {
        if (A.consume_front("=")) {
          Out = A;
          return true;
        }
        if (A.empty() && I + 1 < Argv.size()) {
          Out = Argv[++I];
          return true;
        }
      }
      A = Argv[I];
      return false;
    };
    llvm::StringRef V;
    if (A == "--help" || A == "-h") {
      llvm::outs() << OccupancyHelp;
      return 0;
    } else if (Value("--arch", V)) {
      ArchList = V.str();
    } else if (A == "--sweep") {
      Sweep = true;
    } else if (Value("--dynamic-shared-per-thread", V)) {
      if (!parseNumber(V, PerThread)) {
        fail("--dynamic-shared-per-thread needs a number of bytes, got '" + V + "'");
        return 2;
      }
    } else if (Value("--configs", V)) {
      ConfigsFile = V.str();
    } else if (Value("--format", V)) {
      Format = V.str();
    } else if (Value("--registers", V)) {
      if (!parseNumber(V, Single.RegistersPerThread)) {
        fail("--registers needs a number, got '" + V + "'");
        return 2;
      }
      HaveRegisters = true;
    } else if (Value("--block", V)) {
      if (!parseNumber(V, Single.ThreadsPerBlock)) {
        fail("--block needs a number of threads, got '" + V + "'");
        return 2;
      }
      HaveBlock = true;
    } else if (Value("--static-shared", V)) {
      if (!parseNumber(V, Single.StaticSharedBytes)) {
        fail("--static-shared needs a number of bytes, got '" + V + "'");
        return 2;
      }
    } else if (Value("--dynamic-shared", V)) {
      if (!parseNumber(V, Single.DynamicSharedBytes)) {
        fail("--dynamic-shared needs a number of bytes, got '" + V + "'");
        return 2;
      }
    } else if (Value("--max-dynamic-shared", V)) {
      std::uint64_t Max;
      if (!parseNumber(V, Max)) {
        fail("--max-dynamic-shared needs a number of bytes, got '" + V + "'");
        return 2;
      }
      Single.MaxDynamicSharedBytes = Max;
    } else if (Value("--carveout", V)) {
      unsigned P;
      if (!parseNumber(V, P) || P > 100) {
        fail("--carveout needs a percentage 0..100, got '" + V + "'");
        return 2;
      }
      Single.CarveoutPercent = static_cast<int>(P);
    } else {
      fail("unknown option '" + A + "' (see warpcheck occupancy --help)");
      return 2;
    }
  }
  if (Format != "text" && Format != "json" &&
      !(Sweep && (Format == "csv" || Format == "svg"))) {
    fail("unknown --format '" + Format + "' (expected text or json; csv or svg with --sweep)");
    return 2;
  }
  if (ArchList.empty()) {
    fail("--arch is required, e.g. --arch=" + llvm::StringRef(DefaultArchName));
    return 2;
  }
  std::vector<const ArchSpec *> Archs;
  llvm::SmallVector<llvm::StringRef, 4> Names;
  llvm::StringRef(ArchList).split(Names, ',', -1, false);
  for (llvm::StringRef N : Names) {
    const ArchSpec *S = findArch(N.trim().str());
    if (!S) {
      fail("unknown --arch '" + N + "'; known: " + llvm::join(knownArchNames(), ", "));
      return 2;
    }
    Archs.push_back(S);
  }

  if (Sweep) {
    if (!HaveRegisters || HaveBlock || !ConfigsFile.empty()) {
      fail("--sweep takes --registers (and shared memory), not --block or --configs");
      return 2;
    }
    if (Format == "svg") {
      std::vector<OccupancySweepPanel> Panels;
      for (const ArchSpec *Arch : Archs) {
        OccupancySweepPanel P{Arch, Single, sweepBlockSizes(*Arch, Single, PerThread), ""};
        // As the HTML report titles its panels, the dynamic part per thread
        // when it grows with the block.
        P.Title = Arch->Name + " · " + std::to_string(Single.RegistersPerThread) +
                  " registers · " +
                  std::to_string(Single.StaticSharedBytes + Single.DynamicSharedBytes) +
                  (PerThread ? " B + " + std::to_string(PerThread) + " B/thread" : " B") +
                  " shared";
        Panels.push_back(std::move(P));
      }
      writeOccupancySweepSvg(llvm::outs(), Panels);
      return 0;
    }
    llvm::json::Array Json;
    if (Format == "csv")
      llvm::outs() << "arch,registers,static_shared,dynamic_shared,block,active_blocks_per_sm,"
                      "active_warps_per_sm,theoretical,limiter,suggested,limit_warps,"
                      "limit_registers,limit_shared_memory,limit_blocks,limit_barriers,"
                      "needs_opt_in\n";
    for (const ArchSpec *Arch : Archs)
      printSweep(*Arch, Single, PerThread, Format, Json);
    if (Format == "json")
      llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(Json))) << "\n";
    return 0;
  }

  std::vector<KernelResources> Configs;
  if (!ConfigsFile.empty()) {
    auto Buffer = llvm::MemoryBuffer::getFile(ConfigsFile);
    if (!Buffer) {
      fail(ConfigsFile + ": cannot be read: " + Buffer.getError().message());
      return 2;
    }
    llvm::SmallVector<llvm::StringRef, 64> Lines;
    (*Buffer)->getBuffer().split(Lines, '\n');
    bool Header = true;
    unsigned LineNo = 0;
    for (llvm::StringRef Line : Lines) {
      ++LineNo;
      Line = Line.trim();
      if (Line.empty() || Line.starts_with("#"))
        continue;
      llvm::SmallVector<llvm::StringRef, 5> Cells;
      Line.split(Cells, ',');
      if (Header) {
        Header = false;
        if (Cells.size() < 4 || Cells[0].trim() != "registers" ||
            Cells[1].trim() != "block" || Cells[2].trim() != "static_shared" ||
            Cells[3].trim() != "dynamic_shared") {
          fail(ConfigsFile + ":" + llvm::Twine(LineNo) +
               ": expected the header registers,block,static_shared,dynamic_shared");
          return 2;
        }
        continue;
      }
      KernelResources C;
      unsigned P = 0;
      if (Cells.size() < 4 || Cells.size() > 5 || !parseNumber(Cells[0], C.RegistersPerThread) ||
          !parseNumber(Cells[1], C.ThreadsPerBlock) || !parseNumber(Cells[2], C.StaticSharedBytes) ||
          !parseNumber(Cells[3], C.DynamicSharedBytes) ||
          (Cells.size() == 5 && !Cells[4].trim().empty() &&
           (!parseNumber(Cells[4], P) || P > 100))) {
        fail(ConfigsFile + ":" + llvm::Twine(LineNo) + ": malformed row '" + Line +
             "' (expected four non-negative integers, and optionally a carveout percentage)");
        return 2;
      }
      if (Cells.size() == 5 && !Cells[4].trim().empty())
        C.CarveoutPercent = static_cast<int>(P);
      Configs.push_back(C);
    }
    if (Header) {
      fail(ConfigsFile + ": empty file (expected a header and rows)");
      return 2;
    }
  } else {
    if (!HaveRegisters || !HaveBlock) {
      fail("--registers and --block are required (or --configs=<file>)");
      return 2;
    }
    Configs.push_back(Single);
  }

  llvm::json::Array Results;
  for (const KernelResources &C : Configs)
    for (const ArchSpec *Arch : Archs) {
      OccupancyResult R = computeOccupancy(*Arch, C);
      if (Format == "json")
        Results.push_back(toJson(*Arch, C, R));
      else
        llvm::outs() << toText(*Arch, C, R) << "\n";
    }
  if (Format == "json")
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(Results))) << "\n";
  return 0;
}
