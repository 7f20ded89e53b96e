//===- AosEntries.cpp - a kernel's arrays of structs, typed ---------------===//

#include "AosEntries.h"
#include "JsonFields.h"

using namespace llvm::json;

namespace warpcheck::tool {

namespace {

Object toJson(const AosTrafficEntry &T) {
  return Object{{"instructions", T.Instructions},
                {"l1_sectors", T.L1Sectors},
                {"soa_l1_sectors", T.SoaL1Sectors},
                {"dram_bytes", T.DramBytes},
                {"soa_dram_bytes", T.SoaDramBytes},
                {"useful_bytes", T.UsefulBytes}};
}

AosTrafficEntry trafficFromJson(const Object *O) {
  AosTrafficEntry T;
  if (!O)
    return T;
  T.Instructions = O->getInteger("instructions").value_or(0);
  T.L1Sectors = O->getInteger("l1_sectors").value_or(0);
  T.SoaL1Sectors = O->getInteger("soa_l1_sectors").value_or(0);
  T.DramBytes = O->getInteger("dram_bytes").value_or(0);
  T.SoaDramBytes = O->getInteger("soa_dram_bytes").value_or(0);
  T.UsefulBytes = O->getInteger("useful_bytes").value_or(0);
  return T;
}

} // namespace

Object toJson(const AosEntry &E) {
  Array Fields;
  for (const AosFieldEntry &F : E.Fields)
    Fields.push_back(Object{{"name", F.Name},
                            {"offset", F.Offset},
                            {"bytes", F.Bytes},
                            {"loaded", F.Loaded},
                            {"stored", F.Stored},
                            {"loads", toJson(F.Loads)},
                            {"stores", toJson(F.Stores)}});

  // The alternatives evaluated: structure of arrays always, one vector
  // access per element when the struct fits one.
  Array Alternatives;
  Alternatives.push_back(Object{{"kind", "structure_of_arrays"},
                                {"l1_sectors", E.Loads.SoaL1Sectors + E.Stores.SoaL1Sectors},
                                {"dram_bytes", E.Loads.SoaDramBytes + E.Stores.SoaDramBytes}});
  if (E.Vector)
    Alternatives.push_back(Object{{"kind", "vector"},
                                  {"vector_bytes", E.Vector->VectorBytes},
                                  {"padding_bytes", E.Vector->PaddingBytes},
                                  {"l1_sectors", E.Vector->L1Sectors},
                                  {"dram_bytes", E.Vector->DramBytes}});
  Object O{{"file", orNull(E.File)},
           {"line", orNull(E.Line)},
           {"column", orNull(E.Column)},
           {"struct", E.Struct},
           {"struct_bytes", E.StructBytes},
           {"pointer", E.Pointer},
           {"fields", std::move(Fields)},
           {"whole_copy", E.WholeCopy},
           {"loads", toJson(E.Loads)},
           {"stores", toJson(E.Stores)},
           {"l1_efficiency", E.L1Efficiency},
           {"dram_efficiency", E.DramEfficiency},
           {"alternatives", std::move(Alternatives)},
           {"status", E.Exact ? "exact" : "assumed"}};
  putAssumptions(O, E.Assumptions);
  return O;
}

AosEntry aosFromJson(const Object &O) {
  AosEntry E;
  E.File = stringField(O, "file");
  E.Line = O.getInteger("line");
  E.Column = O.getInteger("column");
  E.Struct = O.getString("struct").value_or("").str();
  E.StructBytes = O.getInteger("struct_bytes").value_or(0);
  E.Pointer = O.getString("pointer").value_or("").str();
  if (const Array *Fields = O.getArray("fields"))
    for (const Value &V : *Fields)
      if (const Object *F = V.getAsObject())
        E.Fields.push_back({F->getString("name").value_or("").str(),
                            F->getInteger("offset").value_or(0), F->getInteger("bytes").value_or(0),
                            F->getBoolean("loaded").value_or(false),
                            F->getBoolean("stored").value_or(false),
                            trafficFromJson(F->getObject("loads")),
                            trafficFromJson(F->getObject("stores"))});
  E.WholeCopy = O.getBoolean("whole_copy").value_or(false);
  E.Loads = trafficFromJson(O.getObject("loads"));
  E.Stores = trafficFromJson(O.getObject("stores"));
  E.L1Efficiency = O.getNumber("l1_efficiency").value_or(1);
  E.DramEfficiency = O.getNumber("dram_efficiency").value_or(1);
  if (const Array *Alternatives = O.getArray("alternatives"))
    for (const Value &V : *Alternatives)
      if (const Object *A = V.getAsObject(); A && A->getString("kind") == "vector")
        E.Vector = AosVectorEntry{A->getInteger("vector_bytes").value_or(0),
                                  A->getInteger("padding_bytes").value_or(0),
                                  A->getInteger("l1_sectors").value_or(0),
                                  A->getInteger("dram_bytes").value_or(0)};
  E.Exact = O.getString("status").value_or("exact") == "exact";
  E.Assumptions = assumptionsOf(O);
  return E;
}

} // namespace warpcheck::tool
