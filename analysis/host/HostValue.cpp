//===- HostValue.cpp - host values and where paths meet -------------------===//

#include "HostValue.h"

#include <algorithm>

namespace warpcheck::analysis::host {

const HostValue *HostValue::field(const clang::FieldDecl *F) const {
  for (const HostField &HF : Fields)
    if (HF.Decl == F)
      return &HF.Value;
  return nullptr;
}

const HostValue *HostValue::field(llvm::StringRef Name) const {
  for (const HostField &HF : Fields)
    if (HF.Decl->getName() == Name)
      return &HF.Value;
  return nullptr;
}

void HostValue::setField(const clang::FieldDecl *F, HostValue V) {
  for (HostField &HF : Fields)
    if (HF.Decl == F) {
      HF.Value = std::move(V);
      return;
    }
  Fields.push_back(HostField{F, std::move(V)});
}

std::string HostValue::describe() const {
  if (K != Unknown)
    return "a known value";
  std::string Origin = Why.empty() ? "a value not known before the program runs" : Why;
  return Var.empty() ? Origin : "'" + Var + "', " + Origin;
}

bool HostValue::operator==(const HostValue &O) const {
  if (K != O.K)
    return false;
  switch (K) {
  case Unknown:
    return Why == O.Why && Var == O.Var && Multiple == O.Multiple;
  case Int:
  case Pointer:
    return Bits == O.Bits;
  case Record:
    if (DeviceProperties != O.DeviceProperties || Fields.size() != O.Fields.size())
      return false;
    for (const HostField &F : Fields) {
      const HostValue *Other = O.field(F.Decl);
      if (!Other || *Other != F.Value)
        return false;
    }
    return true;
  case Array:
    return Elements == O.Elements;
  case Functions:
    return Callees == O.Callees;
  case Address:
    return Target == O.Target;
  }
  return false;
}

/// What a value that may be either of two unknowns, or an unknown and an
/// integer, is known to be a multiple of: their greatest common divisor.
static std::uint64_t commonMultiple(const HostValue &A, const HostValue &B) {
  auto Of = [](const HostValue &V) -> std::uint64_t {
    return V.K == HostValue::Int ? V.Bits : V.known() ? 0 : V.Multiple;
  };
  std::uint64_t X = Of(A), Y = Of(B);
  if (!X || !Y)
    return 0;
  while (Y) {
    std::uint64_t T = X % Y;
    X = Y;
    Y = T;
  }
  return X;
}

HostValue join(const HostValue &A, const HostValue &B, const std::string &Where) {
  if (A == B)
    return A;
  if (!A.known() || !B.known()) {
    HostValue R = !A.known() ? A : B;
    R.Multiple = commonMultiple(A, B);
    return R;
  }
  if (A.K == HostValue::Functions && B.K == HostValue::Functions) {
    HostValue R = A;
    for (const clang::FunctionDecl *F : B.Callees)
      if (std::find(R.Callees.begin(), R.Callees.end(), F) == R.Callees.end())
        R.Callees.push_back(F);
    return R;
  }
  if (A.K == HostValue::Record && B.K == HostValue::Record &&
      A.DeviceProperties == B.DeviceProperties) {
    HostValue R;
    R.K = HostValue::Record;
    R.DeviceProperties = A.DeviceProperties;
    for (const HostField &F : A.Fields)
      if (const HostValue *Other = B.field(F.Decl))
        R.setField(F.Decl, join(F.Value, *Other, Where));
    return R; // a field set on one path only is not known after both
  }
  if (A.K == HostValue::Array && B.K == HostValue::Array &&
      A.Elements.size() == B.Elements.size()) {
    HostValue R = A;
    for (size_t I = 0; I < R.Elements.size(); ++I)
      R.Elements[I] = join(A.Elements[I], B.Elements[I], Where);
    return R;
  }
  return HostValue::unknown("a value that differs between the paths that meet after " +
                            Where);
}

HostState join(const HostState &A, const HostState &B, const std::string &Where) {
  if (!A.Live)
    return B;
  if (!B.Live)
    return A;
  HostState R;
  for (const auto &[Key, V] : A.Vars) {
    auto It = B.Vars.find(Key);
    R.Vars[Key] = It == B.Vars.end() ? V : join(V, It->second, Where);
  }
  for (const auto &[Key, V] : B.Vars)
    R.Vars.emplace(Key, V);
  return R;
}

} // namespace warpcheck::analysis::host
