//===- HostEvaluator.h - runs host code to the launches it makes -*- C++ -*-===//
//
// The launch shapes real host code writes are rarely constants at the
// launch: `dim3 threads; threads.x = BLOCK;`, `int bs; bs = 16;`, a helper
// `run(16)` whose parameter sizes the block, a loop over block sizes, a
// switch that picks a template instance, a function pointer chosen between
// kernels, `min(prop.maxThreadsPerBlock, n)`. The host evaluator runs the
// host code from main (and from every other function that launches and is
// not reached from it) over abstract values (HostValue.h): each path keeps
// its own variables, an `if` or `?:` whose condition is unknown runs both
// ways and joins them (values that differ between the two ways are a choice
// between them, HostValue.h, which a launch expands into one launch per
// way), a loop whose condition stays known is unrolled (each
// iteration's launch is one record; a loop that writes only memory through
// pointers and its own variables, a benchmark's buffer fill or check, is
// evaluated once), a call of a host function with a body runs it with its
// arguments bound (a lambda's body sees the function it is written in; a
// generic lambda's instances each launch; std::forward and std::move pass
// their argument; a constructor of the program's own code builds its
// object and a method runs on the object it is called on, HostObjects.cpp;
// a test that finds a variable equal to a constant, a switch's case or
// `v == C` taken, settles its copies too), globals hold their initial values in
// a run from main until a call not followed may change them, the
// runtime's occupancy functions answer with the occupancy model, and
// everything else (the rest of the CUDA runtime, the C library, reads of
// input) gives unknown values that say where they came from. Each time a launch site is reached its shape, shared bytes,
// arguments and kernels are recorded with the context that led there.
// Integers follow values/IntegerSemantics.h: an undefined result is no
// launch shape.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_HOST_HOSTEVALUATOR_H
#define WARPCHECK_ANALYSIS_HOST_HOSTEVALUATOR_H

#include "HostValue.h"
#include "warpcheck/analysis/LaunchConfig.h"

#include "warpcheck/model/Arch.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warpcheck::analysis::host {

/// A launch in the source, as the launch-site index found it.
struct LaunchSite {
  const clang::Expr *Call = nullptr;           ///< <<<>>> or a cudaLaunchKernel* call
  const clang::FunctionDecl *Caller = nullptr; ///< the enclosing host function
  /// The kernel named at the site; null when it is launched through a
  /// function pointer (Callee is then that expression).
  const clang::FunctionDecl *Kernel = nullptr;
  const clang::Expr *Callee = nullptr;
  const clang::Expr *Grid = nullptr, *Block = nullptr, *SharedBytes = nullptr;
  /// cudaLaunchKernelEx: the cudaLaunchConfig_t variable; the shape is in its fields.
  const clang::VarDecl *ConfigVar = nullptr;
  std::vector<const clang::Expr *> Args; ///< empty for cudaLaunchKernel
  std::string Location;                  ///< "main.cu:40"
};

/// One execution of a launch site that the host code reaches.
struct LaunchRecord {
  HostValue Grid, Block, SharedBytes;
  bool HasSharedBytes = false;
  std::vector<HostValue> Args;
  /// The kernels it launches: the named kernel, or what the pointer may hold.
  std::vector<const clang::FunctionDecl *> Kernels;
  /// Why the kernels are not known (a function pointer read at run time).
  std::string KernelsWhy;
  /// The calls, loop iterations and cases that led here, outermost first.
  std::vector<std::string> Context;
  /// Recorded in the widened iteration of a loop (the iterations not
  /// followed one by one: what the loop changes is unknown there). Where
  /// the same site also launched the kernel in followed iterations, those
  /// are its launches and this one stands for the rest of the loop.
  bool InWidenedIteration = false;
  /// The ways of host branches this launch is one of (LaunchShapes.cpp
  /// splits a launch whose shape differs between them): "the branch at
  /// main.cu:30 not taken", "the condition at main.cu:31 true" (of a `?:`).
  /// Also at the end of Context.
  std::vector<std::string> Ways;
  /// Made by a run of main without command-line arguments: this unit's
  /// (runWithoutArguments) or, through a call another unit's such run
  /// made, that unit's (ExternalCall::WithoutArguments).
  bool WithoutArguments = false;
};

