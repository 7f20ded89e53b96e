//===- ReportEntries.cpp - findings, errors and inputs of a run, typed ----===//

#include "ReportEntries.h"
#include "JsonFields.h"

namespace warpcheck::tool {

namespace {

void readMessage(const llvm::json::Object &O, ReportedMessage &M) {
  M.Message = O.getString("message").value_or("").str();
  M.File = stringField(O, "file");
  M.HasPosition = O.get("line") || O.get("column");
  M.Line = O.getInteger("line");
  M.Column = O.getInteger("column");
  M.SourceLine = stringField(O, "source_line");
}

void writeMessage(const ReportedMessage &M, bool WithSourceLine, llvm::json::Object &O) {
  O["message"] = text(M.Message);
  O["file"] = orNull(M.File);
  if (M.HasPosition) {
    O["line"] = orNull(M.Line);
    O["column"] = orNull(M.Column);
  }
  if (WithSourceLine && M.SourceLine)
    O["source_line"] = text(*M.SourceLine);
}

} // namespace

ReportedError unanalysedInput(const std::string &File, const std::string &Cause) {
  ReportedError E;
  E.Message = Cause;
  E.File = File;
  E.HasPosition = false;
  return E;
}

static std::vector<FixIt> fixesFromJson(const llvm::json::Array *Fixes) {
  std::vector<FixIt> Out;
  if (Fixes)
    for (const llvm::json::Value &V : *Fixes)
      if (const llvm::json::Object *X = V.getAsObject())
        Out.push_back(FixIt{X->getString("file").value_or("").str(),
                            X->getInteger("offset").value_or(0),
                            X->getInteger("length").value_or(0),
                            X->getInteger("line").value_or(0),
                            X->getInteger("column").value_or(0),
                            X->getString("replacement").value_or("").str()});
  return Out;
}

static llvm::json::Array fixesToJson(const std::vector<FixIt> &Fixes) {
  llvm::json::Array Out;
  for (const FixIt &X : Fixes)
    Out.push_back(llvm::json::Object{{"file", text(X.File)},
                                     {"offset", X.Offset},
                                     {"length", X.Length},
                                     {"line", X.Line},
                                     {"column", X.Column},
                                     {"replacement", text(X.Replacement)}});
  return Out;
}

ReportedMessage messageFromJson(const llvm::json::Object &O) {
  ReportedMessage M;
  readMessage(O, M);
  M.Fixes = fixesFromJson(O.getArray("fixes"));
  return M;
}

Finding findingFromJson(const llvm::json::Object &O) {
  Finding F;
  readMessage(O, F);
  F.Check = O.getString("check").value_or("").str();
  F.Severity = O.getString("severity").value_or("warning").str();
  if (const llvm::json::Array *Notes = O.getArray("notes"))
    for (const llvm::json::Value &V : *Notes)
      if (const llvm::json::Object *N = V.getAsObject())
        F.Notes.push_back(messageFromJson(*N));
  F.Fixes = fixesFromJson(O.getArray("fixes"));
  F.Fingerprint = stringField(O, "fingerprint");
  return F;
}

ReportedError errorFromJson(const llvm::json::Object &O) {
  ReportedError E;
  readMessage(O, E);
  E.Check = stringField(O, "check");
  return E;
}

InputOutcome inputFromJson(const llvm::json::Object &O) {
  InputOutcome I;
  I.File = O.getString("file").value_or("").str();
  I.Status = O.getString("status").value_or("").str();
  I.Errors = O.getInteger("errors");
  I.KernelsAnalysed = O.getInteger("kernels_analysed");
  I.KernelsWithErrors = O.getInteger("kernels_with_errors");
  I.Cause = stringField(O, "cause");
  I.Notes = stringsOf(O.getArray("notes"));
  return I;
}

llvm::json::Object toJson(const ReportedMessage &M, bool WithSourceLine) {
  llvm::json::Object O;
  writeMessage(M, WithSourceLine, O);
  // Only a note with a fix-it has "fixes": the others' JSON is as before.
  if (!M.Fixes.empty())
    O["fixes"] = fixesToJson(M.Fixes);
  return O;
}

llvm::json::Object toJson(const Finding &F, bool WithSourceLine) {
  llvm::json::Object O;
  writeMessage(F, WithSourceLine, O);
  O["check"] = text(F.Check);
  O["severity"] = F.Severity;
  llvm::json::Array Notes;
  for (const ReportedMessage &N : F.Notes)
    Notes.push_back(toJson(N, WithSourceLine));
  O["notes"] = std::move(Notes);
  O["fixes"] = fixesToJson(F.Fixes);
  if (F.Fingerprint)
    O["fingerprint"] = text(*F.Fingerprint);
  return O;
}

llvm::json::Object toJson(const ReportedError &E) {
  llvm::json::Object O;
  writeMessage(E, /*WithSourceLine=*/true, O);
  if (E.Check)
    O["check"] = text(*E.Check);
  return O;
}

llvm::json::Object toJson(const InputOutcome &I) {
  llvm::json::Object O{{"file", text(I.File)}, {"status", I.Status}};
  if (I.Errors)
    O["errors"] = *I.Errors;
  if (I.KernelsAnalysed)
    O["kernels_analysed"] = *I.KernelsAnalysed;
  if (I.KernelsWithErrors)
    O["kernels_with_errors"] = *I.KernelsWithErrors;
  if (I.Cause)
    O["cause"] = text(*I.Cause);
  if (!I.Notes.empty())
    O["notes"] = strings(I.Notes);
  return O;
}

} // namespace warpcheck::tool
