//===- LaunchConfig.cpp - launch sites, annotations, launch bounds --------===//

#include "warpcheck/analysis/LaunchConfig.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <set>

using namespace clang;

namespace warpcheck::analysis {

std::string Dim3::str() const {
  return "(" + std::to_string(X) + ", " + std::to_string(Y) + ", " +
         std::to_string(Z) + ")";
}

const char *LaunchConfig::sourceName() const {
  switch (Source) {
  case LaunchSource::LaunchSite:
    return "launch";
  case LaunchSource::Annotation:
    return "annotation";
  case LaunchSource::LaunchBounds:
    return "launch_bounds";
  case LaunchSource::Default:
    return "default";
  }
  return "default";
}

/// Threads per block on every architecture since sm_20 (CUDA C++
/// Programming Guide, "Technical Specifications per Compute Capability").
static constexpr std::uint64_t MaxThreadsPerBlock = 1024;

std::optional<Dim3> parseDim3(llvm::StringRef Text) {
  Text = Text.trim();
  if (Text.consume_front("("))
    if (!Text.consume_back(")"))
      return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Text.split(Parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  if (Parts.empty() || Parts.size() > 3)
    return std::nullopt;
  std::uint32_t Values[3] = {1, 1, 1};
  for (size_t I = 0; I < Parts.size(); ++I) {
    unsigned long long V;
    if (llvm::getAsUnsignedInteger(Parts[I].trim(), 10, V) || V == 0 ||
        V > 0xffffffffULL)
      return std::nullopt;
    Values[I] = static_cast<std::uint32_t>(V);
  }
  return Dim3{Values[0], Values[1], Values[2]};
}

namespace {

/// Variables of a host function that are written after their declaration
/// (assigned, incremented, address taken or bound to a non-const reference):
/// their initializer is not their value at a later launch.
class ModifiedVarCollector : public RecursiveASTVisitor<ModifiedVarCollector> {
public:
  std::set<const VarDecl *> Modified;

  static const VarDecl *varOf(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return varOf(ME->getBase());
    return nullptr;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      if (const VarDecl *V = varOf(BO->getLHS()))
        Modified.insert(V);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->isAssignmentOp() && OC->getNumArgs() > 0)
      if (const VarDecl *V = varOf(OC->getArg(0)))
        Modified.insert(V);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *V = varOf(UO->getSubExpr()))
        Modified.insert(V);
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    // A variable passed by non-const reference may be written by the callee.
    const FunctionDecl *FD = CE->getDirectCallee();
    unsigned Offset = isa<CXXOperatorCallExpr>(CE) ? 0 : 0;
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      if (!FD || I + Offset >= FD->getNumParams())
        break;
      QualType PT = FD->getParamDecl(I + Offset)->getType();
      if (PT->isReferenceType() && !PT->getPointeeType().isConstQualified())
        if (const VarDecl *V = varOf(CE->getArg(I)))
          Modified.insert(V);
    }
    return true;
  }
};

/// Evaluates host-side integer and dim3 expressions at a launch site:
/// constants, constexpr, macros (already expanded), enum constants and local
/// variables whose initializer is never overwritten.
class HostEvaluator {
public:
  HostEvaluator(ASTContext &Ctx, const FunctionDecl *Caller) : Ctx(Ctx) {
    if (Caller && Caller->hasBody()) {
      ModifiedVarCollector C;
      C.TraverseStmt(Caller->getBody());
      Modified = std::move(C.Modified);
    }
  }

