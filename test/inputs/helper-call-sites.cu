// Test input for an access in a device function that the kernel calls
// more than once, each call with another index: the function's access is
// one access of the source, whose numbers average the calls, and the
// compiler inlines each call, so that each has instructions of its own
// (on the function's line in nvcc's line table here). The warning is at
// the access; a note at each call says what its requests cost, so that the
// costly call can be found.
#include <cuda_runtime.h>

__device__ float fetch(const float *p, int i) { return p[i]; }

__device__ float fromTile(const float *tile, int row, int stride) {
  return tile[threadIdx.x * stride + row];
}

__global__ void rowAndColumn(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float along = fetch(in, i);
  float across = fetch(in, 32 * i);
  out[i] = along + across;
}

__global__ void tileReads(const float *in, float *out) {
  __shared__ float tile[32 * 33];
  for (int r = 0; r < 32; ++r)
    tile[r * 33 + threadIdx.x] = in[r * 32 + threadIdx.x];
  __syncwarp();
  float padded = fromTile(tile, blockIdx.x % 32, 33);
  float unpadded = fromTile(tile, blockIdx.x % 32, 32);
  out[blockIdx.x * 32 + threadIdx.x] = padded + unpadded;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 64 * 64 * 32 * sizeof(float));
  cudaMalloc(&out, 64 * 64 * sizeof(float));
  rowAndColumn<<<2, 64>>>(in, out);
  tileReads<<<4, 32>>>(in, out);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}

// CHECK-NOTES: :10:56: warning: global load 'p[i]' touches 18 sectors per warp request (ideal 4, 22.2% efficiency) with block (64, 1, 1) from the launch at helper-call-sites.cu:37 [cuda-uncoalesced-global-access]
// CHECK-NOTES: :10:56: note: adjacent lanes are 128 bytes apart; make threadIdx.x the fastest-varying index of this access, or stage the data through shared memory (a tiled transpose) so that global memory is read along rows
// CHECK-NOTES: :18:17: note: through this call: 4 sectors per warp request (ideal 4)
// CHECK-NOTES: :19:18: note: through this call: 32 sectors per warp request (ideal 4)
// CHECK-NOTES: :13:10: warning: 32-way bank conflict reading 'tile[threadIdx.x * stride + row]': lanes 0-31 all hit bank 0 (16.5 wavefronts per request, ideal 1) with block (32, 1, 1) from the launch at helper-call-sites.cu:38 [cuda-shared-bank-conflict]
// CHECK-NOTES: :13:10: note: no padding offered: 'tile' is one-dimensional; index it so that adjacent lanes use adjacent words (in a tree reduction: sequential addressing, a[tid] += a[tid + s] with s halving)
// CHECK-NOTES: :28:18: note: through this call: 1 wavefront per request (ideal 1)
// CHECK-NOTES: :29:20: note: through this call: 32 wavefronts per request (ideal 1)

// How this input is run (test/lit.cfg.py, test/check_warpcheck.py). The RUN
// line is last.
// RUN: %check_warpcheck %s cuda-uncoalesced-global-access,cuda-shared-bank-conflict %t
