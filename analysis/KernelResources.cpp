//===- KernelResources.cpp - shared memory, bounds and occupancy ----------===//

#include "warpcheck/analysis/KernelResources.h"
#include "warpcheck/analysis/TranslationUnitSession.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cmath>

using namespace clang;

namespace warpcheck::analysis {

namespace {

bool isSharedVariable(const VarDecl *V) {
  return V && V->hasAttr<CUDASharedAttr>();
}

/// `extern __shared__ T a[];` (or a shared variable of incomplete array
/// type): the dynamic part of the block's shared memory.
bool isDynamicShared(const VarDecl *V) {
  return isSharedVariable(V) &&
         (V->hasExternalStorage() || V->getType()->isIncompleteArrayType());
}

class SharedCollector : public RecursiveASTVisitor<SharedCollector> {
public:
  SharedCollector(ASTContext &Ctx, StaticSharedMemory &Out) : Ctx(Ctx), Out(Out) {}

  void visitFunction(const FunctionDecl *FD) {
    if (!FD)
      return;
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def || !Visited.insert(Def).second)
      return;
    const FunctionDecl *Saved = Current;
    Current = Def;
    TraverseStmt(Def->getBody());
    // Constructors: their member initializers.
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        TraverseStmt(Init->getInit());
    Current = Saved;
  }

  bool VisitDeclStmt(DeclStmt *S) {
    for (Decl *D : S->decls())
      if (auto *V = dyn_cast<VarDecl>(D))
        addVariable(V, Current);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (auto *V = dyn_cast<VarDecl>(E->getDecl())) {
      if (isSharedVariable(V) && !V->isLocalVarDeclOrParm())
        addVariable(V, nullptr);
    } else if (auto *F = dyn_cast<FunctionDecl>(E->getDecl())) {
      Pending.push_back(F); // called, or its address taken
    }
    return true;
  }

  bool VisitMemberExpr(MemberExpr *E) {
    if (auto *V = dyn_cast<VarDecl>(E->getMemberDecl()))
      if (isSharedVariable(V))
        addVariable(V, nullptr);
    if (auto *M = dyn_cast<CXXMethodDecl>(E->getMemberDecl()))
      Pending.push_back(M);
    return true;
  }

  bool VisitCallExpr(CallExpr *E) {
    if (const FunctionDecl *F = E->getDirectCallee())
      Pending.push_back(F);
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    Pending.push_back(E->getConstructor());
    return true;
  }

  bool VisitCXXDestructorDecl(CXXDestructorDecl *) { return true; }

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  void run(const FunctionDecl *Kernel) {
    visitFunction(Kernel);
    while (!Pending.empty()) {
      const FunctionDecl *F = Pending.back();
      Pending.pop_back();
      visitFunction(F);
    }
  }

private:
  void addVariable(VarDecl *V, const FunctionDecl *In) {
    if (!isSharedVariable(V) || !SeenVars.insert(V->getCanonicalDecl()).second)
      return;
    if (isDynamicShared(V)) {
      Out.UsesDynamicShared = true;
      return;
    }
    QualType T = V->getType();
    if (T->isDependentType() || T->isIncompleteType()) {
      Out.Unsized.push_back(V->getNameAsString());
      return;
    }
    SharedVariable S;
    S.Var = V;
    S.Bytes = static_cast<std::uint64_t>(Ctx.getTypeSizeInChars(T).getQuantity());
    S.Alignment = static_cast<std::uint64_t>(Ctx.getDeclAlign(V).getQuantity());
    if (S.Alignment == 0)
      S.Alignment = 1;
    S.DeclaredIn = In;
    Out.Bytes = (Out.Bytes + S.Alignment - 1) / S.Alignment * S.Alignment + S.Bytes;
    Out.Variables.push_back(S);
  }

  ASTContext &Ctx;
  StaticSharedMemory &Out;
  const FunctionDecl *Current = nullptr;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Visited;
  llvm::SmallPtrSet<const VarDecl *, 16> SeenVars;
  std::vector<const FunctionDecl *> Pending;
};

} // namespace

