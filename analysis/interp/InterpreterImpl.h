//===- InterpreterImpl.h - the warp interpreter's state and parts -*- C++ -*-===//
//
// The private implementation of WarpInterpreter, shared by the files of
// analysis/interp/: the state of one simulated warp (frames, variables,
// the active mask, the step budget) and the parts that evaluate
// expressions, calls and statements for all 32 lanes at once. Only the
// interpreter's own files include this header.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_INTERP_INTERPRETERIMPL_H
#define WARPCHECK_ANALYSIS_INTERP_INTERPRETERIMPL_H

#include "FloatOperations.h"
#include "LaneValue.h"
#include "WarpInterpreter.h"

#include "warpcheck/analysis/WarpUniformity.h"
#include "warpcheck/model/SectorFootprint.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include <bitset>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warpcheck::analysis {

namespace interp {
/// What the built-in variables and special registers give each lane.
enum class BuiltinVariable : std::uint8_t {
  ThreadIdx,
  BlockIdx,
  BlockDim,
  GridDim,
  LaneId
};

/// Whether DC is inside namespace cooperative_groups (the toolkit's groups,
/// or the bundled header's): one test for every file that recognises them.
bool inCooperativeGroups(const clang::DeclContext *DC);
} // namespace interp

// The lane value domain, for the interpreter's files (the only includers).
using namespace interp;

class WarpInterpreter::Impl {
public:
  Impl(clang::ASTContext &Ctx, const LaunchConfig &Launch, const SampleValues &Samples,
       const InterpreterLimits &Limits,
       const std::map<const clang::VarDecl *, ArrayLayout> &Layouts, RequestSink Sink)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Launch(Launch), Samples(Samples),
        Limits(Limits), Layouts(Layouts), Sink(std::move(Sink)) {}

  /// Sets up one warp and runs Kernel for it (WarpInterpreter.cpp).
  void runWarp(const clang::FunctionDecl *Kernel, const WarpPosition &Where);
  /// Points every pointer field (nested structs' included) of the kernel's
  /// struct parameter P, whose copy is at Object, to an allocation of its own.
  void setParameterPointers(const clang::ParmVarDecl *P, const Lanes &Object,
                            clang::QualType T, std::uint64_t Offset);

  // ---- what the runs found, read through WarpInterpreter ----
  std::set<std::string> SampledRead;
  /// The integer reads from memory that every active lane made at one
  /// address and that took the sweep's value, by their source text, in
  /// the order first read.
  std::vector<std::string> SweptReads;
  bool UndefinedArithmetic = false;
  bool OutOfBoundsShared = false;
  std::uint64_t LastWarpSteps = 0;
  std::vector<clang::SourceRange> Truncated;
  /// Loops cut before MaxLoopIterations to stay within the step budget.
  std::vector<clang::SourceRange> BudgetCut;
  std::set<const clang::Stmt *> TruncatedSeen, BudgetCutSeen;
  std::set<std::string> Limitations;
  std::map<const clang::Expr *, std::map<const clang::Expr *, std::vector<std::int64_t>>> Captured;
  /// The floating-point instructions of the last warp, per active lane.
  model::FlopCounts WarpFlops;
  /// Floating-point operations whose instructions are not counted (their
  /// source text), in any warp.
  std::set<std::string> UncountedFloatOps;
  /// A floating-point operation was counted for lanes under a
  /// data-dependent condition, in any warp.
  bool FlopsUnderUncertainMask = false;
  /// FLOPs (per lane) executed inside each loop statement, over all warps.
  std::map<const clang::Stmt *, double> LoopFlops;

private:
  // ---- state ----
  struct Slot {
    Lanes Val;
    bool IsReference = false;
    LValue Ref;
  };
  struct LoopState {
    /// The loop statement; null for a switch (whose `break` leaves it).
    const clang::Stmt *Loop = nullptr;
    Mask Broken = 0, Continued = 0;
    /// Lanes that may have left the loop (a break or continue under a
    /// data-dependent condition, a data-dependent loop condition) and go on
    /// being simulated as if they had not.
    Mask UncertainLive = 0;
  };
  struct Frame {
    std::map<const clang::VarDecl *, Slot> Vars;
    Mask Exited = 0;
    Lanes Returned;
    /// Lanes whose Returned value is set.
    Mask ReturnSet = 0;
    /// Lanes that may have returned (a return under a data-dependent
    /// condition) and go on being simulated as if they had not.
    Mask UncertainLive = 0;
    /// The object of a method being run (its address per lane), if any.
    std::optional<Lanes> This;
    /// The function returns a reference: Returned holds addresses.
    bool ReturnsReference = false;
    /// The call being run inline (none for the kernel).
    InlinedCall Call;
    /// The closure class when the frame runs a lambda's call operator: its
    /// by-copy captures are fields of the object at This.
    const clang::CXXRecordDecl *Closure = nullptr;
    /// Where a function returning a struct by value builds its result
    /// (the caller's object), if the caller gave a place.
    std::optional<Lanes> ReturnSlot;
    std::vector<LoopState> Loops;
  };

  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  const LaunchConfig &Launch;
  const SampleValues &Samples;
  const InterpreterLimits &Limits;
  const std::map<const clang::VarDecl *, ArrayLayout> &Layouts;
  RequestSink Sink;

