//===- ArrayLayout.h - the shape of a shared array ------------------------===//
#ifndef WARPCHECK_ANALYSIS_ARRAYLAYOUT_H
#define WARPCHECK_ANALYSIS_ARRAYLAYOUT_H

#include <cstdint>
#include <vector>

namespace warpcheck::analysis {

/// Shape of an array as the interpreter lays it out: used to try a padded
/// declaration (float tile[32][33]) without editing the source.
struct ArrayLayout {
  std::vector<std::uint64_t> Dims; ///< outermost first
  std::uint64_t ElementBytes = 0;
};

} // namespace warpcheck::analysis

#endif
