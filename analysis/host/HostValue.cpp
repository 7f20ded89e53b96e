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
    return Why == O.Why && Var == O.Var && Multiple == O.Multiple && Residue == O.Residue &&
           Atom == O.Atom && Offset == O.Offset && Modulus == O.Modulus &&
           Decision == O.Decision && Arms == O.Arms;
  case Int:
  case Pointer:
    return Bits == O.Bits;
  case Record:
    if (DeviceProperties != O.DeviceProperties || Fields.size() != O.Fields.size() ||
        BuiltBy != O.BuiltBy)
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

HostValue HostValue::withoutIdentity() const {
  HostValue V = *this;
  V.Atom = 0;
  V.Offset = 0;
  V.Modulus = 0;
  for (HostField &F : V.Fields)
    F.Value = F.Value.withoutIdentity();
  for (HostValue &E : V.Elements)
    E = E.withoutIdentity();
  for (HostValue &A : V.Arms)
    A = A.withoutIdentity();
  return V;
}

namespace {

/// How many values V stands for: 1, or its ways' in all.
unsigned valueCount(const HostValue &V) {
  if (!V.isChoice())
    return 1;
  unsigned N = 0;
  for (const HostValue &A : V.Arms)
    N += valueCount(A);
  return N;
}

bool holdsInteger(const HostValue &V) {
  if (V.K == HostValue::Int)
    return true;
  return std::any_of(V.Arms.begin(), V.Arms.end(), holdsInteger);
}

std::string differs(const std::string &Where) {
  return "a value that differs between the paths that meet after " + Where;
}

/// The choice of Decision between Arms; one value where they agree.
HostValue choice(unsigned Decision, const std::string &Where, const BranchWays *Ways,
                 std::vector<HostValue> Arms) {
  if (std::all_of(Arms.begin(), Arms.end(), [&](const HostValue &A) { return A == Arms[0]; }))
    return Arms[0];
  HostValue R = HostValue::unknown(differs(Where));
  R.Decision = Decision;
  R.Branch = Where;
  R.Ways = Ways;
  R.Arms = std::move(Arms);
  if (valueCount(R) > MaxChoiceValues)
    return HostValue::unknown(differs(Where));
  return R;
}

/// An unknown that is no choice: what a choice becomes where it cannot
/// stay one.
HostValue withoutChoice(const HostValue &V) {
  if (!V.isChoice())
    return V;
  return HostValue::unknown(V.Why, V.Var);
}

} // namespace

HostValue restrictChoice(const HostValue &V, unsigned Decision, unsigned Arm) {
  if (V.isChoice()) {
    if (V.Decision == Decision)
      return restrictChoice(V.Arms[Arm], Decision, Arm);
    std::vector<HostValue> Arms;
    for (const HostValue &A : V.Arms)
      Arms.push_back(restrictChoice(A, Decision, Arm));
    return choice(V.Decision, V.Branch, V.Ways, std::move(Arms));
  }
  if (V.K == HostValue::Record) {
    HostValue R = V;
    for (HostField &F : R.Fields)
      F.Value = restrictChoice(F.Value, Decision, Arm);
    return R;
  }
  if (V.K == HostValue::Array) {
    HostValue R = V;
    for (HostValue &E : R.Elements)
      E = restrictChoice(E, Decision, Arm);
    return R;
  }
  return V;
}

const HostValue *outermostChoice(const HostValue &V) {
  if (V.isChoice())
    return &V;
  for (const HostField &F : V.Fields)
    if (const HostValue *C = outermostChoice(F.Value))
      return C;
  for (const HostValue &E : V.Elements)
    if (const HostValue *C = outermostChoice(E))
      return C;
  return nullptr;
}

