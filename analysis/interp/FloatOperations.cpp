//===- FloatOperations.cpp - which expressions are floating-point instructions ===//

#include "FloatOperations.h"
#include "LoopUnrolling.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using warpcheck::model::FloatPrecision;

namespace warpcheck::analysis::interp {

std::optional<std::pair<FloatPrecision, unsigned>> floatFormatOf(QualType T) {
  if (T.isNull())
    return std::nullopt;
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (const auto *BT = T->getAs<BuiltinType>()) {
    switch (BT->getKind()) {
    case BuiltinType::Float:
      return std::make_pair(FloatPrecision::Single, 1u);
    // Device code has no long double wider than double.
    case BuiltinType::Double:
    case BuiltinType::LongDouble:
      return std::make_pair(FloatPrecision::Double, 1u);
    case BuiltinType::Half:
    case BuiltinType::Float16:
    case BuiltinType::BFloat16:
      return std::make_pair(FloatPrecision::Half, 1u);
    default:
      return std::nullopt;
    }
  }
  if (const auto *RD = T->getAsCXXRecordDecl()) {
    llvm::StringRef Name = RD->getName();
    if (Name == "__half" || Name == "__nv_bfloat16")
      return std::make_pair(FloatPrecision::Half, 1u);
    if (Name == "__half2" || Name == "__nv_bfloat162")
      return std::make_pair(FloatPrecision::Half, 2u);
  }
  return std::nullopt;
}

namespace {

/// Math-library functions and intrinsics that compile to a sequence of
/// instructions (a MUFU estimate refined by FMAs, a subroutine): named
/// without the __nv_ / __builtin_ prefix, leading underscores, a rounding
/// suffix and the single-precision 'f'.
bool isMathFunction(llvm::StringRef Base) {
  return llvm::StringSwitch<bool>(Base)
      .Cases("sqrt", "rsqrt", "cbrt", "rcbrt", "exp", "exp2", "exp10", "expm1", true)
      .Cases("log", "log2", "log10", "log1p", "logb", "ilogb", true)
      .Cases("sin", "cos", "tan", "sincos", "sinpi", "cospi", "sincospi", true)
      .Cases("asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", true)
      .Cases("asinh", "acosh", "atanh", "pow", "powi", "erf", "erfc", true)
      .Cases("erfinv", "erfcinv", "erfcx", "lgamma", "tgamma", "hypot", "rhypot", true)
      .Cases("norm", "rnorm", "norm3d", "norm4d", "rnorm3d", "rnorm4d", true)
      .Cases("fmod", "remainder", "remquo", "ldexp", "scalbn", "frexp", "modf", true)
      .Cases("fdivide", "fdiv", "ddiv", "frcp", "drcp", "rcp", "fsqrt", "dsqrt", true)
      .Cases("frsqrt", "hdiv", "h2div", "hsqrt", "h2sqrt", "hrsqrt", "h2rsqrt", true)
      .Cases("hexp", "h2exp", "hexp2", "h2exp2", "hexp10", "h2exp10", true)
      .Cases("hlog", "h2log", "hlog2", "h2log2", "hlog10", "h2log10", true)
      .Cases("hrcp", "h2rcp", "hsin", "h2sin", "hcos", "h2cos", "htanh", "h2tanh", true)
      .Cases("j0", "j1", "jn", "y0", "y1", "yn", "cyl_bessel_i0", "cyl_bessel_i1", true)
      .Default(false);
}

llvm::StringRef mathBase(llvm::StringRef Name) {
  Name.consume_front("__nv_");
  Name.consume_front("__builtin_");
  Name = Name.ltrim('_');
  for (llvm::StringRef Suffix : {"_rn", "_rz", "_ru", "_rd"})
    if (Name.consume_back(Suffix))
      break;
  return Name;
}

/// The rounding suffix of an intrinsic: its operation is never fused.
bool hasExplicitRounding(llvm::StringRef Name) {
  return Name.ends_with("_rn") || Name.ends_with("_rz") || Name.ends_with("_ru") ||
         Name.ends_with("_rd") || Name.ends_with("_sat") || Name.ends_with("_relu");
}

std::optional<FloatOp> intrinsicOperation(const CallExpr *CE, llvm::StringRef Name) {
  // Single and double precision: fmaf, fma, __fmaf_rn, __fmul_rd, __dadd_rn,
  // and libdevice's __nv_ forms of them.
  llvm::StringRef N = Name;
  N.consume_front("__nv_");
  N.consume_front("__builtin_");
  N = N.ltrim('_');
  FloatOp Op;
  std::optional<std::pair<FloatPrecision, unsigned>> Format =
      floatFormatOf(CE->getCallReturnType(CE->getCalleeDecl()->getASTContext()));
  if (!Format)
    return std::nullopt;
  Op.Precision = Format->first;
  Op.Elements = Format->second;
  auto Starts = [&](std::initializer_list<llvm::StringRef> Prefixes) {
    for (llvm::StringRef P : Prefixes)
      if (N == P || N.starts_with((P + "_").str()))
        return true;
    return false;
  };
  if (Starts({"fmaf", "fma", "fmal", "hfma", "hfma2"})) {
    Op.Kind = FloatOpKind::Fma;
    return Op;
  }
  if (Starts({"fmul", "dmul", "hmul", "hmul2"})) {
    Op.Kind = FloatOpKind::Mul;
    Op.Contractible = !hasExplicitRounding(Name) && N.starts_with("h");
    return Op;
  }
  if (Starts({"fadd", "fsub", "dadd", "dsub", "hadd", "hsub", "hadd2", "hsub2"})) {
    Op.Kind = FloatOpKind::Add;
    Op.Contractible = !hasExplicitRounding(Name) && N.starts_with("h");
    if (Op.Contractible && CE->getNumArgs() == 2) {
      Op.Addends[0] = CE->getArg(0);
      Op.Addends[1] = CE->getArg(1);
    }
    return Op;
  }
  llvm::StringRef Base = mathBase(Name);
  if (isMathFunction(Base) || (Base.ends_with("f") && isMathFunction(Base.drop_back()))) {
    Op.Kind = FloatOpKind::Uncounted;
    return Op;
  }
  return std::nullopt;
}

std::optional<FloatOp> operatorOfHalfType(const CXXOperatorCallExpr *OC) {
  if (OC->getNumArgs() == 0)
    return std::nullopt;
  auto Format = floatFormatOf(OC->getArg(0)->getType());
  if (!Format || Format->first != FloatPrecision::Half)
    return std::nullopt;
  FloatOp Op;
  Op.Precision = Format->first;
  Op.Elements = Format->second;
  bool Binary = OC->getNumArgs() == 2;
  switch (OC->getOperator()) {
  case OO_Plus:
  case OO_Minus:
    if (!Binary)
      return std::nullopt; // unary minus: a sign flip, not an add
    Op.Kind = FloatOpKind::Add;
    Op.Contractible = true;
    Op.Addends[0] = OC->getArg(0);
    Op.Addends[1] = OC->getArg(1);
    return Op;
  case OO_PlusEqual:
  case OO_MinusEqual:
    Op.Kind = FloatOpKind::Add;
    Op.Contractible = true;
    Op.Addends[0] = OC->getArg(1);
    return Op;
  case OO_PlusPlus:
  case OO_MinusMinus:
    Op.Kind = FloatOpKind::Add;
    return Op;
  case OO_Star:
  case OO_StarEqual:
    Op.Kind = FloatOpKind::Mul;
    Op.Contractible = OC->getOperator() == OO_Star;
    return Op;
  case OO_Slash:
  case OO_SlashEqual:
    Op.Kind = FloatOpKind::Uncounted;
    return Op;
  default:
    return std::nullopt;
  }
}

} // namespace

std::optional<FloatOp> floatOperationOf(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(E)) {
    auto Format = floatFormatOf(CA->getComputationResultType());
    if (!Format)
      return std::nullopt;
    FloatOp Op;
    Op.Precision = Format->first;
    Op.Elements = Format->second;
    switch (CA->getOpcode()) {
    case BO_AddAssign:
    case BO_SubAssign:
      Op.Kind = FloatOpKind::Add;
      Op.Contractible = true;
      Op.Addends[0] = CA->getRHS();
      return Op;
    case BO_MulAssign:
      Op.Kind = FloatOpKind::Mul;
      return Op;
    case BO_DivAssign:
      Op.Kind = FloatOpKind::Uncounted;
      return Op;
    default:
      return std::nullopt;
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    auto Format = floatFormatOf(BO->getType());
    if (!Format)
      return std::nullopt;
    FloatOp Op;
    Op.Precision = Format->first;
    Op.Elements = Format->second;
    switch (BO->getOpcode()) {
    case BO_Add:
    case BO_Sub:
      Op.Kind = FloatOpKind::Add;
      Op.Contractible = true;
      Op.Addends[0] = BO->getLHS();
      Op.Addends[1] = BO->getRHS();
      return Op;
    case BO_Mul:
      Op.Kind = FloatOpKind::Mul;
      Op.Contractible = true;
      return Op;
    case BO_Div:
      Op.Kind = FloatOpKind::Uncounted;
      return Op;
    default:
      return std::nullopt;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (!UO->isIncrementDecrementOp())
      return std::nullopt;
    auto Format = floatFormatOf(UO->getType());
    if (!Format)
      return std::nullopt;
    FloatOp Op;
    Op.Kind = FloatOpKind::Add;
    Op.Precision = Format->first;
    Op.Elements = Format->second;
    return Op;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    return operatorOfHalfType(OC);
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || !FD->getIdentifier())
      return std::nullopt;
    return intrinsicOperation(CE, FD->getName());
  }
  return std::nullopt;
}

namespace {

/// The operation an addend computes, looking through what only carries a
/// value (parentheses, temporaries, the copy of a __half into a by-value
/// parameter).
const Expr *valueOf(const Expr *E) {
  while (E) {
    E = E->IgnoreParens()->IgnoreImplicit();
    if (const auto *CC = dyn_cast<CXXConstructExpr>(E)) {
      if (CC->getNumArgs() == 1 && CC->getConstructor() &&
          CC->getConstructor()->isCopyOrMoveConstructor()) {
        E = CC->getArg(0);
        continue;
      }
    }
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
      if (ICE->getCastKind() == CK_NoOp) {
        E = ICE->getSubExpr();
        continue;
      }
    return E;
  }
  return E;
}

} // namespace

void Contractions::analyse(const FunctionDecl *FD) {
  if (!FD || !Analysed.insert(FD).second)
    return;
  // Kept products first: an add of a product written inline and a product
  // kept in a variable fuses the kept one, the inline one stays a multiply
  // (`float t = a[i] * b[i]; o[i] = c[i] * d[i] + t;` and `acc = acc * 0.5f
  // + t` in a loop unrolled completely: mul.f32 of the inline product and
  // fma.rn.f32 of t in nvcc 13.0's PTX, FMUL and FFMA in its SASS, -O3,
  // sm_90, test/hw/microbench/float_contraction.cu).
  if (const Stmt *Body = FD->getBody()) {
    fuseProductVariables(FD, Body);
    visit(Body);
  }
}

namespace {

/// The innermost loop S is in, below FD, that stays a loop in the code
/// (null: none). A loop NVVM unrolls completely (LoopUnrolling.h) is gone
/// by the time its adds are contracted: the product of a variable computed
/// before it is fused into each of its adds (`float t = a[i] * b[i]; for
/// (k < 4) acc += t;` is four fma.rn.f32 and no mul.f32 in nvcc 13.0's PTX,
/// -O3, sm_90, test/hw/microbench/float_contraction.cu).
const Stmt *innermostLoop(const Stmt *S, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(*S);
  for (unsigned Depth = 0; Depth < 256; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty() || Parents[0].get<FunctionDecl>() || Parents[0].get<LambdaExpr>())
      return nullptr;
    Node = Parents[0];
    const auto *Loop = Node.get<Stmt>();
    if (!Loop || !(isa<ForStmt>(Loop) || isa<WhileStmt>(Loop) || isa<DoStmt>(Loop) ||
                   isa<CXXForRangeStmt>(Loop)))
      continue;
    if (const auto *F = dyn_cast<ForStmt>(Loop); F && completeUnrollTripCount(F, Ctx))
      continue;
    return Loop;
  }
  return nullptr;
}

/// Every reference to a variable in S, and the contractible adds of S that
/// are not FMAs already with an addend that names a variable (the add, and
/// the variable's place among its addends).
struct VariableUses : RecursiveASTVisitor<VariableUses> {
  std::map<const VarDecl *, unsigned> References;
  struct AddUse {
    const Expr *Add;
    FloatOp Op;
    /// The variable's place among the variables the add names as addends.
    size_t Position;
  };
  std::map<const VarDecl *, std::vector<AddUse>> Adds;
  const std::set<const Expr *> *FusedAdds = nullptr;

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      ++References[V];
    return true;
  }
  bool VisitExpr(Expr *E) {
    std::optional<FloatOp> Op = floatOperationOf(E);
    if (!Op || Op->Kind != FloatOpKind::Add || !Op->Contractible ||
        FusedAdds->count(E->IgnoreParens()))
      return true;
    std::vector<const VarDecl *> Named;
    for (const Expr *Addend : Op->Addends)
      if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(valueOf(Addend)))
        if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
          Named.push_back(V);
    for (size_t I = 0; I < Named.size(); ++I)
      Adds[Named[I]].push_back({E->IgnoreParens(), *Op, I});
    return true;
  }
};

