//===- WorkEntries.cpp - a launch's FLOPs, DRAM bytes and roofline, typed --===//

#include "WorkEntries.h"
#include "JsonFields.h"

namespace warpcheck::tool {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;
using namespace warpcheck::analysis;

namespace {

constexpr const char *PrecisionKeys[] = {"fp16", "fp32", "fp64"};

AccessStatus statusNamed(std::optional<llvm::StringRef> Name) {
  for (AccessStatus S : AllAccessStatuses)
    if (Name && *Name == statusName(S))
      return S;
  return AccessStatus::Unknown;
}

void addAssumptions(const std::vector<Assumption> &From, Object &O) {
  Array Texts, Kinds;
  for (const Assumption &A : From) {
    Texts.push_back(A.Text);
    Kinds.push_back(assumptionKindName(A.Kind));
  }
  O["assumptions"] = std::move(Texts);
  O["assumption_kinds"] = std::move(Kinds);
}

std::vector<Assumption> assumptionsOf(const Object &O) {
  std::vector<Assumption> Out;
  const Array *Texts = O.getArray("assumptions");
  const Array *Kinds = O.getArray("assumption_kinds");
  if (!Texts || !Kinds || Texts->size() != Kinds->size())
    return Out;
  for (std::size_t I = 0; I < Texts->size(); ++I) {
    AssumptionKind Kind = AssumptionKind::IncompleteSimulation;
    for (AssumptionKind K : AllAssumptionKinds)
      if ((*Kinds)[I].getAsString() == llvm::StringRef(assumptionKindName(K)))
        Kind = K;
    Out.push_back({Kind, (*Texts)[I].getAsString().value_or("").str()});
  }
  return Out;
}

Object toJson(const CountPolynomial &P, const std::vector<std::string> &Symbols) {
  Array Terms;
  for (const FormulaTerm &T : P.Terms) {
    Array Powers;
    for (unsigned E : T.Powers)
      Powers.push_back(static_cast<std::int64_t>(E));
    Terms.push_back(Object{{"numerator", T.Numerator},
                           {"denominator", T.Denominator},
                           {"powers", std::move(Powers)}});
  }
  return Object{{"formula", P.text(Symbols)}, {"terms", std::move(Terms)}};
}

CountPolynomial polynomialFromJson(const Object *O) {
  CountPolynomial P;
  const Array *Terms = O ? O->getArray("terms") : nullptr;
  if (!Terms)
    return P;
  for (const Value &V : *Terms) {
    const Object *T = V.getAsObject();
    if (!T)
      continue;
    FormulaTerm Term;
    Term.Numerator = T->getInteger("numerator").value_or(0);
    Term.Denominator = T->getInteger("denominator").value_or(1);
    if (const Array *Powers = T->getArray("powers"))
      for (const Value &E : *Powers)
        Term.Powers.push_back(static_cast<unsigned>(E.getAsInteger().value_or(0)));
    P.Terms.push_back(std::move(Term));
  }
  return P;
}

constexpr const char *OperationKeys[] = {"add", "mul", "fma", "flops"};

template <typename Formula> auto &operation(Formula &F, unsigned Op) {
  return Op == 0 ? F.Add : Op == 1 ? F.Mul : Op == 2 ? F.Fma : F.Flops;
}

Object toJson(const FlopFormula &F) {
  Array Symbols;
  for (const std::string &S : F.Symbols)
    Symbols.push_back(S);
  Object O{{"symbols", std::move(Symbols)},
           {"fitted_step", F.Step},
           {"fitted_up_to", F.Base},
           {"total", toJson(F.PerThreadTotal, F.Symbols)}};
  for (std::size_t P = 0; P < F.PerThread.size(); ++P) {
    Object Ops;
    for (unsigned Op = 0; Op < 4; ++Op)
      Ops[OperationKeys[Op]] = toJson(operation(F.PerThread[P], Op), F.Symbols);
    O[PrecisionKeys[P]] = std::move(Ops);
  }
  return O;
}

FlopFormula formulaFromJson(const Object &O) {
  FlopFormula F;
  if (const Array *Symbols = O.getArray("symbols"))
    for (const Value &S : *Symbols)
      F.Symbols.push_back(S.getAsString().value_or("").str());
  F.Step = O.getInteger("fitted_step").value_or(0);
  F.Base = O.getInteger("fitted_up_to").value_or(0);
  F.PerThreadTotal = polynomialFromJson(O.getObject("total"));
  for (std::size_t P = 0; P < F.PerThread.size(); ++P)
    if (const Object *Ops = O.getObject(PrecisionKeys[P]))
      for (unsigned Op = 0; Op < 4; ++Op)
        operation(F.PerThread[P], Op) = polynomialFromJson(Ops->getObject(OperationKeys[Op]));
  return F;
}

Object toJson(const FlopsEntry &F) {
  Object O{{"status", statusName(F.Status)}, {"total", orNull(F.Total)}};
  for (std::size_t P = 0; P < F.ByPrecision.size(); ++P) {
    const PrecisionOpsEntry &E = F.ByPrecision[P];
    O[PrecisionKeys[P]] =
        Object{{"add", E.Add}, {"mul", E.Mul}, {"fma", E.Fma}, {"flops", E.Flops}};
  }
  addAssumptions(F.Assumptions, O);
  if (!F.NotCounted.empty())
    O["not_counted"] = F.NotCounted;
  if (F.PerThread)
    O["per_thread_formula"] = toJson(*F.PerThread);
  return O;
}

FlopsEntry flopsFromJson(const Object &O) {
  FlopsEntry F;
  F.Status = statusNamed(O.getString("status"));
  F.Total = O.getInteger("total");
  for (std::size_t P = 0; P < F.ByPrecision.size(); ++P)
    if (const Object *E = O.getObject(PrecisionKeys[P]))
      F.ByPrecision[P] = {E->getInteger("add").value_or(0), E->getInteger("mul").value_or(0),
                          E->getInteger("fma").value_or(0), E->getInteger("flops").value_or(0)};
  F.Assumptions = assumptionsOf(O);
  F.NotCounted = O.getString("not_counted").value_or("").str();
  if (const Object *Formula = O.getObject("per_thread_formula"))
    F.PerThread = formulaFromJson(*Formula);
  return F;
}

Object toJson(const DramBytesEntry &D) {
  std::optional<std::int64_t> Total;
  if (D.Read && D.Write)
    Total = *D.Read + *D.Write;
  Object O{{"status", statusName(D.Status)},
           {"read", orNull(D.Read)},
           {"write", orNull(D.Write)},
           {"total", orNull(Total)}};
  addAssumptions(D.Assumptions, O);
  if (!D.NotCounted.empty())
    O["not_counted"] = D.NotCounted;
  return O;
}

DramBytesEntry dramFromJson(const Object &O) {
  DramBytesEntry D;
  D.Status = statusNamed(O.getString("status"));
  D.Read = O.getInteger("read");
  D.Write = O.getInteger("write");
  D.Assumptions = assumptionsOf(O);
  D.NotCounted = O.getString("not_counted").value_or("").str();
  return D;
}

Object toJson(const RooflineEntry &R) {
  return Object{{"arch", R.Arch},
                {"part", R.Part},
                {"precision", R.Precision},
                {"peak_flops_per_second", R.PeakFlopsPerSecond},
                {"peak_source", R.PeakSource},
                {"bandwidth_bytes_per_second", R.BandwidthBytesPerSecond},
                {"ridge", R.Ridge},
                {"bound", R.Bound},
                {"attainable_flops_per_second", R.AttainableFlopsPerSecond},
                {"time_bound_seconds", R.TimeBoundSeconds},
                {"status", statusName(R.Status)}};
}

RooflineEntry rooflineFromJson(const Object &O) {
  RooflineEntry R;
  R.Arch = O.getString("arch").value_or("").str();
  R.Part = O.getString("part").value_or("").str();
  R.Precision = O.getString("precision").value_or("").str();
  R.PeakFlopsPerSecond = O.getNumber("peak_flops_per_second").value_or(0);
  R.PeakSource = O.getString("peak_source").value_or("").str();
  R.BandwidthBytesPerSecond = O.getNumber("bandwidth_bytes_per_second").value_or(0);
  R.Ridge = O.getNumber("ridge").value_or(0);
  R.Bound = O.getString("bound").value_or("").str();
  R.AttainableFlopsPerSecond = O.getNumber("attainable_flops_per_second").value_or(0);
  R.TimeBoundSeconds = O.getNumber("time_bound_seconds").value_or(0);
  R.Status = statusNamed(O.getString("status"));
  return R;
}

} // namespace

void addWorkFields(const WorkEntry &W, Object &Kernel) {
  Kernel["flops"] = toJson(W.Flops);
  Kernel["dram_bytes"] = toJson(W.Dram);
  Kernel["intensity"] = orNull(W.Intensity);
  Array Roofline;
  for (const RooflineEntry &R : W.Roofline)
    Roofline.push_back(toJson(R));
  Kernel["roofline"] = std::move(Roofline);
  Kernel["work_blocks_simulated"] = W.BlocksSimulated;
  Kernel["total_blocks"] = W.TotalBlocks;
}

std::optional<WorkEntry> workFromJson(const Object &Kernel) {
  const Object *Flops = Kernel.getObject("flops");
  const Object *Dram = Kernel.getObject("dram_bytes");
  if (!Flops || !Dram)
    return std::nullopt;
  WorkEntry W;
  W.Flops = flopsFromJson(*Flops);
  W.Dram = dramFromJson(*Dram);
  W.Intensity = Kernel.getNumber("intensity");
  if (const Array *Roofline = Kernel.getArray("roofline"))
    for (const Value &V : *Roofline)
      if (const Object *R = V.getAsObject())
        W.Roofline.push_back(rooflineFromJson(*R));
  W.BlocksSimulated = Kernel.getInteger("work_blocks_simulated").value_or(0);
  W.TotalBlocks = Kernel.getInteger("total_blocks").value_or(0);
  return W;
}

} // namespace warpcheck::tool
