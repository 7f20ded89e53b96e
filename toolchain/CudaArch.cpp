//===- CudaArch.cpp - CUDA architecture names as the toolchain spells them ===//
//
// Part of warpcheck.
//
//===----------------------------------------------------------------------===//

#include "warpcheck/toolchain/CudaArch.h"

#include "warpcheck/model/Arch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using llvm::StringRef;

namespace warpcheck::toolchain {

namespace {

/// The compute capabilities clang 19 accepts for --cuda-gpu-arch (as sm_NN),
/// oldest first (clang/Basic/Cuda.h of LLVM 19). The newest, 90, is also
/// accepted with the arch-specific suffix: sm_90a.
constexpr unsigned Clang19ArchNumbers[] = {20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61,
                                           62, 70, 72, 75, 80, 86, 87, 89, 90};
constexpr unsigned Clang19NewestArch = 90;
/// clang 19 knows sm_20..sm_37 but refuses them with CUDA 12 and newer;
/// those parse as sm_50, the oldest arch every supported toolkit has.
constexpr unsigned OldestParseArch = 50;

std::string smName(unsigned Number, StringRef Suffix = "") {
  return "sm_" + std::to_string(Number) + Suffix.str();
}

bool clang19Knows(unsigned Number, StringRef Suffix) {
  if (Suffix.empty())
    return llvm::is_contained(Clang19ArchNumbers, Number);
  return Suffix == "a" && Number == Clang19NewestArch;
}

/// Splits "sm_90a" into 90 and "a". False when not an arch.
bool splitArch(StringRef Arch, unsigned &Number, StringRef &Suffix) {
  StringRef Rest;
  if (Arch.starts_with("sm_"))
    Rest = Arch.drop_front(3);
  else if (Arch.starts_with("compute_"))
    Rest = Arch.drop_front(8);
  else if (Arch.starts_with("lto_"))
    Rest = Arch.drop_front(4);
  else
    return false;
  size_t Digits = 0;
  while (Digits < Rest.size() && llvm::isDigit(Rest[Digits]))
    ++Digits;
  if (Digits == 0 || Rest.size() - Digits > 1)
    return false;
  // sm_90a (arch-specific), sm_120f (family-specific).
  Suffix = Rest.drop_front(Digits);
  if (!Suffix.empty() && Suffix != "a" && Suffix != "f")
    return false;
  return !Rest.take_front(Digits).getAsInteger(10, Number);
}

} // namespace

std::string normalizeCudaArch(StringRef Arch) {
  unsigned Number = 0;
  StringRef Suffix;
  if (!splitArch(Arch.trim(), Number, Suffix))
    return "";
  return smName(Number, Suffix);
}

std::string clangParseArchFor(StringRef RequestedArch) {
  unsigned Number = 0;
  StringRef Suffix;
  if (!splitArch(RequestedArch.trim(), Number, Suffix))
    return "";
  if (clang19Knows(Number, Suffix))
    return Number < OldestParseArch ? smName(OldestParseArch) : smName(Number, Suffix);
  if (Number > Clang19NewestArch)
    return smName(Clang19NewestArch);
  // An arch clang 19 does not know (sm_88, sm_87f ...): the newest known
  // one below it, without a suffix.
  unsigned Best = OldestParseArch;
  for (unsigned Known : Clang19ArchNumbers)
    if (Known <= Number && Known >= OldestParseArch)
      Best = Known;
  return smName(Best);
}

std::optional<std::string> nvccArchName(StringRef Arch) {
  Arch = Arch.trim();
  std::string Lower = Arch.lower();
  StringRef S = Lower;
  if (!S.consume_front("sm_"))
    S.consume_front("compute_");
  if (S.contains('.')) {
    auto [Major, Minor] = S.split('.');
    std::string Joined = Major.str() + Minor.str();
    if (Joined.empty() || !llvm::all_of(Joined, llvm::isDigit))
      return std::nullopt;
    return "sm_" + Joined;
  }
  StringRef Digits = S.take_while(llvm::isDigit);
  StringRef Suffix = S.drop_front(Digits.size());
  if (Digits.size() < 2 || Digits.size() > 3 || !(Suffix.empty() || Suffix == "a" || Suffix == "f"))
    return std::nullopt;
  return "sm_" + S.str();
}

std::string archOrDefault(StringRef Arch) {
  return Arch.empty() ? std::string(model::DefaultArchName) : Arch.str();
}

} // namespace warpcheck::toolchain
