//===- SassListingTest.cpp - the memory instructions of nvdisasm listings -===//
//
// The parser on listings nvdisasm 13.0 printed for the test inputs' cubins
// on the H200's machine (test/hw/sass/, trimmed to their code), the opcode
// table, the cache of a run's instructions, and the nvcc run with a fake
// toolkit whose nvdisasm serves such a listing: started with an argument
// vector, its listing read and cached with the registers, a toolkit
// without nvdisasm leaving the instructions unread.
//
//===----------------------------------------------------------------------===//

#include "registers/PtxasCache.h"

#include "warpcheck/analysis/RegisterUsage.h"
#include "warpcheck/analysis/SassListing.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace warpcheck::analysis;

namespace {

std::string listing(llvm::StringRef Input) {
  auto B = llvm::MemoryBuffer::getFile(std::string(WARPCHECK_SOURCE_DIR) + "/test/hw/sass/" +
                                       Input.str() + ".nvdisasm.txt");
  EXPECT_TRUE(bool(B)) << Input.str();
  return B ? (*B)->getBuffer().str() : "";
}

/// The instructions of Kernel at Line of the input file (innermost
/// position), with Opcode.
std::vector<const SassMemoryInstruction *> at(const std::vector<SassMemoryInstruction> &All,
                                              unsigned Line, llvm::StringRef Opcode) {
  std::vector<const SassMemoryInstruction *> Out;
  for (const SassMemoryInstruction &I : All)
    if (!I.Positions.empty() && I.Positions.front().Line == Line && I.Opcode == Opcode)
      Out.push_back(&I);
  return Out;
}

TEST(SassListing, Opcodes) {
  struct Case {
    const char *Opcode;
    SassSpace Space;
    SassOp Op;
    unsigned Bytes;
  } Cases[] = {
      {"LDG.E", SassSpace::Global, SassOp::Load, 4},
      {"LDG.E.64", SassSpace::Global, SassOp::Load, 8},
      {"LDG.E.128.CONSTANT", SassSpace::Global, SassOp::Load, 16},
      {"LDG.E.U8", SassSpace::Global, SassOp::Load, 1},
      {"STG.E.U16", SassSpace::Global, SassOp::Store, 2},
      {"STG.E.EF", SassSpace::Global, SassOp::Store, 4},
      {"LDS.U8", SassSpace::Shared, SassOp::Load, 1},
      {"STS.128", SassSpace::Shared, SassOp::Store, 16},
      {"ATOMS.POPC.INC.32", SassSpace::Shared, SassOp::Atomic, 4},
      {"REDG.E.ADD.F32.FTZ.RN.STRONG.GPU", SassSpace::Global, SassOp::Atomic, 4},
      {"REDG.E.ADD.64.STRONG.GPU", SassSpace::Global, SassOp::Atomic, 8},
      {"ATOMG.E.ADD.F64.RN.STRONG.GPU", SassSpace::Global, SassOp::Atomic, 8},
      {"RED.E.ADD.STRONG.GPU", SassSpace::Global, SassOp::Atomic, 4},
      {"ATOM.E.ADD.STRONG.GPU", SassSpace::Generic, SassOp::Atomic, 4},
      {"LD.E.64", SassSpace::Generic, SassOp::Load, 8},
      {"LDL.LU", SassSpace::Local, SassOp::Load, 4},
      {"LDGSTS.E.BYPASS.LTC128B.128", SassSpace::Global, SassOp::Load, 16},
  };
  for (const Case &C : Cases) {
    std::optional<SassMemoryShape> S = decodeMemoryOpcode(C.Opcode);
    ASSERT_TRUE(S) << C.Opcode;
    EXPECT_EQ(S->Space, C.Space) << C.Opcode;
    EXPECT_EQ(S->Op, C.Op) << C.Opcode;
    EXPECT_EQ(S->BytesPerLane, C.Bytes) << C.Opcode;
  }
  EXPECT_TRUE(decodeMemoryOpcode("LDGSTS.E.BYPASS.LTC128B.128")->AlsoSharedStore);
  // The constant bank, arithmetic, control: not memory the model costs.
  for (const char *Other : {"LDC.64", "ULDC", "IMAD.WIDE", "BAR.SYNC.DEFER_BLOCKING", "EXIT",
                            "LDSM.16.M88.4", "SUST.D.BA.2D.STRONG.SM.TRAP"})
    EXPECT_FALSE(decodeMemoryOpcode(Other)) << Other;
}

TEST(SassListing, TreeReductionOfTheBankConflictInput) {
  SassListing L = parseNvdisasmListing(listing("cuda-shared-bank-conflict"));
  EXPECT_EQ(L.Kernels.size(), 10u);
  ASSERT_EQ(L.Kernels.count("_Z17reduceInterleavedPKfPf"), 1u);
  std::vector<SassMemoryInstruction> K =
      kernelMemoryInstructions(L, "_Z17reduceInterleavedPKfPf");
  // sdata[index] += sdata[index + s], unrolled: one LDS.64 (s = 1) and two
  // 4-byte loads for each of the 7 other steps, 8 stores; the listing's
  // predicate kept.
  std::vector<const SassMemoryInstruction *> Merged = at(K, 54, "LDS.64");
  ASSERT_EQ(Merged.size(), 1u);
  EXPECT_EQ(Merged[0]->Predicate, "@!P0");
  EXPECT_EQ(Merged[0]->Offset, 0x130u);
  EXPECT_EQ(Merged[0]->Shape.BytesPerLane, 8u);
  EXPECT_EQ(Merged[0]->Function, "_Z17reduceInterleavedPKfPf");
  EXPECT_TRUE(llvm::StringRef(Merged[0]->Positions.front().File)
                  .ends_with("/cuda-shared-bank-conflict.cu"));
  EXPECT_EQ(at(K, 54, "LDS").size(), 14u);
  EXPECT_EQ(at(K, 54, "STS").size(), 8u);
  EXPECT_EQ(at(K, 49, "LDG.E").size(), 1u);
  EXPECT_EQ(at(K, 67, "STG.E").size(), 1u);
  EXPECT_EQ(K.size(), 1u + 1u + 15u + 8u + 1u + 1u);
}

TEST(SassListing, InlinedCodeKeepsItsInnermostLine) {
  // mix<60>'s loads (line 21) inlined into registerBound (line 43): nvdisasm
  // -gi annotates them "line 21 inlined at line 43", then "line 43"; the
  // instruction is line 21's, called from line 43 (as ncu attributes it).
  SassListing L = parseNvdisasmListing(listing("cuda-occupancy"));
  std::vector<SassMemoryInstruction> K = kernelMemoryInstructions(L, "_Z13registerBoundPKfPfi");
  std::vector<const SassMemoryInstruction *> Loads = at(K, 21, "LDG.E");
  EXPECT_EQ(Loads.size(), 60u);
  for (const SassMemoryInstruction *I : Loads) {
    ASSERT_EQ(I->Positions.size(), 2u);
    EXPECT_EQ(I->Positions[1].Line, 43u);
  }
  // atomicAdd's code is CUDA's header's, inlined at the calling line.
  SassListing A = parseNvdisasmListing(listing("atomics"));
  unsigned Inlined = 0;
  for (const auto &[F, List] : A.Functions)
    for (const SassMemoryInstruction &I : List)
      if (I.Positions.size() == 2 &&
          llvm::StringRef(I.Positions[0].File).ends_with("device_atomic_functions.hpp")) {
        ++Inlined;
        EXPECT_TRUE(llvm::StringRef(I.Positions[1].File).ends_with("/atomics.cu"));
      }
  EXPECT_GT(Inlined, 0u);
}

TEST(SassListing, InlinedTwiceKeepsEveryLevel) {
  // nvdisasm -gi's text for a store of llm.c's blockReduce (common.h line
  // 39), inlined into a helper (line 53) that a kernel calls (line 102):
  // one annotation per level. The instruction is line 39's, as ncu
  // attributes it, inlined at 53, inlined at 102.
  SassListing L = parseNvdisasmListing(
      "\t.section\t.text.k,\"ax\",@progbits\n"
      "\t//## File \"/p/common.h\", line 53 inlined at \"/p/g.cu\", line 102\n"
      "\t//## File \"/p/g.cu\", line 102\n"
      "        /*0340*/                   MOV R3, RZ ;\n"
      "\t//## File \"/p/common.h\", line 39 inlined at \"/p/common.h\", line 53\n"
      "\t//## File \"/p/common.h\", line 53 inlined at \"/p/g.cu\", line 102\n"
      "\t//## File \"/p/g.cu\", line 102\n"
      "        /*0350*/              @!P0 STS [R2], R11 ;\n"
      "\t//## File \"/p/g.cu\", line 103\n"
      "        /*0360*/                   LDS R3, [R7] ;\n");
  std::vector<SassMemoryInstruction> K = kernelMemoryInstructions(L, "k");
  ASSERT_EQ(K.size(), 2u);
  ASSERT_EQ(K[0].Positions.size(), 3u);
  EXPECT_EQ(K[0].Positions[0].File, "/p/common.h");
  EXPECT_EQ(K[0].Positions[0].Line, 39u);
  EXPECT_EQ(K[0].Positions[1].Line, 53u);
  EXPECT_EQ(K[0].Positions[2].File, "/p/g.cu");
  EXPECT_EQ(K[0].Positions[2].Line, 102u);
  // A new line after an instruction starts a chain of its own.
  ASSERT_EQ(K[1].Positions.size(), 1u);
  EXPECT_EQ(K[1].Positions[0].Line, 103u);
}

TEST(SassListing, CalledFunctionsAndOddLines) {
  const char *Text = R"(
	.section	.text._Z6helperPf,"ax",@progbits
_Z6helperPf:
	//## File "/p/a.cu", line 3
        /*0000*/                   LDG.E.64 R2, desc[UR4][R4.64] ;
        /*0010*/                   RET.REL.NODEC R20 `(_Z6kernelPf) ;
	.section	.text._Z6kernelPf,"ax",@progbits
        .other          _Z6kernelPf,@"STO_CUDA_ENTRY STV_DEFAULT"
_Z6kernelPf:
	//## File "/p/a.cu", line 7
        /*0000*/              @P1 STS.U16 [R3+0x4], R2 ;
        /*0010*/                   CALL.REL.NOINC `(_Z6helperPf) ;
        /*0020*/                   NOT AN INSTRUCTION
        /*zzzz*/                   LDG.E R1, [R2] ;
	//## File "/p/a.cu", line
        /*0030*/                   STL [R1], R2 ;
	.section	.debug_line,"",@progbits
        /*0000*/ 	.byte	0x49, 0x04
)";
  SassListing L = parseNvdisasmListing(Text);
  EXPECT_EQ(L.Kernels, std::set<std::string>{"_Z6kernelPf"});
  std::vector<SassMemoryInstruction> K = kernelMemoryInstructions(L, "_Z6kernelPf");
  ASSERT_EQ(K.size(), 3u);
  EXPECT_EQ(K[0].Opcode, "STS.U16");
  EXPECT_EQ(K[0].Predicate, "@P1");
  EXPECT_EQ(K[0].Shape.BytesPerLane, 2u);
  // A malformed position line leaves the instruction without one.
  EXPECT_EQ(K[1].Opcode, "STL");
  EXPECT_TRUE(K[1].Positions.empty());
  // The called function's code follows the kernel's.
  EXPECT_EQ(K[2].Opcode, "LDG.E.64");
  EXPECT_EQ(K[2].Function, "_Z6helperPf");
  EXPECT_EQ(K[2].Positions.front().Line, 3u);
  EXPECT_TRUE(parseNvdisasmListing("").Functions.empty());
  EXPECT_TRUE(kernelMemoryInstructions(L, "_Z7missingv").empty());
}