  std::optional<std::int64_t> integer(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 16)
      return std::nullopt;
    if (E->isValueDependent() || E->isTypeDependent())
      return std::nullopt;
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx) && R.Val.isInt())
      return R.Val.getInt().getExtValue();
    E = E->IgnoreParens();
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
      return integer(ICE->getSubExpr(), Depth + 1);
    if (const auto *CE = dyn_cast<CStyleCastExpr>(E))
      return integer(CE->getSubExpr(), Depth + 1);
    if (const auto *CE = dyn_cast<CXXStaticCastExpr>(E))
      return integer(CE->getSubExpr(), Depth + 1);
    if (const auto *CE = dyn_cast<CXXFunctionalCastExpr>(E))
      return integer(CE->getSubExpr(), Depth + 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (const Expr *Init = unmodifiedInit(VD))
        return integer(Init, Depth + 1);
      return std::nullopt;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      auto V = integer(UO->getSubExpr(), Depth + 1);
      if (!V)
        return std::nullopt;
      switch (UO->getOpcode()) {
      case UO_Minus:
        if (*V == INT64_MIN)
          return std::nullopt;
        return -*V;
      case UO_Plus:
        return *V;
      case UO_Not:
        return ~*V;
      case UO_LNot:
        return !*V;
      default:
        return std::nullopt;
      }
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      auto L = integer(BO->getLHS(), Depth + 1);
      auto R2 = integer(BO->getRHS(), Depth + 1);
      if (!L || !R2)
        return std::nullopt;
      // Host values that overflow 64 bits are no launch shape anyone
      // meant; INT64_MIN / -1 would trap.
      std::int64_t Out;
      switch (BO->getOpcode()) {
      case BO_Add:
        if (__builtin_add_overflow(*L, *R2, &Out)) return std::nullopt;
        return Out;
      case BO_Sub:
        if (__builtin_sub_overflow(*L, *R2, &Out)) return std::nullopt;
        return Out;
      case BO_Mul:
        if (__builtin_mul_overflow(*L, *R2, &Out)) return std::nullopt;
        return Out;
      case BO_Div:
        if (*R2 == 0 || (*L == INT64_MIN && *R2 == -1)) return std::nullopt;
        return *L / *R2;
      case BO_Rem:
        if (*R2 == 0 || (*L == INT64_MIN && *R2 == -1)) return std::nullopt;
        return *L % *R2;
      case BO_Shl: if (*R2 < 0 || *R2 > 62) return std::nullopt; return *L << *R2;
      case BO_Shr: if (*R2 < 0 || *R2 > 62) return std::nullopt; return *L >> *R2;
      case BO_And: return *L & *R2;
      case BO_Or: return *L | *R2;
      case BO_Xor: return *L ^ *R2;
      case BO_LT: return *L < *R2;
      case BO_GT: return *L > *R2;
      case BO_LE: return *L <= *R2;
      case BO_GE: return *L >= *R2;
      case BO_EQ: return *L == *R2;
      case BO_NE: return *L != *R2;
      default: return std::nullopt;
      }
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      auto C = integer(CO->getCond(), Depth + 1);
      if (!C)
        return std::nullopt;
      return integer(*C ? CO->getTrueExpr() : CO->getFalseExpr(), Depth + 1);
    }
    return std::nullopt;
  }

  /// dim3 from `dim3 b(32, 8)`, `dim3(32, 8)`, `{32, 8}`, an integer, or a
  /// variable holding one of those.
  std::optional<Dim3> dim3(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 16)
      return std::nullopt;
    E = E->IgnoreParens();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      return dim3(EWC->getSubExpr(), Depth + 1);
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
      return dim3(MTE->getSubExpr(), Depth + 1);
    if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
      return dim3(BTE->getSubExpr(), Depth + 1);
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
      if (ICE->getType()->isIntegerType())
        return fromInteger(ICE);
      return dim3(ICE->getSubExpr(), Depth + 1);
    }
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
      return dim3(FC->getSubExpr(), Depth + 1);
    if (E->getType()->isIntegerType())
      return fromInteger(E);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      const CXXConstructorDecl *Ctor = CE->getConstructor();
      if (CE->getNumArgs() == 1 && (Ctor->isCopyOrMoveConstructor()))
        return dim3(CE->getArg(0), Depth + 1);
      // dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1), or a
      // conversion from uint3.
      std::uint32_t V[3] = {1, 1, 1};
      for (unsigned I = 0; I < CE->getNumArgs() && I < 3; ++I) {
        const Expr *A = CE->getArg(I);
        if (isa<CXXDefaultArgExpr>(A))
          continue;
        auto X = integer(A, Depth + 1);
        if (!X || *X <= 0)
          return std::nullopt;
        V[I] = static_cast<std::uint32_t>(*X);
      }
      return Dim3{V[0], V[1], V[2]};
    }
    if (const auto *IL = dyn_cast<InitListExpr>(E)) {
      std::uint32_t V[3] = {1, 1, 1};
      for (unsigned I = 0; I < IL->getNumInits() && I < 3; ++I) {
        auto X = integer(IL->getInit(I), Depth + 1);
        if (!X || *X <= 0)
          return std::nullopt;
        V[I] = static_cast<std::uint32_t>(*X);
      }
      return Dim3{V[0], V[1], V[2]};
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (const Expr *Init = unmodifiedInit(VD))
        return dim3(Init, Depth + 1);
    }
    return std::nullopt;
  }

  /// Byte offset of a pointer argument relative to its allocation:
  /// `d_in` -> 0, `d_in + 1` -> sizeof(*d_in), `&d_in[3]` -> 3 * sizeof.
  std::optional<std::int64_t> pointerOffset(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 16)
      return std::nullopt;
    E = E->IgnoreParenCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if ((BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) &&
          BO->getLHS()->getType()->isPointerType()) {
        auto Base = pointerOffset(BO->getLHS(), Depth + 1);
        auto N = integer(BO->getRHS());
        if (!Base || !N)
          return std::nullopt;
        std::int64_t Elem = elementSize(BO->getLHS()->getType());
        if (Elem <= 0)
          return std::nullopt;
        return *Base + (BO->getOpcode() == BO_Add ? 1 : -1) * *N * Elem;
      }
      return std::nullopt;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_AddrOf)
        if (const auto *AS = dyn_cast<ArraySubscriptExpr>(
                UO->getSubExpr()->IgnoreParens())) {
          auto Base = pointerOffset(AS->getBase(), Depth + 1);
          auto N = integer(AS->getIdx());
          std::int64_t Elem = elementSize(AS->getBase()->getType());
          if (!Base || !N || Elem <= 0)
            return std::nullopt;
          return *Base + *N * Elem;
        }
      return std::nullopt;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      // A plain pointer variable: an allocation of its own (cudaMalloc
      // pointers are 256-byte aligned), unless it was initialised from an
      // offset of another pointer and never changed.
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (const Expr *Init = unmodifiedInit(VD))
        if (auto Off = pointerOffset(Init, Depth + 1))
          return Off;
      return 0;
    }
    return std::nullopt;
  }

