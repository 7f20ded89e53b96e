//===- HostValue.h - what a host variable holds at a launch ----*- C++ -*-===//
//
// The value domain of the host evaluator: an integer (its bits normalised
// to its C++ type, values/IntegerSemantics.h), a record (dim3,
// cudaLaunchConfig_t, a cudaDeviceProp the runtime filled), an array, the
// set of functions a function pointer may hold, the address of a variable,
// a pointer's byte offset from its allocation, or nothing known, with why.
// Where two paths meet, values are joined: equal values stay, function
// sets unite, and where an `if` or `?:` whose condition is not known joins
// its two ways, two different integers (or an integer and an unknown) stay
// as a choice between them, made by that condition: arithmetic on a choice
// is done on each of its ways, and a launch whose shape holds one is a
// launch per way (LaunchShapes.cpp). Anything else becomes unknown.
// Private to analysis/host/.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_HOST_HOSTVALUE_H
#define WARPCHECK_ANALYSIS_HOST_HOSTVALUE_H

#include "clang/AST/Decl.h"
#include "clang/AST/OperationKinds.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warpcheck::analysis::host {

/// A variable of one activation: (the frame's number, the declaration).
/// Frame 0 holds nothing: globals are read from their declarations.
using VarKey = std::pair<unsigned, const clang::ValueDecl *>;

struct HostField;

/// What is known of an integer not known: it is Residue more than a
/// multiple of Multiple (Multiple > 1, 0 <= Residue < Multiple). A size
/// rounded up to 32 is {32, 0}; that size less a halo of 8, {32, 24};
/// plus one element of padding, {32, 1}.
struct Congruence {
  std::uint64_t Multiple = 0, Residue = 0;
  bool operator==(const Congruence &O) const {
    return Multiple == O.Multiple && Residue == O.Residue;
  }
};

/// How an object of a class whose constructor another unit defines was
/// built here: that constructor, and the integers passed to it (parameter
/// index -> bits, normalised to the parameter's type) or, for an unknown
/// value, what it is known to be congruent to. The defining unit runs the
/// constructor with them (HostEvaluator::run for an ExternalCall).
struct ObjectConstruction {
  const clang::CXXConstructorDecl *Constructor = nullptr;
  std::map<unsigned, std::uint64_t> Integers;
  std::map<unsigned, Congruence> Multiples;
};

/// The words for the two ways of a branch whose values become choices:
/// an `if` is "taken" or "not taken", a `?:`'s condition "true" or "false".
struct BranchWays {
  const char *Holds;
  const char *Fails;
};
inline constexpr BranchWays IfWays{"taken", "not taken"};
inline constexpr BranchWays ConditionWays{"true", "false"};

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
  /// Unknown: a positive number the value is known to be Residue more
  /// than a multiple of (a pitch cudaMallocPitch gives: 512, Residue 0;
  /// `FLOOR(n, 32) - 8`: 32, Residue 24), or 0.
  std::uint64_t Multiple = 0, Residue = 0;
  /// Unknown: which unknown quantity it is, so that two reads of one
  /// variable are known to be equal (`n - n % 32` is a multiple of 32
  /// whatever n is). A variable's unknown value gets a number the first
  /// time it is read (HostEvaluator::read); copies keep it. The value is
  /// that quantity plus Offset (`n + 32`: n's Atom, Offset 32), or, where
  /// Modulus is not 0, the remainder (quantity + Offset) % Modulus. 0: no
  /// quantity known.
  std::uint64_t Atom = 0;
  std::int64_t Offset = 0;
  std::uint64_t Modulus = 0;
  /// Record: the fields set so far (others read as unknown).
  std::vector<HostField> Fields;
  /// Record: a cudaDeviceProp filled by the runtime; fields not set are the
  /// device's (DeviceProperties.h).
  bool DeviceProperties = false;
  /// Record: an object built by a constructor another unit defines, as
  /// nothing but that construction has changed it (a write to the object
  /// drops it); its fields are that unit's to know.
  std::shared_ptr<const ObjectConstruction> BuiltBy;
  /// Array: the elements.
  std::vector<HostValue> Elements;
  /// Functions: every function the pointer may hold.
  std::vector<const clang::FunctionDecl *> Callees;
  /// Address: the variable pointed to.
  VarKey Target{0, nullptr};
  /// Unknown: a choice made where the two ways of a branch met (Branch says
  /// which, "the branch at main.cu:30"): Arms[0] is the value where its
  /// condition holds, Arms[1] where it does not, each an integer, an
  /// unknown, or another branch's choice. Decision numbers the meeting: two
  /// choices of one number are made together.
  unsigned Decision = 0;
  std::vector<HostValue> Arms;
  std::string Branch;
  /// How the branch's two ways are called (IfWays or ConditionWays).
  const BranchWays *Ways = nullptr;

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
  /// An unknown's Multiple and Residue, where it has a Multiple.
  std::optional<Congruence> congruence() const {
    if (K != Unknown || Multiple <= 1)
      return std::nullopt;
    return Congruence{Multiple, Residue};
  }
  void setCongruence(const Congruence &C) {
    Multiple = C.Multiple;
    Residue = C.Residue;
  }
  bool isChoice() const { return K == Unknown && !Arms.empty(); }
  /// The field's value, or null.
  const HostValue *field(const clang::FieldDecl *F) const;
  /// The field of that name (dim3's x, y, z), or null.
  const HostValue *field(llvm::StringRef Name) const;
  void setField(const clang::FieldDecl *F, HostValue V);

  /// Where an unknown value comes from, as a phrase: "'n', a value 'atoi'
  /// returns at run time (main.cu:12)", or the origin alone.
  std::string describe() const;

  /// The same value with no quantity named (Atom 0), in its fields,
  /// elements and ways too: a loop that reads a variable afresh in each
  /// iteration leaves it as it found it (HostEvaluator's repetition rule).
  HostValue withoutIdentity() const;

  bool operator==(const HostValue &O) const;
  bool operator!=(const HostValue &O) const { return !(*this == O); }
};

