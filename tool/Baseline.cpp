//===- Baseline.cpp - findings a team has accepted ------------------------===//

#include "Baseline.h"
#include "Fingerprint.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace warpcheck::tool {

static llvm::Error baselineError(llvm::StringRef Path, const llvm::Twine &Cause) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "baseline '" + Path + "': " + Cause);
}

/// findings[].fingerprint of a --write-baseline file or a JSON report.
static llvm::Error readFindings(llvm::StringRef Path, const llvm::json::Array &Findings,
                                std::set<std::string> &Out) {
  for (size_t I = 0; I < Findings.size(); ++I) {
    const llvm::json::Object *F = Findings[I].getAsObject();
    std::optional<llvm::StringRef> Print = F ? F->getString("fingerprint") : std::nullopt;
    if (!Print || Print->empty())
      return baselineError(Path, "finding " + llvm::Twine(I + 1) +
                                     " has no fingerprint (a report of a warpcheck "
                                     "without fingerprints: write the baseline again)");
    Out.insert(Print->str());
  }
  return llvm::Error::success();
}

/// runs[].results[].partialFingerprints of a SARIF log.
static llvm::Error readSarif(llvm::StringRef Path, const llvm::json::Array &Runs,
                             std::set<std::string> &Out) {
  for (const llvm::json::Value &RunValue : Runs) {
    const llvm::json::Object *Run = RunValue.getAsObject();
    const llvm::json::Array *Results = Run ? Run->getArray("results") : nullptr;
    if (!Results)
      return baselineError(Path, "a SARIF run without results");
    for (size_t I = 0; I < Results->size(); ++I) {
      const llvm::json::Object *Result = (*Results)[I].getAsObject();
      const llvm::json::Object *Prints =
          Result ? Result->getObject("partialFingerprints") : nullptr;
      std::optional<llvm::StringRef> Print =
          Prints ? Prints->getString(FingerprintSarifKey) : std::nullopt;
      if (!Print || Print->empty())
        return baselineError(Path, "SARIF result " + llvm::Twine(I + 1) + " has no '" +
                                       FingerprintSarifKey + "' partial fingerprint");
      Out.insert(Print->str());
    }
  }
  return llvm::Error::success();
}

llvm::Expected<std::set<std::string>> readBaseline(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return baselineError(Path, "cannot be read: " + Buffer.getError().message());
  llvm::Expected<llvm::json::Value> Doc = llvm::json::parse((*Buffer)->getBuffer());
  if (!Doc)
    return baselineError(Path, "not JSON: " + llvm::toString(Doc.takeError()));
  const llvm::json::Object *Root = Doc->getAsObject();
  std::set<std::string> Prints;
  if (Root && Root->get("warpcheck_baseline")) {
    if (Root->getInteger("warpcheck_baseline") != BaselineFormatVersion)
      return baselineError(Path, "unsupported warpcheck_baseline version (this warpcheck "
                                 "reads version " + llvm::Twine(BaselineFormatVersion) + ")");
  }
  if (const llvm::json::Array *Runs = Root ? Root->getArray("runs") : nullptr) {
    if (llvm::Error E = readSarif(Path, *Runs, Prints))
      return std::move(E);
    return Prints;
  }
  if (const llvm::json::Array *Findings = Root ? Root->getArray("findings") : nullptr) {
    if (llvm::Error E = readFindings(Path, *Findings, Prints))
      return std::move(E);
    return Prints;
  }
  return baselineError(Path, "neither a --write-baseline file, a --format=json report "
                             "nor a SARIF log of warpcheck");
}

void applyBaseline(RunResult &R, const std::set<std::string> &Fingerprints) {
  size_t Before = R.Findings.size();
  llvm::erase_if(R.Findings, [&](const Finding &F) {
    return F.Fingerprint && Fingerprints.count(*F.Fingerprint);
  });
  R.SuppressedByBaseline += Before - R.Findings.size();
}

llvm::Error writeBaseline(const RunResult &R, llvm::StringRef Path) {
  llvm::json::Array Findings;
  for (const Finding &F : R.Findings)
    Findings.push_back(llvm::json::Object{{"fingerprint", F.Fingerprint.value_or("")},
                                          {"check", F.Check},
                                          {"file", F.File.value_or("")},
                                          {"line", F.Line.value_or(0)}});
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return llvm::createStringError(EC, "cannot write baseline '" + Path + "': " + EC.message());
  llvm::json::Object Doc{{"warpcheck_baseline", BaselineFormatVersion},
                         {"findings", std::move(Findings)}};
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Doc))) << "\n";
  return llvm::Error::success();
}

} // namespace warpcheck::tool