private:
  std::int64_t elementSize(QualType PtrType) {
    QualType Pointee = PtrType->getPointeeType();
    if (Pointee.isNull() || Pointee->isIncompleteType() || Pointee->isVoidType())
      return -1;
    return Ctx.getTypeSizeInChars(Pointee).getQuantity();
  }

  std::optional<Dim3> fromInteger(const Expr *E) {
    auto X = integer(E);
    if (!X || *X <= 0 || *X > 0xffffffffLL)
      return std::nullopt;
    return Dim3{static_cast<std::uint32_t>(*X), 1, 1};
  }

  const Expr *unmodifiedInit(const VarDecl *VD) {
    if (!VD || !VD->hasInit() || isa<ParmVarDecl>(VD))
      return nullptr;
    if (!VD->getType().isConstQualified() && !VD->isConstexpr() &&
        (Modified.count(VD) || !VD->isLocalVarDecl()))
      return nullptr;
    return VD->getInit();
  }

  ASTContext &Ctx;
  std::set<const VarDecl *> Modified;
};

const FunctionDecl *kernelOf(const Expr *Callee) {
  Callee = Callee->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Callee))
    if (UO->getOpcode() == UO_AddrOf)
      Callee = UO->getSubExpr()->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      if (FD->hasAttr<CUDAGlobalAttr>())
        return FD;
  return nullptr;
}

std::string locationString(const SourceManager &SM, SourceLocation Loc) {
  Loc = SM.getFileLoc(Loc);
  PresumedLoc P = SM.getPresumedLoc(Loc);
  if (P.isInvalid())
    return "";
  return llvm::sys::path::filename(P.getFilename()).str() + ":" +
         std::to_string(P.getLine());
}

} // namespace

