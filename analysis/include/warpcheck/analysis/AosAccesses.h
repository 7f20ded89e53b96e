//===- AosAccesses.h - the arrays of structs a launch reads and writes ---===//
//
// From the simulated accesses of one launch, the global loads and stores
// made through one pointer to an array of structs (classes, nested structs
// and arrays inside them included) whose lanes are the struct's size apart:
// which fields are touched, loads and stores apart, and what the warp's
// traffic is as laid out and as structure of arrays
// (model::computeAosTraffic).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_AOSACCESSES_H
#define WARPCHECK_ANALYSIS_AOSACCESSES_H

#include "warpcheck/analysis/AccessReport.h"
#include "warpcheck/model/AosTraffic.h"

#include "clang/AST/ASTContext.h"

#include <string>
#include <vector>

namespace warpcheck::analysis {

/// A field as the kernel names it ("x", "pos.y", "v[2]"), where it lies in
/// the struct, and how it is accessed.
struct AosField {
  std::string Name;
  std::uint64_t Offset = 0;
  std::uint64_t Bytes = 0;
  bool Loaded = false, Stored = false;
  /// Per warp, of the group's instructions that touch the field (a wider
  /// one, a piece of a whole-struct copy, counts with every field it
  /// covers): as laid out and as structure of arrays.
  model::AosTraffic Traffic;
};

/// One struct accessed through one pointer in one launch.
struct AosGroup {
  const clang::RecordDecl *Record = nullptr;
  /// "Particle"; a template instance with its arguments.
  std::string StructName;
  std::uint64_t StructBytes = 0;
  /// The pointer (or reference) the kernel indexes: "p".
  std::string PointerName;
  /// In offset order, each once.
  std::vector<AosField> Fields;
  /// Some access copies the struct whole.
  bool WholeCopy = false;
  /// Indices into the launch's Accesses, in source order; the first is
  /// where the check reports.
  std::vector<unsigned> Accesses;
  /// Per warp, of the warp whose first access wastes the most.
  model::AosTraffic Traffic;
  /// Fields the struct has that the kernel never touches through it.
  bool SomeFieldsUnused = false;
  /// Every access of the group is exact; else the figures rest on
  /// Assumptions, those of its accesses (each sentence once, in the order
  /// of the accesses).
  bool Exact = true;
  std::vector<Assumption> Assumptions;
};

/// The groups of Launch, in the order of their first access. Accesses
/// nvcc may merge into one wider instruction (MayMergeWith) leave their
/// group out: their instructions are not yet the compiler's.
std::vector<AosGroup> findAosGroups(const KernelLaunchAnalysis &Launch, const clang::ASTContext &Ctx);

/// The byte offset of a simulated address inside its allocation (the
/// interpreter gives every allocation its own far-apart, 256-byte aligned
/// base: interp/AccessRecorder.cpp).
std::uint64_t allocationOffset(std::uint64_t SimulatedAddress);
/// Which allocation a simulated address is in: equal for two addresses
/// exactly when they are in the same one.
std::uint64_t allocationOf(std::uint64_t SimulatedAddress);

} // namespace warpcheck::analysis

#endif