TEST(SassListing, LoopsAndAddressRegisters) {
  // compiler-transformations.cu's accumulate: tmp[i] loaded once before
  // the loops (R2), then a 16-times unrolled loop (.L_x_18) whose loads step
  // R4 (x[j]) and R6 (A[i * n + j]) by immediate offsets and store through
  // R2; the remainder's last loop (.L_x_20) is preceded by its own load of
  // tmp[i].
  SassListing L = parseNvdisasmListing(listing("compiler-transformations"));
  std::vector<SassMemoryInstruction> K =
      kernelMemoryInstructions(L, "_Z10accumulatePKfS0_Pfi");
  std::vector<const SassMemoryInstruction *> Loads = at(K, 15, "LDG.E");
  ASSERT_GE(Loads.size(), 4u);
  EXPECT_EQ(Loads.front()->Offset, 0x120u);
  EXPECT_EQ(Loads.front()->LoopHead, -1);
  EXPECT_EQ(Loads.front()->AddressBase, "R2");
  EXPECT_EQ(Loads[1]->Offset, 0x1f0u);
  EXPECT_EQ(Loads[1]->LoopHead, 0x1f0);
  EXPECT_EQ(Loads[1]->AddressBase, "R4");
  EXPECT_EQ(Loads[2]->AddressBase, "R6");
  unsigned Outside = 0;
  for (const SassMemoryInstruction *I : Loads)
    Outside += I->LoopHead < 0;
  // Before the loops and before the last one (tmp[i]), and the 8-times
  // unrolled remainder that runs at most once (8 of A, 8 of x).
  EXPECT_EQ(Outside, 18u);
  for (const SassMemoryInstruction *I : at(K, 15, "STG.E"))
    EXPECT_EQ(I->AddressBase, "R2");
}