StaticSharedMemory staticSharedMemory(const FunctionDecl *Kernel, ASTContext &Ctx) {
  StaticSharedMemory Out;
  SharedCollector C(Ctx, Out);
  C.run(Kernel);
  return Out;
}

std::optional<KernelOccupancyReport>
occupancyFor(const FunctionDecl *Kernel, const LaunchConfig &Launch,
             TranslationUnitSession &Session, const RegisterOptions &Options,
             std::optional<std::uint64_t> DefaultDynamicSharedBytes, std::string *WhyNot) {
  auto Unavailable = [&](std::string Why) -> std::optional<KernelOccupancyReport> {
    if (WhyNot)
      *WhyNot = std::move(Why);
    return std::nullopt;
  };
  if (!Kernel)
    return Unavailable("no kernel");
  ASTContext &Ctx = Session.context();
  RegisterOptions O = Options;
  if (O.Arch.empty())
    O.Arch = std::string(model::DefaultArchName);
  const model::ArchSpec *Arch = model::findArch(O.Arch);
  if (!Arch)
    return Unavailable("unknown architecture '" + O.Arch + "'");
  std::string Note;
  std::optional<FunctionRegisters> Regs = Session.registers().lookup(Kernel, O, &Note);
  if (!Regs)
    return Unavailable("its registers per thread could not be counted" +
                       (Note.empty() ? std::string() : " (" + Note + ")"));

  KernelOccupancyReport R;
  R.ArchSpec = Arch;
  R.RegisterDetails = *Regs;
  R.Registers = Regs->Registers;
  R.RegistersSource = registerSourceName(Regs->Source);
  R.Bounds = launchBounds(Kernel, Ctx);
  if (!Note.empty())
    R.Assumptions.push_back(Note);

  StaticSharedMemory Shared = staticSharedMemory(Kernel, Ctx);
  if (Regs->Source == RegisterSource::Ptxas && Regs->SharedBytes) {
    R.SharedBytesStatic = *Regs->SharedBytes;
    R.SharedBytesStaticSource = "ptxas";
  } else {
    R.SharedBytesStatic = Shared.Bytes;
    R.SharedBytesStaticSource = "ast";
    for (const std::string &Name : Shared.Unsized)
      R.Assumptions.push_back("the size of __shared__ '" + Name + "' is not known; 0 bytes assumed");
  }
  if (Launch.DynamicSharedBytes) {
    R.SharedBytesDynamic = *Launch.DynamicSharedBytes;
  } else if (Shared.UsesDynamicShared) {
    R.DynamicSharedUnknown = true;
    R.SharedBytesDynamic = DefaultDynamicSharedBytes.value_or(0);
    R.Assumptions.push_back("the launch's dynamic shared memory size is not known; " +
                            std::to_string(R.SharedBytesDynamic) + " bytes assumed" +
                            (DefaultDynamicSharedBytes ? " (DefaultDynamicShared)"
                                                       : ", set DefaultDynamicShared or "
                                                         "annotate the kernel with "
                                                         "'// warpcheck: block(...) shared(N)'"));
  }

  R.Resources.RegistersPerThread = R.Registers;
  std::uint64_t Threads = Launch.Block.count();
  R.Resources.ThreadsPerBlock =
      static_cast<unsigned>(std::min<std::uint64_t>(Threads, ~0u));
  R.Resources.StaticSharedBytes = R.SharedBytesStatic;
  R.Resources.DynamicSharedBytes = R.SharedBytesDynamic;
  R.Result = model::computeOccupancy(*Arch, R.Resources);

  R.Occupancy.Arch = Arch->Name;
  R.Occupancy.ActiveBlocksPerSM = R.Result.valid() ? R.Result.ActiveBlocksPerSM : 0;
  R.Occupancy.ActiveWarpsPerSM = R.Result.valid() ? R.Result.ActiveWarpsPerSM : 0;
  R.Occupancy.Theoretical = R.Result.valid() ? R.Result.Theoretical : 0.0;
  R.Occupancy.Limiter = model::limiterName(R.Result.Limiter);
  return R;
}

} // namespace warpcheck::analysis
