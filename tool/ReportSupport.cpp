//===- ReportSupport.cpp - what the report writers share ------------------===//

#include "ReportSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace warpcheck::tool {

std::map<std::string, unsigned> findingsPerCheck(const RunResult &R) {
  std::map<std::string, unsigned> Counts;
  for (const Finding &F : R.Findings)
    ++Counts[F.Check];
  return Counts;
}

llvm::StringRef checkSummary(llvm::StringRef Check) {
  if (Check == "cuda-uncoalesced-global-access")
    return "Global load, store or atomic touching more 32-byte sectors per warp "
           "request than its width requires";
  if (Check == "cuda-shared-bank-conflict")
    return "Shared memory access needing more wavefronts than its width requires "
           "(bank conflicts)";
  if (Check == "cuda-aos-layout")
    return "Array of structs whose fields a warp reads or writes one struct apart, moving more "
           "sectors than structure-of-arrays would";
  if (Check == "cuda-occupancy")
    return "Kernel launch whose theoretical occupancy is below the threshold";
  if (Check.starts_with("clang-diagnostic-"))
    return "Compiler warning";
  return "";
}

ReportedFile reportedFile(llvm::StringRef Base, llvm::StringRef File) {
  llvm::SmallString<256> Abs(File);
  if (!llvm::sys::path::is_absolute(Abs) && !Base.empty())
    llvm::sys::fs::make_absolute(Base, Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  std::string Prefix = Base.str();
  if (!Prefix.empty() && Prefix.back() != '/')
    Prefix += '/';
  llvm::StringRef Path = Abs.str();
  if (!Base.empty() && Path.starts_with(Prefix) && Path.size() > Prefix.size())
    return {Path.drop_front(Prefix.size()).str(), true};
  return {Path.str(), false};
}

} // namespace warpcheck::tool
