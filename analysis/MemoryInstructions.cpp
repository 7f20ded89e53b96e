//===- MemoryInstructions.cpp - accesses nvcc may emit as one instruction -===//

#include "MemoryInstructions.h"

#include "IndexAlignment.h"

#include "warpcheck/analysis/KernelAnalysis.h"

#include "clang/AST/Expr.h"

using namespace clang;

namespace warpcheck::analysis {

namespace {

const Expr *stripped(const Expr *E) { return E ? E->IgnoreParenImpCasts() : nullptr; }

/// The variable an access's base names: `a` in `a[i]`.
const ValueDecl *baseDecl(const ArraySubscriptExpr *AS) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(stripped(AS->getBase())))
    return DRE->getDecl();
  if (const auto *ME = dyn_cast<MemberExpr>(stripped(AS->getBase())))
    return ME->getMemberDecl();
  return nullptr;
}

/// The captured values of an access's index (the lanes the first
/// execution had active), or none.
const std::vector<std::int64_t> *indexValues(const ArraySubscriptExpr *AS,
                                             const CapturedValues &Captured) {
  auto It = Captured.find(AS);
  if (It == Captured.end())
    return nullptr;
  for (const auto &[Sub, Values] : It->second)
    if (stripped(Sub) == stripped(AS->getIdx()))
      return &Values;
  return nullptr;
}

bool isVolatile(const Expr *E) { return E->getType().isVolatileQualified(); }

/// The same value in every execution: the same variable, or the same text.
bool sameIndex(const Expr *X, const Expr *Y, const ASTContext &Ctx) {
  X = stripped(X);
  Y = stripped(Y);
  const auto *DX = dyn_cast<DeclRefExpr>(X);
  const auto *DY = dyn_cast<DeclRefExpr>(Y);
  if (DX && DY)
    return DX->getDecl() == DY->getDecl();
  return sourceText(X, Ctx) == sourceText(Y, Ctx);
}

} // namespace

// Such pair locals are not written again in the code this was seen in. A
// variable offset (`a[i]` and `a[i + s]`, s stepped by a loop) is not one:
// nvcc merges such a pair only in the iteration it unrolls with s = 1.
bool isNextIndex(const Expr *Index, const Expr *Next, const ASTContext &Ctx) {
  Next = stripped(Next);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Next))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->isLocalVarDecl() && VD->getInit())
        Next = stripped(VD->getInit());
  const auto *Add = dyn_cast<BinaryOperator>(Next);
  if (!Add || Add->getOpcode() != BO_Add)
    return false;
  const auto *One = dyn_cast<IntegerLiteral>(stripped(Add->getRHS()));
  return One && One->getValue() == 1 && sameIndex(Add->getLHS(), Index, Ctx);
}

namespace {

void note(AccessResult &A, const std::string &Text) {
  for (const Assumption &S : A.Assumptions)
    if (S.Text == Text)
      return;
  A.Assumptions.push_back({AssumptionKind::MergedInstruction, Text});
  if (A.Status == AccessStatus::Exact)
    A.Status = AccessStatus::Assumed;
}

} // namespace

