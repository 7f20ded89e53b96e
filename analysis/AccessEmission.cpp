//===- AccessEmission.cpp - what the compiler's instructions add to a claim ===//

#include "AccessEmission.h"
#include "ClaimText.h"
#include "EmittedInstructions.h"
#include "ReadValueUses.h"
#include "SourceMemory.h"
#include "interp/WarpInterpreter.h"

#include "warpcheck/model/SharedMemory.h"
#include "warpcheck/model/StructCopy.h"

#include "clang/Basic/SourceManager.h"

#include <algorithm>

using namespace clang;

namespace warpcheck::analysis {

namespace {

/// The loads of a struct copied from memory into a local only some fields
/// of which are read ("16-byte and 8-byte loads"), when they are fewer or
/// narrower than a copy of the whole (model::structCopyPieces); empty
/// otherwise.
std::string narrowedCopyText(const SiteTotals &T, ASTContext &Ctx) {
  if (T.Site.Op != AccessOp::Load || T.Uncertain)
    return "";
  QualType Type = T.Site.Expr->getType().getCanonicalType();
  if (!Type->getAs<RecordType>() || Type->isIncompleteType())
    return "";
  std::optional<std::vector<model::ByteRange>> Read = fieldBytesRead(T.Site.Expr, Ctx);
  if (!Read)
    return "";
  std::uint64_t Size = Ctx.getTypeSizeInChars(Type).getQuantity();
  std::uint64_t Align = Ctx.getTypeAlignInChars(Type).getQuantity();
  std::vector<model::CopyPiece> Pieces = model::structCopyPieces(Size, Align, &*Read);
  if (Pieces == model::structCopyPieces(Size, Align))
    return "";
  std::string Out;
  for (size_t I = 0; I < Pieces.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Pieces.size() ? " and " : ", ") +
           std::to_string(Pieces[I].Bytes) + "-byte";
  return Out + (Pieces.size() == 1 ? " load" : " loads");
}

} // namespace

void noteEmissionAssumptions(AccessResult &A, const SiteTotals &T, ASTContext &Ctx,
                             const std::string &Predicted) {
  const SourceManager &SM = Ctx.getSourceManager();
  // The listing counts the copy's instructions: a field the compiler
  // dropped would be missing there.
  if (T.StructCopy && !(T.FromListing && T.CopyComplete && T.Unmatched.empty())) {
    // Global to global, every field copied: measured on the H200
    // (compiler-transformations.cu, aos-soa-refused.cu), nvcc loads
    // and stores such a copy in pieces of min(alignment, 16) bytes,
    // as the requests are split; a prediction, said as one.
    if (!T.FromListing && !T.PartialStructCopy && T.Site.Space == MemorySpace::Global) {
      A.InstructionsFrom = InstructionOrigin::Model;
      A.Assumptions.push_back(
          {AssumptionKind::SplitCopy,
           "a whole struct copied from global memory to global memory, every field: "
           "nvcc copies it in " +
               std::to_string(T.Site.BytesPerLane) + "-byte " +
               std::string(T.Site.Op == AccessOp::Load ? "loads" : "stores") +
               ", its alignment (at most 16 bytes) (predicted; " + Predicted + ")"});
    } else if (!T.FromListing && T.Site.Space == MemorySpace::Global &&
               T.Site.Op == AccessOp::Load && !T.Uncertain &&
               copiedWholeAndEveryFieldRead(T.Site.Expr, Ctx)) {
      // Into a local every field of which is read: one load per
      // field (ReadValueUses.h; measured, cuda-aos-layout.cu's
      // vec3Whole and aos-soa-refused.cu's bodyMass: three LDG.E).
      A.InstructionsFrom = InstructionOrigin::Model;
      A.Assumptions.push_back(
          {AssumptionKind::SplitCopy,
           "a whole struct copied into a local variable whose every field is read: nvcc "
           "loads each field, " +
               std::to_string(T.Site.BytesPerLane) +
               "-byte loads (predicted; " + Predicted + ")"});
    } else if (std::string Pieces = narrowedCopyText(T, Ctx);
               !T.FromListing && !Pieces.empty()) {
      // Into a local only some fields of which are read: nvcc loads
      // those bytes (model/StructCopy.h; measured, SHOC MD's
      // `double4 ipos` of which x, y, z are read: LDG.E.128 and
      // LDG.E.64).
      A.InstructionsFrom = InstructionOrigin::Model;
      A.Assumptions.push_back(
          {AssumptionKind::SplitCopy,
           "a whole struct copied into a local variable only some fields of which are "
           "read: nvcc loads the bytes read, " +
               Pieces + " (predicted; " + Predicted + ")"});
    } else if (isRandomStateInit(T.Site.Expr)) {
      A.Assumptions.push_back(
          {AssumptionKind::StructCopy,
           "curand_init sets every field of the generator state it is given: one " +
               std::to_string(T.Site.BytesPerLane) +
               "-byte store per piece of the state, its alignment (its skip-ahead's "
               "further writes of some fields not counted)"});
    } else {
      A.Assumptions.push_back({AssumptionKind::StructCopy,
                              "a whole-struct copy was split into field-sized "
                              "requests; the compiler may drop unused fields"});
    }
  }
  if (T.KeptInRegister > 0) {
    A.InstructionsFrom = InstructionOrigin::Model;
    bool Load = T.Site.Op == AccessOp::Load;
    std::string What =
        T.RepeatsRemoved
            ? std::string("nvcc unrolls its loops completely and keeps one ") +
                  (Load ? "load" : "store") +
                  " per distinct address (nothing else in the loops " +
                  (Load ? "writes memory it may read): a repeated address is loaded once"
                        : "may read what it stores): only the last store to an "
                          "address is made")
            : std::string("nvcc keeps this value in a register across its loop (the "
                          "same addresses in every iteration, and nothing else in the "
                          "loop ") +
                  (Load ? "writes memory it may read): it is loaded once"
                        : "may read or overwrite what it stores): it is stored once, "
                          "after the loop");
    if (T.HoistedBefore && !T.FromListing && !T.PredictedMerge)
      What += ", before the loop";
    A.Assumptions.push_back(
        {AssumptionKind::KeptInRegister, What +
             ", " + std::to_string(T.Requests) + " requests for " +
             std::to_string(T.Requests + T.KeptInRegister) +
             " executions (predicted from the source; " + Predicted + ")"});
    if (T.HoistedBefore && T.ScheduledAfter && !T.FromListing && !T.PredictedMerge)
      A.Assumptions.push_back(
          {AssumptionKind::ScheduledLine,
           "the line Nsight Compute counts that load on is the one of the instruction "
           "ptxas schedules before it, after line " + std::to_string(T.ScheduledAfter) +
               " or above it (a store, an atomic or a barrier there): it is reported "
               "on its own line"});
  }
  auto LineOf = [&](const Expr *E) {
    return std::to_string(SM.getSpellingLineNumber(SM.getFileLoc(E->getBeginLoc())));
  };
  if (T.ReusedEarlier > 0) {
    A.InstructionsFrom = InstructionOrigin::Model;
    std::string Earlier = "'" + sourceText(T.ReusedFrom, Ctx) + "' (line " +
                          LineOf(T.ReusedFrom) + ")";
    A.Assumptions.push_back(
        {AssumptionKind::KeptInRegister,
         (T.ReusedHoisted
              ? "nvcc loads this element once, for every lane, before the branch around " +
                    Earlier + ", which reads it on some paths only: that load serves both"
              : "nvcc reuses the value of " + Earlier +
                    " still in a register: nothing between may write the memory it "
                    "reads or change its index") +
             ", " + std::to_string(T.Requests) + " requests for " +
             std::to_string(T.Requests + T.ReusedEarlier) +
             " executions (predicted from the source; " + Predicted + ")"});
  }
  if (T.HoistedFor) {
    A.InstructionsFrom = InstructionOrigin::Model;
    A.Assumptions.push_back(
        {AssumptionKind::KeptInRegister,
         "nvcc makes this load before its branch, for every lane that reads '" +
             sourceText(T.HoistedFor, Ctx) + "' (line " + LineOf(T.HoistedFor) +
             ") after it too: its requests hold those lanes (predicted from the "
             "source; " + Predicted + ")"});
  }
  if (!T.Unmatched.empty())
    A.Assumptions.push_back(
        {AssumptionKind::UnmatchedInstructions,
         T.Unmatched + (T.PredictedMerge || T.KeptInRegister > 0 || T.ReusedEarlier > 0 ||
                                T.HoistedFor
                            ? "; these numbers are those predicted from the source, "
                              "as without a listing"
                            : "; these numbers are those of the access as written")});
}

void noteMergedInstructions(AccessResult &A, const SiteTotals &T, ASTContext &Ctx,
                            const std::string &Predicted) {
  if (T.PredictedMerge && !T.FromListing && A.Status != AccessStatus::Unknown) {
    A.InstructionsFrom = InstructionOrigin::Model;
    std::string What =
        T.PredictedMergeKind == MergeKind::AdjacentElements
            ? "nvcc accesses this element and the adjacent one together, with one "
              "instruction as wide as both"
            : "nvcc unrolls the loop and merges consecutive iterations of this access "
              "into wider instructions";
    if (T.PredictedMergeKind == MergeKind::ElementFields) {
      // The fields the instruction serves, as the messages name them:
      // "nvcc reads 'v.x', 'v.y', 'v.z' and 'v.w' with one 16-byte load
      // per lane (LDG.E.128)".
      for (const InstructionTotals &I : T.Instructions) {
        if (!I.Merged || I.Serves.empty())
          continue;
        std::vector<std::string> Names;
        for (const Expr *E : I.Serves)
          Names.push_back(sourceText(E, Ctx));
        bool Load = T.Site.Op == AccessOp::Load;
        What = std::string("nvcc ") + (Load ? "reads " : "writes ") +
               quotedList(Names) + " with one " + std::to_string(I.BytesPerLane) +
               "-byte " + (Load ? "load" : "store") + " per lane (" + I.Opcode + ")";
        break;
      }
    }
    if (T.PredictedMergeKind == MergeKind::SelectedArms) {
      // "nvcc makes 's[k]' and 's[32 + k]' one load of the address the
      // branch selects (LDS), on line 37: one request for the lanes of
      // both arms".
      for (const InstructionTotals &I : T.Instructions) {
        std::vector<std::string> Names;
        for (const Expr *E : I.Serves)
          Names.push_back(sourceText(E, Ctx));
        What = "nvcc makes " +
               (Names.size() > 1 ? quotedList(Names) : std::string("this load and the other arm's")) +
               " one load of the address the branch selects (" + I.Opcode + "), on line " +
               std::to_string(I.Line) +
               (Names.size() > 1 ? ": one request for the lanes of both arms" : "");
        if (I.Serves.size() > 1)
          break;
      }
    }
    A.Assumptions.push_back({AssumptionKind::MergedInstruction,
                             What + " (predicted from the source; " + Predicted + ")"});
    A.Status = AccessStatus::Assumed;
  }
  if (T.MayMergeUnaligned && !T.FromListing && A.Status != AccessStatus::Unknown) {
    // Measured (unrolled-shared-loads.cu): a run one element past an
    // aligned address is read with an LDS.128 from that address and
    // an LDS; rows at an odd multiple of a padded width, partly LDS.64.
    A.Assumptions.push_back(
        {AssumptionKind::MergedInstruction,
         "nvcc unrolls the loop and may read consecutive iterations of this access with "
         "wider instructions, its runs not being aligned to them; these numbers are those "
         "of separate ones"});
    A.Status = AccessStatus::Assumed;
  }
}

void listInstructions(AccessResult &A, const SiteTotals &T, ASTContext &Ctx,
                      llvm::function_ref<bool(const Expr *)> ReadOnlyPath) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (T.FromListing || T.PredictedMerge) {
    if (T.FromListing)
      A.InstructionsFrom = InstructionOrigin::Listing;
    unsigned SiteLine =
        SM.getExpansionLineNumber(SM.getExpansionLoc(T.Site.Expr->getBeginLoc()));
    for (const InstructionTotals &I : T.Instructions) {
      EmittedInstruction E;
      E.Opcode = I.Opcode;
      E.BytesPerLane = I.BytesPerLane;
      E.File = I.File;
      E.Line = I.Line;
      E.OtherLines = I.OtherLines;
      E.Merged = I.Merged;
      E.Split = I.Split;
      // Per access: one instruction merging two lines' accesses is
      // moved for one of them only.
      E.Moved = I.Line != SiteLine;
      E.Hoisted = I.Hoisted;
      E.RepeatsRemoved = I.RepeatsRemoved;
      E.Serves = I.Serves;
      E.CountedWith = I.CountedWith;
      E.ServedExecutions = I.ServedExecutions;
      E.Cost = costOf(I);
      A.Instructions.push_back(std::move(E));
    }
  }
  // Without a listing, a load the model moves to another line (where
  // the line table puts it, which is where Nsight Compute counts it):
  // its one instruction, as a listing would give it.
  auto ModelInstruction = [&](unsigned Line, std::vector<const Expr *> Serves,
                              unsigned Served) -> EmittedInstruction & {
    SourceLocation At = SM.getFileLoc(T.Site.Expr->getBeginLoc());
    EmittedInstruction &E = A.Instructions.emplace_back();
    E.Opcode = modelOpcode(T.Site.Space, T.Site.Op, T.Site.BytesPerLane);
    if (T.Site.Space == MemorySpace::Global && T.Site.Op == AccessOp::Load &&
        ReadOnlyPath(T.Site.Expr))
      E.Opcode += ".CONSTANT";
    E.BytesPerLane = T.Site.BytesPerLane;
    if (OptionalFileEntryRef F = SM.getFileEntryRefForID(SM.getFileID(At)))
      E.File = F->getName().str();
    E.Line = Line;
    E.Moved = Line != SM.getExpansionLineNumber(At);
    E.Serves = std::move(Serves);
    E.ServedExecutions = Served;
    E.Cost = A.Cost;
    A.InstructionsFrom = InstructionOrigin::Model;
    return E;
  };
  if (T.KeptInRegister > 0 && T.HoistedLine && !T.FromListing && !T.PredictedMerge)
    // One load before the nest (RegisterPromotion.h, KeptAccess::
    // HoistedLine).
    ModelInstruction(T.HoistedLine, {T.Site.Expr}, T.Requests + T.KeptInRegister).Hoisted =
        true;
  // An access the model emits by itself, as written, that no rule above
  // has placed yet: the two rules below may move its line.
  auto Unplaced = [&] {
    return !T.FromListing && !T.PredictedMerge && A.Instructions.empty() &&
           T.KeptInRegister == 0 && !T.HoistedFor;
  };
  // A struct copied whole into a local that the next statement copies
  // whole into memory: read there (ReadValueUses.h, forwardedCopyLine).
  if (T.Site.Op == AccessOp::Load && Unplaced())
    if (std::optional<unsigned> Line = forwardedCopyLine(T.Site.Expr, Ctx))
      ModelInstruction(*Line, {T.Site.Expr}, T.Requests);
  // A whole struct stored through an element, its right-hand side ending
  // on a later line: stored there (ReadValueUses.h, wholeStructStoreLine).
  if (T.Site.Op == AccessOp::Store && Unplaced())
    if (std::optional<unsigned> Line = wholeStructStoreLine(T.Site.Expr, Ctx))
      ModelInstruction(*Line, {T.Site.Expr}, T.Requests);
  // An element access written over several lines: made where its index
  // ends (SourceMemory.h, indexEndLine).
  if (T.Site.Op != AccessOp::Atomic && Unplaced())
    if (std::optional<unsigned> Line = indexEndLine(T.Site.Expr, SM))
      ModelInstruction(*Line, {T.Site.Expr}, T.Requests);
  if (T.HoistedFor && !T.FromListing && !T.PredictedMerge)
    // The one load of both reads, before the branch, with its
    // address's computation (LoadReuse.h).
    if (unsigned Line = addressComputationLine(
            T.Site.Expr, SM.getFileLoc(T.Site.Expr->getBeginLoc()), SM))
      ModelInstruction(Line, {T.Site.Expr, T.HoistedFor}, T.Requests).Merged = true;
}

} // namespace warpcheck::analysis
