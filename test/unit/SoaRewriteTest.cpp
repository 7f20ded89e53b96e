//===- SoaRewriteTest.cpp - the structure-of-arrays rewrite's plan ---------===//
//
// Small programs parsed device side; the rewrite of a kernel's parameter is
// planned and, where it is offered, its edits (and the view's declaration)
// applied to the source, which must then read as written here by hand.
// Where it is refused, the reason names the use that prevents it.
//
//===----------------------------------------------------------------------===//

#include "warpcheck/analysis/KernelAnalysis.h"
#include "warpcheck/analysis/SoaRewrite.h"

#include "CudaTestUnit.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Core/Replacement.h"

#include <gtest/gtest.h>

using namespace warpcheck::analysis;

namespace {

struct Planned {
  std::unique_ptr<clang::ASTUnit> AST;
  SoaRewritePlan Plan;
  /// The main file with the plan's edits and declaration made; empty when
  /// the rewrite is refused or an edit does not apply.
  std::string Rewritten;
  /// "line:column" of the blocker.
  std::string BlockedAt;
};

Planned plan(const std::string &Code, llvm::StringRef Kernel, llvm::StringRef Param) {
  Planned P;
  P.AST = warpcheck::testing::parseCuda(Code, warpcheck::testing::CudaSide::Device);
  clang::ASTContext &Ctx = P.AST->getASTContext();
  const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(Ctx, Kernel);
  EXPECT_TRUE(K) << Kernel.str();
  if (!K)
    return P;
  const clang::ParmVarDecl *Parm = nullptr;
  for (const clang::ParmVarDecl *X : K->parameters())
    if (X->getName() == Param)
      Parm = X;
  EXPECT_TRUE(Parm) << Param.str();
  if (!Parm)
    return P;
  FunctionReferences Refs(Ctx);
  P.Plan = planSoaRewrite(K, Parm, Refs, Ctx);
  const clang::SourceManager &SM = Ctx.getSourceManager();
  if (!P.Plan.offered()) {
    clang::PresumedLoc L = SM.getPresumedLoc(P.Plan.BlockerLocation);
    P.BlockedAt = std::to_string(L.getLine()) + ":" + std::to_string(L.getColumn());
    return P;
  }
  clang::tooling::Replacements Edits;
  auto Add = [&](const clang::tooling::Replacement &R) {
    if (llvm::Error E = Edits.add(R)) {
      ADD_FAILURE() << llvm::toString(std::move(E));
      return false;
    }
    return true;
  };
  if (!P.Plan.ViewDeclaration.empty() &&
      !Add(clang::tooling::Replacement(SM, P.Plan.ViewLocation, 0, P.Plan.ViewDeclaration)))
    return P;
  for (const SourceEdit &E : P.Plan.Edits)
    if (!Add(clang::tooling::Replacement(SM, E.Range, E.Text, Ctx.getLangOpts())))
      return P;
  llvm::Expected<std::string> Out = clang::tooling::applyAllReplacements(
      SM.getBufferData(SM.getMainFileID()), Edits);
  if (Out)
    P.Rewritten = *Out;
  else
    ADD_FAILURE() << llvm::toString(Out.takeError());
  return P;
}

TEST(SoaRewrite, FieldsArrowsAndDeviceFunctionsTwoDeep) {
  Planned P = plan(R"(struct Particle { float x, y, z; };
__device__ float sq(const Particle *r, int i) { return r[i].y * r[i].y; }
__device__ float len(const Particle *q, int i) { return q[i].x + sq(q, i); }
__global__ void k(Particle *p, float *out) {
  int i = threadIdx.x;
  p[i].z = len(p, i) + p->x + p[p[i].x > 0].y;
  out[i] = (p)[i] . y;
}
int main() { Particle *p; float *o; k<<<1, 32>>>(p, o); k<<<2, 32>>>(p, o); }
)",
                   "k", "p");
  ASSERT_TRUE(P.Plan.offered()) << P.Plan.Blocker << " at " << P.BlockedAt;
  EXPECT_EQ(P.Plan.ViewName, "ParticleSoA");
  EXPECT_EQ(P.Plan.Fields, (std::vector<std::string>{"x", "y", "z"}));
  ASSERT_EQ(P.Plan.DeviceFunctions.size(), 2u);
  EXPECT_EQ(P.Plan.DeviceFunctions[0]->getName(), "len");
  EXPECT_EQ(P.Plan.DeviceFunctions[1]->getName(), "sq");
  ASSERT_EQ(P.Plan.Launches.size(), 2u);
  EXPECT_EQ(P.Rewritten, R"(struct Particle { float x, y, z; };
struct ParticleSoA { float *x; float *y; float *z; };
__device__ float sq(ParticleSoA r, int i) { return r.y[i] * r.y[i]; }
__device__ float len(ParticleSoA q, int i) { return q.x[i] + sq(q, i); }
__global__ void k(ParticleSoA p, float *out) {
  int i = threadIdx.x;
  p.z[i] = len(p, i) + p.x[0] + p.y[p.x[i] > 0];
  out[i] = (p).y[i];
}
int main() { Particle *p; float *o; k<<<1, 32>>>(p, o); k<<<2, 32>>>(p, o); }
)");
}

