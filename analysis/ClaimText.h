//===- ClaimText.h - words the claims of an access share ------------------===//
//
// Private to analysis/. Text helpers used by more than one part of an
// access's claim (KernelAnalysis.cpp, AccessEmission.cpp); sourceText, which
// the checks use too, is in KernelAnalysis.h.
//
//===----------------------------------------------------------------------===//

#ifndef WARPCHECK_ANALYSIS_CLAIMTEXT_H
#define WARPCHECK_ANALYSIS_CLAIMTEXT_H

#include <string>
#include <vector>

namespace warpcheck::analysis {

/// 'a', 'a' and 'b', 'a', 'b' and 'c'.
std::string quotedList(const std::vector<std::string> &Names);

} // namespace warpcheck::analysis

#endif // WARPCHECK_ANALYSIS_CLAIMTEXT_H