TEST(SassListing, CachedWithTheRegisters) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("warpcheck-sass-cache", Dir));
  std::string File = (Dir + "/entry.txt").str();
  TranslationUnitRegisters R;
  R.Source = RegisterSource::Ptxas;
  R.ByMangledName["_Z1kv"].Registers = 20;
  SassListing L = parseNvdisasmListing(listing("merged-accesses"));
  R.MemoryInstructions.emplace();
  for (const std::string &K : L.Kernels)
    (*R.MemoryInstructions)[K] = kernelMemoryInstructions(L, K);
  registers::writeCache(File, R);
  std::optional<TranslationUnitRegisters> Back = registers::readCache(File);
  ASSERT_TRUE(Back);
  ASSERT_TRUE(Back->MemoryInstructions);
  ASSERT_EQ(Back->MemoryInstructions->size(), R.MemoryInstructions->size());
  for (const auto &[K, List] : *R.MemoryInstructions) {
    const auto &Read = Back->MemoryInstructions->at(K);
    ASSERT_EQ(Read.size(), List.size()) << K;
    for (size_t I = 0; I < List.size(); ++I) {
      EXPECT_EQ(Read[I].Opcode, List[I].Opcode);
      EXPECT_EQ(Read[I].Predicate, List[I].Predicate);
      EXPECT_EQ(Read[I].Offset, List[I].Offset);
      EXPECT_EQ(Read[I].Shape.BytesPerLane, List[I].Shape.BytesPerLane);
      EXPECT_EQ(Read[I].Positions, List[I].Positions);
      EXPECT_EQ(Read[I].LoopHead, List[I].LoopHead);
      EXPECT_EQ(Read[I].AddressBase, List[I].AddressBase);
    }
  }
  // Unread instructions keep their reason.
  R.MemoryInstructions.reset();
  R.MemoryInstructionsNote = "the toolkit has no bin/nvdisasm";
  registers::writeCache(File, R);
  Back = registers::readCache(File);
  ASSERT_TRUE(Back);
  EXPECT_FALSE(Back->MemoryInstructions);
  EXPECT_EQ(Back->MemoryInstructionsNote, "the toolkit has no bin/nvdisasm");
  llvm::sys::fs::remove_directories(Dir);
}

