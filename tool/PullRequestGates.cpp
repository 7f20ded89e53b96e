//===- PullRequestGates.cpp - what a pull request is gated on -------------===//

#include "PullRequestGates.h"
#include "Baseline.h"
#include "Fingerprint.h"
#include "GitDiff.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace warpcheck::tool {

std::optional<GateOptions> readGateOptions(const CommandLine &CL, llvm::StringRef Cwd) {
  GateOptions G;
  llvm::SmallString<256> Root(CL.SourceRoot.empty() ? Cwd : llvm::StringRef(CL.SourceRoot));
  llvm::sys::fs::make_absolute(Cwd, Root);
  llvm::sys::path::remove_dots(Root, /*remove_dot_dot=*/true);
  if (!llvm::sys::fs::is_directory(Root)) {
    error("--source-root '" + CL.SourceRoot + "' is not a directory");
    return std::nullopt;
  }
  G.SourceRoot = Root.str().str();
  if (!CL.Baseline.empty()) {
    llvm::Expected<std::set<std::string>> Prints = readBaseline(CL.Baseline);
    if (!Prints) {
      error(llvm::toString(Prints.takeError()));
      return std::nullopt;
    }
    G.Baseline = std::move(*Prints);
  }
  if (!CL.LineFilterJson.empty()) {
    llvm::Expected<LineFilter> Filter = parseLineFilter(CL.LineFilterJson);
    if (!Filter) {
      error(llvm::toString(Filter.takeError()));
      return std::nullopt;
    }
    G.Filters.push_back(std::move(*Filter));
  }
  return G;
}

bool applyGates(const CommandLine &CL, GateOptions &G, llvm::StringRef Cwd, RunResult &R) {
  fingerprintFindings(R, Cwd, G.SourceRoot);
  if (!CL.WriteBaseline.empty())
    if (llvm::Error E = writeBaseline(R, CL.WriteBaseline)) {
      error(llvm::toString(std::move(E)));
      return false;
    }
  if (!CL.DiffRevision.empty() && !R.Findings.empty()) {
    std::set<std::string> Files;
    for (const Finding &F : R.Findings) {
      llvm::SmallString<256> Abs(F.File.value_or(""));
      if (Abs.empty())
        continue;
      llvm::sys::fs::make_absolute(Cwd, Abs);
      llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
      Files.insert(Abs.str().str());
    }
    llvm::Expected<LineFilter> Changed =
        changedLinesSince(CL.DiffRevision, std::vector<std::string>(Files.begin(), Files.end()));
    if (!Changed) {
      error(llvm::toString(Changed.takeError()));
      return false;
    }
    G.Filters.push_back(std::move(*Changed));
  }
  applyFiltersAndBaseline(G, Cwd, R);
  return true;
}

void applyFiltersAndBaseline(const GateOptions &G, llvm::StringRef Cwd, RunResult &R) {
  if (!G.Filters.empty())
    applyLineFilters(R, G.Filters, Cwd);
  if (G.Baseline)
    applyBaseline(R, *G.Baseline);
}

void applyGatesToUnit(const GateOptions &G, llvm::StringRef Cwd, RunResult &R) {
  fingerprintFindings(R, Cwd, G.SourceRoot);
  applyFiltersAndBaseline(G, Cwd, R);
}

} // namespace warpcheck::tool