TEST(SoaRewrite, FieldTypesAndTheAddressOfAField) {
  Planned P = plan(R"(enum Kind { Light, Heavy };
typedef struct { const double mass; int *next; Kind kind; unsigned char tag; } Node;
__global__ void k(const Node *n, int *out) {
  int i = threadIdx.x;
  atomicAdd(&n[i].next[0], (int)n[i].mass + n[i].kind);
}
)",
                   "k", "n");
  ASSERT_TRUE(P.Plan.offered()) << P.Plan.Blocker << " at " << P.BlockedAt;
  EXPECT_EQ(P.Rewritten, R"(enum Kind { Light, Heavy };
typedef struct { const double mass; int *next; Kind kind; unsigned char tag; } Node;
struct NodeSoA { const double *mass; int **next; Kind *kind; unsigned char *tag; };
__global__ void k(NodeSoA n, int *out) {
  int i = threadIdx.x;
  atomicAdd(&n.next[i][0], (int)n.mass[i] + n.kind[i]);
}
)");
}

TEST(SoaRewrite, NestedStructsAreFlattenedIntoTheView) {
  // A struct in the element (two deep, one of them anonymous) stays an
  // array of structs unless its scalar fields get arrays of their own:
  // `pos.x` is `pos_x`, through an element and through an arrow.
  Planned P = plan(R"(struct Vec { float x, y; };
struct Frame { Vec pos; struct { Vec v; int n; } vel; double t; };
__global__ void k(Frame *f, float dt) {
  int i = threadIdx.x;
  f[i].pos.x += f[i].vel.v.x * dt + (f[i].pos.y);
  f->vel.n = f[i].vel.n + (int)f[i].t;
}
)",
                   "k", "f");
  ASSERT_TRUE(P.Plan.offered()) << P.Plan.Blocker << " at " << P.BlockedAt;
  EXPECT_EQ(P.Plan.Fields,
            (std::vector<std::string>{"pos_x", "pos_y", "vel_v_x", "vel_v_y", "vel_n", "t"}));
  EXPECT_EQ(P.Rewritten, R"(struct Vec { float x, y; };
struct Frame { Vec pos; struct { Vec v; int n; } vel; double t; };
struct FrameSoA { float *pos_x; float *pos_y; float *vel_v_x; float *vel_v_y; int *vel_n; double *t; };
__global__ void k(FrameSoA f, float dt) {
  int i = threadIdx.x;
  f.pos_x[i] += f.vel_v_x[i] * dt + (f.pos_y[i]);
  f.vel_n[0] = f.vel_n[i] + (int)f.t[i];
}
)");
}

TEST(SoaRewrite, NamespacesNameTheViewWhereTheKernelIsOutside) {
  Planned P = plan(R"(namespace phys {
struct Pair { float a, b; };
__device__ float first(const Pair *q, int i) { return q[i].a; }
}
__global__ void k(const phys::Pair *p, float *out) { out[threadIdx.x] = phys::first(p, threadIdx.x); }
)",
                   "k", "p");
  ASSERT_TRUE(P.Plan.offered()) << P.Plan.Blocker << " at " << P.BlockedAt;
  EXPECT_EQ(P.Rewritten, R"(namespace phys {
struct Pair { float a, b; };
struct PairSoA { float *a; float *b; };
__device__ float first(PairSoA q, int i) { return q.a[i]; }
}
__global__ void k(::phys::PairSoA p, float *out) { out[threadIdx.x] = phys::first(p, threadIdx.x); }
)");
}

