//===- NvptxInstructions.h - NVPTX IR as ptxas sees it ---------------------===//
//
// Internal to analysis/registers/: what ptxas makes of an instruction of
// optimized NVPTX IR, for the pressure model: how many 32-bit registers a
// type takes, which calls are no calls, which inline PTX loads, which
// instructions access memory or order it.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_REGISTERS_NVPTXINSTRUCTIONS_H
#define WARPCHECK_ANALYSIS_REGISTERS_NVPTXINSTRUCTIONS_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class DataLayout;
class Function;
class Instruction;
class Type;
class Value;
} // namespace llvm

namespace warpcheck::analysis::registers {

/// A call ptxas never sees as one: an intrinsic, or (when no libdevice
/// could be linked) a libdevice function of one to three instructions once
/// linked and inlined, as nvcc links it.
bool isInlineInstruction(const llvm::Function *Callee);

/// How many 32-bit registers a value of type T occupies; predicates (i1)
/// live in a file of their own and count 0.
unsigned typeWeight(llvm::Type *T, const llvm::DataLayout &DL);

/// The PTX text of an inline assembly call, without leading blanks; empty
/// for anything else.
llvm::StringRef inlinePtx(const llvm::Value *V);

/// Inline PTX with an address operand "[$n]" that ptxas turns into a
/// [reg + imm] operand of the SASS memory instruction (ld, ldu, st,
/// cp.async).
bool isAddressedInlinePtx(const llvm::Value *V);

/// Inline PTX that only reads memory and returns the value (CUB's
/// ThreadLoad "ld.global.nc.u32 $0, [$1];", the texture headers'
/// "tex.2d.v4.f32.f32"): ptxas schedules it as the load it is.
bool isInlineAsmLoad(const llvm::Instruction &I);

/// The address a load, store or atomic accesses; null for anything else.
const llvm::Value *accessedAddress(const llvm::Instruction &I);

/// A store, atomic, fence, barrier, inline assembly other than a load, or
/// a real call: no load is issued above it.
bool isMemoryFence(const llvm::Instruction &I);

} // namespace warpcheck::analysis::registers

#endif
