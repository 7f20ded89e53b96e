//===- ReportEntries.h - findings, errors and inputs of a run, typed ------===//
//
// What a worker says about its translation unit, read once from its JSON
// (TranslationUnitJob.h) into types that the merge (RunResult.h) and every
// writer (Reporters.h) use; toJson writes them back exactly as the worker
// wrote them, so that --format=json stays the contract docs/json-format.md
// describes, byte for byte.
//
// Kernels, launches and accesses are typed in KernelEntries.h.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_TOOL_REPORTENTRIES_H
#define WARPCHECK_TOOL_REPORTENTRIES_H

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::tool {

/// One replacement of a fix-it: clang's byte offset and length in File,
/// and the line and column of the offset.
struct FixIt {
  std::string File;
  std::int64_t Offset = 0, Length = 0;
  std::int64_t Line = 0, Column = 0;
  std::string Replacement;
};

/// A message and where it points.
struct ReportedMessage {
  std::string Message;
  /// The file; nullopt ("file": null) when the diagnostic names none.
  std::optional<std::string> File;
  /// Whether the JSON has "line" and "column": a diagnostic's message has
  /// them (null when it names no file); an input that could not be analysed
  /// is named by its file alone.
  bool HasPosition = true;
  std::optional<std::int64_t> Line, Column;
  /// The text of the line, when the file could be read.
  std::optional<std::string> SourceLine;
  /// The message's fix-it: its replacements, made together or not at all.
  /// A finding's is in "fixes"; a note's, in the note's "fixes" when it has
  /// one (--fix-notes applies it); an error's is never written.
  std::vector<FixIt> Fixes;
};

struct Finding : ReportedMessage {
  std::string Check;
  /// "warning" or "error" (--warnings-as-errors).
  std::string Severity = "warning";
  std::vector<ReportedMessage> Notes;
  /// What identifies the finding across moved lines and unrelated edits
  /// (Fingerprint.h); set by the binary's main process, not by workers.
  std::optional<std::string> Fingerprint;
};

/// A compiler error (with the diagnostic's name) or an input that could not
/// be analysed (with none).
struct ReportedError : ReportedMessage {
  std::optional<std::string> Check;
};

/// An input that could not be analysed at all: its file and the cause,
/// with no line or column.
ReportedError unanalysedInput(const std::string &File, const std::string &Cause);

/// What became of one input (RunResult.h).
struct InputOutcome {
  std::string File;
  /// "analysed", "analysed_with_errors", "not_analysed" or "included".
  std::string Status;
  /// Absent for an included file and for a worker that wrote no summary.
  std::optional<std::int64_t> Errors, KernelsAnalysed, KernelsWithErrors;
  std::optional<std::string> Cause;
  /// Written only when there are some.
  std::vector<std::string> Notes;
};

/// Each reads the object a worker (or RunResult) wrote; a field of the
/// wrong type reads as absent.
ReportedMessage messageFromJson(const llvm::json::Object &O);
Finding findingFromJson(const llvm::json::Object &O);
ReportedError errorFromJson(const llvm::json::Object &O);
InputOutcome inputFromJson(const llvm::json::Object &O);

/// The objects again. A finding's notes and the finding itself carry
/// "source_line" only WithSourceLine (the worker's output has it; the JSON
/// report leaves it out of findings and keeps it in errors).
llvm::json::Object toJson(const ReportedMessage &M, bool WithSourceLine = true);
llvm::json::Object toJson(const Finding &F, bool WithSourceLine = true);
llvm::json::Object toJson(const ReportedError &E);
llvm::json::Object toJson(const InputOutcome &I);

} // namespace warpcheck::tool

#endif