/// A call of a host function this unit declares but does not define (its
/// definition, in another unit, may launch kernels with its parameters).
struct ExternalCall {
  const clang::FunctionDecl *Callee = nullptr;
  /// Parameter index -> the integer passed, normalised to the parameter's
  /// type; the parameters not here were passed values not known.
  std::map<unsigned, std::uint64_t> Integers;
  /// Parameter index -> what the value passed, not known, is known to be
  /// congruent to (`iAlignUp(width)`: a multiple of 32; `iAlignUp(width) +
  /// 1`: 1 more than one).
  std::map<unsigned, Congruence> Multiples;
  std::string Location; ///< "main.cpp:111"
  std::vector<std::string> Context;
  /// A method's call: what the calling unit knows of the object it is
  /// called on: the construction that built it (a constructor of the
  /// defining unit), and its integer fields by name (`test.threadBlockSize
  /// = 128; test();`).
  std::shared_ptr<const ObjectConstruction> ObjectBuiltBy;
  std::map<std::string, std::uint64_t> ObjectFields;
  /// The arguments held choices of more ways than are followed: this one
  /// call stands for them all, with the integers common to every way.
  bool WaysCut = false;
  /// Made by a run of main without command-line arguments (LaunchRecord).
  bool WithoutArguments = false;
};

struct HostLimits {
  /// Iterations a loop is unrolled for before its variables are taken as
  /// unknown and its body run once more with them.
  unsigned MaxLoopIterations = 256;
  /// Iterations of a loop that can launch a kernel followed while its
  /// condition is known only at run time (`for (size = 2048; size <=
  /// arrayLength; size <<= 1)` with arrayLength a caller's value): each may
  /// be the last, and the launches in them are recorded with the values
  /// the loop's variables have there. The program's first launches are in
  /// them (the ones a profiler measures first); the rest of the loop is
  /// its widened iteration, as for a loop past MaxLoopIterations.
  unsigned UnknownBoundIterations = 4;
  unsigned MaxCallDepth = 8;
  /// Expressions and statements evaluated per function run from the top.
  std::uint64_t MaxSteps = 400'000;
  /// Steps a call of a function that can reach no launch may take before
  /// it is abandoned and taken as an opaque call (its results and what it
  /// writes unknown). Benchmark drivers call CPU references and random
  /// initialisers (nested loops over the whole problem) before the launch
  /// loop; followed in full, they would spend the whole budget.
  std::uint64_t MaxStepsLaunchFreeCall = 20'000;
};

/// "main.cu:40" for a location (its file's name and line).
std::string shortLocation(const clang::SourceManager &SM, clang::SourceLocation Loc);

/// Whether Pred holds for Root or a statement or expression below it.
bool anyStatement(const clang::Stmt *Root, llvm::function_ref<bool(const clang::Stmt *)> Pred);

/// The argument of a call of std::forward or std::move (a cast to a
/// reference, written as a call), else null.
const clang::Expr *forwardedArgument(const clang::CallExpr *CE);

/// Whether FD is a function of the program's own code declared here and
/// defined in another unit (a method too), whose calls the evaluator
/// records for that unit (HostEvaluator::externalCalls).
bool definedInAnotherUnit(const clang::FunctionDecl *FD, const clang::SourceManager &SM);

/// Whether T (or what it refers to) is std::vector (HostVectors.cpp).
bool isStdVector(clang::QualType T);
/// The vector of `v[i]` on a std::vector, else null.
const clang::Expr *vectorSubscriptBase(const clang::Expr *E);

/// A function as messages name it: 'run', or "the lambda at main.cu:12"
/// (every lambda's call operator is an 'operator()').
std::string functionName(const clang::SourceManager &SM, const clang::FunctionDecl *FD);

class HostEvaluator {
public:
  HostEvaluator(clang::ASTContext &Ctx, const model::ArchSpec &Arch,
                const std::map<const clang::Expr *, const LaunchSite *> &Sites,
                HostLimits Limits = HostLimits());