  std::vector<Region> Regions;
  /// Lane-local memory: what the lanes stored in local objects (structs,
  /// arrays, lambdas and temporaries in registers or local memory), per
  /// Local region and byte offset. Each lane has its own copy, at the same
  /// offsets (Objects.cpp).
  struct LocalCell {
    std::uint64_t Size = 0;
    Lanes Val;
    /// LocalWrites when the cell was last written.
    std::uint64_t Written = 0;
  };
  using LocalSnapshot = std::map<int, std::map<std::uint64_t, LocalCell>>;
  LocalSnapshot LocalMemory;
  std::uint64_t LocalWrites = 0;
  /// The Local region of each object, by its declaration (or temporary)
  /// and the depth of its frame: a function run twice nested gets two.
  std::map<std::pair<const void *, std::size_t>, int> ObjectRegions;
  /// Per function, its local variables whose address it takes.
  std::map<const clang::FunctionDecl *, std::set<const clang::VarDecl *>> AddressTakenIn;
  /// The call whose struct result initialises an object, and where.
  const clang::CallExpr *ReturnSlotCall = nullptr;
  Lanes ReturnSlotAddr;
  std::map<const void *, int> RegionOf; ///< VarDecl or ParmVarDecl -> region
  /// The allocation each pointer field of a kernel's struct parameter
  /// points to, by the parameter and the field's byte offset in it.
  std::map<std::pair<const clang::ParmVarDecl *, std::uint64_t>, int> ParameterFieldRegions;
  std::set<const clang::VarDecl *> SampledParams;
  std::vector<Frame> Frames;
  Mask Active = 0;
  unsigned Uncertain = 0;
  std::uint64_t Steps = 0;
  bool Aborted = false;
  Dim3 Grid;
  bool GridSampled = false;
  WarpPosition Where;
  std::array<std::uint32_t, WarpSize> Tx{}, Ty{}, Tz{};
  std::map<const clang::Expr *, std::vector<std::int64_t>> *CaptureInto = nullptr;
  /// The multiplies nvcc fuses into adds, per function run.
  Contractions FloatContractions;
  /// Per read, whether its value is only ever converted to floating point
  /// (ReadValueUses.h): such a read is not swept.
  std::map<const clang::Expr *, bool> FloatOnlyReads;
  /// Per struct copied from memory, the bytes of it the code reads
  /// (ReadValueUses.h, fieldBytesRead): nvcc loads only those.
  std::map<const clang::Expr *, std::optional<std::vector<model::ByteRange>>> CopyBytesRead;
  /// What the compiler proves warp-uniform (for atomics), made on first use.
  std::unique_ptr<WarpUniformity> Uniformity;

  // ---- helpers ----
  Frame &frame() { return Frames.back(); }

  /// The calls run inline to reach the current frame, innermost first.
  std::vector<InlinedCall> inlinedCalls() const {
    std::vector<InlinedCall> Calls;
    for (auto F = Frames.rbegin(); F != Frames.rend(); ++F)
      if (F->Call.Call)
        Calls.push_back(F->Call);
    return Calls;
  }
  WarpUniformity &uniformity() {
    if (!Uniformity)
      Uniformity = std::make_unique<WarpUniformity>(Ctx);
    return *Uniformity;
  }

