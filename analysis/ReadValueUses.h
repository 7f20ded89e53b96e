//===- ReadValueUses.h - where a value read from memory can go -----------===//
//
// Private to analysis/. A warp-uniform integer read from memory is swept
// over a value set like an unbound parameter (interp/Expressions.cpp,
// sweepUniformRead), because it may move an address, a guard or a trip
// count. One whose every use turns it into floating point at once
// (`float s = (float)scale[0]`, `unsigned char v = in[k]; acc += v;`) can
// move none of them: C++ has no address, condition or bound computed
// from a float without an explicit conversion back, which this test
// refuses. Sweeping such a read only costs simulations, and a sweep the
// budget cuts short then marks every access of the kernel "may depend on
// values read from memory" for nothing (seen with the generated kernels
// of test/fuzz/kernel_generator.py: a load of an `unsigned char` added to
// a float sum).
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_READVALUEUSES_H
#define WARPCHECK_ANALYSIS_READVALUEUSES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include "warpcheck/model/SectorFootprint.h"

#include <optional>
#include <vector>

namespace warpcheck::analysis {

/// Whether the integer value Read (an rvalue or lvalue expression of
/// integral type) is used only converted to a floating-point type: directly
/// (a cast, an implicit conversion), or through a local variable it
/// initialises whose every use is such a conversion (the variable never
/// assigned again, nor its address taken).
bool usedOnlyAsFloatingPoint(const clang::Expr *Read, clang::ASTContext &Ctx);

/// Whether the struct value Copied (a whole element read from memory) is
/// copied into a local variable every field of which the code reads, and
/// nothing else is done with (`Vec3 w = v[i]; ... w.x * w.y * w.z`), its
/// struct made of scalar fields as large as its alignment, without
/// padding: nvcc then loads every field, one load each (SROA splits the
/// copy, and no field is dead). Measured on the H200: cuda-aos-layout.cu's
/// `Vec3 w = v[i]` three LDG.E, aos-soa-refused.cu's `Vec3 p = b[i].pos`
/// three LDG.E.
bool copiedWholeAndEveryFieldRead(const clang::Expr *Copied, clang::ASTContext &Ctx);

/// The bytes of the struct value Copied (a whole element read from memory)
/// the code reads, in field order, when it is copied into a local variable
/// nothing else is done with than reading its fields (`double4 p = pos[i];
/// ... p.x, p.y, p.z`); nullopt when the copy may go anywhere else. nvcc
/// loads only those bytes (SROA splits the copy, the dead fields go, the
/// rest are vectorized again): model::structCopyPieces.
std::optional<std::vector<model::ByteRange>> fieldBytesRead(const clang::Expr *Copied,
                                                     clang::ASTContext &Ctx);

/// The line of the statement that copies the struct value Copied (a whole
/// element read from memory) on, when Copied initializes a local variable
/// whose one use is the next statement's whole copy of it into memory
/// (`T v = buf[i]; out[i] = v;`): nvcc copies memory to memory there
/// (MemCpyOpt forwards the first copy into the second, and the local is
/// gone), so that the load has that statement's line. Measured on the
/// H200: shared-memory-shapes.cu's `int4 v = buf[...]` (line 15), its
/// LDS.128 on line 16, `out[threadIdx.x] = v`; a scalar's load stays on its
/// own line. nullopt otherwise.
std::optional<unsigned> forwardedCopyLine(const clang::Expr *Copied, clang::ASTContext &Ctx);

/// The line of the store of a whole struct assigned through the element
/// Stored (`p[0] = value`, a trivial copy assignment) when the right-hand
/// side ends on a later line than the element does: clang emits the copy
/// as it evaluates the right-hand side, and the line table gives the store
/// the line the right-hand side ends on. Measured on the H200
/// (test/hw/realcode): SGEMM_CUDA's sgemmVectorize, `reinterpret_cast<float4
/// *>(&Bs[...])[0] =` / `reinterpret_cast<float4 *>(&B[...])[0];`, its
/// STS.128 on the second line, and `reinterpret_cast<float4 *>(` /
/// `&C[...])[0] =` / `tmp;`, its STG.E.128 on the third. nullopt
/// otherwise.
std::optional<unsigned> wholeStructStoreLine(const clang::Expr *Stored, clang::ASTContext &Ctx);

} // namespace warpcheck::analysis

#endif