TEST(SoaRewrite, AViewDeclaredAlreadyIsUsedAnotherOneIsNot) {
  const char *Same = R"(struct Pair { float a, b; };
struct PairSoA { float *a; float *b; };
__global__ void k(Pair *p) { p[threadIdx.x].b = 0; }
)";
  Planned P = plan(Same, "k", "p");
  ASSERT_TRUE(P.Plan.offered()) << P.Plan.Blocker;
  EXPECT_TRUE(P.Plan.ViewDeclaration.empty());
  EXPECT_EQ(P.Rewritten, R"(struct Pair { float a, b; };
struct PairSoA { float *a; float *b; };
__global__ void k(PairSoA p) { p.b[threadIdx.x] = 0; }
)");
  Planned Other = plan(R"(struct Pair { float a, b; };
struct PairSoA { float *a; };
__global__ void k(Pair *p) { p[threadIdx.x].b = 0; }
)",
                       "k", "p");
  EXPECT_EQ(Other.Plan.Blocker,
            "'PairSoA' is declared already, at unit.cu:2, and is not the view of 'Pair'");
  EXPECT_EQ(Other.BlockedAt, "2:8");
}

/// The reason a rewrite is refused, and where.
std::string refusal(const std::string &Code, llvm::StringRef Kernel = "k",
                    llvm::StringRef Param = "p") {
  Planned P = plan(Code, Kernel, Param);
  EXPECT_FALSE(P.Plan.offered()) << P.Rewritten;
  return P.BlockedAt + " " + P.Plan.Blocker;
}

const char *Decl = "struct P { float x, y; };\n";

TEST(SoaRewrite, UsesThatAreNotFieldAccessesRefuseIt) {
  EXPECT_EQ(refusal(std::string(Decl) + "__global__ void k(P *p) { P e = p[threadIdx.x]; }\n"),
            "2:33 'p[threadIdx.x]' is used as a whole value");
  EXPECT_EQ(refusal(std::string(Decl) + "__device__ void g(P *q);\n"
                                        "__global__ void k(P *p) { g(&p[1]); }\n"),
            "3:29 '&p[1]' takes the address of an element");
  EXPECT_EQ(refusal(std::string(Decl) + "__global__ void k(P *p) { P *q = &p[1]; q++; q->x = 0; }\n"),
            "2:35 '&p[1]' is kept in the pointer 'q', which changes (or whose address is taken) "
            "while it is used");
  EXPECT_EQ(refusal(std::string(Decl) + "__global__ void k(P *p) { P *q = &p[1]; q[0].x = 0; }\n"),
            "2:41 'q', set to '&p[1]', is used other than by '->'");
  EXPECT_EQ(refusal(std::string(Decl) + "__global__ void k(P *p) { (p + 1)->x = 0; }\n"),
            "2:28 'p + 1' is pointer arithmetic the rewrite does not follow");
  EXPECT_EQ(refusal(std::string(Decl) + "__global__ void k(P *p) { p++; p->x = 0; }\n"),
            "2:27 'p++' is pointer arithmetic the rewrite does not follow");
  EXPECT_EQ(refusal(std::string(Decl) + "__global__ void k(P *p) { if (p) p->x = 0; }\n"),
            "2:31 'p' is used as a pointer");
  EXPECT_EQ(refusal(std::string(Decl) + "__global__ void k(P *p) { (*p).x = 0; }\n"),
            "2:28 '*p' is used as a whole value");
  EXPECT_EQ(refusal(std::string(Decl) + "__global__ void k(P *p) { P **a = &p; (*a)->x = 0; }\n"),
            "2:35 '&p' takes the address of 'p'");
  EXPECT_EQ(refusal(std::string(Decl) + "__global__ void k(P *p) { (p[0]).x = 0; }\n"),
            "2:28 '(p[0]).x' is written in a form the rewrite does not follow");
  EXPECT_EQ(refusal(std::string(Decl) + "__global__ void k(P *p) { 0[p].x = 0; }\n"),
            "2:27 '0[p]' is written index first");
  EXPECT_EQ(refusal(std::string(Decl) + "#define X(p) p[threadIdx.x].x\n"
                                        "__global__ void k(P *p) { X(p) = 0; }\n"),
            "3:27 a use of 'p' is inside a macro expansion");
}

