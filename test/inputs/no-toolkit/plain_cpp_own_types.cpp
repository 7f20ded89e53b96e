// Parses with NO CUDA toolkit (see check-parse.sh) as plain C++ that does
// not include any CUDA header: the force-included warpcheck_cuda_minimal.h
// must then declare nothing, so a CPU build's own float3/dim3 still compile.

#ifdef __CUDACC__
#error "__CUDACC__ must not be defined in a C++ unit"
#endif
#ifdef CUDA_VERSION
#error "CUDA_VERSION must not be defined in a C++ unit without CUDA headers"
#endif

struct float3 {
  float x, y, z;
};
struct dim3 {
  int x, y, z;
};
#define __host__
#define __device__

__host__ __device__ float dot(const float3 &A, const float3 &B) {
  return A.x * B.x + A.y * B.y + A.z * B.z;
}

int volume(const dim3 &D) { return D.x * D.y * D.z; }
