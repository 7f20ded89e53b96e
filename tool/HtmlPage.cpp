//===- HtmlPage.cpp - what the pieces of the HTML report share ------------===//

#include "HtmlPage.h"
#include "ReportSupport.h"
#include "SourceLookup.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace warpcheck::tool {

std::string escapeHtml(llvm::StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (char C : Text)
    switch (C) {
    case '&': Out += "&amp;"; break;
    case '<': Out += "&lt;"; break;
    case '>': Out += "&gt;"; break;
    case '"': Out += "&quot;"; break;
    case '\'': Out += "&#39;"; break;
    default: Out += C;
    }
  return Out;
}

std::string numberText(std::optional<double> V) {
  if (!V)
    return "–";
  double Whole;
  if (std::modf(*V, &Whole) == 0.0 && std::abs(Whole) < 9.0e18)
    return std::to_string(static_cast<std::int64_t>(Whole));
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.4g", *V);
  return Text;
}

std::string numberText(std::int64_t V) { return std::to_string(V); }

std::string percentText(std::optional<double> V) {
  if (!V)
    return "–";
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.1f%%", *V * 100);
  return Text;
}

std::string dimText(const Dims &D) {
  return "(" + std::to_string(D[0]) + ", " + std::to_string(D[1]) + ", " +
         std::to_string(D[2]) + ")";
}

std::string dimText(const std::optional<Dims> &D) { return D ? dimText(*D) : "–"; }

std::string siText(double V) {
  if (V == 0)
    return "0 ";
  static const struct {
    double Scale;
    const char *Prefix;
  } Prefixes[] = {{1e15, " P"}, {1e12, " T"}, {1e9, " G"}, {1e6, " M"}, {1e3, " k"}, {1, " "},
                  {1e-3, " m"}, {1e-6, " µ"}, {1e-9, " n"}};
  for (const auto &P : Prefixes)
    if (std::abs(V) >= P.Scale || P.Scale == 1e-9) {
      char Text[32];
      std::snprintf(Text, sizeof Text, "%.3g%s", V / P.Scale, P.Prefix);
      return Text;
    }
  return "";
}

void HtmlPage::headerRow(llvm::ArrayRef<llvm::StringRef> Names) {
  OS << "<thead><tr>";
  for (llvm::StringRef N : Names)
    element("th", N);
  OS << "</tr></thead>\n";
}

void HtmlPage::stringList(llvm::ArrayRef<std::string> Items) {
  if (Items.empty())
    return;
  OS << "<ul>";
  for (const std::string &Item : Items)
    element("li", Item);
  OS << "</ul>";
}

std::string HtmlPage::fileName(llvm::StringRef File) const {
  return reportedFile(Base, File).Path;
}

std::string HtmlPage::position(const std::optional<std::string> &File,
                               std::optional<std::int64_t> Line,
                               std::optional<std::int64_t> Column) const {
  if (!File || File->empty())
    return "";
  std::string Out = fileName(*File);
  if (Line) {
    Out += ":" + std::to_string(*Line);
    if (Column)
      Out += ":" + std::to_string(*Column);
  }
  return Out;
}

/// The efficiency numbers of a launch's accesses (LaunchView).
static void accessSummary(const KernelEntry &K, LaunchView &V) {
  double Needed = 0, Moved = 0;
  for (const AccessEntry &A : K.Accesses) {
    if (A.Space == analysis::MemorySpace::Global && A.Efficiency) {
      V.WorstGlobalEfficiency = std::min(V.WorstGlobalEfficiency.value_or(1.0), *A.Efficiency);
      if (A.SectorsPerRequest && A.IdealSectorsPerRequest && A.RequestsSimulated > 0) {
        Needed += *A.IdealSectorsPerRequest * static_cast<double>(A.RequestsSimulated);
        Moved += *A.SectorsPerRequest * static_cast<double>(A.RequestsSimulated);
      }
    }
    if (A.Space == analysis::MemorySpace::Shared && A.ConflictDegree)
      V.WorstConflictDegree = std::max(V.WorstConflictDegree.value_or(0), *A.ConflictDegree);
  }
  if (Moved > 0)
    V.WeightedGlobalEfficiency = std::round(Needed / Moved * 1e4) / 1e4;
}

std::vector<LaunchView> launchViews(const RunResult &R, llvm::StringRef WorkingDirectory) {
  std::vector<LaunchView> Views;
  for (const KernelEntry &K : R.Kernels) {
    LaunchView V;
    V.Kernel = &K;
    V.Number = static_cast<unsigned>(Views.size() + 1);
    V.Id = "launch-" + std::to_string(V.Number);
    V.Label = K.Name + (K.Launch ? " " + dimText(K.Launch->Block) : std::string());
    accessSummary(K, V);
    Views.push_back(std::move(V));
  }
  KernelLocator Kernels(R, WorkingDirectory);
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    const Finding &F = R.Findings[I];
    std::string Name = Kernels.kernelAt(Kernels.absolute(F.File.value_or("")),
                                        F.Line.value_or(0), F.Column.value_or(0));
    if (Name.empty())
      continue;
    // The launches the finding names: its own and those RunResult merged
    // into it ("the same for the launch at ...").
    std::set<std::string> Named;
    if (std::string L = launchNamed(F.Message); !L.empty())
      Named.insert(L);
    for (const ReportedMessage &N : F.Notes)
      if (llvm::StringRef(N.Message).starts_with("the same for "))
        if (std::string L = launchNamed(N.Message); !L.empty())
          Named.insert(L);
    auto Applies = [&](const LaunchView &V, bool ByLaunch) {
      const KernelEntry &K = *V.Kernel;
      return K.Name == Name && K.Status == KernelStatus::Analysed &&
             (!ByLaunch || (K.Launch && Named.count(launchNamed(K.Launch->Description))));
    };
    bool AnyNamed = !Named.empty() && llvm::any_of(Views, [&](const LaunchView &V) {
      return Applies(V, true);
    });
    for (LaunchView &V : Views)
      if (Applies(V, AnyNamed))
        V.Findings.push_back(I);
  }
  return Views;
}

std::vector<std::vector<const LaunchView *>> launchesPerFinding(const RunResult &R,
                                                                const std::vector<LaunchView> &V) {
  std::vector<std::vector<const LaunchView *>> Out(R.Findings.size());
  for (const LaunchView &L : V)
    for (size_t F : L.Findings)
      Out[F].push_back(&L);
  return Out;
}

} // namespace warpcheck::tool