  /// Runs Root from its start, its parameters unknown: ParamsWhy ends the
  /// phrase "a parameter of 'Root'" ("whose callers ...", "which no
  /// function of this file calls"). Records every launch reached.
  void run(const clang::FunctionDecl *Root, const std::string &ParamsWhy);
  /// Runs Root for one call another unit makes of it: its integer
  /// parameters take the values Call passes (the others unknown: "a
  /// parameter of 'Root' whose caller at main.cpp:12 passes a value not
  /// known"); the launches reached are recorded under the call's context.
  void run(const clang::FunctionDecl *Root, const ExternalCall &Call);
  /// Runs main as a shell starts the program with no arguments: argc is 1
  /// (argv[0], the program's name, alone), its other parameters unknown.
  /// What the program then passes its kernels is the default of every
  /// command-line option (LaunchConfig.h, BoundArgument::CommandLineDefault).
  void runWithoutArguments(const clang::FunctionDecl *Main);

  /// Every distinct call reached of a function declared here without a
  /// body and outside the system headers, in the order first reached.
  const std::vector<ExternalCall> &externalCalls() const { return ExternalCalls; }

  /// In a run without arguments: the branches whose condition it knew, by
  /// the words their ways are named with ("the branch at main.cu:30", "the
  /// condition at main.cu:31"): bit 0 set where it went the way the
  /// condition holds, bit 1 the other. A launch of another run that went a
  /// way of one this run never went is not this run's.
  const std::map<std::string, unsigned> &decidedBranches() const { return Decided; }

  const std::map<const LaunchSite *, std::vector<LaunchRecord>> &records() const {
    return Records;
  }
  /// Functions some run entered.
  bool reached(const clang::FunctionDecl *F) const {
    return Reached.count(F->getCanonicalDecl()) != 0;
  }
  /// True when a run stopped at the step budget.
  bool exhausted() const { return Exhausted; }
  /// What kernels ask of an SM, for the runtime's occupancy functions
  /// (HostOccupancyCalls.cpp); not owned, may be null.
  void setKernelOccupancyInputs(const KernelOccupancyInputsFn *F) { OccupancyInputs = F; }

private:
  struct Breakable {
    bool IsLoop;
    std::vector<HostState> Breaks, Continues;
  };
  struct Frame {
    const clang::FunctionDecl *Function;
    unsigned Id;
    /// Reference parameters and locals: the variable they name.
    std::map<const clang::ValueDecl *, VarKey> Refs;
    std::vector<HostState> Returns;
    std::optional<HostValue> Returned;
    std::vector<Breakable> Breakables;
    /// A method's object (what `this` points to): the variable holding it,
    /// when the call's object is a whole variable the evaluation follows
    /// (`PiEstimator estimator(n, 128); estimator();`); else none, and
    /// `this` is unknown.
    std::optional<VarKey> This;
  };
  /// A place a value can be stored: a variable, then fields and elements.
  struct Place {
    bool Valid = false;
    VarKey Var{0, nullptr};
    struct Step {
      const clang::FieldDecl *Field = nullptr; ///< or an element:
      std::uint64_t Index = 0;
    };
    std::vector<Step> Path;
    /// Why the place is not one the evaluator tracks.
    std::string Why;
    /// Not valid: the variable a write here may change all the same (an
    /// array's element at an index known only at run time).
    std::optional<VarKey> Clobbers;
  };
  /// A write to P; where P is no place tracked, the variable it may
  /// change becomes unknown (Place::Clobbers).
  void store(const Place &P, HostValue V, const clang::Expr *At);

  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  const model::ArchSpec &Arch;
  const std::map<const clang::Expr *, const LaunchSite *> &Sites;
  HostLimits Limits;