  Mask removedLanes() {
    Mask M = frame().Exited;
    if (!frame().Loops.empty())
      M |= frame().Loops.back().Broken | frame().Loops.back().Continued;
    return M;
  }

  /// The evaluator recurses on the AST (several KB of stack per level): an
  /// expression nested thousands deep (generated code) would overflow the
  /// stack. Deeper than this, values are unknown and statements skipped.
  static constexpr unsigned MaxNesting = 400;
  unsigned Nesting = 0;
  struct NestingGuard {
    Impl &I;
    bool Ok;
    explicit NestingGuard(Impl &I) : I(I), Ok(++I.Nesting <= MaxNesting) {
      if (!Ok)
        I.Limitations.insert("code nested more than " + std::to_string(MaxNesting) +
                             " levels deep was not simulated");
    }
    ~NestingGuard() { --I.Nesting; }
  };

  /// Lanes simulated past a data-dependent exit, in any frame or loop.
  Mask uncertainLiveLanes() const {
    Mask M = 0;
    for (const Frame &F : Frames) {
      M |= F.UncertainLive;
      for (const LoopState &L : F.Loops)
        M |= L.UncertainLive;
    }
    return M;
  }

  bool step() {
    Steps += std::bitset<32>(Active).count() + 1;
    if (Steps > Limits.MaxSteps) {
      if (!Aborted)
        Limitations.insert(StepBudgetExhausted);
      Aborted = true;
    }
    return !Aborted;
  }

  std::uint64_t sizeOf(clang::QualType T) {
    if (T.isNull() || T->isIncompleteType() || T->isVoidType() ||
        T->isFunctionType() || T->isDependentType())
      return 1;
    if (const auto *IA = llvm::dyn_cast<clang::IncompleteArrayType>(T.getTypePtr()))
      return sizeOf(IA->getElementType());
    return Ctx.getTypeSizeInChars(T).getQuantity();
  }

  IntFormat formatOf(clang::QualType T) { return values::integerTypeOf(T, Ctx); }
  std::uint64_t normalize(std::uint64_t Bits, clang::QualType T) {
    return formatOf(T).normalize(Bits);
  }

  bool isSigned(clang::QualType T) {
    return !T.isNull() && T->isSignedIntegerOrEnumerationType();
  }

  // ---- memory regions and access recording (AccessRecorder.cpp) ----
  /// The region of a variable or parameter, created on first use.
  int regionFor(const void *Key, RegionKind Kind, const clang::VarDecl *Var);
  /// Gives R the sweep's value when every active lane read one integer at
  /// one address of global, shared or constant memory and nothing is known
  /// of it (Expressions.cpp).
  /// OneLaneOnly: the value is an atomic's old value, the same for the
  /// warp only when one lane alone made the atomic (a warp-aggregated
  /// increment's leader); lanes of one atomic each get their own.
  void sweepUniformRead(Lanes &R, const Lanes &Addr, const clang::Expr *SiteExpr,
                        clang::QualType T, bool OneLaneOnly = false);
  /// The compiler proves the lvalue E's address the same for every lane.
  bool addressIsUniform(const clang::Expr *E);
  /// A new region (a local object's: regionFor's are one per variable).
  int addRegion(RegionKind Kind, const clang::VarDecl *Var);
  /// Notes (OutOfBoundsShared) an access of Bytes at Addr + ExtraOffset by
  /// the active lanes outside the bytes of a __shared__ array of fixed size.
  /// Bytes of a __shared__ variable as simulated (a padded layout's own);
  /// 0 when not known (`extern __shared__`).
  std::uint64_t sharedVariableBytes(const clang::VarDecl *Var) const;
  void checkSharedBounds(const Lanes &Addr, std::uint64_t ExtraOffset, unsigned Bytes,
                         bool UnderUncertainMask);
  /// Whether Bytes at Value + ExtraOffset leave the __shared__ array of
  /// fixed size Value points into (false when its size is not known).
  bool outsideSharedArray(const LaneValue &Value, std::uint64_t ExtraOffset,
                          unsigned Bytes) const;
  void recordAccess(const clang::Expr *SiteExpr, AccessOp Op, const Lanes &Addr,
                    clang::QualType AccessType, bool StructCopy = false,
                    std::uint64_t ExtraOffset = 0, unsigned Bytes = 0,
                    const model::AtomicTraits *Atomic = nullptr,
                    bool MemoryToMemory = false, unsigned CopyPiecesOfWidth = 0);
  /// MemoryToMemory: a struct assignment both of whose sides are memory.
  void recordTypedAccess(const clang::Expr *SiteExpr, AccessOp Op, const Lanes &Addr,
                         clang::QualType T, bool MemoryToMemory = false);