TEST(SoaRewrite, AReferenceToAnElementBecomesItsFieldsAtTheIndex) {
  // Each `e.f` becomes `p.f[i]` and the declaration goes (its line with
  // it); the loop's own `i += ...` is outside the reference's block.
  Planned P = plan(R"(struct P { float x, y; };
struct Body { P pos; float mass; };
__device__ float sum(P v) { return v.x + v.y; }
__global__ void k(P *p, float *o, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    P &e = p[i];
    e.x += e.y;
    const P &f = p[n - 1 - i]; o[i] = e.x * f.y;
    P *q = &p[i + 1];
    q->y = 2 * q->x;
  }
}
__global__ void m(Body *b, float *o) {
  const Body &me = b[blockIdx.x * blockDim.x + threadIdx.x];
  o[threadIdx.x] = me.pos.x * me.mass + sum(me.pos);
}
)",
                   "k", "p");
  ASSERT_TRUE(P.Plan.offered()) << P.Plan.Blocker << " at " << P.BlockedAt;
  EXPECT_EQ(P.Rewritten, R"(struct P { float x, y; };
struct PSoA { float *x; float *y; };
struct Body { P pos; float mass; };
__device__ float sum(P v) { return v.x + v.y; }
__global__ void k(PSoA p, float *o, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    p.x[i] += p.y[i];
    o[i] = p.x[i] * p.y[n - 1 - i];
    p.y[i + 1] = 2 * p.x[i + 1];
  }
}
__global__ void m(Body *b, float *o) {
  const Body &me = b[blockIdx.x * blockDim.x + threadIdx.x];
  o[threadIdx.x] = me.pos.x * me.mass + sum(me.pos);
}
)");
  // A reference to a struct inside the element, and one to a struct
  // inside the element a reference is bound to: each field its array.
  Planned Q = plan(R"(struct Vec { float x, y; };
struct B { Vec pos; Vec vel; float m; };
__global__ void k(B *b, float *o) {
  int i = threadIdx.x;
  const Vec &v = b[i].pos;
  const B &me = b[i + 32];
  const Vec &w = me.vel;
  o[i] = v.x * w.y + me.m;
}
)",
                   "k", "b");
  ASSERT_TRUE(Q.Plan.offered()) << Q.Plan.Blocker << " at " << Q.BlockedAt;
  EXPECT_NE(Q.Rewritten.find(R"(__global__ void k(BSoA b, float *o) {
  int i = threadIdx.x;
  o[i] = b.pos_x[i] * b.vel_y[i + 32] + b.m[i + 32];
}
)"),
            std::string::npos)
      << Q.Rewritten;

  // A nested struct read whole through the reference is built from the
  // view's arrays, as through the element.
  Planned M = plan(P.AST ? std::string(P.AST->getSourceManager()
                                           .getBufferData(P.AST->getSourceManager().getMainFileID()))
                         : std::string(),
                   "m", "b");
  ASSERT_TRUE(M.Plan.offered()) << M.Plan.Blocker << " at " << M.BlockedAt;
  EXPECT_NE(M.Rewritten.find("  o[threadIdx.x] = b.pos_x[blockIdx.x * blockDim.x + threadIdx.x] * "
                             "b.mass[blockIdx.x * blockDim.x + threadIdx.x] + "
                             "sum(P{b.pos_x[blockIdx.x * blockDim.x + threadIdx.x], "
                             "b.pos_y[blockIdx.x * blockDim.x + threadIdx.x]});\n}"),
            std::string::npos)
      << M.Rewritten;
  EXPECT_EQ(M.Rewritten.find("const Body &me"), std::string::npos) << M.Rewritten;

  // Refused where the index would not mean the same at each use, or the
  // reference is used whole.
  EXPECT_EQ(refusal(std::string(Decl) + "__global__ void k(P *p) {\n"
                                        "  int i = threadIdx.x; P &e = p[i]; ++i; e.x = 0; }\n"),
            "3:33 'p[i]' is bound to the reference 'e', whose index 'i' changes while the "
            "reference is used");
  EXPECT_EQ(refusal(std::string(Decl) +
                    "__global__ void k(P *p, const int *ix) { P &e = p[ix[threadIdx.x]]; "
                    "e.x = 0; }\n"),
            "2:51 'p[ix[threadIdx.x]]' is bound to the reference 'e', whose index "
            "'ix[threadIdx.x]' reads memory");
  EXPECT_EQ(refusal(std::string(Decl) + "__device__ void g(P &q) { q.x = 0; }\n"
                                        "__global__ void k(P *p) { P &e = p[threadIdx.x]; g(e); }\n"),
            "3:52 'e', bound to 'p[threadIdx.x]', is used as a whole value");
  EXPECT_EQ(refusal(std::string(Decl) + "__global__ void k(P *p) {\n"
                                        "  int i = threadIdx.x; P &e = p[i]; { int i = 0; e.x = i; } }\n"),
            "3:31 'p[i]' is bound to the reference 'e', and 'i' is declared again where it is "
            "used");
  EXPECT_EQ(refusal(std::string(Decl) + "__global__ void k(P *p) { int i = 0, j = 1; P &e = p[i], "
                                        "&f = p[j]; e.x = f.y; }\n"),
            "2:52 'p[i]' is bound to the reference 'e', declared where the rewrite cannot remove "
            "it (with other variables, or not as a statement of a block)");
}