/// V's value when it is a product the compiler may fuse into the adds that
/// read V: V local, computed once by a contractible multiply of its own
/// type; null otherwise.
const Expr *productOf(const VarDecl *V) {
  if (!V->hasLocalStorage() || isa<ParmVarDecl>(V) || V->getType().isVolatileQualified() ||
      V->getType()->isReferenceType() || !V->getInit())
    return nullptr;
  const Expr *Product = valueOf(V->getInit());
  std::optional<FloatOp> M = floatOperationOf(Product);
  std::optional<std::pair<model::FloatPrecision, unsigned>> Format = floatFormatOf(V->getType());
  if (!M || M->Kind != FloatOpKind::Mul || !M->Contractible || !Format ||
      Format->first != M->Precision || Format->second != M->Elements)
    return nullptr;
  return Product;
}

} // namespace

void Contractions::fuseProductVariables(const FunctionDecl *FD, const Stmt *Body) {
  VariableUses Uses;
  Uses.FusedAdds = &FusedAdds;
  Uses.TraverseStmt(const_cast<Stmt *>(Body));
  ASTContext &Ctx = FD->getASTContext();
  // An add of two products kept in variables fuses the first (`x + y`
  // with both products: one mul.f32 and one fma.rn.f32 in the PTX, as LLVM
  // tries the left operand first).
  std::map<const Expr *, size_t> FirstProduct;
  for (const auto &[V, Adds] : Uses.Adds)
    if (productOf(V))
      for (const VariableUses::AddUse &U : Adds) {
        auto [It, New] = FirstProduct.try_emplace(U.Add, U.Position);
        if (!New)
          It->second = std::min(It->second, U.Position);
      }
  for (const auto &[V, Adds] : Uses.Adds) {
    // A local computed once by a multiply and read only by adds.
    const Expr *Product = productOf(V);
    if (!Product || FusedMultiplies.count(Product) || Uses.References[V] != Adds.size())
      continue;
    std::optional<FloatOp> M = floatOperationOf(Product);
    const Stmt *Loop = innermostLoop(Product, Ctx);
    bool Fusable = true;
    // A product subtracted (`c - t`) is a mul.f32 and a sub.f32 in the PTX;
    // ptxas makes each an FFMA of the negated product (`FFMA R, -a, b, c`
    // in the SASS of float_contraction.cu's subOnly and subTwice), so it
    // is fused as an added one is.
    for (const VariableUses::AddUse &U : Adds)
      Fusable = Fusable && FirstProduct[U.Add] == U.Position &&
                U.Op.Precision == M->Precision && U.Op.Elements == M->Elements &&
                innermostLoop(U.Add, Ctx) == Loop;
    // Each add is an FMA of the product's operands (the multiply repeated
    // in each); the multiply itself is gone.
    if (!Fusable)
      continue;
    FusedMultiplies.insert(Product);
    for (const VariableUses::AddUse &U : Adds)
      FusedAdds.insert(U.Add);
  }
}

void Contractions::visit(const Stmt *S) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<Expr>(S)) {
    std::optional<FloatOp> Op = floatOperationOf(E);
    if (Op && Op->Kind == FloatOpKind::Add && Op->Contractible &&
        !FusedAdds.count(E->IgnoreParens())) {
      for (const Expr *Addend : Op->Addends) {
        const Expr *V = valueOf(Addend);
        std::optional<FloatOp> M = floatOperationOf(V);
        if (!M || M->Kind != FloatOpKind::Mul || !M->Contractible ||
            M->Precision != Op->Precision || M->Elements != Op->Elements ||
            FusedMultiplies.count(V))
          continue;
        FusedMultiplies.insert(V);
        FusedAdds.insert(E->IgnoreParens());
        break;
      }
    }
  }
  for (const Stmt *Child : S->children())
    visit(Child);
}

} // namespace warpcheck::analysis::interp