  // ---- expressions, lvalues, loads and stores (Expressions.cpp) ----
  Lanes eval(const clang::Expr *E);
  Lanes evalUncaptured(const clang::Expr *E);
  LValue evalLValue(const clang::Expr *E);
  std::optional<Lanes> overriddenSubscript(const clang::ArraySubscriptExpr *AS);
  bool hasPointerLane(const Lanes &V) const;
  Lanes readLValue(const LValue &LV, const clang::Expr *SiteExpr, clang::QualType T);
  void writeLValue(const LValue &LV, const Lanes &V, const clang::Expr *SiteExpr,
                   clang::QualType T);
  void assignVar(const LValue &LV, const Lanes &V);
  /// The index of the frame an lvalue naming a variable refers to, the
  /// current one (-1) made absolute: still right inside the calls it
  /// makes.
  int absoluteFrame(const LValue &LV) const {
    return LV.Frame >= 0 ? LV.Frame : static_cast<int>(Frames.size()) - 1;
  }
  /// The frame an lvalue naming a variable refers to.
  Frame &frameOf(const LValue &LV) {
    return LV.Frame >= 0 && static_cast<std::size_t>(LV.Frame) < Frames.size()
               ? Frames[LV.Frame]
               : frame();
  }

  /// Counts E's floating-point instruction for the active lanes, if it is
  /// one (FloatOperations.h); a fused multiply is counted with its add.
  void countFloatOperation(const clang::Expr *E);

  // ---- operators, casts and arithmetic (Operators.cpp) ----
  Lanes evalBinary(const clang::BinaryOperator *BO);
  Lanes evalCompoundAssign(const clang::CompoundAssignOperator *CA);
  Lanes evalUnary(const clang::UnaryOperator *UO);
  Lanes evalCast(const clang::CastExpr *CE);
  Lanes evalConditional(const clang::AbstractConditionalOperator *CO);
  /// E evaluated for the lanes of Within only (one side of &&, || or ?:),
  /// marked as under a data-dependent mask if UnderUncertainMask.
  Lanes evalForLanes(const clang::Expr *E, Mask Within, bool UnderUncertainMask);
  /// Fn's result with only the lanes Within active (counted as under an
  /// uncertain mask when UnderUncertainMask).
  template <typename F> auto forLanes(Mask Within, bool UnderUncertainMask, F Fn) {
    Mask Saved = Active;
    Active = Within;
    if (UnderUncertainMask)
      ++Uncertain;
    auto V = Fn();
    if (UnderUncertainMask)
      --Uncertain;
    Active = Saved;
    return V;
  }
  /// E's lvalue for the lanes Within: one arm of a conditional lvalue
  /// (`c ? a[i] : b[j]`, the addresses of whose lanes are the arm each takes).
  LValue evalLValueForLanes(const clang::Expr *E, Mask Within, bool UnderUncertainMask);
  Lanes arith(clang::BinaryOperatorKind Op, const Lanes &L, const Lanes &R,
              clang::QualType OperandType, clang::QualType ResultType);
  /// Notes what an integer operation left undefined: signed overflow and
  /// out-of-range shift counts mark the sampled values as implausible.
  void noteUndefined(values::Undefined UB);
  Lanes pointerOffset(const Lanes &Ptr, const Lanes &Index, std::uint64_t Scale,
                      bool Subtract, clang::QualType IndexType);

