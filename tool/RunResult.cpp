//===- RunResult.cpp - the merged results of a run, honestly counted ------===//

#include "RunResult.h"
#include "CommandLine.h"

#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

namespace warpcheck::tool {

/// A stable text of a JSON value, for recognising the same finding or
/// kernel reported by two translation units.
static std::string keyOf(const llvm::json::Value &V) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << V;
  return OS.str();
}

/// The launch a finding names ("the launch at main.cu:40"), if any.
static std::string launchNamed(llvm::StringRef Message) {
  static const llvm::Regex Launch("the launch at [^ ,;()]+:[0-9]+");
  llvm::SmallVector<llvm::StringRef, 1> Match;
  if (Launch.match(Message, &Match))
    return Match[0].str();
  return "";
}

/// A finding's identity across translation units: the same check, place
/// and words, whichever unit's launch site the words name. A kernel in a
/// header that two files launch with the same shape is one finding there.
static std::string findingKey(const llvm::json::Object &F) {
  llvm::json::Object Key{{"check", F.getString("check").value_or("").str()},
                         {"file", F.getString("file").value_or("").str()},
                         {"line", F.getInteger("line").value_or(0)},
                         {"column", F.getInteger("column").value_or(0)}};
  std::string Message = F.getString("message").value_or("").str();
  std::string Launch = launchNamed(Message);
  if (!Launch.empty())
    Message.replace(Message.find(Launch), Launch.size(), "the launch");
  Key["message"] = Message;
  return keyOf(llvm::json::Value(std::move(Key)));
}

void RunResult::addNotAnalysed(const std::string &File, const std::string &Cause) {
  Errors.push_back(llvm::json::Object{{"file", File}, {"message", Cause}});
  Inputs.push_back(llvm::json::Object{{"file", File},
                                      {"status", "not_analysed"},
                                      {"errors", 1},
                                      {"kernels_analysed", 0},
                                      {"kernels_with_errors", 0},
                                      {"cause", Cause}});
}

void RunResult::addNote(const std::string &File, const std::string &Note) {
  Inputs.push_back(llvm::json::Object{{"file", File},
                                      {"status", "included"},
                                      {"notes", llvm::json::Array{Note}}});
}

void RunResult::addJobOutput(llvm::json::Object Output, const std::vector<std::string> &Notes) {
  llvm::json::Object Input;
  if (llvm::json::Object *I = Output.getObject("input"))
    Input = std::move(*I);
  else
    Input = llvm::json::Object{{"file", Output.getString("file").value_or("").str()},
                               {"status", "not_analysed"},
                               {"cause", "the analysis produced no summary"}};
  if (!Notes.empty()) {
    llvm::json::Array N;
    for (const std::string &S : Notes)
      N.push_back(S);
    Input["notes"] = std::move(N);
  }
  Inputs.push_back(std::move(Input));
  if (llvm::json::Array *K = Output.getArray("kernels"))
    for (llvm::json::Value &V : *K)
      if (SeenKernels.insert(keyOf(V)).second)
        Kernels.push_back(std::move(V));
  if (llvm::json::Array *F = Output.getArray("findings"))
    for (llvm::json::Value &V : *F) {
      llvm::json::Object *Finding = V.getAsObject();
      if (!Finding)
        continue;
      std::string Key = findingKey(*Finding);
      auto Seen = FindingIndex.find(Key);
      if (Seen == FindingIndex.end()) {
        FindingIndex[Key] = Findings.size();
        Findings.push_back(std::move(V));
        continue;
      }
      // Reported by an earlier unit already: say which other launch gives
      // the same numbers, once.
      llvm::json::Object &First = *Findings[Seen->second].getAsObject();
      std::string Launch = launchNamed(Finding->getString("message").value_or(""));
      if (Launch.empty() || Launch == launchNamed(First.getString("message").value_or("")))
        continue;
      std::string Text = "the same for " + Launch;
      llvm::json::Array *Notes = First.getArray("notes");
      if (!Notes) {
        First["notes"] = llvm::json::Array();
        Notes = First.getArray("notes");
      }
      bool Said = false;
      for (const llvm::json::Value &N : *Notes)
        if (const llvm::json::Object *O = N.getAsObject())
          Said |= O->getString("message") == Text;
      if (!Said) {
        llvm::json::Object Note{{"message", Text}};
        for (const char *K : {"file", "line", "column", "source_line"})
          if (const llvm::json::Value *X = First.get(K))
            Note[K] = *X;
        Notes->push_back(std::move(Note));
      }
    }
  if (llvm::json::Array *E = Output.getArray("errors"))
    for (llvm::json::Value &V : *E)
      Errors.push_back(std::move(V));
}

RunCounts countRun(const RunResult &R) {
  RunCounts C;
  for (const llvm::json::Value &V : R.Inputs) {
    const llvm::json::Object *I = V.getAsObject();
    llvm::StringRef Status = I ? I->getString("status").value_or("") : "";
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
  std::set<std::string> Analysed, WithErrors;
  for (const llvm::json::Value &V : R.Kernels) {
    const llvm::json::Object *K = V.getAsObject();
    if (!K)
      continue;
    std::string Id = K->getString("name").value_or("").str() + "@" +
                     K->getString("file").value_or("").str() + ":" +
                     std::to_string(K->getInteger("line").value_or(0));
    if (K->getString("status") == "error") {
      WithErrors.insert(Id);
    } else {
      Analysed.insert(Id);
      ++C.LaunchShapes;
    }
  }
  C.KernelsAnalysed = Analysed.size();
  C.KernelsWithErrors = WithErrors.size();
  for (const llvm::json::Value &V : R.Findings) {
    ++C.Findings;
    if (const llvm::json::Object *F = V.getAsObject())
      if (F->getString("severity") == "error")
        ++C.FindingsAsErrors;
  }
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
  S += "; " + counted(C.Inputs, "input", "inputs") + ": " + std::to_string(C.Analysed) +
       " analysed";
  if (C.AnalysedWithErrors)
    S += ", " + std::to_string(C.AnalysedWithErrors) + " analysed with errors";
  if (C.NotAnalysed)
    S += ", " + std::to_string(C.NotAnalysed) + " not analysed";
  return S;
}

int exitCodeFor(const RunCounts &C) {
  if (C.AnalysedWithErrors || C.NotAnalysed)
    return ExitInputErrors;
  if (C.FindingsAsErrors)
    return ExitFindingsAsErrors;
  return ExitOk;
}

} // namespace warpcheck::tool
