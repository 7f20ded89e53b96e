//===- HostValue.h - what a host variable holds at a launch ----*- C++ -*-===//
//
// The value domain of the host evaluator: an integer (its bits normalised
// to its C++ type, values/IntegerSemantics.h), a record (dim3,
// cudaLaunchConfig_t, a cudaDeviceProp the runtime filled), an array, the
// set of functions a function pointer may hold, the address of a variable,
// a pointer's byte offset from its allocation, or nothing known, with why.
// Where two paths meet, values are joined: equal values stay, function
// sets unite, anything else becomes unknown. Private to analysis/host/.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_HOST_HOSTVALUE_H
#define WARPCHECK_ANALYSIS_HOST_HOSTVALUE_H

#include "clang/AST/Decl.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace warpcheck::analysis::host {

/// A variable of one activation: (the frame's number, the declaration).
/// Frame 0 holds nothing: globals are read from their declarations.
using VarKey = std::pair<unsigned, const clang::ValueDecl *>;

struct HostField;

struct HostValue {
  enum Kind : std::uint8_t { Unknown, Int, Record, Array, Functions, Address, Pointer };
  Kind K = Unknown;
  /// Int: the bits, normalised to the type; Pointer: the byte offset from
  /// the start of its allocation.
  std::uint64_t Bits = 0;
  /// Unknown: the variable the value was read from, if any, and where the
  /// unknown value comes from, as a phrase ("a value 'atoi' returns at run
  /// time (main.cu:12)").
  std::string Var, Why;
  /// Unknown: a positive number the value is known to be a multiple of (a
  /// pitch cudaMallocPitch gives: 512), or 0.
  std::uint64_t Multiple = 0;
  /// Record: the fields set so far (others read as unknown).
  std::vector<HostField> Fields;
  /// Record: a cudaDeviceProp filled by the runtime; fields not set are the
  /// device's (DeviceProperties.h).
  bool DeviceProperties = false;
  /// Array: the elements.
  std::vector<HostValue> Elements;
  /// Functions: every function the pointer may hold.
  std::vector<const clang::FunctionDecl *> Callees;
  /// Address: the variable pointed to.
  VarKey Target{0, nullptr};

  static HostValue integer(std::uint64_t Bits) {
    HostValue V;
    V.K = Int;
    V.Bits = Bits;
    return V;
  }
  static HostValue unknown(std::string Why, std::string Var = "") {
    HostValue V;
    V.Why = std::move(Why);
    V.Var = std::move(Var);
    return V;
  }
  static HostValue pointer(std::uint64_t Offset) {
    HostValue V;
    V.K = Pointer;
    V.Bits = Offset;
    return V;
  }
  static HostValue address(VarKey Target) {
    HostValue V;
    V.K = Address;
    V.Target = Target;
    return V;
  }
  static HostValue functions(std::vector<const clang::FunctionDecl *> Callees) {
    HostValue V;
    V.K = Functions;
    V.Callees = std::move(Callees);
    return V;
  }

  bool known() const { return K != Unknown; }
  /// The field's value, or null.
  const HostValue *field(const clang::FieldDecl *F) const;
  /// The field of that name (dim3's x, y, z), or null.
  const HostValue *field(llvm::StringRef Name) const;
  void setField(const clang::FieldDecl *F, HostValue V);

  /// Where an unknown value comes from, as a phrase: "'n', a value 'atoi'
  /// returns at run time (main.cu:12)", or the origin alone.
  std::string describe() const;

  bool operator==(const HostValue &O) const;
  bool operator!=(const HostValue &O) const { return !(*this == O); }
};

struct HostField {
  const clang::FieldDecl *Decl;
  HostValue Value;
};

/// The value of two paths that meet: equal values stay, function sets
/// unite, records and arrays join field by field; anything else is
/// unknown, with Where ("the branch at main.cu:30") in its reason.
HostValue join(const HostValue &A, const HostValue &B, const std::string &Where);

/// The variables of one path through the host code.
struct HostState {
  std::map<VarKey, HostValue> Vars;
  /// False once the path has returned, broken out or continued.
  bool Live = true;
};

/// Two paths that meet (a dead path adds nothing).
HostState join(const HostState &A, const HostState &B, const std::string &Where);

} // namespace warpcheck::analysis::host

#endif