  // ---- local objects: structs, arrays, lambdas (Objects.cpp) ----
  static bool isObjectType(clang::QualType T);
  /// The address (lane-uniform) of a fresh local object for Key at Depth;
  /// what the active lanes stored there before is forgotten.
  Lanes newObject(const void *Key, std::size_t Depth, clang::QualType T);
  bool isLocalAddress(const LaneValue &V) const;
  Lanes offsetBy(const Lanes &Addr, std::uint64_t Offset);
  /// Loads and stores of the active lanes whose address is lane-local.
  Lanes loadLocal(const Lanes &Addr, std::uint64_t Size);
  void storeLocal(const Lanes &Addr, const Lanes &V, std::uint64_t Size);
  void forgetLocal(const Lanes &Addr, std::uint64_t Size);
  void copyLocal(const Lanes &Dst, const Lanes &Src, std::uint64_t Size);
  /// Lanes may have left a loop whose body wrote local memory since
  /// WritesBefore: what they hold there is no longer known.
  void poisonLocalWrites(std::uint64_t WritesBefore, Mask Lanes);
  /// For Lanes, what local memory held in From (the lanes of a
  /// data-dependent branch run both sides: before the second side).
  void keepLocalLanes(const LocalSnapshot &From, Mask Lanes);
  /// For Lanes, values that differ from Other's become unknown (after both
  /// sides of a data-dependent branch).
  void mergeLocalLanes(const LocalSnapshot &Other, Mask Lanes);
  /// `this`: the method's object, or in a lambda the captured one.
  Lanes thisValue();
  /// `&S::field`: the field's offset.
  Lanes memberPointerValue(const clang::UnaryOperator *UO);
  /// Builds the object of type T at Addr from its initialiser.
  void initObject(const Lanes &Addr, clang::QualType T, const clang::Expr *Init);
  void construct(const Lanes &Addr, const clang::CXXConstructExpr *CC);
  void initClosure(const Lanes &Addr, const clang::LambdaExpr *LE);
  /// A name used in a lambda's body for a variable it captured.
  std::optional<LValue> capturedVariable(const clang::DeclRefExpr *DRE);
  LValue temporaryObject(const clang::MaterializeTemporaryExpr *MT);
  /// `obj.*pm`, `ptr->*pm` for a pointer to a data member.
  LValue memberPointerLValue(const clang::BinaryOperator *BO);
  /// The field FD of the object at Base (a reference field: what it refers to).
  LValue fieldLValue(const Lanes &Base, const clang::FieldDecl *FD);
  /// Binds the parameters of Def from Args (the call's or constructor's
  /// arguments from ArgOffset) into Callee, evaluated in the caller's frame.
  void bindParameters(const clang::FunctionDecl *Def,
                      llvm::ArrayRef<const clang::Expr *> Args, unsigned ArgOffset,
                      Frame &Callee);

  // ---- calls and inlining (Calls.cpp) ----
  Lanes evalCall(const clang::CallExpr *CE);
  Lanes inlineCall(const clang::FunctionDecl *FD, const clang::CallExpr *CE);
  Lanes opaqueCall(const clang::FunctionDecl *FD, const clang::CallExpr *CE);
  Lanes opaqueCall(const clang::FunctionDecl *FD, const clang::CallExpr *CE,
                   const std::optional<LValue> &Object, unsigned ArgOffset);
  const clang::Expr *implicitObject(const clang::FunctionDecl *FD,
                                    const clang::CallExpr *CE, bool &Arrow,
                                    unsigned &ArgOffset);
  LValue objectLValue(const clang::Expr *Obj, bool Arrow);

