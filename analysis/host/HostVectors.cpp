//===- HostVectors.cpp - std::vector as host code sizes launches with it --===//
//
// Benchmarks keep the sizes they run in a vector: `std::vector<int> SIZE =
// {128, 256, 512, 1024, 2048, 4096}; for (int size : SIZE) run(size);`.
// The library's code is not followed (its headers are system headers), so
// a vector built from a braced list is held as the array of its elements:
// a range-for then takes them one by one, `v[i]` (read or assigned), `size()`,
// `empty()`, `front()` and `back()` read them. Any other call that may
// change the vector (push_back, resize, a non-const reference to it) is an
// opaque call and leaves it unknown (opaqueCall), and a loop the run widens
// forgets a vector its body may change (forgetAssignedIn).
//
//===----------------------------------------------------------------------===//

#include "HostEvaluator.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace warpcheck::analysis::host {

bool isStdVector(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getIdentifier() && RD->getName() == "vector";
}

const Expr *vectorSubscriptBase(const Expr *E) {
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(E->IgnoreParens());
  if (!OC || OC->getOperator() != OO_Subscript || OC->getNumArgs() != 2 ||
      !isStdVector(OC->getArg(0)->getType()))
    return nullptr;
  return OC->getArg(0);
}

std::optional<HostValue> HostEvaluator::vectorFromList(const CXXConstructExpr *CE,
                                                      const std::vector<HostValue> &Args) {
  // vector(std::initializer_list<T>, const Allocator & = Allocator()).
  if (!isStdVector(CE->getType()) || Args.empty() || Args[0].K != HostValue::Array ||
      !isa<CXXStdInitializerListExpr>(CE->getArg(0)->IgnoreImplicit()))
    return std::nullopt;
  return Args[0];
}

std::optional<HostValue> HostEvaluator::vectorCall(const CallExpr *CE) {
  QualType T = CE->getType().getNonReferenceType();
  if (vectorSubscriptBase(CE)) {
    Place P = place(CE);
    if (P.Valid)
      return read(P, T);
    return HostValue::unknown(P.Why.empty() ? "an element of a vector" : P.Why);
  }
  const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || !isStdVector(MC->getImplicitObjectArgument()->getType()))
    return std::nullopt;
  llvm::StringRef Name = MD->getName();
  if (Name != "size" && Name != "empty" && Name != "front" && Name != "back")
    return std::nullopt;
  HostValue V = eval(MC->getImplicitObjectArgument());
  if (V.K != HostValue::Array)
    return HostValue::unknown("the " + Name.str() + "() of a vector not known (" + where(CE) +
                              ")");
  if (Name == "size")
    return toType(HostValue::integer(V.Elements.size()), T);
  if (Name == "empty")
    return toType(HostValue::integer(V.Elements.empty()), T);
  if (V.Elements.empty())
    return HostValue::unknown("an element of an empty vector");
  return toType(Name == "front" ? V.Elements.front() : V.Elements.back(), T);
}

} // namespace warpcheck::analysis::host