TEST(SoaRewrite, FunctionsThePointerIsPassedToMustChangeWithIt) {
  EXPECT_EQ(refusal(std::string(Decl) + "__device__ float f(const P *q);\n"
                                        "__device__ float f(const P *q) { return q[0].x; }\n"
                                        "__global__ void k(P *p) { p[1].y = f(p); }\n"),
            "2:18 'f', which 'p' is passed to, is declared again at unit.cu:2 (each "
            "declaration would have to change)");
  EXPECT_EQ(refusal(std::string(Decl) + "__device__ float f(const void *q);\n"
                                        "__global__ void k(P *p) { p[1].y = f(p); }\n"),
            "3:38 'p' is passed to 'f', whose body is not in the unit or not the user's");
  EXPECT_EQ(refusal(std::string(Decl) + "__device__ float f(const void *q) { return 0; }\n"
                                        "__global__ void k(P *p) { p[1].y = f(p); }\n"),
            "3:38 'p' is passed to 'f' as 'const void *'");
  EXPECT_EQ(refusal(std::string(Decl) +
                    "template <typename T> __device__ float f(const T *q) { return q[0].x; }\n"
                    "__global__ void k(P *p) { p[1].y = f(p); }\n"),
            "3:38 'p' is passed to the template 'f'");
  EXPECT_EQ(refusal(std::string(Decl) + "__device__ float f(const P *q) { return q[0].x; }\n"
                                        "__device__ float g(P *r) { return f(r + 1); }\n"
                                        "__global__ void k(P *p) { p[1].y = f(p); }\n"),
            "3:37 'f' is also called with another pointer, 'r + 1'");
  EXPECT_EQ(refusal(std::string(Decl) + "__device__ float f(const P *q) { return q[0].x; }\n"
                                        "__device__ float (*fp)(const P *) = f;\n"
                                        "__global__ void k(P *p) { p[1].y = f(p); }\n"),
            "3:37 'f' is used at unit.cu:3 other than by a call");
  EXPECT_EQ(refusal(std::string(Decl) + "__device__ float f(const P *q, int i) { return q[i].x; }\n"
                                        "__global__ void k(P *p, P *o) { "
                                        "p[1].y = f(p, 0) + f(o, 1); }\n"),
            "3:54 'f' is also called with another pointer, 'o' in 'k'");
}

