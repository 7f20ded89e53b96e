//===- PtxasOutputFuzzer.cpp - reading `ptxas -v` output ------------------===//
//
// nvcc's output is read back (PtxasOutput.cpp) from a compilation of the
// analysed code, whose kernel names and messages the code chooses. Besides
// no crash: every function parsed has a name, and the parse of the same
// text is the same.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "warpcheck/analysis/RegisterUsage.h"

#include <cstdint>

using namespace warpcheck;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data, std::size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  std::map<std::string, analysis::FunctionRegisters> Parsed = analysis::parsePtxasOutput(Text);
  for (const auto &[Name, Registers] : Parsed)
    if (Name.empty())
      fuzz::invariantBroken("a function without a name", Text.take_front(200));
  if (analysis::parsePtxasOutput(Text).size() != Parsed.size())
    fuzz::invariantBroken("two parses of the same text differ", Text.take_front(200));
  return 0;
}