  // ---- CUDA built-in variables and functions (CudaBuiltins.cpp) ----
  /// threadIdx.x and friends, by the names of the variable and the field.
  Lanes evalBuiltinVariable(llvm::StringRef Var, llvm::StringRef Field);
  /// The value of a built-in variable along one axis (0 x, 1 y, 2 z).
  Lanes builtinVariable(BuiltinVariable V, unsigned Axis);
  /// A read of the thread's position through an accessor of a built-in
  /// variable or a special register; nullopt for any other function.
  std::optional<Lanes> threadPositionCall(const clang::FunctionDecl *FD);
  /// A call of a library or compiler built-in function.
  Lanes libraryCall(const clang::FunctionDecl *FD, const clang::CallExpr *CE);
  /// A rank, size or shuffle of a cooperative group (CooperativeGroups.cpp);
  /// nullopt for any other call.
  std::optional<Lanes> cooperativeGroupsCall(const clang::FunctionDecl *FD,
                                             const clang::CallExpr *CE);
  /// What a cooperative group object is: its most derived type (a
  /// thread_group holding a thread_block is a thread_block) and, for a
  /// coalesced group, the lanes that made it.
  struct GroupOrigin {
    const clang::CXXRecordDecl *Type = nullptr;
    std::optional<Mask> Members;
  };
  GroupOrigin groupOrigin(const clang::Expr *Group);
  /// The lanes active where each cooperative group variable was declared,
  /// by the frame that holds it (a coalesced group is made of them).
  std::map<std::pair<std::size_t, const clang::VarDecl *>, Mask> GroupMembers;
  /// Records Active for VD when it is a cooperative group.
  void noteGroupDeclared(const clang::VarDecl *VD);

  /// A library function known by name: the handler that evaluates its
  /// call, and which of the handler's variants (min or max, the shuffle's
  /// direction) the name is. A handler returns nullopt for a call not of
  /// the form it expects (the call is then opaque).
  struct LibraryFunction {
    std::optional<Lanes> (Impl::*Run)(const clang::CallExpr *CE, unsigned Variant);
    unsigned Variant;
  };
  /// The entry of the table for a callee's name, or null.
  static const LibraryFunction *libraryFunction(llvm::StringRef Name);
  std::optional<Lanes> hintCall(const clang::CallExpr *CE, unsigned Variant);
  std::optional<Lanes> atomicCall(const clang::CallExpr *CE, unsigned Variant);
  std::optional<Lanes> cachedAccessCall(const clang::CallExpr *CE, unsigned Variant);
  std::optional<Lanes> randomStateInitCall(const clang::CallExpr *CE, unsigned Variant);
  std::optional<Lanes> integerMinMaxCall(const clang::CallExpr *CE, unsigned Variant);
  std::optional<Lanes> integerAbsCall(const clang::CallExpr *CE, unsigned Variant);
  std::optional<Lanes> bitCall(const clang::CallExpr *CE, unsigned Variant);
  std::optional<Lanes> mul24Call(const clang::CallExpr *CE, unsigned Variant);
  std::optional<Lanes> shuffleCall(const clang::CallExpr *CE, unsigned Variant);
  std::optional<Lanes> voteCall(const clang::CallExpr *CE, unsigned Variant);
  /// nvcuda::wmma::store_matrix_sync of an accumulator fragment (WarpMatrix.cpp).
  std::optional<Lanes> warpMatrixStoreCall(const clang::CallExpr *CE, unsigned Variant);

  // ---- statements and declarations (Statements.cpp) ----
  void exec(const clang::Stmt *S);
  void declare(const clang::VarDecl *VD);
  /// Whether the function that declares VD takes its address (`&w`).
  bool addressTaken(const clang::VarDecl *VD);

  // ---- control flow and lane masks (ControlFlow.cpp) ----
  void execIf(const clang::IfStmt *If);
  void execLoop(const clang::Stmt *Init, const clang::Expr *Cond,
                const clang::Stmt *CondVar, const clang::Expr *Inc,
                const clang::Stmt *Body, bool TestFirst, const clang::Stmt *Loop);
  void execSwitch(const clang::SwitchStmt *Sw);
  void splitByCondition(const Lanes &C, Mask Within, Mask &T, Mask &F, Mask &U);
  void keepUncertainExits(Mask U, Mask ExitedBefore, const LoopState &LoopBefore);
  void poisonAssigned(const clang::Stmt *S, Mask Lanes, std::uint64_t LocalWritesBefore);
  /// A loop's counter and, for the lanes (Cut) still inside the loop when
  /// it was cut short, the value it leaves the loop with (ControlFlow.cpp).
  std::optional<std::pair<const clang::VarDecl *, Lanes>>
  inductionExit(const clang::Stmt *Loop, const clang::Expr *Cond, const clang::Expr *Inc,
                const clang::Stmt *Body, Mask Cut);
};

} // namespace warpcheck::analysis

#endif
