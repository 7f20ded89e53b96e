//===- LaunchConfig.h - the launch shape a kernel is analysed with --------===//
//
// Coalescing and bank conflicts depend on how threads are laid out in warps,
// so every analysis runs under one launch configuration, and every
// diagnostic says which one and where it came from.
//
//===----------------------------------------------------------------------===//
#ifndef WARPCHECK_ANALYSIS_LAUNCHCONFIG_H
#define WARPCHECK_ANALYSIS_LAUNCHCONFIG_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpcheck::analysis {

struct Dim3 {
  std::uint32_t X = 1, Y = 1, Z = 1;
  std::uint64_t count() const { return std::uint64_t(X) * Y * Z; }
  bool operator==(const Dim3 &O) const { return X == O.X && Y == O.Y && Z == O.Z; }
  std::string str() const; // "(32, 8, 1)"
};

/// Where a launch configuration came from, most trustworthy first.
enum class LaunchSource {
  LaunchSite,   ///< kernel<<<grid, block, smem>>>(...) or cudaLaunchKernel.
  Annotation,   ///< a `// warpcheck: block(...)` comment above the kernel.
  LaunchBounds, ///< __launch_bounds__(N): block (N, 1, 1) assumed.
  Default,      ///< the configured default block.
};

/// A kernel argument value known at the launch site.
struct BoundArgument {
  /// Integer value of a scalar parameter.
  std::optional<std::int64_t> Integer;
  /// Byte offset of a pointer argument from its allocation (d_in + 1 -> 4).
  std::optional<std::int64_t> PointerOffsetBytes;
};

struct LaunchConfig {
  Dim3 Block;
  /// Grid dimensions when known; otherwise an assumed grid (GridKnown false).
  Dim3 Grid;
  bool GridKnown = false;
  std::optional<std::uint64_t> DynamicSharedBytes;
  LaunchSource Source = LaunchSource::Default;
  /// Human readable origin: "the launch at main.cu:40", "__launch_bounds__(256)",
  /// "the annotation at k.cu:3", "the default block".
  std::string Description;
  /// file:line of the launch site or annotation, empty otherwise.
  std::string Location;
  /// Kernel parameter -> value known at this launch site.
  std::map<const clang::ParmVarDecl *, BoundArgument> Arguments;

  /// Short form used in JSON: "launch", "annotation", "launch_bounds", "default".
  const char *sourceName() const;
};

struct LaunchDefaults {
  Dim3 Block{256, 1, 1};
};

/// Every kernel launch of a translation unit, found once.
class LaunchSiteIndex {
public:
  explicit LaunchSiteIndex(clang::ASTContext &Ctx);

  /// All launch configurations of Kernel, in source order, one per distinct
  /// shape and argument binding; falls back to the annotation,
  /// __launch_bounds__ and finally the default block.
  std::vector<LaunchConfig> configsFor(const clang::FunctionDecl *Kernel,
                                       const LaunchDefaults &Defaults) const;

private:
  struct Site {
    const clang::Expr *Call;           ///< CUDAKernelCallExpr or cudaLaunchKernel call.
    const clang::FunctionDecl *Caller; ///< enclosing host function.
    const clang::Expr *Grid, *Block, *SharedBytes;
    std::vector<const clang::Expr *> Args; ///< empty for cudaLaunchKernel.
  };
  clang::ASTContext &Ctx;
  std::map<const clang::FunctionDecl *, std::vector<Site>> SitesByKernel;
  friend class LaunchSiteCollector;
};

/// Parses "32", "32,8", "(32, 8, 1)" into a Dim3. Returns nullopt if malformed.
std::optional<Dim3> parseDim3(llvm::StringRef Text);

} // namespace warpcheck::analysis

#endif
