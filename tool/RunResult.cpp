//===- RunResult.cpp - the merged results of a run, honestly counted ------===//

#include "RunResult.h"
#include "CommandLine.h"
#include "FixApplication.h"
#include "JsonFields.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

namespace warpcheck::tool {

std::string launchNamed(llvm::StringRef Message) {
  static const llvm::Regex Launch("the launch at [^ ,;()]+:[0-9]+");
  llvm::SmallVector<llvm::StringRef, 1> Match;
  if (Launch.match(Message, &Match))
    return Match[0].str();
  return "";
}

/// A finding's identity across translation units: the same check, place
/// and words, whichever unit's launch site the words name. A kernel in a
/// header that two files launch with the same shape is one finding there.
std::string findingIdentity(const Finding &F) {
  llvm::json::Object Key{{"check", F.Check},
                         {"file", F.File.value_or("")},
                         {"line", F.Line.value_or(0)},
                         {"column", F.Column.value_or(0)}};
  std::string Message = F.Message;
  std::string Launch = launchNamed(Message);
  if (!Launch.empty())
    Message.replace(Message.find(Launch), Launch.size(), "the launch");
  Key["message"] = Message;
  return compactText(llvm::json::Value(std::move(Key)));
}

void RunResult::addNotAnalysed(const std::string &File, const std::string &Cause) {
  Errors.push_back(unanalysedInput(File, Cause));
  InputOutcome I;
  I.File = File;
  I.Status = "not_analysed";
  I.Errors = 1;
  I.KernelsAnalysed = 0;
  I.KernelsWithErrors = 0;
  I.Cause = Cause;
  Inputs.push_back(std::move(I));
}

void RunResult::addNote(const std::string &File, const std::string &Note) {
  InputOutcome I;
  I.File = File;
  I.Status = "included";
  I.Notes = {Note};
  Inputs.push_back(std::move(I));
}

void RunResult::addJobOutput(JobResult Output, const std::vector<std::string> &Notes) {
  InputOutcome Input;
  if (Output.Input) {
    Input = std::move(*Output.Input);
  } else {
    Input.File = Output.File;
    Input.Status = "not_analysed";
    Input.Cause = "the analysis produced no summary";
  }
  if (!Notes.empty())
    Input.Notes = Notes;
  Inputs.push_back(std::move(Input));
  // Absolute already (the job's directory applied).
  for (const std::string &Header : Output.Headers)
    UserFiles.insert(canonicalFile(Header, "/"));
  // The same entry from two units (a kernel in a header both include,
  // launched with the same shape from the same place) is kept once: the
  // same in every field, as its JSON says.
  for (KernelEntry &K : Output.Kernels)
    if (SeenKernels.insert(compactText(toJson(K))).second)
      Kernels.push_back(std::move(K));
  for (Finding &New : Output.Findings) {
    std::string Key = findingIdentity(New);
    auto Seen = FindingIndex.find(Key);
    if (Seen == FindingIndex.end()) {
      FindingIndex[Key] = Findings.size();
      Findings.push_back(std::move(New));
      continue;
    }
    // Reported by an earlier unit already: say which other launch gives
    // the same numbers, once.
    Finding &First = Findings[Seen->second];
    std::string Launch = launchNamed(New.Message);
    if (Launch.empty() || Launch == launchNamed(First.Message))
      continue;
    std::string Text = "the same for " + Launch;
    bool Said = llvm::any_of(First.Notes,
                             [&](const ReportedMessage &N) { return N.Message == Text; });
    if (!Said) {
      ReportedMessage Note = First;
      Note.Message = Text;
      First.Notes.push_back(std::move(Note));
    }
  }
  for (ReportedError &E : Output.Errors)
    Errors.push_back(std::move(E));
}

RunCounts countRun(const RunResult &R) {
  RunCounts C;
  for (const InputOutcome &I : R.Inputs) {
    llvm::StringRef Status = I.Status;
    if (Status == "included")
      continue;
    ++C.Inputs;
    if (Status == "analysed")
      ++C.Analysed;
    else if (Status == "analysed_with_errors")
      ++C.AnalysedWithErrors;
    else
      ++C.NotAnalysed;
  }
  // Kernels by name and place: a kernel with three launch shapes is one
  // kernel; one in a header two inputs include, with the same shape, is
  // kept once already.
  std::set<std::string> Analysed, WithErrors, Failed;
  for (const KernelEntry &K : R.Kernels) {
    std::string Id = K.Name + "@" + K.File.value_or("") + ":" + std::to_string(K.Line.value_or(0));
    if (K.Status == KernelStatus::Error) {
      WithErrors.insert(Id);
    } else if (K.Status == KernelStatus::Failed) {
      Failed.insert(Id);
    } else {
      Analysed.insert(Id);
      ++C.LaunchShapes;
      if (K.Work && !K.Work->Roofline.empty()) {
        const RooflineEntry &Verdict = K.Work->Roofline.front();
        ++(Verdict.Bound == "compute" ? C.ComputeBound : C.MemoryBound);
        C.RooflineArch = Verdict.Arch;
      } else {
        ++C.RooflineNotKnown;
      }
    }
  }
  C.KernelsAnalysed = Analysed.size();
  C.KernelsWithErrors = WithErrors.size();
  C.KernelsFailed = Failed.size();
  for (const Finding &F : R.Findings) {
    ++C.Findings;
    if (F.Severity == "error")
      ++C.FindingsAsErrors;
  }
  C.SuppressedByBaseline = R.SuppressedByBaseline;
  C.OutsideLineFilter = R.OutsideLineFilter;
  return C;
}

static std::string counted(unsigned N, llvm::StringRef One, llvm::StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

std::string summaryLine(const RunCounts &C) {
  std::string S = counted(C.Findings, "finding", "findings") + "; " +
                  counted(C.KernelsAnalysed, "kernel", "kernels") + " analysed (" +
                  counted(C.LaunchShapes, "launch shape", "launch shapes") + ")";
  if (C.KernelsWithErrors)
    S += ", " + counted(C.KernelsWithErrors, "kernel does", "kernels do") + " not compile";
  if (C.KernelsFailed)
    S += ", " + counted(C.KernelsFailed, "kernel", "kernels") + " could not be analysed";
  S += "; " + counted(C.Inputs, "input", "inputs") + ": " + std::to_string(C.Analysed) +
       " analysed";
  if (C.AnalysedWithErrors)
    S += ", " + std::to_string(C.AnalysedWithErrors) + " analysed with errors";
  if (C.NotAnalysed)
    S += ", " + std::to_string(C.NotAnalysed) + " not analysed";
  if (C.SuppressedByBaseline)
    S += "; " + counted(C.SuppressedByBaseline, "finding", "findings") +
         " suppressed by the baseline";
  if (C.OutsideLineFilter)
    S += "; " + counted(C.OutsideLineFilter, "finding", "findings") +
         " outside the lines checked";
  // The roofline verdicts of the launch shapes, when any has one.
  if (C.MemoryBound + C.ComputeBound > 0) {
    S += "; roofline on " + C.RooflineArch + ": " +
         counted(C.MemoryBound, "launch shape", "launch shapes") + " memory-bound, " +
         std::to_string(C.ComputeBound) + " compute-bound";
    if (C.RooflineNotKnown)
      S += ", " + std::to_string(C.RooflineNotKnown) + " not known";
  }
  return S;
}

int exitCodeFor(const RunCounts &C, FailOn Policy) {
  if (C.AnalysedWithErrors || C.NotAnalysed)
    return ExitInputErrors;
  bool Fails = Policy == FailOn::Warning   ? C.Findings > 0
               : Policy == FailOn::Error ? C.FindingsAsErrors > 0
                                         : false;
  return Fails ? ExitFindingsAsErrors : ExitOk;
}

} // namespace warpcheck::tool