TEST(SoaRewrite, TheStructAndTheKernelMustAllowIt) {
  EXPECT_EQ(refusal("struct P { float x[2]; };\n__global__ void k(P *p) { p[0].x[1] = 0; }\n"),
            "1:18 field 'x' of 'P' is an array (the rewrite makes one array per scalar field)");
  EXPECT_EQ(refusal("struct B { float w; };\nstruct P : B { float x; };\n"
                    "__global__ void k(P *p) { p[0].x = 0; }\n"),
            "2:8 'P' has base classes");
  EXPECT_EQ(refusal("struct P { unsigned a : 4, b : 4; };\n"
                    "__global__ void k(P *p) { p[0].a = 1; }\n"),
            "1:21 field 'a' of 'P' is a bit-field");
  EXPECT_EQ(refusal("union P { float x; int y; };\n__global__ void k(P *p) { p[0].x = 0; }\n"),
            "1:7 'P' is not a named struct or class (a union, a template instance or anonymous)");
  EXPECT_EQ(refusal(std::string(Decl) + "__global__ void k(P *p);\n"
                                        "__global__ void k(P *p) { p[0].x = 0; }\n"),
            "2:17 'k' is declared again at unit.cu:2 (each declaration would have to change)");
  EXPECT_EQ(refusal(std::string(Decl) + "__global__ void k(P p[]) { p[0].x = 0; }\n"),
            "2:21 the declaration of parameter 'p' is written in a form the rewrite does not "
            "follow (a macro, a default argument or array syntax)");
  EXPECT_EQ(refusal(std::string(Decl) + "__global__ void k(P *p) { p[0].x = 0; }\n"
                                        "int main() { void (*f)(P *) = k; }\n"),
            "3:31 'k' is used at unit.cu:3 other than by a <<<...>>> launch (the arguments "
            "given there cannot be followed)");
  EXPECT_EQ(refusal(std::string(Decl) + "__device__ float g(P *q) { return q[0].x; }\n"
                                        "__global__ void k(P *p) { p[0].x = g(p); }\n"
                                        "struct PSoA;\n"),
            "4:8 'PSoA' is declared already, at unit.cu:4, and is not the view of 'P'");
}

TEST(SoaRewrite, TheRootOfAnAccessThroughADeviceFunctionIsTheKernelsParameter) {
  auto AST = warpcheck::testing::parseCuda(std::string(Decl) +
                                               "__device__ float f(const P *q) { return q[1].y; }\n"
                                               "__global__ void k(float *o, P *p) {\n"
                                               "  const P &e = p[threadIdx.x];\n"
                                               "  o[0] = f(p) + e.x;\n"
                                               "}\n",
                                           warpcheck::testing::CudaSide::Device);
  clang::ASTContext &Ctx = AST->getASTContext();
  const clang::FunctionDecl *K = warpcheck::testing::kernelNamed(Ctx, "k");
  ASSERT_TRUE(K);
  const clang::ParmVarDecl *P = K->getParamDecl(1);
  // `q[1].y` in f and `e.x` (a reference bound to p's element) both lead
  // back to p.
  std::vector<const clang::Expr *> Members;
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    std::vector<const clang::Expr *> *Out;
    bool VisitMemberExpr(clang::MemberExpr *M) {
      if (const auto *F = llvm::dyn_cast<clang::FieldDecl>(M->getMemberDecl()))
        if (F->getParent()->getName() == "P")
          Out->push_back(M);
      return true;
    }
  } F;
  F.Out = &Members;
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  ASSERT_EQ(Members.size(), 2u);
  for (const clang::Expr *M : Members)
    EXPECT_EQ(soaRewriteRoot(K, M, Ctx), P) << sourceText(M, Ctx);
}