struct HostField {
  const clang::FieldDecl *Decl;
  HostValue Value;
};

/// The value of two paths that meet: equal values stay, function sets
/// unite, records and arrays join field by field; with a Decision (an `if`
/// or `?:` joining its ways, A where its condition holds), integers and
/// unknowns that differ are a choice between them (at most
/// MaxChoiceValues ways in all), its ways called by Ways; anything else is
/// unknown, with Where ("the branch at main.cu:30") in its reason.
HostValue join(const HostValue &A, const HostValue &B, const std::string &Where,
               unsigned Decision = 0, const BranchWays *Ways = &IfWays);

/// What is known of an unknown after a binary operation with another
/// value (L or R unknown, neither a choice), as the C++ semantics of the
/// operation on integers of type Operand guarantee whatever the unknown
/// is: the multiple it is of and by how much more (a product by a
/// constant, a shift, an `&` with low bits clear, a sum of multiples and
/// constants, `n - n % m`), the quantity it
/// is an offset of (`n + 32`), the remainder it is (`n % 32`); 0 where a
/// remainder of a multiple is (`pitch % 32`). The unknown operand's
/// reason and variable are kept. The other operand must be an integer or
/// an unknown too (anything else: an unknown with no reason).
HostValue unknownArithmetic(clang::BinaryOperatorKind Op, const HostValue &L, const HostValue &R);

/// What is known of a value that may be A or B (one of them unknown, or
/// both): the largest modulus both are congruent under, and their residue
/// (an integer is exactly itself: 376 or 32 q + 24 is 24 more than a
/// multiple of 32). Nothing (Multiple 0) where no modulus above 1 is.
Congruence commonCongruence(const HostValue &A, const HostValue &B);

/// The most values one choice may hold (its nested choices' included):
/// past it, arithmetic on choices and joins give an unknown.
constexpr unsigned MaxChoiceValues = 16;

/// V where the branch Decision went its way Arm (0: the condition holds);
/// records, arrays and other branches' choices in V are kept, resolved
/// within.
HostValue restrictChoice(const HostValue &V, unsigned Decision, unsigned Arm);

/// The first choice in V (its own, or its fields' and elements' in order),
/// or null.
const HostValue *outermostChoice(const HostValue &V);

/// One way through the branches whose choices a set of values holds: the
/// values on it, and the branches' ways ("the branch at main.cu:30
/// taken", "the condition at main.cu:31 false"), outermost first.
struct ValueWay {
  std::vector<HostValue> Values;
  std::vector<std::string> Chosen;
};

/// The ways Values can go, split on the choices held by its first Deciding
/// values (outermost branch first: one nested in a way of another is split
/// only where that way is taken); every value, deciding or not, is
/// restricted to each way. No choice: one way, Values as they are. Past
/// MaxWays ways: none.
std::vector<ValueWay> waysOf(std::vector<HostValue> Values, size_t Deciding, unsigned MaxWays);

/// F applied on each way of V; the ways that agree become one value.
HostValue liftChoice(const HostValue &V, const std::function<HostValue(const HostValue &)> &F);
/// F applied on each combination of the ways of L and R (made together
/// where they are one branch's); past MaxChoiceValues, an unknown.
HostValue liftChoice(const HostValue &L, const HostValue &R,
                     const std::function<HostValue(const HostValue &, const HostValue &)> &F);

/// The variables of one path through the host code.
struct HostState {
  std::map<VarKey, HostValue> Vars;
  /// False once the path has returned, broken out or continued.
  bool Live = true;
};

/// Two paths that meet (a dead path adds nothing); Decision as for values.
HostState join(const HostState &A, const HostState &B, const std::string &Where,
               unsigned Decision = 0, const BranchWays *Ways = &IfWays);

} // namespace warpcheck::analysis::host

#endif