  HostState Cur;
  std::vector<Frame> Frames;
  unsigned NextFrameId = 1;
  /// The number of the next branch whose ways join into choices (HostValue.h).
  unsigned NextDecision = 1;
  /// The arrays `new` made: their element type and where ("main.cu:40").
  /// Their variables are numbered from HeapFrames on, with no declaration.
  static constexpr unsigned HeapFrames = 1u << 31;
  unsigned NextHeapArray = HeapFrames;
  std::map<VarKey, std::pair<clang::QualType, std::string>> HeapArrays;
  /// The number of the last unknown quantity named (HostValue::Atom).
  std::uint64_t LastAtom = 0;
  /// V, an unknown stored in a variable, as a quantity of its own (a new
  /// Atom) when it is not one already.
  HostValue identified(HostValue V);
  /// decidedBranches(), recorded in a run without arguments only.
  bool RecordDecided = false;
  /// This run is one of main without command-line arguments, or of a
  /// function another unit's such run called: its launches and calls are.
  bool ArgumentlessRun = false;
  std::map<std::string, unsigned> Decided;
  std::uint64_t Steps = 0;
  bool Aborted = false, Exhausted = false;
  /// The step count at which the innermost launch-free call is abandoned
  /// (none: 0), and whether it was.
  std::uint64_t LocalStepLimit = 0;
  bool LocalAborted = false;
  /// Whether a statement can launch: it holds a launch site, calls through
  /// a pointer, or calls a function with a body that can (memoised).
  bool mayLaunch(const clang::Stmt *S) const;
  /// Whether FD is a function of the program's own code declared here and
  /// defined in another unit (a method too, with what is known of its
  /// object), whose calls recordExternalCall records.
  bool definedInAnotherUnit(const clang::FunctionDecl *FD) const;
  /// Whether S calls such a function.
  bool callsAnotherUnit(const clang::Stmt *S) const;
  bool mayLaunchFunction(const clang::FunctionDecl *FD) const;
  /// Whether no iteration of Loop can change a value the evaluation
  /// follows but the loop's own variables (HostStatements.cpp).
  bool changesOnlyMemory(const clang::Stmt *Loop) const;
  mutable std::map<const clang::FunctionDecl *, bool> MayLaunch;
  std::vector<std::string> Context;
  /// How many loops' widened iterations the evaluation is inside.
  unsigned WidenedDepth = 0;
  std::map<const LaunchSite *, std::vector<LaunchRecord>> Records;
  std::set<const clang::FunctionDecl *> Reached;
  std::vector<ExternalCall> ExternalCalls;
  /// Records a call of FD (no body here) with its argument values.
  /// The integers (normalised to their parameters' types) and, for the
  /// unknown ones, the congruences that Args pass FD's integer parameters.
  void passedIntegers(const clang::FunctionDecl *FD, const std::vector<HostValue> &Args,
                      std::map<unsigned, std::uint64_t> &Integers,
                      std::map<unsigned, Congruence> &Multiples);
  /// A method's call: Object is the value of the object it is called on.
  void recordExternalCall(const clang::FunctionDecl *FD, const clang::CallExpr *CE,
                          const std::vector<HostValue> &Args,
                          const HostValue *Object = nullptr);
  /// Builds, for a run of the method Root for Call, the object Call
  /// describes: the constructor it names run with its integers, then the
  /// fields it knows set; the variable holding it.
  std::optional<VarKey> objectFor(const clang::CXXMethodDecl *Root, const ExternalCall &Call);
  /// Runs the constructor Def on the object held by Object: Bind binds its
  /// parameters in its frame; CalledAt says where, for the context.
  void constructInto(VarKey Object, const clang::CXXConstructorDecl *Def,
                     llvm::function_ref<void(Frame &)> Bind, const std::string &CalledAt);
  /// Starts a run of Root: its frame, nothing else known.
  const clang::FunctionDecl *startRun(const clang::FunctionDecl *Root);

  bool step();
  std::string where(const clang::Stmt *S) const;
  std::string where(const clang::Decl *D) const;
  std::string functionName(const clang::FunctionDecl *FD) const {
    return host::functionName(SM, FD);
  }
  Frame &frame() { return Frames.back(); }