void noteMergeableAccesses(std::vector<AccessResult> &Accesses, const CapturedValues &Captured,
                           ASTContext &Ctx) {
  for (size_t I = 0; I < Accesses.size(); ++I) {
    for (size_t J = 0; J < Accesses.size(); ++J) {
      if (I == J)
        continue;
      AccessResult &A = Accesses[I];
      const AccessResult &B = Accesses[J];
      // Read from the compiled kernel, or predicted (UnrolledMerges.h):
      // what nvcc merged is said already.
      if (A.InstructionsFrom != InstructionOrigin::Source)
        continue;
      if (A.Site.Space != B.Site.Space || A.Site.Op != B.Site.Op ||
          A.Site.Op == AccessOp::Atomic || isVolatile(A.Site.Expr) || isVolatile(B.Site.Expr))
        continue;
      // Two fields of one element: `p[i].x` and `p[i].y` of a float2.
      const auto *MA = dyn_cast<MemberExpr>(stripped(A.Site.Expr));
      const auto *MB = dyn_cast<MemberExpr>(stripped(B.Site.Expr));
      if (MA && MB && MA->getMemberDecl() != MB->getMemberDecl() && !MA->isArrow() &&
          !MB->isArrow()) {
        QualType Element = MA->getBase()->getType();
        if (!Element->isRecordType() || Element != MB->getBase()->getType())
          continue;
        std::int64_t Size = Ctx.getTypeSizeInChars(Element).getQuantity();
        std::int64_t Align = Ctx.getTypeAlignInChars(Element).getQuantity();
        // A load or store of the element at once needs it aligned to its
        // size (8 or 16 bytes: LDG.64, LDG.128).
        if ((Size != 8 && Size != 16) || Align < Size ||
            sourceText(MA->getBase(), Ctx) != sourceText(MB->getBase(), Ctx))
          continue;
        A.MayMergeWith = B.Site.Expr;
        note(A, "nvcc may " + std::string(A.Site.Op == AccessOp::Load ? "load" : "store") +
                    " '" + sourceText(A.Site.Expr, Ctx) + "' and '" +
                    sourceText(B.Site.Expr, Ctx) + "' with one " + std::to_string(Size) +
                    "-byte instruction; these numbers are those of separate ones");
        continue;
      }
      // Adjacent elements of a __shared__ array: `s[i0]` and `s[i1]` with
      // i1 = i0 + 1 in every lane and i0 even (the pair aligned to twice the
      // element). Only in shared memory, whose arrays nvcc places aligned:
      // a global pointer's pair stays two LDG.E (merged-accesses.cu on the
      // H200: data[i0], data[i0 + 1] two loads, s[i0], s[i1] one LDS.64).
      if (A.Site.Space != MemorySpace::Shared)
        continue;
      const auto *SA = dyn_cast<ArraySubscriptExpr>(stripped(A.Site.Expr));
      const auto *SB = dyn_cast<ArraySubscriptExpr>(stripped(B.Site.Expr));
      if (!SA || !SB || !baseDecl(SA) || baseDecl(SA) != baseDecl(SB) ||
          SA->getType() != SB->getType() ||
          (!isNextIndex(SA->getIdx(), SB->getIdx(), Ctx) &&
           !isNextIndex(SB->getIdx(), SA->getIdx(), Ctx)))
        continue;
      std::int64_t Elem = Ctx.getTypeSizeInChars(SA->getType()).getQuantity();
      if (Elem != 4 && Elem != 8)
        continue;
      const std::vector<std::int64_t> *VA = indexValues(SA, Captured);
      const std::vector<std::int64_t> *VB = indexValues(SB, Captured);
      if (!VA || !VB || VA->empty() || VA->size() != VB->size())
        continue;
      bool Pair = true;
      for (size_t L = 0; L < VA->size() && Pair; ++L) {
        std::int64_t Lo = std::min((*VA)[L], (*VB)[L]);
        Pair = std::abs((*VA)[L] - (*VB)[L]) == 1 && Lo % 2 == 0;
      }
      // Nor where the index as written does not prove the pair aligned:
      // nvcc 13 keeps `s[t * stride]`, `s[t * stride + 1]` two LDS whatever
      // the stride passed (pair-alignment.cu): the numbers of separate
      // accesses are then what executes.
      const ArraySubscriptExpr *Lower = isNextIndex(SA->getIdx(), SB->getIdx(), Ctx) ? SA : SB;
      if (!Pair || !provesAligned(Lower->getIdx(), static_cast<std::uint64_t>(Elem),
                                  2 * static_cast<std::uint64_t>(Elem), Ctx))
        continue;
      A.MayMergeWith = B.Site.Expr;
      note(A, "nvcc may " + std::string(A.Site.Op == AccessOp::Load ? "load" : "store") + " '" +
                  sourceText(A.Site.Expr, Ctx) + "' and '" + sourceText(B.Site.Expr, Ctx) +
                  "' (adjacent elements) with one " + std::to_string(2 * Elem) +
                  "-byte instruction; these numbers are those of separate ones");
    }
  }
}

} // namespace warpcheck::analysis