/// A toolkit whose nvcc writes an empty cubin and one ptxas line, and whose
/// nvdisasm (when Listing is given) records its arguments and prints the
/// listing.
struct FakeToolkit {
  llvm::SmallString<128> Root;
  std::string Arguments;
  explicit FakeToolkit(const std::string &Listing) {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("warpcheck-fake-toolkit", Root));
    llvm::sys::fs::create_directories(Root + "/bin");
    Arguments = (Root + "/nvdisasm-arguments").str();
    write("bin/nvcc",
          "#!/bin/sh\nwhile [ $# -gt 0 ]; do if [ \"$1\" = -o ]; then : > \"$2\"; fi; shift; done\n"
          "echo \"ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\" >&2\n"
          "echo \"ptxas info    : Used 12 registers\" >&2\n");
    if (!Listing.empty()) {
      write("listing.txt", Listing);
      write("bin/nvdisasm", "#!/bin/sh\necho \"$@\" >> '" + Arguments + "'\nexec /bin/cat '" +
                                (Root + "/listing.txt").str() + "'\n");
    }
  }
  ~FakeToolkit() { llvm::sys::fs::remove_directories(Root); }
  void write(const std::string &Name, const std::string &Text) {
    std::string Path = (Root + "/" + Name).str();
    std::error_code EC;
    {
      llvm::raw_fd_ostream OS(Path, EC);
      OS << Text;
    }
    llvm::sys::fs::setPermissions(Path, llvm::sys::fs::all_all);
  }
  unsigned nvdisasmRuns() const {
    auto B = llvm::MemoryBuffer::getFile(Arguments);
    return B ? static_cast<unsigned>((*B)->getBuffer().count('\n')) : 0;
  }
};