  // ---- expressions (HostExpressions.cpp) ----
  HostValue eval(const clang::Expr *E);
  /// `new T[N]` of a constant N: an array of its own (HostPlaces.cpp).
  HostValue evalNew(const clang::CXXNewExpr *NE);
  /// The array `new` made that V points to, when it holds elements of
  /// type T; an array read as another type becomes unknown.
  std::optional<VarKey> heapArray(const HostValue &V, clang::QualType T);
  HostValue evalCast(const clang::CastExpr *CE);
  HostValue evalUnary(const clang::UnaryOperator *UO);
  HostValue unary(const clang::UnaryOperator *UO, const HostValue &V);
  HostValue evalBinary(const clang::BinaryOperator *BO);
  HostValue evalCompoundAssign(const clang::CompoundAssignOperator *CA);
  HostValue evalLogical(const clang::BinaryOperator *BO);
  HostValue evalConditional(const clang::AbstractConditionalOperator *CO);
  HostValue arithmetic(clang::BinaryOperatorKind Op, const HostValue &L, const HostValue &R,
                       clang::QualType Operand, clang::QualType Result,
                       const clang::Expr *At);
  HostValue pointerArithmetic(const HostValue &Ptr, const HostValue &N, clang::QualType PtrType,
                              bool Subtract);
  HostValue construct(const clang::CXXConstructExpr *CE);
  HostValue initList(const clang::InitListExpr *IL);
  HostValue zeroOf(clang::QualType T);
  HostValue member(const HostValue &Base, const clang::FieldDecl *F);
  std::optional<std::uint64_t> constantInt(const clang::Expr *E);
  /// Converts an integer value to T (an integral cast, a bool conversion).
  HostValue toType(const HostValue &V, clang::QualType T);
  /// Truth of a condition: 1, 0 or unknown.
  std::optional<bool> truth(const HostValue &V);

  // ---- places (HostPlaces.cpp) ----
  Place place(const clang::Expr *E);
  /// The element Index of Array (a C array, or a vector held as its
  /// elements): invalid where the index is known only at run time.
  Place element(const clang::Expr *Array, const clang::Expr *Index);
  HostValue globalValue(const clang::VarDecl *VD);
  /// The place of a global in a run from main (nullopt otherwise, or once
  /// a call not followed may have changed the globals).
  std::optional<VarKey> trackedGlobal(const clang::VarDecl *VD);
  /// Whether the current run started at main, and, once a call not
  /// followed may have changed the globals, that call ("'f' (main.cu:12)").
  bool GlobalsTracked = false;
  std::string GlobalsLost;
  std::optional<VarKey> keyOf(const clang::ValueDecl *D);
  HostValue read(const Place &P, clang::QualType T);
  void write(const Place &P, HostValue V);
  /// Writes V where Address points, when it is the address of a variable
  /// (`&blockSize` given to the runtime); otherwise nothing.
  void writeThrough(const HostValue &Address, HostValue V);
  /// Every variable E may change becomes unknown, with Why.
  void forgetAssignedIn(const clang::Stmt *S, const std::string &Why);

