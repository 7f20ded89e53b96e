//===- SassListing.h - the memory instructions of a compiled unit ---------===//
//
// With a toolkit, the unit nvcc compiles for ptxas's register counts
// (RegisterUsage.h) is also disassembled by the same toolkit's nvdisasm
// (`nvdisasm -gi unit.cubin`: every instruction with the source line of its
// line table, and the line each inlined call was made from), and the memory
// instructions of each kernel are read from the listing: opcode, width,
// space, predicate and source position. These are the instructions the
// hardware executes, which the reconciliation (analysis/EmittedInstructions.h)
// matches with the accesses of the source.
//
// The listing is nvdisasm's text, which nothing documents as a format; what
// is read is what nvdisasm 13.0 prints for sm_90 (test/hw/sass/ holds such
// listings of the test inputs, compiled on the H200's machine):
//
//   .text._Z17reduceInterleavedPKfPf:
//     //## File "/p/a.cu", line 54
//     /*0130*/   @!P0 LDS.64 R8, [R2] ;
//     //## File "/t/include/x.hpp", line 202 inlined at "/p/a.cu", line 98
//     /*0150*/        REDG.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R5 ;
//     /*0160*/        CALL.REL.NOINC `(_Z6helperPf) ;
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_SASSLISTING_H
#define WARPCHECK_ANALYSIS_SASSLISTING_H

#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warpcheck::analysis {

/// Where a memory instruction's address points. Local memory (a thread's
/// stack, spills) and generic addresses (LD/ST/ATOM: global or shared,
/// decided at run time) are listed but never matched with an access.
enum class SassSpace { Global, Shared, Local, Generic };
/// What the instruction does with memory.
enum class SassOp { Load, Store, Atomic };

/// "global", "shared", "local", "generic"; "load", "store", "atomic".
const char *sassSpaceName(SassSpace S);
const char *sassOpName(SassOp Op);

/// What an opcode says about memory: its space, operation and bytes per
/// lane.
struct SassMemoryShape {
  SassSpace Space = SassSpace::Global;
  SassOp Op = SassOp::Load;
  unsigned BytesPerLane = 4;
  /// LDGSTS (cp.async): a global load and a shared store in one
  /// instruction; Space and Op describe its global load.
  bool AlsoSharedStore = false;
};

/// The memory shape of a SASS opcode with its modifiers ("LDS.64",
/// "LDG.E.128.CONSTANT", "STG.E.U8", "ATOMS.POPC.INC.32",
/// "REDG.E.ADD.F64.RN.STRONG.GPU"); nullopt for any other instruction
/// (LDC and ULDC read the constant bank, which is not memory the model
/// costs; texture and surface instructions are not modelled).
///
/// Width: .U8/.S8 one byte, .U16/.S16 two, .64 (and an F64 operand type of an
/// atomic) eight, .128 sixteen, none four (the SASS listing's default).
std::optional<SassMemoryShape> decodeMemoryOpcode(llvm::StringRef Opcode);

/// A source position of the line table.
struct SassPosition {
  std::string File;
  unsigned Line = 0;
  bool operator==(const SassPosition &O) const { return Line == O.Line && File == O.File; }
};

/// One memory instruction of a function's code.
struct SassMemoryInstruction {
  /// The function whose code holds it (mangled): the kernel, or a function
  /// it calls that the compiler did not inline.
  std::string Function;
  /// Byte offset in that function's code.
  unsigned Offset = 0;
  /// The opcode with its modifiers: "LDS.64", "LDG.E.128".
  std::string Opcode;
  /// "@P0", "@!P1", "" when none.
  std::string Predicate;
  SassMemoryShape Shape;
  /// The offset of the first instruction of the innermost loop of the code
  /// that holds it (a backward branch's target at or before it, the branch
  /// after it), or -1 outside every loop. Where the source's loop is still
  /// a loop, an access of it with no instruction inside it was kept in a
  /// register across it (EmittedInstructions.h, "hoisted").
  int LoopHead = -1;
  /// The register the address is formed from ("R4" of `[R4.64+0x10]`,
  /// "R2" of `[R2.X4+UR4]`); empty when none is named. The unrolled copies
  /// of one access step one register by immediate offsets.
  std::string AddressBase;
  /// Its source position, then, for code of an inlined call, the position
  /// of each call it was inlined at, innermost first. Empty without line
  /// information (a cubin compiled without -lineinfo).
  std::vector<SassPosition> Positions;
};

/// The memory instructions of every function of one listing.
struct SassListing {
  /// By mangled function name, in the order of the code.
  std::map<std::string, std::vector<SassMemoryInstruction>> Functions;
  /// Functions each function calls (CALL.REL targets).
  std::map<std::string, std::set<std::string>> Calls;
  /// Kernels (the functions nvdisasm marks STO_CUDA_ENTRY).
  std::set<std::string> Kernels;
};

/// Reads `nvdisasm -gi` (or -g) output. Lines it does not recognise are
/// skipped; a listing with no code section gives an empty result.
SassListing parseNvdisasmListing(llvm::StringRef Text);

/// The memory instructions a launch of Kernel (mangled) executes: its own,
/// then those of the functions it calls, transitively, each function once.
std::vector<SassMemoryInstruction> kernelMemoryInstructions(const SassListing &Listing,
                                                            llvm::StringRef Kernel);

} // namespace warpcheck::analysis

#endif