TEST(SassListing, ReadFromTheToolkitsNvdisasm) {
  FakeToolkit T(R"(	.section	.text._Z1kPf,"ax",@progbits
        .other          _Z1kPf,@"STO_CUDA_ENTRY STV_DEFAULT"
	//## File "/p/k.cu", line 2
        /*0000*/                   LDS.64 R2, [R4] ;
)");
  std::string Source = (T.Root + "/k.cu").str();
  T.write("k.cu", "__global__ void k(float *p) { p[0] = 1; }\n");
  RegisterOptions O;
  O.Mode = RegisterMode::Ptxas;
  O.ToolkitRoot = T.Root.str().str();
  O.CacheDir = (T.Root + "/cache").str();
  TranslationUnitRegisters R = runPtxas(O, Source);
  ASSERT_TRUE(R.FallbackReason.empty()) << R.FallbackReason;
  EXPECT_EQ(R.ByMangledName.at("_Z1kPf").Registers, 12u);
  ASSERT_TRUE(R.MemoryInstructions) << R.MemoryInstructionsNote;
  ASSERT_EQ(R.MemoryInstructions->at("_Z1kPf").size(), 1u);
  EXPECT_EQ(R.MemoryInstructions->at("_Z1kPf")[0].Opcode, "LDS.64");
  // nvdisasm was given -gi and the cubin of the run, nothing else.
  auto Args = llvm::MemoryBuffer::getFile(T.Arguments);
  ASSERT_TRUE(bool(Args));
  llvm::StringRef Given = (*Args)->getBuffer().trim();
  EXPECT_TRUE(Given.starts_with("-gi /")) << Given.str();
  EXPECT_TRUE(Given.ends_with("/unit.cubin")) << Given.str();
  // The second run is the cache's: nvdisasm is not started again.
  TranslationUnitRegisters Cached = runPtxas(O, Source);
  EXPECT_TRUE(Cached.FromCache);
  ASSERT_TRUE(Cached.MemoryInstructions);
  EXPECT_EQ(Cached.MemoryInstructions->at("_Z1kPf")[0].Opcode, "LDS.64");
  EXPECT_EQ(T.nvdisasmRuns(), 1u);
}

TEST(SassListing, ToolkitWithoutNvdisasm) {
  FakeToolkit T("");
  std::string Source = (T.Root + "/k.cu").str();
  T.write("k.cu", "__global__ void k(float *p) { p[0] = 1; }\n");
  RegisterOptions O;
  O.Mode = RegisterMode::Ptxas;
  O.ToolkitRoot = T.Root.str().str();
  O.CacheDir = "none";
  TranslationUnitRegisters R = runPtxas(O, Source);
  ASSERT_TRUE(R.FallbackReason.empty()) << R.FallbackReason;
  EXPECT_EQ(R.ByMangledName.at("_Z1kPf").Registers, 12u);
  EXPECT_FALSE(R.MemoryInstructions);
  EXPECT_EQ(R.MemoryInstructionsNote, "the toolkit has no bin/nvdisasm");
}

} // namespace