  // ---- calls (HostCalls.cpp) ----
  HostValue evalCall(const clang::CallExpr *CE);
  HostValue callFunction(const clang::FunctionDecl *FD, const clang::CallExpr *CE,
                         unsigned FirstArg);
  /// Run() for a call of Def (a function's or a constructor's body): where
  /// Def cannot reach a launch, on a budget of HostLimits::
  /// MaxStepsLaunchFreeCall steps of its own, past which the state before
  /// it comes back and the result is none (the caller takes the call as
  /// one not followed).
  std::optional<HostValue> withinLaunchFreeBudget(const clang::FunctionDecl *Def,
                                                  llvm::function_ref<HostValue()> Run);
  /// Whether FD is running (a call of it now would be recursive).
  bool onStack(const clang::FunctionDecl *FD) const;
  /// Runs Def's body for the call CE (callFunction's work, without the
  /// launch-free budget).
  HostValue runCall(const clang::FunctionDecl *Def, const clang::CallExpr *CE,
                    unsigned FirstArg);
  HostValue opaqueCall(const clang::FunctionDecl *FD, const clang::CallExpr *CE,
                       unsigned FirstArg);
  std::optional<HostValue> libraryCall(const clang::FunctionDecl *FD, const clang::CallExpr *CE);
  /// A vector held as its elements: `v[i]`, size(), empty(), front(),
  /// back() (HostVectors.cpp); nullopt for any other call.
  std::optional<HostValue> vectorCall(const clang::CallExpr *CE);
  /// A vector built from a braced list: the list's elements.
  std::optional<HostValue> vectorFromList(const clang::CXXConstructExpr *CE,
                                          const std::vector<HostValue> &Args);
  /// cudaOccupancyMaxPotentialBlockSize and
  /// cudaOccupancyMaxActiveBlocksPerMultiprocessor (HostOccupancyCalls.cpp).
  std::optional<HostValue> occupancyCall(llvm::StringRef Name, const clang::CallExpr *CE);
  const KernelOccupancyInputsFn *OccupancyInputs = nullptr;
  bool runnable(const clang::FunctionDecl *FD) const;
  void recordLaunch(const LaunchSite &S, const clang::CallExpr *CE);
  std::vector<const clang::FunctionDecl *> kernelsOf(const HostValue &V);
  /// Binds FD's parameters to the arguments Args (a call's, past its
  /// object; a construction's), in Callee's frame.
  void bindParameters(const clang::FunctionDecl *FD, llvm::ArrayRef<const clang::Expr *> Args,
                      Frame &Callee);
  /// The variable holding the object a method is called on (`obj.f()`,
  /// `p->f()` with p the address of one, `this->f()`), evaluating Obj;
  /// none where it is not a whole variable the evaluation follows.
  std::optional<VarKey> objectOf(const clang::Expr *Obj);
  /// The method of the object's own class that a call of MD on the object
  /// held by Object runs (a virtual method's override).
  const clang::FunctionDecl *dynamicCallee(const clang::FunctionDecl *MD,
                                           std::optional<VarKey> Object);
  /// Runs a constructor of the program's own code for CE on an object of
  /// its own (its member initializers, then its body, `this` bound) and
  /// gives the object's value: its fields as the constructor left them.
  HostValue runConstructor(const clang::CXXConstructorDecl *Ctor,
                           const clang::CXXConstructExpr *CE);

  // ---- statements (HostStatements.cpp) ----
  void exec(const clang::Stmt *S);
  void declare(const clang::VarDecl *VD);
  void execIf(const clang::IfStmt *If);
  void execSwitch(const clang::SwitchStmt *Sw);
  /// Runs a switch's body from Target (Found once it is reached).
  void execSwitchBody(const clang::Stmt *S, const clang::SwitchCase *Target, bool &Found);
  void execLoop(const clang::Stmt *Init, const clang::Expr *Cond, const clang::VarDecl *CondVar,
                const clang::Expr *Inc, const clang::Stmt *Body, bool TestFirst,
                const clang::Stmt *Loop);
  void execRangeFor(const clang::CXXForRangeStmt *RF);
  /// Runs Body once as a loop iteration, then its increment; the paths that
  /// continued rejoin first.
  void iterate(const clang::Stmt *Body, const clang::Expr *Inc);
  /// A condition `v == C` (or `v != C`) on a variable: in the branch where
  /// it holds, v is C. A remainder found 0 (`if (n % m)` not taken): n is
  /// a multiple of m there (refineRemainder).
  void refine(const clang::Expr *Cond, bool Holds);
  void refineRemainder(const clang::Expr *Cond, bool Holds);
  /// A variable found equal to Value on this path (`v == C` holds, a
  /// switch's case): P takes it, and so does every copy of its unknown
  /// quantity (HostValue::Atom) in other variables and fields; where it
  /// held a branch's choice of integers, every value takes that branch's
  /// ways on which it is Value, and the path ends where it is on none.
  void settle(const Place &P, const HostValue &Value, clang::QualType T);
  void runFunction(const clang::FunctionDecl *FD);
  std::string loopContext(const clang::Stmt *Loop, const std::vector<const clang::VarDecl *> &Vars);
};

} // namespace warpcheck::analysis::host

#endif
