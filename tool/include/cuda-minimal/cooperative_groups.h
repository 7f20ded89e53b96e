/*===- cooperative_groups.h - warpcheck's cooperative groups declarations -===//
 *
 * warpcheck's bundled stand-in for the CUDA toolkit's cooperative_groups.h,
 * used only when no CUDA toolkit was found. It declares the groups, their
 * ranks, sizes, synchronisation and warp collectives as the CUDA C++
 * Programming Guide ("Cooperative Groups") gives them. For parsing and
 * the analysis: it treats the methods as library calls and evaluates ranks,
 * sizes and shuffles itself (analysis/interp/CooperativeGroups.cpp), as it
 * does with the toolkit's. Their bodies are for the register estimate's
 * code generation (analysis/registers/): the block's, the warp's and the
 * lane mask's arithmetic the toolkit's compute, without its packed fields.
 *
 * Not declared: the grid-wide and multi-grid launch helpers' internals,
 * cooperative_groups::memcpy_async (a separate toolkit header; reduce and
 * scan are in cooperative_groups/reduce.h and scan.h beside this one),
 * and labeled partitions.
 *
 *===----------------------------------------------------------------------===*/

#ifndef WARPCHECK_FORWARD_COOPERATIVE_GROUPS_H
#define WARPCHECK_FORWARD_COOPERATIVE_GROUPS_H

#pragma clang system_header

#ifndef WARPCHECK_CUDA_MINIMAL_EXPLICIT
#define WARPCHECK_CUDA_MINIMAL_EXPLICIT 1
#endif
#include "warpcheck_cuda_minimal.h"

#if defined(__cplusplus) && defined(__CUDA__)

namespace cooperative_groups {

namespace details {
__device__ inline unsigned long long threadRankInBlock() {
  return threadIdx.x + threadIdx.y * (unsigned long long)blockDim.x +
         threadIdx.z * (unsigned long long)blockDim.x * blockDim.y;
}
__device__ inline unsigned long long blockThreads() {
  return (unsigned long long)blockDim.x * blockDim.y * blockDim.z;
}
__device__ inline unsigned long long blockRankInGrid() {
  return blockIdx.x + blockIdx.y * (unsigned long long)gridDim.x +
         blockIdx.z * (unsigned long long)gridDim.x * gridDim.y;
}
__device__ inline unsigned int laneMaskBelow() {
  return (1u << (threadRankInBlock() & 31u)) - 1u;
}
} // namespace details

/// Any group. The toolkit's keeps its kind and sizes in packed fields and
/// dispatches on them; here a group of unknown kind computes as the block
/// does (the analysis follows each group to where it was made).
class thread_group {
protected:
  unsigned long long _data[2];

public:
  __device__ unsigned long long size() const { return details::blockThreads(); }
  __device__ unsigned long long num_threads() const { return details::blockThreads(); }
  __device__ unsigned long long thread_rank() const { return details::threadRankInBlock(); }
  __device__ void sync() const { __syncthreads(); }
};

class thread_block : public thread_group {
public:
  __device__ unsigned long long size() const { return details::blockThreads(); }
  __device__ unsigned long long num_threads() const { return details::blockThreads(); }
  __device__ unsigned long long thread_rank() const { return details::threadRankInBlock(); }
  __device__ void sync() const { __syncthreads(); }
  __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __device__ dim3 dim_threads() const { return group_dim(); }
};

class grid_group {
  unsigned long long _data[2];

public:
  __device__ unsigned long long size() const {
    return details::blockThreads() * gridDim.x * gridDim.y * gridDim.z;
  }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ unsigned long long thread_rank() const {
    return details::blockRankInGrid() * details::blockThreads() + details::threadRankInBlock();
  }
  __device__ unsigned long long block_rank() const { return details::blockRankInGrid(); }
  __device__ unsigned long long num_blocks() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
  }
  __device__ bool is_valid() const { return true; }
  /// The toolkit's waits on a grid-wide barrier of a cooperative launch.
  __device__ void sync() const { __syncthreads(); }
  __device__ dim3 group_dim() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  __device__ dim3 dim_blocks() const { return group_dim(); }
  __device__ dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
};