class LaunchSiteCollector : public RecursiveASTVisitor<LaunchSiteCollector> {
public:
  LaunchSiteCollector(LaunchSiteIndex &Index, const SourceManager &SM)
      : Index(Index), SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  // Launches in system headers (CUB, Thrust) launch library kernels: their
  // bodies are skipped, which keeps the walk cheap on CCCL-heavy units.
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && !isa<NamespaceDecl>(D) &&
        !isa<LinkageSpecDecl>(D) && SM.isInSystemHeader(SM.getFileLoc(D->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Saved = Caller;
    Caller = FD;
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Caller = Saved;
    return R;
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *MD) {
    const FunctionDecl *Saved = Caller;
    Caller = MD;
    bool R = RecursiveASTVisitor::TraverseCXXMethodDecl(MD);
    Caller = Saved;
    return R;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *KC) {
    const FunctionDecl *Kernel = KC->getDirectCallee();
    if (!Kernel)
      return true;
    const CallExpr *Config = KC->getConfig();
    LaunchSiteIndex::Site S{KC, Caller, nullptr, nullptr, nullptr, {}};
    if (Config) {
      if (Config->getNumArgs() > 0)
        S.Grid = Config->getArg(0);
      if (Config->getNumArgs() > 1)
        S.Block = Config->getArg(1);
      if (Config->getNumArgs() > 2 && !isa<CXXDefaultArgExpr>(Config->getArg(2)))
        S.SharedBytes = Config->getArg(2);
    }
    for (const Expr *A : KC->arguments())
      S.Args.push_back(A);
    Index.SitesByKernel[Kernel->getCanonicalDecl()].push_back(S);
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    // cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
    //                  size_t sharedMem, cudaStream_t stream), also its
    // templated C++ overload.
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || isa<CUDAKernelCallExpr>(CE) || !FD->getIdentifier())
      return true;
    llvm::StringRef Name = FD->getName();
    if (Name == "cudaLaunchKernelEx" || Name == "cudaLaunchKernelExC")
      return visitLaunchKernelEx(CE, Name == "cudaLaunchKernelEx");
    if (Name != "cudaLaunchKernel" && Name != "cudaLaunchCooperativeKernel")
      return true;
    if (CE->getNumArgs() < 3)
      return true;
    const FunctionDecl *Kernel = kernelOf(CE->getArg(0));
    if (!Kernel)
      return true;
    LaunchSiteIndex::Site S{CE, Caller, CE->getArg(1), CE->getArg(2), nullptr, {}};
    if (CE->getNumArgs() > 4 && !isa<CXXDefaultArgExpr>(CE->getArg(4)))
      S.SharedBytes = CE->getArg(4);
    Index.SitesByKernel[Kernel->getCanonicalDecl()].push_back(S);
    return true;
  }

private:
  /// cudaLaunchKernelEx(&config, kernel, args...) and its C form
  /// cudaLaunchKernelExC(&config, (const void *)kernel, args): the shape is
  /// in the fields of a cudaLaunchConfig_t variable, from its initializer
  /// or from assignments before the call.
  bool visitLaunchKernelEx(const CallExpr *CE, bool Templated) {
    if (CE->getNumArgs() < 2)
      return true;
    const FunctionDecl *Kernel = kernelOf(CE->getArg(1));
    const auto *Addr = dyn_cast<UnaryOperator>(CE->getArg(0)->IgnoreParenImpCasts());
    const DeclRefExpr *Ref =
        Addr && Addr->getOpcode() == UO_AddrOf
            ? dyn_cast<DeclRefExpr>(Addr->getSubExpr()->IgnoreParenImpCasts())
            : nullptr;
    const auto *Config = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Kernel || !Config)
      return true;
    LaunchSiteIndex::Site S{CE, Caller, nullptr, nullptr, nullptr, {}};
    auto Field = [&](llvm::StringRef Name, const Expr *Value) {
      if (Name == "gridDim")
        S.Grid = Value;
      else if (Name == "blockDim")
        S.Block = Value;
      else if (Name == "dynamicSmemBytes")
        S.SharedBytes = Value;
    };
    if (const auto *IL = dyn_cast_or_null<InitListExpr>(
            Config->getInit() ? Config->getInit()->IgnoreImplicit() : nullptr)) {
      if (const RecordDecl *RD = Config->getType()->getAsRecordDecl()) {
        unsigned I = 0;
        for (const FieldDecl *F : RD->fields()) {
          if (I < IL->getNumInits())
            Field(F->getName(), IL->getInit(I));
          ++I;
        }
      }
    }
    // Assignments `config.blockDim = ...` in the caller before the launch;
    // the last one wins.
    if (Caller && Caller->hasBody()) {
      struct Assignments : RecursiveASTVisitor<Assignments> {
        const VarDecl *Config;
        const SourceManager &SM;
        SourceLocation Before;
        std::function<void(llvm::StringRef, const Expr *)> Field;
        Assignments(const VarDecl *C, const SourceManager &SM, SourceLocation B,
                    std::function<void(llvm::StringRef, const Expr *)> F)
            : Config(C), SM(SM), Before(B), Field(std::move(F)) {}
        void assigned(const Expr *LHS, const Expr *RHS, SourceLocation At) {
          const auto *ME = dyn_cast<MemberExpr>(LHS->IgnoreParenImpCasts());
          if (!ME || !SM.isBeforeInTranslationUnit(At, Before))
            return;
          const auto *Base = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
          if (Base && Base->getDecl() == Config)
            Field(ME->getMemberDecl()->getName(), RHS);
        }
        bool VisitBinaryOperator(BinaryOperator *BO) {
          if (BO->getOpcode() == BO_Assign)
            assigned(BO->getLHS(), BO->getRHS(), BO->getBeginLoc());
          return true;
        }
        bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
          if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
            assigned(OC->getArg(0), OC->getArg(1), OC->getBeginLoc());
          return true;
        }
      } Walk(Config, SM, CE->getBeginLoc(), Field);
      Walk.TraverseStmt(Caller->getBody());
    }
    // The C++ form passes the kernel's arguments themselves.
    if (Templated)
      for (unsigned I = 2; I < CE->getNumArgs(); ++I)
        S.Args.push_back(CE->getArg(I));
    Index.SitesByKernel[Kernel->getCanonicalDecl()].push_back(S);
    return true;
  }

  LaunchSiteIndex &Index;
  const SourceManager &SM;
  const FunctionDecl *Caller = nullptr;
};

