//===- FindingStream.cpp - findings printed as each unit finishes --------===//

#include "FindingStream.h"
#include "ProgressLine.h"
#include "Reporters.h"

namespace warpcheck::tool {

FindingStream::FindingStream(llvm::raw_ostream &OS, bool Color, ProgressLine *Progress,
                             const GateOptions &Gates, std::string WorkingDirectory)
    : OS(OS), Color(Color), Progress(Progress), Gates(Gates),
      WorkingDirectory(std::move(WorkingDirectory)) {}

bool FindingStream::isFinal(const JobResult &R) {
  return R.KernelsWithoutLaunch.empty() && R.FunctionsWithoutCaller.empty();
}

void FindingStream::unitFinished(RunResult Unit) {
  applyGatesToUnit(Gates, WorkingDirectory, Unit);
  std::lock_guard<std::mutex> Guard(Lock);
  RunResult Shown;
  for (Finding &F : Unit.Findings)
    if (Printed.insert(findingIdentity(F)).second)
      Shown.Findings.push_back(std::move(F));
  if (Shown.Findings.empty())
    return;
  if (Progress)
    Progress->clear();
  renderText(Shown, OS, Color);
  OS.flush();
}

bool FindingStream::printed(const Finding &F) const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Printed.count(findingIdentity(F)) != 0;
}

} // namespace warpcheck::tool