/// The lanes of a warp active where coalesced_threads() was called, ranked
/// in lane order.
class coalesced_group : public thread_group {
  __device__ unsigned int mask() const { return (unsigned int)_data[0]; }
  friend __device__ coalesced_group coalesced_threads();

public:
  __device__ unsigned long long size() const { return __popc(mask()); }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ unsigned long long thread_rank() const {
    return __popc(mask() & details::laneMaskBelow());
  }
  __device__ unsigned long long meta_group_rank() const { return 0; }
  __device__ unsigned long long meta_group_size() const { return 1; }
  __device__ void sync() const { __syncwarp(mask()); }
  template <typename T> __device__ T shfl(T var, unsigned int src_rank) const {
    return __shfl_sync(mask(), var, (int)src_rank);
  }
  template <typename T> __device__ T shfl_down(T var, unsigned int delta) const {
    return __shfl_down_sync(mask(), var, delta);
  }
  template <typename T> __device__ T shfl_up(T var, unsigned int delta) const {
    return __shfl_up_sync(mask(), var, delta);
  }
  template <typename T> __device__ T shfl_xor(T var, unsigned int lane_mask) const {
    return __shfl_xor_sync(mask(), var, (int)lane_mask);
  }
  __device__ int any(int predicate) const { return __any_sync(mask(), predicate); }
  __device__ int all(int predicate) const { return __all_sync(mask(), predicate); }
  __device__ unsigned int ballot(int predicate) const { return __ballot_sync(mask(), predicate); }
};

/// Size consecutive threads of a block (Size a power of two, at most 1024).
/// A tile made from a known parent (tiled_partition<32>(block)) converts
/// to the tile of void parent, as the toolkit's does.
template <unsigned int Size, typename ParentT = void> class thread_block_tile;

template <unsigned int Size> class thread_block_tile<Size, void> : public thread_group {
public:
  __device__ static constexpr unsigned long long size() { return Size; }
  __device__ static constexpr unsigned long long num_threads() { return Size; }
  __device__ unsigned long long thread_rank() const {
    return details::threadRankInBlock() & (Size - 1);
  }
  __device__ unsigned long long meta_group_rank() const {
    return details::threadRankInBlock() / Size;
  }
  __device__ unsigned long long meta_group_size() const {
    return (details::blockThreads() + Size - 1) / Size;
  }
  __device__ void sync() const { __syncwarp(); }
  template <typename T> __device__ T shfl(T var, int src_rank) const {
    return __shfl_sync(0xffffffffu, var, src_rank, (int)Size);
  }
  template <typename T> __device__ T shfl_down(T var, unsigned int delta) const {
    return __shfl_down_sync(0xffffffffu, var, delta, (int)Size);
  }
  template <typename T> __device__ T shfl_up(T var, unsigned int delta) const {
    return __shfl_up_sync(0xffffffffu, var, delta, (int)Size);
  }
  template <typename T> __device__ T shfl_xor(T var, unsigned int lane_mask) const {
    return __shfl_xor_sync(0xffffffffu, var, (int)lane_mask, (int)Size);
  }
  __device__ int any(int predicate) const { return __any_sync(0xffffffffu, predicate); }
  __device__ int all(int predicate) const { return __all_sync(0xffffffffu, predicate); }
  __device__ unsigned int ballot(int predicate) const {
    return __ballot_sync(0xffffffffu, predicate);
  }
  template <typename T> __device__ unsigned int match_any(T val) const {
    return __match_any_sync(0xffffffffu, val);
  }
};

template <unsigned int Size, typename ParentT>
class thread_block_tile : public thread_block_tile<Size, void> {};

__device__ inline thread_block this_thread_block() { return thread_block(); }
__device__ inline grid_group this_grid() { return grid_group(); }
__device__ inline coalesced_group coalesced_threads() {
  coalesced_group g;
  g._data[0] = __activemask();
  return g;
}
/// A tile of a size known only at run time: its ranks as the parent's.
__device__ inline thread_group tiled_partition(const thread_group &parent, unsigned int) {
  return parent;
}
template <unsigned int Size, typename ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &) {
  return thread_block_tile<Size, ParentT>();
}

template <typename GroupT> __device__ void sync(const GroupT &group) { group.sync(); }

} // namespace cooperative_groups

#endif // __cplusplus && __CUDA__
#endif // WARPCHECK_FORWARD_COOPERATIVE_GROUPS_H