TEST(SoaRewrite, NestedStructsReadWholeAreBuiltFromTheirArrays) {
  // Copied into a local, passed by value or to a const reference, assigned
  // to a local: the view builds the value with braces (each index written
  // once per field: it has no side effect), nested structs in their own.
  Planned P = plan(R"(namespace geo { struct Vec { float x, y; }; }
struct Seg { geo::Vec a; geo::Vec b; };
struct B { Seg s; geo::Vec pos; float m; };
__device__ float len(const geo::Vec &v) { return v.x * v.x + v.y * v.y; }
__device__ float dot(geo::Vec u, geo::Vec w) { return u.x * w.x + u.y * w.y; }
__global__ void k(B *b, int n) {
  int i = threadIdx.x;
  geo::Vec p = b[i].pos;
  Seg s;
  s = b[i + n].s;
  b[i].m = len(b[i].pos) + dot(b->pos, p) + s.a.x;
}
)",
                   "k", "b");
  ASSERT_TRUE(P.Plan.offered()) << P.Plan.Blocker << " at " << P.BlockedAt;
  EXPECT_EQ(P.Rewritten, R"(namespace geo { struct Vec { float x, y; }; }
struct Seg { geo::Vec a; geo::Vec b; };
struct B { Seg s; geo::Vec pos; float m; };
struct BSoA { float *s_a_x; float *s_a_y; float *s_b_x; float *s_b_y; float *pos_x; float *pos_y; float *m; };
__device__ float len(const geo::Vec &v) { return v.x * v.x + v.y * v.y; }
__device__ float dot(geo::Vec u, geo::Vec w) { return u.x * w.x + u.y * w.y; }
__global__ void k(BSoA b, int n) {
  int i = threadIdx.x;
  geo::Vec p = geo::Vec{b.pos_x[i], b.pos_y[i]};
  Seg s;
  s = Seg{geo::Vec{b.s_a_x[i + n], b.s_a_y[i + n]}, geo::Vec{b.s_b_x[i + n], b.s_b_y[i + n]}};
  b.m[i] = len(geo::Vec{b.pos_x[i], b.pos_y[i]}) + dot(geo::Vec{b.pos_x[0], b.pos_y[0]}, p) + s.a.x;
}
)");
}

TEST(SoaRewrite, NestedStructsUsedWholeOrClashingRefuseIt) {
  const char *Nested = "struct Vec { float x, y; };\nstruct B { Vec pos; float m; };\n";
  // Written whole, bound to a reference through `->`, indexed with a side
  // effect: refused.
  EXPECT_EQ(refusal(std::string(Nested) + "__device__ void z(Vec &v) { v.x = 0; }\n"
                                          "__global__ void k(B *b) { z(b[1].pos); }\n",
                    "k", "b"),
            "4:29 'b[1].pos' is used as a whole struct value");
  EXPECT_EQ(refusal(std::string(Nested) + "__global__ void k(B *b, Vec v) { b[0].pos = v; }\n",
                    "k", "b"),
            "3:34 'b[0].pos' is used as a whole struct value");
  EXPECT_EQ(refusal(std::string(Nested) +
                        "__global__ void k(B *b) { const Vec &v = b->pos; b[1].m = v.y; }\n",
                    "k", "b"),
            "3:42 'b->pos' is bound to the reference 'v'");
  EXPECT_EQ(refusal(std::string(Nested) +
                        "__global__ void k(B *b, int i) { Vec v = b[i++].pos; b[i].m = v.x; }\n",
                    "k", "b"),
            "3:44 'b[i++].pos' is read whole with an index the rewrite would have to repeat");
  EXPECT_EQ(refusal(std::string(Nested) +
                        "__global__ void k(B *b, int *j) { Vec v = b[(int)b[0].m].pos; "
                        "b[1].m = v.x; }\n",
                    "k", "b"),
            "3:45 'b[(int)b[0].m].pos' is read whole with an index the rewrite would have to "
            "repeat");
  EXPECT_EQ(refusal(std::string(Nested) + "__global__ void k(B *b) { b[0].m = (b[1].pos).y; }\n",
                    "k", "b"),
            "3:36 '(b[1].pos).y' is written in a form the rewrite does not follow");
  EXPECT_EQ(refusal("struct Vec { float x; };\nstruct C { Vec pos; float pos_x; };\n"
                    "__global__ void k(C *c) { c[0].pos_x = c[1].pos.x; }\n", "k", "c"),
            "2:27 two fields of 'C' would both be 'pos_x' in the view (a nested struct's "
            "fields are named with its own)");
  EXPECT_EQ(refusal("struct V { float x; };\nstruct W { V v[2]; };\nstruct C { W w; };\n"
                    "__global__ void k(C *c) { c[0].w.v[0].x = 1; }\n", "k", "c"),
            "3:14 field 'w.v' of 'C' is an array (the rewrite makes one array per scalar field)");
}

} // namespace