std::vector<ValueWay> waysOf(std::vector<HostValue> Values, size_t Deciding, unsigned MaxWays) {
  Deciding = std::min(Deciding, Values.size());
  auto NextBranch = [&](const ValueWay &W) -> const HostValue * {
    for (size_t I = 0; I < Deciding; ++I)
      if (const HostValue *C = outermostChoice(W.Values[I]))
        return C;
    return nullptr;
  };
  std::vector<ValueWay> Done, Work{ValueWay{std::move(Values), {}}};
  while (!Work.empty()) {
    ValueWay W = std::move(Work.back());
    Work.pop_back();
    const HostValue *C = NextBranch(W);
    if (!C) {
      Done.push_back(std::move(W));
      continue;
    }
    unsigned Decision = C->Decision;
    std::string Where = C->Branch;
    const BranchWays &Words = C->Ways ? *C->Ways : IfWays;
    for (unsigned Arm : {1u, 0u}) { // the way where the condition holds first
      ValueWay Next = W;
      for (HostValue &V : Next.Values)
        V = restrictChoice(V, Decision, Arm);
      Next.Chosen.push_back(Where + " " + (Arm == 0 ? Words.Holds : Words.Fails));
      Work.push_back(std::move(Next));
    }
    if (Done.size() + Work.size() > MaxWays)
      return {};
  }
  return Done;
}

HostValue liftChoice(const HostValue &V, const std::function<HostValue(const HostValue &)> &F) {
  if (!V.isChoice())
    return F(V);
  std::vector<HostValue> Arms;
  for (const HostValue &A : V.Arms)
    Arms.push_back(liftChoice(A, F));
  return choice(V.Decision, V.Branch, V.Ways, std::move(Arms));
}

HostValue liftChoice(const HostValue &L, const HostValue &R,
                     const std::function<HostValue(const HostValue &, const HostValue &)> &F) {
  if (!L.isChoice() && !R.isChoice())
    return F(L, R);
  if (valueCount(L) * valueCount(R) > MaxChoiceValues)
    return F(withoutChoice(L), withoutChoice(R));
  const HostValue &C = L.isChoice() ? L : R;
  std::vector<HostValue> Arms;
  for (unsigned I = 0; I < C.Arms.size(); ++I)
    Arms.push_back(liftChoice(restrictChoice(L, C.Decision, I),
                              restrictChoice(R, C.Decision, I), F));
  return choice(C.Decision, C.Branch, C.Ways, std::move(Arms));
}

HostValue join(const HostValue &A, const HostValue &B, const std::string &Where,
               unsigned Decision, const BranchWays *Ways) {
  if (A == B)
    return A;
  // The two ways of one branch: a choice between them, when an integer is
  // among them (two unknowns say no more as a choice).
  auto Chooseable = [](const HostValue &V) {
    return V.K == HostValue::Int || V.K == HostValue::Unknown;
  };
  if (Decision && Chooseable(A) && Chooseable(B) && (holdsInteger(A) || holdsInteger(B)))
    return choice(Decision, Where, Ways, {A, B});
  if (A.isChoice() || B.isChoice())
    return HostValue::unknown(differs(Where));
  if (!A.known() || !B.known()) {
    HostValue R = !A.known() ? A : B;
    R.setCongruence(commonCongruence(A, B));
    // One quantity on both paths stays itself; two (or a quantity and an
    // integer) are neither.
    if (A.known() || B.known() || A.Atom != B.Atom || A.Offset != B.Offset ||
        A.Modulus != B.Modulus) {
      R.Atom = 0;
      R.Offset = 0;
      R.Modulus = 0;
    }
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
    if (A.BuiltBy == B.BuiltBy)
      R.BuiltBy = A.BuiltBy;
    for (const HostField &F : A.Fields)
      if (const HostValue *Other = B.field(F.Decl))
        R.setField(F.Decl, join(F.Value, *Other, Where, Decision, Ways));
    return R; // a field set on one path only is not known after both
  }
  if (A.K == HostValue::Array && B.K == HostValue::Array &&
      A.Elements.size() == B.Elements.size()) {
    HostValue R = A;
    for (size_t I = 0; I < R.Elements.size(); ++I)
      R.Elements[I] = join(A.Elements[I], B.Elements[I], Where, Decision, Ways);
    return R;
  }
  return HostValue::unknown(differs(Where));
}

HostState join(const HostState &A, const HostState &B, const std::string &Where,
               unsigned Decision, const BranchWays *Ways) {
  if (!A.Live)
    return B;
  if (!B.Live)
    return A;
  HostState R;
  for (const auto &[Key, V] : A.Vars) {
    auto It = B.Vars.find(Key);
    R.Vars[Key] = It == B.Vars.end() ? V : join(V, It->second, Where, Decision, Ways);
  }
  for (const auto &[Key, V] : B.Vars)
    R.Vars.emplace(Key, V);
  return R;
}

} // namespace warpcheck::analysis::host