LaunchSiteIndex::LaunchSiteIndex(ASTContext &Ctx) : Ctx(Ctx) {
  LaunchSiteCollector Collector(*this, Ctx.getSourceManager());
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
}

/// `// warpcheck: block(32, 8) grid(64, 64) shared(8192)` within the five
/// lines above the kernel (or its template header); grid and shared (the
/// dynamic shared memory, bytes) are optional.
static std::optional<LaunchConfig> annotationFor(const FunctionDecl *Kernel,
                                                 ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const Decl *Outer = Kernel;
  if (const FunctionTemplateDecl *T = Kernel->getPrimaryTemplate())
    Outer = T;
  else if (const FunctionTemplateDecl *T = Kernel->getDescribedFunctionTemplate())
    Outer = T;
  SourceLocation Begin = SM.getFileLoc(Outer->getBeginLoc());
  if (Begin.isInvalid())
    return std::nullopt;
  FileID File = SM.getFileID(Begin);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return std::nullopt;
  unsigned Line = SM.getSpellingLineNumber(Begin);
  unsigned Lowest = Line > 5 ? Line - 5 : 1;
  for (unsigned L = Line; L >= Lowest; --L) {
    SourceLocation LineStart = SM.translateLineCol(File, L, 1);
    llvm::StringRef Text = Buffer.substr(SM.getFileOffset(LineStart))
                               .take_until([](char C) { return C == '\n'; });
    size_t At = Text.find("warpcheck:");
    if (At != llvm::StringRef::npos) {
      llvm::StringRef Spec = Text.substr(At + 10);
      auto ParseAfter = [&](llvm::StringRef Key) -> std::optional<Dim3> {
        size_t K = Spec.find(Key);
        if (K == llvm::StringRef::npos)
          return std::nullopt;
        llvm::StringRef Args = Spec.substr(K + Key.size()).ltrim();
        if (Args.consume_front("="))
          Args = Args.ltrim();
        if (!Args.consume_front("("))
          return std::nullopt;
        return parseDim3(Args.take_until([](char Ch) { return Ch == ')'; }));
      };
      if (auto Block = ParseAfter("block")) {
        LaunchConfig C;
        C.Source = LaunchSource::Annotation;
        C.Block = *Block;
        if (auto Grid = ParseAfter("grid")) {
          C.Grid = *Grid;
          C.GridKnown = true;
        }
        // shared(N): the dynamic shared memory of the launch, in bytes (the
        // third <<<>>> argument).
        if (size_t K = Spec.find("shared"); K != llvm::StringRef::npos) {
          llvm::StringRef Args = Spec.substr(K + 6).ltrim();
          std::uint64_t Bytes = 0;
          Args.consume_front("=");
          Args = Args.ltrim();
          if (Args.consume_front("(") &&
              !Args.take_until([](char Ch) { return Ch == ')'; }).trim().getAsInteger(10, Bytes))
            C.DynamicSharedBytes = Bytes;
        }
        PresumedLoc P = SM.getPresumedLoc(LineStart);
        C.Location = llvm::sys::path::filename(P.getFilename()).str() + ":" +
                     std::to_string(P.getLine());
        C.Description = "the annotation at " + C.Location;
        return C;
      }
    }
    if (L == 1)
      break;
  }
  return std::nullopt;
}

std::vector<LaunchConfig>
LaunchSiteIndex::configsFor(const FunctionDecl *Kernel,
                            const LaunchDefaults &Defaults) const {
  std::vector<LaunchConfig> Result;
  const SourceManager &SM = Ctx.getSourceManager();
  auto It = SitesByKernel.find(Kernel->getCanonicalDecl());
  if (It != SitesByKernel.end()) {
    for (const Site &S : It->second) {
      HostEvaluator Eval(Ctx, S.Caller);
      std::optional<Dim3> Block = Eval.dim3(S.Block);
      if (!Block)
        continue; // an unknown block shape is no launch site we can use
      if (Block->X > MaxThreadsPerBlock || Block->Y > MaxThreadsPerBlock ||
          Block->Z > MaxThreadsPerBlock || Block->count() > MaxThreadsPerBlock)
        continue; // a launch that fails (cudaErrorInvalidConfiguration)
      LaunchConfig C;
      C.Source = LaunchSource::LaunchSite;
      C.Block = *Block;
      if (auto Grid = Eval.dim3(S.Grid)) {
        C.Grid = *Grid;
        C.GridKnown = true;
      }
      if (S.SharedBytes)
        if (auto Bytes = Eval.integer(S.SharedBytes); Bytes && *Bytes >= 0)
          C.DynamicSharedBytes = static_cast<std::uint64_t>(*Bytes);
      C.Location = locationString(SM, S.Call->getBeginLoc());
      C.Description = "the launch at " + C.Location;
      for (unsigned I = 0; I < S.Args.size() && I < Kernel->getNumParams(); ++I) {
        const ParmVarDecl *P = Kernel->getParamDecl(I);
        BoundArgument A;
        if (P->getType()->isIntegerType())
          A.Integer = Eval.integer(S.Args[I]);
        else if (P->getType()->isPointerType())
          A.PointerOffsetBytes = Eval.pointerOffset(S.Args[I]);
        if (A.Integer || A.PointerOffsetBytes)
          C.Arguments[P] = A;
      }
      // One analysis per distinct shape and binding.
      bool Duplicate = false;
      for (const LaunchConfig &Prev : Result) {
        if (Prev.Block == C.Block && Prev.Grid == C.Grid &&
            Prev.GridKnown == C.GridKnown &&
            Prev.DynamicSharedBytes == C.DynamicSharedBytes &&
            Prev.Arguments.size() == C.Arguments.size()) {
          bool Same = true;
          for (const auto &[P, A] : C.Arguments) {
            auto PI = Prev.Arguments.find(P);
            if (PI == Prev.Arguments.end() || PI->second.Integer != A.Integer ||
                PI->second.PointerOffsetBytes != A.PointerOffsetBytes)
              Same = false;
          }
          Duplicate = Same;
        }
        if (Duplicate)
          break;
      }
      if (!Duplicate)
        Result.push_back(std::move(C));
    }
  }
  if (!Result.empty())
    return Result;
  if (auto A = annotationFor(Kernel, Ctx))
    return {*A};
  if (const auto *LB = Kernel->getAttr<CUDALaunchBoundsAttr>()) {
    Expr::EvalResult R;
    if (LB->getMaxThreads() &&
        LB->getMaxThreads()->EvaluateAsInt(R, Ctx) && R.Val.isInt()) {
      std::int64_t N = R.Val.getInt().getExtValue();
      if (N > 0 && N <= 1024) {
        LaunchConfig C;
        C.Source = LaunchSource::LaunchBounds;
        C.Block = Dim3{static_cast<std::uint32_t>(N), 1, 1};
        C.Description = "__launch_bounds__(" + std::to_string(N) + ")";
        return {C};
      }
    }
  }
  LaunchConfig C;
  C.Source = LaunchSource::Default;
  C.Block = Defaults.Block;
  C.Description = "the default block";
  return {C};
}

} // namespace warpcheck::analysis
